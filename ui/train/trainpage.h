// TrainPage: the "Train" tab: a toy task or a language model, each in its own view, scrolled.
#pragma once

#include <QScrollArea>

class QTabWidget;

namespace headlens {

class LanguageModelView;
class TrainView;

/// A tab widget is as wide as its widest page's minimum, and the Train view's (its settings
/// column beside the big scores) set the whole window's minimum to 1140 px. Scrolled, it
/// leaves the window usable on a 1024 px projector. Two modes side by side in tabs of their
/// own: "Toy task" (TrainView: a task a few heads learn in seconds) and "Language model"
/// (LanguageModelView: a GPT-2-style model on a text, its induction heads forming).
class TrainPage : public QScrollArea
{
    Q_OBJECT
public:
    explicit TrainPage(QWidget *parent = nullptr);

    TrainView *view() const { return m_view; }
    LanguageModelView *languageModel() const { return m_languageModel; }
    QTabWidget *modes() const { return m_modes; }

private:
    QTabWidget *m_modes = nullptr;
    TrainView *m_view = nullptr;
    LanguageModelView *m_languageModel = nullptr;
};

} // namespace headlens
