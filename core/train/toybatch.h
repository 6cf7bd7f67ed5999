// ToyBatch: token sequences of one length with the next-token targets a task scores.
#pragma once

#include <vector>

namespace headlens {

/// `count` sequences of `length` tokens stacked: entry s*length + i is token i of sequence s.
/// targets[s*length + i] is what the model should output at that position, or -1 where the
/// task does not score it.
struct ToyBatch
{
    int count = 0;
    int length = 0;
    std::vector<int> tokens;  ///< (count*length) token ids
    std::vector<int> targets; ///< (count*length) token ids, -1 = not scored
};

} // namespace headlens
