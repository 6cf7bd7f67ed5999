// HeadAtlas: every head of a model classified by what it attends to on standard probes.
#pragma once

#include "tensor/tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// The scores of the atlas, each a share of a head's attention in [0, 1]. The first three are
/// measured on repeated random tokens r r (TransformerLens's head detector); the others on the
/// text the atlas was asked for.
enum class AtlasScore
{
    PreviousToken,  ///< w[i, i-1] (repeated tokens)
    DuplicateToken, ///< onto the earlier copy of the query's token (repeated tokens)
    Induction,      ///< onto the token after that copy (repeated tokens; Olsson et al. 2022)
    FirstToken,     ///< w[i, 0]: the attention sink (BOS, or the first word; NaN when [CLS])
    Self,           ///< w[i, i]
    Offset,         ///< w[i, i-k] for the head's strongest fixed k (2..8 back, or ahead)
    Local,          ///< the keys 2..4 tokens away beyond the largest one (localShare)
    Cls,            ///< [CLS] / <s> (encoders; Clark et al. 2019)
    Sep,            ///< [SEP] / </s> (encoders)
    Punctuation,    ///< tokens that are only punctuation
};
constexpr int kAtlasScores = 10;

/// "previous token", "duplicate token", "induction", "first token", "self", "fixed offset",
/// "local", "[CLS]", "[SEP]", "punctuation".
const char *toString(AtlasScore score);
/// The column names of the CLI's exports: "previous_token", ... "punctuation".
const char *columnName(AtlasScore score);

/// L = layers, h = heads, K = kAtlasScores. Made in a worker thread (computeHeadAtlas),
/// immutable afterwards.
struct HeadAtlas
{
    int layers = 0;
    int heads = 0;
    /// (K, L * h), column layer * h + head; NaN for a score the model's probes cannot measure
    /// ([CLS] and [SEP] of a decoder, punctuation in a text without any).
    RowMatrix scores;
    /// (K) each score of a head that spreads its attention evenly over what it sees, on the
    /// same probe: what a score must be well above to mean anything.
    std::vector<double> chance;
    /// (L * h) the k of the Offset score: tokens back, negative ahead.
    std::vector<int> offsets;
    /// (L * h) the mean attention distance on the text, in tokens (HeadStats::meanDistance).
    std::vector<double> meanDistance;
    /// (L * h) the score that names the head (classify()), or nothing: no score dominates.
    std::vector<std::optional<AtlasScore>> types;
    int textTokens = 0;     ///< tokens of the text probe
    int repeatedLength = 0; ///< tokens in each run r of the repeated-token probe
    int repeatedRuns = 0;   ///< how many r r sequences were averaged
    unsigned long seed = 0; ///< the repeated runs' seed
    /// The runs are stretches of the default stories, not random tokens (OpenedModel::ProbePool:
    /// a model that reads bytes).
    bool textRuns = false;

    double score(AtlasScore kind, int layer, int head) const
    {
        return double(scores(int(kind), layer * heads + head));
    }
    std::optional<AtlasScore> type(int layer, int head) const
    {
        return types.at(size_t(layer * heads + head));
    }
    /// A head's type in a word or two for a table or a cell: "prev", "dup", "ind", "first",
    /// "self", "off+3" (the offset's k), "local", "cls", "sep", "punct"; "-" for none.
    std::string typeLabel(int layer, int head) const;
    /// How clearly head (layer, head)'s type stands out: aboveChance of its type's score; 0
    /// for a head with no type.
    double typeStrength(int layer, int head) const;
    /// How many heads of each type, in the scores' order: "12 heads: 3 previous token,
    /// 1 induction, 8 with no type that stands out."
    std::string typeSummary() const;
    /// How far `share`, a score of kind `kind`, is from chance towards 1: (share - chance) /
    /// (1 - chance), so that scores of different chances compare (a short causal text gives
    /// the first token a large share by chance alone). NaN for an unmeasured score.
    double aboveChance(int kind, double share) const;
    /// Every head's type from its scores above chance: the largest when it is at least
    /// kTypeShare and at least kTypeMargin times the next largest; nothing otherwise ("mixed").
    /// Precondition: scores and chance are filled in.
    void classify();

    static constexpr double kTypeShare = 0.4;
    static constexpr double kTypeMargin = 1.5;
};

} // namespace headlens
