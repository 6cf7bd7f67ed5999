#!/usr/bin/env python3
"""Writes tests/data/golden/*.npz: nn.MultiheadAttention's own results for tst_pytorchgolden.

Each file holds one case: the layer's state_dict under PyTorch's names (in_proj_weight or
q/k/v_proj_weight, in_proj_bias, out_proj.weight, out_proj.bias), the inputs (query (b, n, E),
key_value (b, n_kv, kdim) for cross-attention, key_padding_mask (b, n_kv) bool, True = ignored),
num_heads and causal as 0-d arrays, and what PyTorch computed: output (b, n, E) and per-head
attn_weights (b, h, n, n_kv). The C++ test rebuilds the layer from the file and must match
within 1e-4 relative, so it needs no Python.

Biases are set to non-zero random values (PyTorch initialises them to zero, which would leave
the bias path untested). Padding is on the right and causal masks keep key 0, so no query row is
fully masked (PyTorch returns NaN there).

Regenerate (CPU, deterministic; Debian: apt install python3-torch python3-numpy):
    /usr/bin/python3 scripts/make_goldens.py
"""
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "golden")

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
    save = np.savez_compressed if compressed else np.savez
    save(os.path.join(OUT, name + ".npz"), **arrays)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(20240607)
    for case in CASES:
        make_case(*case)


if __name__ == "__main__":
    main()
