// NonFiniteValues: how many NaN and infinite numbers a tensor read from a file holds.
#pragma once

#include "io/storedformat.h"

#include <cstdint>
#include <optional>
#include <string>

namespace headlens {

/// Counts the values of a float array that are not numbers a forward pass can use. A file
/// written after a training run that overflowed holds them; every product with such a value is
/// NaN or infinite too, so the heads computed from it are unreadable, and a person needs to
/// know which tensor is to blame rather than see a picture of garbage.
struct NonFiniteValues
{
    int64_t nans = 0;
    int64_t infinities = 0; ///< +inf and -inf
    int64_t total = 0;      ///< values looked at

    /// The counts of `values[0 .. count)`.
    static NonFiniteValues of(const float *values, int64_t count);
    /// The counts of `count` little-endian values of `format` at `bytes` (a checkpoint's
    /// mapping): the floats read from their exponent bits without widening them, ggml's
    /// quantized blocks decoded (their values are finite unless a scale is not).
    static NonFiniteValues ofStored(const unsigned char *bytes, StoredFormat format, int64_t count);

    bool any() const { return nans + infinities > 0; }
    /// What to do about weights from elsewhere: save them again without the values.
    static constexpr const char *kSaveAgain =
        "Save the weights again from a model without them (torch.isfinite(t).all()).";

    /// "<source>: 'out_proj.weight' holds 3 NaN and 1 infinite value among its 1024 values; the
    /// heads computed from it are marked as not numbers. ..." then `advice`, what to do;
    /// nothing when every value is finite.
    std::optional<std::string> warning(const std::string &source, const std::string &tensor,
                                       const std::string &advice = kSaveAgain) const;
};

} // namespace headlens
