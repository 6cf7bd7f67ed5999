#!/usr/bin/python3
"""make_bert_tiny.py: tiny random encoder checkpoints (BERT, RoBERTa, DistilBERT) in Hugging
Face's exact layouts, and goldens from an independent float64 NumPy forward pass written from
the papers (Devlin et al. 2019; Liu et al. 2019; Sanh et al. 2019).

Writes into --out DIR what tests/data/bert/ holds (committed, small):
  bert_mlm/        bert: "bert." prefix, MLM head cls.predictions.* with the decoder tied to the
                   word embeddings (not stored, as save_pretrained drops tied tensors),
                   tokenizer.json (BertNormalizer, BertPreTokenizer, WordPiece, [CLS]/[SEP]
                   template) and the same vocabulary as vocab.txt, F32
  bert_bare/       bert: no prefix, no MLM head (a bare BertModel), the older LayerNorm
                   gamma/beta names, F16; vocab.txt only
  roberta_mlm/     roberta: "roberta." prefix, lm_head.*, positions from padding_idx + 1,
                   type_vocab_size 1, vocab.json + merges.txt (byte-level BPE), BF16
  distilbert_mlm/  distilbert: q_lin ... out_lin, sa_layer_norm, ffn.lin1/lin2,
                   output_layer_norm, no token types, vocab_transform / vocab_layer_norm /
                   vocab_projector; vocab.txt only, F32
Each folder's golden.npz holds, for each case k (texts in golden_texts.json): ids_k and
types_k (what the model reads), attention_k (L, h, n, n) and mlm_k (n, vocab) the MLM logits
of every position (absent without a head); and a padded batch of the single texts: batch_ids
(B, n_max), batch_mask (B, n_max), batch_attention (B, L, h, n_max, n_max), batch_mlm.

The reference follows transformers' modeling_bert.py / modeling_roberta.py /
modeling_distilbert.py semantics, not HeadLens's code: word + position (+ token type)
embeddings and LayerNorm; per layer post-norm x = LN(x + attn(x)), x = LN(x + ffn(x)) with the
exact (erf) GELU; bidirectional attention, padded keys masked (the extended attention mask);
MLM logits = LN(gelu(dense(x))) E^T + bias. The tokenizers here are minimal Python versions of
BERT's basic + WordPiece tokenizer and RoBERTa's byte-level BPE (make_gpt2_tiny.Encoder), for
the goldens' ids; the tokenizers themselves are tested against Hugging Face's elsewhere.

    /usr/bin/python3 scripts/make_bert_tiny.py --out tests/data/bert
    (needs python3-numpy and python3-regex)
"""
import json
import math
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/bert")

import numpy as np  # noqa: E402

import make_gpt2_tiny as gpt2  # noqa: E402  (byte-level BPE, safetensors writer, rounding)

MASK = "{mask}"  # written as the family's mask token
SINGLES = ["The cat sat on the {mask} .", "Hello, world! The dog ran."]
PAIR = ("The cat sat on the mat.", "The dog ran {mask}!")

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "hello", "world", "##s", "##at", "##og"]
PUNCTUATION = list(".,!?;'")
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
WORDPIECE_VOCAB = list(dict.fromkeys(SPECIALS + PUNCTUATION + WORDS + LETTERS +
                                     ["##" + c for c in LETTERS]))  # "##s" once


# --- tokenizers ------------------------------------------------------------------------------

def basic_tokenize(text):
    """BERT's BasicTokenizer for lower-cased ASCII and accents: lower case, strip accents,
    split on whitespace and around punctuation; [MASK] kept whole."""
    pieces = []
    for k, part in enumerate(text.split("[MASK]")):
        if k:
            pieces.append("[MASK]")
        part = unicodedata.normalize("NFD", part.lower())
        part = "".join(c for c in part if unicodedata.category(c) != "Mn")
        for word in part.split():
            current = ""
            for c in word:
                if unicodedata.category(c).startswith("P"):
                    pieces += [current] if current else []
                    pieces.append(c)
                    current = ""
                else:
                    current += c
            pieces += [current] if current else []
    return pieces


