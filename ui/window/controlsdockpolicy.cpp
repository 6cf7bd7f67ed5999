// ControlsDockPolicy: the person's choice, the Train tab and presentation mode decide the dock.
#include "window/controlsdockpolicy.h"

#include <QAction>
#include <QDockWidget>
#include <QTabWidget>

namespace headlens {

ControlsDockPolicy::ControlsDockPolicy(QTabWidget *tabs, QWidget *trainPage, QDockWidget *dock,
                                       QAction *presentation)
    : QObject(tabs), m_tabs(tabs), m_trainPage(trainPage), m_dock(dock),
      m_presentation(presentation)
{
    connect(tabs, &QTabWidget::currentChanged, this, &ControlsDockPolicy::apply);
    connect(presentation, &QAction::toggled, this, [this](bool on) {
        m_wantedInPresentation = false;
        apply();
        if (on && m_dock->isHidden() && m_tabs->currentWidget() != m_trainPage)
            emit message(tr("Controls hidden: F4 shows them"));
    });
    // Shown or closed by the person (View > Controls, its close button, a restored layout):
    // that is their choice for the mode they are in.
    connect(dock, &QDockWidget::visibilityChanged, this, [this] {
        if (m_applying || m_tabs->currentWidget() == m_trainPage)
            return;
        (m_presentation->isChecked() ? m_wantedInPresentation : m_wanted) = !m_dock->isHidden();
    });
}

void ControlsDockPolicy::apply()
{
    const bool wanted = m_presentation->isChecked() ? m_wantedInPresentation : m_wanted;
    const bool shown = wanted && m_tabs->currentWidget() != m_trainPage;
    if (shown == !m_dock->isHidden())
        return;
    m_applying = true;
    m_dock->setVisible(shown);
    m_applying = false;
}

} // namespace headlens
