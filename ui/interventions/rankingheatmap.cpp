// RankingHeatmap: one HeatmapPlot and a sortable RankingTable of the same (L, h) values.
#include "interventions/rankingheatmap.h"

#include "interventions/rankingtable.h"
#include "panels/reflowsplitter.h"
#include "plot/heatmapplot.h"
#include "plot/layerheadlabels.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QToolTip>

#include <algorithm>

namespace headlens {

namespace {

constexpr int kSmallestMapSide = 200;

} // namespace

RankingHeatmap::RankingHeatmap(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName("rankingStatus");
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelRanking");
    m_plot = new HeatmapPlot(this);
    m_plot->setAxisTitles(tr("layer"), tr("head"));
    m_plot->setColumnLabelAngle(0);
    m_plot->setSmallestSide(kSmallestMapSide); // setPlotStyle scales it with the font
    m_table = new RankingTable(this);
    auto *busy = new QHBoxLayout;
    busy->addWidget(m_progress, 1);
    busy->addWidget(m_cancel);
    auto *splitter = new ReflowSplitter(this);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addLayout(busy);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);
    layout->addStretch(); // keeps the title and the status at the top before the first map
    m_results = splitter;
    m_results->hide(); // nothing to draw before the first ranking
    setRunning(false);
    connect(m_cancel, &QPushButton::clicked, this, &RankingHeatmap::cancelRequested);
    connect(m_plot, &HeatmapPlot::cellHovered, this, [this](int row, int col) {
        if (row < 0 || row >= m_values.rows() || col < 0 || col >= m_values.cols())
            return;
        QToolTip::showText(QCursor::pos(),
                           m_describe ? m_describe(row, col)
                                      : tr("layer %1 · head %2: %3")
                                            .arg(row)
                                            .arg(col + 1)
                                            .arg(double(m_values(row, col)), 0, 'f', 4),
                           m_plot);
    });
    connect(m_plot, &HeatmapPlot::cellClicked, this, [this](int row, int col) {
        if (row < m_values.rows() && col < m_values.cols())
            emit headActivated(row, col);
    });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        const auto [layer, head] = m_table->headAt(row);
        emit headActivated(layer, head);
    });
}

void RankingHeatmap::setValues(const RowMatrix &values, const QString &title,
                               const QString &valueName)
{
    m_values = values;
    m_title->setText(title);
    m_status->clear();
    m_results->show();
    m_plot->setMatrix(values);
    m_plot->setLabels(LayerHeadLabels::layers(int(values.rows())),
                      LayerHeadLabels::heads(int(values.cols())));
    // Negative values (a head whose ablation helps) keep 0 inside the range.
    const double lower = std::min(0.0, double(values.minCoeff()));
    const double upper = std::max(lower + 1e-9, double(values.maxCoeff()));
    m_plot->setColorRange(lower, upper);
    m_plot->setColorScaleLabel(valueName);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_table->setValues(values, valueName);
}

QString RankingHeatmap::title() const
{
    return m_title->text();
}

void RankingHeatmap::setPlotStyle(const PlotStyle &style)
{
    // Cells large enough to point at from the back of the room, even for a model of one or
    // two layers, and larger as the labels grow with presentation mode.
    m_plot->setSmallestSide(int(kSmallestMapSide * std::max(style.fontScale, 1.0)));
    m_plot->setPlotStyle(style, false);
}

void RankingHeatmap::setRunning(bool running)
{
    m_running = running;
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running) {
        m_progress->setValue(0);
        m_status->setText(tr("Computing: one ablated pass per head…"));
    }
}

void RankingHeatmap::setProgress(int percent)
{
    m_progress->setValue(percent);
}

void RankingHeatmap::showCancelled()
{
    setRunning(false);
    m_status->setText(m_values.size() > 0
                          ? tr("Cancelled. The map shows the last ranking that finished.")
                          : tr("Cancelled before the end: nothing to show yet."));
}

void RankingHeatmap::showFailed(const QString &message)
{
    setRunning(false);
    m_status->setText(message);
}

void RankingHeatmap::chooseHead(int layer, int head)
{
    m_plot->setHighlight(layer, head);
}

void RankingHeatmap::setStatus(const QString &text)
{
    m_status->setText(text);
}

void RankingHeatmap::clear()
{
    m_values.resize(0, 0);
    m_title->clear();
    m_status->clear();
    m_results->hide();
    m_table->setValues(m_values, QString());
}

void RankingHeatmap::setCellDescriber(std::function<QString(int layer, int head)> describe)
{
    m_describe = std::move(describe);
}

QString RankingHeatmap::status() const
{
    return m_status->text();
}

} // namespace headlens
