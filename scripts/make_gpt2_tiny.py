#!/usr/bin/python3
"""make_gpt2_tiny.py: a tiny random GPT-2 checkpoint in Hugging Face's exact layout, plus goldens.

Writes tests/data/gpt2/ (committed, well under 1.5 MB):
  tiny/           config.json, model.safetensors (F32, with the h.{i}.attn.bias buffers that real
                  checkpoints carry), vocab.json, merges.txt, golden.npz
  tiny_f16/       the same weights stored as F16
  tiny_bf16/      the same weights stored as BF16
  tiny_prefixed/  F32 with the `transformer.` prefix GPT2LMHeadModel checkpoints use
  tiny_sharded/   BF16 in two shards listed by model.safetensors.index.json (Hugging Face's
                  sharded layout): layer 0 and the embeddings in one, the rest in the other
  realids/        vocab.json + merges.txt whose tokens for "Hello", "ĠHello", "Ġworld" and ","
                  carry GPT-2's real ids (15496, 18435, 995, 11)
  bpe_golden.json reference encodings of varied texts with tiny/'s vocabulary

Every weight is rounded so that F32, F16 and BF16 hold exactly the same number: all three
checkpoints must then give bit-identical models and the one set of goldens.

The goldens come from an independent NumPy (float64) GPT-2 forward written below, following
Radford et al. 2019 and Hugging Face's modeling_gpt2.py; the tokenizer reference is OpenAI's
gpt-2/src/encoder.py logic with the `regex` module (Debian: apt-get install python3-regex).

    /usr/bin/python3 scripts/make_gpt2_tiny.py --out tests/data/gpt2
    /usr/bin/python3 scripts/make_gpt2_tiny.py --gpt2-small /tmp/gpt2-random   # benchmark only
"""
import json
import os
import struct
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402


def gpt2_small_option(parser):
    parser.add_argument("--gpt2-small", metavar="DIR",
                        help="write a random GPT-2 small there instead (benchmark only)")


if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/gpt2", required=False, extra=gpt2_small_option)
    if not ARGS.out and not ARGS.gpt2_small:
        sys.exit("make_gpt2_tiny.py: give --out DIR (the committed files: --out tests/data/gpt2) "
                 "or --gpt2-small DIR; see --help.")

import numpy as np  # noqa: E402
import regex as re  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PATTERN = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
EOT = "<|endoftext|>"


