// SnapshotGrid: HeatmapPlot for the pictures, HeadColors for the titles, like the heads grid.
#include "train/snapshotgrid.h"

#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "train/taskpattern.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

// Every toy model is causal (TrainedModel::layerConfig): a key after its query is masked, so it
// is drawn in the mask colour as in the Heads and Model views, not as a weight of 0.
RowMatrix maskedFuture(RowMatrix weights)
{
    for (Eigen::Index i = 0; i < weights.rows(); ++i)
        weights.row(i).tail(std::max<Eigen::Index>(weights.cols() - i - 1, 0)).setConstant(NAN);
    return weights;
}

} // namespace

SnapshotGrid::SnapshotGrid(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_caption = new QLabel(this);
    m_caption->setObjectName("probeCaption");
    m_caption->setWordWrap(true);
    m_host = new QWidget(this);
    m_host->installEventFilter(this);
    layout->addWidget(m_caption);
    layout->addWidget(m_host, 1);
}

// A resize, or a heatmap whose minimum changed with its labels or font (measured in its
// own layout), places the heatmaps again.
bool SnapshotGrid::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_host &&
        (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest))
        placePlots();
    return QWidget::eventFilter(watched, event);
}

// Never smaller than the side that draws every token label (the probe showed every other one
// in presentation mode): the heads of a layer wrap onto more rows when the width does not hold
// them, and the grid asks for the height of its rows, so the Train page scrolls down.
void SnapshotGrid::placePlots()
{
    if (m_plots.empty()) {
        m_host->setMinimumHeight(0);
        return;
    }
    const int gap = 6;
    int need = 40;
    for (const HeatmapPlot *plot : m_plots) {
        const QSize min = plot->minimumSizeHint();
        need = std::max({need, min.width(), min.height()});
    }
    const int columns = std::clamp((m_host->width() + gap) / (need + gap), 1, m_heads);
    const int rowsPerLayer = (m_heads + columns - 1) / columns;
    const int rows = m_layers * rowsPerLayer;
    const int fit = std::min((m_host->width() - (columns - 1) * gap) / columns,
                             (m_host->height() - (rows - 1) * gap) / rows);
    const int side = std::max(need, fit);
    for (size_t i = 0; i < m_plots.size(); ++i) {
        const int layer = int(i) / m_heads, head = int(i) % m_heads;
        const int row = layer * rowsPerLayer + head / columns, col = head % columns;
        m_plots[i]->setGeometry(col * (side + gap), row * (side + gap), side, side);
    }
    m_host->setMinimumHeight(rows * need + (rows - 1) * gap);
}

void SnapshotGrid::rebuild(int layers, int heads)
{
    for (HeatmapPlot *plot : m_plots)
        delete plot;
    m_plots.clear();
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            auto *plot = new HeatmapPlot(m_host);
            plot->setPlotStyle(m_style, true);
            plot->setColorScaleVisible(false);
            plot->setColorRange(0.0, 1.0);
            plot->setTitleColor(HeadColors::color(head, m_style.dark));
            plot->show();
            m_plots.push_back(plot);
        }
    }
    m_layers = layers;
    m_heads = heads;
    placePlots();
}

void SnapshotGrid::setSnapshot(const AttentionSnapshot &snapshot, TaskKind task)
{
    if (snapshot.layers != m_layers || snapshot.heads != m_heads)
        rebuild(snapshot.layers, snapshot.heads);
    m_step = snapshot.step;
    QStringList labels;
    for (const std::string &label : snapshot.labels)
        labels << QString::fromStdString(label);
    m_caption->setText(tr("Every head on a held-out probe at step %1 (rows: queries, columns: "
                          "keys):  %2")
                           .arg(snapshot.step)
                           .arg(labels.join(' ')));
    const QString score = TaskPattern::shortScoreName(task);
    for (size_t i = 0; i < m_plots.size() && i < snapshot.weights.size(); ++i) {
        HeatmapPlot *plot = m_plots[i];
        const HeadScores &s = snapshot.scores.at(i);
        plot->setMatrix(maskedFuture(snapshot.weights[i]));
        plot->setLabels(labels, labels);
        // Layers from 0 (like GPT-2's h.0), heads from 1, as in every other view.
        plot->setTitle(tr("L%1 H%2 · %3 %4")
                           .arg(s.layer)
                           .arg(s.head + 1)
                           .arg(score)
                           .arg(TaskPattern::score(task, s), 0, 'f', 2));
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void SnapshotGrid::clear()
{
    rebuild(0, 0);
    m_caption->clear();
    m_step = -1;
}

void SnapshotGrid::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    for (HeatmapPlot *plot : m_plots) {
        plot->setPlotStyle(style, true);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace headlens
