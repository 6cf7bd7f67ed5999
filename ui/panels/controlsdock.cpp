// ControlsDock: a dock named for QMainWindow::saveState, so its place is restored next time.
#include "panels/controlsdock.h"

#include "panels/controlspanel.h"

namespace headlens {

ControlsDock::ControlsDock(Workspace *workspace, QWidget *parent)
    : QDockWidget(tr("Controls"), parent)
{
    setObjectName("controlsDock");
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                QDockWidget::DockWidgetClosable);
    m_controls = new ControlsPanel(workspace, this);
    setWidget(m_controls);
}

} // namespace headlens
