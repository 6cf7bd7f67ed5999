// OutputProjectionPanel: reads norms and sums from core/attention/headcontributions.
#include "steps/outputprojectionpanel.h"

#include "attention/headcontributions.h"
#include "panels/verticalscrollarea.h"
#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "text/tokenizer.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace headlens {

OutputProjectionPanel::OutputProjectionPanel(QWidget *parent) : QWidget(parent)
{
    // Scrolls down inside its tab: below the heatmaps at 1280 x 720 the tab is about 500 px
    // high, and the bars and W_O shared that height until W_O was a 50 px stamp.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new VerticalScrollArea(this);
    scroll->setObjectName("outputProjectionScroll");
    outer->addWidget(scroll);
    auto *page = new QWidget(scroll);
    auto *layout = new QVBoxLayout(page);
    m_equation = new QLabel(page);
    m_equation->setWordWrap(true);
    m_equation->setTextFormat(Qt::RichText);
    auto *split = new QSplitter(Qt::Vertical, page);
    m_bars = new QCustomPlot(split);
    // A title above the bars, not a label along the short y axis, which cut it in
    // presentation mode; three y ticks, which no longer overlap there.
    m_bars->plotLayout()->insertRow(0);
    m_barsTitle = new QCPTextElement(m_bars, tr("each head's share per token: ‖head_i W_O[:, "
                                                "block_i]^T‖"));
    m_barsTitle->setTextFlags(Qt::AlignCenter | Qt::TextDontClip); // "head i": "_" was cut
    m_bars->plotLayout()->addElement(0, 0, m_barsTitle);
    m_bars->yAxis->ticker()->setTickCount(3);
    m_bars->legend->setVisible(true);
    m_bars->legend->setFillOrder(QCPLegend::foColumnsFirst);
    // Four heads a row: one row of eight (or sixteen) made the panel 930 px wide at least.
    m_bars->legend->setWrap(4);
    m_bars->setMinimumSize(200, 160);
    m_bars->plotLayout()->addElement(2, 0, m_bars->legend);
    m_bars->plotLayout()->setRowStretchFactor(2, 0.001);
    m_bars->xAxis->setTickLabelRotation(-45);
    m_weights = new HeatmapPlot(split);
    m_weights->setAxisTitles("d_model", "h*d_v");
    split->addWidget(m_bars);
    split->addWidget(m_weights);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(m_equation);
    layout->addWidget(split, 1);
    scroll->setWidget(page);
}

void OutputProjectionPanel::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    if (m_analysis && m_analysis->trace != m_trace)
        m_analysis.reset();
    refreshBars();
    refreshWeights();
}

// QCustomPlot draws every layer on replot, shown or not: behind another side tab, twelve heads
// of bars over 1,024 tokens and the 768 x 768 W_O cost the Pipeline tab about 10 ms of its
// stall on every trace. Hidden, the plots are drawn when the panel shows.
void OutputProjectionPanel::replotWhenShown()
{
    m_replotPending = !isVisible();
    if (m_replotPending)
        return;
    m_bars->replot(QCustomPlot::rpQueuedReplot);
    m_weights->replot(QCustomPlot::rpQueuedReplot);
}

void OutputProjectionPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_replotPending)
        replotWhenShown();
}

void OutputProjectionPanel::releaseTrace()
{
    m_trace.reset();
    m_analysis.reset();
}

void OutputProjectionPanel::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis)
{
    m_analysis = std::move(analysis);
    refreshWeights();
}

void OutputProjectionPanel::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_weights->setPlotStyle(style, false);
    // Readable at any zoom: the bars with their rotated words and two legend rows, W_O with
    // its colour bar's ticks (which go by the bar's height).
    const double s = std::max(1.0, style.fontScale);
    m_bars->setMinimumHeight(int(230 * s));
    m_weights->setMinimumHeight(int(240 * s));
    QFont f = font();
    f.setPointSizeF(10.5 * style.fontScale);
    m_equation->setFont(f);
    QFont small = f;
    small.setPointSizeF(9.0 * style.fontScale);
    m_bars->xAxis->setTickLabelFont(small);
    m_bars->yAxis->setTickLabelFont(small);
    m_bars->yAxis->setLabelFont(small);
    QFont bold = small;
    bold.setBold(true);
    m_barsTitle->setFont(bold);
    m_barsTitle->setTextColor(style.foreground());
    m_bars->legend->setFont(small);
    m_bars->setBackground(style.background());
    for (QCPAxis *axis : {m_bars->xAxis, m_bars->yAxis}) {
        axis->setTickLabelColor(style.foreground());
        axis->setLabelColor(style.foreground());
        axis->setBasePen(QPen(style.foreground()));
    }
    m_bars->legend->setBrush(style.background());
    m_bars->legend->setTextColor(style.foreground());
    replotWhenShown();
}

