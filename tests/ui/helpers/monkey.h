// Monkey: a seeded stream of random user actions through a window's real widgets.
#pragma once

#include <QElapsedTimer>
#include <QMap>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>

class QDialog;
class QEventLoop;
class QFileDialog;
class QMenu;
class QWidget;

namespace headlens::test {

/// What the monkey answers when a file dialog asks: it never clicks inside one at random (a
/// file dialog can delete or rename files), it picks an answer from these lists.
struct MonkeyAnswers
{
    QStringList files;   ///< files an "open" dialog may be given (test models, bad files)
    QStringList folders; ///< folders a "choose a folder" dialog may be given
    QString saveFolder;  ///< where every "save" dialog writes (a temporary folder)
};

/// How a run went: the counts a report and a test read.
struct MonkeyFigures
{
    int actions = 0;
    int checks = 0;
    int dialogsAnswered = 0;
    qint64 longestGapMs = 0; ///< the longest time between two actions: the event loop held
    QString longestGapAfter; ///< the action before it
    QMap<QString, int> byKind;
    QString failure; ///< the first failed check, or empty
};

/// Acts on whatever a person would see on top: an open menu, a modal dialog, else the window.
/// Clicks, right-clicks, double-clicks, drags, wheel turns, keys and typed words at random
/// places; menus opened from the menu bar; tabs clicked. Every action goes through Qt's event
/// delivery (QTest's window-level events, as a window system sends them), so the widget under
/// the point receives it as it would from a mouse. The choices depend only on the seed; what
/// the window does with them also depends on its threads' timing.
///
/// Every `checkEvery` actions the monkey closes menus and dialogs, waits until `isIdle` holds
/// (up to 60 s: longer counts as not responding) and calls `check`, whose non-empty answer
/// ends the run as a failure.
class Monkey : public QObject
{
    Q_OBJECT
public:
    Monkey(QWidget *window, uint64_t seed, MonkeyAnswers answers);

    void setCheck(int checkEvery, std::function<bool()> isIdle, std::function<QString()> check);
    /// Actions that must never happen (Quit would end the run): matched against an action's
    /// text without '&'.
    void setForbiddenActions(const QStringList &texts) { m_forbidden = texts; }
    /// Milliseconds between actions (default 10).
    void setInterval(int milliseconds) { m_interval = milliseconds; }

    /// Acts until `actions` actions have been taken or `seconds` have passed (whichever comes
    /// first; 0: no limit of that kind), then closes what is open and returns the figures.
    MonkeyFigures run(int actions, double seconds);

private:
    void tick();
    void act();
    void actOnPopup(QMenu *menu);
    void actOnDialog(QDialog *dialog);
    void answerFileDialog(QFileDialog *dialog);
    void actOnWindow(QWidget *top);
    bool closeOneThing(); ///< true when something was open and has been asked to close
    void beginCheck();
    void finish(const QString &failure);

    void click(QWidget *top, QPoint at, Qt::MouseButton button);
    void doubleClick(QWidget *top, QPoint at);
    void drag(QWidget *top, QPoint from, QPoint to);
    void wheel(QWidget *top, QPoint at);
    void key(QWidget *top);
    void type(QWidget *top);
    void openMenu(QWidget *top);
    void clickTab(QWidget *top);

    uint64_t next(); ///< the seed's next number
    int pick(int low, int high);
    QPoint randomPoint(const QWidget *widget);
    bool forbidden(const QString &text) const;
    void count(const QString &kind);

    QWidget *m_window;
    uint64_t m_seed;
    uint64_t m_drawn = 0;
    MonkeyAnswers m_answers;
    QStringList m_forbidden;
    int m_interval = 10;
    QElapsedTimer m_clock;
    QElapsedTimer m_sinceLastTick;
    QString m_lastAction;
    int m_wanted = 0;
    qint64 m_budgetMs = 0;
    int m_checkEvery = 0;
    std::function<bool()> m_isIdle;
    std::function<QString()> m_check;
    bool m_checking = false;    ///< closing what is open before a check
    bool m_waitingIdle = false; ///< everything closed; waiting for the window to be idle
    QElapsedTimer m_idleWait;
    bool m_finishing = false; ///< the run is over: closing what is open
    int m_depth = 0;          ///< actions still inside a nested event loop (a menu, a dialog)
    bool m_done = false;
    QEventLoop *m_loop = nullptr; ///< run()'s
    MonkeyFigures m_figures;
};

} // namespace headlens::test
