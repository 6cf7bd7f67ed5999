// ControlsDockPolicy: when the Controls dock shows: never on the Train tab, hidden in presentation.
#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QTabWidget;
class QWidget;

namespace headlens {

/// The Controls dock sets up the Heads and Pipeline views, and takes a third of a 1280 x 720
/// projector's width from them. It steps aside on the Train tab (which has its own settings
/// column), and presentation mode starts without it: View > Controls (F4) brings it back for
/// as long as presentation mode lasts. Outside presentation mode it shows as the person last
/// left it there; a dock they closed stays closed.
class ControlsDockPolicy : public QObject
{
    Q_OBJECT
public:
    ControlsDockPolicy(QTabWidget *tabs, QWidget *trainPage, QDockWidget *dock,
                       QAction *presentation);

signals:
    /// A sentence for the status bar when presentation mode hid the dock.
    void message(const QString &text);

private:
    void apply();

    QTabWidget *m_tabs;
    QWidget *m_trainPage;
    QDockWidget *m_dock;
    QAction *m_presentation;
    bool m_wanted = true;                ///< the person's choice outside presentation mode
    bool m_wantedInPresentation = false; ///< and in it, until it ends
    bool m_applying = false;             ///< a visibility change of ours, not the person's
};

} // namespace headlens
