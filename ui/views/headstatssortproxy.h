// HeadStatsSortProxy: sorts the statistics by their exact values, the heads without one last.
#pragma once

#include <QSortFilterProxyModel>

namespace headlens {

/// Sorts by HeadStatsModel::kSortRole. A NaN ("—": the text has no [CLS], no punctuation)
/// compares as neither smaller nor larger than anything, which would scatter the rows; here it
/// goes after every number in both directions, so sorting by a share lists the heads that have
/// one first.
class HeadStatsSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit HeadStatsSortProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace headlens
