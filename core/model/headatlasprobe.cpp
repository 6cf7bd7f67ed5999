// computeHeadAtlas: the probes, the scores of every head on them, and their chance levels.
#include "model/headatlasprobe.h"

#include "stats/offsetscores.h"
#include "train/headscores.h"
#include "train/repeatedtokens.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {
namespace {

/// The special tokens encode() puts before and after a text's own tokens (BOS; [CLS] and
/// [SEP]): encode() of a word around its encodePiece().
struct Wrapping
{
    std::vector<int> before, after;
};

Wrapping wrappingOf(const OpenedModel &model)
{
    const std::string word = "the";
    const std::vector<int> whole = model.encode(word), piece = model.encodePiece(word);
    const auto at = std::search(whole.begin(), whole.end(), piece.begin(), piece.end());
    if (piece.empty() || at == whole.end())
        return {};
    return {{whole.begin(), at}, {at + ptrdiff_t(piece.size()), whole.end()}};
}

/// The three scores of one head on one repeated-token sequence, and of a uniform head.
void addRepeatScores(const Eigen::Ref<const RowMatrix> &weights, const std::vector<int> &ids,
                     RowMatrix &scores, int column)
{
    scores(int(AtlasScore::PreviousToken), column) += float(previousTokenScore(weights));
    scores(int(AtlasScore::DuplicateToken), column) += float(duplicateTokenScore(weights, ids));
    scores(int(AtlasScore::Induction), column) += float(inductionScore(weights, ids));
}

/// The text's scores of one head (its weights and HeadStats); `offset` receives the k of the
/// fixed-offset score.
void setTextScores(const Eigen::Ref<const RowMatrix> &weights, const HeadStats &stats, bool causal,
                   RowMatrix &scores, int column, int *offset)
{
    const OffsetScore strongest = strongestOffset(weights, causal);
    scores(int(AtlasScore::FirstToken), column) = float(stats.firstToken);
    scores(int(AtlasScore::Self), column) = float(stats.diagonal);
    scores(int(AtlasScore::Offset), column) = float(strongest.share);
    scores(int(AtlasScore::Local), column) = float(localShare(weights, causal));
    scores(int(AtlasScore::Cls), column) = float(stats.clsShare);
    scores(int(AtlasScore::Sep), column) = float(stats.sepShare);
    scores(int(AtlasScore::Punctuation), column) = float(stats.punctuationShare);
    if (offset)
        *offset = strongest.offset;
}

} // namespace

HeadAtlas textAtlas(const ModelRun &run)
{
    const auto n = int(run.tokenIds.size());
    if (n < 2)
        throw InputError("The head atlas needs a text of at least 2 tokens: its positional "
                         "scores compare where each token looks. Type a longer text.");
    HeadAtlas atlas;
    atlas.layers = run.layers;
    atlas.heads = run.heads;
    atlas.textTokens = n;
    const int columns = atlas.layers * atlas.heads;
    // The repeated-token scores are not measured on a text.
    atlas.scores = RowMatrix::Constant(kAtlasScores, columns, std::nanf(""));
    atlas.offsets.assign(size_t(columns), 0);
    atlas.meanDistance.assign(size_t(columns), 0.0);
    atlas.chance.assign(size_t(kAtlasScores), std::nan(""));

    // Positional and role scores: the text's run.
    for (int column = 0; column < columns; ++column) {
        const int layer = column / atlas.heads, head = column % atlas.heads;
        const HeadStats &stats = run.stat(layer, head);
        setTextScores(run.probabilities(layer, head), stats, run.causal, atlas.scores, column,
                      &atlas.offsets[size_t(column)]);
        atlas.meanDistance[size_t(column)] = stats.meanDistance;
    }
    // An encoder's first token is its [CLS]: one score of the two, the one that names it.
    const bool firstIsCls = run.roles.has(0, TokenRoles::Cls);
    if (firstIsCls)
        atlas.scores.row(int(AtlasScore::FirstToken)).setConstant(std::nanf(""));
    const RowMatrix uniform = uniformAttention(n, run.causal);
    HeadStats stats = computeHeadStats(uniform, n, n);
    run.roles.addShares(uniform, n, n, stats);
    RowMatrix chance = RowMatrix::Zero(kAtlasScores, 1);
    setTextScores(uniform, stats, run.causal, chance, 0, nullptr);
    for (int k = int(AtlasScore::FirstToken); k < kAtlasScores; ++k)
        atlas.chance[size_t(k)] = double(chance(k, 0));
    if (firstIsCls)
        atlas.chance[size_t(AtlasScore::FirstToken)] = std::nan("");
    return atlas;
}

