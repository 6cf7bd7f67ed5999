// HeadPatternScores: every head of a run scored against one pattern: previous token, induction,
// or a kind of the story generator's relations.
#pragma once

#include "stories/storytext.h"
#include "tensor/tensor.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// What a head is scored against (TransformerLens head_detector's names for the first two).
enum class HeadPattern
{
    PreviousToken, ///< the token right before the query
    Induction,     ///< the token after an earlier occurrence of the query's token
    Antecedent,    ///< a pronoun's antecedent (RelationKind::Antecedent)
    Subject,       ///< a verb's subject across a relative clause (RelationKind::Subject)
    Bracket,       ///< a closing quote or bracket's opener (RelationKind::Bracket)
};

/// "previous token", "induction", "antecedent", "subject", "bracket".
const char *toString(HeadPattern pattern);
/// The pattern named "previous-token", "induction", "antecedent", "subject" or "bracket" (as
/// command lines spell them), or nothing.
std::optional<HeadPattern> headPatternFromString(const std::string &name);
/// The relation kind a pattern scores, or nothing for previous token and induction.
std::optional<RelationKind> relationKindOf(HeadPattern pattern);

/// L = layers, h = heads. Every score is a share of attention in [0, 1].
struct HeadPatternScores
{
    HeadPattern pattern = HeadPattern::PreviousToken;
    int layers = 0;
    int heads = 0;
    std::vector<double> scores; ///< (L * h), index layer * h + head; empty when count is 0
    /// The score of a head that spreads its attention evenly over the keys it sees: what a
    /// score must be far above to mean anything.
    double chance = 0.0;
    /// What was scored: the queries after the first (previous token), the queries whose token
    /// appeared before (induction), the relations of the kind in the text (relations).
    int count = 0;

    double score(int layer, int head) const { return scores.at(size_t(layer * heads + head)); }
    /// The highest score of layer `layer` (of every layer when -1).
    double best(int layer = -1) const;
};

/// Every head's score of `pattern` on one text: `weightsOf(layer, head)` gives the head's (n, n)
/// attention (row = query), `tokens` the n token ids (induction compares them), `spans` the
/// bytes each token covers and `relations` the text's (both only for the relation patterns;
/// tokenSpans). Scores: previousTokenScore, inductionScore, relationScores (headscores.h,
/// relationscores.h). `causal`: chance counts only the keys up to the query.
HeadPatternScores
scoreHeads(HeadPattern pattern, int layers, int heads,
           const std::function<Eigen::Ref<const RowMatrix>(int layer, int head)> &weightsOf,
           const std::vector<int> &tokens, const std::vector<std::pair<size_t, size_t>> &spans,
           const std::vector<StoryRelation> &relations, bool causal);

/// How many relations of `kind` `relations` holds.
int relationCount(const std::vector<StoryRelation> &relations, RelationKind kind);

} // namespace headlens
