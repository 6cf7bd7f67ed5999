// runCorpus: a streaming loop over the file, then one run on repeated random tokens.
#include "corpus/corpusrun.h"

#include "attention/attentionforward.h"
#include "corpus/corpusfile.h"
#include "corpus/corpusstatistics.h"
#include "train/headscores.h"
#include "util/counterrandom.h"
#include "util/inputerror.h"

#include <algorithm>
#include <limits>
#include <set>
#include <vector>

namespace headlens {
namespace {

/// `length` distinct tokens of `pool` in a random order (a partial Fisher-Yates shuffle),
/// twice. Precondition: 0 < length <= pool.size().
std::vector<int> repeatedRandomTokens(const std::set<int> &pool, int length, uint64_t seed)
{
    std::vector<int> tokens(pool.begin(), pool.end());
    const CounterRandom random(seed, CounterRandom::hash("corpus induction tokens"));
    for (size_t i = 0; i < size_t(length); ++i) {
        const size_t j = i + size_t(random.bits(i) % uint64_t(tokens.size() - i));
        std::swap(tokens[i], tokens[j]);
    }
    tokens.resize(size_t(length));
    std::vector<int> repeated = tokens;
    repeated.insert(repeated.end(), tokens.begin(), tokens.end());
    return repeated;
}

/// Each head's induction score on the repeated tokens; NaN for every head without them.
std::vector<double> inductionScores(const OpenedModel &model, const std::vector<int> &tokens,
                                    int heads, const std::function<bool(double)> &progress)
{
    const size_t count = size_t(model.layers() * heads);
    if (tokens.empty())
        return std::vector<double>(count, std::numeric_limits<double>::quiet_NaN());
    const auto run = model.run(ModelInput(tokens), 0, progress);
    std::vector<double> scores;
    for (int layer = 0; layer < run->layers; ++layer)
        for (int head = 0; head < run->heads; ++head)
            scores.push_back(inductionScore(run->probabilities(layer, head), tokens));
    return scores;
}

} // namespace

CorpusSummary runCorpus(const OpenedModel &model, const std::string &path,
                        const CorpusOptions &options, const std::function<bool(double)> &progress)
{
    CorpusFile file(path);
    const int tokenLimit = std::max(1, std::min(options.tokenLimit, model.maxTokens()));
    // The last step, the induction run, counts as one more text.
    const double steps = double(file.texts() + 1);
    std::optional<CorpusStatistics> statistics;
    std::set<int> pool;
    int64_t cut = 0;
    int64_t done = 0;
    while (const auto line = file.next()) {
        auto textProgress = [&](double fraction) {
            return !progress || progress((double(done) + fraction) / steps);
        };
        if (!textProgress(0.0))
            throw Cancelled();
        std::vector<int> ids;
        try {
            ids = model.encode(line->text);
            for (int id : model.encodePiece(line->text))
                pool.insert(id);
        } catch (const InputError &error) {
            throw InputError("Line " + std::to_string(line->number) + " of " + path + ": " +
                             error.what());
        }
        if (ids.empty())
            continue;
        if (int64_t(ids.size()) > tokenLimit) {
            ids.resize(size_t(tokenLimit));
            ++cut;
        }
        const auto run = model.run(ModelInput(ids), 0, textProgress);
        if (!statistics)
            statistics.emplace(run->layers, run->heads);
        statistics->add(*run);
        ++done;
    }
    if (!statistics)
        throw InputError("No line of " + path + " gives " + model.name() +
                         " a token to read. Write one text per line.");

    const int inductionLength =
        std::min({options.inductionLength, int(std::min<size_t>(pool.size(), INT32_MAX)),
                  model.maxTokens() / 2});
    std::vector<int> repeated;
    if (inductionLength >= 2)
        repeated = repeatedRandomTokens(pool, inductionLength, options.seed);
    auto lastProgress = [&](double fraction) {
        return !progress || progress((double(done) + fraction) / steps);
    };
    std::vector<double> induction =
        inductionScores(model, repeated, statistics->heads(), lastProgress);
    CorpusSummary summary = statistics->summary(std::move(induction), std::move(repeated));
    summary.corpus = path;
    summary.model = model.name();
    summary.cutTexts = cut;
    summary.tokenLimit = tokenLimit;
    return summary;
}

} // namespace headlens
