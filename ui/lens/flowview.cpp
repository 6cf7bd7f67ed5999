// FlowView: the runner's flow, sliced by the layer and head chosen, in three heatmaps.
#include "lens/flowview.h"

#include "lens/lensrunner.h"
#include "plot/heatmapplot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace headlens {

namespace {

constexpr int kEveryHead = -1; ///< the head choice that averages the layer's heads

HeatmapPlot *flowPlot(const QString &name, const QString &scale)
{
    auto *plot = new HeatmapPlot;
    plot->setObjectName(name);
    plot->setColorScaleVisible(true);
    plot->setColorScaleLabel(scale);
    plot->setAxisTitles(HeatmapPlot::tr("query"), HeatmapPlot::tr("key"));
    // Three side by side: a fixed minimum instead of the one that writes every token label
    // (which made the window 2,657 px wide for 40 tokens); labels thin out as room asks.
    plot->setMinimumSize(200, 200);
    plot->hide();
    return plot;
}

} // namespace

FlowView::FlowView(QWidget *parent) : RunAnalysisView(Reads::Run, parent)
{
    setObjectName(QStringLiteral("flowView"));
    auto *intro = new QLabel(
        tr("<b>Where information moves</b>, beside where heads look. Left: <i>attention "
           "rollout</i> (Abnar &amp; Zuidema 2020) through the layer chosen: every layer's "
           "heads averaged, mixed with the residual as 0.5 A + 0.5 I, multiplied through the "
           "layers; a row says how much of that token comes from each input token. Middle and "
           "right: the head's attention, and its <i>value-weighted</i> attention (Kobayashi "
           "et al. 2020): each weight times ||v<sub>j</sub> W<sub>O</sub>||, the size of what "
           "the head moves from token j, rows summing to 1. Where they differ, the head looks "
           "at a token that moves little (an attention sink) or the other way round."));
    intro->setWordWrap(true);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("flowStatus"));
    m_status->setWordWrap(true);
    m_layer = new QComboBox;
    m_layer->setObjectName(QStringLiteral("flowLayer"));
    m_head = new QComboBox;
    m_head->setObjectName(QStringLiteral("flowHead"));
    auto *choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("Layer")));
    choices->addWidget(m_layer);
    choices->addWidget(new QLabel(tr("Head")));
    choices->addWidget(m_head);
    choices->addStretch(1);
    m_rollout = flowPlot(QStringLiteral("flowRollout"), tr("share of the token"));
    m_attention = flowPlot(QStringLiteral("flowAttention"), tr("attention weight"));
    m_weighted = flowPlot(QStringLiteral("flowWeighted"), tr("share of what moves"));
    auto *plots = new QHBoxLayout;
    plots->addWidget(m_rollout, 1);
    plots->addWidget(m_attention, 1);
    plots->addWidget(m_weighted, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(choices);
    layout->addWidget(m_status);
    layout->addLayout(plots, 1);

    connect(runner(), &LensRunner::flowReady, this, &FlowView::setFlow);
    connect(runner(), &LensRunner::flowFailed, m_status, &QLabel::setText);
    connect(m_layer, qOverload<int>(&QComboBox::activated), this, &FlowView::draw);
    connect(m_head, qOverload<int>(&QComboBox::activated), this, &FlowView::draw);
}

void FlowView::runChanged()
{
    m_flow.reset();
    fillChoices();
}

void FlowView::start()
{
    m_status->setText(tr("Multiplying the layers' attention…"));
    runner()->startFlow(run());
}

void FlowView::fillChoices()
{
    const int layer = m_layer->currentData().toInt(), head = m_head->currentData().toInt();
    const QSignalBlocker blockLayer(m_layer), blockHead(m_head);
    m_layer->clear();
    m_head->clear();
    if (!run())
        return;
    for (int l = 0; l < run()->layers; ++l)
        m_layer->addItem(tr("%1").arg(l), l);
    m_head->addItem(tr("every head, averaged"), kEveryHead);
    for (int h = 0; h < run()->heads; ++h)
        m_head->addItem(tr("%1").arg(h + 1), h);
    m_layer->setCurrentIndex(std::max(0, m_layer->findData(layer)));
    m_head->setCurrentIndex(std::max(0, m_head->findData(head)));
}

void FlowView::chooseHead(int layer, int head)
{
    m_layer->setCurrentIndex(std::max(0, m_layer->findData(layer)));
    m_head->setCurrentIndex(std::max(0, m_head->findData(head)));
    draw();
}

void FlowView::setFlow(std::shared_ptr<const AttentionFlow> flow)
{
    m_flow = std::move(flow);
    m_status->setText(m_flow->valueWeighted.isEmpty()
                          ? tr("Value-weighted attention needs every layer's input, which a toy "
                               "model's run does not keep: the rollout only.")
                          : QString());
    draw();
}

RowMatrix FlowView::headMean(const Tensor &perHead) const
{
    const int layer = m_layer->currentData().toInt(), head = m_head->currentData().toInt();
    if (head != kEveryHead)
        return perHead.matrix({layer, head});
    const int64_t heads = perHead.shape().size(1);
    RowMatrix sum = perHead.matrix({layer, 0});
    for (int64_t h = 1; h < heads; ++h)
        sum += perHead.matrix({layer, h});
    return sum / float(heads);
}

RowMatrix FlowView::rolloutShown() const
{
    return m_flow ? RowMatrix(m_flow->rollout.matrix({m_layer->currentData().toInt()}))
                  : RowMatrix();
}

RowMatrix FlowView::attentionShown() const
{
    return m_flow && run() ? headMean(run()->attention) : RowMatrix();
}

RowMatrix FlowView::weightedShown() const
{
    return m_flow && !m_flow->valueWeighted.isEmpty() ? headMean(m_flow->valueWeighted)
                                                      : RowMatrix();
}

void FlowView::draw()
{
    if (!m_flow || !run() || m_layer->count() == 0)
        return;
    QStringList tokens;
    for (const std::string &token : run()->tokens)
        tokens << QString::fromStdString(token);
    const int layer = m_layer->currentData().toInt(), head = m_head->currentData().toInt();
    const QString which = head == kEveryHead ? tr("layer %1's heads, averaged").arg(layer)
                                             : tr("head %1.%2").arg(layer).arg(head + 1);
    const auto show = [&](HeatmapPlot *plot, const RowMatrix &values, const QString &title) {
        plot->setVisible(values.size() > 0);
        if (values.size() == 0)
            return;
        plot->setMatrix(values, kMaxCells);
        plot->setLabels(tokens, tokens);
        plot->setColorRange(0.0, 1.0); // shares: the same scale in all three
        plot->setTitle(title);
        plot->replot(QCustomPlot::rpQueuedReplot);
    };
    show(m_rollout, rolloutShown(), tr("rollout through layer %1").arg(layer));
    show(m_attention, attentionShown(), tr("%1: attention").arg(which));
    show(m_weighted, weightedShown(), tr("%1: value-weighted").arg(which));
}

void FlowView::setPlotStyle(const PlotStyle &style)
{
    for (HeatmapPlot *plot : {m_rollout, m_attention, m_weighted})
        plot->setPlotStyle(style, false);
}

QString FlowView::status() const
{
    return m_status->text();
}

} // namespace headlens
