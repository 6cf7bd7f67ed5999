// HeadIntervention: one change to one head's output z_h (before W_O): ablate, keep only, patch.
#pragma once

#include <string>

namespace headlens {

/// What an intervention does to z_h, a head's weighted sum of values (n, d_v).
enum class InterventionKind
{
    Zero,     ///< z_h = 0: the head adds nothing but its share of b_O (none: b_O is shared)
    Mean,     ///< every row of z_h replaced by its mean over the text's positions
    KeepOnly, ///< every other head of the layer zero-ablated; this one (and other kept) left
    Patch,    ///< z_h replaced by the patch source's z_h (another run of the same length)
};

std::string toString(InterventionKind kind); ///< "zero", "mean", "keep-only", "patch"

/// One intervention on head `head` (0-based) of layer `layer` (0-based; 0 for the built-in
/// layer). Zero, Mean and Patch act on row `position` only when it is >= 0 (Mean then writes
/// the mean over every position into that one row). `sequence` >= 0 restricts it to one
/// sequence of a batch (b > 1), -1 acts on every sequence.
struct HeadIntervention
{
    int layer = 0;
    int head = 0;
    InterventionKind kind = InterventionKind::Zero;
    int position = -1;
    int sequence = -1;

    bool operator==(const HeadIntervention &other) const
    {
        return layer == other.layer && head == other.head && kind == other.kind &&
               position == other.position && sequence == other.sequence;
    }
};

} // namespace headlens
