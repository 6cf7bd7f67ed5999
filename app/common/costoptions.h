// CostOptions: --cost and its companions (headlens-cli only).
#pragma once

#include <string>

namespace headlens {

/// --cost and its companions: the cost of the layer's settings, no trace computed.
struct CostOptions
{
    bool requested = false;    ///< --cost
    int layers = 1;            ///< --cost-layers L
    int tokens = 0;            ///< --cost-tokens N; 0 = the first text's tokens (or 1)
    std::string dtype = "f32"; ///< --cost-dtype f32|bf16|f16|int8: bytes per cached value

    /// Sets the field of `option` (a companion of --cost) from `value`; false when `option` is
    /// not one of them. Throws InputError when the value does not fit.
    bool take(const std::string &option, const std::string &value);
};

} // namespace headlens
