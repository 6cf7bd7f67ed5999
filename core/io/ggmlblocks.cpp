// GgmlBlocks: one decoder per block layout of ggml-common.h, written from dequantize_row_* of
// ggml-quants.c (ggml-org/ggml), value for value.
#include "io/ggmlblocks.h"

#include <cstring>

namespace headlens {

namespace {

constexpr int kQk = 32;   // values of a Q4_0 ... Q8_0 block
constexpr int kQkK = 256; // values of a K-quant super-block

float half(const unsigned char *at)
{
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return halfToFloat(bits);
}

// block_q4_0 { half d; uint8 qs[16]; }: value j in the low nibble of qs[j], j + 16 in the high.
void q4_0(const unsigned char *b, float *y)
{
    const float d = half(b);
    const unsigned char *qs = b + 2;
    for (int j = 0; j < kQk / 2; ++j) {
        const int x0 = (qs[j] & 0x0F) - 8;
        const int x1 = (qs[j] >> 4) - 8;
        y[j] = x0 * d;
        y[j + kQk / 2] = x1 * d;
    }
}

// block_q4_1 { half d, m; uint8 qs[16]; }
void q4_1(const unsigned char *b, float *y)
{
    const float d = half(b);
    const float m = half(b + 2);
    const unsigned char *qs = b + 4;
    for (int j = 0; j < kQk / 2; ++j) {
        const int x0 = qs[j] & 0x0F;
        const int x1 = qs[j] >> 4;
        y[j] = x0 * d + m;
        y[j + kQk / 2] = x1 * d + m;
    }
}

// The fifth bits of a Q5 block: bit j of qh belongs to value j.
uint32_t fifthBits(const unsigned char *at)
{
    uint32_t qh;
    std::memcpy(&qh, at, 4);
    return qh;
}

// block_q5_0 { half d; uint8 qh[4]; uint8 qs[16]; }
void q5_0(const unsigned char *b, float *y)
{
    const float d = half(b);
    const uint32_t qh = fifthBits(b + 2);
    const unsigned char *qs = b + 6;
    for (int j = 0; j < kQk / 2; ++j) {
        const uint8_t xh0 = uint8_t(((qh >> j) << 4) & 0x10);
        const uint8_t xh1 = uint8_t((qh >> (j + 12)) & 0x10);
        const int32_t x0 = ((qs[j] & 0x0F) | xh0) - 16;
        const int32_t x1 = ((qs[j] >> 4) | xh1) - 16;
        y[j] = x0 * d;
        y[j + kQk / 2] = x1 * d;
    }
}

// block_q5_1 { half d, m; uint8 qh[4]; uint8 qs[16]; }
void q5_1(const unsigned char *b, float *y)
{
    const float d = half(b);
    const float m = half(b + 2);
    const uint32_t qh = fifthBits(b + 4);
    const unsigned char *qs = b + 8;
    for (int j = 0; j < kQk / 2; ++j) {
        const uint8_t xh0 = uint8_t(((qh >> j) << 4) & 0x10);
        const uint8_t xh1 = uint8_t((qh >> (j + 12)) & 0x10);
        const int x0 = (qs[j] & 0x0F) | xh0;
        const int x1 = (qs[j] >> 4) | xh1;
        y[j] = x0 * d + m;
        y[j + kQk / 2] = x1 * d + m;
    }
}

// block_q8_0 { half d; int8 qs[32]; }
void q8_0(const unsigned char *b, float *y)
{
    const float d = half(b);
    for (int j = 0; j < kQk; ++j)
        y[j] = int8_t(b[2 + j]) * d;
}

// block_q2_K { uint8 scales[16]; uint8 qs[64]; half d, dmin; }: group g's scale in the low
// nibble of scales[g], its min in the high; four 2-bit values per byte.
void q2_K(const unsigned char *b, float *y)
{
    const unsigned char *scales = b;
    const unsigned char *q = b + 16;
    const float d = half(b + 80);
    const float min = half(b + 82);
    int is = 0;
    for (int n = 0; n < kQkK; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            for (int half16 = 0; half16 < 2; ++half16) {
                const uint8_t sc = scales[is++];
                const float dl = d * (sc & 0xF);
                const float ml = min * (sc >> 4);
                for (int l = 0; l < 16; ++l)
                    *y++ = dl * int8_t((q[l + 16 * half16] >> shift) & 3) - ml;
            }
            shift += 2;
        }
        q += 32;
    }
}

// block_q3_K { uint8 hmask[32]; uint8 qs[64]; uint8 scales[12]; half d; }: sixteen 6-bit scales
// packed in 12 bytes (low 4 bits in bytes 0-7, high 2 bits in bytes 8-11), offset by 32; a
// value's third bit is set in hmask when it is not to be lowered by 4.
void q3_K(const unsigned char *b, float *y)
{
    const unsigned char *hm = b;
    const unsigned char *q = b + 32;
    const float dAll = half(b + 108);
    constexpr uint32_t kmask1 = 0x03030303;
    constexpr uint32_t kmask2 = 0x0f0f0f0f;
    uint32_t aux[4];
    std::memcpy(aux, b + 96, 12);
    const uint32_t tmp = aux[2];
    aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
    aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
    aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
    aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
    int8_t scales[16];
    std::memcpy(scales, aux, 16);
    int is = 0;
    uint8_t m = 1;
    for (int n = 0; n < kQkK; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            for (int half16 = 0; half16 < 2; ++half16) {
                const float dl = dAll * (scales[is++] - 32);
                for (int l = 16 * half16; l < 16 * half16 + 16; ++l)
                    *y++ = dl * (int8_t((q[l] >> shift) & 3) - ((hm[l] & m) ? 0 : 4));
            }
            shift += 2;
            m <<= 1;
        }
        q += 32;
    }
}

