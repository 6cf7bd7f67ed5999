// RunnerFeedback: what the window says when the runner refuses or fails a computation.
#pragma once

#include <QObject>

#include <functional>

namespace headlens {

class ControlsPanel;
class HeadsGridView;
class TraceRunner;

/// The Controls say what is wrong; with a trace on screen the last valid view stays, marked
/// stale with the reason; without one, the grid says what to do instead of going on saying
/// "Computing attention…" after the computation was refused.
class RunnerFeedback : public QObject
{
    Q_OBJECT
public:
    /// `hasTrace` says whether a trace is on screen.
    RunnerFeedback(TraceRunner *runner, ControlsPanel *controls, HeadsGridView *grid,
                   std::function<bool()> hasTrace);

private:
    void hintOrStale(const QString &hint, const QString &reason);

    ControlsPanel *m_controls;
    HeadsGridView *m_grid;
    std::function<bool()> m_hasTrace;
};

} // namespace headlens
