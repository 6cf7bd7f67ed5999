// RankingTable: a layers x heads ranking listed one head a row, sortable by its value.
#pragma once

#include "tensor/tensor.h"

#include <QTableWidget>

namespace headlens {

/// Layer (from 0), head (from 1) and the value, with three decimals (sorted by the exact
/// value): all digits, "-0.267978", hid the column at 1280 px in presentation mode. Its minimum
/// width shows every column whole, so the splitter beside the map moves it below instead of
/// scrolling it sideways.
class RankingTable : public QTableWidget
{
    Q_OBJECT
public:
    static constexpr int kDecimals = 3;

    explicit RankingTable(QWidget *parent = nullptr);

    /// `values` (L, h), largest first; `valueName` heads the value column ("Δ loss").
    void setValues(const RowMatrix &values, const QString &valueName);
    /// 0-based (layer, head) of row `row` as sorted now.
    std::pair<int, int> headAt(int row) const;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent *event) override;
};

} // namespace headlens