def wordpiece(word, vocab):
    """Greedy longest-match-first, "##" on continuations, [UNK] when a piece is missing."""
    if word in vocab:
        return [vocab[word]]
    out, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = ("##" if start else "") + word[start:end]
            if piece in vocab:
                out.append(vocab[piece])
                break
            end -= 1
        if end == start:
            return [vocab["[UNK]"]]
        start = end
    return out


class WordPieceTokenizer:
    mask = "[MASK]"

    def __init__(self):
        self.vocab = {t: i for i, t in enumerate(WORDPIECE_VOCAB)}
        self.cls, self.sep, self.pad = self.vocab["[CLS]"], self.vocab["[SEP]"], self.vocab["[PAD]"]

    def words(self, text):
        return [i for w in basic_tokenize(text) for i in wordpiece(w, self.vocab)]

    def encode(self, a, b=None):
        ids = [self.cls] + self.words(a) + [self.sep]
        types = [0] * len(ids)
        if b is not None:
            second = self.words(b) + [self.sep]
            ids, types = ids + second, types + [1] * len(second)
        return ids, types


class RobertaTokenizer:
    """Byte-level BPE with <s> A </s> (</s> B </s>); "<mask>" is an added token with lstrip."""
    mask = "<mask>"

    def __init__(self, gpt2_vocab, merges):
        tokens = [t for t, _ in sorted(gpt2_vocab.items(), key=lambda kv: kv[1]) if t != gpt2.EOT]
        self.vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
        for t in tokens:
            self.vocab[t] = len(self.vocab)
        self.vocab["<mask>"] = len(self.vocab)
        self.bpe = gpt2.Encoder(self.vocab, merges)
        self.cls, self.sep, self.pad = 0, 2, 1

    def words(self, text):
        ids = []
        for k, part in enumerate(text.split("<mask>")):
            if k:
                ids.append(self.vocab["<mask>"])
            if k + 1 < len(text.split("<mask>")):
                part = part.rstrip()  # lstrip: the mask takes the spaces before it
            ids += self.bpe.encode(part) if part else []
        return ids

    def encode(self, a, b=None):
        ids = [self.cls] + self.words(a) + [self.sep]
        if b is not None:
            ids += [self.sep] + self.words(b) + [self.sep]
        return ids, [0] * len(ids)  # RoBERTa's tokenizer returns no token_type_ids


# --- weights ---------------------------------------------------------------------------------

def normal_maker(seed):
    rng = np.random.default_rng(seed)

    def normal(*shape, std=0.2, mean=0.0):
        return gpt2.exact_in_all_dtypes(mean + std * rng.standard_normal(shape))
    return normal


def bert_weights(cfg, seed, prefix, head, legacy_norms=False, mlm_prefix="cls.predictions."):
    """BertModel (+ BertForMaskedLM's cls.predictions) or RobertaModel (+ lm_head) tensors."""
    normal = normal_maker(seed)
    d, inner, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    w_name, b_name = ("gamma", "beta") if legacy_norms else ("weight", "bias")
    p = {}

    def norm(name):
        p[name + "." + w_name] = normal(d, mean=1.0, std=0.1)
        p[name + "." + b_name] = normal(d, std=0.1)

    def linear(name, rows, cols, std=0.3):
        p[name + ".weight"] = normal(rows, cols, std=std)
        p[name + ".bias"] = normal(rows, std=0.1)

    e = prefix + "embeddings."
    p[e + "word_embeddings.weight"] = normal(vocab, d, std=0.5)
    p[e + "position_embeddings.weight"] = normal(cfg["max_position_embeddings"], d, std=0.3)
    p[e + "token_type_embeddings.weight"] = normal(cfg["type_vocab_size"], d, std=0.3)
    norm(e + "LayerNorm")
    for i in range(cfg["num_hidden_layers"]):
        a = f"{prefix}encoder.layer.{i}."
        for name in ("query", "key", "value"):
            linear(a + "attention.self." + name, d, d, std=0.35)
        linear(a + "attention.output.dense", d, d)
        norm(a + "attention.output.LayerNorm")
        linear(a + "intermediate.dense", inner, d)
        linear(a + "output.dense", d, inner, std=0.15)
        norm(a + "output.LayerNorm")
    linear(prefix + "pooler.dense", d, d)  # present in real checkpoints, unused by HeadLens
    if head == "bert":
        linear(mlm_prefix + "transform.dense", d, d)
        norm(mlm_prefix + "transform.LayerNorm")
        p[mlm_prefix + "bias"] = normal(vocab, std=0.1)
    elif head == "roberta":
        linear("lm_head.dense", d, d)
        norm("lm_head.layer_norm")
        p["lm_head.bias"] = normal(vocab, std=0.1)
    return p


