// Monkey: a seeded stream of random user actions through a window's real widgets.
#include "monkey.h"

#include "util/counterrandom.h"
#include "wheelturn.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabBar>
#include <QTest>
#include <QTextEdit>
#include <QTimer>
#include <QWindow>

namespace headlens::test {

namespace {

const char *const kWords[] = {"the", "tired", "robot", "dropped", "heavy", "gear", "because",
                              "it",  "broke", "a",     "cat",     "sat",   "on",   "mat",
                              "and", "slept", "42",    "[MASK]",  "é",     ".",    "\n"};

struct KeyStroke
{
    Qt::Key key;
    Qt::KeyboardModifiers modifiers;
};

// Keys a curious class presses: moving, editing, confirming and cancelling, the window's
// shortcuts (every one but Quit), and letters and digits into whatever has the focus.
const KeyStroke kKeys[] = {
    {Qt::Key_Tab, Qt::NoModifier},
    {Qt::Key_Backtab, Qt::ShiftModifier},
    {Qt::Key_Left, Qt::NoModifier},
    {Qt::Key_Right, Qt::NoModifier},
    {Qt::Key_Up, Qt::NoModifier},
    {Qt::Key_Down, Qt::NoModifier},
    {Qt::Key_Home, Qt::NoModifier},
    {Qt::Key_End, Qt::NoModifier},
    {Qt::Key_PageUp, Qt::NoModifier},
    {Qt::Key_PageDown, Qt::NoModifier},
    {Qt::Key_Return, Qt::NoModifier},
    {Qt::Key_Escape, Qt::NoModifier},
    {Qt::Key_Space, Qt::NoModifier},
    {Qt::Key_Backspace, Qt::NoModifier},
    {Qt::Key_Delete, Qt::NoModifier},
    {Qt::Key_A, Qt::ControlModifier},
    {Qt::Key_Z, Qt::ControlModifier},
    {Qt::Key_C, Qt::ControlModifier},
    {Qt::Key_V, Qt::ControlModifier},
    {Qt::Key_1, Qt::ControlModifier},
    {Qt::Key_2, Qt::ControlModifier},
    {Qt::Key_3, Qt::ControlModifier},
    {Qt::Key_4, Qt::ControlModifier},
    {Qt::Key_5, Qt::ControlModifier},
    {Qt::Key_6, Qt::ControlModifier},
    {Qt::Key_7, Qt::ControlModifier},
    {Qt::Key_8, Qt::ControlModifier},
    {Qt::Key_E, Qt::ControlModifier},
    {Qt::Key_M, Qt::ControlModifier},
    {Qt::Key_O, Qt::ControlModifier},
    {Qt::Key_S, Qt::ControlModifier},
    {Qt::Key_P, Qt::ControlModifier},
    {Qt::Key_Plus, Qt::ControlModifier},
    {Qt::Key_Minus, Qt::ControlModifier},
    {Qt::Key_0, Qt::ControlModifier},
    {Qt::Key_F5, Qt::NoModifier},
    {Qt::Key_F1, Qt::NoModifier},
    {Qt::Key_A, Qt::NoModifier},
    {Qt::Key_X, Qt::NoModifier},
    {Qt::Key_3, Qt::NoModifier},
    {Qt::Key_9, Qt::NoModifier},
    {Qt::Key_Period, Qt::NoModifier},
    {Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier},
    {Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier},
};

QString withoutMnemonic(QString text)
{
    return text.remove('&');
}

/// The first pattern of a name filter, "Images (*.png *.svg)" -> ".png"; empty for "*".
QString suffixOf(const QString &nameFilter)
{
    static const QRegularExpression pattern(R"(\*(\.[A-Za-z0-9]+))");
    const QRegularExpressionMatch match = pattern.match(nameFilter);
    return match.hasMatch() ? match.captured(1) : QString();
}

} // namespace

Monkey::Monkey(QWidget *window, uint64_t seed, MonkeyAnswers answers)
    : m_window(window), m_seed(seed), m_answers(std::move(answers))
{}

void Monkey::setCheck(int checkEvery, std::function<bool()> isIdle, std::function<QString()> check)
{
    m_checkEvery = checkEvery;
    m_isIdle = std::move(isIdle);
    m_check = std::move(check);
}

MonkeyFigures Monkey::run(int actions, double seconds)
{
    m_wanted = actions;
    m_budgetMs = qint64(seconds * 1000.0);
    m_figures = MonkeyFigures();
    m_done = m_finishing = m_checking = m_waitingIdle = false;
    QEventLoop loop;
    m_loop = &loop;
    m_clock.start();
    m_sinceLastTick.start();
    QTimer::singleShot(m_interval, this, &Monkey::tick);
    loop.exec();
    m_loop = nullptr;
    return m_figures;
}

void Monkey::tick()
{
    if (m_done)
        return;
    // The next tick first, on a timer of its own: Qt never fires a timer again while its slot
    // runs, and an action may run a menu's or a dialog's event loop inside this call.
    QTimer::singleShot(m_interval, this, &Monkey::tick);
    const qint64 gap = m_sinceLastTick.restart();
    if (gap > m_figures.longestGapMs) {
        m_figures.longestGapMs = gap;
        m_figures.longestGapAfter = m_lastAction;
    }
    if (m_finishing || m_checking) {
        if (closeOneThing() || m_depth > 0)
            return; // wait for what was open to close and its nested event loop to return
        if (!m_waitingIdle) {
            m_waitingIdle = true;
            m_idleWait.start();
        }
        if (m_isIdle && !m_isIdle()) {
            if (m_idleWait.elapsed() > 60000)
                finish(QString("the window was not idle 60 s after action %1 (%2)")
                           .arg(m_figures.actions)
                           .arg(m_lastAction));
            return;
        }
        m_waitingIdle = false;
        m_checking = false;
        ++m_figures.checks;
        const QString failure = m_check ? m_check() : QString();
        if (!failure.isEmpty())
            return finish(QString("after action %1 (%2): %3")
                              .arg(m_figures.actions)
                              .arg(m_lastAction, failure));
        if (m_finishing)
            return finish(QString()); // the last check passed
        m_sinceLastTick.restart();    // the check's own time is not the window's
        return;
    }
    if ((m_wanted > 0 && m_figures.actions >= m_wanted) ||
        (m_budgetMs > 0 && m_clock.elapsed() >= m_budgetMs)) {
        m_finishing = true;
        return;
    }
    ++m_figures.actions;
    if (m_checkEvery > 0 && m_figures.actions % m_checkEvery == 0)
        m_checking = true;
    act();
}

void Monkey::act()
{
    ++m_depth; // a menu's or a dialog's exec() runs ticks inside this call
    if (QWidget *popup = QApplication::activePopupWidget()) {
        if (auto *menu = qobject_cast<QMenu *>(popup))
            actOnPopup(menu);
        else if (pick(0, 3) == 0)
            key(popup);
        else
            click(popup, randomPoint(popup), Qt::LeftButton);
    } else if (QWidget *modal = QApplication::activeModalWidget()) {
        if (auto *dialog = qobject_cast<QDialog *>(modal))
            actOnDialog(dialog);
        else
            actOnWindow(modal);
    } else {
        actOnWindow(m_window);
    }
    --m_depth;
}

void Monkey::actOnPopup(QMenu *menu)
{
    QList<QAction *> actions;
    for (QAction *action : menu->actions()) {
        if (action->isVisible() && action->isEnabled() && !action->isSeparator() &&
            !forbidden(action->text()))
            actions << action;
    }
    const int choice = pick(0, 9);
    if (choice == 0 || actions.isEmpty()) {
        count("menu: Escape");
        QTest::keyClick(menu, Qt::Key_Escape);
        return;
    }
    QAction *action = actions.at(pick(0, int(actions.size()) - 1));
    count("menu item");
    m_lastAction = "menu item " + withoutMnemonic(action->text());
    QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(action).center());
}

