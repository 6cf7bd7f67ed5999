// ModelGridView: a QGridLayout of HeatmapPlot thumbnails with "layer l" / "head h" headers.
#include "models/modelgridview.h"

#include "plot/colorlegend.h"
#include "plot/colorrange.h"
#include "plot/heatmapplot.h"
#include "views/ablationset.h"
#include "views/tracereader.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

ModelGridView::ModelGridView(QWidget *parent) : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(4, 4, 4, 4);
    m_grid->setSpacing(3);
    m_legend = new ColorLegend(this);
    m_thumbnailMaker = new ModelThumbnailMaker(this);
    connect(m_thumbnailMaker, &ModelThumbnailMaker::ready, this,
            [this](const ModelThumbnails &thumbnails) {
                m_thumbnails = thumbnails;
                draw();
            });
}

HeatmapPlot *ModelGridView::plot(int layer, int head) const
{
    return m_plots.at(size_t(layer * m_heads + head));
}

void ModelGridView::setRun(std::shared_ptr<const ModelRun> run)
{
    m_run = std::move(run);
    if (!m_run)
        return;
    const int kvHeads = m_run->kvHeads > 0 ? m_run->kvHeads : m_run->heads;
    if (m_run->layers != m_layers || m_run->heads != m_heads || kvHeads != m_kvHeads)
        rebuild(m_run->layers, m_run->heads, kvHeads);
    refill();
}

void ModelGridView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    for (HeatmapPlot *plot : m_plots)
        plot->setPlotStyle(style, true);
    m_legend->setPlotStyle(style);
    draw(); // the same thumbnails in the new style: nothing to pool again
}

void ModelGridView::setCurrent(int layer, int head)
{
    m_currentLayer = layer;
    m_currentHead = head;
    markCurrent();
}

// Only the titles: pooling every head again (refill) for a moved marker cost a second pass over
// all of them on each new run.
void ModelGridView::markCurrent()
{
    for (int l = 0; l < m_layers; ++l)
        for (int h = 0; h < m_heads; ++h) {
            const bool current = l == m_currentLayer && h == m_currentHead;
            HeatmapPlot *plot = this->plot(l, h);
            plot->setTitle(current ? tr("▶ shown") : QString());
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
}

void ModelGridView::rebuild(int layers, int heads, int kvHeads)
{
    qDeleteAll(m_plots);
    qDeleteAll(m_labels);
    m_plots.clear();
    m_labels.clear();
    m_layers = layers;
    m_heads = heads;
    m_kvHeads = kvHeads;
    const bool grouped = kvHeads < heads;
    const int first = grouped ? 2 : 1; // the first row of thumbnails
    auto header = [this](const QString &text, int row, int col, int span = 1) {
        auto *label = new QLabel(text, this);
        label->setAlignment(Qt::AlignCenter);
        m_grid->addWidget(label, row, col, 1, span);
        m_labels.push_back(label);
        return label;
    };
    // Heads count from 1, as in the Heads view. Twelve "head N" headers alone made the model
    // tab wider than a 1024 px window: past six heads the numbers stand alone.
    for (int h = 0; h < heads; ++h)
        header(heads > 6 ? QString::number(h + 1) : tr("head %1").arg(h + 1), first - 1, h + 1);
    const int group = heads / kvHeads;
    for (int g = 0; grouped && g < kvHeads; ++g) {
        QLabel *label =
            header(group > 1 && kvHeads > 8 ? QString::number(g + 1) : tr("K/V %1").arg(g + 1), 0,
                   g * group + 1, group);
        label->setObjectName("kvGroupHeader");
        label->setToolTip(tr("Heads %1–%2 read the keys and values of K/V head %3")
                              .arg(g * group + 1)
                              .arg((g + 1) * group)
                              .arg(g + 1));
        // A rule under the group's name spans exactly its heads.
        label->setStyleSheet("QLabel { border-bottom: 2px solid palette(mid); }");
    }
    for (int l = 0; l < layers; ++l) {
        header(tr("layer %1").arg(l), l + first, 0);
        for (int h = 0; h < heads; ++h) {
            auto *plot = new HeatmapPlot(this);
            plot->setPlotStyle(m_style, true);
            plot->setColorScaleVisible(false);
            plot->setMinimumSize(20, 20);
            // Thumbnails fill their tiles: no ticks (the Heads view has the tokens), and cells
            // stretched to the tile rather than a smaller square inside it.
            plot->setAxesVisible(false);
            plot->setSquareCells(false);
            plot->setCursor(Qt::PointingHandCursor);
            connect(plot, &HeatmapPlot::clicked, this, [this, l, h] { emit headClicked(l, h); });
            plot->setContextMenuPolicy(Qt::CustomContextMenu);
            connect(plot, &QWidget::customContextMenuRequested, this,
                    [this, l, h, plot](const QPoint &at) {
                        emit headMenuRequested(l, h, plot->mapToGlobal(at));
                    });
            m_grid->addWidget(plot, l + first, h + 1);
            m_plots.push_back(plot);
        }
    }
    m_grid->removeWidget(m_legend);
    m_grid->addWidget(m_legend, first, heads + 1, std::max(layers, 1), 1);
    for (int c = 1; c <= heads; ++c)
        m_grid->setColumnStretch(c, 1);
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretch(r, r >= first && r < first + layers ? 1 : 0);
}

void ModelGridView::refill()
{
    if (!m_run)
        return;
    // Hidden in a window on screen (another tab is current): wait to be shown. A grid that is
    // not in a shown window (a test's, an export's) pools at once, as before.
    m_refillPending = !isVisible() && window()->isVisible();
    if (!m_refillPending)
        m_thumbnailMaker->request(m_run, kThumbnailCells);
}

void ModelGridView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_refillPending)
        refill();
}