def distilbert_weights(cfg, seed):
    normal = normal_maker(seed)
    d, inner, vocab = cfg["dim"], cfg["hidden_dim"], cfg["vocab_size"]
    p = {}

    def norm(name):
        p[name + ".weight"] = normal(d, mean=1.0, std=0.1)
        p[name + ".bias"] = normal(d, std=0.1)

    def linear(name, rows, cols, std=0.3):
        p[name + ".weight"] = normal(rows, cols, std=std)
        p[name + ".bias"] = normal(rows, std=0.1)

    p["distilbert.embeddings.word_embeddings.weight"] = normal(vocab, d, std=0.5)
    p["distilbert.embeddings.position_embeddings.weight"] = normal(
        cfg["max_position_embeddings"], d, std=0.3)
    norm("distilbert.embeddings.LayerNorm")
    for i in range(cfg["n_layers"]):
        a = f"distilbert.transformer.layer.{i}."
        for name in ("q_lin", "k_lin", "v_lin", "out_lin"):
            linear(a + "attention." + name, d, d, std=0.35)
        norm(a + "sa_layer_norm")
        linear(a + "ffn.lin1", inner, d)
        linear(a + "ffn.lin2", d, inner, std=0.15)
        norm(a + "output_layer_norm")
    linear("vocab_transform", d, d)
    norm("vocab_layer_norm")
    p["vocab_projector.bias"] = normal(vocab, std=0.1)
    return p


# --- the reference forward pass --------------------------------------------------------------

def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


ERF = np.vectorize(math.erf)


def gelu(x):
    """The exact GELU (Hendrycks & Gimpel 2016): x Phi(x) = x (1 + erf(x / sqrt 2)) / 2."""
    return 0.5 * x * (1.0 + ERF(x / math.sqrt(2.0)))


class Layout:
    """Where one family keeps each tensor, so one reference runs all three."""

    def __init__(self, family, prefix):
        self.family, self.prefix = family, prefix
        if family == "distilbert":
            e, blk = "distilbert.embeddings.", "distilbert.transformer.layer.{i}."
            self.q, self.k, self.v = (blk + "attention." + n for n in ("q_lin", "k_lin", "v_lin"))
            self.o, self.norm1 = blk + "attention.out_lin", blk + "sa_layer_norm"
            self.up, self.down, self.norm2 = blk + "ffn.lin1", blk + "ffn.lin2", blk + "output_layer_norm"
            self.mlm = ("vocab_transform", "vocab_layer_norm", "vocab_projector.bias")
        else:
            e, blk = prefix + "embeddings.", prefix + "encoder.layer.{i}."
            self.q, self.k, self.v = (blk + "attention.self." + n for n in ("query", "key", "value"))
            self.o, self.norm1 = blk + "attention.output.dense", blk + "attention.output.LayerNorm"
            self.up, self.down = blk + "intermediate.dense", blk + "output.dense"
            self.norm2 = blk + "output.LayerNorm"
            self.mlm = (("lm_head.dense", "lm_head.layer_norm", "lm_head.bias") if family == "roberta"
                        else ("cls.predictions.transform.dense", "cls.predictions.transform.LayerNorm",
                              "cls.predictions.bias"))
        self.words, self.positions = e + "word_embeddings.weight", e + "position_embeddings.weight"
        self.types, self.embedding_norm = e + "token_type_embeddings.weight", e + "LayerNorm"


