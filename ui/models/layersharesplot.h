// LayerSharesPlot: the mean [SEP] and [CLS] share of each layer's heads, Clark et al. 2019's
// figure in which [SEP] takes most of the attention in BERT's middle layers.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <qcustomplot.h>

#include <vector>

namespace headlens {

/// Two graphs made once and refilled: x the layer (from 0, as --layer), y the mean over the
/// layer's heads of HeadStats::sepShare and ::clsShare. Hovering a layer shows its values.
class LayerSharesPlot : public QCustomPlot
{
    Q_OBJECT
public:
    enum Series
    {
        Sep,
        Cls
    };

    explicit LayerSharesPlot(QWidget *parent = nullptr);

    /// The mean of `share` over the heads of every layer, skipping heads without one (NaN);
    /// NaN for a layer where no head has one.
    static std::vector<double> layerMeans(const ModelRun &run, double HeadStats::*share);
    /// Whether the run's text has a [CLS] or [SEP] token, so that the plot says something.
    static bool hasSpecialTokens(const ModelRun &run);

    void setRun(const ModelRun &run);
    void setPlotStyle(const PlotStyle &style);
    /// What hovering `layer` shows ("layer 5 · [SEP] 0.512 · [CLS] 0.034"); empty off the range.
    QString hoverText(int layer) const;
    QSize sizeHint() const override { return {320, 220}; }

protected:
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QCPTextElement *m_title = nullptr;
    std::vector<double> m_sep; ///< (L) what graph Sep draws
    std::vector<double> m_cls; ///< (L) what graph Cls draws
};

} // namespace headlens
