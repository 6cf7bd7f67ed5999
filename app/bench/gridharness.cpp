// GridHarness: submit, wait for every plot's afterReplot, and watch the event loop's stalls.
#include "gridharness.h"

#include "plot/heatmapplot.h"
#include "runner/tracerunner.h"
#include "views/headsgridview.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace headlens {

GridHarness::GridHarness() : m_grid(std::make_unique<HeadsGridView>())
{
    m_runner = new TraceRunner(this);
    m_runner->setComparisonWanted(false); // the window's Heads tab does not show it
    m_grid->resize(1000, 800);
    m_grid->show();
    connect(m_runner, &TraceRunner::traceReady, m_grid.get(),
            [this](std::shared_ptr<const Trace> trace) { m_grid->setTrace(std::move(trace), 0); });
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
    QElapsedTimer clock;
    bool failed = false;
    double lastTick = 0.0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&] {
        const double now = clock.nsecsElapsed() * 1e-6;
        result.stallMs = std::max(result.stallMs, now - lastTick);
        lastTick = now;
    });
    std::vector<QMetaObject::Connection> links;
    std::vector<bool> done;
    // Connected after setTrace (which runs first, connected first) made the plots for this
    // head count and queued their replots.
    links.push_back(
        connect(m_runner, &TraceRunner::traceReady, this, [&](std::shared_ptr<const Trace> trace) {
            result.n = trace->queryLength();
            done.assign(size_t(m_grid->plotCount()), false);
            // A replot counts once it draws this trace's weights (the thumbnails of large
            // matrices arrive from the thread pool after a first replot of the new labels).
            for (int head = 0; head < m_grid->plotCount(); ++head)
                links.push_back(
                    connect(m_grid->plot(head), &QCustomPlot::afterReplot, this, [&, head, trace] {
                        if (m_grid->drawnTrace() != trace || done[size_t(head)])
                            return;
                        done[size_t(head)] = true;
                        if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }))
                            result.latencyMs = clock.nsecsElapsed() * 1e-6;
                    }));
        }));
    links.push_back(connect(m_runner, &TraceRunner::failed, this, [&] { failed = true; }));
    auto finished = [&] {
        return !done.empty() && std::all_of(done.begin(), done.end(), [](bool d) { return d; }) &&
               !m_runner->isBusy();
    };
    clock.start();
    ticker.start();
    m_runner->submit(state);
    while (!failed && !finished() && clock.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    for (const auto &link : links)
        disconnect(link);
    if (failed || clock.elapsed() >= 60000)
        throw std::runtime_error("grid_latency: the trace failed or took over 60 s");
    return result;
}

} // namespace headlens
