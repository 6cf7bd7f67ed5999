// TypingSuite: keystrokes and full recomputes through the Session, and through the window.
#include "typingsuite.h"

#include "benchclock.h"
#include "scratchcheckpoint.h"
#include "threadscope.h"

#include "model/modelopener.h"
#include "model/transformerrun.h"
#include "session/session.h"

#ifdef HEADLENS_BENCH_GUI
#include "typingwindow.h"
#endif

#include <chrono>

namespace headlens {

std::vector<Measurement> TypingSuite::run(const BenchOptions &options, std::ostream &log)
{
    m_policy = options.repetitionPolicy();
    const int n = options.quick ? 200 : 1000;
    const ScratchCheckpoint checkpoint(name(), ScratchCheckpoint::gpt2Small(options.quick), log);
    const std::string &dir = checkpoint.dir();
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        const auto opened = ModelOpener::open(dir);
        Session session;
        TraceJob job;
        job.model.model = opened;
        const Edit viaSession = [&](const std::string &text, int64_t &reused) {
            job.texts = {text};
            const auto start = std::chrono::steady_clock::now();
            const TraceRun run = session.run(job);
            const std::chrono::duration<double, std::milli> took =
                std::chrono::steady_clock::now() - start;
            reused = run.model->pass ? run.model->pass->reusedTokens : 0;
            return took.count();
        };
        for (Measurement &m : measurePath(false, n, threads, viaSession, log))
            rows.push_back(std::move(m));
#ifdef HEADLENS_BENCH_GUI
        TypingWindow window(dir);
        const Edit viaWindow = [&](const std::string &text, int64_t &reused) {
            return window.type(text, reused);
        };
        for (Measurement &m : measurePath(true, n, threads, viaWindow, log))
            rows.push_back(std::move(m));
#endif
    }
    return rows;
}

std::vector<Measurement> TypingSuite::measurePath(bool window, int n, int threads, const Edit &edit,
                                                  std::ostream &log) const
{
    const BenchClock clock(m_policy);
    const std::string base = RandomCheckpoint::text(n);
    auto row = [&](bool keystroke, const Timing &timing, int64_t reused) {
        Measurement m;
        m.suite = name();
        m.parameters = {{"model", 1},
                        {"n", n},
                        {"threads", threads},
                        {"window", window},
                        {"keystroke", keystroke}};
        m.timing = timing;
        m.metrics = {{"reused_tokens", double(reused)}, {"ratio", 1.0}};
        return m;
    };
    int64_t reused = 0;
    log << name() << " full recompute n=" << n << " threads=" << threads << " window=" << window
        << std::endl;
    // The first character toggled: no token before it is shared, every row is computed.
    int toggle = 0;
    const Timing fullTiming = clock.collect([&] {
        std::string text = base;
        text[0] = (toggle++ % 2) ? 'x' : 'y';
        return edit(text, reused);
    });
    Measurement full = row(false, fullTiming, reused);
    log << name() << " keystroke n=" << n << " threads=" << threads << " window=" << window
        << std::endl;
    // One character more at each keystroke; after 20 the text starts again from n + 1
    // characters (the first n shared), so every keystroke has 1,000 to 1,020 tokens before it.
    std::string typed = base;
    edit(typed, reused);
    const Timing keystrokeTiming = clock.collect([&] {
        typed = typed.size() >= base.size() + 20 ? base : typed;
        typed += char('a' + typed.size() % 26);
        return edit(typed, reused);
    });
    Measurement keystroke = row(true, keystrokeTiming, reused);
    keystroke.metrics[1].second = keystroke.timing->medianMs / full.timing->medianMs;
    return {full, keystroke};
}

} // namespace headlens
