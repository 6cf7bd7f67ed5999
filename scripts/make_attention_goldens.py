#!/usr/bin/python3
"""Writes tests/data/golden/{gqa,mqa,rope,alibi,window}_*.npz into --out DIR: modern attention computed by
references outside HeadLens, for tst_attentiongolden and tst_attentiongoldencli.

Each file holds one case:
  - the layer under Hugging Face's attention names: q_proj.weight (h*d_k, E),
    k_proj.weight (h_kv*d_k, E), v_proj.weight (h_kv*d_v, E), o_proj.weight (E, h*d_v) and, with
    biases, q_proj.bias, k_proj.bias, v_proj.bias, o_proj.bias;
  - the input query (b, n, E) and key_padding_mask (b, n) bool (True = ignored) when padded;
  - the settings as 0-d arrays: num_heads, num_kv_heads, causal, window (0 = none),
    rope_theta, and attention_positions as the bytes of its name (uint8: "none", "rope",
    "rope-interleaved" or "alibi");
  - what the reference computed, under the names headlens-cli --export-dir gives its files:
    q, k, v (b, n, h*d or h_kv*d) after the projections; k_heads (b, h_kv, n, d_k) and
    v_heads after the split and transpose; q_rot (b, h, n, d_k), k_rot (b, h_kv, n, d_k) for
    RoPE; k_repeated, v_repeated (b, h, n, d) when h_kv < h; alibi_bias (h, n, n) for ALiBi;
    scores (b, h, n, n) scaled (plus ALiBi's bias) before any mask; weights (b, h, n, n), the
    attention probabilities; context (b, h, n, d_v); output (b, n, E).

The references:
  - grouped-query and multi-query attention: PyTorch in float32, the layer written out as
    Llama's attention does it (q/k/v projections, view + transpose, repeat_kv as
    torch.repeat_interleave(h // h_kv, dim=1), scaled dot products, masked_fill, softmax, o_proj),
    checked against nn.MultiheadAttention with each K/V head's weights repeated for its group;
  - RoPE: float64 NumPy of Hugging Face's formula (inv_freq = 1 / theta^(arange(0, d, 2) / d),
    cos/sin tables of cat(freqs, freqs), x * cos + rotate_half(x) * sin) for "rope", and of the
    interleaved pairs (2j, 2j+1) as complex numbers (Meta's original Llama code,
    torch.view_as_complex) for "rope-interleaved"; the two are checked to agree after a
    permutation of each head's dimensions;
  - ALiBi: float64 NumPy of Press et al. 2022 with the slopes of their get_slopes (any h);
  - sliding window: float64 NumPy, key j visible from query i when i - w < j (and j < i + w
    without the causal mask), combined with the causal and padding masks.
Padding is on the right and no query row is left without a visible key.

Regenerate (CPU, deterministic; Debian: apt install python3-torch python3-numpy):
    /usr/bin/python3 scripts/make_attention_goldens.py --out tests/data/golden
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/golden")

import numpy as np  # noqa: E402
import torch  # noqa: E402

OUT = None  # the --out folder, set before main() runs

# name, E, h, h_kv, b, n, bias, causal, key lengths, positions, theta, window
CASES = [
    ("gqa_h8_kv2", 32, 8, 2, 1, 6, True, False, None, "none", 10000.0, 0),
    ("gqa_h8_kv2_nobias_causal", 32, 8, 2, 1, 7, False, True, None, "none", 10000.0, 0),
    ("gqa_h8_kv2_padding", 32, 8, 2, 2, 7, True, False, [7, 4], "none", 10000.0, 0),
    ("mqa_h8_kv1_causal_padding", 32, 8, 1, 2, 6, True, True, [6, 3], "none", 10000.0, 0),
    ("mqa_h8_kv1_nobias", 16, 8, 1, 1, 5, False, False, None, "none", 10000.0, 0),
    ("rope_half_causal", 32, 4, 4, 1, 9, True, True, None, "rope", 10000.0, 0),
    ("rope_interleaved_causal", 32, 4, 4, 1, 9, True, True, None, "rope-interleaved", 500.0, 0),
    ("rope_half_gqa_padding", 32, 4, 2, 2, 6, True, True, [6, 4], "rope", 10000.0, 0),
    ("alibi_h8_causal", 32, 8, 8, 1, 7, True, True, None, "alibi", 10000.0, 0),
    ("alibi_h6_causal_padding", 24, 6, 6, 2, 5, True, True, [5, 3], "alibi", 10000.0, 0),
    ("window_causal", 16, 2, 2, 1, 8, True, True, None, "none", 10000.0, 3),
    ("window_causal_padding_gqa", 16, 4, 2, 2, 8, True, True, [8, 5], "none", 10000.0, 4),
    ("window_bidirectional_padding", 16, 2, 2, 2, 6, True, False, [6, 5], "none", 10000.0, 2),
]


def alibi_slopes(h):
    """Press et al.'s get_slopes (ofirpress/attention_with_linear_biases)."""
    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(h).is_integer():
        return power_of_2(h)
    closest = 2 ** math.floor(math.log2(h))
    return power_of_2(closest) + alibi_slopes(2 * closest)[0::2][:h - closest]


