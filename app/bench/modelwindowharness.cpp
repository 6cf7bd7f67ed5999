// ModelWindowHarness: StallWatch and PaintWatch around a change, until the window is settled.
#include "modelwindowharness.h"

#include "paintwatch.h"
#include "runner/tracerunner.h"
#include "runner/viewworkpool.h"
#include "stallwatch.h"
#include "window/mainwindow.h"

#include <QEventLoop>
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>

#include <stdexcept>
#include <string>

namespace headlens {

ModelWindowHarness::ModelWindowHarness() : m_window(std::make_unique<MainWindow>())
{
    QObject::connect(m_window->runner(), &TraceRunner::modelRunReady, m_window.get(),
                     [this](std::shared_ptr<const ModelRun> run) { m_run = std::move(run); });
    m_window->resize(1400, 900);
    m_window->show();
}

ModelWindowHarness::~ModelWindowHarness() = default;

Interaction ModelWindowHarness::apply(const std::function<void()> &change)
{
    const StallWatch clock;
    const PaintWatch paints(m_window->findChild<QTabWidget *>("viewTabs"),
                            [&clock] { return clock.elapsedMs(); });
    bool failed = false;
    QEventLoop loop;
    const auto failure = QObject::connect(m_window->runner(), &TraceRunner::failed, &loop, [&] {
        failed = true;
        loop.quit();
    });
    // Checked every 10 ms from the loop itself: a repaint that a pool job's result brings, or
    // a deferred layout, still comes after the runner went idle.
    QTimer settle;
    settle.setInterval(10);
    QObject::connect(&settle, &QTimer::timeout, &loop, [&] {
        const double now = clock.elapsedMs();
        const bool quiet = now - paints.lastPaintEndMs() >= kQuietMs && now >= kQuietMs;
        if ((quiet && !m_window->runner()->isBusy() &&
             QThreadPool::globalInstance()->activeThreadCount() == 0 &&
             ViewWorkPool::instance()->activeThreadCount() == 0) ||
            now > kGiveUpMs)
            loop.quit();
    });
    settle.start();
    change();
    loop.exec();
    QObject::disconnect(failure);
    if (failed || clock.elapsedMs() > kGiveUpMs)
        throw std::runtime_error("model_window: the run failed or the window did not settle "
                                 "within " +
                                 std::to_string(int(kGiveUpMs / 1000)) + " s");
    Interaction result;
    result.latencyMs = paints.lastPaintEndMs();
    result.stallMs = clock.longestMs();
    result.n = m_run ? int64_t(m_run->tokens.size()) : 0;
    return result;
}

} // namespace headlens
