// KvCachePlot: the KV cache of MHA, the chosen h_kv and MQA against the context length.
#pragma once

#include "attention/attentioncost.h"
#include "plot/plotstyle.h"

#include <qcustomplot.h>

namespace headlens {

/// Three straight lines from the origin (the cache grows by the same bytes with every token:
/// the steeper, the more each token costs), the context length up to four times the chosen n,
/// and a dashed line at the chosen n. Graphs are made once and refilled.
class KvCachePlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit KvCachePlot(QWidget *parent = nullptr);

    void setComparison(const CostComparison &costs, int64_t tokens);
    void setPlotStyle(const PlotStyle &style);
    /// The bytes graph `index` (0 MHA, 1 chosen, 2 MQA) shows at `tokens` (for tests).
    double valueAt(int index, int64_t tokens) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitTitleAndLegend();

    QString m_titleText; ///< as set; fitTitleAndLegend breaks it onto two lines when narrow
    QCPTextElement *m_title = nullptr;
    QCPItemStraightLine *m_marker = nullptr;
    QCPItemText *m_markerLabel = nullptr;
    CostComparison m_costs;
    double m_unit = 1.0; ///< bytes per unit of the y axis (GiB, MiB, ...)
};

} // namespace headlens
