#!/usr/bin/python3
"""make_gguf_tiny.py: tiny GGUF files (llama.cpp's format) written from known float weights,
quantized with ggml's reference quantizers, and goldens from the values the files hold.

Writes into --out DIR what tests/data/gguf/ holds (committed, small):
  quants.gguf           GGUF v3 (default alignment 32, general.architecture "none"): one
                        (3, 512) tensor per type (ne = [512, 3]) named t.F32, t.F16, t.BF16,
                        t.Q8_0, t.Q4_0, t.Q4_1, t.Q5_0, t.Q5_1, t.Q2_K, t.Q3_K, t.Q4_K, t.Q5_K,
                        t.Q6_K, all from the same seeded floats: row 0 normal; row 1 a wide
                        dynamic range (1e-4 .. 1.8, exact zeros, a 32-value run of zeros, an
                        all-positive and an all-negative run, a run of ~1e-5 that makes
                        F16 and the Q8_0 scale subnormal); row 2 a constant block, a block of
                        +-0.25 and small values with outliers
  quants_v2.gguf        GGUF v2 with general.alignment = 64 (uint32): t.F32 (3, 7), t.Q8_0
                        (3, 64), t.Q4_K (2, 256), so that every tensor is followed by padding
  quants_expected.npz   source (3, 512) float32, the unquantized values; <TYPE> (3, 512)
                        float32, quants.gguf's t.<TYPE> as dequantized here; v2.<TYPE> the
                        dequantized tensors of quants_v2.gguf and v2.source.<TYPE> their floats
  llama_tiny_<t>.gguf   t in f32 f16 bf16 q8_0 q4_0 q4_1 q5_0 q5_1: general.architecture
                        "llama", hidden 32, 2 layers, 4 heads over 2 K/V heads (head_dim 8),
                        intermediate 64, untied output.weight, rope_theta 1e4, "linear" RoPE
                        scaling x2, context 64, rms eps 1e-6; the same floats in every file
  llama_wide_<t>.gguf   t in f16 q2_k q3_k q4_k q5_k q6_k: the same but hidden 256, 1 layer,
                        head_dim 64, intermediate 256, so that every matrix's rows (ne[0]) are
                        multiples of 256 (token_embd and output are 357 x 256); the matrices
                        scaled down so that the heads' scores are mild (see wide_weights)
  qwen2_tiny_f32.gguf   "qwen2": hidden 32, 2 layers, 4/2 heads, q/k/v biases, tied embeddings
                        (no output.weight), rope_theta 1e6, Q and K not permuted (NEOX rope)
  gpt2_tiny_f32.gguf    "gpt2": tests/data/gpt2/tiny/model.safetensors converted as
                        convert_hf_to_gguf.py's GPT2Model does (Conv1D weights transposed to
                        (out, in), the attn.bias buffers dropped, no output.weight: tied)
  <model>.npz           for every model file above: ids_k (int64), attention_k (L, h, n, n)
                        and logits_k (n, vocab) float32 for text k of golden_texts.json, from
                        the float64 reference forward (make_llama_tiny.reference_forward,
                        make_gpt2_tiny.reference_forward) over the values the file holds,
                        dequantized here and Q/K rows un-permuted back to Hugging Face's order;
                        llama_tiny_bf16.npz also attention_bf16_k and logits_bf16_k, the same
                        forward with every linear layer's input rounded to bfloat16 (what a
                        BF16 model's products in bfloat16 multiply, float32 sums aside)
                        (every .npz is np.savez_compressed's layout, deflated, with fixed dates
                        so that a rerun writes the same bytes)
  golden_texts.json     the texts (make_llama_tiny.TEXTS)
  llama_tiny_hf/        the original floats of llama_tiny_* as a Hugging Face folder
                        (config.json, model.safetensors F32, vocab.json, merges.txt)
                        (llama_wide_* has no such folder: its weights are rounded to be exact
                        in BF16, F16 and F32, so llama_wide_f16.gguf holds them exactly)
  qwen2_tiny_hf/        likewise for qwen2_tiny_f32 (F32)

Layout (ggml/src/gguf.cpp, gguf-py/gguf/constants.py): little-endian; "GGUF", uint32 version,
uint64 tensor count, uint64 KV count; KVs (gguf string = uint64 length + UTF-8; uint32 value
type; arrays as uint32 element type + uint64 count); tensor infos (name, uint32 n_dims, uint64
ne[n_dims] innermost first, uint32 ggml type, uint64 offset into the data section); zero
padding to the alignment; the tensors, each padded with zeros to the alignment. 1-D tensors
(norms, biases) are F32 in every file, 2-D ones are in the file's type (as llama.cpp writes).

Every model file carries general.architecture, general.type "model", general.name,
general.file_type (llama_ftype: ALL_F32 0, MOSTLY_F16 1, Q4_0 2, Q4_1 3, Q8_0 7, Q5_0 8, Q5_1 9,
Q2_K 10, Q3_K_S 11, Q4_K_S 14, Q5_K_S 16, Q6_K 18, BF16 32), general.quantization_version 2,
the <arch>.* hyperparameters convert_hf_to_gguf.py writes (llama/qwen2: context_length,
embedding_length, block_count, feed_forward_length, attention.head_count, .head_count_kv,
rope.freq_base, attention.layer_norm_rms_epsilon, rope.dimension_count; llama also vocab_size,
rope.scaling.type "linear" and rope.scaling.factor 2; gpt2: block_count, context_length,
embedding_length, feed_forward_length, attention.head_count, attention.layer_norm_epsilon) and
the tokenizer: tokenizer.ggml.model "gpt2", .pre "gpt-2", .tokens (vocab.json's strings in id
order), .token_type (int32: 1 normal, 3 control for <|endoftext|>), .merges ("a b"),
.bos_token_id = .eos_token_id = <|endoftext|> (uint32), .add_bos_token false.

Llama's Q and K rows are permuted as convert_hf_to_gguf.py's LlamaModel.permute does (n_head
for q, n_head_kv for k): w.reshape(n, 2, rows / n / 2, cols).swapaxes(1, 2).reshape(rows, cols),
i.e. GGUF row h*hd + 2*i + j holds Hugging Face row h*hd + j*hd/2 + i (i < hd/2, j in {0, 1}).

Quantizers: ports of ggml-quants.c's reference functions, in NumPy float32 without fused
multiply-adds, vectorized over blocks with the C code's sequential sums: quantize_row_q4_0_ref,
_q4_1_ref, _q5_0_ref, _q5_1_ref, _q8_0_ref; quantize_row_q2_K_ref (make_qkx2_quants with |x|
weights, 4-bit scales and mins), quantize_row_q3_K_ref (make_q3_quants with do_rmse, 6-bit
scales packed in 12 bytes), quantize_row_q4_K_ref and quantize_row_q5_K_ref (make_qkx2_quants
weighted by av_x + |x|, 6-bit scales and mins packed as get_scale_min_k4 reads them),
quantize_row_q6_K_ref (make_qx_quants rmse_type 1, int8 scales); nearest_int is the C trick
(x + 12582912.f, mantissa bits); FP32->FP16 rounds to nearest even (GGML_FP32_TO_FP16),
FP32->BF16 as ggml_compute_fp32_to_bf16. The byte layouts are ggml-common.h's block_q4_0 ..
block_q6_K. Dequantizers: dequantize_row_q4_0, _q4_1, _q5_0, _q5_1, _q8_0, _q2_K, _q3_K, _q4_K,
_q5_K, _q6_K, each value computed in float32 in the C code's order (q4_K: d*sc then *q then
- dmin*m; q6_K: d*sc then *q; q4_1: q*d + m), so the expected values are bit-exact. When
written, both directions were compared with ggml-quants.c itself (ggml 9a4acb3, built without
FMA contraction) on these files' floats and on random ones: the same bytes, block for block, and
the same dequantized bits. (A build that fuses multiply-adds, e.g. -march=native, rounds some
quantizer decisions differently; the dequantized values of given bytes did not change.)

Self-checks run every time: the error of every type against the floats (within the C++
tests' bounds), every block of quants.gguf's Q4_0, Q8_0 and Q4_K decoded again by hand from
its bytes (plain struct.unpack loops), every file read back by a small GGUF reader, and what
quantization does to the wide model's attention. scripts/check_gguf_files.mjs cross-checks the
files with @huggingface/gguf.

    /usr/bin/python3 scripts/make_gguf_tiny.py --out tests/data/gguf
    (needs python3-numpy and python3-regex; runs in a few seconds, writes the same bytes every
    time)
"""
import io
import json
import os
import struct
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/gguf")

