// FlowView: the Flow tab: where information moves through the layers, beside where heads look.
#pragma once

#include "lens/runanalysisview.h"
#include "plot/plotstyle.h"
#include "stats/attentionflow.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace headlens {

class HeatmapPlot;
class LayerHeadChoice;

/// Three heatmaps of the text on screen: the attention rollout through the chosen layer
/// (every head averaged), and the chosen head's attention beside its value-weighted attention
/// (each weight times ||v_j W_O,h||, rows summing to 1), so a person can see where looking and
/// moving differ (an attention sink is looked at and moves little). The head may be "every
/// head, averaged". Computed off the UI thread when the tab is shown, again for every new run
/// while it stays shown (the run's own attention: ablations included), never while hidden.
class FlowView : public RunAnalysisView
{
    Q_OBJECT

public:
    explicit FlowView(QWidget *parent = nullptr);

    /// Shows layer `layer` and head `head` (-1: every head averaged), as the combo boxes do.
    void chooseHead(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    HeatmapPlot *rolloutPlot() const { return m_rollout; }
    HeatmapPlot *attentionPlot() const { return m_attention; }
    HeatmapPlot *weightedPlot() const { return m_weighted; }
    QComboBox *layerChoice() const;
    QComboBox *headChoice() const;
    const std::shared_ptr<const AttentionFlow> &flow() const { return m_flow; }
    QString status() const;

    /// The matrices drawn for the choices (n, n): the rollout through the layer, the head's
    /// (or the heads' mean) attention and value-weighted attention (empty without norms).
    RowMatrix rolloutShown() const;
    RowMatrix attentionShown() const;
    RowMatrix weightedShown() const;

    /// Larger texts are max-pooled to this many cells a side, as the heads grid pools them.
    static constexpr int kMaxCells = 256;

protected:
    void runChanged() override;
    void start() override;

private:
    void setFlow(std::shared_ptr<const AttentionFlow> flow);
    void draw();
    /// The mean over the heads shown (one, or all) of `perHead`'s (layer, head) matrices.
    RowMatrix headMean(const Tensor &perHead) const;

    std::shared_ptr<const AttentionFlow> m_flow;
    QLabel *m_status = nullptr;
    LayerHeadChoice *m_choice = nullptr;
    HeatmapPlot *m_rollout = nullptr;
    HeatmapPlot *m_attention = nullptr;
    HeatmapPlot *m_weighted = nullptr;
};

} // namespace headlens
