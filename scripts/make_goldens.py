#!/usr/bin/python3
"""Writes the .npz files of tests/data/golden/ into --out DIR: nn.MultiheadAttention's own results for tst_pytorchgolden.

Each file holds one case: the layer's state_dict under PyTorch's names (in_proj_weight or
q/k/v_proj_weight, in_proj_bias, out_proj.weight, out_proj.bias), the inputs (query (b, n, E),
key_value (b, n_kv, kdim) for cross-attention, key_padding_mask (b, n_kv) bool, True = ignored),
num_heads and causal as 0-d arrays, and what PyTorch computed: output (b, n, E) and per-head
attn_weights (b, h, n, n_kv). The C++ test rebuilds the layer from the file and must match
within 1e-4 relative, so it needs no Python.

Beside them, the intermediates under the names headlens-cli --export-dir gives its files, made by
the same PyTorch functions the layer calls (F._in_projection_packed or F._in_projection): q, k,
v (b, n or n_kv, E) after the input projections with their biases; scores (b, h, n, n_kv) =
Q_i K_i^T / sqrt(d_k) per head, before any mask; context (b, h, n, d_k) = attn_weights V_i. The
script checks that out_proj of the concatenated context gives the layer's output.

Biases are set to non-zero random values (PyTorch initialises them to zero, which would leave
the bias path untested). Padding is on the right and causal masks keep key 0, so no query row is
fully masked (PyTorch returns NaN there).

Regenerate (CPU, deterministic; Debian: apt install python3-torch python3-numpy):
    /usr/bin/python3 scripts/make_goldens.py --out tests/data/golden
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

# name, E, h, b, n, n_kv (None = self-attention), kdim (None = E), bias, causal, key lengths,
# compressed (alternate so both zip member kinds are exercised)
CASES = [
    ("self_bias", 8, 2, 1, 5, None, None, True, False, None, False),
    ("self_nobias", 8, 2, 2, 4, None, None, False, False, None, True),
    ("causal", 12, 3, 1, 6, None, None, True, True, None, False),
    ("padding", 8, 4, 2, 5, None, None, True, False, [5, 3], True),
    ("causal_padding", 16, 4, 2, 7, None, None, True, True, [7, 4], False),
    ("cross_padding", 8, 2, 2, 3, 6, None, True, False, [6, 4], True),
    ("cross_kdim", 12, 3, 1, 4, 5, 10, True, False, None, False),
]


def split_heads(mha, query, key_value, weights):
    """q, k, v, scores and context of `mha`, as nn.functional.multi_head_attention_forward
    computes them (torch 1.13), with `weights` the per-head attention weights it returned."""
    F = torch.nn.functional
    with torch.no_grad():
        if mha._qkv_same_embed_dim:
            q, k, v = F._in_projection_packed(query, key_value, key_value, mha.in_proj_weight,
                                              mha.in_proj_bias)
        else:
            b_q, b_k, b_v = (mha.in_proj_bias.chunk(3) if mha.in_proj_bias is not None
                             else (None, None, None))
            q, k, v = F._in_projection(query, key_value, key_value, mha.q_proj_weight,
                                       mha.k_proj_weight, mha.v_proj_weight, b_q, b_k, b_v)
        b, n, E = q.shape
        h = mha.num_heads
        d_k = E // h

        def heads(t):  # (b, m, E) -> (b, h, m, d_k)
            return t.reshape(b, t.shape[1], h, d_k).transpose(1, 2)

        scores = heads(q) @ heads(k).transpose(-2, -1) / math.sqrt(d_k)
        context = weights @ heads(v)
    return {"q": q, "k": k, "v": v, "scores": scores, "context": context}


def make_case(name, E, h, b, n, n_kv, kdim, bias, causal, lengths, compressed):
    cross = n_kv is not None
    n_kv = n_kv if cross else n
    mha = torch.nn.MultiheadAttention(embed_dim=E, num_heads=h, bias=bias, batch_first=True,
                                      kdim=kdim, vdim=kdim)
    mha.eval()
    with torch.no_grad():
        for param_name, param in mha.named_parameters():
            if "bias" in param_name:
                param.uniform_(-0.5, 0.5)

    query = torch.randn(b, n, E)
    key_value = torch.randn(b, n_kv, kdim or E) if cross else query
    padding = None
    if lengths is not None:
        padding = torch.arange(n_kv)[None, :] >= torch.tensor(lengths)[:, None]
    attn_mask = torch.triu(torch.ones(n, n_kv, dtype=torch.bool), diagonal=1) if causal else None

    # Autograd stays on so PyTorch takes its reference (non-fused) path.
    output, weights = mha(query, key_value, key_value, key_padding_mask=padding,
                          attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
    output, weights = output.detach(), weights.detach()
    assert not torch.isnan(output).any() and not torch.isnan(weights).any(), name
    intermediates = split_heads(mha, query, key_value, weights)
    concat = intermediates["context"].transpose(1, 2).reshape(b, n, E)
    assert torch.allclose(mha.out_proj(concat).detach(), output, rtol=1e-5, atol=1e-6), name

    arrays = {k: v.detach().numpy().astype(np.float32) for k, v in mha.state_dict().items()}
    arrays["query"] = query.numpy()
    if cross:
        arrays["key_value"] = key_value.numpy()
    if padding is not None:
        arrays["key_padding_mask"] = padding.numpy()
    arrays["causal"] = np.array(causal)
    arrays["num_heads"] = np.array(h, dtype=np.int64)
    arrays["output"] = output.numpy()
    arrays["attn_weights"] = weights.numpy()
    for key, value in intermediates.items():
        arrays[key] = value.numpy().astype(np.float32)
    save = np.savez_compressed if compressed else np.savez
    save(os.path.join(OUT, name + ".npz"), **arrays)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(20240607)
    for case in CASES:
        make_case(*case)


if __name__ == "__main__":
    OUT = ARGS.out
    main()
