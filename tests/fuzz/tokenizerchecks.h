// tokenizerchecks.h: what every fuzz target that builds a tokenizer asks of it.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"

#include <string>
#include <vector>

namespace headlens::fuzz {

/// For each sample: every id the tokenizer gives names a token, its labels and the decoding do
/// not crash, and a pair keeps one type id per token. Traps otherwise.
inline void exerciseTokenizer(const TokenizerPipeline &tokenizer,
                              const std::vector<std::string> &samples, const std::string &pair)
{
    for (const std::string &sample : samples) {
        const std::vector<int> ids = tokenizer.encode(sample);
        for (int id : ids) {
            if (!tokenizer.contains(id))
                __builtin_trap();
            (void)tokenizer.displayLabel(id);
        }
        (void)tokenizer.decode(ids);
        const TokenEncoding encoded = tokenizer.encodePair(sample, pair);
        if (encoded.ids.size() != encoded.typeIds.size())
            __builtin_trap();
    }
}

} // namespace headlens::fuzz