void Monkey::actOnDialog(QDialog *dialog)
{
    if (auto *files = qobject_cast<QFileDialog *>(dialog))
        return answerFileDialog(files);
    if (auto *box = qobject_cast<QMessageBox *>(dialog)) {
        const QList<QAbstractButton *> buttons = box->buttons();
        if (!buttons.isEmpty()) {
            QAbstractButton *button = buttons.at(pick(0, int(buttons.size()) - 1));
            count("message box");
            m_lastAction = "message box: " + withoutMnemonic(button->text());
            ++m_figures.dialogsAnswered;
            QTest::mouseClick(button, Qt::LeftButton);
            return;
        }
    }
    const int choice = pick(0, 9);
    if (choice < 2) {
        count("dialog: Escape");
        m_lastAction = "Escape in " + dialog->windowTitle();
        ++m_figures.dialogsAnswered;
        QTest::keyClick(dialog, Qt::Key_Escape);
        return;
    }
    if (choice < 4) { // a button of the dialog's button box: OK, Cancel, Open, ...
        QList<QAbstractButton *> buttons;
        for (QDialogButtonBox *box : dialog->findChildren<QDialogButtonBox *>()) {
            for (QAbstractButton *button : box->buttons()) {
                if (button->isVisible() && button->isEnabled())
                    buttons << button;
            }
        }
        if (!buttons.isEmpty()) {
            QAbstractButton *button = buttons.at(pick(0, int(buttons.size()) - 1));
            count("dialog button");
            m_lastAction = "dialog button " + withoutMnemonic(button->text());
            ++m_figures.dialogsAnswered;
            QTest::mouseClick(button, Qt::LeftButton);
            return;
        }
    }
    actOnWindow(dialog);
}

