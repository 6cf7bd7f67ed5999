#!/usr/bin/python3
"""make_llama_tiny.py: tiny random Llama-family checkpoints in Hugging Face's exact layouts, and
goldens from an independent float64 NumPy forward pass written from the architectures.

Writes into --out DIR what tests/data/llama/ holds (committed, small):
  llama_gqa/        llama: 4 heads over 2 K/V heads, rope_scaling "llama3" (factor 8, original
                    context 16, so low, middle and high frequencies all occur), untied lm_head
  qwen2_bias/       qwen2: biases on q, k and v (none on o), tied embeddings, rope_theta 1e6
  qwen3_qknorm/     qwen3: head_dim 16 with hidden_size 32 and 4 heads (not hidden/heads), the
                    q_norm/k_norm RMSNorms of every head before RoPE, 2 K/V heads
  mistral_window/   mistral: multi-query (1 K/V head), sliding_window 4, shorter than the texts
  llama_sharded/    llama in two BF16 shards with model.safetensors.index.json, "linear" RoPE
                    scaling x2; every weight rounded so that BF16 holds it exactly
  golden_texts.json the texts; each folder's golden.npz holds ids_k, attention_k (L, h, n, n)
                    and logits_k (n, vocab) for text k

The tokenizer of every folder is the tiny GPT-2's byte-level BPE (vocab.json, merges.txt from
make_gpt2_tiny.py): the goldens are about the forward pass; tokenizer.json is tested apart.

The reference follows the papers and transformers' modeling_llama.py / modeling_qwen3.py /
modeling_mistral.py semantics, not HeadLens's code: RMSNorm (x / sqrt(mean x^2 + eps) * w),
RoPE with rotate_half on pairs (j, j + d/2) and inv_freq = theta^(-2j/d) scaled as
_compute_llama3_parameters / linear do, repeat_kv, the causal mask (and the sliding window:
key j visible from query i when i - j < window), softmax, o_proj, SwiGLU down(silu(gate) * up).

    /usr/bin/python3 scripts/make_llama_tiny.py --out tests/data/llama
    (needs python3-numpy and python3-regex)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/llama")

import numpy as np  # noqa: E402

import make_gpt2_tiny as gpt2  # noqa: E402  (the tiny tokenizer and the safetensors writer)

TEXTS = ["Hello world", "The cat sat on the mat. The dog's ball isn't here;"]


def base_config(model_type, **extra):
    cfg = {"model_type": model_type, "hidden_act": "silu", "num_hidden_layers": 2,
           "hidden_size": 32, "num_attention_heads": 4, "num_key_value_heads": 2,
           "intermediate_size": 48, "max_position_embeddings": 64, "rms_norm_eps": 1e-6,
           "rope_theta": 10000.0, "tie_word_embeddings": False}
    cfg.update(extra)
    return cfg


CASES = {
    "llama_gqa": base_config("llama", rope_scaling={
        "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 16}),
    "qwen2_bias": base_config("qwen2", rope_theta=1e6, tie_word_embeddings=True,
                              use_sliding_window=False, sliding_window=4),
    "qwen3_qknorm": base_config("qwen3", head_dim=16, rope_theta=1e6, attention_bias=False),
    "mistral_window": base_config("mistral", num_key_value_heads=1, sliding_window=4),
    "llama_sharded": base_config("llama", rope_scaling={"type": "linear", "factor": 2.0}),
}


def head_dim(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def random_weights(cfg, seed):
    """Every tensor of the family's layout, rounded to be exact in BF16 (and F32)."""
    rng = np.random.default_rng(seed)
    d, hd, inner = cfg["hidden_size"], head_dim(cfg), cfg["intermediate_size"]
    h, hkv, vocab = cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["vocab_size"]
    qwen2, qwen3 = cfg["model_type"] == "qwen2", cfg["model_type"] == "qwen3"

    def normal(*shape, std=0.2, mean=0.0):
        return gpt2.exact_in_all_dtypes(mean + std * rng.standard_normal(shape))

    p = {"model.embed_tokens.weight": normal(vocab, d, std=0.5)}
    for i in range(cfg["num_hidden_layers"]):
        a = f"model.layers.{i}."
        p[a + "input_layernorm.weight"] = normal(d, mean=1.0, std=0.1)
        p[a + "self_attn.q_proj.weight"] = normal(h * hd, d, std=0.35)
        p[a + "self_attn.k_proj.weight"] = normal(hkv * hd, d, std=0.35)
        p[a + "self_attn.v_proj.weight"] = normal(hkv * hd, d)
        p[a + "self_attn.o_proj.weight"] = normal(d, h * hd)
        if qwen2:
            for name, rows in (("q", h * hd), ("k", hkv * hd), ("v", hkv * hd)):
                p[a + f"self_attn.{name}_proj.bias"] = normal(rows, std=0.1)
        if qwen3:
            p[a + "self_attn.q_norm.weight"] = normal(hd, mean=1.0, std=0.1)
            p[a + "self_attn.k_norm.weight"] = normal(hd, mean=1.0, std=0.1)
        p[a + "post_attention_layernorm.weight"] = normal(d, mean=1.0, std=0.1)
        p[a + "mlp.gate_proj.weight"] = normal(inner, d)
        p[a + "mlp.up_proj.weight"] = normal(inner, d)
        p[a + "mlp.down_proj.weight"] = normal(d, inner, std=0.1)
    p["model.norm.weight"] = normal(d, mean=1.0, std=0.1)
    if not cfg["tie_word_embeddings"]:
        p["lm_head.weight"] = normal(vocab, d, std=0.3)
    return p