def bytes_to_unicode():
    """encoder.py's table: printable bytes map to themselves, the rest to U+0100 onwards."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


BYTE_ENCODER = bytes_to_unicode()
BYTE_TOKENS = list(BYTE_ENCODER.values())  # GPT-2's ids 0..255 are in this order ("!" = 0)


class Encoder:
    """OpenAI gpt-2/src/encoder.py, with <|endoftext|> split off first as one token."""

    def __init__(self, encoder, merges):
        self.encoder = encoder
        self.bpe_ranks = dict(zip(merges, range(len(merges))))

    def bpe(self, token):
        word = tuple(token)
        pairs = set(zip(word, word[1:]))
        if not pairs:
            return token
        while True:
            bigram = min(pairs, key=lambda pair: self.bpe_ranks.get(pair, float("inf")))
            if bigram not in self.bpe_ranks:
                break
            first, second = bigram
            new_word = []
            i = 0
            while i < len(word):
                try:
                    j = word.index(first, i)
                except ValueError:
                    new_word.extend(word[i:])
                    break
                new_word.extend(word[i:j])
                i = j
                if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                    new_word.append(first + second)
                    i += 2
                else:
                    new_word.append(word[i])
                    i += 1
            word = tuple(new_word)
            if len(word) == 1:
                break
            pairs = set(zip(word, word[1:]))
        return " ".join(word)

    def encode(self, text):
        ids = []
        for k, part in enumerate(text.split(EOT)):
            if k > 0:
                ids.append(self.encoder[EOT])
            for token in re.findall(PATTERN, part):
                token = "".join(BYTE_ENCODER[b] for b in token.encode("utf-8"))
                ids.extend(self.encoder[t] for t in self.bpe(token).split(" "))
        return ids


def train_merges(corpus, count):
    """A few BPE merges learned from `corpus` (most frequent pair first, ties by text)."""
    words = Counter("".join(BYTE_ENCODER[b] for b in w.encode("utf-8"))
                    for w in re.findall(PATTERN, corpus))
    split = {w: list(w) for w in words}
    merges = []
    for _ in range(count):
        pairs = Counter()
        for w, n in words.items():
            s = split[w]
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        merges.append(best)
        for w in words:
            s, out, i = split[w], [], 0
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == best:
                    out.append(s[i] + s[i + 1])
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            split[w] = out
    return merges


CORPUS = ("Hello world. Hello, world! The cat sat on the mat. The dog's ball isn't here; "
          "they're sure we'll see 12 cats and 345 dogs. Café crème, naïve résumé. "
          "attention heads attend to the previous token and the first token. " * 3)


def write_tokenizer(folder, merges, extra_ids=None):
    vocab = {t: i for i, t in enumerate(BYTE_TOKENS)}
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
    vocab.update(extra_ids or {})
    vocab[EOT] = max(vocab.values()) + 1
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    return vocab


def exact_in_all_dtypes(w):
    """Round to BF16 (8 significant bits) and flush what F16 cannot hold exactly to zero."""
    bits = w.astype(np.float32).view(np.uint32)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    w = bits.view(np.float32)
    w = np.where(np.abs(w) < 2.0 ** -14, 0.0, w).astype(np.float32)
    assert np.all(w.astype(np.float16).astype(np.float32) == w)
    return w


def random_weights(cfg, seed):
    rng = np.random.default_rng(seed)
    d, inner, L = cfg["n_embd"], 4 * cfg["n_embd"], cfg["n_layer"]

    def normal(*shape, std=0.2, mean=0.0):
        return exact_in_all_dtypes(mean + std * rng.standard_normal(shape))

    p = {"wte.weight": normal(cfg["vocab_size"], d, std=0.5),
         "wpe.weight": normal(cfg["n_positions"], d, std=0.3)}
    for i in range(L):
        h = f"h.{i}."
        p[h + "ln_1.weight"] = normal(d, mean=1.0, std=0.1)
        p[h + "ln_1.bias"] = normal(d, std=0.1)
        p[h + "attn.c_attn.weight"] = normal(d, 3 * d, std=0.35)
        p[h + "attn.c_attn.bias"] = normal(3 * d, std=0.1)
        p[h + "attn.c_proj.weight"] = normal(d, d)
        p[h + "attn.c_proj.bias"] = normal(d, std=0.1)
        p[h + "ln_2.weight"] = normal(d, mean=1.0, std=0.1)
        p[h + "ln_2.bias"] = normal(d, std=0.1)
        p[h + "mlp.c_fc.weight"] = normal(d, inner)
        p[h + "mlp.c_fc.bias"] = normal(inner, std=0.1)
        p[h + "mlp.c_proj.weight"] = normal(inner, d, std=0.1)
        p[h + "mlp.c_proj.bias"] = normal(d, std=0.1)
    p["ln_f.weight"] = normal(d, mean=1.0, std=0.1)
    p["ln_f.bias"] = normal(d, std=0.1)
    return p


def write_safetensors(path, tensors, dtype, prefix="", buffers=0, n_positions=0):
    """The safetensors layout: u64 header size, JSON header, then the tensors back to back."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    items = [(prefix + k, v) for k, v in tensors.items()]
    for i in range(buffers):  # the causal-mask buffer HF keeps in every attention layer
        mask = np.tril(np.ones((n_positions, n_positions), np.float32))[None, None]
        items.append((f"{prefix}h.{i}.attn.bias", mask))
    for name, value in items:
        value = np.ascontiguousarray(value, np.float32)
        if dtype == "F16":
            blob = value.astype("<f2").tobytes()
        elif dtype == "BF16":
            blob = (value.view(np.uint32) >> 16).astype("<u2").tobytes()
        else:
            blob = value.astype("<f4").tobytes()
        header[name] = {"dtype": dtype, "shape": list(value.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def write_sharded(folder, weights, cfg, merges):
    """BF16 weights in two shards and the index naming each tensor's shard, as
    transformers' save_pretrained(max_shard_size=...) writes them."""
    write_tokenizer(folder, merges)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    first = {k: v for k, v in weights.items() if not k.startswith(("h.1.", "ln_f."))}
    second = {k: v for k, v in weights.items() if k not in first}
    shards = [("model-00001-of-00002.safetensors", first),
              ("model-00002-of-00002.safetensors", second)]
    weight_map = {}
    for name, part in shards:
        write_safetensors(os.path.join(folder, name), part, "BF16")
        weight_map.update({k: name for k in part})
    index = {"metadata": {"total_size": 2 * sum(v.size for v in weights.values())},
             "weight_map": dict(sorted(weight_map.items()))}
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump(index, f, indent=2)


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu_tanh(x):
    """GPT-2's GELU (Hendrycks & Gimpel 2016, tanh approximation; HF "gelu_new")."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def reference_forward(p, cfg, ids, z_hook=None, stream_hook=None):
    """GPT-2 in float64: returns every layer's attention (L, h, n, n) and logits (n, vocab).
    z_hook(layer, z) may return a changed z (h, n, d_k), the heads' outputs before c_proj
    (scripts/make_intervention_goldens.py ablates and patches there); stream_hook(layer, x)
    sees the residual stream (n, d) entering each layer, and stream_hook(L, x) the one after
    the last, before ln_f (scripts/make_lens_goldens.py)."""
    p = {k: v.astype(np.float64) for k, v in p.items()}
    n, d, H, eps = len(ids), cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    dk = d // H
    x = p["wte.weight"][ids] + p["wpe.weight"][np.arange(n)]
    causal = np.triu(np.ones((n, n), bool), 1)
    attentions = []
    for i in range(cfg["n_layer"]):
        if stream_hook is not None:
            stream_hook(i, x)
        h = f"h.{i}."
        a = layer_norm(x, p[h + "ln_1.weight"], p[h + "ln_1.bias"], eps)
        q, k, v = np.split(a @ p[h + "attn.c_attn.weight"] + p[h + "attn.c_attn.bias"], 3, -1)
        heads = []
        layer_att = []
        for j in range(H):
            sl = slice(j * dk, (j + 1) * dk)
            s = q[:, sl] @ k[:, sl].T / np.sqrt(dk)
            s[causal] = -np.inf
            e = np.exp(s - s.max(-1, keepdims=True))
            att = e / e.sum(-1, keepdims=True)
            layer_att.append(att)
            heads.append(att @ v[:, sl])
        attentions.append(np.stack(layer_att))
        if z_hook is not None:
            heads = list(z_hook(i, np.stack(heads)))
        x = x + np.concatenate(heads, -1) @ p[h + "attn.c_proj.weight"] + p[h + "attn.c_proj.bias"]
        m = layer_norm(x, p[h + "ln_2.weight"], p[h + "ln_2.bias"], eps)
        m = gelu_tanh(m @ p[h + "mlp.c_fc.weight"] + p[h + "mlp.c_fc.bias"])
        x = x + m @ p[h + "mlp.c_proj.weight"] + p[h + "mlp.c_proj.bias"]
    if stream_hook is not None:
        stream_hook(cfg["n_layer"], x)
    x = layer_norm(x, p["ln_f.weight"], p["ln_f.bias"], eps)
    return np.stack(attentions), x @ p["wte.weight"].T


GOLDEN_TEXTS = ["Hello world", "The cat's 12 mats.\n", " Hello, world! They're here."]
BPE_TEXTS = [
    "Hello world", " Hello world", "Hello, world", "The cat sat on the mat.",
    "they're sure we'll see it; isn't it? I'm, you'd, we've", "12 cats and 345 dogs, 3.14159",
    "many     spaces   here  ", "line one\nline two\n\n\tindented\r\n", "Café crème, naïve résumé",
    "e\u0301 decomposed", "我爱你，世界。日本語のテキスト", "emoji 👍🏽 and 👨‍👩‍👧 family 🇫🇷",
    "end<|endoftext|>start", "\u00a0nbsp and\u3000ideographic space", "x" * 40 + "!!!?",
    "",
]


def make_tiny(out):
    merges = train_merges(CORPUS, 100)
    cfg = {"model_type": "gpt2", "activation_function": "gelu_new", "n_layer": 2, "n_head": 2,
           "n_embd": 16, "n_positions": 32, "n_ctx": 32, "layer_norm_epsilon": 1e-5}
    base = os.path.join(out, "tiny")
    vocab = write_tokenizer(base, merges)
    cfg["vocab_size"] = len(vocab)
    encoder = Encoder(vocab, merges)
    weights = random_weights(cfg, seed=2019)
    variants = {"tiny": ("F32", ""), "tiny_f16": ("F16", ""), "tiny_bf16": ("BF16", ""),
                "tiny_prefixed": ("F32", "transformer.")}
    for name, (dtype, prefix) in variants.items():
        folder = os.path.join(out, name)
        write_tokenizer(folder, merges)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
        write_safetensors(os.path.join(folder, "model.safetensors"), weights, dtype, prefix,
                          buffers=cfg["n_layer"] if name == "tiny" else 0,
                          n_positions=cfg["n_positions"])
    write_sharded(os.path.join(out, "tiny_sharded"), weights, cfg, merges)
    golden = {}
    for k, text in enumerate(GOLDEN_TEXTS):
        ids = encoder.encode(text)
        att, logits = reference_forward(weights, cfg, ids)
        golden[f"ids_{k}"] = np.array(ids, np.int64)
        golden[f"attention_{k}"] = att.astype(np.float32)
        golden[f"logits_{k}"] = logits.astype(np.float32)
    np.savez(os.path.join(base, "golden.npz"), **golden)
    with open(os.path.join(out, "golden_texts.json"), "w", encoding="utf-8") as f:
        json.dump(GOLDEN_TEXTS, f, ensure_ascii=False, indent=1)
    cases = [{"text": t, "ids": encoder.encode(t)} for t in BPE_TEXTS]
    with open(os.path.join(out, "bpe_golden.json"), "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)

    # GPT-2's real ids for four tokens: "Hello" 15496, "ĠHello" 18435, "Ġworld" 995, "," 11 (a
    # byte token, so 11 by bytes_to_unicode's order). The merges build exactly these words.
    real = [("H", "e"), ("l", "l"), ("He", "ll"), ("Hell", "o"), ("Ġ", "w"), ("o", "r"),
            ("Ġw", "or"), ("l", "d"), ("Ġwor", "ld"), ("Ġ", "Hello")]
    vocab = write_tokenizer(os.path.join(out, "realids"), real,
                            {"Hello": 15496, "ĠHello": 18435, "Ġworld": 995})
    assert vocab[","] == 11 and Encoder(vocab, real).encode("Hello, world") == [15496, 11, 995]


def make_gpt2_small(out):
    """Random weights in GPT-2 small's shapes (124M) for the benchmark; not for committing."""
    cfg = {"model_type": "gpt2", "activation_function": "gelu_new", "n_layer": 12, "n_head": 12,
           "n_embd": 768, "n_positions": 1024, "n_ctx": 1024, "layer_norm_epsilon": 1e-5,
           "vocab_size": 50257}
    rng = np.random.default_rng(124)
    merges, seen, tokens = [], set(BYTE_TOKENS), list(BYTE_TOKENS[:94])  # printable ASCII
    while len(merges) < 50000:
        a, b = tokens[rng.integers(len(tokens))], tokens[rng.integers(len(tokens))]
        if len(a) + len(b) <= 12 and a + b not in seen:
            merges.append((a, b))
            seen.add(a + b)
            tokens.append(a + b)
    write_tokenizer(out, merges)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    d = 768
    p = {"wte.weight": 0.02 * rng.standard_normal((50257, d), np.float32),
         "wpe.weight": 0.01 * rng.standard_normal((1024, d), np.float32)}
    for i in range(12):
        h = f"h.{i}."
        for name, shape in [("ln_1.weight", (d,)), ("ln_1.bias", (d,)),
                            ("attn.c_attn.weight", (d, 3 * d)), ("attn.c_attn.bias", (3 * d,)),
                            ("attn.c_proj.weight", (d, d)), ("attn.c_proj.bias", (d,)),
                            ("ln_2.weight", (d,)), ("ln_2.bias", (d,)),
                            ("mlp.c_fc.weight", (d, 4 * d)), ("mlp.c_fc.bias", (4 * d,)),
                            ("mlp.c_proj.weight", (4 * d, d)), ("mlp.c_proj.bias", (d,))]:
            p[h + name] = 0.02 * rng.standard_normal(shape, np.float32)
    p["ln_f.weight"] = np.ones(d, np.float32)
    p["ln_f.bias"] = np.zeros(d, np.float32)
    write_safetensors(os.path.join(out, "model.safetensors"), p, "F32", buffers=12,
                      n_positions=1024)


if __name__ == "__main__":
    if ARGS.gpt2_small:
        os.makedirs(ARGS.gpt2_small, exist_ok=True)
        make_gpt2_small(ARGS.gpt2_small)
    else:
        make_tiny(ARGS.out)
