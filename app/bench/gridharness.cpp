// GridHarness: submit, wait for every plot's afterReplot, and watch the event loop's stalls.
#include "gridharness.h"

#include "plot/heatmapplot.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "stallwatch.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "window/mainwindow.h"
#include "workspace/workspace.h"

#include <QEventLoop>
#include <QHBoxLayout>
#include <QTimer>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

namespace headlens {

GridHarness::GridHarness(GridHost host)
{
    if (host == GridHost::MainWindow) {
        auto window = std::make_unique<MainWindow>();
        m_mainWindow = window.get();
        m_runner = window->runner();
        m_grid = window->findChild<HeadsGridView *>("headsGrid"); // the Heads tab's grid
        m_window = std::move(window);
        m_window->resize(1400, 900);
        m_window->show();
        return;
    }
    m_window = std::make_unique<QWidget>();
    m_runner = new TraceRunner(this);
    m_runner->setComparisonWanted(false);  // the window's Heads tab does not show it
    auto *selection = new Selection(this); // hover and the pinned head, shared as in the window
    auto *layout = new QHBoxLayout(m_window.get());
    m_grid = new HeadsGridView(m_window.get());
    m_grid->setSelection(selection);
    layout->addWidget(m_grid, 1);
    if (host == GridHost::PinnedHead) {
        m_single = new SingleHeadView(m_window.get());
        m_single->setSelection(selection);
        layout->addWidget(m_single, 1);
        selection->setPinnedHead(0);
    }
    m_window->resize(host == GridHost::PinnedHead ? 1400 : 1000, 800);
    m_window->show();
    connect(m_runner, &TraceRunner::traceReady, this, [this](std::shared_ptr<const Trace> trace) {
        m_grid->setTrace(trace, 0);
        if (m_single)
            m_single->setTrace(trace, 0);
    });
}

std::vector<std::pair<HeatmapPlot *, std::shared_ptr<const Trace>>> GridHarness::plots() const
{
    std::vector<std::pair<HeatmapPlot *, std::shared_ptr<const Trace>>> result;
    for (int head = 0; head < m_grid->plotCount(); ++head)
        result.emplace_back(m_grid->plot(head), m_grid->drawnTrace());
    if (m_single)
        result.emplace_back(m_single->plot(), m_single->drawnTrace());
    return result;
}

GridHarness::~GridHarness() = default;

WorkspaceState GridHarness::stateFor(int n, int dModel, int heads, int seed)
{
    WorkspaceState state;
    state.config.dModel = dModel;
    state.config.heads = heads;
    state.config.seed = seed;
    QString text;
    for (int i = 0; i < n; ++i)
        text += (i ? " w" : "w") + QString::number(i % 997);
    state.text = text;
    return state;
}

Interaction GridHarness::change(const WorkspaceState &state)
{
    Interaction result;
    std::optional<StallWatch> clock;

    // Waits in a real event loop, as the window does: polling processEvents() kept one of the
    // two cores busy and slowed the worker's parallel loops down by up to 4x.
    QEventLoop loop;
    bool failed = false, timedOut = false;
    std::vector<bool> done;
    auto allDrawn = [&] {
        return !done.empty() && std::all_of(done.begin(), done.end(), [](bool d) { return d; });
    };
    auto quitWhenFinished = [&] {
        if (allDrawn() && !m_runner->isBusy())
            loop.quit();
    };
    std::vector<QMetaObject::Connection> links;
    // Connected after setTrace (which runs first, connected first) made the plots for this
    // head count and queued their replots.
    links.push_back(
        connect(m_runner, &TraceRunner::traceReady, this, [&](std::shared_ptr<const Trace> trace) {
            result.n = trace->queryLength();
            const auto shown = plots();
            done.assign(shown.size(), false);
            // A replot counts once it draws this trace's weights (the images of large matrices
            // arrive from the thread pool after a first replot of the new labels).
            for (size_t i = 0; i < shown.size(); ++i)
                links.push_back(
                    connect(shown[i].first, &QCustomPlot::afterReplot, this, [&, i, trace] {
                        if (plots()[i].second != trace || done[i])
                            return;
                        done[i] = true;
                        if (allDrawn())
                            result.latencyMs = clock->elapsedMs();
                        quitWhenFinished();
                    }));
        }));
    links.push_back(connect(m_runner, &TraceRunner::busyChanged, this, quitWhenFinished));
    links.push_back(connect(m_runner, &TraceRunner::failed, this, [&] {
        failed = true;
        loop.quit();
    }));
    QTimer::singleShot(60000, &loop, [&] {
        timedOut = true;
        loop.quit();
    });

    clock.emplace();
    if (m_mainWindow)
        m_mainWindow->workspace()->setState(state); // as the controls do
    else
        m_runner->submit(state);
    loop.exec();
    result.stallMs = clock->longestMs();
    for (const auto &link : links)
        disconnect(link);
    if (failed || timedOut)
        throw std::runtime_error("grid_latency: the trace failed or took over 60 s");
    return result;
}

} // namespace headlens
