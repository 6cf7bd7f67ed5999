// CompareCommands: the Compare tab's requests, run by the trace runner after A's trace.
#pragma once

#include "attention/trace.h"
#include "session/comparisonrequest.h"

#include <QObject>

#include <memory>

namespace headlens {

class CompareView;
class ModelController;
class TraceRunner;
class Workspace;

/// B goes through the same runner and worker as every trace (newest wins, the opened model
/// reused): while the tab shows, the runner follows each trace with B's run, so an edit of the
/// text or the settings on the left recomputes both. Hidden, the tab costs nothing.
class CompareCommands : public QObject
{
    Q_OBJECT
public:
    CompareCommands(TraceRunner *runner, Workspace *workspace, ModelController *models,
                    CompareView *view, QObject *parent = nullptr);

    /// Runs the workspace's job for A and, after it, B as `b` says.
    void compare(const ComparisonRequest &b);

private:
    void setShown(bool shown);
    /// ModelPicker for the Compare tab's "Choose…": the model chosen becomes B and runs.
    void chooseModelB();

    TraceRunner *m_runner;
    Workspace *m_workspace;
    ModelController *m_models;
    CompareView *m_view;
    std::shared_ptr<const Trace> m_latest; ///< the newest trace the views show
};

} // namespace headlens
