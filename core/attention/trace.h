// Trace: every step and intermediate tensor of one forward pass; the single source of truth.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/headinterventions.h"
#include "attention/tracekey.h"
#include "attention/tracestep.h"
#include "stats/headstats.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// A tensor recorded in the trace, with a sentence saying what it holds.
struct TraceTensor
{
    TraceKey key; ///< keys::qHeads; its name "q_heads" is also its file name (q_heads.npy)
    Tensor tensor;
    std::string meaning; ///< "queries split into heads: one (n, d_k) matrix per head"

    std::string name() const { return key.str(); }
};

/// Everything one forward pass did, in order. Views draw from it and exporters write it; nobody
/// computes attention twice. The tensors and their shapes are listed in tracekey.h (keys::...).
class Trace
{
public:
    AttentionConfig config;
    AttentionInput input;
    std::vector<TraceStep> steps;
    std::vector<std::string> warnings; ///< e.g. a fully masked row, named by sequence and token
    std::vector<HeadStats> headStats;  ///< index b * h + head
    /// What the pass changed in heads' outputs (TraceOptions::interventions; empty: nothing),
    /// and which layer the pass was for them: the views dim and label the heads
    /// interventions.changeOf(layer, head, b) names, from the trace they draw.
    HeadInterventions interventions;
    int layer = 0;

    /// Precondition: no tensor under `key` yet.
    void addTensor(TraceKey key, Tensor tensor, std::string meaning);
    bool hasTensor(TraceKey key) const;
    /// Precondition: hasTensor(key).
    const Tensor &tensor(TraceKey key) const;
    const TraceTensor *find(TraceKey key) const;
    const std::vector<TraceTensor> &tensors() const { return m_tensors; }

    const TraceStep *step(const std::string &id) const;
    const HeadStats &stats(int64_t b, int64_t head) const;

    int64_t batch() const { return input.batch(); }
    int64_t queryLength() const { return input.queryLength(); }
    int64_t keyLength() const { return input.keyLength(); }
    int heads() const { return config.heads; }

    /// Bytes held by distinct storages (views counted once).
    int64_t bytes() const;
    double totalFlops() const;

private:
    std::vector<TraceTensor> m_tensors;
};

} // namespace headlens