import numpy as np  # noqa: E402

import make_gpt2_tiny as gpt2  # noqa: E402  (the tiny tokenizer, safetensors, GPT-2 reference)
import make_llama_tiny as llama  # noqa: E402  (configs, weights, the Llama/Qwen2 reference)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
F32 = np.float32
QK_K = 256
GROUP_MAX_EPS = F32(1e-15)

# ---------------------------------------------------------------------------------------------
# float32 arithmetic as ggml's C code does it


def f32(x):
    return np.asarray(x, dtype=F32)


def fp16_bits(x):
    """GGML_FP32_TO_FP16: round to nearest even (NumPy's float32 -> float16 cast)."""
    return f32(x).astype("<f2")


def fp16_value(h):
    return h.astype(F32)


def nearest_int(v):
    """ggml-quants.c's nearest_int: the float + 1.5 * 2^23 trick (rounds half to even)."""
    with np.errstate(all="ignore"):
        s = (f32(v) + F32(12582912.0)).astype(F32)
    return (s.view(np.int32) & 0x007FFFFF) - 0x00400000


def roundf(v):
    """C roundf: half away from zero (exact in float64)."""
    a = np.abs(f32(v).astype(np.float64))
    return (np.sign(v) * np.floor(a + 0.5)).astype(np.int64)


def trunc_int(v):
    """C's float -> integer conversion (towards zero)."""
    return np.trunc(f32(v)).astype(np.int64)


def first_abs_max(x):
    """The value of largest magnitude in each row, the first one on ties (the C loops use >)."""
    idx = np.argmax(np.abs(x), axis=1)
    return x[np.arange(len(x)), idx]


def u8(a):
    return (np.asarray(a, np.int64) & 0xFF).astype(np.uint8)


def half_bytes(h):
    return h.astype("<f2").view(np.uint8).reshape(len(h), 2)


def half_from(b):
    return fp16_value(np.ascontiguousarray(b).view("<f2").reshape(len(b)))


# ---------------------------------------------------------------------------------------------
# 32-value blocks


def quantize_q4_0(x):  # quantize_row_q4_0_ref
    mx = first_abs_max(x)
    with np.errstate(all="ignore"):
        d = mx / F32(-8)
        inv = np.where(d != 0, F32(1) / d, F32(0)).astype(F32)
    xi = np.minimum(15, trunc_int(x * inv[:, None] + F32(8.5)))
    qs = u8(xi[:, :16] | (xi[:, 16:] << 4))
    return np.concatenate([half_bytes(fp16_bits(d)), qs], axis=1)


def dequantize_q4_0(b):  # dequantize_row_q4_0
    d = half_from(b[:, 0:2])[:, None]
    qs = b[:, 2:18].astype(np.int64)
    q = np.concatenate([(qs & 0x0F) - 8, (qs >> 4) - 8], axis=1)
    return q.astype(F32) * d


def quantize_q4_1(x):  # quantize_row_q4_1_ref
    mn, mx = x.min(axis=1), x.max(axis=1)
    with np.errstate(all="ignore"):
        d = (mx - mn) / F32(15)
        inv = np.where(d != 0, F32(1) / d, F32(0)).astype(F32)
    xi = np.minimum(15, trunc_int((x - mn[:, None]) * inv[:, None] + F32(0.5)))
    qs = u8(xi[:, :16] | (xi[:, 16:] << 4))
    return np.concatenate([half_bytes(fp16_bits(d)), half_bytes(fp16_bits(mn)), qs], axis=1)


def dequantize_q4_1(b):  # dequantize_row_q4_1
    d, m = half_from(b[:, 0:2])[:, None], half_from(b[:, 2:4])[:, None]
    qs = b[:, 4:20].astype(np.int64)
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1)
    return q.astype(F32) * d + m


