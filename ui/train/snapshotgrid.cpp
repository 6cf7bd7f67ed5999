// SnapshotGrid: HeatmapPlot for the pictures, HeadColors for the titles, like the heads grid.
#include "train/snapshotgrid.h"

#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "train/taskpattern.h"
#include "views/gridarrangement.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
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

// The layers one under the other, each layer's
// heads in a row, sharing their token labels as the heads grid does: every head of the model on
// the probe at once, in the height a screen shows (the Train page scrolls to it), so that the
// layers can be compared. Every label where the room allows; else every other, in cells of at
// least 8 px; else every label, and the Train page scrolls.
void SnapshotGrid::placePlots()
{
    if (m_plots.empty()) {
        m_host->setMinimumHeight(0);
        return;
    }
    const int rows = std::max(m_plots.front()->rowCount(), 1);
    const int cols = std::max(m_plots.front()->colCount(), 1);
    // Shrinking to fit, the grid fits the height its layout gives it (the language model's
    // splitter gives it the part under the curves, not the page's); else the height of the
    // page that scrolls to it.
    int visible = m_host->height();
    for (QWidget *w = parentWidget(); w && !m_shrinkToFit; w = w->parentWidget()) {
        if (auto *scroll = qobject_cast<QScrollArea *>(w)) {
            visible = scroll->viewport()->height() - m_caption->height() - 12;
            break;
        }
    }
    const QSize area(m_host->width(), std::max(visible, 100));
    const TileRoom room = TileRoom::measure(m_plots);
    const auto arrange = [&](double minCell) {
        return GridArrangement::best(int(m_plots.size()), m_layers, area, rows, cols, room, minCell,
                                     kGap, QSize(), kLayerGap, 1);
    };
    const double labelled =
        std::max(HeatmapPlot::labelPitch(m_plots.front()->yAxis->tickLabelFont()), 40.0 / rows);
    GridArrangement best = arrange(labelled);
    bool unlabelled = false;
    if (!best.fits) {
        const GridArrangement readable = arrange(8.0);
        if (readable.fits) {
            best = readable;
        } else if (m_shrinkToFit) {
            for (HeatmapPlot *plot : m_plots)
                plot->setTickLabelsShown(false, false);
            best =
                GridArrangement::best(int(m_plots.size()), m_layers, area, rows, cols,
                                      TileRoom::measure(m_plots), 2.0, kGap, QSize(), kLayerGap, 1);
            unlabelled = true;
        }
    }
    int bottom = 0;
    for (size_t i = 0; i < m_plots.size() && !unlabelled; ++i) {
        const int head = int(i) % m_heads;
        m_plots[i]->setTickLabelsShown(best.drawsRowLabels(head),
                                       best.drawsColumnLabels(head, m_heads));
    }
    // Their room as they now draw their labels (the first pass may have guessed it).
    const TileRoom placed = TileRoom::measure(m_plots);
    for (size_t i = 0; i < m_plots.size(); ++i) {
        const QRect at =
            best.tileRect(int(i), m_heads, placed, rows, cols, kGap, QSize(), kLayerGap);
        m_plots[i]->setGeometry(at);
        bottom = std::max(bottom, at.bottom() + 1);
    }
    // A minimum from the placement would keep the host from ever shrinking again.
    m_host->setMinimumHeight(m_shrinkToFit ? 0 : bottom);
}

void SnapshotGrid::setShrinkToFit(bool shrink)
{
    m_shrinkToFit = shrink;
    placePlots();
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