def reference_forward(p, cfg, layout, ids, types, mask, stream_hook=None):
    """ids, types, mask (B, n). Returns attention (B, L, h, n, n) and MLM logits (B, n, vocab)
    (None without a head), float64. stream_hook(layer, x, head) sees the hidden states (B, n, d)
    entering each layer and (L, x, head) after the last, with head(x) the MLM head's logits of
    any such states (scripts/make_lens_goldens.py)."""
    p = {k.replace(".gamma", ".weight").replace(".beta", ".bias"): v.astype(np.float64)
         for k, v in p.items()}
    distil = layout.family == "distilbert"
    L = cfg["n_layers"] if distil else cfg["num_hidden_layers"]
    h = cfg["n_heads"] if distil else cfg["num_attention_heads"]
    eps = 1e-12 if distil else cfg["layer_norm_eps"]
    B, n = ids.shape
    d = p[layout.words].shape[1]
    dk = d // h

    def lin(name, t, layer=0):
        name = name.format(i=layer)
        return t @ p[name + ".weight"].T + p[name + ".bias"]

    def ln(name, t, layer=0):
        name = name.format(i=layer)
        return layer_norm(t, p[name + ".weight"], p[name + ".bias"], eps)

    if layout.family == "roberta":  # create_position_ids_from_input_ids
        pad = cfg["pad_token_id"]
        positions = np.cumsum(mask, 1) * mask + pad
    else:
        positions = np.broadcast_to(np.arange(n), (B, n))
    x = p[layout.words][ids] + p[layout.positions][positions]
    if not distil:
        x = x + p[layout.types][types]
    x = ln(layout.embedding_norm, x)
    hidden = (mask == 0)[:, None, None, :]  # (B, 1, 1, n): padded keys
    attentions = []
    dense, norm, bias = layout.mlm

    def mlm_head(t):
        return ln(norm, gelu(lin(dense, t))) @ p[layout.words].T + p[bias]
    for layer in range(L):
        if stream_hook is not None:
            stream_hook(layer, x, mlm_head)

        def heads(t):
            return t.reshape(B, n, h, dk).transpose(0, 2, 1, 3)
        q, k, v = (heads(lin(name, x, layer)) for name in (layout.q, layout.k, layout.v))
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dk)
        s = np.where(hidden, -np.inf, s)
        e = np.exp(s - s.max(-1, keepdims=True))
        att = e / e.sum(-1, keepdims=True)
        attentions.append(att)
        context = (att @ v).transpose(0, 2, 1, 3).reshape(B, n, d)
        x = ln(layout.norm1, x + lin(layout.o, context, layer), layer)
        x = ln(layout.norm2, x + lin(layout.down, gelu(lin(layout.up, x, layer)), layer), layer)
    if stream_hook is not None:
        stream_hook(L, x, mlm_head)
    attention = np.stack(attentions, 1)
    if bias not in p:
        return attention, None
    return attention, mlm_head(x)


# --- the folders -----------------------------------------------------------------------------

def write_json(folder, name, value):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1)


def write_vocab_txt(folder):
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in WORDPIECE_VOCAB))


def write_bert_tokenizer_json(folder, vocab):
    """tokenizer.json as transformers' BertConverter writes it for bert-base-uncased."""
    def special(name):
        return {"SpecialToken": {"id": name, "type_id": 0}}

    def sequence(name, type_id):
        return {"Sequence": {"id": name, "type_id": type_id}}

    sep1 = {"SpecialToken": {"id": "[SEP]", "type_id": 1}}
    write_json(folder, "tokenizer.json", {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True} for t in SPECIALS],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special("[CLS]"), sequence("A", 0), special("[SEP]")],
            "pair": [special("[CLS]"), sequence("A", 0), special("[SEP]"), sequence("B", 1), sep1],
            "special_tokens": {t: {"id": t, "ids": [vocab[t]], "tokens": [t]}
                               for t in ("[CLS]", "[SEP]")}},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab}})


def cases(tokenizer):
    """(ids, types) of each single text and of the pair, the family's mask token written in."""
    fill = (lambda t: t.replace(MASK, tokenizer.mask))
    return [tokenizer.encode(fill(t)) for t in SINGLES] + [tokenizer.encode(*map(fill, PAIR))]


