// HeadStatsTable: HeadStatsModel behind a QSortFilterProxyModel that sorts by the exact value.
#include "views/headstatstable.h"

#include "views/headstatsmodel.h"
#include "views/headstatssortproxy.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyleOptionHeader>

#include <algorithm>

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
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setStretchLastSection(true);
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            &HeadStatsTable::fitColumns);
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
    fitColumns();
}

// Qt's "resize to contents" keeps room for a sort arrow in every header (a row's height
// each: at 1280 px in presentation mode the seven columns scrolled sideways); only the sorted
// column shows one, so only it gets that room, and the widths follow the sorting.
void HeadStatsTable::fitColumns()
{
    QHeaderView *header = horizontalHeader();
    m_columnsWidth = 0;
    for (int column = 0; column < model()->columnCount(); ++column) {
        if (isColumnHidden(column))
            continue;
        QStyleOptionHeader option;
        option.initFrom(header);
        option.section = column;
        option.text = model()->headerData(column, Qt::Horizontal).toString();
        option.sortIndicator = column == header->sortIndicatorSection()
                                   ? QStyleOptionHeader::SortDown
                                   : QStyleOptionHeader::None;
        const int title = header->style()
                              ->sizeFromContents(QStyle::CT_HeaderSection, &option, {}, header)
                              .width();
        // Once per column: each call lays out the text of every row (144 for GPT-2 small),
        // the statistics table's share of the text shaping after a model run (perf).
        const int width = std::max(title, sizeHintForColumn(column));
        setColumnWidth(column, width);
        m_columnsWidth += width;
    }
    updateGeometry();
}

int HeadStatsTable::wholeColumnsWidth() const
{
    return m_columnsWidth + 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
}

void HeadStatsTable::setMinimumHoldsColumns(bool whole)
{
    m_minimumHoldsColumns = whole;
    updateGeometry();
}

QSize HeadStatsTable::minimumSizeHint() const
{
    const QSize hint = QTableView::minimumSizeHint();
    return m_minimumHoldsColumns ? QSize(wholeColumnsWidth(), hint.height()) : hint;
}

void HeadStatsTable::changeEvent(QEvent *event)
{
    QTableView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitColumns();
}

std::pair<int, int> HeadStatsTable::headAt(int row) const
{
    const auto cell = [&](int column) {
        return m_proxy->index(row, column).data(HeadStatsModel::kSortRole).toInt();
    };
    return {cell(HeadStatsModel::Layer), cell(HeadStatsModel::Head)};
}

} // namespace headlens