def pack_q5(xi):
    """qs nibbles as Q4's, the fifth bits in a little-endian uint32 qh (bit j, bit j + 16)."""
    qs = u8((xi[:, :16] & 0x0F) | ((xi[:, 16:] & 0x0F) << 4))
    bits = (xi >> 4) & 1  # value j's fifth bit goes to bit j: the first half's to 0..15, the
    qh = (bits.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum(axis=1)  # rest to 16..31
    return qh.astype("<u4").view(np.uint8).reshape(len(xi), 4), qs


def unpack_q5(qh_bytes, qs_bytes):
    qh = np.ascontiguousarray(qh_bytes).view("<u4").reshape(len(qh_bytes)).astype(np.int64)
    qs = qs_bytes.astype(np.int64)
    j = np.arange(16)
    xh0 = ((qh[:, None] >> j) << 4) & 0x10
    xh1 = (qh[:, None] >> (j + 12)) & 0x10
    return np.concatenate([(qs & 0x0F) | xh0, (qs >> 4) | xh1], axis=1)


def quantize_q5_0(x):  # quantize_row_q5_0_ref
    mx = first_abs_max(x)
    with np.errstate(all="ignore"):
        d = mx / F32(-16)
        inv = np.where(d != 0, F32(1) / d, F32(0)).astype(F32)
    xi = np.minimum(31, trunc_int(x * inv[:, None] + F32(16.5)))
    qh, qs = pack_q5(xi)
    return np.concatenate([half_bytes(fp16_bits(d)), qh, qs], axis=1)


def dequantize_q5_0(b):  # dequantize_row_q5_0
    d = half_from(b[:, 0:2])[:, None]
    return (unpack_q5(b[:, 2:6], b[:, 6:22]) - 16).astype(F32) * d


def quantize_q5_1(x):  # quantize_row_q5_1_ref
    mn, mx = x.min(axis=1), x.max(axis=1)
    with np.errstate(all="ignore"):
        d = (mx - mn) / F32(31)
        inv = np.where(d != 0, F32(1) / d, F32(0)).astype(F32)
    xi = trunc_int((x - mn[:, None]) * inv[:, None] + F32(0.5)) & 0xFF  # (uint8_t), no MIN
    qh, qs = pack_q5(xi)
    return np.concatenate([half_bytes(fp16_bits(d)), half_bytes(fp16_bits(mn)), qh, qs], axis=1)


def dequantize_q5_1(b):  # dequantize_row_q5_1
    d, m = half_from(b[:, 0:2])[:, None], half_from(b[:, 2:4])[:, None]
    return unpack_q5(b[:, 4:8], b[:, 8:24]).astype(F32) * d + m


def quantize_q8_0(x):  # quantize_row_q8_0_ref
    amax = np.abs(x).max(axis=1)
    with np.errstate(all="ignore"):
        d = amax / F32(127)
        inv = np.where(d != 0, F32(1) / d, F32(0)).astype(F32)
    qs = roundf(x * inv[:, None]).astype(np.int8).view(np.uint8)
    return np.concatenate([half_bytes(fp16_bits(d)), qs], axis=1)


def dequantize_q8_0(b):  # dequantize_row_q8_0
    d = half_from(b[:, 0:2])[:, None]
    return b[:, 2:34].view(np.int8).astype(F32) * d


# ---------------------------------------------------------------------------------------------
# the k-quants' helpers, vectorized over sub-blocks (rows of x) with the C code's sequential sums


def make_qkx2_quants(x, w, nmax, rmin, rdelta, nstep, use_mad):
    """make_qkx2_quants: (scale, the_min, L) of each row of x, weights w."""
    rows, n = x.shape
    fmax = F32(nmax)
    mn, mx = x[:, 0].copy(), x[:, 0].copy()
    sum_w = w[:, 0].copy()
    sum_x = sum_w * x[:, 0]
    for i in range(1, n):
        mn = np.where(x[:, i] < mn, x[:, i], mn)
        mx = np.where(x[:, i] > mx, x[:, i], mx)
        sum_w = sum_w + w[:, i]
        sum_x = sum_x + w[:, i] * x[:, i]
    mn = np.where(mn > 0, F32(0), mn).astype(F32)
    flat = mx == mn
    first_min = mn.copy()

    def levels(iscale, mn):
        return np.clip(nearest_int(iscale[:, None] * (x - mn[:, None])), 0, nmax)

    def error(scale, mn, L):
        total = np.zeros(rows, F32)
        for i in range(n):
            diff = scale * L[:, i].astype(F32) + mn - x[:, i]
            diff = np.abs(diff) if use_mad else diff * diff
            total = total + w[:, i] * diff
        return total

    with np.errstate(all="ignore"):
        iscale = fmax / (mx - mn)
        scale = F32(1) / iscale
        L = levels(iscale, mn)
        best_mad = error(scale, mn, L)
        for step in range(nstep + 1):
            iscale = (F32(rmin) + F32(rdelta) * F32(step) + fmax) / (mx - mn)
            laux = levels(iscale, mn)
            sum_l = np.zeros(rows, F32)
            sum_l2 = np.zeros(rows, F32)
            sum_xl = np.zeros(rows, F32)
            for i in range(n):
                l, wi = laux[:, i].astype(F32), w[:, i]
                sum_l = sum_l + wi * l
                sum_l2 = sum_l2 + wi * l * l
                sum_xl = sum_xl + wi * l * x[:, i]
            D = sum_w * sum_l2 - sum_l * sum_l
            this_scale = (sum_w * sum_xl - sum_x * sum_l) / D
            this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D
            positive = this_min > 0
            this_scale = np.where(positive, sum_xl / sum_l2, this_scale).astype(F32)
            this_min = np.where(positive, F32(0), this_min).astype(F32)
            mad = error(this_scale, this_min, laux)
            better = (D > 0) & (mad < best_mad)
            L = np.where(better[:, None], laux, L)
            best_mad = np.where(better, mad, best_mad)
            scale = np.where(better, this_scale, scale).astype(F32)
            mn = np.where(better, this_min, mn).astype(F32)
    scale = np.where(flat, F32(0), scale).astype(F32)
    mn = np.where(flat, first_min, mn).astype(F32)
    L = np.where(flat[:, None], 0, L)
    return scale, (-mn).astype(F32), L


def make_q3_quants(x, nmax):
    """make_q3_quants with do_rmse: (scale, L in 0 .. 2 nmax - 1) of each row of x."""
    rows, n = x.shape
    mx = first_abs_max(x)
    zero = np.abs(mx) < GROUP_MAX_EPS
    with np.errstate(all="ignore"):
        iscale = F32(-nmax) / mx
        L = np.clip(nearest_int(iscale[:, None] * x), -nmax, nmax - 1)
        sumlx = np.zeros(rows, F32)
        suml2 = np.zeros(rows, F32)
        for i in range(n):
            xi, l = x[:, i], L[:, i].astype(F32)
            w = xi * xi
            sumlx = sumlx + w * xi * l
            suml2 = suml2 + w * l * l
        # Up to five passes; a pass that changes nothing leaves everything as it was, so
        # running the rest (where C breaks out) changes nothing either.
        for _ in range(5):
            for i in range(n):
                xi, li = x[:, i], L[:, i].astype(F32)
                w = xi * xi
                slx = sumlx - w * xi * li
                sl2 = suml2 - w * li * li
                new_l = np.clip(nearest_int(xi * sl2 / slx), -nmax, nmax - 1)
                nl = new_l.astype(F32)
                slx2 = slx + w * xi * nl
                sl22 = sl2 + w * nl * nl
                take = (slx > 0) & (new_l != L[:, i]) & (sl22 > 0) & \
                    (slx2 * slx2 * suml2 > sumlx * sumlx * sl22)
                L[:, i] = np.where(take, new_l, L[:, i])
                sumlx = np.where(take, slx2, sumlx).astype(F32)
                suml2 = np.where(take, sl22, suml2).astype(F32)
        scale = (sumlx / suml2).astype(F32)
    L = L + nmax
    return np.where(zero, F32(0), scale).astype(F32), np.where(zero[:, None], 0, L)


def make_qx_quants(x, nmax):
    """make_qx_quants with rmse_type 1 and no weights: (scale, L in 0 .. 2 nmax - 1)."""
    rows, n = x.shape
    mx = first_abs_max(x)
    zero = np.abs(mx) < GROUP_MAX_EPS

    def sums(iscale):
        l = np.clip(nearest_int(iscale[:, None] * x), -nmax, nmax - 1)
        sumlx = np.zeros(rows, F32)
        suml2 = np.zeros(rows, F32)
        for i in range(n):
            xi, li = x[:, i], l[:, i].astype(F32)
            w = xi * xi
            sumlx = sumlx + w * xi * li
            suml2 = suml2 + w * li * li
        return l, sumlx, suml2

    with np.errstate(all="ignore"):
        l, sumlx, suml2 = sums(F32(-nmax) / mx)
        L = l + nmax
        scale = np.where(suml2 != 0, sumlx / suml2, F32(0)).astype(F32)
        best = scale * sumlx
        for step in range(-9, 10):
            if step == 0:
                continue
            l, sumlx, suml2 = sums(-(F32(nmax) + F32(0.1) * F32(step)) / mx)
            take = (suml2 > 0) & (sumlx * sumlx > best * suml2)
            L = np.where(take[:, None], l + nmax, L)
            scale = np.where(take, sumlx / suml2, scale).astype(F32)
            best = np.where(take, scale * sumlx, best).astype(F32)
    return np.where(zero, F32(0), scale).astype(F32), np.where(zero[:, None], 0, L)


def pack_2bit(L):
    """q2_K/q3_K's qs: for each 128 values, byte l holds values l, l+32, l+64, l+96."""
    out = []
    for j in (0, 128):
        out.append(L[:, j:j + 32] | (L[:, j + 32:j + 64] << 2) | (L[:, j + 64:j + 96] << 4) |
                   (L[:, j + 96:j + 128] << 6))
    return u8(np.concatenate(out, axis=1))


def get_scale_min_k4(j, q):
    """ggml-quants.c's get_scale_min_k4 over a (blocks, 12) byte array."""
    q = q.astype(np.int64)
    if j < 4:
        return q[:, j] & 63, q[:, j + 4] & 63
    sc = (q[:, j + 4] & 0xF) | ((q[:, j - 4] >> 6) << 4)
    return sc, (q[:, j + 4] >> 4) | ((q[:, j] >> 6) << 4)


def pack_scale_min_k4(ls, lm):
    """The 12 bytes quantize_row_q4_K_ref / _q5_K_ref write for 8 6-bit scales and mins."""
    s = np.zeros((len(ls), 12), np.int64)
    for j in range(8):
        if j < 4:
            s[:, j] = ls[:, j]
            s[:, j + 4] = lm[:, j]
        else:
            s[:, j + 4] = (ls[:, j] & 0xF) | ((lm[:, j] & 0xF) << 4)
            s[:, j - 4] |= (ls[:, j] >> 4) << 6
            s[:, j] |= (lm[:, j] >> 4) << 6
    return u8(s)


def sub_maxima(values):
    """The largest of each row, at least 0 (the C loops start from 0 and use >)."""
    return np.maximum(values.max(axis=1), F32(0)).astype(F32)


# ---------------------------------------------------------------------------------------------
# 256-value super-blocks


def quantize_q2_K(x):  # quantize_row_q2_K_ref
    nb = len(x)
    sub = x.reshape(nb * 16, 16)
    scales, mins, L = make_qkx2_quants(sub, np.abs(sub), 3, -0.5, 0.1, 15, True)
    scales, mins, L = scales.reshape(nb, 16), mins.reshape(nb, 16), L.reshape(nb, 256)
    max_scale, max_min = sub_maxima(scales), sub_maxima(mins)
    with np.errstate(all="ignore"):
        ls = np.where(max_scale[:, None] > 0,
                      nearest_int((F32(15) / max_scale)[:, None] * scales), 0)
        lm = np.where(max_min[:, None] > 0, nearest_int((F32(15) / max_min)[:, None] * mins), 0)
    sc = u8(ls) | u8(lm << 4)
    d = fp16_bits(np.where(max_scale > 0, max_scale / F32(15), F32(0)))
    dmin = fp16_bits(np.where(max_min > 0, max_min / F32(15), F32(0)))
    dl = fp16_value(d)[:, None] * (sc & 0xF).astype(F32)
    ml = fp16_value(dmin)[:, None] * (sc >> 4).astype(F32)
    with np.errstate(all="ignore"):
        redo = np.clip(nearest_int((x.reshape(nb, 16, 16) + ml[:, :, None]) / dl[:, :, None]), 0, 3)
    L = np.where((dl != 0)[:, :, None], redo, L.reshape(nb, 16, 16)).reshape(nb, 256)
    return np.concatenate([sc, pack_2bit(L), half_bytes(d), half_bytes(dmin)], axis=1)


def dequantize_q2_K(b):  # dequantize_row_q2_K
    nb = len(b)
    sc, qs = b[:, 0:16].astype(np.int64), b[:, 16:80].astype(np.int64)
    d, dmin = half_from(b[:, 80:82]), half_from(b[:, 82:84])
    y = np.zeros((nb, 256), F32)
    for half in range(2):
        q = qs[:, 32 * half:32 * half + 32]
        for j in range(4):
            for k in range(2):
                s = sc[:, 8 * half + 2 * j + k]
                dl = d * (s & 0xF).astype(F32)
                ml = dmin * (s >> 4).astype(F32)
                vals = ((q[:, 16 * k:16 * k + 16] >> (2 * j)) & 3).astype(F32)
                at = 128 * half + 32 * j + 16 * k
                y[:, at:at + 16] = dl[:, None] * vals - ml[:, None]
    return y


def q3_scales(s):
    """The 16 signed 6-bit scales of a (blocks, 12) q3_K scales array (dequantize_row_q3_K's
    kmask shuffle, written out)."""
    s = s.astype(np.int64)
    out = np.zeros((len(s), 16), np.int64)
    for j in range(16):
        low = s[:, j] & 0xF if j < 8 else s[:, j - 8] >> 4
        out[:, j] = (low | (((s[:, 8 + j % 4] >> (2 * (j // 4))) & 3) << 4)) - 32
    return out


def quantize_q3_K(x):  # quantize_row_q3_K_ref
    nb = len(x)
    scales, L = make_q3_quants(x.reshape(nb * 16, 16), 4)
    scales, L = scales.reshape(nb, 16), L.reshape(nb, 256)
    max_scale = first_abs_max(scales)
    with np.errstate(all="ignore"):
        iscale = F32(-32) / max_scale
        ls = np.clip(nearest_int(iscale[:, None] * scales), -32, 31) + 32
    has = max_scale != 0
    ls = np.where(has[:, None], ls, 0)
    packed = np.zeros((nb, 12), np.int64)
    for j in range(16):
        if j < 8:
            packed[:, j] = ls[:, j] & 0xF
        else:
            packed[:, j - 8] |= (ls[:, j] & 0xF) << 4
        packed[:, 8 + j % 4] |= (ls[:, j] >> 4) << (2 * (j // 4))
    packed = np.where(has[:, None], packed, 0)
    with np.errstate(all="ignore"):
        d = fp16_bits(np.where(has, F32(1) / iscale, F32(0)))
    dl = fp16_value(d)[:, None] * q3_scales(packed).astype(F32)
    with np.errstate(all="ignore"):
        redo = np.clip(nearest_int(x.reshape(nb, 16, 16) / dl[:, :, None]), -4, 3) + 4
    L = np.where((dl != 0)[:, :, None], redo, L.reshape(nb, 16, 16)).reshape(nb, 256)
    high = L > 3
    hmask = np.zeros((nb, 32), np.int64)
    for bit in range(8):  # value j's high bit: byte j % 32, bit j // 32
        hmask |= high[:, 32 * bit:32 * bit + 32].astype(np.int64) << bit
    L = np.where(high, L - 4, L)
    return np.concatenate([u8(hmask), pack_2bit(L), u8(packed), half_bytes(d)], axis=1)


def dequantize_q3_K(b):  # dequantize_row_q3_K
    nb = len(b)
    hm, qs = b[:, 0:32].astype(np.int64), b[:, 32:96].astype(np.int64)
    scales = q3_scales(b[:, 96:108])
    d_all = half_from(b[:, 108:110])
    y = np.zeros((nb, 256), F32)
    for half in range(2):
        q = qs[:, 32 * half:32 * half + 32]
        for j in range(4):
            m = 1 << (4 * half + j)
            for k in range(2):
                dl = d_all * scales[:, 8 * half + 2 * j + k].astype(F32)
                lo = (q[:, 16 * k:16 * k + 16] >> (2 * j)) & 3
                v = lo - np.where(hm[:, 16 * k:16 * k + 16] & m, 0, 4)
                at = 128 * half + 32 * j + 16 * k
                y[:, at:at + 16] = dl[:, None] * v.astype(F32)
    return y


def quantize_qk_min(x, nmax, rmin, nstep):
    """What quantize_row_q4_K_ref (nmax 15) and quantize_row_q5_K_ref (31) share: the 8
    sub-blocks' levels L (blocks, 256), the packed scales and the two fp16 scales."""
    nb = len(x)
    sub = x.reshape(nb * 8, 32)
    sum_x2 = np.zeros(len(sub), F32)
    for i in range(32):
        sum_x2 = sum_x2 + sub[:, i] * sub[:, i]
    av_x = np.sqrt(sum_x2 / F32(32)).astype(F32)
    weights = av_x[:, None] + np.abs(sub)
    scales, mins, L = make_qkx2_quants(sub, weights, nmax, rmin, 0.1, nstep, False)
    scales, mins = scales.reshape(nb, 8), mins.reshape(nb, 8)
    max_scale, max_min = sub_maxima(scales), sub_maxima(mins)
    with np.errstate(all="ignore"):
        inv_scale = np.where(max_scale > 0, F32(63) / max_scale, F32(0)).astype(F32)
        inv_min = np.where(max_min > 0, F32(63) / max_min, F32(0)).astype(F32)
    ls = np.minimum(63, nearest_int(inv_scale[:, None] * scales) & 0xFF)
    lm = np.minimum(63, nearest_int(inv_min[:, None] * mins) & 0xFF)
    packed = pack_scale_min_k4(ls, lm)
    d, dmin = fp16_bits(max_scale / F32(63)), fp16_bits(max_min / F32(63))
    L = L.reshape(nb, 8, 32)
    for j in range(8):
        sc, m = get_scale_min_k4(j, packed)
        dj = fp16_value(d) * sc.astype(F32)
        dm = fp16_value(dmin) * m.astype(F32)
        with np.errstate(all="ignore"):
            redo = nearest_int((x[:, 32 * j:32 * j + 32] + dm[:, None]) / dj[:, None])
        redo = np.clip(redo, 0, nmax)
        L[:, j] = np.where((dj != 0)[:, None], redo, L[:, j])
    return L.reshape(nb, 256), packed, d, dmin


def quantize_q4_K(x):  # quantize_row_q4_K_ref
    L, packed, d, dmin = quantize_qk_min(x, 15, -1.0, 20)
    qs = np.concatenate([L[:, j:j + 32] | (L[:, j + 32:j + 64] << 4) for j in range(0, 256, 64)],
                        axis=1)
    return np.concatenate([half_bytes(d), half_bytes(dmin), packed, u8(qs)], axis=1)


def dequantize_qk_min(b, low, high):
    """dequantize_row_q4_K (high None) and dequantize_row_q5_K: d*sc*q - dmin*m in float32."""
    nb = len(b)
    d, dmin = half_from(b[:, 0:2]), half_from(b[:, 2:4])
    scales = b[:, 4:16]
    y = np.zeros((nb, 256), F32)
    for c in range(4):
        q = low[:, 32 * c:32 * c + 32]
        for k in range(2):
            sc, m = get_scale_min_k4(2 * c + k, scales)
            dk, mk = d * sc.astype(F32), dmin * m.astype(F32)
            v = (q & 0xF) if k == 0 else (q >> 4)
            if high is not None:
                v = v + np.where(high & ((1 << (2 * c)) << k), 16, 0)
            y[:, 64 * c + 32 * k:64 * c + 32 * k + 32] = dk[:, None] * v.astype(F32) - mk[:, None]
    return y


def dequantize_q4_K(b):  # dequantize_row_q4_K
    return dequantize_qk_min(b, b[:, 16:144].astype(np.int64), None)


def quantize_q5_K(x):  # quantize_row_q5_K_ref
    L, packed, d, dmin = quantize_qk_min(x, 31, -0.5, 15)
    nb = len(x)
    qh = np.zeros((nb, 32), np.int64)
    ql = []
    for c, n in enumerate(range(0, 256, 64)):
        l1, l2 = L[:, n:n + 32], L[:, n + 32:n + 64]
        qh |= ((l1 > 15).astype(np.int64) << (2 * c)) | ((l2 > 15).astype(np.int64) << (2 * c + 1))
        ql.append((l1 & 0xF) | ((l2 & 0xF) << 4))
    return np.concatenate([half_bytes(d), half_bytes(dmin), packed, u8(qh),
                           u8(np.concatenate(ql, axis=1))], axis=1)


def dequantize_q5_K(b):  # dequantize_row_q5_K
    return dequantize_qk_min(b, b[:, 48:176].astype(np.int64), b[:, 16:48].astype(np.int64))


def quantize_q6_K(x):  # quantize_row_q6_K_ref
    nb = len(x)
    scales, L = make_qx_quants(x.reshape(nb * 16, 16), 32)
    scales, L = scales.reshape(nb, 16), L.reshape(nb, 256)
    max_scale = first_abs_max(scales)
    zero = np.abs(max_scale) < GROUP_MAX_EPS
    with np.errstate(all="ignore"):
        iscale = F32(-128) / max_scale
        d = fp16_bits(np.where(zero, F32(0), F32(1) / iscale))
        sc = np.where(zero[:, None], 0, np.minimum(127, nearest_int(iscale[:, None] * scales)))
    dl = fp16_value(d)[:, None] * sc.astype(F32)
    with np.errstate(all="ignore"):
        redo = np.clip(nearest_int(x.reshape(nb, 16, 16) / dl[:, :, None]), -32, 31) + 32
    L = np.where((dl != 0)[:, :, None], redo, L.reshape(nb, 16, 16)).reshape(nb, 256)
    ql, qh = [], []
    for j in (0, 128):
        a, b_, c, e = (L[:, j + 32 * k:j + 32 * k + 32] for k in range(4))
        ql += [(a & 0xF) | ((c & 0xF) << 4), (b_ & 0xF) | ((e & 0xF) << 4)]
        qh.append((a >> 4) | ((b_ >> 4) << 2) | ((c >> 4) << 4) | ((e >> 4) << 6))
    block = np.concatenate([u8(np.concatenate(ql, axis=1)), u8(np.concatenate(qh, axis=1)),
                            sc.astype(np.int8).view(np.uint8), half_bytes(d)], axis=1)
    return np.where(zero[:, None], np.uint8(0), block)


def dequantize_q6_K(b):  # dequantize_row_q6_K
    nb = len(b)
    ql, qh = b[:, 0:128].astype(np.int64), b[:, 128:192].astype(np.int64)
    sc = b[:, 192:208].view(np.int8).astype(F32)
    d = half_from(b[:, 208:210])
    y = np.zeros((nb, 256), F32)
    for half in range(2):
        l0, l1, h = ql[:, 64 * half:64 * half + 32], ql[:, 64 * half + 32:64 * half + 64], \
            qh[:, 32 * half:32 * half + 32]
        q = [(l0 & 0xF) | (((h >> 0) & 3) << 4), (l1 & 0xF) | (((h >> 2) & 3) << 4),
             (l0 >> 4) | (((h >> 4) & 3) << 4), (l1 >> 4) | (((h >> 6) & 3) << 4)]
        for k in range(4):
            for part in range(2):  # is = l / 16
                s = sc[:, 8 * half + 2 * k + part]
                v = (q[k][:, 16 * part:16 * part + 16] - 32).astype(F32)
                at = 128 * half + 32 * k + 16 * part
                y[:, at:at + 16] = (d * s)[:, None] * v
    return y


# ---------------------------------------------------------------------------------------------
# the types: ggml id, block size, bytes per block, quantizer, dequantizer, llama_ftype


def bf16_bits(x):
    """ggml_compute_fp32_to_bf16: round to nearest even (a NaN stays a quiet NaN)."""
    bits = f32(x).view(np.uint32).astype(np.uint64)
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return np.where(nan, (bits >> 16) | 64, rounded).astype("<u2")


TYPES = {
    "F32": (0, 1, 4, None, None, 0),
    "F16": (1, 1, 2, None, None, 1),
    "Q4_0": (2, 32, 18, quantize_q4_0, dequantize_q4_0, 2),
    "Q4_1": (3, 32, 20, quantize_q4_1, dequantize_q4_1, 3),
    "Q5_0": (6, 32, 22, quantize_q5_0, dequantize_q5_0, 8),
    "Q5_1": (7, 32, 24, quantize_q5_1, dequantize_q5_1, 9),
    "Q8_0": (8, 32, 34, quantize_q8_0, dequantize_q8_0, 7),
    "Q2_K": (10, 256, 84, quantize_q2_K, dequantize_q2_K, 10),   # MOSTLY_Q2_K
    "Q3_K": (11, 256, 110, quantize_q3_K, dequantize_q3_K, 11),  # MOSTLY_Q3_K_S (all Q3_K)
    "Q4_K": (12, 256, 144, quantize_q4_K, dequantize_q4_K, 14),  # MOSTLY_Q4_K_S
    "Q5_K": (13, 256, 176, quantize_q5_K, dequantize_q5_K, 16),  # MOSTLY_Q5_K_S
    "Q6_K": (14, 256, 210, quantize_q6_K, dequantize_q6_K, 18),  # MOSTLY_Q6_K
    "BF16": (30, 1, 2, None, None, 32),
}


def encode(values, kind):
    """The bytes ggml stores for a (rows, cols) float32 array as type `kind`."""
    values = np.ascontiguousarray(values, F32)
    if kind == "F32":
        return values.astype("<f4").tobytes()
    if kind == "F16":
        return fp16_bits(values).tobytes()
    if kind == "BF16":
        return bf16_bits(values).tobytes()
    _, block, size, quantize, _, _ = TYPES[kind]
    assert values.shape[-1] % block == 0, (kind, values.shape)
    blocks = quantize(values.reshape(-1, block))
    assert blocks.dtype == np.uint8 and blocks.shape[1] == size, (kind, blocks.shape)
    return blocks.tobytes()


def decode(data, kind, shape):
    """The float32 values ggml's dequantize_row_* makes of `data`, shaped `shape`."""
    if kind == "F32":
        return np.frombuffer(data, "<f4").astype(F32).reshape(shape)
    if kind == "F16":
        return np.frombuffer(data, "<f2").astype(F32).reshape(shape)
    if kind == "BF16":
        return (np.frombuffer(data, "<u2").astype(np.uint32) << 16).view(F32).reshape(shape)
    _, block, size, _, dequantize, _ = TYPES[kind]
    blocks = np.frombuffer(data, np.uint8).reshape(-1, size)
    return dequantize(blocks).astype(F32).reshape(shape)


def stored_bytes(kind, numel):
    _, block, size, _, _, _ = TYPES[kind]
    return numel // block * size


# ---------------------------------------------------------------------------------------------
# the GGUF writer (and a reader to check it)

VALUE_TYPES = {"u8": (0, "<B"), "i8": (1, "<b"), "u16": (2, "<H"), "i16": (3, "<h"),
               "u32": (4, "<I"), "i32": (5, "<i"), "f32": (6, "<f"), "bool": (7, "<?"),
               "str": (8, None), "u64": (10, "<Q"), "i64": (11, "<q"), "f64": (12, "<d")}
ARRAY = 9


def gguf_string(text):
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_value(kind, value):
    return gguf_string(value) if kind == "str" else struct.pack(VALUE_TYPES[kind][1], value)


def gguf_kv(key, kind, value):
    """A KV pair; kind "u32" etc., or ["str"] / ["i32"] for an array of that type."""
    out = gguf_string(key)
    if isinstance(kind, list):
        elem = kind[0]
        out += struct.pack("<IIQ", ARRAY, VALUE_TYPES[elem][0], len(value))
        return out + b"".join(gguf_value(elem, v) for v in value)
    return out + struct.pack("<I", VALUE_TYPES[kind][0]) + gguf_value(kind, value)


def pad(n, alignment):
    return -n % alignment


def write_gguf(path, kvs, tensors, version=3, alignment=32):
    """kvs: (key, kind, value); tensors: (name, kind, shape as PyTorch's, bytes). Each
    tensor's offset is a multiple of `alignment`, the data section starts at one, and every
    tensor is followed by zeros up to the next (as gguf.cpp's gguf_write_to_buf)."""
    head = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    head += b"".join(gguf_kv(*kv) for kv in kvs)
    offset = 0
    infos, blobs = [], []
    for name, kind, shape, data in tensors:
        ne = list(reversed(shape))
        assert len(data) == stored_bytes(kind, int(np.prod(shape))), name
        infos.append(gguf_string(name) + struct.pack("<I", len(ne)) +
                     b"".join(struct.pack("<Q", n) for n in ne) +
                     struct.pack("<IQ", TYPES[kind][0], offset))
        blobs.append(data + b"\0" * pad(len(data), alignment))
        offset += len(blobs[-1])
    head += b"".join(infos)
    head += b"\0" * pad(len(head), alignment)
    with open(path, "wb") as f:
        f.write(head + b"".join(blobs))


def read_gguf(path):
    """A plain reader of what write_gguf writes: (version, {key: value}, {name: (kind, shape,
    bytes)}), following gguf.cpp's rules (general.alignment, offsets from the data section)."""
    data = open(path, "rb").read()
    assert data[:4] == b"GGUF"
    pos = 4
    names = {v[0]: k for k, v in VALUE_TYPES.items()}
    types = {v[0]: k for k, v in TYPES.items()}

    def take(fmt):
        nonlocal pos
        value = struct.unpack_from(fmt, data, pos)
        pos += struct.calcsize(fmt)
        return value if len(value) > 1 else value[0]

    def string():
        nonlocal pos
        n = take("<Q")
        pos += n
        return data[pos - n:pos].decode("utf-8")

    def value(t):
        return string() if names[t] == "str" else take(VALUE_TYPES[names[t]][1])

    version, n_tensors, n_kv = take("<IQQ")
    kvs = {}
    for _ in range(n_kv):
        key, t = string(), take("<I")
        if t == ARRAY:
            elem, count = take("<IQ")
            kvs[key] = [value(elem) for _ in range(count)]
        else:
            kvs[key] = value(t)
    infos = []
    for _ in range(n_tensors):
        name = string()
        ne = [take("<Q") for _ in range(take("<I"))]
        infos.append((name, types[take("<I")], list(reversed(ne)), take("<Q")))
    alignment = kvs.get("general.alignment", 32)
    start = pos + pad(pos, alignment)
    tensors = {}
    for name, kind, shape, offset in infos:
        assert offset % alignment == 0
        n = stored_bytes(kind, int(np.prod(shape)))
        tensors[name] = (kind, shape, data[start + offset:start + offset + n])
    return version, kvs, tensors


def save_npz(path, arrays):
    """np.savez's layout (one .npy per key, deflated as np.savez_compressed does) with fixed
    dates, so that the same arrays give the same bytes."""
    with zipfile.ZipFile(path, "w") as zf:
        for key, value in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue())


# ---------------------------------------------------------------------------------------------
# quants.gguf and quants_v2.gguf

QUANT_ORDER = ["F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K",
               "Q4_K", "Q5_K", "Q6_K"]
# The largest |dequantized - source| each type may show on quants.gguf's floats (the C++
# test's bounds: two bits per value keep within a third of the range, eight within 1%).
ERROR_BOUND = {"Q2_K": 1.0, "Q3_K": 0.5}


def quant_source(seed):
    rng = np.random.default_rng(seed)
    rows = np.zeros((3, 512), np.float64)
    rows[0] = 0.5 * rng.standard_normal(512)
    wide = rng.choice([-1.0, 1.0], 512) * 10.0 ** rng.uniform(-4.0, 0.25, 512)
    wide[rng.random(512) < 0.15] = 0.0
    wide[256:288] = 0.0                                  # a whole 32-value block of zeros
    wide[288:320] = rng.uniform(0.05, 1.5, 32)           # all positive: the min clamps to 0
    wide[320:352] = -rng.uniform(0.05, 1.5, 32)          # all negative
    wide[352:384] = 1e-5 * rng.standard_normal(32)       # F16 subnormals, a subnormal Q8_0 d
    rows[1] = wide
    rows[2] = 0.02 * rng.standard_normal(512)
    rows[2, ::40] = rng.choice([-1.0, 1.0], 13) * rng.uniform(1.0, 2.5, 13)  # outliers
    rows[2, 0:32] = 0.75                                 # a constant block
    rows[2, 32:64] = np.where(np.arange(32) % 2, 0.25, -0.25)
    return rows.astype(F32)


def write_quants(out):
    source = quant_source(2718)
    expected = {"source": source}
    tensors = []
    for kind in QUANT_ORDER:
        data = encode(source, kind)
        tensors.append((f"t.{kind}", kind, [3, 512], data))
        expected[kind] = decode(data, kind, (3, 512))
    write_gguf(os.path.join(out, "quants.gguf"),
               [("general.architecture", "str", "none"), ("general.name", "str", "quants")],
               tensors)
    rng = np.random.default_rng(2719)
    v2 = []
    for kind, shape in (("F32", (3, 7)), ("Q8_0", (3, 64)), ("Q4_K", (2, 256))):
        values = (0.7 * rng.standard_normal(shape)).astype(F32)
        data = encode(values, kind)
        v2.append((f"t.{kind}", kind, list(shape), data))
        expected[f"v2.{kind}"] = decode(data, kind, shape)
        expected[f"v2.source.{kind}"] = values
    write_gguf(os.path.join(out, "quants_v2.gguf"),
               [("general.architecture", "str", "none"), ("general.name", "str", "quants_v2"),
                ("general.alignment", "u32", 64)], v2, version=2, alignment=64)
    save_npz(os.path.join(out, "quants_expected.npz"), expected)
    return expected


# ---------------------------------------------------------------------------------------------
# the models


def permute(w, n_head):
    """convert_hf_to_gguf.py's LlamaModel.permute (n_head already n_head_kv for k)."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2) \
        .reshape(w.shape)


def unpermute(w, n_head):
    """permute's inverse: the GGUF rows back in Hugging Face's order."""
    return w.reshape(n_head, w.shape[0] // n_head // 2, 2, *w.shape[1:]).swapaxes(1, 2) \
        .reshape(w.shape)


def llama_names(cfg):
    """(Hugging Face name, GGUF name, heads to permute over or 0) for a llama/qwen2 config."""
    permuted = cfg["model_type"] == "llama"
    h, hkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    names = [("model.embed_tokens.weight", "token_embd.weight", 0)]
    for i in range(cfg["num_hidden_layers"]):
        a, b = f"model.layers.{i}.", f"blk.{i}."
        names += [(a + "input_layernorm.weight", b + "attn_norm.weight", 0),
                  (a + "self_attn.q_proj.weight", b + "attn_q.weight", h if permuted else 0),
                  (a + "self_attn.k_proj.weight", b + "attn_k.weight", hkv if permuted else 0),
                  (a + "self_attn.v_proj.weight", b + "attn_v.weight", 0)]
        if cfg["model_type"] == "qwen2":
            names += [(a + f"self_attn.{x}_proj.bias", b + f"attn_{x}.bias", 0) for x in "qkv"]
        names += [(a + "self_attn.o_proj.weight", b + "attn_output.weight", 0),
                  (a + "post_attention_layernorm.weight", b + "ffn_norm.weight", 0),
                  (a + "mlp.gate_proj.weight", b + "ffn_gate.weight", 0),
                  (a + "mlp.up_proj.weight", b + "ffn_up.weight", 0),
                  (a + "mlp.down_proj.weight", b + "ffn_down.weight", 0)]
    names.append(("model.norm.weight", "output_norm.weight", 0))
    if not cfg["tie_word_embeddings"]:
        names.append(("lm_head.weight", "output.weight", 0))
    return names


def gpt2_names(n_layer):
    """(Hugging Face name, GGUF name, transposed) as GPT2Model and gguf's tensor_mapping map
    GPT-2: its Conv1D weights (in, out) are stored transposed, as (out, in)."""
    names = [("wte.weight", "token_embd.weight", False), ("wpe.weight", "position_embd.weight",
                                                             False)]
    for i in range(n_layer):
        a, b = f"h.{i}.", f"blk.{i}."
        for hf, gg, conv in (("ln_1", "attn_norm", False), ("attn.c_attn", "attn_qkv", True),
                             ("attn.c_proj", "attn_output", True), ("ln_2", "ffn_norm", False),
                             ("mlp.c_fc", "ffn_up", True), ("mlp.c_proj", "ffn_down", True)):
            names += [(a + hf + ".weight", b + gg + ".weight", conv),
                      (a + hf + ".bias", b + gg + ".bias", False)]
    names += [("ln_f.weight", "output_norm.weight", False), ("ln_f.bias", "output_norm.bias",
                                                             False)]
    return names


def tokenizer_kvs(vocab, merges):
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    assert [vocab[t] for t in tokens] == list(range(len(tokens)))
    eot = vocab[gpt2.EOT]
    return [("tokenizer.ggml.model", "str", "gpt2"),
            ("tokenizer.ggml.pre", "str", "gpt-2"),
            ("tokenizer.ggml.tokens", ["str"], tokens),
            ("tokenizer.ggml.token_type", ["i32"], [3 if t == gpt2.EOT else 1 for t in tokens]),
            ("tokenizer.ggml.merges", ["str"], [f"{a} {b}" for a, b in merges]),
            ("tokenizer.ggml.bos_token_id", "u32", eot),
            ("tokenizer.ggml.eos_token_id", "u32", eot),
            ("tokenizer.ggml.add_bos_token", "bool", False)]


def general_kvs(arch, name, kind):
    return [("general.architecture", "str", arch), ("general.type", "str", "model"),
            ("general.name", "str", name), ("general.file_type", "u32", TYPES[kind][5]),
            ("general.quantization_version", "u32", 2)]


def llama_kvs(cfg):
    arch = cfg["model_type"]
    hd = llama.head_dim(cfg)
    kvs = []
    if arch == "llama":
        kvs.append((f"{arch}.vocab_size", "u32", cfg["vocab_size"]))
    kvs += [(f"{arch}.context_length", "u32", cfg["max_position_embeddings"]),
            (f"{arch}.embedding_length", "u32", cfg["hidden_size"]),
            (f"{arch}.block_count", "u32", cfg["num_hidden_layers"]),
            (f"{arch}.feed_forward_length", "u32", cfg["intermediate_size"]),
            (f"{arch}.attention.head_count", "u32", cfg["num_attention_heads"]),
            (f"{arch}.attention.head_count_kv", "u32", cfg["num_key_value_heads"]),
            (f"{arch}.rope.freq_base", "f32", cfg["rope_theta"]),
            (f"{arch}.attention.layer_norm_rms_epsilon", "f32", cfg["rms_norm_eps"]),
            (f"{arch}.rope.dimension_count", "u32", hd)]
    scaling = cfg.get("rope_scaling") or {}
    if scaling.get("rope_type", scaling.get("type")) == "linear":
        kvs += [(f"{arch}.rope.scaling.type", "str", "linear"),
                (f"{arch}.rope.scaling.factor", "f32", scaling["factor"])]
    return kvs


def gpt2_kvs(cfg):
    return [("gpt2.block_count", "u32", cfg["n_layer"]),
            ("gpt2.context_length", "u32", cfg["n_ctx"]),
            ("gpt2.embedding_length", "u32", cfg["n_embd"]),
            ("gpt2.feed_forward_length", "u32", 4 * cfg["n_embd"]),
            ("gpt2.attention.head_count", "u32", cfg["n_head"]),
            ("gpt2.attention.layer_norm_epsilon", "f32", cfg["layer_norm_epsilon"])]


def write_model(out, name, arch, kind, kvs, tensors):
    """tensors: (GGUF name, float32 array as PyTorch's (out, in)); 1-D ones F32, the rest
    `kind`. Returns {GGUF name: the float32 values the file holds}."""
    held, entries = {}, []
    for gname, values in tensors:
        t = "F32" if values.ndim == 1 else kind
        data = encode(values, t)
        entries.append((gname, t, list(values.shape), data))
        held[gname] = decode(data, t, values.shape)
    write_gguf(os.path.join(out, name + ".gguf"), general_kvs(arch, name, kind) + kvs, entries)
    return held


def write_golden(path, forward, encoder, bf16_forward=None):
    """ids_k, attention_k, logits_k for each text; with bf16_forward also attention_bf16_k and
    logits_bf16_k, the pass whose linear layers multiply bfloat16 inputs."""
    golden = {}
    for k, text in enumerate(llama.TEXTS):
        ids = encoder.encode(text)
        att, logits = forward(ids)
        golden[f"ids_{k}"] = np.array(ids, np.int64)
        golden[f"attention_{k}"] = att.astype(F32)
        golden[f"logits_{k}"] = logits.astype(F32)
        if bf16_forward is not None:
            att, logits = bf16_forward(ids)
            golden[f"attention_bf16_{k}"] = att.astype(F32)
            golden[f"logits_bf16_{k}"] = logits.astype(F32)
    save_npz(path, golden)


def bf16_rounded(t):
    """t as a bfloat16 product's input: to float32, then to bfloat16 (nearest, ties to even)."""
    return (bf16_bits(t).astype(np.uint32) << 16).view(F32).astype(np.float64)


def wide_weights(cfg, seed):
    """make_llama_tiny's weights in the wide shapes, every matrix but the embedding scaled by
    sqrt(32 / 256) so that the activations are as large as the tiny model's, and q_proj and
    k_proj by a further 0.35: milder scores (attention rows not one-hot), so that the heads
    move with the weights smoothly and the k-quants' heads stay comparable to the float ones
    (layer 0's attention within 0.02 of the float model's at Q5_K and Q6_K, 0.2 at Q2_K)."""
    p = llama.random_weights(cfg, seed)
    for key, value in p.items():
        if value.ndim == 2 and key != "model.embed_tokens.weight":
            scale = np.sqrt(32.0 / cfg["hidden_size"])
            if key.endswith(("q_proj.weight", "k_proj.weight")):
                scale *= 0.35
            p[key] = gpt2.exact_in_all_dtypes(value * scale)
    return p


def write_hf(folder, cfg, weights, merges, dtype):
    gpt2.write_tokenizer(folder, merges)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, dtype)


def llama_family(out, base, cfg, weights, kinds, merges, vocab, encoder, hf_dtype):
    """llama_tiny_* / llama_wide_* / qwen2_tiny_*: the HF folder (none when hf_dtype is None),
    each type's file, goldens. Returns {kind: HF-layout weights as the file holds them}."""
    if hf_dtype:
        write_hf(os.path.join(out, base + "_hf"), cfg, weights, merges, hf_dtype)
    names = llama_names(cfg)
    held_all = {}
    for kind in kinds:
        name = f"{base}_{kind.lower()}"
        tensors = [(g, permute(weights[hf], n) if n else weights[hf]) for hf, g, n in names]
        held = write_model(out, name, cfg["model_type"], kind,
                           llama_kvs(cfg) + tokenizer_kvs(vocab, merges), tensors)
        p = {hf: unpermute(held[g], n) if n else held[g] for hf, g, n in names}
        bf16_forward = (lambda ids, p=p: llama.reference_forward(
            p, cfg, ids, linear_input=bf16_rounded)) if kind == "BF16" else None
        write_golden(os.path.join(out, name + ".npz"),
                     lambda ids, p=p: llama.reference_forward(p, cfg, ids), encoder, bf16_forward)
        held_all[kind] = p
    return held_all


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<Q", data, 0)[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for key, info in header.items():
        if key == "__metadata__":
            continue
        assert info["dtype"] == "F32", key
        a, b = info["data_offsets"]
        out[key] = np.frombuffer(data[8 + n + a:8 + n + b], "<f4").reshape(info["shape"])
    return out


def write_gpt2(out):
    folder = os.path.join(ROOT, "tests", "data", "gpt2", "tiny")
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as f:
        merges = [tuple(line.split(" ")) for line in f.read().split("\n")[1:] if line]
    hf = read_safetensors(os.path.join(folder, "model.safetensors"))
    names = gpt2_names(cfg["n_layer"])
    assert set(hf) - {hf_name for hf_name, _, _ in names} == \
        {f"h.{i}.attn.bias" for i in range(cfg["n_layer"])}  # the buffers GPT2Model drops
    tensors = [(g, np.ascontiguousarray(hf[h].T) if conv else hf[h]) for h, g, conv in names]
    held = write_model(out, "gpt2_tiny_f32", "gpt2", "F32",
                       gpt2_kvs(cfg) + tokenizer_kvs(vocab, merges), tensors)
    p = {h: held[g].T if conv else held[g] for h, g, conv in names}
    assert all(np.array_equal(p[k], hf[k]) for k in p)
    write_golden(os.path.join(out, "gpt2_tiny_f32.npz"),
                 lambda ids: gpt2.reference_forward(p, cfg, ids), gpt2.Encoder(vocab, merges))


TINY_KINDS = ["F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1"]
WIDE_KINDS = ["F16", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"]


def write_models(out):
    merges = gpt2.train_merges(gpt2.CORPUS, 100)
    vocab = gpt2.write_tokenizer(os.path.join(out, "llama_tiny_hf"), merges)
    encoder = gpt2.Encoder(vocab, merges)
    linear = {"type": "linear", "factor": 2.0}
    tiny = llama.base_config("llama", intermediate_size=64, rope_scaling=linear,
                             vocab_size=len(vocab))
    wide = llama.base_config("llama", hidden_size=256, num_hidden_layers=1,
                             intermediate_size=256, rope_scaling=linear, vocab_size=len(vocab))
    qwen2 = llama.base_config("qwen2", intermediate_size=64, rope_theta=1e6,
                              tie_word_embeddings=True, use_sliding_window=False,
                              vocab_size=len(vocab))
    tiny_w = llama.random_weights(tiny, 4242)
    wide_w = wide_weights(wide, 4243)
    held = {}
    held["tiny"] = llama_family(out, "llama_tiny", tiny, tiny_w, TINY_KINDS, merges, vocab,
                                encoder, "F32")
    held["wide"] = llama_family(out, "llama_wide", wide, wide_w, WIDE_KINDS, merges, vocab,
                                encoder, None)
    llama_family(out, "qwen2_tiny", qwen2, llama.random_weights(qwen2, 4244), ["F32"], merges,
                 vocab, encoder, "F32")
    write_gpt2(out)
    with open(os.path.join(out, "golden_texts.json"), "w", encoding="utf-8") as f:
        json.dump(llama.TEXTS, f, ensure_ascii=False, indent=1)
    return {"tiny": (tiny, tiny_w), "wide": (wide, wide_w)}, held, encoder


# ---------------------------------------------------------------------------------------------
# self-checks


def hand_decode_q8_0(block):
    d = np.float32(struct.unpack("<e", block[0:2])[0])
    return [np.float32(q) * d for q in struct.unpack("<32b", block[2:34])]


def hand_decode_q4_0(block):
    d = np.float32(struct.unpack("<e", block[0:2])[0])
    low = [np.float32((b & 15) - 8) * d for b in block[2:18]]
    high = [np.float32((b >> 4) - 8) * d for b in block[2:18]]
    return low + high


def hand_decode_q4_K(block):
    """block_q4_K: half d, half dmin, 12 scale bytes, 128 bytes; value 64 c + 32 k + l is
    d * scale[2c+k] * nibble k of byte 32 c + l - dmin * min[2c+k]."""
    d, dmin = (np.float32(v) for v in struct.unpack("<ee", block[0:4]))
    s, q = block[4:16], block[16:144]
    scale, minimum = [], []
    for j in range(8):  # six bits each: j < 4 plain, j >= 4 split over three bytes
        if j < 4:
            scale.append(s[j] & 63)
            minimum.append(s[j + 4] & 63)
        else:
            scale.append((s[j + 4] & 15) | ((s[j - 4] >> 6) << 4))
            minimum.append((s[j + 4] >> 4) | ((s[j] >> 6) << 4))
    out = []
    for c in range(4):
        for k in range(2):
            for l in range(32):
                nib = (q[32 * c + l] >> (4 * k)) & 15
                out.append(np.float32(d * np.float32(scale[2 * c + k])) * np.float32(nib) -
                           np.float32(dmin * np.float32(minimum[2 * c + k])))
    return out


def same_bits(a, b):
    return np.array_equal(np.asarray(a, F32).view(np.uint32), np.asarray(b, F32).view(np.uint32))


def check_quants(out, expected):
    version, kvs, tensors = read_gguf(os.path.join(out, "quants.gguf"))
    assert version == 3 and list(tensors) == [f"t.{k}" for k in QUANT_ORDER]
    source = expected["source"]
    print("max |dequantized - source| on quants.gguf (3 x 512):")
    for kind in QUANT_ORDER:
        got_kind, shape, data = tensors[f"t.{kind}"]
        assert got_kind == kind and shape == [3, 512]
        assert same_bits(decode(data, kind, (3, 512)), expected[kind])
        err = float(np.abs(expected[kind] - source).max())
        bound = ERROR_BOUND.get(kind, 0.3)
        print(f"  {kind:5} {err:.3g}  ({len(data)} bytes)")
        assert err < bound, (kind, err)
    blobs = {k: tensors[f"t.{k}"][2] for k in ("Q8_0", "Q4_0", "Q4_K")}
    for kind, hand, size, block in (("Q8_0", hand_decode_q8_0, 34, 32),
                                    ("Q4_0", hand_decode_q4_0, 18, 32),
                                    ("Q4_K", hand_decode_q4_K, 144, 256)):
        for b in range(len(blobs[kind]) // size):  # every block, decoded the simple way
            values = hand(blobs[kind][b * size:(b + 1) * size])
            assert same_bits(values, expected[kind].reshape(-1)[b * block:(b + 1) * block]), kind
    print("  Q8_0, Q4_0 and Q4_K decoded again by hand from the bytes: identical")
    version, kvs, tensors = read_gguf(os.path.join(out, "quants_v2.gguf"))
    assert version == 2 and kvs["general.alignment"] == 64
    for name, (kind, shape, data) in tensors.items():
        assert same_bits(decode(data, kind, shape), expected[f"v2.{kind}"])
        err = np.abs(expected[f"v2.{kind}"] - expected[f"v2.source.{kind}"]).max()
        print(f"  v2 {kind:5} max error {err:.3g}")


def check_models(out, configs, held, encoder):
    for name in sorted(os.listdir(out)):
        if not name.endswith(".gguf") or name.startswith("quants"):
            continue
        version, kvs, tensors = read_gguf(os.path.join(out, name))
        arch = kvs["general.architecture"]
        assert version == 3 and len(kvs["tokenizer.ggml.tokens"]) == 357, name
        assert tensors["token_embd.weight"][1] == [357, kvs[f"{arch}.embedding_length"]], name
        for tname, (kind, shape, _) in tensors.items():
            assert kind == "F32" if len(shape) == 1 else True, (name, tname)
    # what quantization does to the wide model's heads (the C++ test compares layer 0's
    # attention of the BF16 folder with each k-quant file's)
    cfg, floats = configs["wide"]
    ids = encoder.encode(llama.TEXTS[1])
    reference = llama.reference_forward(floats, cfg, ids)[0]
    print("llama_wide: max |attention - the float model's| on text 1, and max weight error:")
    for kind, p in held["wide"].items():
        att = llama.reference_forward(p, cfg, ids)[0]
        werr = max(float(np.abs(p[k] - floats[k]).max()) for k in p)
        print(f"  {kind:5} attention {np.abs(att - reference).max():.3g}  weights {werr:.3g}")
    cfg, floats = configs["tiny"]
    print("llama_tiny: max weight error per type:",
          ", ".join(f"{kind} {max(float(np.abs(p[k] - floats[k]).max()) for k in p):.3g}"
                    for kind, p in held["tiny"].items()))


def main(out):
    os.makedirs(out, exist_ok=True)
    expected = write_quants(out)
    configs, held, encoder = write_models(out)
    check_quants(out, expected)
    check_models(out, configs, held, encoder)


if __name__ == "__main__":
    main(ARGS.out)
