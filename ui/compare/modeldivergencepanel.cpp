// ModelDivergencePanel: AttentionDifference::perHead of two (L, h, n, n) runs as a HeatmapPlot,
// beside a PredictionsPair.
#include "compare/modeldivergencepanel.h"

#include "compare/predictionspair.h"
#include "plot/heatmapplot.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

ModelDivergencePanel::ModelDivergencePanel(QWidget *parent) : QWidget(parent)
{
    setObjectName("modelDivergence");
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_map = new HeatmapPlot(this);
    m_map->setObjectName("modelDivergenceMap");
    m_map->setColumnLabelAngle(0); // head numbers, written across
    m_map->setSquareCells(false);  // a table of heads: as wide as the room, however few layers
    m_map->setColorScaleVisible(true);
    m_map->setColorScaleLabel(tr("JS (nats)"));
    m_map->setAxisTitles(tr("layer"), tr("head"));
    m_map->setTitleToolTip(
        tr("How far each head's rows moved from A to B: the Jensen-Shannon divergence of A's "
           "and B's attention rows, averaged over the queries (0 = alike, ln 2 ≈ 0.693 = no "
           "key in common). Click a head to draw its heatmaps below."));
    layout->addWidget(m_map, 1);
    auto *side = new QVBoxLayout;
    m_predictionsTitle = new QLabel(tr("<b>Next token</b> after the text"), this);
    side->addWidget(m_predictionsTitle);
    m_predictions = new PredictionsPair(this);
    side->addWidget(m_predictions);
    side->addStretch(1);
    layout->addLayout(side);
    connect(m_map, &HeatmapPlot::cellClicked, this,
            [this](int row, int col) { emit headChosen(row, col); });
}

void ModelDivergencePanel::setRuns(const ModelRun &a, const ModelRun &b,
                                   std::vector<HeadDifference> differences)
{
    m_differences = std::move(differences);
    RowMatrix divergence(a.layers, a.heads);
    double largest = 0.0;
    QStringList texts;
    for (int l = 0; l < a.layers; ++l)
        for (int h = 0; h < a.heads; ++h) {
            const HeadDifference &d = m_differences[size_t(l) * size_t(a.heads) + size_t(h)];
            divergence(l, h) = float(d.divergence);
            largest = std::max(largest, d.divergence);
            texts << QString::number(d.divergence, 'f', 4);
        }
    QStringList layers, heads;
    for (int l = 0; l < a.layers; ++l)
        layers << tr("L%1").arg(l);
    for (int h = 0; h < a.heads; ++h)
        heads << tr("H%1").arg(h + 1);
    m_map->setMatrix(divergence);
    m_map->setLabels(layers, heads);
    m_map->setCellTexts(texts);
    // Its own range: identical models give a map of zeros, drawn as such, not as noise.
    m_map->setColorRange(0.0, largest > 0.0 ? largest : 1e-6);
    m_map->setTitle(tr("JS(A, B) per head · largest %1 · click a head").arg(largest, 0, 'f', 4));
    // A short text through two encoders without a mask has no next token to list.
    m_predictions->setRuns(a, b);
    m_predictionsTitle->setVisible(m_predictions->rowCount() > 0);
    // Rows tall enough for their labels, however many layers.
    m_map->setMinimumHeight(std::clamp(60 + 22 * a.layers, 180, 640));
}

void ModelDivergencePanel::setChosen(int layer, int head)
{
    m_map->setHighlight(layer, head);
}

void ModelDivergencePanel::setPlotStyle(const PlotStyle &style)
{
    m_map->setPlotStyle(style, true);
}

} // namespace headlens
