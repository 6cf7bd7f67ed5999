// CostTable: parameters, FLOPs and KV cache of MHA, the chosen h_kv and MQA, side by side.
#pragma once

#include "attention/attentioncost.h"

#include <QTableWidget>

namespace headlens {

/// Read-only; one column per choice of h_kv, one row per quantity. Passive: setComparison.
class CostTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Row
    {
        KvHeads,
        ParametersPerLayer,
        Parameters,
        FlopsPerLayer,
        CachePerTokenPerLayer,
        CachePerToken,
        CacheWholeContext,
        RowCount
    };
    enum Column
    {
        MultiHead,
        Chosen,
        MultiQuery
    };

    explicit CostTable(QWidget *parent = nullptr);

    void setComparison(const CostComparison &costs, const CostSettings &settings);
    /// The text of one cell, as shown.
    QString cell(Row row, Column column) const;

private:
    void fillColumn(int column, const AttentionCost &cost, const CostSettings &settings);
};

} // namespace headlens
