// PatchingMap: which heads carry the answer: clean z_h patched into a corrupted run, head by head.
#pragma once

#include "tensor/tensor.h"

#include <string>

namespace headlens {

/// Activation patching (Wang et al. 2022; Meng et al. 2022) with the metric m = logit(answer) -
/// logit(wrong) at the position predicted from (a decoder's last token, an encoder's first mask).
/// L = layers, h = heads.
struct PatchingMap
{
    /// (L, h): (m_patched - m_corrupt) / (m_clean - m_corrupt), 1 = patching that head alone
    /// restores the clean difference, 0 = it changes nothing.
    RowMatrix restored;
    double cleanMetric = 0.0;   ///< m on the clean text
    double corruptMetric = 0.0; ///< m on the corrupted text
    int answer = -1;            ///< token ids of the two answers
    int wrong = -1;
    int position = 0; ///< the position whose logits m reads (0-based)
};

} // namespace headlens
