// HeadStatsTable: the per-head statistics of the whole model; click a header to sort.
#pragma once

#include "model/modelrun.h"

#include <QTableView>

#include <memory>
#include <utility>

namespace headlens {

class HeadStatsModel;
class HeadStatsSortProxy;

/// A sortable QTableView over HeadStatsModel; clicking a row asks to open that head.
class HeadStatsTable : public QTableView
{
    Q_OBJECT
public:
    explicit HeadStatsTable(QWidget *parent = nullptr);

    void setRun(const std::shared_ptr<const ModelRun> &run);
    /// HeadStatsModel::setStats: a corpus's means, with their induction scores.
    void setStats(std::vector<HeadStats> stats, int heads, int kvHeads,
                  std::vector<double> induction);
    /// (layer, head) shown in row `row` as sorted now.
    std::pair<int, int> headAt(int row) const;
    /// The width that shows every shown column whole (as fitColumns sizes them) and the
    /// vertical scroll bar.
    int wholeColumnsWidth() const;
    /// With `whole`, the minimum width is wholeColumnsWidth(): a ReflowSplitter then moves the
    /// table below its neighbour rather than hide columns sideways (the Corpus tab). Without
    /// (the default) the minimum is QTableView's and the table scrolls when it must.
    void setMinimumHoldsColumns(bool whole);
    QSize minimumSizeHint() const override;

signals:
    void headActivated(int layer, int head);

protected:
    void changeEvent(QEvent *event) override;

private:
    void showUsedColumns();
    void fitColumns();

    HeadStatsModel *m_model = nullptr;
    HeadStatsSortProxy *m_proxy = nullptr;
    int m_columnsWidth = 0; ///< the shown columns' widths as fitColumns set them
    bool m_minimumHoldsColumns = false;
};

} // namespace headlens
