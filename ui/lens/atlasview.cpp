// AtlasView: the runner's atlas as a map of types, a score chooser and the chosen head's scores.
#include "lens/atlasview.h"

#include "lens/lensrunner.h"
#include "plot/heatmapplot.h"
#include "plot/layerheadlabels.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace headlens {

namespace {

constexpr int kTypeStrength = -1; ///< the score choice that colours by the type's strength

} // namespace

AtlasView::AtlasView(QWidget *parent) : RunAnalysisView(Reads::UnchangedModel, parent)
{
    setObjectName(QStringLiteral("atlasView"));
    m_intro = new QLabel(
        tr("<b>Head atlas</b>: every head scored by where it looks. <i>Previous token</i>, "
           "<i>duplicate token</i> and <i>induction</i> are measured on random tokens repeated "
           "(r r, as TransformerLens's head detector), the others on the text above. Each "
           "score is a share of attention from 0 to 1; a head that spreads its attention evenly "
           "scores the score's <i>chance</i>. A cell names the head's type: its score furthest "
           "above chance, when that stands out (“-”: none does). Hover a head for all its "
           "scores; click it to read it below."));
    m_intro->setWordWrap(true);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("atlasStatus"));
    m_status->setWordWrap(true);
    m_score = new QComboBox;
    m_score->setObjectName(QStringLiteral("atlasScore"));
    m_score->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_score->addItem(tr("how clearly each head's type stands out"), kTypeStrength);
    for (int k = 0; k < kAtlasScores; ++k)
        m_score->addItem(QString::fromUtf8(toString(AtlasScore(k))), k);
    auto *choice = new QHBoxLayout;
    choice->addWidget(new QLabel(tr("Colour by")));
    choice->addWidget(m_score);
    choice->addStretch(1);
    m_map = new HeatmapPlot;
    m_map->setObjectName(QStringLiteral("atlasMap"));
    m_map->setSquareCells(false);
    m_map->setColorScaleVisible(true);
    m_map->setColumnLabelAngle(0);
    m_map->setAxisTitles(tr("layer"), tr("head"));
    m_map->setSmallestSide(180);
    m_map->hide();
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("atlasSummary"));
    m_summary->setWordWrap(true);
    m_headLabel = new QLabel;
    m_headLabel->setObjectName(QStringLiteral("atlasHead"));
    m_headLabel->setWordWrap(true);
    m_headLabel->setTextFormat(Qt::RichText);
    m_open = new QPushButton(tr("Show in the Heads view"));
    m_open->setObjectName(QStringLiteral("atlasOpenHead"));
    m_open->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(choice);
    layout->addWidget(m_status);
    layout->addWidget(m_map, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_headLabel);
    layout->addWidget(m_open, 0, Qt::AlignLeft);

    connect(runner(), &LensRunner::atlasReady, this, &AtlasView::setAtlas);
    connect(runner(), &LensRunner::atlasFailed, this, [this](const QString &message) {
        m_status->setText(message);
        m_map->hide();
    });
    connect(m_score, qOverload<int>(&QComboBox::activated), this,
            [this] { showScore(m_score->currentData().toInt()); });
    connect(m_map, &HeatmapPlot::cellHovered, this,
            [this](int row, int col) { m_map->setToolTip(headToolTip(row, col)); });
    connect(m_map, &HeatmapPlot::cellClicked, this, &AtlasView::chooseHead);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_layer >= 0)
            emit headOpened(m_layer, m_head);
    });
}

void AtlasView::start()
{
    m_status->setText(tr("Scoring every head on the text and on repeated tokens…"));
    runner()->startAtlas(run());
}

void AtlasView::setAtlas(std::shared_ptr<const HeadAtlas> atlas)
{
    m_atlas = std::move(atlas);
    markAnalysed();
    m_status->setText(
        (m_atlas->textRuns
             ? tr("Repeated tokens: %1 stretches of %2 tokens of the default stories, each twice "
                  "(seed %3; random bytes are no text to a model that reads bytes).")
             : tr("Repeated tokens: %1 runs of %2 random tokens, each twice (seed %3)."))
            .arg(m_atlas->repeatedRuns)
            .arg(m_atlas->repeatedLength)
            .arg(m_atlas->seed) +
        tr(" Text: its %1 tokens.").arg(m_atlas->textTokens));
    // A score the probes cannot measure (a decoder's [CLS]) cannot be chosen.
    for (int k = 0; k < kAtlasScores; ++k) {
        const int item = m_score->findData(k);
        const bool measured = !std::isnan(m_atlas->chance[size_t(k)]);
        m_score->setItemData(item, measured ? QVariant() : QVariant(0), Qt::UserRole - 1);
    }
    int shown = m_score->currentData().toInt();
    if (shown != kTypeStrength && std::isnan(m_atlas->chance[size_t(shown)]))
        shown = kTypeStrength;
    m_map->show();
    showScore(shown);
    m_summary->setText(QString::fromStdString(m_atlas->typeSummary()));
    if (m_layer >= m_atlas->layers || m_head >= m_atlas->heads)
        m_layer = m_head = -1;
    chooseHead(m_layer, m_head);
}