// A file dialog gets an answer from the lists, never a random click: one can delete files.
void Monkey::answerFileDialog(QFileDialog *dialog)
{
    ++m_figures.dialogsAnswered;
    if (pick(0, 5) == 0) {
        count("file dialog: cancel");
        m_lastAction = "cancelled " + dialog->windowTitle();
        dialog->reject();
        return;
    }
    QString path;
    if (dialog->acceptMode() == QFileDialog::AcceptSave) {
        const QString suffix = suffixOf(dialog->selectedNameFilter());
        path =
            QDir(m_answers.saveFolder).filePath(QString("monkey-%1%2").arg(pick(0, 3)).arg(suffix));
    } else if (dialog->fileMode() == QFileDialog::Directory) {
        QStringList folders = m_answers.folders;
        folders << m_answers.saveFolder;
        path = folders.at(pick(0, int(folders.size()) - 1));
    } else {
        // Files that match the dialog's filter first (what a person would see listed), and now
        // and then one that does not (typed by hand): the window must refuse it with a sentence.
        QStringList files = m_answers.files;
        for (const QFileInfo &saved : QDir(m_answers.saveFolder).entryInfoList(QDir::Files))
            files << saved.absoluteFilePath();
        QStringList matching;
        const QString filter = dialog->selectedNameFilter();
        const QStringList patterns =
            (filter.contains('(') ? filter.section('(', 1).section(')', 0, 0) : filter)
                .split(' ', Qt::SkipEmptyParts);
        for (const QString &file : files) {
            if (QDir::match(patterns, QFileInfo(file).fileName()))
                matching << file;
        }
        const QStringList &from = !matching.isEmpty() && pick(0, 4) > 0 ? matching : files;
        path = from.at(pick(0, int(from.size()) - 1));
    }
    count("file dialog: answered");
    m_lastAction = dialog->windowTitle() + ": " + QFileInfo(path).fileName();
    dialog->selectFile(path);
    static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept checks the answer
}