def rope_half(x, theta):
    """Hugging Face's apply_rotary_pos_emb on (b, heads, n, d), positions 0..n-1, float64."""
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2, dtype=np.float64) / d)
    freqs = np.outer(np.arange(x.shape[2], dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    rotate_half = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], axis=-1)
    return x * np.cos(emb) + rotate_half * np.sin(emb)


def rope_interleaved(x, theta):
    """Meta's original apply_rotary_emb: pairs (2j, 2j+1) as complex numbers, float64."""
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2, dtype=np.float64) / d)
    freqs = np.outer(np.arange(x.shape[2], dtype=np.float64), inv_freq)
    pairs = x[..., 0::2] + 1j * x[..., 1::2]
    rotated = pairs * np.exp(1j * freqs)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = rotated.real, rotated.imag
    return out


def check_conventions_agree(x, theta):
    """Interleaved RoPE is split-half RoPE on dimensions ordered 0, 2, 4, ..., 1, 3, 5, ..."""
    d = x.shape[-1]
    order = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])
    assert np.allclose(rope_interleaved(x, theta)[..., order], rope_half(x[..., order], theta))


def visible_mask(n, lengths, b, causal, window):
    """(b, n, n) True where query i may look at key j."""
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    visible = np.ones((n, n), dtype=bool)
    if causal:
        visible &= j <= i
    if window:
        visible &= j > i - window
        if not causal:
            visible &= j < i + window
    visible = np.broadcast_to(visible, (b, n, n)).copy()
    if lengths is not None:
        visible &= (np.arange(n)[None, :] < np.array(lengths)[:, None])[:, None, :]
    assert visible.any(axis=-1).all(), "a query row without any visible key"
    return visible


def make_layer(E, h, h_kv, bias):
    d = E // h
    layer = {
        "q_proj": torch.nn.Linear(E, h * d, bias=bias),
        "k_proj": torch.nn.Linear(E, h_kv * d, bias=bias),
        "v_proj": torch.nn.Linear(E, h_kv * d, bias=bias),
        "o_proj": torch.nn.Linear(h * d, E, bias=bias),
    }
    with torch.no_grad():
        for linear in layer.values():
            if bias:
                linear.bias.uniform_(-0.5, 0.5)  # nonzero, so the bias path is tested
    return layer


