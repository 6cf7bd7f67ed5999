// RankingCommands: the importance and patching views' requests, run by the trace runner.
#pragma once

#include "session/rankingrequest.h"

#include <QObject>

namespace headlens {

class HeadsThatMatterView;
class ModelController;
class RankingHeatmap;
class TraceRunner;
class Workspace;

/// The rankings go through the same runner as every trace (one worker, newest wins): a ranking
/// is the workspace's job with a RankingRequest, so an edit or Cancel stops it at its next
/// pass. Only one ranking runs at a time; the view that asked shows its progress.
class RankingCommands : public QObject
{
    Q_OBJECT
public:
    RankingCommands(TraceRunner *runner, Workspace *workspace, ModelController *models,
                    HeadsThatMatterView *view, QObject *parent = nullptr);

    void computeImportance();
    /// The patching view's request, its corrupted text included (empty: the workspace's text):
    /// the workspace's text is left as the person typed it.
    void computePatching();

private:
    void start(RankingHeatmap *heatmap, const RankingRequest &request);

    TraceRunner *m_runner;
    Workspace *m_workspace;
    ModelController *m_models;
    HeadsThatMatterView *m_view;
    RankingHeatmap *m_active = nullptr; ///< the heatmap of the ranking in flight
    bool m_rankExample = false;         ///< rank the heads once the task's example typed has run
};

} // namespace headlens
