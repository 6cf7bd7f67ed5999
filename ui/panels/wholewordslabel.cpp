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

/// The lines of one paragraph, filled greedily. Each piece is measured by itself and a line's width
/// is the sum of its pieces' (fractional) advances: measuring the whole line again for every
/// word shaped the banner's text word by word, and was an eighth of the UI thread's time in
/// the soak (perf), where every refused setting shows a problem.
class LineFiller
{
public:
    LineFiller(const QFontMetricsF &metrics, qreal width) : m_metrics(metrics), m_width(width) {}

    /// Appends `pieces`, joined by `glue` while the line stays within the width.
    void fill(const QStringList &pieces, const QString &glue)
    {
        for (const QString &piece : pieces)
            add(piece, m_metrics.horizontalAdvance(piece), glue);
    }

    /// Appends `piece`, `pieceWidth` wide, to the last line after `glue` if it fits there.
    void add(const QString &piece, qreal pieceWidth, const QString &glue)
    {
        const qreal glueWidth = m_metrics.horizontalAdvance(glue);
        if (m_lines.isEmpty()) {
            startLine(piece, pieceWidth);
        } else if (m_lines.back().isEmpty() || m_last + glueWidth + pieceWidth <= m_width) {
            m_lines.back() += glue + piece;
            m_last += glueWidth + pieceWidth;
        } else {
            startLine(piece, pieceWidth);
        }
    }

    void startEmptyLine() { startLine(QString(), 0.0); }
    bool isEmpty() const { return m_lines.isEmpty(); }
    const QStringList &lines() const { return m_lines; }

private:
    void startLine(const QString &piece, qreal width)
    {
        m_lines << piece;
        m_last = width;
    }

    const QFontMetricsF &m_metrics;
    const qreal m_width;
    QStringList m_lines;
    qreal m_last = 0.0; ///< the last line's width
};

} // namespace

WholeWordsLabel::WholeWordsLabel(QWidget *parent) : WrappedLabel(parent)
{
    setTextFormat(Qt::PlainText);
    // WrappedLabel wraps, so the size hints follow the width; rewrap() puts the breaks.
}

void WholeWordsLabel::setMessage(const QString &message)
{
    m_message = message;
    rewrap();
}

QString WholeWordsLabel::broken(const QString &text, const QFontMetrics &metrics, int width)
{
    const QFontMetricsF exact(metrics);
    QStringList lines;
    for (const QString &paragraph : text.split('\n')) {
        LineFiller filler(exact, width);
        for (const QString &word : paragraph.split(' ')) {
            if (const qreal wordWidth = exact.horizontalAdvance(word); wordWidth <= width) {
                filler.add(word, wordWidth, " ");
                continue;
            }
            // Wider than a line: it starts a line of its own, and breaks at its dots.
            if (!filler.isEmpty())
                filler.startEmptyLine();
            filler.fill(piecesOf(word), "");
        }
        lines << (filler.isEmpty() ? QStringList{QString()} : filler.lines());
    }
    return lines.join('\n');
}

void WholeWordsLabel::rewrap()
{
    // A few pixels to spare: Qt wraps again (inside names) a line measured a pixel too wide.
    const int width = contentsRect().width() - 2 * margin() - 4;
    if (width == m_wrappedWidth && m_message == m_wrappedMessage)
        return; // a resize of the height only, or the same problem shown again
    m_wrappedWidth = width;
    m_wrappedMessage = m_message;
    const QString shown = width > 0 ? broken(m_message, fontMetrics(), width) : m_message;
    if (shown != text())
        setText(shown);
}

void WholeWordsLabel::resizeEvent(QResizeEvent *event)
{
    WrappedLabel::resizeEvent(event);
    rewrap();
}

void WholeWordsLabel::changeEvent(QEvent *event)
{
    WrappedLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_wrappedWidth = -1;
        rewrap();
    }
}

} // namespace headlens
