// WholeWordsLabel: a wrapped label whose lines break between words, never inside a name.
#pragma once

#include "panels/wrappedlabel.h"

class QFontMetrics;

namespace headlens {

/// Qt's line breaking (Unicode's rules) breaks inside names such as 'h.0.attn.c_attn.weight' or
/// a path, after a dot or a slash, leaving "'h." at the end of one line and "0.attn..." on the
/// next. This label lays its plain text out itself: a line ends only at a space, and a word is
/// broken (after its dots and slashes) only when it is wider than a whole line. The message
/// itself stays as it was given (message()): what a test compares and a reader copies.
class WholeWordsLabel : public WrappedLabel
{
    Q_OBJECT
public:
    explicit WholeWordsLabel(QWidget *parent = nullptr);

    /// Shows `message` (plain text), wrapped for the label's width, now and after each resize.
    void setMessage(const QString &message);
    const QString &message() const { return m_message; }

    /// `text` with a line break where each line must end to be at most `width` pixels wide in
    /// `metrics`: at spaces, words kept whole; a word wider than `width` alone broken after
    /// its dots and slashes (a piece still wider stays whole). Line breaks in `text` stay.
    static QString broken(const QString &text, const QFontMetrics &metrics, int width);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rewrap();

    QString m_message;
    int m_wrappedWidth = -1;  ///< the width m_wrappedMessage was broken for
    QString m_wrappedMessage; ///< what text() shows, before its breaks
};

} // namespace headlens
