// TrainTabDock: the Controls dock steps aside on the Train tab and comes back when leaving it.
#pragma once

#include <QObject>

class QDockWidget;
class QTabWidget;
class QWidget;

namespace headlens {

/// The Controls dock sets up the Heads and Pipeline views; on the Train tab (which has its own
/// settings column) it only takes room from the heatmaps. A dock the user had closed stays
/// closed.
class TrainTabDock : public QObject
{
    Q_OBJECT
public:
    TrainTabDock(QTabWidget *tabs, QWidget *trainPage, QDockWidget *dock);

private:
    void follow();

    QTabWidget *m_tabs;
    QWidget *m_trainPage;
    QDockWidget *m_dock;
    bool m_hiddenForTrain = false; ///< hidden by this class, to be shown again
};

} // namespace headlens
