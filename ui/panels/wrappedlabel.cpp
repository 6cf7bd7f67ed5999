// WrappedLabel: QLabel::heightForWidth, remembered per width while the text stays the same.
#include "panels/wrappedlabel.h"

#include <QEvent>

namespace headlens {

WrappedLabel::WrappedLabel(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
}

int WrappedLabel::heightForWidth(int width) const
{
    if (text() != m_text) { // QLabel::setText is not virtual: a new text is seen here
        m_text = text();
        m_heights.fill({});
    }
    for (const Remembered &entry : m_heights)
        if (entry.width == width)
            return entry.height;
    const int height = QLabel::heightForWidth(width);
    m_heights[m_next] = {width, height};
    m_next = (m_next + 1) % m_heights.size();
    return height;
}

void WrappedLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_heights.fill({});
}

} // namespace headlens
