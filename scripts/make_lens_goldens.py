#!/usr/bin/python3
"""Logit lens and direct logit attribution goldens for the tiny GPT-2, Llama (GQA), Qwen3 and BERT.

Runs the committed float64 reference forwards of make_gpt2_tiny.py, make_llama_tiny.py and
make_bert_tiny.py (each first checked against the logits its golden.npz holds) with a hook on
the residual stream and one on z (each head's output before the output projection), and
computes from the papers, not from HeadLens's code:

  logit lens (nostalgebraist 2020): stage s = 0..L reads the stream entering layer s (stage L:
    after the last layer) through the final norm and the unembedding (BERT: the MLM head, at
    the mask tokens): per stage and position the top token and the probability of the token
    the model finally predicts there.
  direct logit attribution (Elhage et al. 2021, TransformerLens's decompose_resid): at the
    last position, with the final norm's scale frozen from the run, each part of the final
    stream (embeddings; per layer each head's z_h W_O,h, the output bias, the MLP) read
    through the norm and dotted with W_U[token] - W_U[wrong], token the model's top
    prediction and wrong its second.
  value norms (Kobayashi et al. 2020, "Attention is not only a weight"): per layer, head and
    token j, ||f_h(x_j)|| with f_h(x) = (x W_V + b_V)_h W_O,h, x what the layer's attention
    reads (the stream through its first norm; BERT's post-norm block reads the stream itself),
    a head of a key/value group reading its group's v.
  circuits (Elhage et al. 2021) of the last layer's second head, biases left out, on the
    text's distinct ids in order: W_QK = W_Q,h W_K,h^T and W_OV = W_V,h W_O,h (row vectors),
    their singular values, E W_QK E^T / sqrt(d_k), E W_OV U^T, and the copying score
    sum Re λ / sum |λ| of the latter's eigenvalues.

Writes DIR/<family>/<folder>/lens.npz for --out DIR (read by tst_transformerlens):
    /usr/bin/python3 scripts/make_lens_goldens.py --out tests/data
(needs python3-numpy and python3-regex)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data")

import numpy as np  # noqa: E402

import make_bert_tiny as bert  # noqa: E402
import make_gpt2_tiny as gpt2  # noqa: E402
import make_intervention_goldens as interventions  # noqa: E402  (read_safetensors)
import make_llama_tiny as llama  # noqa: E402

TEXT = 1  # the golden.npz case whose ids every folder reads (its longer text)


def softmax(logits):
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def lens_of(streams, read):
    """(S, P) probability of the final top token at each stage, and (S, P) each stage's top."""
    final = read(streams[-1])
    final_tokens = final.argmax(-1)
    probability, top = [], []
    for x in streams:
        logits = read(x)
        probability.append(softmax(logits)[np.arange(len(final_tokens)), final_tokens])
        top.append(logits.argmax(-1))
    return np.array(probability), np.array(top), final


def attribution(streams, zs, w_o_blocks, biases, norm, direction):
    """Each part of the final stream at one row through the frozen norm, dotted with direction.
    norm = (kind, weight, bias, eps); w_o_blocks[l][h] (d_head, d) maps z_h to the stream."""
    kind, weight, norm_bias, eps = norm
    x = streams[-1]
    if kind == "layer":
        scale = 1.0 / np.sqrt(((x - x.mean()) ** 2).mean() + eps)

        def share(c):
            return ((c - c.mean()) * scale * weight) @ direction
    else:
        scale = 1.0 / np.sqrt((x ** 2).mean() + eps)

        def share(c):
            return (c * scale * weight) @ direction
    L, H = len(zs), zs[0].shape[0]
    heads, mlps, bias_shares = np.zeros((L, H)), np.zeros(L), np.zeros(L)
    for layer in range(L):
        written = biases[layer].copy()
        bias_shares[layer] = share(biases[layer])
        for head in range(H):
            c = zs[layer][head] @ w_o_blocks[layer][head]
            heads[layer, head] = share(c)
            written = written + c
        mlps[layer] = share(streams[layer + 1] - streams[layer] - written)
    normed_bias = norm_bias @ direction if norm_bias is not None else 0.0
    return heads, share(streams[0]), mlps, bias_shares, normed_bias


