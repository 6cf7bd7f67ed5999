// StoredFloats: the float formats checkpoints store (F32, F16, BF16), widened to float32.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace headlens {

enum class StoredFloat
{
    F32,
    F16,  ///< IEEE 754 half precision
    BF16, ///< bfloat16: the upper half of a float32
};

/// The format of a safetensors dtype ("F32", "F16", "BF16"), or nothing for any other dtype.
std::optional<StoredFloat> storedFloatOf(const std::string &dtype);
/// Bytes per value: 4 or 2.
int storedFloatBytes(StoredFloat format);

/// `count` little-endian values of `format` at `bytes` (any alignment) into `out` as float32.
/// Exact: every F16 and BF16 value is a float32.
void widenFloats(const unsigned char *bytes, StoredFloat format, int64_t count, float *out);

/// IEEE half precision bits to float (subnormals, infinities and NaN included).
float halfToFloat(uint16_t bits);
/// bfloat16 bits to float: the upper half of a float32.
float bfloat16ToFloat(uint16_t bits);

} // namespace headlens