HeadAtlas computeHeadAtlas(const OpenedModel &model, const ModelRun &run, const AtlasProbe &probe,
                           const std::function<bool(double)> &progress)
{
    // The atlas is of the model as it is, like the probe runs below: a run that changed heads
    // (an ablation) is run again without the changes, in the window and the CLI alike.
    std::shared_ptr<const ModelRun> unchanged;
    if (!run.interventions.empty())
        unchanged = model.run({run.tokenIds, run.segments}, 0, progress);
    HeadAtlas atlas = textAtlas(unchanged ? *unchanged : run);
    const Wrapping wrapping = wrappingOf(model);
    const int specials = int(wrapping.before.size() + wrapping.after.size());
    const OpenedModel::ProbePool pool = model.probePool();
    // Random runs of distinct tokens need as many; a stretch of text one more than its length.
    const int drawable = int(pool.tokens.size()) - (pool.kind == RunKind::TextSegment ? 1 : 0);
    const int length =
        std::min({AtlasProbe::kLength, (model.maxTokens() - specials) / 2, drawable});
    if (length < 2)
        throw InputError("The head atlas needs a model that reads at least " +
                         std::to_string(specials + 4) + " tokens and knows 2 tokens to repeat; " +
                         model.name() + " reads " + std::to_string(model.maxTokens()) + ".");

    atlas.repeatedLength = length;
    atlas.repeatedRuns = probe.runs;
    atlas.seed = probe.seed;
    atlas.textRuns = pool.kind == RunKind::TextSegment;
    const int columns = atlas.layers * atlas.heads;

    // Content scores: repeated random tokens, averaged over the runs.
    const ToyBatch runs =
        repeatedTokens(pool.tokens, 2 * length, probe.runs, probe.seed, pool.kind);
    RowMatrix repeated = RowMatrix::Zero(kAtlasScores, columns);
    RowMatrix chance = RowMatrix::Zero(kAtlasScores, 1);
    for (int r = 0; r < runs.count; ++r) {
        std::vector<int> ids = wrapping.before;
        ids.insert(ids.end(), runs.tokens.begin() + ptrdiff_t(r) * runs.length,
                   runs.tokens.begin() + ptrdiff_t(r + 1) * runs.length);
        ids.insert(ids.end(), wrapping.after.begin(), wrapping.after.end());
        const auto part = [&](double f) {
            return !progress || progress((double(r) + f) / double(runs.count));
        };
        const std::shared_ptr<ModelRun> run = model.run(ModelInput(ids), 0, part);
        for (int column = 0; column < columns; ++column)
            addRepeatScores(run->probabilities(column / atlas.heads, column % atlas.heads), ids,
                            repeated, column);
        addRepeatScores(uniformAttention(int(ids.size()), run->causal), ids, chance, 0);
    }
    for (AtlasScore kind :
         {AtlasScore::PreviousToken, AtlasScore::DuplicateToken, AtlasScore::Induction}) {
        const int k = int(kind);
        atlas.scores.row(k) = repeated.row(k) / float(runs.count);
        atlas.chance[size_t(k)] = double(chance(k, 0)) / runs.count;
    }
    atlas.classify();
    return atlas;
}

} // namespace headlens
