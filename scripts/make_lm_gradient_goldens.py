#!/usr/bin/python3
"""Gradient goldens of HeadLens's trainable decoder, from PyTorch's autograd in float64.

For each option set (attention-only without LayerNorm, as the toy tasks train; with
LayerNorm; with a GELU MLP; GPT-2's whole block with a tied unembedding; rotary positions;
grouped-query attention; dropout; and all of those together) a small model (2 layers, 2 or
4 heads, d_model 16, vocabulary 11, 6 positions) gets seeded weights rounded to float32 (so
HeadLens reads them exactly), a batch of 2 sequences of 5 tokens with some positions unscored
(-1), and PyTorch computes the mean cross-entropy and the gradient of every parameter with
torch.autograd. The model is written here from its definition (Vaswani et al. 2017; GPT-2's
pre-LayerNorm block, GELU's tanh form; RoPE with Hugging Face's rotate_half; GQA with
transformers' repeat_kv), not from HeadLens's code.

Two things are HeadLens's own and so are restated here, from their documentation:
  - RoPE's cos/sin tables are float32 (RotaryEmbedding rounds them from double angles), so
    they are rounded here too;
  - dropout's masks are drawn by a counter-based hash (core/train/dropoutmask.h): element
    `index` of site `site` (0 attention weights, 1 attention output, 2 MLP output) of block
    `layer` is kept, times 1 / (1 - p), when
        uniform(index) = (splitmix64(key ^ splitmix64(index)) >> 40) / 2^24 < float32(1 - p)
        key = splitmix64(seed ^ splitmix64(stream + 0x9e3779b97f4a7c15))
        stream = splitmix64(step) + 3 * layer + site          (all mod 2^64)
    with the index the element's row-major place in the batch's (b, h, n, n) weights or
    (b, n, d_model) branch output.

Writes DIR/golden/lm_gradients_<options>.npz for --out DIR, read by tst_lmgradients:
    /usr/bin/python3 scripts/make_lm_gradient_goldens.py --out tests/data
Members: "config" (layers, heads, d_model, vocabulary, max_length, layer_norm, mlp, tied,
count, length, rope, kv_heads, dropout, dropout_seed, dropout_step), "tokens", "targets",
"loss", "param/<name>" and "grad/<name>" per parameter, named as ToyParameters::views()
names them.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

LAYERS, D, VOCAB, MAXLEN = 2, 16, 11, 6  # d_model 16: the smallest HeadLens takes
COUNT, LENGTH = 2, 5
TOKENS = [[3, 0, 10, 3, 7], [1, 4, 4, 9, 2]]
TARGETS = [[0, -1, 3, 7, 5], [4, 4, -1, 2, 8]]
ROPE_THETA = 10000.0
DROPOUT_SEED, DROPOUT_STEP = 7, 3  # a step other than 0, so the step must enter the draw

BASE = dict(layer_norm=False, mlp=False, tied=False, heads=2, rope=False, kv_heads=2, dropout=0.0)
# name -> the options that differ from BASE (new ones go last: each file's seed is its place)
OPTIONS = {
    "attention_only": dict(),
    "layernorm": dict(layer_norm=True),
    "mlp": dict(mlp=True),
    "gpt2_tied": dict(layer_norm=True, mlp=True, tied=True),
    "rope": dict(rope=True),
    "gqa": dict(heads=4, kv_heads=2),
    # With the MLP, so that both residual branches' dropout is checked.
    "dropout": dict(mlp=True, dropout=0.25),
    "rope_gqa_dropout": dict(layer_norm=True, mlp=True, tied=True, heads=4, kv_heads=2,
                             rope=True, dropout=0.25),
}

M64 = (1 << 64) - 1


def splitmix64(z):
    """util/counterrandom.h's CounterRandom::mix."""
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def dropout_factors(p, layer, site, shape):
    """DropoutMask::factors for the whole batch: 0 where dropped, 1 / (1 - p) where kept."""
    stream = (splitmix64(DROPOUT_STEP) + 3 * layer + site) & M64
    key = splitmix64(DROPOUT_SEED ^ splitmix64((stream + 0x9E3779B97F4A7C15) & M64))
    keep = np.float32(1.0) - np.float32(p)
    size = int(np.prod(shape))
    uniform = np.array([(splitmix64(key ^ splitmix64(i)) >> 40) / 2.0**24 for i in range(size)])
    factors = np.where(uniform < np.float64(keep), 1.0 / np.float64(keep), 0.0)
    return torch.tensor(factors.reshape(shape))


