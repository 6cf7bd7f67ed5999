// LogitLensPlot: the lens's probabilities as HeatmapPlot's cells, its top tokens as their texts.
#include "lens/logitlensplot.h"

#include "plot/lenslabels.h"

#include <cmath>

namespace headlens {

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
    const LensLabels labels = LensLabels::of(*m_lens, tokens);
    setMatrix(m_lens->finalProbability);
    setLabels(labels.stages, labels.positions);
    setCellTexts(labels.tops);
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
                       .arg(LensLabels::stage(stage))
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
