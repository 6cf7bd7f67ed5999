// PredictionsPanel: token, bar and percentage per row, painted with QPainter.
#include "models/predictionspanel.h"

#include <QPainter>

namespace headlens {

PredictionsPanel::PredictionsPanel(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PredictionsPanel::setPredictions(const std::vector<TokenPrediction> &predictions)
{
    m_predictions = predictions;
    setMinimumHeight(sizeHint().height()); // every bar stays readable; the table gives way
    updateGeometry();
    update();
}

void PredictionsPanel::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    QFont f = font();
    f.setPointSizeF(10 * style.fontScale);
    setFont(f);
    updateGeometry();
    update();
}

QStringList PredictionsPanel::labels() const
{
    QStringList out;
    for (const TokenPrediction &p : m_predictions)
        out << QString::fromStdString(p.label);
    return out;
}

int PredictionsPanel::rowHeight() const
{
    return fontMetrics().height() + 8;
}

QSize PredictionsPanel::sizeHint() const
{
    return {320, rowHeight() * std::max<int>(int(m_predictions.size()), 3) + 8};
}

QSize PredictionsPanel::minimumSizeHint() const
{
    return {200, rowHeight() * 3};
}

void PredictionsPanel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    const int labelWidth = std::min(width() / 3, metrics.horizontalAdvance("M") * 9);
    const int percentWidth = metrics.horizontalAdvance("100.0 %") + 8;
    const int barSpace = std::max(width() - labelWidth - percentWidth - 16, 10);
    const int h = rowHeight();
    const QColor bar = palette().color(QPalette::Highlight);
    for (int i = 0; i < int(m_predictions.size()); ++i) {
        const TokenPrediction &p = m_predictions[size_t(i)];
        const int y = 4 + i * h;
        painter.setPen(palette().color(QPalette::WindowText));
        const QString label =
            metrics.elidedText(QString::fromStdString(p.label), Qt::ElideRight, labelWidth - 6);
        painter.drawText(QRect(4, y, labelWidth - 6, h), Qt::AlignRight | Qt::AlignVCenter, label);
        const int w = std::max(1, int(barSpace * p.probability));
        painter.fillRect(QRect(labelWidth + 4, y + 3, w, h - 6), bar);
        painter.drawText(QRect(labelWidth + 8 + w, y, percentWidth, h), Qt::AlignVCenter,
                         QString::number(p.probability * 100.0, 'f', 1) + " %");
    }
}

} // namespace headlens