void Monkey::actOnWindow(QWidget *top)
{
    const int choice = pick(0, 99);
    const QPoint at = randomPoint(top);
    if (choice < 30)
        click(top, at, Qt::LeftButton);
    else if (choice < 38)
        click(top, at, Qt::RightButton);
    else if (choice < 44)
        doubleClick(top, at);
    else if (choice < 50)
        drag(top, at, randomPoint(top));
    else if (choice < 60)
        wheel(top, at);
    else if (choice < 74)
        key(top);
    else if (choice < 82)
        type(top);
    else if (choice < 91)
        openMenu(top);
    else
        clickTab(top);
}

void Monkey::click(QWidget *top, QPoint at, Qt::MouseButton button)
{
    const QWidget *under = top->childAt(at);
    count(button == Qt::LeftButton ? "click" : "right-click");
    m_lastAction = QString("%1 at (%2, %3) on %4")
                       .arg(button == Qt::LeftButton ? "click" : "right-click")
                       .arg(at.x())
                       .arg(at.y())
                       .arg(under ? under->metaObject()->className() : "the window");
    if (auto *menu = qobject_cast<QMenu *>(top)) { // Quit is never clicked
        if (QAction *action = menu->actionAt(at); action && forbidden(action->text()))
            return;
    }
    QTest::mouseClick(top->windowHandle(), button, Qt::NoModifier, at);
}

void Monkey::doubleClick(QWidget *top, QPoint at)
{
    count("double-click");
    m_lastAction = QString("double-click at (%1, %2)").arg(at.x()).arg(at.y());
    QTest::mouseDClick(top->windowHandle(), Qt::LeftButton, Qt::NoModifier, at);
}

void Monkey::drag(QWidget *top, QPoint from, QPoint to)
{
    count("drag");
    m_lastAction =
        QString("drag (%1, %2) -> (%3, %4)").arg(from.x()).arg(from.y()).arg(to.x()).arg(to.y());
    QWindow *window = top->windowHandle();
    QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, from);
    const int steps = pick(2, 6);
    for (int i = 1; i <= steps; ++i) {
        if (!window || !top->isVisible())
            return; // the press closed it (a menu item, a dialog's button)
        QTest::mouseMove(window, from + (to - from) * i / steps);
    }
    if (top->isVisible())
        QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, to);
}

void Monkey::wheel(QWidget *top, QPoint at)
{
    const int notches = pick(0, 1) ? pick(1, 3) : -pick(1, 3);
    const Qt::KeyboardModifiers modifiers = pick(0, 9) == 0 ? Qt::ControlModifier : Qt::NoModifier;
    count("wheel");
    const QWidget *under = top->childAt(at);
    m_lastAction = QString("wheel %1 over %2")
                       .arg(notches)
                       .arg(under ? under->metaObject()->className() : "the window");
    turnWheel(top, at, notches, modifiers);
}

void Monkey::key(QWidget *top)
{
    const KeyStroke &stroke = kKeys[pick(0, int(std::size(kKeys)) - 1)];
    count("key");
    m_lastAction = "key " + QKeySequence(int(stroke.modifiers) | int(stroke.key)).toString();
    QTest::keyClick(top->windowHandle(), stroke.key, stroke.modifiers);
}

