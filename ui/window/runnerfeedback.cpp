// RunnerFeedback: the runner's invalid, failed and empty-input signals, in the Controls and grid.
#include "window/runnerfeedback.h"

#include "panels/controlspanel.h"
#include "runner/tracerunner.h"
#include "views/headsgridview.h"
#include "workspace/workspacestate.h"

namespace headlens {

RunnerFeedback::RunnerFeedback(TraceRunner *runner, ControlsPanel *controls, HeadsGridView *grid,
                               std::function<bool()> hasTrace)
    : QObject(runner), m_controls(controls), m_grid(grid), m_hasTrace(std::move(hasTrace))
{
    connect(runner, &TraceRunner::invalid, this, [this](const ConfigProblem &problem) {
        m_controls->showProblem(problem);
        hintOrStale(tr("Fix the setting marked on the left to see the heads."),
                    QString::fromStdString(problem.message));
    });
    connect(runner, &TraceRunner::failed, this, [this](const QString &message) {
        m_controls->showMessage(message);
        hintOrStale(tr("Nothing to show: the message on the left says what to change."), message);
    });
    connect(runner, &TraceRunner::emptyInput, this, [this] {
        m_controls->clearProblem();
        m_grid->showHint(tr("Type a sentence in the Text box on the left to see how each head "
                            "attends — for example:\n\n“%1”")
                             .arg(QString::fromUtf8(kLessonSentence)));
    });
}

void RunnerFeedback::hintOrStale(const QString &hint, const QString &reason)
{
    if (m_hasTrace())
        m_grid->setStale(reason);
    else
        m_grid->showHint(hint);
}

} // namespace headlens
