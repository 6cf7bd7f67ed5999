// HeadCircuits: one head's QK and OV circuits of a checkpoint, read on a set of tokens.
#pragma once

#include "attention/headcircuit.h"

#include <string>
#include <vector>

namespace headlens {

/// OpenedModel::circuits: the circuits (HeadCircuit) of head `head` of layer `layer`, through
/// the model's token embeddings and output head on T tokens (a large vocabulary's V x V would
/// not fit; the text's tokens and the stories' are what a person asks about).
struct HeadCircuits
{
    int layer = 0;
    int head = 0;
    int keyValueHead = 0; ///< the key/value head it reads (grouped-query attention)
    int sharedBy = 1;     ///< the query heads that read the same keys and values
    /// RoPE rotates q and k by their positions: the QK circuit here is its content part only.
    bool rotary = false;
    std::vector<int> tokens;         ///< (T) the ids read
    std::vector<std::string> labels; ///< (T) their labels
    HeadCircuit circuit;

    /// The text's tokens a map shows at most (the Circuits tab, --figure circuits).
    static constexpr int kMapTokens = 40;

    /// How many of `tokens`, from the first, are tokens of `text` (the ids of a run): the maps'
    /// rows and columns that read the text itself, at most `most`.
    int textTokenCount(const std::vector<int> &text, int most) const;
};

} // namespace headlens
