#!/usr/bin/python3
"""Head importance and patching-map goldens for the tiny GPT-2 and the tiny Llama (GQA).

Runs the committed float64 reference forwards of make_gpt2_tiny.py and make_llama_tiny.py with a
hook on z (each head's weighted sum of values, before the output projection), as HeadLens's
interventions act: importance = mean next-token cross-entropy with one head's z zeroed minus the
clean one; patching = (m_patched - m_corrupt) / (m_clean - m_corrupt) with m = logit(answer) -
logit(wrong) at the last position, the clean run's z of one head put into the corrupted run.
Reads the committed checkpoints in tests/data and writes DIR/<family>/<folder>/interventions.npz
for --out DIR (read by tst_interventiongolden from tests/data):
    /usr/bin/python3 scripts/make_intervention_goldens.py --out tests/data
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data")

import numpy as np  # noqa: E402

import make_gpt2_tiny as gpt2  # noqa: E402
import make_llama_tiny as llama  # noqa: E402

CASES = [("gpt2/tiny", gpt2.reference_forward, "n_layer", "n_head"),
         ("llama/llama_gqa", llama.reference_forward, "num_hidden_layers", "num_attention_heads")]
CLEAN = [12, 40, 7, 99, 31, 64, 5, 77, 18]
CORRUPT = [12, 40, 7, 55, 31, 64, 5, 77, 18]  # one token changed, the same length
ANSWER, WRONG = 33, 90


def read_safetensors(path):
    with open(path, "rb") as f:
        size = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(size))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", name
        begin, end = info["data_offsets"]
        out[name] = np.frombuffer(data[begin:end], np.float32).reshape(info["shape"])
    return out


def loss(logits, ids):
    shifted = logits[:-1] - logits[:-1].max(-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    return -logp[np.arange(len(ids) - 1), ids[1:]].mean()


def metric(logits):
    return logits[-1, ANSWER] - logits[-1, WRONG]


def make(out, folder, forward, layers_key, heads_key):
    base = os.path.join(gpt2.ROOT, "tests", "data", folder)
    cfg = json.load(open(os.path.join(base, "config.json")))
    p = read_safetensors(os.path.join(base, "model.safetensors"))
    layers, heads = cfg[layers_key], cfg[heads_key]
    clean_loss = loss(forward(p, cfg, CLEAN)[1], CLEAN)
    importance = np.zeros((layers, heads))
    for layer in range(layers):
        for head in range(heads):
            def zero(l, z, layer=layer, head=head):
                if l == layer:
                    z = z.copy()
                    z[head] = 0.0
                return z
            importance[layer, head] = loss(forward(p, cfg, CLEAN, zero)[1], CLEAN) - clean_loss
    recorded = {}

    def record(l, z):
        recorded[l] = z.copy()
        return z
    m_clean = metric(forward(p, cfg, CLEAN, record)[1])
    m_corrupt = metric(forward(p, cfg, CORRUPT)[1])
    patching = np.zeros((layers, heads))
    for layer in range(layers):
        for head in range(heads):
            def patch(l, z, layer=layer, head=head):
                if l == layer:
                    z = z.copy()
                    z[head] = recorded[l][head]
                return z
            m = metric(forward(p, cfg, CORRUPT, patch)[1])
            patching[layer, head] = (m - m_corrupt) / (m_clean - m_corrupt)
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    np.savez(os.path.join(out, folder, "interventions.npz"), clean=np.array(CLEAN, np.int64),
             corrupt=np.array(CORRUPT, np.int64), answer=np.array([ANSWER, WRONG], np.int64),
             importance=importance.astype(np.float32), clean_loss=np.array([clean_loss]),
             patching=patching.astype(np.float32), metrics=np.array([m_clean, m_corrupt]))
    print(folder, "clean loss", clean_loss, "metrics", m_clean, m_corrupt)
    print(np.round(importance, 4), np.round(patching, 4), sep="\n")


if __name__ == "__main__":
    for case in CASES:
        make(ARGS.out, *case)
