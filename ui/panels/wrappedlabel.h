// WrappedLabel: a word-wrapped label that remembers its height for the widths it was asked.
#pragma once

#include <QLabel>

#include <array>

namespace headlens {

/// QLabel lays its wrapped text out again (a QTextDocument when the text can be selected) each
/// time a layout asks its height for a width, and a layout asks several times per activation:
/// showing or hiding one row of the controls panel, as many changes do, made the panel's
/// wrapped labels a fifth of the UI thread's time in the soak (perf: QLabel::heightForWidth
/// under QLayout::activate). This one answers again from the last few widths while its text
/// and font stay the same; what it shows is QLabel's own.
class WrappedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit WrappedLabel(QWidget *parent = nullptr);

    int heightForWidth(int width) const override;

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Remembered
    {
        int width = -1;
        int height = 0;
    };

    mutable QString m_text; ///< the text the heights are for
    mutable std::array<Remembered, 4> m_heights;
    mutable size_t m_next = 0; ///< the entry the next new width replaces
};

} // namespace headlens
