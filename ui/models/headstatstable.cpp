// HeadStatsTable: HeadStatsModel behind a QSortFilterProxyModel that sorts by the exact value.
#include "models/headstatstable.h"

#include "models/headstatsmodel.h"
#include "models/headstatssortproxy.h"

#include <QHeaderView>

namespace headlens {

HeadStatsTable::HeadStatsTable(QWidget *parent) : QTableView(parent)
{
    m_model = new HeadStatsModel(this);
    m_proxy = new HeadStatsSortProxy(this);
    m_proxy->setSourceModel(m_model);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(HeadStatsModel::Layer, Qt::AscendingOrder);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Columns as wide as their header and numbers, never narrower: stretched to a share of a
    // narrow table, headers and values were cut ("rev. toke", "12...."). A table narrower
    // than its columns scrolls; a minimum width instead pushed a 1400 px window wider.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    connect(this, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const auto [layer, head] = headAt(index.row());
        emit headActivated(layer, head);
    });
}

void HeadStatsTable::setRun(const std::shared_ptr<const ModelRun> &run)
{
    m_model->setRun(run);
    showUsedColumns();
}

void HeadStatsTable::setStats(std::vector<HeadStats> stats, int heads, int kvHeads,
                              std::vector<double> induction)
{
    m_model->setStats(std::move(stats), heads, kvHeads, std::move(induction));
    showUsedColumns();
}

void HeadStatsTable::showUsedColumns()
{
    for (int column = 0; column < HeadStatsModel::Count; ++column)
        setColumnHidden(column, !m_model->isColumnShown(column));
}

std::pair<int, int> HeadStatsTable::headAt(int row) const
{
    const auto cell = [&](int column) {
        return m_proxy->index(row, column).data(HeadStatsModel::kSortRole).toInt();
    };
    return {cell(HeadStatsModel::Layer), cell(HeadStatsModel::Head)};
}

} // namespace headlens
