// StoredFormat: the number formats checkpoints store (F32, F16, BF16, and the quantized blocks
// of ggml's GGUF files), widened to float32.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace headlens {

/// How a checkpoint stores a tensor's numbers. The quantized formats are ggml's blocks
/// (ggml-common.h): a run of `storedBlockValues` numbers sharing their scales, in
/// `storedBlockBytes` bytes; a tensor's rows are whole blocks.
enum class StoredFormat
{
    F32,
    F16,  ///< IEEE 754 half precision
    BF16, ///< bfloat16: the upper half of a float32
    Q4_0, ///< 32 values: an F16 scale d, 4-bit q; x = d (q - 8)
    Q4_1, ///< 32 values: F16 d and m, 4-bit q; x = d q + m
    Q5_0, ///< 32 values: F16 d, 5-bit q; x = d (q - 16)
    Q5_1, ///< 32 values: F16 d and m, 5-bit q; x = d q + m
    Q8_0, ///< 32 values: F16 d, 8-bit signed q; x = d q
    Q2_K, ///< 256 values in 16 groups of 16: 4-bit scales and mins under F16 d and dmin
    Q3_K, ///< 256 values in 16 groups of 16: 6-bit signed scales under an F16 d, 3-bit q
    Q4_K, ///< 256 values in 8 groups of 32: 6-bit scales and mins under F16 d and dmin
    Q5_K, ///< as Q4_K with a fifth bit per value
    Q6_K, ///< 256 values in 16 groups of 16: 8-bit signed scales under an F16 d, 6-bit q
};

/// The format of a safetensors dtype ("F32", "F16", "BF16"), or nothing for any other dtype.
std::optional<StoredFormat> storedFormatOf(const std::string &dtype);
/// "F32", "F16", "Q4_K", ...
const char *storedFormatName(StoredFormat format);

/// Values that share one block: 1 for the floats, 32 or 256 for the quantized formats.
int storedBlockValues(StoredFormat format);
/// Bytes of one block: 4 or 2 for the floats, 18 (Q4_0) to 210 (Q6_K) for the quantized ones.
int storedBlockBytes(StoredFormat format);
/// Bytes of `count` values (a multiple of storedBlockValues).
inline int64_t storedBytes(StoredFormat format, int64_t count)
{
    return count / storedBlockValues(format) * storedBlockBytes(format);
}
bool isQuantized(StoredFormat format);

/// `count` little-endian values of `format` at `bytes` (any alignment) into `out` as float32.
/// For a quantized format `count` is a multiple of its block and `bytes` a block's start; the
/// values are ggml's dequantize_row_* of ggml-quants.c, computed in the same float order.
/// Exact for F16 and BF16: every such value is a float32.
void widenFloats(const unsigned char *bytes, StoredFormat format, int64_t count, float *out);

/// IEEE half precision bits to float (subnormals, infinities and NaN included).
float halfToFloat(uint16_t bits);
/// bfloat16 bits to float: the upper half of a float32.
float bfloat16ToFloat(uint16_t bits);

} // namespace headlens
