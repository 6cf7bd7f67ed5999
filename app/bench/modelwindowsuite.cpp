// ModelWindowSuite: texts, layers, an ablation and tab switches, each until the window settles.
#include "modelwindowsuite.h"

#include "modelwindowharness.h"
#include "processmemory.h"
#include "scratchcheckpoint.h"
#include "threadscope.h"

#include "models/modeloverview.h"
#include "pipeline/pipelineview.h"
#include "views/linesview.h"
#include "window/mainwindow.h"
#include "window/modelwiring.h"
#include "workspace/workspace.h"

#include <QTabWidget>

#include <algorithm>
#include <functional>
#include <map>

namespace headlens {

namespace {

enum Change
{
    Open,
    Text,
    Layer,
    Ablation,
    Tab
};
enum ShownTab
{
    Heads,
    Model,
    Pipeline,
    Lines
};

QWidget *pageOf(const MainWindow &window, ShownTab tab)
{
    switch (tab) {
    case Heads:
        return window.findChild<QWidget *>("headsPage");
    case Model:
        return window.models()->overview();
    case Pipeline:
        return window.pipeline();
    case Lines:
        return window.linesView();
    }
    return nullptr;
}

struct WindowCase
{
    Change change;
    ShownTab tab;
    /// The change, the `i`th of its kind in the suite: each differs from the one before.
    std::function<void(int i)> make;
    /// Where each repetition starts: the tab shown before a tab switch, else `tab`.
    ShownTab from;
};

/// A recompute of 1,024 tokens takes seconds: a few repetitions, no warm-up (opening the model
/// warmed the window up).
constexpr int kRepetitions = 3;
/// The words: 300 MB (not MiB).
constexpr int64_t kBudgetSlack = 300000000;

} // namespace

std::vector<Measurement> ModelWindowSuite::run(const BenchOptions &options, std::ostream &log)
{
    const int n = options.quick ? 200 : 1024;
    const int repetitions = options.quick ? 1 : kRepetitions;
    const CheckpointShape shape = ScratchCheckpoint::gpt2Small(options.quick);
    const ScratchCheckpoint checkpoint(name(), shape, log);
    const std::string &dir = checkpoint.dir();
    const int64_t fileBytes = checkpoint.fileBytes();
    const std::string base = RandomCheckpoint::text(n);
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        resetPeakResident();
        ModelWindowHarness harness;
        MainWindow &window = *harness.window();
        Workspace &workspace = *window.workspace();
        auto show = [&](ShownTab tab) {
            window.findChild<QTabWidget *>("viewTabs")->setCurrentWidget(pageOf(window, tab));
        };
        auto textChange = [&](int i) {
            std::string text = base;
            text[0] = i % 2 ? 'x' : 'y';
            workspace.setText(QString::fromStdString(text));
        };
        auto layerChange = [&](int i) { workspace.setModelLayer(i % 2 ? 0 : shape.layers / 2); };
        auto ablation = [&](int i) {
            workspace.setAblations({HeadIntervention{0, i % shape.heads}});
        };
        auto tabChange = [&](ShownTab tab) { return [&, tab](int) { show(tab); }; };
        const std::vector<WindowCase> cases{
            {Text, Heads, textChange, Heads},
            {Text, Model, textChange, Model},
            {Text, Pipeline, textChange, Pipeline},
            {Text, Lines, textChange, Lines},
            {Layer, Heads, layerChange, Heads},
            {Layer, Model, layerChange, Model},
            {Tab, Model, tabChange(Model), Heads},
            {Tab, Heads, tabChange(Heads), Model},
            {Tab, Pipeline, tabChange(Pipeline), Heads},
            {Tab, Lines, tabChange(Lines), Heads},
            {Ablation, Model, ablation, Model},
        };
        // Each case's own peak (VmHWM set back before it), and the highest of them: the
        // window's over its life.
        double lifePeak = 0.0;
        auto casePeak = [&] {
            const double peak = double(processStatusBytes("VmHWM").value_or(0));
            lifePeak = std::max(lifePeak, peak);
            resetPeakResident();
            return peak;
        };
        auto row = [&](Change change, ShownTab tab, Timing timing, double stall) {
            Measurement m;
            m.suite = name();
            m.parameters = {{"n", n}, {"threads", threads}, {"change", change}, {"tab", tab}};
            m.timing = std::move(timing);
            m.metrics = {{"max_stall_ms", stall}, {"peak_bytes", casePeak()}};
            return m;
        };
        log << name() << " open n=" << n << " threads=" << threads << std::endl;
        const Interaction opened = harness.apply([&] {
            WorkspaceState state = workspace.state();
            state.modelPath = QString::fromStdString(dir);
            state.text = QString::fromStdString(base);
            workspace.setState(state);
        });
        rows.push_back(row(Open, Heads, Timing::fromSamples({opened.latencyMs}), opened.stallMs));
        std::map<Change, int> made;
        for (const WindowCase &c : cases) {
            log << name() << " change=" << c.change << " tab=" << c.tab << std::endl;
            std::vector<double> samples;
            double stall = 0.0;
            for (int i = 0; i < repetitions; ++i) {
                harness.apply([&] { show(c.from); });
                const Interaction done = harness.apply([&] { c.make(made[c.change]++); });
                samples.push_back(done.latencyMs);
                stall = std::max(stall, done.stallMs);
            }
            rows.push_back(row(c.change, c.tab, Timing::fromSamples(samples), stall));
        }
        const auto run = harness.run();
        const int64_t traceBytes = run && run->layerTrace ? run->layerTrace->bytes() : 0;
        const int64_t headsBytes = int64_t(shape.layers) * shape.heads * n * n * 4;
        Measurement memory;
        memory.suite = name() + "_memory";
        memory.parameters = {{"n", n}, {"threads", threads}};
        memory.metrics = {
            {"peak_bytes", lifePeak},
            {"budget_bytes", double(fileBytes + traceBytes + headsBytes + kBudgetSlack)},
            {"file_bytes", double(fileBytes)},
            {"trace_bytes", double(traceBytes)},
            {"heads_bytes", double(headsBytes)}};
        rows.push_back(memory);
    }
    return rows;
}

} // namespace headlens
