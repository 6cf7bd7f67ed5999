// TypingWindow: the whole window with a model open, its text set as typing in the box sets it.
#pragma once

#include "gridharness.h"

#include <cstdint>
#include <string>

namespace headlens {

/// The MainWindow on its Heads tab with the model of `modelDir` (GridHost::MainWindow). Needs a
/// QApplication.
class TypingWindow
{
public:
    explicit TypingWindow(const std::string &modelDir);

    /// Sets `text` in the workspace, as the text box does on each keystroke, and waits until
    /// the heads grid shows its trace (GridHarness::change). Returns the milliseconds that
    /// took; `reused` receives the tokens the run took from the previous one.
    double type(const std::string &text, int64_t &reused);

private:
    GridHarness m_harness;
    WorkspaceState m_state;
    int64_t m_reused = 0; ///< of the last run delivered
};

} // namespace headlens
