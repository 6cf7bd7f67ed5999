// WholeWordsLabel: greedy line filling by words, with the label's own font and width.
#include "panels/wholewordslabel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QRegularExpression>

namespace headlens {

namespace {

/// `word` cut after each dot and slash: "h.0.attn" -> "h.", "0.", "attn".
QStringList piecesOf(const QString &word)
{
    static const QRegularExpression afterDotOrSlash("(?<=[./])(?=.)");
    return word.split(afterDotOrSlash);
}

/// Appends `pieces` to `lines` greedily: joined by `glue` while the line stays within `width`.
void fill(QStringList &lines, const QStringList &pieces, const QString &glue,
          const QFontMetrics &metrics, int width)
{
    for (const QString &piece : pieces) {
        if (lines.isEmpty())
            lines << piece;
        else if (const QString longer = lines.back() + glue + piece;
                 lines.back().isEmpty() || metrics.horizontalAdvance(longer) <= width)
            lines.back() = longer;
        else
            lines << piece;
    }
}

} // namespace

WholeWordsLabel::WholeWordsLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(true); // the size hints follow the width; rewrap() puts the breaks
}

void WholeWordsLabel::setMessage(const QString &message)
{
    m_message = message;
    rewrap();
}

QString WholeWordsLabel::broken(const QString &text, const QFontMetrics &metrics, int width)
{
    QStringList lines;
    for (const QString &paragraph : text.split('\n')) {
        QStringList paragraphLines;
        for (const QString &word : paragraph.split(' ')) {
            if (metrics.horizontalAdvance(word) <= width) {
                fill(paragraphLines, {word}, " ", metrics, width);
                continue;
            }
            // Wider than a line: it starts a line of its own, and breaks at its dots.
            if (!paragraphLines.isEmpty())
                paragraphLines << QString();
            fill(paragraphLines, piecesOf(word), "", metrics, width);
        }
        lines << (paragraphLines.isEmpty() ? QStringList{QString()} : paragraphLines);
    }
    return lines.join('\n');
}

void WholeWordsLabel::rewrap()
{
    // A few pixels to spare: Qt wraps again (inside names) a line measured a pixel too wide.
    const int width = contentsRect().width() - 2 * margin() - 4;
    const QString shown = width > 0 ? broken(m_message, fontMetrics(), width) : m_message;
    if (shown != text())
        setText(shown);
}

void WholeWordsLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    rewrap();
}

void WholeWordsLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        rewrap();
}

} // namespace headlens
