// HeadStatsModel: one row per head of the model, its statistics as sortable columns.
#pragma once

#include "model/modelrun.h"

#include <QAbstractTableModel>

#include <memory>

namespace headlens {

/// Qt::DisplayRole is the rounded text ("—" for a share the text cannot have), kSortRole the
/// exact number (what sorting uses; the layer, head and K/V group as 0-based indices; NaN for
/// "—", which HeadStatsSortProxy puts last).
class HeadStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Layer,
        Head,
        KvGroup,
        // Right after the head: what an encoder's heads are known for (Clark et al. 2019),
        // visible without scrolling the table sideways in a 1280 px window.
        ClsShare,
        SepShare,
        PunctuationShare,
        Entropy,
        MeanDistance,
        PreviousToken,
        FirstToken,
        Diagonal,
        Count
    };
    static constexpr int kSortRole = Qt::UserRole;

    explicit HeadStatsModel(QObject *parent = nullptr);

    void setRun(std::shared_ptr<const ModelRun> run);
    /// Whether `column` says anything about the run: K/V only when heads share keys and values
    /// (h_kv < h), the [CLS], [SEP] and punctuation shares only when some head has one (an
    /// encoder's text; a decoder's table stays as it was). Every column without a run.
    bool isColumnShown(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    double value(int row, int column) const;
    bool anyValue(int column) const;

    std::shared_ptr<const ModelRun> m_run;
};

} // namespace headlens