// The scale and min of group j of a Q4_K / Q5_K block: 6 bits each, packed in 12 bytes
// (ggml-quants.c's get_scale_min_k4).
void scaleMin(int j, const unsigned char *q, uint8_t &d, uint8_t &m)
{
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = uint8_t((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        m = uint8_t((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

// Group j's multiplier d * scale and offset dmin * min (ggml computes both in float before the
// values of the group use them).
void groupScale(int j, const unsigned char *scales, float d, float min, float &dj, float &mj)
{
    uint8_t sc, m;
    scaleMin(j, scales, sc, m);
    dj = d * sc;
    mj = min * m;
}

// block_q4_K { half d, dmin; uint8 scales[12]; uint8 qs[128]; }: 64 values per 32 bytes, the
// low nibbles first.
void q4_K(const unsigned char *b, float *y)
{
    const float d = half(b);
    const float min = half(b + 2);
    const unsigned char *scales = b + 4;
    const unsigned char *q = b + 16;
    int is = 0;
    for (int j = 0; j < kQkK; j += 64) {
        float d1, m1, d2, m2;
        groupScale(is, scales, d, min, d1, m1);
        groupScale(is + 1, scales, d, min, d2, m2);
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * (q[l] & 0xF) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * (q[l] >> 4) - m2;
        q += 32;
        is += 2;
    }
}

// block_q5_K { half d, dmin; uint8 scales[12]; uint8 qh[32]; uint8 qs[128]; }
void q5_K(const unsigned char *b, float *y)
{
    const float d = half(b);
    const float min = half(b + 2);
    const unsigned char *scales = b + 4;
    const unsigned char *qh = b + 16;
    const unsigned char *ql = b + 48;
    int is = 0;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0; j < kQkK; j += 64) {
        float d1, m1, d2, m2;
        groupScale(is, scales, d, min, d1, m1);
        groupScale(is + 1, scales, d, min, d2, m2);
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * ((ql[l] & 0xF) + ((qh[l] & u1) ? 16 : 0)) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * ((ql[l] >> 4) + ((qh[l] & u2) ? 16 : 0)) - m2;
        ql += 32;
        is += 2;
        u1 = uint8_t(u1 << 2);
        u2 = uint8_t(u2 << 2);
    }
}

// block_q6_K { uint8 ql[128]; uint8 qh[64]; int8 scales[16]; half d; }
void q6_K(const unsigned char *b, float *y)
{
    const unsigned char *ql = b;
    const unsigned char *qh = b + 128;
    const int8_t *sc = reinterpret_cast<const int8_t *>(b + 192);
    const float d = half(b + 208);
    for (int n = 0; n < kQkK; n += 128) {
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int8_t q1 = int8_t(((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
            const int8_t q2 = int8_t(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
            const int8_t q3 = int8_t(((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
            const int8_t q4 = int8_t(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
            y[l] = d * sc[is] * q1;
            y[l + 32] = d * sc[is + 2] * q2;
            y[l + 64] = d * sc[is + 4] * q3;
            y[l + 96] = d * sc[is + 6] * q4;
        }
        y += 128;
        ql += 64;
        qh += 32;
        sc += 8;
    }
}

using BlockDecoder = void (*)(const unsigned char *, float *);

BlockDecoder decoderOf(StoredFormat format)
{
    switch (format) {
    case StoredFormat::Q4_0:
        return q4_0;
    case StoredFormat::Q4_1:
        return q4_1;
    case StoredFormat::Q5_0:
        return q5_0;
    case StoredFormat::Q5_1:
        return q5_1;
    case StoredFormat::Q8_0:
        return q8_0;
    case StoredFormat::Q2_K:
        return q2_K;
    case StoredFormat::Q3_K:
        return q3_K;
    case StoredFormat::Q4_K:
        return q4_K;
    case StoredFormat::Q5_K:
        return q5_K;
    case StoredFormat::Q6_K:
        return q6_K;
    case StoredFormat::F32:
    case StoredFormat::F16:
    case StoredFormat::BF16:
        break;
    }
    return nullptr;
}

// ggml.c's type_traits: every type a GGUF file may hold, with its block (ids 4 and 5, Q4_2 and
// Q4_3, were removed from ggml long ago). The byte counts are ggml-common.h's static_asserts.
const GgmlType kTypes[] = {
    {0, "F32", 1, 4, StoredFormat::F32},
    {1, "F16", 1, 2, StoredFormat::F16},
    {2, "Q4_0", 32, 18, StoredFormat::Q4_0},
    {3, "Q4_1", 32, 20, StoredFormat::Q4_1},
    {6, "Q5_0", 32, 22, StoredFormat::Q5_0},
    {7, "Q5_1", 32, 24, StoredFormat::Q5_1},
    {8, "Q8_0", 32, 34, StoredFormat::Q8_0},
    {9, "Q8_1", 32, 36, {}},
    {10, "Q2_K", 256, 84, StoredFormat::Q2_K},
    {11, "Q3_K", 256, 110, StoredFormat::Q3_K},
    {12, "Q4_K", 256, 144, StoredFormat::Q4_K},
    {13, "Q5_K", 256, 176, StoredFormat::Q5_K},
    {14, "Q6_K", 256, 210, StoredFormat::Q6_K},
    {15, "Q8_K", 256, 292, {}},
    {16, "IQ2_XXS", 256, 66, {}},
    {17, "IQ2_XS", 256, 74, {}},
    {18, "IQ3_XXS", 256, 98, {}},
    {19, "IQ1_S", 256, 50, {}},
    {20, "IQ4_NL", 32, 18, {}},
    {21, "IQ3_S", 256, 110, {}},
    {22, "IQ2_S", 256, 82, {}},
    {23, "IQ4_XS", 256, 136, {}},
    {24, "I8", 1, 1, {}},
    {25, "I16", 1, 2, {}},
    {26, "I32", 1, 4, {}},
    {27, "I64", 1, 8, {}},
    {28, "F64", 1, 8, {}},
    {29, "IQ1_M", 256, 56, {}},
    {30, "BF16", 1, 2, StoredFormat::BF16},
    {34, "TQ1_0", 256, 54, {}},
    {35, "TQ2_0", 256, 66, {}},
    {39, "MXFP4", 32, 17, {}},
};

} // namespace

const GgmlType *ggmlType(uint32_t id)
{
    for (const GgmlType &type : kTypes)
        if (type.id == id)
            return &type;
    return nullptr;
}

void decodeGgmlBlocks(const unsigned char *bytes, StoredFormat format, int64_t blocks, float *out)
{
    const BlockDecoder decode = decoderOf(format);
    const int values = storedBlockValues(format);
    const int width = storedBlockBytes(format);
    for (int64_t i = 0; i < blocks; ++i)
        decode(bytes + i * width, out + i * values);
}

} // namespace headlens
