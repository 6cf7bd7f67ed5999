// AblationWiring: the heads' right-click menu, the bar of what it changed, "Heads that matter".
#pragma once

#include "attention/trace.h"

#include <QObject>

#include <functional>
#include <memory>

namespace headlens {

class AblationEffectBar;
class AblationMenu;
class HeadsPage;
class HeadsThatMatterView;
class ModelWiring;
class RankingCommands;
class TraceRunner;
class Workspace;

/// Every head's heatmap has the same right-click menu; the ablations it sets are workspace
/// settings, so the runner recomputes every view and the bar says what changed. Like
/// ModelWiring it never reaches into the window: the window places effect() and matter().
class AblationWiring : public QObject
{
    Q_OBJECT
public:
    /// The heads of `heads` and of the model's overview get the menu; `trace` gives the trace on
    /// screen (the effect bar names its tokens).
    AblationWiring(Workspace *workspace, TraceRunner *runner, ModelWiring *models, HeadsPage *heads,
                   std::function<std::shared_ptr<const Trace>()> trace, QObject *parent = nullptr);

    AblationMenu *menu() const { return m_menu; }
    /// Above the heads: what the ablated heads changed; hidden while none is.
    AblationEffectBar *effect() const { return m_effect; }
    /// The "Heads that matter" tab: head importance and the patching map.
    HeadsThatMatterView *matter() const { return m_matter; }

signals:
    /// A corpus's means replaced the text's while a mean ablation is set: the heads change.
    void recomputeWanted();

private:
    AblationMenu *m_menu = nullptr;
    AblationEffectBar *m_effect = nullptr;
    HeadsThatMatterView *m_matter = nullptr;
    RankingCommands *m_rankings = nullptr;
};

} // namespace headlens
