// TrainPage: the "Train" tab: the TrainView in a scroll area.
#pragma once

#include <QScrollArea>

namespace headlens {

class TrainView;

/// A tab widget is as wide as its widest page's minimum, and the Train view's (its settings
/// column beside the big scores) set the whole window's minimum to 1140 px. Scrolled, it
/// leaves the window usable on a 1024 px projector.
class TrainPage : public QScrollArea
{
    Q_OBJECT
public:
    explicit TrainPage(QWidget *parent = nullptr);

    TrainView *view() const { return m_view; }

private:
    TrainView *m_view = nullptr;
};

} // namespace headlens
