// GridHarness: the window's compute-and-draw path (TraceRunner -> HeadsGridView), offscreen.
#pragma once

#include "workspace/workspacestate.h"

#include <QObject>

#include <memory>

namespace headlens {

class HeadsGridView;
class TraceRunner;

/// One control change as a person feels it: from the new settings to the heads grid repainted.
struct Interaction
{
    double latencyMs = 0.0; ///< submit() to the last thumbnail's finished replot
    double stallMs = 0.0;   ///< largest gap between ticks of a 5 ms UI timer meanwhile
    int64_t n = 0;          ///< query tokens the trace really had
};

/// A TraceRunner feeding a HeadsGridView as MainWindow wires them while the Heads tab is shown
/// (no four-ways comparison), on the offscreen platform at a window-like size, with the runner's
/// own settings. Needs a QApplication.
class GridHarness : public QObject
{
public:
    GridHarness();
    ~GridHarness() override;

    /// Submits `state`, waits until the grid has replotted every head and the runner is idle
    /// again, and reports the time
    /// to the repaint. Throws std::runtime_error after 60 s or when the runner reports a failure.
    Interaction change(const WorkspaceState &state);
    HeadsGridView *grid() const { return m_grid.get(); }

    /// The lesson's defaults with d_model, h and a text of about n word tokens.
    static WorkspaceState stateFor(int n, int dModel, int heads, int seed);

private:
    std::unique_ptr<HeadsGridView> m_grid;
    TraceRunner *m_runner = nullptr;
};

} // namespace headlens
