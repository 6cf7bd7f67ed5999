// ModelDivergencePanel: how far two models' heads drift apart, every layer at once, and what
// each model predicts next.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"
#include "stats/attentiondifference.h"

#include <QWidget>

#include <vector>

class QLabel;

namespace headlens {

class HeatmapPlot;
class PredictionsPair;

/// Above the Compare tab's head rows when B is another model: a layers x heads map of the
/// Jensen-Shannon divergence between A's and B's attention rows (mean over the queries), the
/// head being drawn below outlined, and the two models' next tokens side by side. A click on a
/// cell asks for that head (headChosen). Passive: setRuns() fills it.
class ModelDivergencePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ModelDivergencePanel(QWidget *parent = nullptr);

    /// Two runs of the same tokens through models of one shape (modelComparisonProblem said
    /// they compare) and their heads' differences (ComparedRuns::modelHeads).
    void setRuns(const ModelRun &a, const ModelRun &b, std::vector<HeadDifference> differences);
    /// Outlines (layer, head) on the map.
    void setChosen(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    HeatmapPlot *map() const { return m_map; }
    PredictionsPair *predictions() const { return m_predictions; }
    /// Every head's difference, index layer * heads + head (AttentionDifference::perHead).
    const std::vector<HeadDifference> &differences() const { return m_differences; }

signals:
    void headChosen(int layer, int head);

private:
    HeatmapPlot *m_map = nullptr;
    QLabel *m_predictionsTitle = nullptr;
    PredictionsPair *m_predictions = nullptr;
    std::vector<HeadDifference> m_differences;
};

} // namespace headlens
