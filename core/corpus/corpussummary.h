// CorpusSummary: what a corpus run found about every head of a model.
#pragma once

#include "stats/headstats.h"
#include "tensor/tensor.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// The heads of one model over one corpus. Heads are numbered layer * heads + head.
struct CorpusSummary
{
    std::string corpus;   ///< the file's path
    std::string model;    ///< OpenedModel::name()
    int layers = 0;       ///< L
    int heads = 0;        ///< h per layer
    int64_t texts = 0;    ///< lines run through the model
    int64_t tokens = 0;   ///< their tokens (every one a query)
    int64_t cutTexts = 0; ///< lines longer than the token limit, cut to it
    int tokenLimit = 0;   ///< the longest text run, in tokens
    /// Per head: HeadStats averaged over every query token of the corpus (each text's mean
    /// weighted by its length); maxWeight is the largest over the corpus. A [CLS]/[SEP]/
    /// punctuation share averages the texts that have such tokens and is NaN when none has.
    std::vector<HeadStats> stats;
    /// Per head: the induction score (Olsson et al. 2022) on `inductionTokens`: the mean
    /// weight from each token of the second copy onto the token after its first occurrence
    /// (inductionScore). NaN when the corpus has fewer than 2 distinct tokens or the model reads
    /// fewer than 4.
    std::vector<double> induction;
    /// T distinct random tokens of the corpus, then the same T again (empty when no score).
    std::vector<int> inductionTokens;
    /// (L*h, L*h) mean Jensen-Shannon distance between two heads' distributions for the same
    /// query token (HeadDivergences::meanDistance).
    Eigen::MatrixXd distances;
    /// (L*h, 2) the heads placed in the plane by classical scaling of `distances` (Clark et
    /// al. 2019, Figure 6).
    Eigen::MatrixX2d map;
    /// (L, h, d_v) each head's output z_h (before W_O) averaged over every token of the
    /// corpus: a mean ablation's replacement (HeadInterventions::meanSource).
    Tensor headOutputMeans;

    int index(int layer, int head) const { return layer * heads + head; }
    int inductionLength() const { return int(inductionTokens.size() / 2); }
};

} // namespace headlens
