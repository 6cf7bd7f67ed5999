// TextBlock: a paragraph of rich text laid out to a width, measured, then painted on paper.
#pragma once

#include <QFont>
#include <QString>
#include <QTextDocument>

class QPainter;

namespace headlens {

/// QTextDocument underneath: painted into a PDF, its words stay text (selectable, searchable).
class TextBlock
{
public:
    /// `html` in `font` (its point size is the body's), wrapped at `width` layout pixels.
    TextBlock(const QString &html, const QFont &font, double width);
    /// Plain text, escaped.
    static QString plain(const QString &text);
    /// The application's font at `points` (a print size, not the screen's zoom).
    static QFont font(double points, bool bold = false);

    double height() const;
    /// The width the text would take unwrapped (its widest table or word).
    double idealWidth() const;
    void paint(QPainter &painter, const QPointF &topLeft) const;

private:
    mutable QTextDocument m_document; // drawContents is not const
};

} // namespace headlens
