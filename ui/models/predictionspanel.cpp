// PredictionsPanel: heading rows and token, bar and percentage rows, painted with QPainter.
#include "models/predictionspanel.h"

#include <QPainter>

namespace headlens {

namespace {

QString percent(double probability)
{
    return QString::number(probability * 100.0, 'f', 1) + " %";
}

int rowsOf(const PredictionGroup &group)
{
    return int(group.top.size()) + (group.heading.isEmpty() ? 0 : 1);
}

} // namespace

PredictionsPanel::PredictionsPanel(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PredictionsPanel::setPredictions(const std::vector<TokenPrediction> &predictions)
{
    setGroups({PredictionGroup{QString(), predictions}});
}

void PredictionsPanel::setGroups(std::vector<PredictionGroup> groups)
{
    m_groups = std::move(groups);
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
    setMinimumHeight(sizeHint().height());
    updateGeometry();
    update();
}

QStringList PredictionsPanel::labels() const
{
    QStringList out;
    for (const PredictionGroup &group : m_groups)
        for (const TokenPrediction &p : group.top)
            out << QString::fromStdString(p.label);
    return out;
}

QStringList PredictionsPanel::rowTexts() const
{
    QStringList out;
    for (const PredictionGroup &group : m_groups) {
        if (!group.heading.isEmpty())
            out << group.heading;
        for (const TokenPrediction &p : group.top)
            out << QString::fromStdString(p.label) + "  " + percent(p.probability);
    }
    return out;
}

std::vector<TokenPrediction> PredictionsPanel::predictions() const
{
    return m_groups.empty() ? std::vector<TokenPrediction>() : m_groups.front().top;
}

int PredictionsPanel::rowHeight() const
{
    return fontMetrics().height() + 8;
}

int PredictionsPanel::rowCount() const
{
    int rows = 0;
    for (const PredictionGroup &group : m_groups)
        rows += rowsOf(group);
    return rows;
}

int PredictionsPanel::firstGroupHeight() const
{
    const int rows = m_groups.empty() ? 0 : rowsOf(m_groups.front());
    return rowHeight() * std::max(rows, 3) + 8;
}

QSize PredictionsPanel::sizeHint() const
{
    return {320, rowHeight() * std::max(rowCount(), 3) + 8};
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
    QFont bold = font();
    bold.setBold(true);
    int y = 4;
    for (const PredictionGroup &group : m_groups) {
        painter.setPen(palette().color(QPalette::WindowText));
        if (!group.heading.isEmpty()) {
            painter.setFont(bold);
            painter.drawText(QRect(4, y, width() - 8, h), Qt::AlignLeft | Qt::AlignBottom,
                             group.heading);
            painter.setFont(font());
            y += h;
        }
        for (const TokenPrediction &p : group.top) {
            painter.setPen(palette().color(QPalette::WindowText));
            const QString label =
                metrics.elidedText(QString::fromStdString(p.label), Qt::ElideRight, labelWidth - 6);
            painter.drawText(QRect(4, y, labelWidth - 6, h), Qt::AlignRight | Qt::AlignVCenter,
                             label);
            const int w = std::max(1, int(barSpace * p.probability));
            painter.fillRect(QRect(labelWidth + 4, y + 3, w, h - 6), bar);
            painter.drawText(QRect(labelWidth + 8 + w, y, percentWidth, h), Qt::AlignVCenter,
                             percent(p.probability));
            y += h;
        }
    }
}

} // namespace headlens
