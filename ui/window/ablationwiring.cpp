// AblationWiring: the menu on three heads views, the effect bar fed by the runner, the rankings.
#include "window/ablationwiring.h"

#include "corpus/corpuspanel.h"
#include "interventions/ablationeffectbar.h"
#include "interventions/ablationmenu.h"
#include "interventions/datasetview.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/patchingmapview.h"
#include "interventions/rankingheatmap.h"
#include "models/modelcontroller.h"
#include "models/modelgridview.h"
#include "models/modeloverview.h"
#include "runner/tracerunner.h"
#include "views/ablationset.h"
#include "views/headsgridview.h"
#include "views/headspage.h"
#include "views/singleheadview.h"
#include "window/modelwiring.h"
#include "window/rankingcommands.h"
#include "workspace/workspace.h"

namespace headlens {

AblationWiring::AblationWiring(Workspace *workspace, TraceRunner *runner, ModelWiring *models,
                               HeadsPage *heads,
                               std::function<std::shared_ptr<const Trace>()> trace, QObject *parent)
    : QObject(parent)
{
    m_menu = new AblationMenu(workspace, parent);
    connect(heads->grid(), &HeadsGridView::headMenuRequested, m_menu, &AblationMenu::popup);
    connect(heads->single(), &SingleHeadView::headMenuRequested, m_menu, &AblationMenu::popup);
    connect(models->overview()->grid(), &ModelGridView::headMenuRequested, m_menu,
            &AblationMenu::popup);
    // Another model's heads are not these: a model chosen anew starts unablated.
    connect(models->controller(), &ModelController::sourceChanged, workspace,
            [workspace] { workspace->setAblations({}); });
    m_effect = new AblationEffectBar;
    connect(runner, &TraceRunner::effectReady, this,
            [this, workspace, trace](std::shared_ptr<const AblationEffect> effect) {
                m_effect->setEffect(std::move(effect), trace(), workspace->state().batchIndex);
            });
    connect(workspace, &Workspace::batchIndexChanged, m_effect,
            [this, trace](int b) { m_effect->setEffect(m_effect->effect(), trace(), b); });
    m_matter = new HeadsThatMatterView;
    m_rankings = new RankingCommands(runner, workspace, models->controller(), m_matter, parent);
    // A head pinned anywhere is outlined on the rankings too.
    connect(models, &ModelWiring::headPinned, this, [this](int layer, int head) {
        for (RankingHeatmap *map :
             {m_matter->importance()->heatmap(), m_matter->patching()->heatmap(),
              m_matter->dataset()->heatmap()})
            map->chooseHead(layer, head);
    });
    // A corpus's means replace the text's in mean ablations: the heads shown change with them.
    connect(models->corpus(), &CorpusPanel::meansChanged, this,
            [this, runner, workspace](auto means, auto model) {
                runner->setMeanSource(means, std::move(model));
                if (AblationSet::hasMean(workspace->state().ablations))
                    emit recomputeWanted();
            });
}

} // namespace headlens
