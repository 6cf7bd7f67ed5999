// TrainTabDock: follows the current tab; remembers whether it was the one that hid the dock.
#include "window/traintabdock.h"

#include <QDockWidget>
#include <QTabWidget>

namespace headlens {

TrainTabDock::TrainTabDock(QTabWidget *tabs, QWidget *trainPage, QDockWidget *dock)
    : QObject(tabs), m_tabs(tabs), m_trainPage(trainPage), m_dock(dock)
{
    connect(tabs, &QTabWidget::currentChanged, this, &TrainTabDock::follow);
}

void TrainTabDock::follow()
{
    const bool train = m_tabs->currentWidget() == m_trainPage;
    if (train && !m_dock->isHidden()) {
        m_hiddenForTrain = true;
        m_dock->hide();
    } else if (!train && m_hiddenForTrain) {
        m_hiddenForTrain = false;
        m_dock->show();
    }
}

} // namespace headlens
