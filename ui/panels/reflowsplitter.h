// ReflowSplitter: two panels side by side when the width holds both, else one above the other.
#pragma once

#include <QSplitter>

namespace headlens {

/// Side by side while its width holds every panel at its minimum width, one above the other
/// when it does not, so a panel is never squeezed below its minimum or scrolled sideways (the
/// Corpus tab's table hid the columns after "Entropy" at 1280 px in presentation mode). Its own
/// minimum width is the widest panel's, so it never holds the window wider than stacked.
/// Panels do not collapse.
class ReflowSplitter : public QSplitter
{
    Q_OBJECT
public:
    explicit ReflowSplitter(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    /// The width that holds every panel side by side at its minimum.
    int sideBySideWidth() const;
    void reflow();
};

} // namespace headlens
