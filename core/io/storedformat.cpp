// StoredFormat: F16 and BF16 widened one value at a time, or eight at once with F16C; ggml's
// blocks decoded by GgmlBlocks.
#include "io/storedformat.h"

#include "io/ggmlblocks.h"

#include <cstring>

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace headlens {

std::optional<StoredFormat> storedFormatOf(const std::string &dtype)
{
    if (dtype == "F32")
        return StoredFormat::F32;
    if (dtype == "F16")
        return StoredFormat::F16;
    if (dtype == "BF16")
        return StoredFormat::BF16;
    return std::nullopt;
}

namespace {

struct Layout
{
    const char *name;
    int values;
    int bytes;
};

// Indexed by StoredFormat; the quantized blocks' bytes are ggml-common.h's static_asserts.
constexpr Layout kLayouts[] = {
    {"F32", 1, 4},      {"F16", 1, 2},      {"BF16", 1, 2},     {"Q4_0", 32, 18},
    {"Q4_1", 32, 20},   {"Q5_0", 32, 22},   {"Q5_1", 32, 24},   {"Q8_0", 32, 34},
    {"Q2_K", 256, 84},  {"Q3_K", 256, 110}, {"Q4_K", 256, 144}, {"Q5_K", 256, 176},
    {"Q6_K", 256, 210},
};

const Layout &layoutOf(StoredFormat format)
{
    return kLayouts[int(format)];
}

} // namespace

const char *storedFormatName(StoredFormat format)
{
    return layoutOf(format).name;
}

int storedBlockValues(StoredFormat format)
{
    return layoutOf(format).values;
}

int storedBlockBytes(StoredFormat format)
{
    return layoutOf(format).bytes;
}

bool isQuantized(StoredFormat format)
{
    return storedBlockValues(format) > 1;
}

void widenFloats(const unsigned char *bytes, StoredFormat format, int64_t count, float *out)
{
    if (count <= 0) // a tensor of no values (a GGUF axis of 0): `out` may be null
        return;
    // The data need not be aligned, so values are read through memcpy (a plain load).
    // safetensors is little-endian, like every machine HeadLens runs on.
    if (format == StoredFormat::F32) {
        std::memcpy(out, bytes, size_t(count) * 4);
        return;
    }
    if (isQuantized(format)) {
        decodeGgmlBlocks(bytes, format, count / storedBlockValues(format), out);
        return;
    }
    int64_t i = 0;
    if (format == StoredFormat::BF16) {
        for (; i < count; ++i) { // a shift: the compiler vectorises it
            uint16_t bits;
            std::memcpy(&bits, bytes + 2 * i, 2);
            const uint32_t wide = uint32_t(bits) << 16;
            std::memcpy(out + i, &wide, 4);
        }
        return;
    }
#if defined(__F16C__)
    for (; i + 8 <= count; i += 8) {
        const __m128i half = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes + 2 * i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(half));
    }
#endif
    for (; i < count; ++i) {
        uint16_t bits;
        std::memcpy(&bits, bytes + 2 * i, 2);
        out[i] = halfToFloat(bits);
    }
}

float halfToFloat(uint16_t bits)
{
    const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    uint32_t exponent = (bits >> 10) & 0x1fu;
    uint32_t mantissa = bits & 0x3ffu;
    uint32_t result;
    if (exponent == 0x1f) { // infinity or NaN
        result = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        result = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        result = sign;
    } else { // subnormal: shift the mantissa up until it is normal
        exponent = 113;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            --exponent;
        }
        result = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float value;
    std::memcpy(&value, &result, 4);
    return value;
}

float bfloat16ToFloat(uint16_t bits)
{
    const uint32_t wide = uint32_t(bits) << 16;
    float value;
    std::memcpy(&value, &wide, 4);
    return value;
}

} // namespace headlens
