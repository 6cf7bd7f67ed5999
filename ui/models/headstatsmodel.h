// HeadStatsModel: one row per head of the model, its statistics as sortable columns.
#pragma once

#include "model/modelrun.h"

#include <QAbstractTableModel>

#include <memory>

namespace headlens {

/// Qt::DisplayRole is the rounded text, kSortRole the exact number (what sorting uses; the
/// layer and head as 0-based indices).
class HeadStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Layer,
        Head,
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

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    double value(int row, int column) const;

    std::shared_ptr<const ModelRun> m_run;
};

} // namespace headlens