def torch_gqa(layer, query, h, h_kv, visible):
    """Llama-style attention in float32 torch: the GQA reference."""
    b, n, E = query.shape
    d = E // h
    with torch.no_grad():
        q, k, v = (layer[p](query) for p in ("q_proj", "k_proj", "v_proj"))
        q_heads = q.view(b, n, h, d).transpose(1, 2)
        k_heads = k.view(b, n, h_kv, d).transpose(1, 2)
        v_heads = v.view(b, n, h_kv, d).transpose(1, 2)
        k_rep = torch.repeat_interleave(k_heads, h // h_kv, dim=1)
        v_rep = torch.repeat_interleave(v_heads, h // h_kv, dim=1)
        scores = q_heads @ k_rep.transpose(-2, -1) / math.sqrt(d)
        masked = scores.masked_fill(~torch.from_numpy(visible)[:, None], float("-inf"))
        weights = torch.softmax(masked, dim=-1)
        context = weights @ v_rep
        output = layer["o_proj"](context.transpose(1, 2).reshape(b, n, h * d))
    result = {"q": q, "k": k, "v": v, "k_heads": k_heads, "v_heads": v_heads,
              "scores": scores, "weights": weights, "context": context, "output": output}
    if h_kv < h:
        result.update(k_repeated=k_rep, v_repeated=v_rep)
    return {name: t.numpy() for name, t in result.items()}


def check_against_multihead_attention(layer, query, h, h_kv, lengths, causal, result):
    """GQA is multi-head attention whose K/V heads are copies: nn.MultiheadAttention with each
    K/V head's rows of W_K, W_V (and biases) repeated h // h_kv times gives the same output."""
    E = query.shape[-1]
    d = E // h

    def repeated(t):  # (h_kv*d, ...) -> (h*d, ...), head i from K/V head i // (h // h_kv)
        return torch.repeat_interleave(t.reshape(h_kv, d, *t.shape[1:]), h // h_kv,
                                       dim=0).reshape(h * d, *t.shape[1:])

    bias = layer["q_proj"].bias is not None
    mha = torch.nn.MultiheadAttention(E, h, bias=bias, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([layer["q_proj"].weight,
                                            repeated(layer["k_proj"].weight),
                                            repeated(layer["v_proj"].weight)]))
        mha.out_proj.weight.copy_(layer["o_proj"].weight)
        if bias:
            mha.in_proj_bias.copy_(torch.cat([layer["q_proj"].bias,
                                              repeated(layer["k_proj"].bias),
                                              repeated(layer["v_proj"].bias)]))
            mha.out_proj.bias.copy_(layer["o_proj"].bias)
    n = query.shape[1]
    padding = None
    if lengths is not None:
        padding = torch.arange(n)[None, :] >= torch.tensor(lengths)[:, None]
    attn_mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if causal else None
    output, weights = mha(query, query, query, key_padding_mask=padding, attn_mask=attn_mask,
                          need_weights=True, average_attn_weights=False)
    assert np.allclose(output.detach().numpy(), result["output"], rtol=1e-5, atol=1e-6)
    assert np.allclose(weights.detach().numpy(), result["weights"], rtol=1e-5, atol=1e-7)


def numpy_attention(layer, query, h, h_kv, visible, positions, theta):
    """The same layer in float64 NumPy, with RoPE or ALiBi inside: the positions' reference."""
    b, n, E = query.shape
    d = E // h
    x = query.numpy().astype(np.float64)

    def linear(name, t):
        w = layer[name].weight.detach().numpy().astype(np.float64)
        out = t @ w.T
        if layer[name].bias is not None:
            out = out + layer[name].bias.detach().numpy().astype(np.float64)
        return out

    q, k, v = linear("q_proj", x), linear("k_proj", x), linear("v_proj", x)
    q_heads = q.reshape(b, n, h, d).transpose(0, 2, 1, 3)
    k_heads = k.reshape(b, n, h_kv, d).transpose(0, 2, 1, 3)
    v_heads = v.reshape(b, n, h_kv, d).transpose(0, 2, 1, 3)
    result = {"q": q, "k": k, "v": v, "k_heads": k_heads, "v_heads": v_heads}
    q_use, k_use = q_heads, k_heads
    if positions in ("rope", "rope-interleaved"):
        rotate = rope_half if positions == "rope" else rope_interleaved
        check_conventions_agree(q_heads, theta)
        q_use, k_use = rotate(q_heads, theta), rotate(k_heads, theta)
        result.update(q_rot=q_use, k_rot=k_use)
    k_rep = np.repeat(k_use, h // h_kv, axis=1)
    v_rep = np.repeat(v_heads, h // h_kv, axis=1)
    if h_kv < h:
        result.update(k_repeated=k_rep, v_repeated=v_rep)
    scores = q_use @ k_rep.transpose(0, 1, 3, 2) / math.sqrt(d)
    if positions == "alibi":
        i = np.arange(n)[:, None]
        j = np.arange(n)[None, :]
        bias = -np.array(alibi_slopes(h))[:, None, None] * (i - j)  # -m_h (i - j)
        scores = scores + bias
        result["alibi_bias"] = bias
    masked = np.where(visible[:, None], scores, -np.inf)
    weights = np.exp(masked - masked.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    context = weights @ v_rep
    result.update(scores=scores, weights=weights, context=context,
                  output=linear("o_proj", context.transpose(0, 2, 1, 3).reshape(b, n, h * d)))
    return result


def make_case(name, E, h, h_kv, b, n, bias, causal, lengths, positions, theta, window):
    layer = make_layer(E, h, h_kv, bias)
    query = torch.randn(b, n, E)
    visible = visible_mask(n, lengths, b, causal, window)
    if positions == "none" and window == 0:
        result = torch_gqa(layer, query, h, h_kv, visible)
        check_against_multihead_attention(layer, query, h, h_kv, lengths, causal, result)
    else:
        result = numpy_attention(layer, query, h, h_kv, visible, positions, theta)

    arrays = {f"{p}.{kind}": getattr(layer[p], kind).detach().numpy()
              for p in layer for kind in ("weight", "bias")
              if getattr(layer[p], kind) is not None}
    arrays["query"] = query.numpy()
    if lengths is not None:
        arrays["key_padding_mask"] = np.arange(n)[None, :] >= np.array(lengths)[:, None]
    arrays["num_heads"] = np.array(h, dtype=np.int64)
    arrays["num_kv_heads"] = np.array(h_kv, dtype=np.int64)
    arrays["causal"] = np.array(causal)
    arrays["window"] = np.array(window, dtype=np.int64)
    arrays["rope_theta"] = np.array(theta, dtype=np.float32)
    arrays["attention_positions"] = np.frombuffer(positions.encode(), dtype=np.uint8)
    for key, value in result.items():
        arrays[key] = np.asarray(value).astype(np.float32)
    np.savez_compressed(os.path.join(OUT, name + ".npz"), **arrays)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(20250312)
    for case in CASES:
        make_case(*case)


if __name__ == "__main__":
    OUT = ARGS.out
    main()
