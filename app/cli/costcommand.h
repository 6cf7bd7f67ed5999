// CostCommand: `headlens-cli --cost`, the parameters, FLOPs and KV cache of MHA, GQA and MQA.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

/// Prints attentionCost (core/attention/attentioncost.h) for the command line's layer settings
/// beside multi-head and multi-query attention at the same h and d_k: no trace is computed, so
/// a model's real sizes (d_model 8192, 64 heads, 80 layers, 4096 tokens) cost nothing to ask.
class CostCommand
{
public:
    explicit CostCommand(std::ostream &out) : m_out(out) {}

    /// Returns the exit code. Throws InputError for settings that do not validate.
    int run(const CommandLineRequest &request);

private:
    std::ostream &m_out;
};

} // namespace headlens
