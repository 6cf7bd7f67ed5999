// AblationMenu: five actions built afresh for the head right-clicked, each one workspace edit.
#include "interventions/ablationmenu.h"

#include "views/ablationset.h"
#include "workspace/workspace.h"

#include <QMenu>

namespace headlens {

AblationMenu::AblationMenu(Workspace *workspace, QObject *parent)
    : QObject(parent), m_workspace(workspace), m_menu(new QMenu)
{
    m_menu->setObjectName("ablationMenu");
}

AblationMenu::~AblationMenu()
{
    delete m_menu;
}

void AblationMenu::popup(int layer, int head, const QPoint &globalPosition)
{
    fill(layer, head);
    m_menu->popup(globalPosition);
}

void AblationMenu::fill(int layer, int head)
{
    m_menu->clear();
    m_menu->addSection(tr("Layer %1 · head %2").arg(layer).arg(head + 1));
    const AblationSet::Items items = m_workspace->state().ablations;
    auto add = [this](const QString &text, const char *name, bool enabled,
                      const AblationSet::Items &result) {
        QAction *action = m_menu->addAction(text);
        action->setObjectName(name);
        action->setEnabled(enabled);
        connect(action, &QAction::triggered, m_workspace,
                [this, result] { m_workspace->setAblations(result); });
    };
    add(tr("Ablate head (zero)"), "ablateZero", true,
        AblationSet::ablated(items, layer, head, InterventionKind::Zero));
    add(tr("Ablate head (mean)"), "ablateMean", true,
        AblationSet::ablated(items, layer, head, InterventionKind::Mean));
    add(tr("Keep only this head in its layer"), "keepOnly", true,
        AblationSet::keptOnly(items, layer, head));
    m_menu->addSeparator();
    add(tr("Restore head"), "restoreHead", AblationSet::changes(items, layer, head),
        AblationSet::restored(items, layer, head));
    add(tr("Restore all heads"), "restoreAll", !items.empty(), {});
}

} // namespace headlens
