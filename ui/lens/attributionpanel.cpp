// AttributionPanel: two token choices, the heads' map, the other parts and the chosen head.
#include "lens/attributionpanel.h"

#include "plot/layerheadlabels.h"
#include "views/differenceheatmap.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace headlens {

namespace {

QString signedNumber(double value)
{
    return (value >= 0 ? QStringLiteral("+") : QString()) + QString::number(value, 'f', 3);
}

QString tokenList(const std::vector<LogitAttribution::TokenEffect> &effects)
{
    QStringList labels;
    for (size_t k = 0; k < std::min<size_t>(effects.size(), 6); ++k)
        labels << QStringLiteral("“%1” %2").arg(
            QString::fromStdString(effects[k].label).toHtmlEscaped(),
            signedNumber(effects[k].value));
    return labels.join(QStringLiteral(", "));
}

} // namespace

AttributionPanel::AttributionPanel(QWidget *parent) : QWidget(parent)
{
    m_heading = new QLabel;
    m_heading->setWordWrap(true);
    m_token = new QComboBox;
    m_token->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_token->setObjectName(QStringLiteral("dlaToken"));
    m_token->setToolTip(tr("The token whose logit is split up among the heads"));
    m_wrong = new QComboBox;
    m_wrong->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_wrong->setObjectName(QStringLiteral("dlaWrong"));
    m_wrong->setToolTip(tr("Subtract this token's logit: which heads tell the two apart"));
    auto *choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("logit of")));
    choices->addWidget(m_token);
    choices->addWidget(new QLabel(tr("minus")));
    choices->addWidget(m_wrong);
    choices->addStretch();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("dlaStatus"));
    m_status->setWordWrap(true);
    m_map = new DifferenceHeatmap;
    m_map->setObjectName(QStringLiteral("dlaMap"));
    m_map->setColorScaleLabel(tr("share of the logit"));
    m_map->setColumnLabelAngle(0);
    m_map->setAxisTitles(tr("layer"), tr("head"));
    m_map->setSmallestSide(180); // cells to point at, even for a model of one or two layers
    m_map->hide();
    m_parts = new QLabel;
    m_parts->setObjectName(QStringLiteral("dlaParts"));
    m_parts->setWordWrap(true);
    m_headLabel = new QLabel;
    m_headLabel->setObjectName(QStringLiteral("dlaHead"));
    m_headLabel->setWordWrap(true);
    m_headLabel->setTextFormat(Qt::RichText);
    m_open = new QPushButton(tr("Show in the Heads view"));
    m_open->setObjectName(QStringLiteral("dlaOpenHead"));
    m_open->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_heading);
    layout->addLayout(choices);
    layout->addWidget(m_status);
    layout->addWidget(m_map, 1);
    layout->addWidget(m_parts);
    layout->addWidget(m_headLabel);
    layout->addWidget(m_open, 0, Qt::AlignLeft);

    const auto changed = [this] { request(); };
    connect(m_token, qOverload<int>(&QComboBox::activated), this, changed);
    connect(m_wrong, qOverload<int>(&QComboBox::activated), this, changed);
    connect(m_map, &HeatmapPlot::cellClicked, this, &AttributionPanel::chooseHead);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_layer >= 0)
            emit headOpened(m_layer, m_head);
    });
}

void AttributionPanel::setChoices(int position, const QString &label,
                                  const std::vector<TokenPrediction> &candidates)
{
    m_position = position;
    m_candidates = candidates;
    m_heading->setText(tr("<b>Direct logit attribution</b> at token %1 (“%2”): what each head's "
                          "output, read through the final norm with its scale frozen, adds to "
                          "the logit. Red pushes the token up, blue down.")
                           .arg(position + 1)
                           .arg(label.toHtmlEscaped()));
    const QSignalBlocker blockToken(m_token), blockWrong(m_wrong);
    m_token->clear();
    m_wrong->clear();
    m_wrong->addItem(tr("(nothing)"), -1);
    for (const TokenPrediction &p : candidates) {
        const QString text = QStringLiteral("“%1”  %2")
                                 .arg(QString::fromStdString(p.label))
                                 .arg(p.probability, 0, 'f', 3);
        m_token->addItem(text, p.tokenId);
        m_wrong->addItem(text, p.tokenId);
    }
    request();
}

