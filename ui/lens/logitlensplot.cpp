// LogitLensPlot: the lens's probabilities as HeatmapPlot's cells, its top tokens as their texts.
#include "lens/logitlensplot.h"

#include <cmath>

namespace headlens {

namespace {

/// "embeddings", then "layer l" for the stream after layer l (the last row: the output).
QString stageName(int stage)
{
    return stage == 0 ? LogitLensPlot::tr("embeddings")
                      : LogitLensPlot::tr("layer %1").arg(stage - 1);
}

} // namespace

LogitLensPlot::LogitLensPlot(QWidget *parent) : HeatmapPlot(parent)
{
    setObjectName(QStringLiteral("logitLensPlot"));
    setSquareCells(false);
    setColorScaleVisible(true);
    setColorScaleLabel(tr("p(final token)"));
    setAxisTitles(tr("after"), tr("position"));
    connect(this, &HeatmapPlot::cellHovered, this,
            [this](int row, int col) { setToolTip(cellToolTip(row, col)); });
    connect(this, &HeatmapPlot::cellClicked, this, [this](int, int column) {
        if (m_lens)
            emit positionChosen(m_lens->positions.at(size_t(column)));
    });
}

void LogitLensPlot::setLens(std::shared_ptr<const LogitLens> lens,
                            const std::vector<std::string> &tokens)
{
    m_lens = std::move(lens);
    QStringList stages, positions;
    for (int stage = 0; stage < m_lens->stages(); ++stage)
        stages << stageName(stage);
    for (const int position : m_lens->positions)
        positions << QString::fromStdString(tokens.at(size_t(position)));
    QStringList tops; // each stage's top token, row by row
    for (int stage = 0; stage < m_lens->stages(); ++stage)
        for (size_t p = 0; p < m_lens->positions.size(); ++p) {
            const auto &top = m_lens->topAt(stage, int(p));
            tops << (top.empty() ? QString() : QString::fromStdString(top.front().label));
        }
    setMatrix(m_lens->finalProbability);
    setLabels(stages, positions);
    setCellTexts(tops);
    setColorRange(0.0, 1.0); // a probability: the same scale for every text and model
    replot(QCustomPlot::rpQueuedReplot);
}

QString LogitLensPlot::cellToolTip(int stage, int column) const
{
    if (cellText(stage, column).isEmpty())
        return {};
    const int position = m_lens->positions.at(size_t(column));
    const auto &finalTop = m_lens->topAt(m_lens->stages() - 1, column);
    QString text = tr("<b>%1</b>, token %2 (“%3”)<br>p(final “%4”) = %5<br>top tokens:")
                       .arg(stageName(stage))
                       .arg(position + 1)
                       .arg(colLabels().value(column).toHtmlEscaped())
                       .arg(QString::fromStdString(finalTop.front().label).toHtmlEscaped())
                       .arg(m_lens->finalProbability(stage, column), 0, 'f', 3);
    for (const TokenPrediction &p : m_lens->topAt(stage, column))
        text += QStringLiteral("<br>&nbsp;&nbsp;%1 &nbsp;%2")
                    .arg(p.probability, 0, 'f', 3)
                    .arg(QString::fromStdString(p.label).toHtmlEscaped());
    return text;
}

} // namespace headlens
