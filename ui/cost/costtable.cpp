// CostTable: row headers say what each number is; the chosen column is bold.
#include "cost/costtable.h"

#include "cost/costnumbers.h"

#include <QHeaderView>

namespace headlens {

CostTable::CostTable(QWidget *parent) : QTableWidget(RowCount, 3, parent)
{
    setObjectName("costTable");
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Short labels, the whole sentence in the tooltip: "parameters of W_Q, W_K, W_V, W_O, a
    // layer" took half the width at 1280 px and cut the columns of numbers.
    const QString labels[RowCount] = {
        tr("K/V heads"),        tr("params, a layer"),       tr("params, all layers"),
        tr("FLOPs, a layer"),   tr("KV cache/token, layer"), tr("KV cache/token, all"),
        tr("KV cache, context")};
    const QString tips[RowCount] = {
        tr("K/V heads h_kv"),
        tr("parameters of W_Q, W_K, W_V, W_O, a layer"),
        tr("parameters, all layers"),
        tr("FLOPs of a layer at n tokens"),
        tr("KV cache per token, a layer: h_kv · (d_k + d_v) · bytes: 2 · h_kv · d_k · bytes "
           "when d_v = d_k"),
        tr("KV cache per token, all layers"),
        tr("KV cache, the whole context")};
    for (int row = 0; row < RowCount; ++row) {
        auto *header = new QTableWidgetItem(labels[row]);
        header->setToolTip(tips[row]);
        setVerticalHeaderItem(row, header);
    }
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void CostTable::fillColumn(int column, const AttentionCost &cost, const CostSettings &settings)
{
    const QString values[RowCount] = {
        QString::number(cost.kvHeads),
        CostNumbers::count(double(cost.parametersPerLayer)),
        CostNumbers::count(double(cost.parameters)),
        CostNumbers::flops(cost.flopsPerLayer),
        CostNumbers::bytes(cost.kvCacheBytesPerTokenPerLayer),
        CostNumbers::bytes(cost.kvCacheBytesPerToken),
        CostNumbers::bytes(cost.kvCacheBytes),
    };
    for (int row = 0; row < RowCount; ++row) {
        auto *item = new QTableWidgetItem(values[row]);
        item->setTextAlignment(Qt::AlignCenter);
        if (column == Chosen) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        setItem(row, column, item);
    }
    item(CachePerTokenPerLayer, column)
        ->setToolTip(tr("%1 · (%2 + %3) · %4 bytes")
                         .arg(cost.kvHeads)
                         .arg(settings.dK)
                         .arg(settings.dV)
                         .arg(settings.bytesPerValue));
}

void CostTable::setComparison(const CostComparison &costs, const CostSettings &settings)
{
    const int64_t kv = costs.chosen.kvHeads;
    const QString chosen = kv == settings.heads ? tr("yours: MHA")
                           : kv == 1            ? tr("yours: MQA")
                                                : tr("yours: GQA");
    setHorizontalHeaderLabels({tr("MHA (h_kv = h)"), chosen, tr("MQA (h_kv = 1)")});
    fillColumn(MultiHead, costs.multiHead, settings);
    fillColumn(Chosen, costs.chosen, settings);
    fillColumn(MultiQuery, costs.multiQuery, settings);
    resizeColumnsToContents();
    // Never narrower than its numbers: the page scrolls down, not the columns off the edge.
    int need = verticalHeader()->sizeHint().width() + 2 * frameWidth();
    for (int column = 0; column < columnCount(); ++column)
        need += columnWidth(column);
    setMinimumWidth(need);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    setFixedHeight(horizontalHeader()->height() + verticalHeader()->length() + 2 * frameWidth());
}

QString CostTable::cell(Row row, Column column) const
{
    const QTableWidgetItem *it = item(row, column);
    return it ? it->text() : QString();
}

} // namespace headlens