def rope_tables(dk):
    """cos and sin (LENGTH, dk) for rotate_half's layout: pair j is (j, j + dk/2)."""
    frequencies = ROPE_THETA ** (-2.0 * np.arange(dk // 2) / dk)
    angles = np.arange(LENGTH)[:, None] * frequencies[None, :]
    # HeadLens keeps the tables in float32.
    cos = np.cos(angles).astype(np.float32).astype(np.float64)
    sin = np.sin(angles).astype(np.float32).astype(np.float64)
    return (torch.tensor(np.concatenate([cos, cos], 1)),
            torch.tensor(np.concatenate([sin, sin], 1)))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def parameter_shapes(opts):
    """(name, shape) in ToyParameters::views() order."""
    qkv_rows = D + 2 * opts["kv_heads"] * (D // opts["heads"])
    shapes = [("token_embedding.weight", (VOCAB, D))]
    if not opts["rope"]:
        shapes += [("position_embedding.weight", (MAXLEN, D))]
    for layer in range(LAYERS):
        p = f"layers.{layer}."
        if opts["layer_norm"]:
            shapes += [(p + "ln.weight", (D,)), (p + "ln.bias", (D,))]
        shapes += [(p + "attn.in_proj_weight", (qkv_rows, D)),
                   (p + "attn.in_proj_bias", (qkv_rows,)),
                   (p + "attn.out_proj.weight", (D, D)), (p + "attn.out_proj.bias", (D,))]
        if opts["mlp"]:
            if opts["layer_norm"]:
                shapes += [(p + "mlp_ln.weight", (D,)), (p + "mlp_ln.bias", (D,))]
            shapes += [(p + "mlp.fc.weight", (4 * D, D)), (p + "mlp.fc.bias", (4 * D,)),
                       (p + "mlp.proj.weight", (D, 4 * D)), (p + "mlp.proj.bias", (D,))]
    if opts["layer_norm"]:
        shapes += [("final_ln.weight", (D,)), ("final_ln.bias", (D,))]
    if not opts["tied"]:
        shapes += [("unembedding.weight", (VOCAB, D)), ("unembedding.bias", (VOCAB,))]
    return shapes


def attention(P, opts, layer, h):
    """Causal self-attention of block `layer` on h (COUNT, LENGTH, D): the branch's output."""
    p = f"layers.{layer}."
    heads, kv_heads = opts["heads"], opts["kv_heads"]
    dk = D // heads
    qkv = h @ P[p + "attn.in_proj_weight"].T + P[p + "attn.in_proj_bias"]
    q, k, v = qkv.split([D, kv_heads * dk, kv_heads * dk], dim=-1)
    q = q.view(COUNT, LENGTH, heads, dk).transpose(1, 2)
    k, v = [t.view(COUNT, LENGTH, kv_heads, dk).transpose(1, 2) for t in (k, v)]
    if opts["rope"]:
        cos, sin = rope_tables(dk)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
    # repeat_kv: K/V head g serves query heads g * group .. (g + 1) * group - 1.
    k, v = [t.repeat_interleave(heads // kv_heads, dim=1) for t in (k, v)]
    causal = torch.ones(LENGTH, LENGTH, dtype=torch.bool).tril()
    scores = q @ k.transpose(-1, -2) / np.sqrt(dk)
    weights = scores.masked_fill(~causal, float("-inf")).softmax(-1)
    if opts["dropout"] > 0:
        weights = weights * dropout_factors(opts["dropout"], layer, 0, weights.shape)
    out = (weights @ v).transpose(1, 2).reshape(COUNT, LENGTH, D)
    out = out @ P[p + "attn.out_proj.weight"].T + P[p + "attn.out_proj.bias"]
    if opts["dropout"] > 0:
        out = out * dropout_factors(opts["dropout"], layer, 1, out.shape)
    return out


def forward(P, opts, tokens):
    """Mean cross-entropy over the scored positions of the batch."""
    x = P["token_embedding.weight"][tokens]
    if not opts["rope"]:
        x = x + P["position_embedding.weight"][:LENGTH]

    def norm(y, name):
        if not opts["layer_norm"]:
            return y
        return F.layer_norm(y, (D,), P[name + ".weight"], P[name + ".bias"], eps=1e-5)

    for layer in range(LAYERS):
        p = f"layers.{layer}."
        x = x + attention(P, opts, layer, norm(x, p + "ln"))
        if opts["mlp"]:
            h = norm(x, p + "mlp_ln")
            a = F.gelu(h @ P[p + "mlp.fc.weight"].T + P[p + "mlp.fc.bias"], approximate="tanh")
            out = a @ P[p + "mlp.proj.weight"].T + P[p + "mlp.proj.bias"]
            if opts["dropout"] > 0:
                out = out * dropout_factors(opts["dropout"], layer, 2, out.shape)
            x = x + out
    x = norm(x, "final_ln")
    if opts["tied"]:
        logits = x @ P["token_embedding.weight"].T
    else:
        logits = x @ P["unembedding.weight"].T + P["unembedding.bias"]
    targets = torch.tensor(TARGETS)
    return F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), ignore_index=-1)


def golden(opts, seed):
    rng = np.random.default_rng(seed)
    P = {}
    for pname, shape in parameter_shapes(opts):
        values = rng.uniform(-0.6, 0.6, size=shape)
        if pname.endswith("ln.weight"):
            values = 1.0 + values  # gamma near 1, as trained LayerNorms are
        # Rounded to float32: HeadLens reads .npz members as float, so it starts from the
        # same numbers exactly.
        P[pname] = torch.tensor(values.astype(np.float32).astype(np.float64), requires_grad=True)
    loss = forward(P, opts, torch.tensor(TOKENS))
    loss.backward()
    config = [LAYERS, opts["heads"], D, VOCAB, MAXLEN, opts["layer_norm"], opts["mlp"],
              opts["tied"], COUNT, LENGTH, opts["rope"], opts["kv_heads"], opts["dropout"],
              DROPOUT_SEED, DROPOUT_STEP]
    out = {"config": np.array(config, dtype=np.float64),
           "tokens": np.array(TOKENS, dtype=np.float64).reshape(-1),
           "targets": np.array(TARGETS, dtype=np.float64).reshape(-1),
           "loss": np.array([loss.item()])}
    for pname, tensor in P.items():
        out["param/" + pname] = tensor.detach().numpy()
        out["grad/" + pname] = tensor.grad.numpy()
    return out


def main():
    torch.set_default_dtype(torch.float64)
    folder = os.path.join(ARGS.out, "golden")
    os.makedirs(folder, exist_ok=True)
    for seed, (name, changes) in enumerate(OPTIONS.items()):
        path = os.path.join(folder, f"lm_gradients_{name}.npz")
        np.savez(path, **golden(dict(BASE, **changes), 100 + seed))
        print("wrote", path)


if __name__ == "__main__":
    main()
