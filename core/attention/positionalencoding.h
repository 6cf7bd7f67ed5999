// PositionTable: the positional encodings added to token vectors so attention can tell order.
#pragma once

#include "attention/attentionconfig.h"
#include "tensor/tensor.h"

#include <cstdint>

namespace headlens {

/// Makes the (n, width) table whose row `pos` is added to the token at position `pos`.
/// Named for what it makes; the kind of table is the PositionalEncoding setting.
class PositionTable
{
public:
    /// Sinusoidal: PE(pos, 2i) = sin(pos / 10000^(2i/width)), PE(pos, 2i+1) = cos(pos /
    /// 10000^(2i/width)), Vaswani et al. 2017, section 3.5; with an odd width the last column is
    /// a sine without its cosine partner.
    /// Random: uniform on [-sqrt(3), sqrt(3)) (variance 1), seeded, like a freshly initialised
    /// learned table (nn.Embedding(n, width)); row `pos` does not depend on n.
    /// None: zeros.
    /// Precondition: n >= 0, width >= 0.
    static RowMatrix make(PositionalEncoding kind, int n, int width, uint64_t seed);
};

} // namespace headlens