double AtlasView::shownValue(int layer, int head) const
{
    if (!m_atlas)
        return std::nan("");
    const int score = m_score->currentData().toInt();
    if (score != kTypeStrength)
        return m_atlas->score(AtlasScore(score), layer, head);
    return m_atlas->typeStrength(layer, head);
}

void AtlasView::showScore(int score)
{
    m_score->setCurrentIndex(m_score->findData(score));
    if (!m_atlas)
        return;
    RowMatrix values(m_atlas->layers, m_atlas->heads);
    QStringList types;
    for (int layer = 0; layer < m_atlas->layers; ++layer) {
        for (int head = 0; head < m_atlas->heads; ++head) {
            values(layer, head) = float(shownValue(layer, head));
            types << QString::fromStdString(m_atlas->typeLabel(layer, head));
        }
    }
    m_map->setMatrix(values);
    m_map->setLabels(LayerHeadLabels::layers(m_atlas->layers),
                     LayerHeadLabels::heads(m_atlas->heads));
    m_map->setCellTexts(types);
    m_map->setColorRange(0.0, 1.0); // shares of attention: the same scale for every model
    m_map->setColorScaleLabel(
        score == kTypeStrength
            ? tr("type's score above chance")
            : tr("share (chance %1)").arg(m_atlas->chance[size_t(score)], 0, 'f', 3));
    m_map->replot(QCustomPlot::rpQueuedReplot);
}

QString AtlasView::headToolTip(int layer, int head) const
{
    return describeHead(layer, head, QStringLiteral("<br>&nbsp;&nbsp;"));
}

QString AtlasView::describeHead(int layer, int head, const QString &separator) const
{
    if (!m_atlas || layer < 0 || layer >= m_atlas->layers || head < 0 || head >= m_atlas->heads)
        return {};
    const std::optional<AtlasScore> type = m_atlas->type(layer, head);
    QString text = tr("<b>Head %1.%2</b>: %3; score (chance):")
                       .arg(layer)
                       .arg(head + 1)
                       .arg(type ? QString::fromUtf8(toString(*type)) : tr("no type stands out"));
    for (int k = 0; k < kAtlasScores; ++k) {
        const double value = m_atlas->score(AtlasScore(k), layer, head);
        if (std::isnan(value))
            continue;
        QString name = QString::fromUtf8(toString(AtlasScore(k)));
        if (AtlasScore(k) == AtlasScore::Offset)
            name += tr(" (k = %1)").arg(m_atlas->offsets[size_t(layer * m_atlas->heads + head)]);
        text += separator + QStringLiteral("%1 %2 (%3)")
                                .arg(name)
                                .arg(value, 0, 'f', 3)
                                .arg(m_atlas->chance[size_t(k)], 0, 'f', 3);
    }
    text += separator +
            tr("mean distance %1 tokens")
                .arg(m_atlas->meanDistance[size_t(layer * m_atlas->heads + head)], 0, 'f', 1);
    return text;
}

void AtlasView::chooseHead(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    const bool valid =
        m_atlas && layer >= 0 && layer < m_atlas->layers && head >= 0 && head < m_atlas->heads;
    m_map->setHighlight(valid ? layer : -1, valid ? head : -1);
    m_open->setEnabled(valid);
    m_headLabel->setText(valid ? describeHead(layer, head, QStringLiteral(" · ")) : QString());
}

void AtlasView::setPlotStyle(const PlotStyle &style)
{
    m_map->setPlotStyle(style, false);
}

QString AtlasView::status() const
{
    return m_status->text();
}

QString AtlasView::summary() const
{
    return m_summary->text();
}

QString AtlasView::headText() const
{
    return m_headLabel->text();
}

} // namespace headlens
