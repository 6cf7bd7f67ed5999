// HeadInterventions: the changes a forward pass makes to heads' outputs, and where they act.
#pragma once

#include "attention/headintervention.h"
#include "tensor/tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// A plain value a job carries (TraceJob, TransformerRunOptions, TraceOptions): what to do to
/// which heads, applied to z_h in the one attention path (attendAllHeads, before
/// projectHeadOutput) and in the toy model's forward, so every family and the built-in layer
/// intervene the same way. Empty = the ordinary pass, which then costs one pointer test.
struct HeadInterventions
{
    std::vector<HeadIntervention> items;
    /// For Patch: z of the run patched from, (L, b_src, h, n, d_v) (a model run's headOutputs
    /// as (L, 1, h, n, d_v), a trace's context as (1, b, h, n, d_v)). Sequence b of the pass
    /// reads source sequence b, or sequence 0 when the source holds one. A handle: no copy.
    Tensor patchSource;
    /// For Mean: (L, h, d_v) each head's mean z over a corpus (CorpusSummary::headOutputMeans),
    /// written into the rows instead of the mean over this text's positions; empty = the text's.
    Tensor meanSource;

    bool empty() const { return items.empty(); }
    /// Whether any item acts on layer `layer` (so the pass may skip the rest).
    bool touches(int layer) const;
    /// Whether head `head` of `layer` is changed for sequence `b` (the window dims it).
    bool changes(int layer, int head, int64_t b = 0) const
    {
        return bool(changeOf(layer, head, b));
    }
    /// How head `head` of `layer` is changed for sequence `b`: the first item naming it, or
    /// KeepOnly when another head of the layer is kept alone; nothing when it is untouched.
    std::optional<InterventionKind> changeOf(int layer, int head, int64_t b = 0) const;

    /// z (rows, d_v) of head `head` of sequence `b` in `layer`, changed as the items say, in
    /// their order (KeepOnly first: it zeroes the heads no KeepOnly item of the layer names).
    /// Only the first `length` rows are the text (the rest is padding, left as it is).
    /// Precondition: check() passed for this layer's sizes.
    template <typename S>
    void apply(int layer, int64_t b, int head,
               Eigen::Ref<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> z,
               int64_t length) const;

    /// A message a person can act on when an item names a layer or head the model lacks, a
    /// position past the text, or a Patch has no source of the right shape (the lengths differ:
    /// "the patch source has 7 tokens, this text 9"); nothing when the pass can run.
    std::optional<std::string> problem(int layers, int heads, int64_t n, int64_t dV) const;
    /// problem() as an InputError.
    void check(int layers, int heads, int64_t n, int64_t dV) const;

    /// One head zero- (or mean-) ablated.
    static HeadInterventions ablating(int layer, int head,
                                      InterventionKind kind = InterventionKind::Zero);
};

} // namespace headlens
