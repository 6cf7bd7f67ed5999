// FlowPrinter: headlens-cli's attention rollout and value-weighted attention, printed and written.
#pragma once

#include "stats/attentionflow.h"

#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// Prints what the last token draws from after each layer (rollout) and how much its heads'
/// attention on the first token moves (value-weighted against plain), tokens numbered from 1;
/// writes the three tensors as .npy.
class FlowPrinter
{
public:
    explicit FlowPrinter(std::ostream &out) : m_out(out) {}

    /// `attention` the run's (L, h, n, n), `tokens` its labels.
    void print(const AttentionFlow &flow, const Tensor &attention,
               const std::vector<std::string> &tokens) const;

    /// dir/rollout.npy (L, n, n); with value norms, dir/value_norms.npy (L, h, n) and
    /// dir/value_weighted.npy (L, h, n, n). Throws InputError when a file cannot be written.
    /// Returns the names written, ", "-separated after a leading ", ".
    static std::string write(const AttentionFlow &flow, const std::string &dir);

private:
    std::ostream &m_out;
};

} // namespace headlens
