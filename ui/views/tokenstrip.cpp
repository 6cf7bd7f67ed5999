// TokenStrip: painted chips in one line (a scroll area around it handles long sequences).
#include "views/tokenstrip.h"

#include "plot/stylefont.h"
#include "selection/selection.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace headlens {

TokenStrip::TokenStrip(QWidget *parent) : QWidget(parent)
{
    setObjectName("tokenStrip");
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
}

void TokenStrip::setTokens(const QStringList &tokens)
{
    m_tokens = tokens;
    layoutChips();
    update();
}

void TokenStrip::setSegments(const std::vector<int> &segments)
{
    m_segments = segments;
    update();
}

QColor TokenStrip::segmentColor(int segment)
{
    return segment == 0 ? QColor("#4c8bd6") : QColor("#f28e2b");
}

bool TokenStrip::hasSentenceB(const std::vector<int> &segments)
{
    return std::any_of(segments.begin(), segments.end(), [](int s) { return s > 0; });
}

// The segments come with the model's run, the tokens with its trace a moment earlier: a band
// is drawn only while both describe the same tokens.
bool TokenStrip::showsSegments() const
{
    return m_segments.size() == size_t(m_tokens.size()) && hasSentenceB(m_segments);
}

// In the margin below the chip, which the strip has anyway: the band costs no height.
QRect TokenStrip::segmentBand(int index) const
{
    if (!showsSegments() || index < 0 || index >= int(m_chips.size()))
        return {};
    const QRect &chip = m_chips[size_t(index)];
    return QRect(chip.left() + 2, chip.bottom() + 2, chip.width() - 4, 3);
}

void TokenStrip::setSelection(Selection *selection)
{
    m_selection = selection;
    connect(selection, &Selection::hoverChanged, this, [this](int, int query, int) {
        m_highlighted = query;
        update();
    });
}

void TokenStrip::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    setFont(StyleFont::scaled(font(), style, 10.0));
    layoutChips();
    update();
}

void TokenStrip::layoutChips()
{
    const QFontMetrics metrics(font());
    m_chips.clear();
    int x = 4;
    const int h = metrics.height() + 8;
    for (const QString &token : m_tokens) {
        const int w = metrics.horizontalAdvance(token) + 14;
        m_chips.push_back(QRect(x, 4, w, h));
        x += w + 4;
    }
    setMinimumWidth(x);
    setFixedHeight(h + 8);
    updateGeometry();
}

QSize TokenStrip::sizeHint() const
{
    return QSize(minimumWidth(), QFontMetrics(font()).height() + 16);
}

int TokenStrip::tokenAt(const QPoint &position) const
{
    for (size_t i = 0; i < m_chips.size(); ++i) {
        if (m_chips[i].contains(position))
            return int(i);
    }
    return -1;
}

void TokenStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor chip = m_style.dark ? QColor("#353a42") : QColor("#eef0f4");
    for (int i = 0; i < int(m_chips.size()); ++i) {
        const bool on = i == m_highlighted;
        painter.setPen(on ? QPen(m_style.highlight(), 2) : QPen(chip.darker(115)));
        painter.setBrush(on ? m_style.highlight().lighter(170) : chip);
        painter.drawRoundedRect(m_chips[size_t(i)], 6, 6);
        painter.setPen(on ? QColor("#202020") : m_style.foreground());
        painter.drawText(m_chips[size_t(i)], Qt::AlignCenter, m_tokens[i]);
        if (const QRect band = segmentBand(i); !band.isEmpty())
            painter.fillRect(band, segmentColor(m_segments[size_t(i)]));
    }
}

void TokenStrip::mouseMoveEvent(QMouseEvent *event)
{
    const int index = tokenAt(event->pos());
    if (m_selection)
        index >= 0 ? m_selection->setHover(-1, index, -1) : m_selection->clearHover();
}

bool TokenStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const int index = tokenAt(static_cast<QHelpEvent *>(event)->pos());
        if (index >= 0 && showsSegments())
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(),
                               m_segments[size_t(index)] == 0 ? tr("sentence A") : tr("sentence B"),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TokenStrip::leaveEvent(QEvent *)
{
    if (m_selection)
        m_selection->clearHover();
}

} // namespace headlens
