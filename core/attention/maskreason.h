// MaskReason: which of the masks hides a cell of the attention matrix, as keys::maskReason holds.
#pragma once

#include <string>

namespace headlens {

/// Bits of the trace's mask_reason tensor (b, n, n_kv): 0 where query i sees key j, otherwise the
/// sum of the masks that hide the cell (several can: a padding key later than the query is hidden
/// by both). Stored as float like every trace tensor; exact for these small integers.
enum MaskReason : int
{
    MaskVisible = 0,
    MaskCausal = 1,  ///< key j after query i (j > i)
    MaskPadding = 2, ///< key j is padding (key_padding_mask)
    MaskWindow = 4,  ///< key j is not among the w most recent: j <= i - w (sliding window)
};

/// "the causal mask and the sliding window" for the bits of one cell; "" when 0.
std::string describeMaskReason(int bits);

} // namespace headlens
