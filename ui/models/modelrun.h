// ModelRun: one text through a whole model, as the Model tab shows it (every layer and head).
#pragma once

#include "model/gpt2run.h"
#include "models/modelsource.h"
#include "stats/headstats.h"
#include "tensor/tensor.h"

#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// Made in the runner's thread next to the viewed layer's trace; immutable afterwards.
/// L = layers, h = heads, n = tokens.
struct ModelRun
{
    ModelSource source;                   ///< resolved: the model pointer is set
    std::string name;                     ///< "GPT-2 tiny" or "toy model (induction)"
    int layers = 0;                       ///< L
    int heads = 0;                        ///< h
    std::vector<std::string> tokens;      ///< (n) labels the model saw (BPE pieces or toy labels)
    std::vector<RowMatrix> attention;     ///< L * h weights (n, n), index layer * h + head
    std::vector<HeadStats> stats;         ///< L * h, index layer * h + head
    std::vector<TokenPrediction> topNext; ///< next token after the last position, best first
    std::shared_ptr<const Gpt2Run> gpt2;  ///< the whole GPT-2 pass (null for a toy model)
    /// The typed text was mapped onto the toy vocabulary one character at a time.
    bool mappedOntoToyVocabulary = false;
    std::string settingsSummary; ///< "d_model 16 · 2 heads · d_k 8 · causal · 2 layers · ..."

    const RowMatrix &weights(int layer, int head) const
    {
        return attention.at(size_t(layer * heads + head));
    }
    const HeadStats &stat(int layer, int head) const
    {
        return stats.at(size_t(layer * heads + head));
    }
};

} // namespace headlens
