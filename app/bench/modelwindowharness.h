// ModelWindowHarness: the whole window with a model open; a change timed to its tab repainted.
#pragma once

#include "gridharness.h"

#include "model/modelrun.h"

#include <functional>
#include <memory>
#include <string>

class QWidget;

namespace headlens {

class MainWindow;

/// The MainWindow, offscreen at 1400 x 900, as a person uses it with a model: `apply` makes a
/// change (a text, a layer, an ablation, a tab) and waits until the window is settled: the
/// runner idle, Qt's global thread pool and ViewWorkPool idle (the thumbnails and pictures made
/// there delivered) and nothing in the view tabs painted for kQuietMs. Needs a QApplication.
class ModelWindowHarness
{
public:
    ModelWindowHarness();
    ~ModelWindowHarness();

    MainWindow *window() const { return m_window.get(); }
    /// The last model run the runner delivered (null before the first).
    std::shared_ptr<const ModelRun> run() const { return m_run; }

    /// Runs `change` on the UI thread, then waits as above. latencyMs: from the change to the
    /// end of the last paint in the view tabs (0 when nothing was repainted); stallMs: the
    /// longest the event loop was busy over the whole wait (StallWatch); n: the run's tokens.
    /// Throws std::runtime_error when the runner fails or the window has not settled within
    /// kGiveUpMs.
    Interaction apply(const std::function<void()> &change);

    /// Nothing painted for this long, with the runner and the pool idle, is settled.
    static constexpr double kQuietMs = 300.0;
    /// A change the window has not settled after by then counts as a failure, not a figure.
    static constexpr double kGiveUpMs = 180000.0;

private:
    std::unique_ptr<MainWindow> m_window;
    std::shared_ptr<const ModelRun> m_run;
};

} // namespace headlens
