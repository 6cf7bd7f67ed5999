// GgmlBlocks: ggml's quantized blocks (Q4_0 ... Q6_K) decoded to float32 as ggml-quants.c does.
#pragma once

#include "io/storedformat.h"

#include <cstdint>
#include <optional>

namespace headlens {

/// One of ggml's tensor types (ggml.h's enum ggml_type) as a GGUF file names it.
struct GgmlType
{
    uint32_t id; ///< the number in a GGUF tensor info: 0 F32, 1 F16, 12 Q4_K, 30 BF16, ...
    const char *name;
    int blockValues;                    ///< values sharing one block (1 for plain numbers)
    int blockBytes;                     ///< bytes of one block
    std::optional<StoredFormat> format; ///< how HeadLens decodes it; nothing: it does not
};

/// The type with `id`, or nullptr for an id ggml does not define (its size is unknown, so a
/// tensor of it cannot even be located).
const GgmlType *ggmlType(uint32_t id);

/// `blocks` consecutive blocks of the quantized `format` at `bytes` (any alignment) into
/// `out` (blocks * storedBlockValues(format) floats). Each value is computed as ggml's
/// dequantize_row_* computes it (the block layouts of ggml-common.h, the F16 scales widened,
/// the products in the same order and without fused multiply-adds: the build is ISO C++,
/// where GCC does not contract), so a dequantized tensor equals llama.cpp's bit for bit.
void decodeGgmlBlocks(const unsigned char *bytes, StoredFormat format, int64_t blocks, float *out);

} // namespace headlens
