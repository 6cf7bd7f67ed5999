// BenchOptions: the command-line parser of headlens-bench.
#include "benchoptions.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <algorithm>
#include <sstream>

namespace headlens {

namespace {

/// "1,2,4" -> {1, 2, 4}; every item a positive whole number.
std::vector<int> parseList(const std::string &option, const std::string &text)
{
    std::vector<int> values;
    std::istringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        size_t used = 0;
        int value = 0;
        try {
            value = std::stoi(item, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != item.size() || item.empty() || value <= 0)
            throw InputError(option + " expects positive whole numbers separated by commas, got '" +
                             text + "'");
        values.push_back(value);
    }
    if (values.empty())
        throw InputError(option + " expects at least one number");
    return values;
}

/// "0", "2": a whole number of at least 0.
int parseCount(const std::string &option, const std::string &text)
{
    size_t used = 0;
    int value = -1;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (text.empty() || used != text.size() || value < 0)
        throw InputError(option + " expects a whole number, 0 or more, got '" + quotedText(text) +
                         "'");
    return value;
}

SingleCase parseSingleCase(const std::string &text)
{
    const std::vector<int> v = parseList("--single-case", text);
    if (v.size() != 4)
        throw InputError("--single-case expects N,D_MODEL,H,THREADS, got '" + quotedText(text) +
                         "'");
    return {{v[0], v[1], v[2]}, v[3]};
}

} // namespace

RepetitionPolicy BenchOptions::repetitionPolicy() const
{
    RepetitionPolicy policy;
    if (quick) {
        policy.targetSeconds = 0.1;
        policy.minRepetitions = 3;
    }
    return policy;
}

bool BenchOptions::wantsSuite(const std::string &name) const
{
    return suites.empty() || std::find(suites.begin(), suites.end(), name) != suites.end();
}

BenchOptions BenchOptions::parse(const std::vector<std::string> &arguments)
{
    BenchOptions options;
    for (size_t i = 0; i < arguments.size(); ++i) {
        const std::string &arg = arguments[i];
        auto value = [&]() -> const std::string & {
            if (i + 1 >= arguments.size())
                throw InputError(arg + " expects a value; see --help");
            return arguments[++i];
        };
        if (arg == "--help" || arg == "-h")
            options.help = true;
        else if (arg == "--quick")
            options.quick = true;
        else if (arg == "--json")
            options.jsonPath = value();
        else if (arg == "--suite")
            options.suites.push_back(value());
        else if (arg == "--threads")
            options.threads = parseList(arg, value());
        else if (arg == "--busy")
            options.busyPrograms = parseCount(arg, value());
        else if (arg == "--single-case")
            options.single = parseSingleCase(value());
        else if (arg == "--compare") {
            if (i + 2 >= arguments.size())
                throw InputError("--compare expects two reports, OLD.json NEW.json; see --help");
            options.compare = {arguments[i + 1], arguments[i + 2]};
            i += 2;
        } else
            throw InputError("unknown option '" + quotedText(arg) + "'; see --help");
    }
    return options;
}

std::string BenchOptions::helpText()
{
    return R"(Usage: headlens-bench [options]
       headlens-bench --compare OLD.json NEW.json

Benchmarks the attention core and the window, prints a table; times are the median (mean, 90th
percentile, min, max, interquartile range) over repeated runs, repeated until ~0.75 s and at
least 5 runs per case.

Suites:
  gemm           float products on Eigen, OpenBLAS and BLIS (those installed): 2048^3, the
                 attention projections (n x 768 by 768 x 2304, n = 64..1024), Qwen2.5-0.5B's
                 MLP (896 <-> 4864); with each library's own threads and split by columns
                 over the core's threads; HEADLENS_GEMM=eigen|openblas|blis forces the core's
  core_forward   computeTrace with every intermediate kept, n x d_model x h from 16x512x8 to
                 2048x1024x16, per thread count; GFLOP/s from Trace::totalFlops() and the
                 fraction of a 2048^3 float GEMM's GFLOP/s (the core's product backend, same
                 threads, same run), which is also reported as gemm_reference
  core_memory    peak resident memory (VmHWM) of one forward pass at n=2048, d_model=1024,
                 h=16, each in a fresh process, against Trace::bytes()
  model_forward  a random GPT-2 small checkpoint (written to a temporary folder, F32 and
                 BF16): opening it, a pass over 64 and 1024 tokens with every head recorded,
                 and showing another layer of the same text (rows model_forward_open, _run,
                 _layer)
  head_importance
                 each of a random GPT-2 small checkpoint's 144 heads zero-ablated in turn on a
                 64-token text (one pass from the head's layer on, a layer's heads batched)
  dataset_importance
                 the same over 100 prompts of 32 tokens (runDatasetExperiment), timed once;
                 only when asked with --suite (14 minutes on a 2-core machine)
  logit_lens     the logit lens of 128 tokens (13 stages through the 50,257-token head), the
                 direct logit attribution of the last token, and the head atlas (rows
                 logit_lens, logit_attribution, head_atlas)
  typing_latency a character typed at the end of a 1000-token text in a random GPT-2 small
                 checkpoint (the run starts from the previous one's keys and values) against
                 a full recompute (the first character changed), through the Session the
                 window's runner uses and (with the GUI) through the whole window to the heads
                 grid repainted; ratio = keystroke median / full recompute median
  train_step     one AdamW step of a language model (Trainer::step: batch, forward,
                 cross-entropy, backward, clipping, update), presets tiny (2 layers, d_model
                 128, context 64) and small (4 layers, d_model 192, context 128), batch 16,
                 on a random 200 kB text; tokens_per_s = batch x context / median step
  long_context   one causal head of d_k 64 at n = 4096, 16384, 32768 tokens, from its queries
                 and keys without the (n, n) matrix (HeadTiles): the rows' log-sum-exps, a
                 256 x 256 region, the whole max-pooled to 512 x 512, every row's sink, far
                 and distance profile; then a random checkpoint in Qwen2.5-0.5B's shapes
                 (BF16) run whole over 4096, 8192 and 32768 tokens, kept as tiles, timed
                 once with the peak memory it adds (long_context_model); only when asked with
                 --suite (about 25 minutes on a 2-core machine)
  grid_latency   (with the GUI) a seed change to the heads grid repainted, offscreen, at
                 n=32/h=8, 512/12, 2048/16, and 2048/16 with head 1 pinned beside the grid;
                 max_stall_ms = longest gap of a 5 ms UI timer
  window_latency (with the GUI) the same change in the whole window on its Heads tab, where
                 every view a new trace reaches does its work, at n=32, 512, 2048
  model_window   (with the GUI) a random GPT-2 small checkpoint and a 1024-token text in the
                 whole window: a new text (on the Heads, Model, Pipeline, Lines tabs), another
                 traced layer, one head ablated, each tab switched to; timed to the tab shown
                 settled and repainted, with max_stall_ms; model_window_memory: peak resident
                 memory against the budget of issue 16 (weights' file + trace + every head's
                 weights + 300 MB)
  long_context_window
                 (with the GUI) Qwen2.5-0.5B's first layer over 32,768 tokens, kept as
                 tiles, in the Long text tab: the first picture, the pinned head zoomed from
                 the whole text to 16 tokens, panned, another head pinned, drawn as a band
                 (case 5), each until settled, with first_paint_ms and max_stall_ms; and
                 hover's exact weight (case 4); only when asked
  startup        (with the GUI) start of `headlens --startup-probe` to its first paint
  export         (with the GUI) the heads grid at n=512, h=12 written as PNG and as PDF

Options:
  --quick                 fewer shapes, ~0.1 s and at least 3 runs per case (smoke test)
  --json PATH             also write the results as JSON (format_version 4, see benchreport.h)
  --suite NAME            run only this suite (repeatable)
  --threads LIST          thread counts, default 1,2
  --busy N                N other programs spin on the cores while the suites run (a busy
                          machine; compare mean and p90 with a run without)
  --compare OLD NEW       runs nothing: prints every case timed in both JSON reports, old
                          and new median and their ratio (faster/slower past 10%), the
                          longest stalls, and the cases only one report has
  --single-case N,D,H,T   internal: one forward pass, print its memory as JSON and exit
  --help                  this text
)";
}

} // namespace headlens
