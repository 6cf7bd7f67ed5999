// Bf16Projections: a layer's four projection matrices in bfloat16, as a BF16 checkpoint stores
// them.
#pragma once

#include <cstdint>
#include <vector>

namespace headlens {

/// W_Q, W_K, W_V and W_O of one layer in bfloat16, each laid out as AttentionWeights' float32
/// matrix of the same name (row-major, nn.Linear's (d_out, d_in)). For a BF16 checkpoint the
/// float32 matrices are exact widenings, so these are the stored values: where
/// ProductPrecision says bfloat16, the projections multiply them as PyTorch's bfloat16 layers
/// do, the per-head attention products staying float32.
struct Bf16Projections
{
    std::vector<uint16_t> q;
    std::vector<uint16_t> k;
    std::vector<uint16_t> v;
    std::vector<uint16_t> o;
};

} // namespace headlens
