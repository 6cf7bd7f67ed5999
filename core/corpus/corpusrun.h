// runCorpus: every text of a corpus file through a model, then the heads' summary.
#pragma once

#include "corpus/corpussummary.h"
#include "model/openedmodel.h"

#include <cstdint>
#include <functional>
#include <string>

namespace headlens {

struct CorpusOptions
{
    /// Texts longer than this many tokens (or than the model reads) are cut to it: the pairs of
    /// heads cost (L*h)^2 / 2 * n^2 per text.
    int tokenLimit = 128;
    /// Distinct random tokens repeated once for the induction score (fewer when the corpus or
    /// the model's context is smaller).
    int inductionLength = 32;
    /// Which random tokens: the same seed gives the same tokens on every machine.
    uint64_t seed = 0;
};

/// Runs each text of the file `path` (one per line, CorpusFile) through `model` one at a time
/// and sums its heads' statistics (CorpusStatistics), then measures each head's induction score
/// on random tokens drawn from the corpus's own (special tokens left out: encodePiece). Memory:
/// one run at a time. `progress` gets the fraction done and may return false to stop; then
/// Cancelled is thrown. Throws InputError for a file CorpusFile refuses or a text the model
/// cannot read, naming the line.
CorpusSummary runCorpus(const OpenedModel &model, const std::string &path,
                        const CorpusOptions &options, const std::function<bool(double)> &progress);

} // namespace headlens