def write_goldens(folder, weights, cfg, layout, tokenizer):
    golden = {}
    encoded = cases(tokenizer)
    for k, (ids, types) in enumerate(encoded):
        att, mlm = reference_forward(weights, cfg, layout, np.array([ids]), np.array([types]),
                                     np.ones((1, len(ids)), np.int64))
        golden[f"ids_{k}"] = np.array(ids, np.int64)
        golden[f"types_{k}"] = np.array(types, np.int64)
        golden[f"attention_{k}"] = att[0].astype(np.float32)
        if mlm is not None:
            golden[f"mlm_{k}"] = mlm[0].astype(np.float32)
    singles = encoded[:len(SINGLES)]
    width = max(len(ids) for ids, _ in singles)
    ids = np.full((len(singles), width), tokenizer.pad, np.int64)
    mask = np.zeros_like(ids)
    for b, (row, _) in enumerate(singles):
        ids[b, :len(row)], mask[b, :len(row)] = row, 1
    att, mlm = reference_forward(weights, cfg, layout, ids, np.zeros_like(ids), mask)
    golden.update(batch_ids=ids, batch_mask=mask, batch_attention=att.astype(np.float32))
    if mlm is not None:
        golden["batch_mlm"] = mlm.astype(np.float32)
    np.savez(os.path.join(folder, "golden.npz"), **golden)


def bert_config(vocab_size, **extra):
    cfg = {"architectures": ["BertForMaskedLM"], "model_type": "bert", "hidden_act": "gelu",
           "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
           "intermediate_size": 48, "max_position_embeddings": 40, "type_vocab_size": 2,
           "layer_norm_eps": 1e-12, "pad_token_id": 0, "position_embedding_type": "absolute",
           "vocab_size": vocab_size}
    cfg.update(extra)
    return cfg


def main(out):
    wp = WordPieceTokenizer()

    folder = os.path.join(out, "bert_mlm")
    os.makedirs(folder, exist_ok=True)
    cfg = bert_config(len(WORDPIECE_VOCAB))
    weights = bert_weights(cfg, 2031, "bert.", "bert")
    write_json(folder, "config.json", cfg)
    write_vocab_txt(folder)
    write_bert_tokenizer_json(folder, wp.vocab)
    gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, "F32")
    write_goldens(folder, weights, cfg, Layout("bert", "bert."), wp)

    folder = os.path.join(out, "bert_bare")
    os.makedirs(folder, exist_ok=True)
    cfg = bert_config(len(WORDPIECE_VOCAB), architectures=["BertModel"])
    weights = bert_weights(cfg, 2032, "", None, legacy_norms=True)
    write_json(folder, "config.json", cfg)
    write_vocab_txt(folder)
    gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, "F16")
    write_goldens(folder, weights, cfg, Layout("bert", ""), wp)

    folder = os.path.join(out, "roberta_mlm")
    os.makedirs(folder, exist_ok=True)
    merges = gpt2.train_merges(gpt2.CORPUS, 100)
    gpt2_vocab = gpt2.write_tokenizer(folder, merges)  # replaced below by RoBERTa's ids
    rt = RobertaTokenizer(gpt2_vocab, merges)
    write_json(folder, "vocab.json", rt.vocab)
    cfg = bert_config(len(rt.vocab), architectures=["RobertaForMaskedLM"], model_type="roberta",
                      max_position_embeddings=42, type_vocab_size=1, pad_token_id=1,
                      bos_token_id=0, eos_token_id=2, layer_norm_eps=1e-5)
    weights = bert_weights(cfg, 2033, "roberta.", "roberta")
    write_json(folder, "config.json", cfg)
    gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, "BF16")
    write_goldens(folder, weights, cfg, Layout("roberta", "roberta."), rt)

    folder = os.path.join(out, "distilbert_mlm")
    os.makedirs(folder, exist_ok=True)
    cfg = {"architectures": ["DistilBertForMaskedLM"], "model_type": "distilbert",
           "activation": "gelu", "n_layers": 2, "n_heads": 4, "dim": 32, "hidden_dim": 48,
           "max_position_embeddings": 40, "vocab_size": len(WORDPIECE_VOCAB), "pad_token_id": 0,
           "sinusoidal_pos_embds": False}
    weights = distilbert_weights(cfg, 2034)
    write_json(folder, "config.json", cfg)
    write_vocab_txt(folder)
    gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), weights, "F32")
    write_goldens(folder, weights, cfg, Layout("distilbert", ""), wp)

    texts = {"singles": SINGLES, "pair": list(PAIR), "mask": MASK}
    write_json(out, "golden_texts.json", texts)


if __name__ == "__main__":
    main(ARGS.out)
