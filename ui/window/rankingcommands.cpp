// RankingCommands: requests to TraceRunner::submitRanking, its answers to the view that asked.
#include "window/rankingcommands.h"

#include "interventions/datasetview.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/patchingmapview.h"
#include "interventions/rankingheatmap.h"
#include "models/modelcontroller.h"
#include "runner/tracerunner.h"
#include "workspace/workspace.h"

namespace headlens {

RankingCommands::RankingCommands(TraceRunner *runner, Workspace *workspace, ModelController *models,
                                 HeadsThatMatterView *view, QObject *parent)
    : QObject(parent), m_runner(runner), m_workspace(workspace), m_models(models), m_view(view)
{
    HeadImportanceView *importance = view->importance();
    PatchingMapView *patching = view->patching();
    connect(importance, &HeadImportanceView::computeRequested, this,
            &RankingCommands::computeImportance);
    connect(patching, &PatchingMapView::computeRequested, this, &RankingCommands::computePatching);
    for (RankingHeatmap *heatmap : {importance->heatmap(), patching->heatmap()}) {
        connect(heatmap, &RankingHeatmap::cancelRequested, runner, &TraceRunner::cancelRanking);
        connect(heatmap, &RankingHeatmap::headActivated, models, &ModelController::openHead);
    }
    connect(runner, &TraceRunner::rankingProgress, this, [this](int percent) {
        if (m_active)
            m_active->setProgress(percent);
    });
    connect(runner, &TraceRunner::rankingCancelled, this, [this] {
        if (m_active)
            m_active->showCancelled();
        m_active = nullptr;
    });
    connect(runner, &TraceRunner::rankingFailed, this, [this](const QString &message) {
        if (m_active)
            m_active->showFailed(message);
        m_active = nullptr;
    });
    connect(runner, &TraceRunner::importanceReady, importance, [this, importance](auto result) {
        m_active = nullptr;
        importance->setImportance(std::move(result));
    });
    connect(runner, &TraceRunner::patchingReady, patching, [this, patching](auto result) {
        m_active = nullptr;
        patching->setPatching(std::move(result));
    });
    connect(models, &ModelController::runChanged, importance, [this, importance](const auto &run) {
        importance->setTask(run ? QString::fromStdString(run->task.name) : QString(),
                            run ? QString::fromStdString(run->task.formatProblem) : QString());
        // The example typed by "Use the task's example" has run: rank the heads on it.
        if (m_rankExample && run && run->task.formatProblem.empty() &&
            m_workspace->state().text.toStdString() == run->task.example) {
            m_rankExample = false;
            computeImportance();
        }
    });
    connect(importance, &HeadImportanceView::exampleRequested, this, [this] {
        const auto &run = m_models->run();
        if (!run || run->task.example.empty())
            return;
        const QString example = QString::fromStdString(run->task.example);
        if (m_workspace->state().text == example) {
            computeImportance(); // typed already: no new run will come
            return;
        }
        m_rankExample = true;
        m_workspace->setText(example);
    });
    // A dataset runs through the model on screen; its heads open as the others' do.
    DatasetView *dataset = view->dataset();
    connect(models, &ModelController::runChanged, dataset,
            [dataset](const auto &run) { dataset->setModel(run ? run->source.model : nullptr); });
    connect(dataset, &DatasetView::headChosen, models, &ModelController::openHead);
    // The names of the example are one token each in GPT-2's vocabulary.
    connect(models, &ModelController::runChanged, patching, [patching](const auto &run) {
        patching->setExampleAvailable(run && run->name.rfind("GPT-2", 0) == 0);
    });
}

void RankingCommands::computeImportance()
{
    RankingRequest request;
    request.kind = RankingRequest::Kind::Importance;
    start(m_view->importance()->heatmap(), request);
}

void RankingCommands::computePatching()
{
    // The corrupted text goes with the request, not into the workspace: the person's text, and
    // what the Heads and Model tabs show of it, stay theirs.
    start(m_view->patching()->heatmap(), m_view->patching()->request());
}

void RankingCommands::start(RankingHeatmap *heatmap, const RankingRequest &request)
{
    // A newer request cancels the one in flight; its view says so (rankingCancelled) first.
    if (!m_runner->submitRanking(m_workspace->state(), m_models->source(), request)) {
        heatmap->showFailed(tr("Nothing to rank: type a text (and fix any setting marked on "
                               "the left)."));
        return;
    }
    m_active = heatmap;
    heatmap->setRunning(true);
}

} // namespace headlens
