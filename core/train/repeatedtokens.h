// RepeatedTokens: sequences that are a random run of tokens twice, the probe of induction heads.
#pragma once

#include "train/toybatch.h"

#include <cstdint>
#include <vector>

namespace headlens {

/// `count` sequences r r of 2 * (length / 2) tokens, r drawn from `pool` at seeded random
/// positions (the text's own tokens, so the model has seen each of them), every position's
/// next token as its target. A model can predict the second copy only by finding the earlier
/// occurrence of the current token and copying what came after it: the test of induction heads
/// (Olsson et al. 2022, and TransformerLens's detect_head "induction" on repeated random
/// tokens). Precondition: pool is not empty, length >= 4.
ToyBatch repeatedTokens(const std::vector<int> &pool, int length, int count, uint64_t seed);

/// How a model does on repeated tokens: the loss on the first copy (nothing to copy from) and
/// on the second, and each head's previous-token and induction score there. A model that has
/// learnt in-context copying has a second-copy loss far below the first (Olsson et al.'s
/// in-context learning score is the difference).
struct InContextScores
{
    double firstCopyLoss = 0.0;  ///< mean cross-entropy predicting tokens 2..L of the first copy
    double secondCopyLoss = 0.0; ///< the same for the tokens of the second copy after its first
    std::vector<double> previousToken; ///< per head, index layer * heads + head
    std::vector<double> induction;     ///< per head

    double inContextScore() const { return secondCopyLoss - firstCopyLoss; }
};

} // namespace headlens