QString OutputProjectionPanel::equation() const
{
    return m_equation->text();
}

void OutputProjectionPanel::refreshBars()
{
    if (!m_trace)
        return;
    const RowMatrix norms = contributionNorms(*m_trace, m_batch); // (n, h)
    const int h = int(norms.cols());
    while (int(m_series.size()) > h) {
        m_bars->removePlottable(m_series.back());
        m_series.pop_back();
    }
    auto *group = m_series.empty() ? new QCPBarsGroup(m_bars) : m_series.front()->barsGroup();
    while (int(m_series.size()) < h) {
        auto *bars = new QCPBars(m_bars->xAxis, m_bars->yAxis);
        const QColor c = HeadColors::color(int(m_series.size()), m_style.dark);
        bars->setBrush(c);
        bars->setPen(QPen(c.darker(130)));
        bars->setName(tr("head %1").arg(m_series.size() + 1));
        bars->setBarsGroup(group);
        m_series.push_back(bars);
    }
    const int n = int(m_trace->input.queryLengthOf(m_batch));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < n; ++i)
        ticker->addTick(i, QString::fromStdString(
                               Tokenizer::displayLabel(m_trace->input.queryLabel(m_batch, i))));
    m_bars->xAxis->setTicker(ticker);
    for (int head = 0; head < h; ++head) {
        QVector<double> keys, values;
        for (int i = 0; i < n; ++i) {
            keys << i;
            values << norms(i, head);
        }
        m_series[size_t(head)]->setWidth(0.8 / std::max(h, 1));
        m_series[size_t(head)]->setData(keys, values);
    }
    m_bars->xAxis->setRange(-0.6, n - 0.4);
    m_bars->yAxis->setRange(0.0, std::max(double(norms.maxCoeff()) * 1.1, 1e-6));
    replotWhenShown();
}

void OutputProjectionPanel::refreshWeights()
{
    const bool ready = m_trace && m_analysis && m_analysis->trace == m_trace;
    m_weights->setVisible(ready);
    QString check = tr("<i>(checking the sum as soon as the weights arrive…)</i>");
    m_gap = -1.0;
    if (ready) {
        const AttentionWeights &w = m_analysis->parameters;
        const Vector bias = m_trace->config.bias ? w.bO : Vector::Zero(w.wO.rows());
        const RowMatrix sum = sumOfContributions(*m_trace, m_batch, bias);
        m_gap = (sum - m_trace->tensor(keys::output).matrix({m_batch})).cwiseAbs().maxCoeff();
        check = tr("Check: max |Σ<sub>i</sub> share<sub>i</sub> + b<sub>O</sub> − output| = "
                   "<b>%1</b> (float rounding).")
                    .arg(m_gap, 0, 'g', 2);
        m_weights->setMatrix(w.wO, 192);
        m_weights->setTitle(tr("W_O: head i owns\ncolumns block_i"));
        const auto range = std::make_pair(double(w.wO.minCoeff()), double(w.wO.maxCoeff()));
        m_weights->setColorRange(range.first, range.second);
        const int h = m_trace->heads(), dV = m_trace->config.headDimV();
        while (int(m_blocks.size()) < h) {
            auto *rect = new QCPItemRect(m_weights);
            rect->setClipToAxisRect(true);
            m_blocks.push_back(rect);
        }
        for (int i = 0; i < int(m_blocks.size()); ++i) {
            m_blocks[size_t(i)]->setVisible(i < h);
            m_blocks[size_t(i)]->setPen(QPen(HeadColors::color(i, m_style.dark), 3.0));
            m_blocks[size_t(i)]->topLeft->setCoords(i * dV - 0.5, -0.5);
            m_blocks[size_t(i)]->bottomRight->setCoords((i + 1) * dV - 0.5, w.wO.rows() - 0.5);
        }
        replotWhenShown();
    }
    m_equation->setText(
        tr("<b>output = Σ<sub>i</sub> head<sub>i</sub> W<sub>O</sub>[:, "
           "block<sub>i</sub>]<sup>T</sup>"
           " + b<sub>O</sub></b> — concat (n, h·d<sub>v</sub>) × W<sub>O</sub><sup>T</sup> is "
           "the sum of one share per head. Bars: how much each head adds to each word. %1")
            .arg(check));
}

} // namespace headlens
