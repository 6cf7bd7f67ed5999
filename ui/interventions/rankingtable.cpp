// RankingTable: numbers kept as numbers (so sorting orders them), drawn with kDecimals.
#include "interventions/rankingtable.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyledItemDelegate>

#include <algorithm>

namespace headlens {

namespace {

/// Draws a double with RankingTable::kDecimals; other values as Qt does.
class DecimalsDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QString displayText(const QVariant &value, const QLocale &locale) const override
    {
        if (value.typeId() == QMetaType::Double)
            return locale.toString(value.toDouble(), 'f', RankingTable::kDecimals);
        return QStyledItemDelegate::displayText(value, locale);
    }
};

} // namespace

RankingTable::RankingTable(QWidget *parent) : QTableWidget(0, 3, parent)
{
    setHorizontalHeaderLabels({tr("Layer"), tr("Head"), QString()});
    setItemDelegate(new DecimalsDelegate(this));
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    horizontalHeader()->setStretchLastSection(true);
}

void RankingTable::setValues(const RowMatrix &values, const QString &valueName)
{
    setSortingEnabled(false);
    setRowCount(int(values.size()));
    setHorizontalHeaderItem(2, new QTableWidgetItem(valueName));
    int row = 0;
    for (int l = 0; l < values.rows(); ++l)
        for (int h = 0; h < values.cols(); ++h, ++row) {
            // Numbers as numbers, so that sorting by a column orders them by value.
            const QVariant cells[] = {l, h + 1, double(values(l, h))};
            for (int c = 0; c < 3; ++c) {
                auto *item = new QTableWidgetItem;
                item->setData(Qt::DisplayRole, cells[c]);
                setItem(row, c, item);
            }
        }
    setSortingEnabled(true);
    sortByColumn(2, Qt::DescendingOrder);
    resizeColumnsToContents();
    updateGeometry();
}

std::pair<int, int> RankingTable::headAt(int row) const
{
    return {item(row, 0)->data(Qt::DisplayRole).toInt(),
            item(row, 1)->data(Qt::DisplayRole).toInt() - 1};
}

// Each column as wide as its header or its widest number, whichever is wider, and the
// scroll bar a long list shows.
QSize RankingTable::minimumSizeHint() const
{
    int width = 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < columnCount(); ++c)
        width += std::max(horizontalHeader()->sectionSizeHint(c), sizeHintForColumn(c));
    return QSize(width, QTableWidget::minimumSizeHint().height());
}

void RankingTable::changeEvent(QEvent *event)
{
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        resizeColumnsToContents();
        updateGeometry();
    }
}

} // namespace headlens
