// FlowView: the runner's flow, sliced by the layer and head chosen, in three heatmaps.
#include "lens/flowview.h"

#include "lens/layerheadchoice.h"
#include "lens/lensrunner.h"
#include "plot/heatmapplot.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace headlens {

namespace {

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
    m_choice = new LayerHeadChoice(QStringLiteral("flow"), true);
    m_rollout = flowPlot(QStringLiteral("flowRollout"), tr("share of the token"));
    m_attention = flowPlot(QStringLiteral("flowAttention"), tr("attention weight"));
    m_weighted = flowPlot(QStringLiteral("flowWeighted"), tr("share of what moves"));
    auto *plots = new QHBoxLayout;
    plots->addWidget(m_rollout, 1);
    plots->addWidget(m_attention, 1);
    plots->addWidget(m_weighted, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_choice);
    layout->addWidget(m_status);
    layout->addLayout(plots, 1);

    connect(runner(), &LensRunner::flowReady, this, &FlowView::setFlow);
    connect(runner(), &LensRunner::flowFailed, m_status, &QLabel::setText);
    connect(m_choice, &LayerHeadChoice::chosen, this, &FlowView::draw);
}

void FlowView::runChanged()
{
    m_flow.reset();
    m_choice->fill(run() ? run()->layers : 0, run() ? run()->heads : 0);
}

void FlowView::start()
{
    m_status->setText(tr("Multiplying the layers' attention…"));
    runner()->startFlow(run());
}

void FlowView::chooseHead(int layer, int head)
{
    m_choice->choose(layer, head);
    draw();
}

void FlowView::setFlow(std::shared_ptr<const AttentionFlow> flow)
{
    m_flow = std::move(flow);
    markAnalysed();
    m_status->setText(m_flow->valueWeighted.isEmpty()
                          ? tr("Value-weighted attention needs every layer's input, which a toy "
                               "model's run does not keep: the rollout only.")
                          : QString());
    draw();
}

RowMatrix FlowView::headMean(const Tensor &perHead) const
{
    const int layer = m_choice->layer(), head = m_choice->head();
    if (head != LayerHeadChoice::kEveryHead)
        return perHead.matrix({layer, head});
    const int64_t heads = perHead.shape().size(1);
    RowMatrix sum = perHead.matrix({layer, 0});
    for (int64_t h = 1; h < heads; ++h)
        sum += perHead.matrix({layer, h});
    return sum / float(heads);
}

RowMatrix FlowView::rolloutShown() const
{
    return m_flow ? RowMatrix(m_flow->rollout.matrix({m_choice->layer()})) : RowMatrix();
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
    if (!m_flow || !run() || m_choice->isEmpty())
        return;
    QStringList tokens;
    for (const std::string &token : run()->tokens)
        tokens << QString::fromStdString(token);
    const int layer = m_choice->layer(), head = m_choice->head();
    const QString which = head == LayerHeadChoice::kEveryHead
                              ? tr("layer %1's heads, averaged").arg(layer)
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

QComboBox *FlowView::layerChoice() const
{
    return m_choice->layerBox();
}

QComboBox *FlowView::headChoice() const
{
    return m_choice->headBox();
}

QString FlowView::status() const
{
    return m_status->text();
}

} // namespace headlens
