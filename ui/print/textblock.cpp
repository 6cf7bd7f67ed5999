// TextBlock: QTextDocument without margins, drawn at a point.
#include "print/textblock.h"

#include <QPainter>

namespace headlens {

TextBlock::TextBlock(const QString &html, const QFont &font, double width)
{
    m_document.setDocumentMargin(0);
    m_document.setDefaultFont(font);
    m_document.setTextWidth(width);
    m_document.setHtml(html);
}

QString TextBlock::plain(const QString &text)
{
    return text.toHtmlEscaped();
}

QFont TextBlock::font(double points, bool bold)
{
    QFont font;
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

double TextBlock::height() const
{
    return m_document.size().height();
}

double TextBlock::idealWidth() const
{
    return m_document.idealWidth();
}

void TextBlock::paint(QPainter &painter, const QPointF &topLeft) const
{
    painter.save();
    painter.translate(topLeft);
    m_document.drawContents(&painter);
    painter.restore();
}

} // namespace headlens