def value_norms(xs, values, w_o_blocks, groups):
    """(L, h, n): ||v_{j,g(h)} W_O,h|| for x = xs[l] (n, d), values(l, x) (n, h_kv, d_v) and
    w_o_blocks[l][h] (d_v, d); head h reads key/value group h // groups."""
    out = []
    for layer, x in enumerate(xs):
        v = values(layer, x)
        out.append([np.linalg.norm(v[:, h // groups] @ block, axis=1)
                    for h, block in enumerate(w_o_blocks[layer])])
    return np.array(out)


def circuits(w_q, w_k, w_v, w_o, e, u):
    """w_q, w_k, w_v (d, d_k), w_o (d_k, d): the head's maps on row vectors; e, u (T, d)."""
    qk, ov = w_q @ w_k.T, w_v @ w_o
    sv = lambda m: np.linalg.svd(m, compute_uv=False)[:w_q.shape[1]]  # noqa: E731
    qk_tokens = e @ qk @ e.T / np.sqrt(w_q.shape[1])
    ov_tokens = e @ ov @ u.T
    eig = np.linalg.eigvals(ov_tokens)
    return dict(circuit_qk_sv=sv(qk), circuit_ov_sv=sv(ov), circuit_qk=qk_tokens,
                circuit_ov=ov_tokens, circuit_copying=np.array([eig.real.sum() / np.abs(eig).sum()]))


def decoder_case(out, folder, forward, cfg_keys, parts):
    base = os.path.join(gpt2.ROOT, "tests", "data", folder)
    cfg = json.load(open(os.path.join(base, "config.json")))
    p = interventions.read_safetensors(os.path.join(base, "model.safetensors"))
    ids = list(np.load(os.path.join(base, "golden.npz"))[f"ids_{TEXT}"])
    streams, zs = {}, {}

    def keep_stream(layer, x):
        streams[layer] = x.copy()

    def keep_z(layer, z):
        zs[layer] = z.copy()
        return z
    _, logits = forward(p, cfg, ids, keep_z, keep_stream)
    golden = np.load(os.path.join(base, "golden.npz"))[f"logits_{TEXT}"]
    assert np.abs(logits - golden).max() < 1e-4, "the reference is not the goldens' model"
    L = cfg[cfg_keys[0]]
    distinct = list(dict.fromkeys(int(i) for i in ids))
    embed = p["wte.weight" if "wte.weight" in p else "model.embed_tokens.weight"].astype(np.float64)
    stream_list = [streams[s] for s in range(L + 1)]
    read, unembed, w_o_blocks, biases, norm, values, head_maps = parts(p, cfg)
    probability, top, final = lens_of(stream_list, read)
    assert np.abs(final - logits).max() < 1e-9  # the last stage is the model's output
    last = final[-1]
    token, wrong = np.argsort(-last, kind="stable")[:2]
    direction = unembed[token] - unembed[wrong]
    heads, emb, mlps, bias_shares, normed_bias = attribution(
        [s[-1] for s in stream_list], [z[:, -1] for z in (zs[l] for l in range(L))],
        w_o_blocks, biases, norm, direction)
    total = heads.sum() + emb + mlps.sum() + bias_shares.sum() + normed_bias
    assert abs(total - (last[token] - last[wrong])) < 1e-9, "the parts do not add up"
    write(out, folder, ids=np.array(ids, np.int64), positions=np.arange(len(ids)),
          lens_probability=probability, lens_top=top, dla_token=np.array([token, wrong]),
          dla_logit=np.array([last[token] - last[wrong]]), dla_heads=heads,
          dla_embeddings=np.array([emb]), dla_mlps=mlps, dla_biases=bias_shares,
          dla_norm_bias=np.array([normed_bias]),
          value_norms=value_norms([streams[s] for s in range(L)], values, w_o_blocks,
                                  len(w_o_blocks[0]) // values(0, streams[0]).shape[1]),
          circuit_ids=np.array(distinct, np.int64),
          **circuits(*head_maps(L - 1, 1), embed[distinct], unembed[distinct]))


def gpt2_parts(p, cfg):
    p = {k: v.astype(np.float64) for k, v in p.items()}
    H, d = cfg["n_head"], cfg["n_embd"]
    dk, eps = d // H, cfg["layer_norm_epsilon"]

    def read(x):
        return gpt2.layer_norm(x, p["ln_f.weight"], p["ln_f.bias"], eps) @ p["wte.weight"].T
    # Conv1D: out = z_flat @ c_proj.weight (h d_k, d), so head h's block is rows h d_k ...
    blocks = [[p[f"h.{i}.attn.c_proj.weight"][h * dk:(h + 1) * dk] for h in range(H)]
              for i in range(cfg["n_layer"])]
    biases = [p[f"h.{i}.attn.c_proj.bias"] for i in range(cfg["n_layer"])]

    def values(i, x):  # c_attn: qkv = ln_1(x) @ W + b, v its last d columns
        a = gpt2.layer_norm(x, p[f"h.{i}.ln_1.weight"], p[f"h.{i}.ln_1.bias"], eps)
        qkv = a @ p[f"h.{i}.attn.c_attn.weight"] + p[f"h.{i}.attn.c_attn.bias"]
        return qkv[:, 2 * d:].reshape(len(x), H, dk)
    def head_maps(i, h):  # c_attn's columns: q, k, v of every head, d each
        w = p[f"h.{i}.attn.c_attn.weight"]
        return (w[:, h * dk:(h + 1) * dk], w[:, d + h * dk:d + (h + 1) * dk],
                w[:, 2 * d + h * dk:2 * d + (h + 1) * dk], blocks[i][h])
    return (read, p["wte.weight"], blocks, biases,
            ("layer", p["ln_f.weight"], p["ln_f.bias"], eps), values, head_maps)


def llama_parts(p, cfg):
    p = {k: v.astype(np.float64) for k, v in p.items()}
    H, hd, eps = cfg["num_attention_heads"], llama.head_dim(cfg), cfg["rms_norm_eps"]
    unembed = p["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else p["lm_head.weight"]

    def read(x):
        return llama.rms_norm(x, p["model.norm.weight"], eps) @ unembed.T
    # nn.Linear: out = z_flat @ o_proj.weight.T (d, h hd), so head h's block is columns h hd ...
    blocks = [[p[f"model.layers.{i}.self_attn.o_proj.weight"][:, h * hd:(h + 1) * hd].T
               for h in range(H)] for i in range(cfg["num_hidden_layers"])]
    biases = [np.zeros(cfg["hidden_size"]) for _ in range(cfg["num_hidden_layers"])]

    def values(i, x):
        a = f"model.layers.{i}."
        t = llama.rms_norm(x, p[a + "input_layernorm.weight"], eps)
        v = t @ p[a + "self_attn.v_proj.weight"].T + p.get(a + "self_attn.v_proj.bias", 0.0)
        return v.reshape(len(x), cfg["num_key_value_heads"], hd)
    def head_maps(i, h):  # nn.Linear rows: head h's q, its group's k and v
        a, g = f"model.layers.{i}.self_attn.", h // (H // cfg["num_key_value_heads"])
        rows = lambda name, k: p[a + name + ".weight"][k * hd:(k + 1) * hd].T  # noqa: E731
        return rows("q_proj", h), rows("k_proj", g), rows("v_proj", g), blocks[i][h]
    return (read, unembed, blocks, biases, ("rms", p["model.norm.weight"], None, eps), values,
            head_maps)


def bert_case(out, folder, layout):
    base = os.path.join(gpt2.ROOT, "tests", "data", folder)
    cfg = json.load(open(os.path.join(base, "config.json")))
    p = interventions.read_safetensors(os.path.join(base, "model.safetensors"))
    golden = np.load(os.path.join(base, "golden.npz"))
    ids, types = golden["ids_0"], golden["types_0"]  # case 0 holds a [MASK]
    mask_id = bert.WORDPIECE_VOCAB.index("[MASK]")
    positions = np.flatnonzero(ids == mask_id)
    assert len(positions) > 0
    streams, head = {}, {}

    def keep_stream(layer, x, mlm_head):
        streams[layer] = x[0].copy()
        head["read"] = mlm_head
    _, mlm = bert.reference_forward(p, cfg, layout, ids[None], types[None],
                                    np.ones((1, len(ids)), np.int64), keep_stream)
    assert np.abs(mlm[0] - golden["mlm_0"]).max() < 1e-4, "the reference is not the goldens' model"
    L = cfg["num_hidden_layers"]
    probability, top, final = lens_of([streams[s][positions] for s in range(L + 1)], head["read"])
    assert np.abs(final - mlm[0][positions]).max() < 1e-9
    q = {k: v.astype(np.float64) for k, v in p.items()}
    H = cfg["num_attention_heads"]
    dk = cfg["hidden_size"] // H
    blocks = [[q[layout.o.format(i=i) + ".weight"][:, h * dk:(h + 1) * dk].T for h in range(H)]
              for i in range(L)]

    def values(i, x):  # post-norm: the block's attention reads the stream itself
        name = layout.v.format(i=i)
        return (x @ q[name + ".weight"].T + q[name + ".bias"]).reshape(len(x), H, dk)
    write(out, folder, ids=np.array(ids, np.int64), positions=positions.astype(np.int64),
          lens_probability=probability, lens_top=top,
          value_norms=value_norms([streams[s] for s in range(L)], values, blocks, 1))


def write(out, folder, **arrays):
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    converted = {k: (v.astype(np.float32) if v.dtype == np.float64 else v.astype(np.int64))
                 for k, v in arrays.items()}
    np.savez(os.path.join(out, folder, "lens.npz"), **converted)
    print(folder, {k: v.shape for k, v in converted.items()})
    print("  final probability by stage:", np.round(arrays["lens_probability"].mean(1), 4))


if __name__ == "__main__":
    decoder_case(ARGS.out, "gpt2/tiny", gpt2.reference_forward, ("n_layer",), gpt2_parts)
    for name in ("llama/llama_gqa", "llama/qwen3_qknorm"):
        decoder_case(ARGS.out, name, llama.reference_forward, ("num_hidden_layers",), llama_parts)
    bert_case(ARGS.out, "bert/bert_mlm", bert.Layout("bert", "bert."))
