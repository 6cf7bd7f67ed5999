// HeadStatsModel: one row per head of the model, its statistics as sortable columns.
#pragma once

#include "model/modelrun.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

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
        // A corpus's heads only (CorpusSummary::induction): last, not to move a run's columns.
        Induction,
        Count
    };
    static constexpr int kSortRole = Qt::UserRole;

    explicit HeadStatsModel(QObject *parent = nullptr);

    /// The statistics of one text's run.
    void setRun(const std::shared_ptr<const ModelRun> &run);
    /// Any heads' statistics, index layer * heads + head: a run's or a corpus's means, with
    /// `induction` (one per head) for the Induction column or empty without it.
    void setStats(std::vector<HeadStats> stats, int heads, int kvHeads,
                  std::vector<double> induction = {});
    /// Whether `column` says anything about the heads: K/V only when heads share keys and
    /// values (h_kv < h), the [CLS], [SEP] and punctuation shares only when some head has one
    /// (an encoder's text; a decoder's table stays as it was), First only when no [CLS] share
    /// is (an encoder's [CLS] is its first token), Induction only when given.
    /// Every column but Induction before any statistics.
    bool isColumnShown(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    double value(int row, int column) const;
    bool anyValue(int column) const;

    std::vector<HeadStats> m_stats;
    std::vector<double> m_induction;
    int m_heads = 1;
    int m_kvHeads = 0;
    bool m_filled = false;
};

} // namespace headlens
