// NonFiniteValues: one pass over the values, the warning in words a person can act on.
#include "io/nonfinitevalues.h"

#include "util/quotedtext.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace headlens {

NonFiniteValues NonFiniteValues::of(const float *values, int64_t count)
{
    NonFiniteValues found;
    found.total = count;
    for (int64_t i = 0; i < count; ++i) {
        if (std::isnan(values[i]))
            ++found.nans;
        else if (std::isinf(values[i]))
            ++found.infinities;
    }
    return found;
}

namespace {

/// An IEEE value whose exponent bits are all set is infinite (mantissa 0) or NaN (any other).
template <typename Bits>
void countBits(const unsigned char *bytes, int64_t count, Bits exponent, Bits mantissa,
               NonFiniteValues &found)
{
    for (int64_t i = 0; i < count; ++i) {
        Bits bits = 0;
        for (size_t k = 0; k < sizeof(Bits); ++k) // little-endian, any alignment
            bits = Bits(bits | Bits(Bits(bytes[size_t(i) * sizeof(Bits) + k]) << (8 * k)));
        if ((bits & exponent) != exponent)
            continue;
        if (bits & mantissa)
            ++found.nans;
        else
            ++found.infinities;
    }
}

} // namespace

NonFiniteValues NonFiniteValues::ofStored(const unsigned char *bytes, StoredFormat format,
                                          int64_t count)
{
    NonFiniteValues found;
    found.total = count;
    switch (format) {
    case StoredFormat::F32:
        countBits<uint32_t>(bytes, count, 0x7f800000u, 0x007fffffu, found);
        break;
    case StoredFormat::F16:
        countBits<uint16_t>(bytes, count, uint16_t(0x7c00), uint16_t(0x03ff), found);
        break;
    case StoredFormat::BF16:
        countBits<uint16_t>(bytes, count, uint16_t(0x7f80), uint16_t(0x007f), found);
        break;
    default: { // a quantized block's values are finite unless its F16 scales are not
        const int64_t perBlock = storedBlockValues(format);
        std::vector<float> values(size_t(perBlock * 64));
        for (int64_t first = 0; first < count; first += perBlock * 64) {
            const int64_t n = std::min(count - first, perBlock * 64);
            widenFloats(bytes + storedBytes(format, first), format, n, values.data());
            const NonFiniteValues part = of(values.data(), n);
            found.nans += part.nans;
            found.infinities += part.infinities;
        }
        break;
    }
    }
    return found;
}

std::optional<std::string> NonFiniteValues::warning(const std::string &source,
                                                    const std::string &tensor,
                                                    const std::string &advice) const
{
    if (!any())
        return std::nullopt;
    std::string what;
    if (nans > 0)
        what = std::to_string(nans) + " NaN";
    if (infinities > 0)
        what += (what.empty() ? "" : " and ") + std::to_string(infinities) + " infinite";
    const int64_t bad = nans + infinities;
    return source + ": '" + quotedText(tensor) + "' holds " + what +
           (bad == 1 ? " value" : " values") + " among its " + std::to_string(total) +
           "; attention computed from it is not a number, and the views mark those cells. " +
           advice;
}

} // namespace headlens
