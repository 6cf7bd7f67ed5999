#!/usr/bin/python3
"""Gradient goldens of HeadLens's trainable decoder, from PyTorch's autograd in float64.

For each option set (attention-only without LayerNorm, as the toy tasks train; with
LayerNorm; with a GELU MLP; GPT-2's whole block with a tied unembedding) a small model
(2 layers, 2 heads, d_model 16, vocabulary 11, 6 positions) gets seeded weights rounded to
float32 (so HeadLens reads them exactly), a batch of 2 sequences of 5 tokens with some
positions unscored (-1), and PyTorch computes the mean cross-entropy and the gradient of every
parameter with torch.autograd. The model is written here from its definition (Vaswani et al.
2017; GPT-2's pre-LayerNorm block, GELU's tanh form), not from HeadLens's code.

Writes DIR/golden/lm_gradients_<options>.npz for --out DIR, read by tst_lmgradients:
    /usr/bin/python3 scripts/make_lm_gradient_goldens.py --out tests/data
Members: "config" (layers, heads, d_model, vocabulary, max_length, layer_norm, mlp, tied,
count, length), "tokens", "targets", "loss", "param/<name>" and "grad/<name>" per parameter,
named as ToyParameters::views() names them.
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

LAYERS, HEADS, D, VOCAB, MAXLEN = 2, 2, 16, 11, 6  # d_model 16: the smallest HeadLens takes
COUNT, LENGTH = 2, 5
TOKENS = [[3, 0, 10, 3, 7], [1, 4, 4, 9, 2]]
TARGETS = [[0, -1, 3, 7, 5], [4, 4, -1, 2, 8]]

# name -> (options that need it)
OPTIONS = {
    "attention_only": dict(layer_norm=False, mlp=False, tied=False),
    "layernorm": dict(layer_norm=True, mlp=False, tied=False),
    "mlp": dict(layer_norm=False, mlp=True, tied=False),
    "gpt2_tied": dict(layer_norm=True, mlp=True, tied=True),
}


def parameter_shapes(opts):
    """(name, shape) in ToyParameters::views() order."""
    shapes = [("token_embedding.weight", (VOCAB, D)), ("position_embedding.weight", (MAXLEN, D))]
    for layer in range(LAYERS):
        p = f"layers.{layer}."
        if opts["layer_norm"]:
            shapes += [(p + "ln.weight", (D,)), (p + "ln.bias", (D,))]
        shapes += [(p + "attn.in_proj_weight", (3 * D, D)), (p + "attn.in_proj_bias", (3 * D,)),
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


def forward(P, opts, tokens):
    """Mean cross-entropy over the scored positions of the batch."""
    x = P["token_embedding.weight"][tokens] + P["position_embedding.weight"][:LENGTH]
    dk = D // HEADS
    causal = torch.ones(LENGTH, LENGTH, dtype=torch.bool).tril()

    def norm(y, name):
        if not opts["layer_norm"]:
            return y
        return F.layer_norm(y, (D,), P[name + ".weight"], P[name + ".bias"], eps=1e-5)

    for layer in range(LAYERS):
        p = f"layers.{layer}."
        h = norm(x, p + "ln")
        qkv = h @ P[p + "attn.in_proj_weight"].T + P[p + "attn.in_proj_bias"]
        q, k, v = qkv.split(D, dim=-1)
        split = [t.view(COUNT, LENGTH, HEADS, dk).transpose(1, 2) for t in (q, k, v)]
        scores = split[0] @ split[1].transpose(-1, -2) / np.sqrt(dk)
        weights = scores.masked_fill(~causal, float("-inf")).softmax(-1)
        heads = (weights @ split[2]).transpose(1, 2).reshape(COUNT, LENGTH, D)
        x = x + heads @ P[p + "attn.out_proj.weight"].T + P[p + "attn.out_proj.bias"]
        if opts["mlp"]:
            h = norm(x, p + "mlp_ln")
            a = F.gelu(h @ P[p + "mlp.fc.weight"].T + P[p + "mlp.fc.bias"], approximate="tanh")
            x = x + a @ P[p + "mlp.proj.weight"].T + P[p + "mlp.proj.bias"]
    x = norm(x, "final_ln")
    if opts["tied"]:
        logits = x @ P["token_embedding.weight"].T
    else:
        logits = x @ P["unembedding.weight"].T + P["unembedding.bias"]
    targets = torch.tensor(TARGETS)
    return F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), ignore_index=-1)


def golden(name, opts, seed):
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
    config = [LAYERS, HEADS, D, VOCAB, MAXLEN, opts["layer_norm"], opts["mlp"], opts["tied"],
              COUNT, LENGTH]
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
    for seed, (name, opts) in enumerate(OPTIONS.items()):
        path = os.path.join(folder, f"lm_gradients_{name}.npz")
        np.savez(path, **golden(name, opts, 100 + seed))
        print("wrote", path)


if __name__ == "__main__":
    main()