void Monkey::type(QWidget *top)
{
    QWidget *focus = QApplication::focusWidget();
    if (!focus || focus->window() != top) {
        // A person clicks into a field before typing: one of the top's text or number fields.
        QList<QWidget *> fields;
        for (QWidget *field : top->findChildren<QWidget *>()) {
            if (field->isVisible() && field->isEnabled() &&
                (qobject_cast<QLineEdit *>(field) || qobject_cast<QPlainTextEdit *>(field) ||
                 qobject_cast<QTextEdit *>(field)))
                fields << field;
        }
        if (fields.isEmpty())
            return key(top);
        QWidget *field = fields.at(pick(0, int(fields.size()) - 1));
        QTest::mouseClick(field, Qt::LeftButton, Qt::NoModifier, randomPoint(field));
        focus = QApplication::focusWidget();
        if (!focus || focus->window() != top)
            return;
    }
    QStringList words;
    for (int i = pick(1, 4); i > 0; --i)
        words << kWords[pick(0, int(std::size(kWords)) - 1)];
    count("typing");
    m_lastAction = "typed \"" + words.join(' ') + "\" into " + focus->metaObject()->className();
    for (const QChar c : words.join(' ')) {
        if (c == '\n') {
            QTest::keyClick(focus, Qt::Key_Return);
        } else if (c.unicode() < 128) {
            QTest::keyClick(focus, char(c.unicode()));
        } else { // QTest knows the keys of ASCII only: a composed character arrives as text
            QTest::sendKeyEvent(QTest::Click, focus, Qt::Key_unknown, QString(c), Qt::NoModifier);
        }
        if (!focus->isVisible())
            return; // Return pressed a dialog's default button
    }
}

void Monkey::openMenu(QWidget *top)
{
    auto *main = qobject_cast<QMainWindow *>(top);
    QMenuBar *bar = main ? main->menuBar() : nullptr;
    if (!bar)
        return click(top, randomPoint(top), Qt::LeftButton);
    QList<QAction *> menus;
    for (QAction *action : bar->actions()) {
        if (action->isVisible() && action->isEnabled())
            menus << action;
    }
    if (menus.isEmpty())
        return;
    QAction *menu = menus.at(pick(0, int(menus.size()) - 1));
    count("menu bar");
    m_lastAction = "opened the menu " + withoutMnemonic(menu->text());
    QTest::mouseClick(bar, Qt::LeftButton, Qt::NoModifier, bar->actionGeometry(menu).center());
}

void Monkey::clickTab(QWidget *top)
{
    QList<QTabBar *> bars;
    for (QTabBar *bar : top->findChildren<QTabBar *>()) {
        if (bar->isVisible() && bar->count() > 0)
            bars << bar;
    }
    if (bars.isEmpty())
        return click(top, randomPoint(top), Qt::LeftButton);
    QTabBar *bar = bars.at(pick(0, int(bars.size()) - 1));
    const int index = pick(0, bar->count() - 1);
    if (!bar->isTabVisible(index) || !bar->isTabEnabled(index))
        return;
    count("tab");
    m_lastAction = "tab " + withoutMnemonic(bar->tabText(index));
    QTest::mouseClick(bar, Qt::LeftButton, Qt::NoModifier, bar->tabRect(index).center());
}

bool Monkey::closeOneThing()
{
    if (QWidget *popup = QApplication::activePopupWidget()) {
        popup->close();
        return true;
    }
    if (QWidget *modal = QApplication::activeModalWidget()) {
        if (auto *dialog = qobject_cast<QDialog *>(modal))
            dialog->reject();
        else
            modal->close();
        return true;
    }
    return false;
}

void Monkey::finish(const QString &failure)
{
    m_done = true;
    m_figures.failure = failure;
    if (m_loop)
        m_loop->quit();
}

uint64_t Monkey::next()
{
    return CounterRandom(m_seed, 0).bits(m_drawn++);
}

int Monkey::pick(int low, int high)
{
    return low + int(next() % uint64_t(high - low + 1));
}

QPoint Monkey::randomPoint(const QWidget *widget)
{
    return QPoint(pick(0, std::max(0, widget->width() - 1)),
                  pick(0, std::max(0, widget->height() - 1)));
}

bool Monkey::forbidden(const QString &text) const
{
    const QString plain = withoutMnemonic(text);
    for (const QString &word : m_forbidden) {
        if (plain.startsWith(word, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

void Monkey::count(const QString &kind)
{
    ++m_figures.byKind[kind];
}

} // namespace headlens::test