void ModelGridView::draw()
{
    // Thumbnails of an older run (the newest is still being pooled) or of another shape wait.
    if (!m_run || !m_thumbnails.madeFrom(m_run) || m_run->layers != m_layers ||
        m_run->heads != m_heads)
        return;
    const ModelRun &run = *m_run;
    const std::vector<RowMatrix> &thumbnails = m_thumbnails.pooled;
    const double largest = m_thumbnails.largest;
    for (int l = 0; l < m_layers; ++l) {
        for (int h = 0; h < m_heads; ++h) {
            HeatmapPlot *plot = this->plot(l, h);
            const ConstRowMatrixMap probabilities = run.probabilities(l, h);
            const RowMatrix &pooled = thumbnails[size_t(l * m_heads + h)];
            plot->setPooledMatrix(pooled, int(probabilities.rows()), int(probabilities.cols()),
                                  kThumbnailCells);
            // Per head: the thumbnail's own range (its largest weight is the head's).
            const ColorRange range =
                ColorRange::of(m_style.colorScale, largest,
                               {double(pooled.minCoeff<Eigen::PropagateNumbers>()),
                                double(pooled.maxCoeff<Eigen::PropagateNumbers>())});
            plot->setColorRange(range.lower, range.upper);
            plot->setHighlight(-1, -1);
            const HeadStats &s = run.stat(l, h);
            const QString kv = m_kvHeads < m_heads
                                   ? tr(" · K/V %1").arg(h / (m_heads / m_kvHeads) + 1)
                                   : QString();
            // The tile is too small for the whole label: the tooltip has it.
            const QString change = AblationSet::label(run.interventions.changeOf(l, h),
                                                      !run.interventions.meanSource.isEmpty());
            const int64_t bad = m_thumbnails.notANumber[size_t(l * m_heads + h)];
            plot->setDimmed(!change.isEmpty() ? tr("ablated")
                            : bad > 0         ? tr("not a number")
                                              : QString());
            const QString notANumber =
                bad > 0 ? tr("\nnot a number: %1 of %2 weights (the weights opened hold NaN or "
                             "infinite values; the Controls' banner names them)")
                              .arg(bad)
                              .arg(probabilities.size())
                        : QString();
            plot->setToolTip(tr("layer %1 · head %2%7\nentropy %3 · distance %4\nprevious token "
                                "%5 · first token %6%8\nclick to open it in the Heads view")
                                 .arg(l)
                                 .arg(change.isEmpty() ? QString::number(h + 1)
                                                       : QString("%1 · %2").arg(h + 1).arg(change))
                                 .arg(TraceReader::statistic(s.entropy, 2),
                                      TraceReader::statistic(s.meanDistance, 2),
                                      TraceReader::statistic(s.previousToken, 2),
                                      TraceReader::statistic(s.firstToken, 2), kv, notANumber));
        }
    }
    markCurrent(); // titles, and the replot of every plot
    const ColorRange shared = ColorRange::of(m_style.colorScale, largest, {});
    m_legend->setRange(shared.lower, shared.upper);
    m_legend->setTitle(ColorRange::legendTitle(m_style.colorScale));
    m_legend->setVisible(m_style.colorScale != ColorScaleMode::PerHead);
    for (int i = 0; i < int(m_labels.size()); ++i) {
        QFont font = m_labels[size_t(i)]->font();
        font.setPointSizeF(9 * m_style.fontScale);
        m_labels[size_t(i)]->setFont(font);
    }
}

} // namespace headlens
