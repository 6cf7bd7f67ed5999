// GridHarness: the window's compute-and-draw path (TraceRunner -> heads grid), offscreen.
#pragma once

#include "attention/trace.h"
#include "workspace/workspacestate.h"

#include <QObject>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

namespace headlens {

class HeadsGridView;
class HeatmapPlot;
class MainWindow;
class SingleHeadView;
class TraceRunner;

/// One control change as a person feels it: from the new settings to the heads grid repainted.
struct Interaction
{
    double latencyMs = 0.0; ///< submit() to the last thumbnail's finished replot
    double stallMs = 0.0;   ///< largest gap between ticks of a 5 ms UI timer meanwhile
    int64_t n = 0;          ///< query tokens the trace really had
};

/// What a change is made in and waited for, offscreen at a window-like size.
enum class GridHost
{
    Grid,       ///< a TraceRunner feeding a HeadsGridView, wired as MainWindow wires them
    PinnedHead, ///< the same with the SingleHeadView beside the grid showing head 1
    MainWindow, ///< the whole window on its Heads tab: every view a new trace reaches
};

/// Drives a change the way a person makes one and waits for the heads grid (and a pinned head)
/// to show it. The runner keeps its own settings and, as on the Heads tab, makes no four-ways
/// comparison. Needs a QApplication.
class GridHarness : public QObject
{
public:
    explicit GridHarness(GridHost host = GridHost::Grid);
    ~GridHarness() override;

    /// Submits `state`, waits until every plot shows the new trace and the runner is idle
    /// again, and reports the time to that repaint. Throws std::runtime_error after 60 s or
    /// when the runner reports a failure.
    Interaction change(const WorkspaceState &state);
    HeadsGridView *grid() const { return m_grid; }
    TraceRunner *runner() const { return m_runner; }

    /// The lesson's defaults with d_model, h and a text of about n word tokens.
    static WorkspaceState stateFor(int n, int dModel, int heads, int seed);

private:
    /// The plots showing the current trace, each with the trace it has drawn.
    std::vector<std::pair<HeatmapPlot *, std::shared_ptr<const Trace>>> plots() const;

    std::unique_ptr<QWidget> m_window;  ///< the bare views, or the MainWindow
    MainWindow *m_mainWindow = nullptr; ///< m_window itself for GridHost::MainWindow
    HeadsGridView *m_grid = nullptr;
    SingleHeadView *m_single = nullptr; ///< null unless a head is pinned
    TraceRunner *m_runner = nullptr;
};

} // namespace headlens