def rms_norm(x, w, eps):
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * w


def inv_freq(cfg):
    """theta^(-2j/d), scaled as transformers' modeling_rope_utils computes it."""
    d = head_dim(cfg)
    freq = cfg["rope_theta"] ** -(np.arange(0, d, 2, dtype=np.float64) / d)
    scaling = cfg.get("rope_scaling") or {}
    kind = scaling.get("rope_type", scaling.get("type"))
    if kind == "linear":
        return freq / scaling["factor"]
    if kind == "llama3":
        factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
        old = scaling["original_max_position_embeddings"]
        wavelen = 2 * np.pi / freq
        scaled = np.where(wavelen > old / low, freq / factor, freq)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < old / high) & ~(wavelen > old / low)
        return np.where(medium, smoothed, scaled)
    return freq


def rope(x, cfg):
    """x (heads, n, d) turned by position: x cos + rotate_half(x) sin, pairs (j, j + d/2)."""
    n = x.shape[1]
    angles = np.outer(np.arange(n, dtype=np.float64), inv_freq(cfg))  # (n, d/2)
    cos, sin = np.cos(np.concatenate([angles, angles], -1)), np.sin(np.concatenate([angles, angles], -1))
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], -1)
    return x * cos + rotated * sin


def reference_forward(p, cfg, ids, z_hook=None, stream_hook=None, linear_input=None):
    """Every layer's attention (L, h, n, n) and the logits (n, vocab), in float64. z_hook(layer,
    z) may return a changed z (h, n, head_dim), the heads' outputs before o_proj;
    stream_hook(layer, x) sees the residual stream entering each layer, and (L, x) the one
    after the last, before the final norm. linear_input(t), when given, is what every linear
    layer (the projections, the MLP's three, the output head) multiplies instead of its input t:
    a bfloat16 pass rounds it."""
    p = {k: v.astype(np.float64) for k, v in p.items()}
    if linear_input is None:
        def linear_input(t):
            return t
    n, eps, hd = len(ids), cfg["rms_norm_eps"], head_dim(cfg)
    h, hkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    window = cfg.get("sliding_window") if cfg.get("use_sliding_window", True) else None
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    hidden = (j > i) | ((i - j >= window) if window else False)
    x = p["model.embed_tokens.weight"][ids]
    attentions = []
    for layer in range(cfg["num_hidden_layers"]):
        if stream_hook is not None:
            stream_hook(layer, x)
        a = f"model.layers.{layer}."

        def proj(name, t):
            y = linear_input(t) @ p[a + f"self_attn.{name}_proj.weight"].T
            return y + p.get(a + f"self_attn.{name}_proj.bias", 0.0)

        t = rms_norm(x, p[a + "input_layernorm.weight"], eps)
        q = proj("q", t).reshape(n, h, hd).transpose(1, 0, 2)
        k = proj("k", t).reshape(n, hkv, hd).transpose(1, 0, 2)
        v = proj("v", t).reshape(n, hkv, hd).transpose(1, 0, 2)
        if a + "self_attn.q_norm.weight" in p:
            q = rms_norm(q, p[a + "self_attn.q_norm.weight"], eps)
            k = rms_norm(k, p[a + "self_attn.k_norm.weight"], eps)
        q, k = rope(q, cfg), rope(k, cfg)
        k, v = np.repeat(k, h // hkv, axis=0), np.repeat(v, h // hkv, axis=0)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
        s[:, hidden] = -np.inf
        e = np.exp(s - s.max(-1, keepdims=True))
        att = e / e.sum(-1, keepdims=True)
        attentions.append(att)
        z = att @ v
        if z_hook is not None:
            z = z_hook(layer, z)
        out = z.transpose(1, 0, 2).reshape(n, h * hd)
        x = x + linear_input(out) @ p[a + "self_attn.o_proj.weight"].T
        m = linear_input(rms_norm(x, p[a + "post_attention_layernorm.weight"], eps))
        gate = m @ p[a + "mlp.gate_proj.weight"].T
        x = x + linear_input(gate / (1 + np.exp(-gate)) * (m @ p[a + "mlp.up_proj.weight"].T)) @ \
            p[a + "mlp.down_proj.weight"].T
    if stream_hook is not None:
        stream_hook(cfg["num_hidden_layers"], x)
    x = linear_input(rms_norm(x, p["model.norm.weight"], eps))
    head = p["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else p["lm_head.weight"]
    return np.stack(attentions), x @ head.T


def write_case(out, name, cfg, merges, encoder, seed):
    folder = os.path.join(out, name)
    vocab = gpt2.write_tokenizer(folder, merges)
    cfg = dict(cfg, vocab_size=len(vocab))
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    weights = random_weights(cfg, seed)
    if name == "llama_sharded":
        first = {k: v for k, v in weights.items() if not k.startswith(("model.layers.1.", "lm_head", "model.norm"))}
        second = {k: v for k, v in weights.items() if k not in first}
        weight_map = {}
        for shard, part in (("model-00001-of-00002.safetensors", first),
                            ("model-00002-of-00002.safetensors", second)):
            gpt2.write_safetensors(os.path.join(folder, shard), part, "BF16")
            weight_map.update({k: shard for k in part})
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {}, "weight_map": dict(sorted(weight_map.items()))}, f, indent=2)
    else:
        gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, "F32")
    golden = {}
    for k, text in enumerate(TEXTS):
        ids = encoder.encode(text)
        att, logits = reference_forward(weights, cfg, ids)
        golden[f"ids_{k}"] = np.array(ids, np.int64)
        golden[f"attention_{k}"] = att.astype(np.float32)
        golden[f"logits_{k}"] = logits.astype(np.float32)
    np.savez(os.path.join(folder, "golden.npz"), **golden)


def main(out):
    merges = gpt2.train_merges(gpt2.CORPUS, 100)
    vocab = gpt2.write_tokenizer(os.path.join(out, "llama_gqa"), merges)
    encoder = gpt2.Encoder(vocab, merges)
    for seed, (name, cfg) in enumerate(CASES.items()):
        write_case(out, name, cfg, merges, encoder, 2023 + seed)
    with open(os.path.join(out, "golden_texts.json"), "w", encoding="utf-8") as f:
        json.dump(TEXTS, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(ARGS.out)
