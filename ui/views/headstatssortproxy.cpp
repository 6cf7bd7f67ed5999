// HeadStatsSortProxy: numbers by value, NaN after them whichever way the column is sorted.
#include "views/headstatssortproxy.h"

#include "views/headstatsmodel.h"

#include <cmath>

namespace headlens {

HeadStatsSortProxy::HeadStatsSortProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(HeadStatsModel::kSortRole);
}

bool HeadStatsSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const double a = left.data(sortRole()).toDouble();
    const double b = right.data(sortRole()).toDouble();
    const bool aMissing = std::isnan(a), bMissing = std::isnan(b);
    if (aMissing || bMissing) {
        // Descending order shows the larger first: "last" then means "smallest".
        const bool descending = sortOrder() == Qt::DescendingOrder;
        return aMissing != bMissing && (aMissing ? descending : !descending);
    }
    return a < b;
}

} // namespace headlens
