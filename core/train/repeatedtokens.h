// RepeatedTokens: sequences that are a random run of tokens twice, the probe of induction heads.
#pragma once

#include "train/toybatch.h"

#include <cstdint>
#include <vector>

namespace headlens {

/// How the run r of repeatedTokens is drawn from its pool.
enum class RunKind
{
    /// Each token from a seeded random position: random tokens, as Olsson et al. and
    /// TransformerLens's detect_head "induction" use them for a model of many tokens.
    RandomTokens,
    /// One contiguous segment from a seeded random start: a stretch of real text. A byte-level
    /// model has no sense of random bytes (its loss there exceeds a uniform guess), but copying
    /// a stretch of text it has read is what its induction heads do: names and words it could
    /// not have guessed are predictable the second time.
    TextSegment,
};

/// `count` sequences r r of 2 * (length / 2) tokens, r drawn from `pool` as `kind` says, every
/// position's next token as its target. What the model cannot guess in the first copy it can
/// predict in the second only by finding the earlier occurrence of the current token and
/// copying what came after it: the test of induction heads (Olsson et al. 2022).
/// Precondition: pool is not empty (a text segment: holds more than length / 2 tokens),
/// length >= 4.
ToyBatch repeatedTokens(const std::vector<int> &pool, int length, int count, uint64_t seed,
                        RunKind kind = RunKind::RandomTokens);

/// `batch` with each sequence's first half replaced by the next sequence's (the last takes the
/// first's): the same second halves after a run they do not repeat. The control of the
/// copying test: whatever makes a second half hard to predict there (a splice in the middle
/// of a sentence) is the same, only the earlier copy is missing. Precondition: batch.count >= 2.
ToyBatch unrepeated(const ToyBatch &batch);

/// How a model does on the second half of repeated runs r r, against the same halves after
/// another run (unrepeated()): a model that copies in context (induction heads) predicts the
/// repeated halves far better; one that does not predicts both alike. Also each head's
/// previous-token and induction score on the repeated runs.
struct InContextScores
{
    double unrepeatedLoss = 0.0; ///< mean cross-entropy of the second halves after another run
    double repeatedLoss = 0.0;   ///< the same halves after their own first copy
    std::vector<double> previousToken; ///< per head, index layer * heads + head
    std::vector<double> induction;     ///< per head

    /// What seeing the run before saves, in nats per token (Olsson et al.'s in-context
    /// learning score compares losses the same way); about 0 without copying.
    double copyingGain() const { return unrepeatedLoss - repeatedLoss; }
};

} // namespace headlens
