// LongTextWindowSuite: a tiled run drawn, zoomed, panned and re-pinned, each until it settles.
#include "longtextwindowsuite.h"

#include "paintwatch.h"
#include "scratchcheckpoint.h"
#include "stallwatch.h"
#include "threadscope.h"

#include "longtext/longtextpage.h"
#include "longtext/tiledheadview.h"
#include "model/modelopener.h"
#include "model/openedmodel.h"
#include "model/tiledattention.h"
#include "runner/viewworkpool.h"

#include <QApplication>
#include <QEventLoop>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <functional>

namespace headlens {

namespace {

enum Case
{
    Shown,
    Zoom,
    Pan,
    Pin,
    Hover,
    Band ///< the pinned head as a band (query by distance back)
};

/// Nothing painted for this long, with the view pool idle, is settled.
constexpr double kPageQuietMs = 150.0;
constexpr double kPageGiveUpMs = 60000.0;
constexpr int kZoomRepetitions = 3;

struct Settled
{
    double latencyMs = 0.0;    ///< the change to the end of its last paint
    double firstPaintMs = 0.0; ///< the change to the end of its first (what stands in)
    double stallMs = 0.0;
};

/// Runs `change`, then the event loop until `page` is settled.
Settled settlePage(QWidget *page, const std::function<void()> &change)
{
    const StallWatch clock;
    const PaintWatch paints(page, [&clock] { return clock.elapsedMs(); });
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const double now = clock.elapsedMs();
        const bool quiet = now - paints.lastPaintEndMs() >= kPageQuietMs && now >= kPageQuietMs;
        if ((quiet && ViewWorkPool::instance()->activeThreadCount() == 0 &&
             QThreadPool::globalInstance()->activeThreadCount() == 0) ||
            now > kPageGiveUpMs)
            loop.quit();
    });
    poll.start();
    change();
    loop.exec();
    if (clock.elapsedMs() > kPageGiveUpMs)
        throw std::runtime_error("long_context_window: the page did not settle within a minute");
    return {paints.lastPaintEndMs(), paints.firstPaintEndMs(), clock.longestMs()};
}

} // namespace

std::vector<Measurement> LongTextWindowSuite::run(const BenchOptions &options, std::ostream &log)
{
    const int n = options.quick ? 16384 : 32768;
    CheckpointShape shape = CheckpointShape::qwen25Small();
    shape.layers = 1;
    const ScratchCheckpoint checkpoint(name(), shape, log);
    std::shared_ptr<const ModelRun> run;
    {
        const ThreadScope scope(*std::max_element(options.threads.begin(), options.threads.end()));
        log << name() << " run n=" << n << std::endl;
        const auto model = ModelOpener::open(checkpoint.dir());
        run = model->run(RandomCheckpoint::tokenIds(n), 0, {});
    }
    if (!run->tiled())
        throw std::runtime_error("long_context_window: the run kept its matrices");
    std::vector<Measurement> rows;
    // A change is settled after 150 ms without a paint, and the layer box's blinking cursor
    // repaints every 500 ms: one blink in the wait added up to 150 ms to a change in three.
    QApplication::setCursorFlashTime(0);
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        LongTextPage page;
        page.resize(1280, 720);
        page.show();
        TiledHeadView *head = page.head();
        auto row = [&](Case c, int64_t span, const std::vector<Settled> &samples) {
            Measurement m;
            m.suite = name();
            m.parameters = {{"n", n}, {"threads", threads}, {"case", c}, {"span", span}};
            std::vector<double> ms, first;
            double stall = 0.0;
            for (const Settled &s : samples) {
                ms.push_back(s.latencyMs);
                first.push_back(s.firstPaintMs);
                stall = std::max(stall, s.stallMs);
            }
            m.timing = Timing::fromSamples(ms);
            const int64_t bin =
                head->picture().empty() ? run->tiles->binSize : head->picture().binSize;
            m.metrics = {{"first_paint_ms", Timing::fromSamples(first).medianMs},
                         {"max_stall_ms", stall},
                         {"bin", double(bin)}};
            rows.push_back(std::move(m));
        };
        log << name() << " shown threads=" << threads << std::endl;
        std::vector<Settled> shown;
        for (int i = 0; i < kZoomRepetitions; ++i)
            shown.push_back(settlePage(&page, [&] {
                page.setRun(nullptr);
                page.setRun(run);
            }));
        row(Shown, n, shown);
        // From the whole text down to 16 tokens on the diagonal's middle, a quarter each time:
        // the queries from n/2 on, the keys just before them (what a causal head sees).
        for (int64_t span = n; span >= 16; span /= 4) {
            log << name() << " zoom span=" << span << " threads=" << threads << std::endl;
            const double q0 = std::min<double>(n / 2, n - span),
                         k0 = std::max<double>(0, q0 - span / 2);
            std::vector<Settled> samples;
            for (int i = 0; i < kZoomRepetitions; ++i) {
                settlePage(&page, [&] { head->showRegion(0, 0, double(n)); });
                samples.push_back(
                    settlePage(&page, [&] { head->showRegion(q0, k0, double(span)); }));
            }
            row(Zoom, span, samples);
            if (span <= 2048 && span * 4 > 2048) { // pan and pin where regions are computed
                std::vector<Settled> pans;
                for (int i = 0; i < kZoomRepetitions; ++i)
                    pans.push_back(settlePage(&page, [&] {
                        head->showRegion(q0 + (i + 1) * span / 4.0, k0 + (i + 1) * span / 4.0,
                                         double(span));
                    }));
                row(Pan, span, pans);
                std::vector<Settled> pins;
                for (int i = 0; i < kZoomRepetitions; ++i)
                    pins.push_back(settlePage(&page, [&] { page.pinHead((i + 1) % run->heads); }));
                row(Pin, span, pins);
            }
        }
        // The band: the whole text (no grid of the run stands in), then the last 2,048
        // distances of 2,048 queries from the middle.
        for (int64_t span : {int64_t(n), int64_t(2048)}) {
            log << name() << " band span=" << span << " threads=" << threads << std::endl;
            std::vector<Settled> samples;
            for (int i = 0; i < kZoomRepetitions; ++i) {
                settlePage(&page, [&] { page.setBand(false); });
                samples.push_back(settlePage(&page, [&] {
                    page.setBand(true);
                    head->showRegion(span == n ? 0.0 : double(n / 2), 0.0, double(span));
                }));
            }
            row(Band, span, samples);
        }
        settlePage(&page, [&] { page.setBand(false); });
        // Hover: one cell's weight, computed alone from its query and key.
        constexpr int kCells = 10000;
        const auto start = std::chrono::steady_clock::now();
        float sum = 0.0f;
        for (int i = 0; i < kCells; ++i)
            sum += head->exactWeight(n - 1 - i, (int64_t(i) * 7919) % (n - i));
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        Measurement hover;
        hover.suite = name();
        hover.parameters = {{"n", n}, {"threads", threads}, {"case", Hover}, {"span", 1}};
        hover.timing = Timing::fromSamples({took.count() / kCells});
        hover.metrics = {
            {"first_paint_ms", 0.0}, {"max_stall_ms", 0.0}, {"bin", sum > 0.0f ? 1.0 : 0.0}};
        rows.push_back(std::move(hover));
    }
    return rows;
}

} // namespace headlens