void AttributionPanel::request()
{
    if (m_position < 0 || m_token->count() == 0)
        return;
    const int token = m_token->currentData().toInt();
    const int wrong = m_wrong->currentData().toInt();
    if (token == wrong) {
        showFailed(tr("The token and the one subtracted are the same: their difference is 0 "
                      "everywhere. Choose another."));
        return;
    }
    emit requested(m_position, token, wrong);
}

void AttributionPanel::showComputing()
{
    m_status->setText(tr("Computing…"));
}

void AttributionPanel::showFailed(const QString &message)
{
    m_attribution.reset(); // the map it drew is gone with it
    m_status->setText(message);
    m_map->hide();
    m_parts->clear();
    m_headLabel->clear();
    m_open->setEnabled(false);
}

void AttributionPanel::setAttribution(std::shared_ptr<const LogitAttribution> attribution)
{
    m_attribution = std::move(attribution);
    const LogitAttribution &a = *m_attribution;
    m_map->setMatrix(a.heads);
    m_map->setLabels(LayerHeadLabels::layers(int(a.heads.rows())),
                     LayerHeadLabels::heads(int(a.heads.cols())));
    m_map->setLargest(double(a.heads.cwiseAbs().maxCoeff()));
    const QString what = a.wrong >= 0 ? tr("logit(“%1”) − logit(“%2”)")
                                            .arg(QString::fromStdString(a.tokenLabel),
                                                 QString::fromStdString(a.wrongLabel))
                                      : tr("logit(“%1”)").arg(QString::fromStdString(a.tokenLabel));
    // Above the map, not its title: a map of two layers is narrower than the sentence.
    m_status->setText(tr("Each head's share of %1 = %2:").arg(what).arg(a.logit, 0, 'f', 3));
    m_map->show();
    m_map->replot(QCustomPlot::rpQueuedReplot);
    double mlps = 0.0, biases = 0.0;
    for (double v : a.mlps)
        mlps += v;
    for (double v : a.biases)
        biases += v;
    m_parts->setText(tr("Besides the heads: embeddings %1, MLPs %2, attention biases %3, the "
                        "final norm's bias %4. All the shares add up to %5 (the model's %6).")
                         .arg(signedNumber(a.embeddings), signedNumber(mlps), signedNumber(biases),
                              signedNumber(a.normBias), QString::number(a.sum(), 'f', 3),
                              QString::number(a.logit, 'f', 3)));
    if (m_layer < 0 || m_layer >= a.heads.rows() || m_head >= a.heads.cols()) {
        // The head that pushes most, either way, until the person picks one.
        Eigen::Index layer = 0, head = 0;
        a.heads.cwiseAbs().maxCoeff(&layer, &head);
        m_layer = int(layer);
        m_head = int(head);
    }
    chooseHead(m_layer, m_head);
}

void AttributionPanel::chooseHead(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    m_map->setHighlight(layer, head);
    m_map->replot(QCustomPlot::rpQueuedReplot);
    describeHead();
}

void AttributionPanel::describeHead()
{
    const LogitAttribution *a = m_attribution.get();
    if (!a || m_layer < 0 || m_layer >= a->heads.rows() || m_head < 0 ||
        m_head >= a->heads.cols()) {
        m_headLabel->clear();
        m_open->setEnabled(false);
        return;
    }
    const size_t index = size_t(m_layer * a->heads.cols() + m_head);
    m_headLabel->setText(tr("<b>Head %1.%2</b>: share %3<br>raises most: %4<br>lowers most: %5")
                             .arg(m_layer)
                             .arg(m_head + 1)
                             .arg(signedNumber(a->heads(m_layer, m_head)))
                             .arg(tokenList(a->promoted.at(index)))
                             .arg(tokenList(a->suppressed.at(index))));
    m_open->setEnabled(true);
}

void AttributionPanel::setPlotStyle(const PlotStyle &style)
{
    m_map->setPlotStyle(style, false);
}

QString AttributionPanel::headText() const
{
    return m_headLabel->text();
}

QString AttributionPanel::partsText() const
{
    return m_parts->text();
}

QString AttributionPanel::status() const
{
    return m_status->text();
}

} // namespace headlens
