// OutputProjectionPanel: W_O cut into head blocks, and what each head adds to each word.
#pragma once

#include "plot/plotstyle.h"
#include "runner/traceanalysis.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCPBars;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QCPItemRect;

namespace headlens {

class HeatmapPlot;

/// output = sum_i head_i W_O[:, block_i]^T + b_O, drawn from the trace's head_contributions:
/// bars of ||head_i W_O[:, block_i]^T|| per token (one color per head), W_O with its h column
/// blocks outlined in the heads' colors, and the largest gap between the sum and the output.
class OutputProjectionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit OutputProjectionPanel(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    /// Lets the trace and its weights go while the Pipeline tab is hidden and a newer trace
    /// waits (PipelineView); the plots keep what they drew until the next setTrace.
    void releaseTrace();
    /// The weights (W_O, b_O) arrive from the worker after the trace.
    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    void setPlotStyle(const PlotStyle &style);

    /// max |sum_i share_i + b_O - output|; negative until the weights are known.
    double largestGap() const { return m_gap; }
    /// The parts the printed handout draws on paper (the panel's own, set up as on screen).
    QCustomPlot *barsPlot() const { return m_bars; }
    HeatmapPlot *weightsPlot() const { return m_weights; }
    QString equation() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refreshBars();
    void refreshWeights();
    void replotWhenShown();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    int m_batch = 0;
    PlotStyle m_style;
    QLabel *m_equation;
    HeatmapPlot *m_weights;
    QCustomPlot *m_bars;
    QCPTextElement *m_barsTitle = nullptr;
    std::vector<QCPBars *> m_series;
    std::vector<QCPItemRect *> m_blocks;
    double m_gap = -1.0;
    bool m_replotPending = false; ///< the plots changed while hidden
};

} // namespace headlens
