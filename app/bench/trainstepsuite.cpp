// TrainStepSuite: a Trainer per preset and thread count, timed one step at a time.
#include "trainstepsuite.h"

#include "benchclock.h"
#include "threadscope.h"

#include "train/languagemodelpreset.h"
#include "train/trainer.h"

#include <random>

namespace headlens {

namespace {

/// 200 kB of printable ASCII bytes from a fixed seed: a step's cost does not depend on the
/// text, only on the sizes, and a file would tie the bench to one on disk.
std::vector<int> syntheticText()
{
    std::mt19937 generator(35);
    std::uniform_int_distribution<int> byte(0x20, 0x7e);
    std::vector<int> tokens(200 * 1000);
    for (int &token : tokens)
        token = byte(generator);
    return tokens;
}

int64_t parameterCount(const ToyParameters &parameters)
{
    int64_t count = 0;
    for (const ParameterViewT<const float> &view : parameters.views(true))
        count += view.size();
    return count;
}

} // namespace

std::vector<Measurement> TrainStepSuite::run(const BenchOptions &options, std::ostream &log)
{
    // The run's length only shapes the learning-rate schedule, which does not change a step's
    // cost; long enough that no timed step reaches its end.
    constexpr int kScheduledSteps = 100000;
    const std::vector<int> tokens = syntheticText();
    const BenchClock clock(options.repetitionPolicy());
    std::vector<Measurement> rows;
    for (const LanguageModelPreset &preset : LanguageModelPreset::all()) {
        const TrainingSettings settings = preset.settings(256, kScheduledSteps, 0);
        const int n = settings.model.maxLength;
        const auto text = std::make_shared<const TextBatches>(tokens, n);
        for (int threads : options.threads) {
            const ThreadScope scope(threads);
            log << "train_step " << preset.name << " threads=" << threads << std::endl;
            // A fresh trainer per case, so that each starts from the same weights and step.
            Trainer trainer(settings, text);
            Measurement m;
            m.suite = name();
            m.parameters = {{"layers", settings.model.layers}, {"d_model", settings.model.dModel},
                            {"h", settings.model.heads},       {"n", n},
                            {"batch", settings.batchSize},     {"threads", threads}};
            // BenchClock's untimed first run is the warm-up step (first-touch of the
            // activations, Adam's moments, the helper threads woken).
            m.timing = clock.measure([&] { trainer.step(1); });
            const double tokensPerStep = double(settings.batchSize) * n;
            m.metrics = {{"tokens_per_s", tokensPerStep / (m.timing->medianMs * 1e-3)},
                         {"parameter_count", double(parameterCount(trainer.model().parameters()))}};
            rows.push_back(std::move(m));
        }
    }
    return rows;
}

} // namespace headlens
