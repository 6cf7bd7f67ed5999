#!/usr/bin/python3
"""NumPy and PyTorch timings of the shapes headlens-bench's core_forward, model_forward and
train_step suites measure.

For each (n, d_model, h) and thread count, the median wall time (and min/max) of
  numpy: a straightforward multi-head attention in float32 that keeps every head's weights
         (fused QKV projection, per-head softmax(Q K^T / sqrt(d_k)) V, output projection);
  torch: torch.nn.MultiheadAttention(d_model, h, batch_first=True) in eval mode, called with
         need_weights=True, average_attn_weights=False under torch.no_grad(),
with b = 1, self-attention, random input, repeated like headlens-bench does (one untimed run,
then until ~0.75 s and at least 5 runs; --quick: ~0.1 s and at least 3). For model_forward's
cases (GPT-2 small F32 at 64 and 1024 tokens, Qwen2.5-0.5B's shapes BF16 at 128 and 512) a
decoder forward written with torch ops from Hugging Face's formulas (no transformers package
needed), random weights, every layer's per-head attention weights kept (output_attentions)
and the last position's logits; a BF16 model is timed in bfloat16 and widened to float32. For
train_step's cases (the language-model presets tiny and small, batch 16) one AdamW training step
of the same GPT-2-style model written with torch ops (LanguageModelStep): a batch of windows,
forward, cross-entropy, backward, clip_grad_norm_ and torch.optim.AdamW's update; it runs in
one child per setting of train_settings() (pinned; OMP_WAIT_POLICY=passive; with AVX-512,
ATEN_CPU_CAPABILITY=avx512 and both) and HeadLens is compared with the fastest.

Each thread count runs in its own child process with OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and
MKL_NUM_THREADS set before numpy is imported (BLAS reads them only once, at load) and with
torch.set_num_threads. NumPy's and PyTorch's speed depend on the BLAS they load; the script
prints which (and warns about the unoptimised reference BLAS, Debian's default).

Usage (needs numpy and torch for /usr/bin/python3; exits 0 with a message otherwise):
    /usr/bin/python3 scripts/bench_reference.py [--quick] [--threads 1,2] [--suites train]
    /usr/bin/python3 scripts/bench_reference.py --headlens results.json
where results.json comes from `headlens-bench --json results.json`; the table then adds
HeadLens's median and the time ratios HeadLens / NumPy and HeadLens / PyTorch (below 1 means
HeadLens is faster). Where the environment sets OPENBLAS_CORETYPE or OPENBLAS_L2_SIZE, there is
one table with OpenBLAS as configured and one with OpenBLAS choosing its own kernel
(--openblas-env keep|unset for one of them).
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time

# The shapes of app/bench/coresuite.cpp (CoreSuite::shapes): (n, d_model, h).
SHAPES = [(16, 512, 8), (64, 512, 8), (128, 768, 12), (512, 768, 12), (1024, 768, 12),
          (2048, 1024, 16)]
QUICK_SHAPES = [(16, 512, 8), (128, 768, 12), (512, 768, 12)]


def repetition_policy(quick):
    """(target seconds, minimum runs, maximum runs), as BenchOptions::repetitionPolicy."""
    return (0.1, 3, 10000) if quick else (0.75, 5, 10000)


def measure(once, quick):
    """Median, min and max milliseconds of `once`, after one untimed warm-up run."""
    target, min_runs, max_runs = repetition_policy(quick)
    once()
    samples, total = [], 0.0
    while len(samples) < min_runs or (total < target and len(samples) < max_runs):
        start = time.perf_counter()
        once()
        elapsed = time.perf_counter() - start
        samples.append(elapsed * 1000.0)
        total += elapsed
    samples.sort()
    middle = len(samples) // 2
    median = samples[middle] if len(samples) % 2 else 0.5 * (samples[middle - 1] + samples[middle])
    return {"median_ms": median, "min_ms": samples[0], "max_ms": samples[-1],
            "repetitions": len(samples)}


def numpy_attention(np, x, w_in, b_in, w_out, b_out, h):
    """MultiHead(x, x, x) keeping the weights: returns (output (n, d_model), weights (h, n, n))."""
    n, d_model = x.shape
    d_k = d_model // h
    qkv = x @ w_in.T + b_in                                     # (n, 3 d_model)
    q, k, v = (t.reshape(n, h, d_k).transpose(1, 0, 2)          # (h, n, d_k) each
               for t in np.split(qkv, 3, axis=1))
    scores = (q @ k.transpose(0, 2, 1)) / np.float32(np.sqrt(d_k))  # (h, n, n)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    context = weights @ v                                       # (h, n, d_k)
    concat = context.transpose(1, 0, 2).reshape(n, d_model)     # (n, d_model)
    return concat @ w_out.T + b_out, weights


def time_numpy(np, shape, quick):
    n, d_model, h = shape
    rng = np.random.default_rng(0)
    f32 = np.float32
    x = rng.uniform(-1, 1, (n, d_model)).astype(f32)
    w_in = rng.uniform(-0.05, 0.05, (3 * d_model, d_model)).astype(f32)
    w_out = rng.uniform(-0.05, 0.05, (d_model, d_model)).astype(f32)
    b_in, b_out = np.zeros(3 * d_model, f32), np.zeros(d_model, f32)
    return measure(lambda: numpy_attention(np, x, w_in, b_in, w_out, b_out, h), quick)


def time_torch(torch, shape, quick):
    n, d_model, h = shape
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(d_model, h, batch_first=True).eval()
    x = torch.rand(1, n, d_model) * 2 - 1

    def once():
        with torch.no_grad():
            layer(x, x, x, need_weights=True, average_attn_weights=False)

    return measure(once, quick)


# The model_forward shapes of app/bench/modelsuite.cpp (ModelSuite::models): GPT-2 small in F32
# at 64 and 1024 tokens, Qwen2.5-0.5B's shapes in BF16 at 128 and 512 (quick: smaller models).
GPT2_SMALL = {"family": "gpt2", "layers": 12, "heads": 12, "kv_heads": 12, "d_model": 768,
              "mlp": 3072, "context": 1024, "vocab": 50257, "model": 1, "stored_bytes": 4}
QWEN25_SMALL = {"family": "qwen2", "layers": 24, "heads": 14, "kv_heads": 2, "d_model": 896,
                "mlp": 4864, "context": 32768, "vocab": 151936, "model": 2, "stored_bytes": 2}
MODEL_CASES = [(GPT2_SMALL, (64, 1024)), (QWEN25_SMALL, (128, 512))]
QUICK_MODEL_CASES = [(dict(GPT2_SMALL, layers=4, d_model=256, heads=4, kv_heads=4, mlp=1024),
                      (64,)),
                     (dict(QWEN25_SMALL, layers=4, vocab=32000), (128,))]


class ModelForward:
    """A decoder's forward pass written with torch ops from Hugging Face's formulas (GPT2Model /
    Qwen2Model in eager attention, config defaults), random N(0, 0.02) weights of the real shapes
    in `dtype`. Like headlens-bench's model_forward run it keeps every layer's per-head attention
    weights (output_attentions=True) and computes the logits of the last position only."""

    def __init__(self, torch, spec, dtype):
        self.torch, self.spec, self.dtype = torch, spec, dtype
        d, f, v = spec["d_model"], spec["mlp"], spec["vocab"]
        self.d_k = d // spec["heads"]
        kv = spec["kv_heads"] * self.d_k
        torch.manual_seed(0)

        def w(*shape):
            return (torch.randn(*shape) * 0.02).to(dtype)

        self.embed = w(v, d)  # tied output head in both families
        if spec["family"] == "gpt2":
            self.positions = w(spec["context"], d)
            self.layers = [{"ln1": (torch.ones(d, dtype=dtype), torch.zeros(d, dtype=dtype)),
                            "c_attn": (w(d, 3 * d), w(3 * d)), "c_proj": (w(d, d), w(d)),
                            "ln2": (torch.ones(d, dtype=dtype), torch.zeros(d, dtype=dtype)),
                            "c_fc": (w(d, f), w(f)), "mlp_proj": (w(f, d), w(d))}
                           for _ in range(spec["layers"])]
            self.final = (torch.ones(d, dtype=dtype), torch.zeros(d, dtype=dtype))
        else:
            self.layers = [{"norm1": torch.ones(d, dtype=dtype),
                            "q": (w(d, d), w(d)), "k": (w(kv, d), w(kv)), "v": (w(kv, d), w(kv)),
                            "o": w(d, d), "norm2": torch.ones(d, dtype=dtype),
                            "gate": w(f, d), "up": w(f, d), "down": w(d, f)}
                           for _ in range(spec["layers"])]
            self.final = torch.ones(d, dtype=dtype)

    def attend(self, q, k, v):
        """softmax(Q K^T / sqrt(d_k) + causal mask) V per head; returns context and weights."""
        torch = self.torch
        n = q.shape[-2]
        scores = (q @ k.transpose(-1, -2)) / (self.d_k ** 0.5)
        causal = torch.ones(n, n, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(causal, float("-inf"))
        # Qwen2's eager attention takes the softmax in float32, then casts back (as HF does).
        weights = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        return weights @ v, weights

    def gpt2(self, ids):
        torch, F, h = self.torch, self.torch.nn.functional, self.spec["heads"]
        n, d = ids.shape[0], self.spec["d_model"]
        x = self.embed[ids] + self.positions[:n]
        kept = []
        for L in self.layers:
            a = F.layer_norm(x, (d,), *L["ln1"], eps=1e-5)
            q, k, v = torch.addmm(L["c_attn"][1], a, L["c_attn"][0]).split(d, dim=1)
            heads = [t.view(n, h, self.d_k).transpose(0, 1) for t in (q, k, v)]
            context, weights = self.attend(*heads)
            kept.append(weights)
            x = x + torch.addmm(L["c_proj"][1], context.transpose(0, 1).reshape(n, d),
                                L["c_proj"][0])
            m = F.layer_norm(x, (d,), *L["ln2"], eps=1e-5)
            m = F.gelu(torch.addmm(L["c_fc"][1], m, L["c_fc"][0]), approximate="tanh")
            x = x + torch.addmm(L["mlp_proj"][1], m, L["mlp_proj"][0])
        x = F.layer_norm(x, (d,), *self.final, eps=1e-5)
        return x[-1:] @ self.embed.T, kept

    def rms(self, x, weight):
        variance = x.float().pow(2).mean(-1, keepdim=True)
        return weight * (x.float() * self.torch.rsqrt(variance + 1e-6)).to(x.dtype)

    def rotate(self, t, cos, sin):
        half = t.shape[-1] // 2
        rotated = self.torch.cat((-t[..., half:], t[..., :half]), dim=-1)
        return t * cos + rotated * sin

    def qwen2(self, ids):
        torch, F = self.torch, self.torch.nn.functional
        h, g, n, dk = self.spec["heads"], self.spec["kv_heads"], ids.shape[0], self.d_k
        x = self.embed[ids]
        inv = 1.0 / (1e6 ** (torch.arange(0, dk, 2, dtype=torch.float32) / dk))
        angles = torch.outer(torch.arange(n, dtype=torch.float32), inv)
        angles = torch.cat((angles, angles), dim=-1)
        cos, sin = angles.cos().to(self.dtype), angles.sin().to(self.dtype)
        kept = []
        for L in self.layers:
            a = self.rms(x, L["norm1"])
            q = F.linear(a, *L["q"]).view(n, h, dk).transpose(0, 1)
            k = F.linear(a, *L["k"]).view(n, g, dk).transpose(0, 1)
            v = F.linear(a, *L["v"]).view(n, g, dk).transpose(0, 1)
            q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
            k = k.repeat_interleave(h // g, dim=0)  # repeat_kv
            v = v.repeat_interleave(h // g, dim=0)
            context, weights = self.attend(q, k, v)
            kept.append(weights)
            x = x + F.linear(context.transpose(0, 1).reshape(n, h * dk), L["o"])
            m = self.rms(x, L["norm2"])
            x = x + F.linear(F.silu(F.linear(m, L["gate"])) * F.linear(m, L["up"]), L["down"])
        x = self.rms(x, self.final)
        return x[-1:] @ self.embed.T, kept

    def __call__(self, ids):
        with self.torch.no_grad():
            return self.gpt2(ids) if self.spec["family"] == "gpt2" else self.qwen2(ids)


def time_models(torch, threads, quick):
    """model_forward rows: each model in its stored dtype (GPT-2 F32, Qwen BF16) and, for a BF16
    model, also widened to float32 (HeadLens's run with its products in float32)."""
    rows = []
    for spec, lengths in (QUICK_MODEL_CASES if quick else MODEL_CASES):
        dtypes = [torch.float32] if spec["stored_bytes"] == 4 else [torch.bfloat16, torch.float32]
        for dtype in dtypes:
            model = ModelForward(torch, spec, dtype)
            for n in lengths:
                print(f"reference model={spec['model']} {spec['family']} {dtype} n={n} "
                      f"threads={threads}", file=sys.stderr, flush=True)
                ids = torch.arange(n) * 37 % 256  # the bench's token ids (tokenIds)
                rows.append({"model": spec["model"], "stored_bytes": spec["stored_bytes"],
                             "n": n, "threads": threads, "dtype": str(dtype).split(".")[-1],
                             "torch": measure(lambda: model(ids), quick)})
            del model
    return rows


# The presets of core/train/languagemodelpreset.cpp (LanguageModelPreset::all), as
# headlens-bench's train_step suite runs them: name, layers, heads, d_model, context n, batch.
TRAIN_PRESETS = [("tiny", 2, 4, 128, 64, 16), ("small", 4, 4, 192, 128, 16)]


class LanguageModelStep:
    """One training step of HeadLens's language model (core/train/toymodel.h) in torch ops:
    x = E[tokens] + P[positions]; per block x += W_o MHA(LN(x)) + b_o with a fused Q|K|V
    projection (nn.MultiheadAttention's in_proj layout) and causal softmax(Q K^T / sqrt(d_k)) V,
    then x += W_proj GELU_tanh(W_fc LN'(x) + b_fc) + b_proj (width 4 d_model); logits =
    LN_f(x) E^T (tied); mean cross-entropy over every position. Then clip_grad_norm_(1.0) and
    torch.optim.AdamW(lr 1e-3, betas 0.9 / 0.999, eps 1e-8, weight decay 0.1 on matrices only,
    as AdamOptimizer and nanoGPT decay them). The same sizes and the same work as Trainer::step;
    the learning rate is constant where HeadLens follows its schedule (one multiply per step)."""

    def __init__(self, torch, preset, foreach):
        self.torch = torch
        _, self.layers, self.heads, d, self.n, self.batch = preset
        self.d = d
        vocab = 256
        torch.manual_seed(0)

        def w(*shape):  # GPT-2's N(0, 0.02)
            return torch.nn.Parameter(torch.randn(*shape) * 0.02)

        def zeros(*shape):
            return torch.nn.Parameter(torch.zeros(*shape))

        def ones(*shape):
            return torch.nn.Parameter(torch.ones(*shape))

        self.embed, self.positions = w(vocab, d), w(self.n, d)
        self.blocks = [{"ln1": (ones(d), zeros(d)), "qkv": (w(3 * d, d), zeros(3 * d)),
                        "out": (w(d, d), zeros(d)), "ln2": (ones(d), zeros(d)),
                        "fc": (w(4 * d, d), zeros(4 * d)), "proj": (w(d, 4 * d), zeros(d))}
                       for _ in range(self.layers)]
        self.final = (ones(d), zeros(d))
        self.parameters = [self.embed, self.positions, *self.final]
        for block in self.blocks:
            for pair in block.values():
                self.parameters += pair
        matrices = [p for p in self.parameters if p.dim() >= 2]
        vectors = [p for p in self.parameters if p.dim() < 2]
        self.optimizer = torch.optim.AdamW(
            [{"params": matrices, "weight_decay": 0.1}, {"params": vectors, "weight_decay": 0.0}],
            lr=1e-3, betas=(0.9, 0.999), eps=1e-8, foreach=foreach)
        # Additive causal mask: query i sees keys j <= i.
        self.mask = torch.full((self.n, self.n), float("-inf")).triu(1)
        # The text: 200 kB of seeded printable bytes, as the HeadLens suite's.
        generator = torch.Generator().manual_seed(35)
        self.text = torch.randint(0x20, 0x7f, (200 * 1000,), generator=generator)
        self.offsets = torch.arange(self.n + 1)

    def loss(self, ids, targets):
        torch, F = self.torch, self.torch.nn.functional
        b, n, d, h = self.batch, self.n, self.d, self.heads
        d_k = d // h
        x = self.embed[ids] + self.positions                      # (b, n, d)
        for L in self.blocks:
            a = F.layer_norm(x, (d,), *L["ln1"], eps=1e-5)
            qkv = F.linear(a, *L["qkv"])                           # (b, n, 3d)
            q, k, v = (t.view(b, n, h, d_k).transpose(1, 2)        # (b, h, n, d_k) each
                       for t in qkv.split(d, dim=-1))
            scores = (q @ k.transpose(-1, -2)) * (d_k ** -0.5) + self.mask  # (b, h, n, n)
            context = torch.softmax(scores, dim=-1) @ v            # (b, h, n, d_k)
            x = x + F.linear(context.transpose(1, 2).reshape(b, n, d), *L["out"])
            m = F.layer_norm(x, (d,), *L["ln2"], eps=1e-5)
            m = F.gelu(F.linear(m, *L["fc"]), approximate="tanh")  # (b, n, 4d)
            x = x + F.linear(m, *L["proj"])
        x = F.layer_norm(x, (d,), *self.final, eps=1e-5)
        logits = x @ self.embed.T                                   # (b, n, vocab)
        return F.cross_entropy(logits.reshape(b * n, -1), targets.reshape(b * n))

    def step(self):
        """A batch of `batch` windows at random offsets, then forward, backward, clip, update."""
        torch = self.torch
        starts = torch.randint(0, self.text.numel() - self.n - 1, (self.batch, 1))
        windows = self.text[starts + self.offsets]                  # (b, n + 1)
        self.optimizer.zero_grad(set_to_none=True)
        loss = self.loss(windows[:, :-1], windows[:, 1:])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.parameters, 1.0)
        self.optimizer.step()
        return loss


def time_train(torch, threads, quick):
    """train_step rows: one step per preset, timed as headlens-bench times Trainer::step(1)."""
    rows = []
    for preset in TRAIN_PRESETS:
        print(f"reference train_step {preset[0]} threads={threads}", file=sys.stderr,
              flush=True)
        # foreach=True updates every parameter in one call per Adam operation (fewer Python
        # and dispatcher round trips than the default per-parameter loop of torch 1.13).
        model = LanguageModelStep(torch, preset, foreach=True)
        timing = measure(model.step, quick)
        name, layers, heads, d_model, n, batch = preset
        rows.append({"preset": name, "layers": layers, "d_model": d_model, "h": heads, "n": n,
                     "batch": batch, "threads": threads, "torch": timing})
    return rows


def blas_kernels():
    """threadpoolctl's view of the BLAS in use ("openblas 0.3.21 Cooperlake"), if installed."""
    try:
        import threadpoolctl
    except ImportError:
        return []
    return [f"{i.get('internal_api')} {i.get('version')} {i.get('architecture', '')}".strip()
            for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]


def openblas_kernels(paths):
    """openblas_get_corename() of each OpenBLAS among `paths` (loaded_blas()): the kernel the
    products ran on, as OpenBLAS reports it ("Cooperlake")."""
    import ctypes
    kernels = []
    for path in paths:
        try:
            library = ctypes.CDLL(path)  # already loaded: the same copy
            corename = library.openblas_get_corename
        except (OSError, AttributeError):
            continue
        corename.restype = ctypes.c_char_p
        kernel = corename().decode()
        if kernel not in kernels:  # libblas.so.3 and liblapack.so.3 are OpenBLAS's too
            kernels.append(kernel)
    return kernels


def loaded_blas():
    """The BLAS libraries numpy and torch actually loaded (Debian picks libblas.so.3 through
    update-alternatives, so the build information alone does not say which one runs)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    except OSError:
        return []
    return sorted(paths)


def worker(threads, quick, suites):
    """Runs in the child process: times every shape, prints one JSON document on stdout."""
    import numpy as np
    import torch
    torch.set_num_threads(threads)
    rows = []
    for shape in (QUICK_SHAPES if quick and "core" in suites else
                  SHAPES if "core" in suites else []):
        print(f"reference n={shape[0]} d_model={shape[1]} h={shape[2]} threads={threads}",
              file=sys.stderr, flush=True)
        rows.append({"n": shape[0], "d_model": shape[1], "h": shape[2], "threads": threads,
                     "numpy": time_numpy(np, shape, quick),
                     "torch": time_torch(torch, shape, quick)})
    model_rows = time_models(torch, threads, quick) if "models" in suites else []
    train_rows = time_train(torch, threads, quick) if "train" in suites else []
    print(json.dumps({"numpy_version": np.__version__, "torch_version": torch.__version__,
                      "blas": loaded_blas(), "kernels": blas_kernels(),
                      "openblas_kernels": openblas_kernels(loaded_blas()), "rows": rows,
                      "model_rows": model_rows, "train_rows": train_rows}))


OPENBLAS_SETTINGS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


# OpenBLAS's kernels older than AVX2 (driver/others/dynamic.c); Prescott is its fallback for a
# processor its build does not know. The same list and rule as core/linalg/openblaskernel.cpp.
KERNELS_WITHOUT_AVX2 = {"Prescott", "Katmai", "Coppermine", "Northwood", "Banias", "Core2",
                        "Penryn", "Dunnington", "Nehalem", "Atom", "Sandybridge", "Athlon",
                        "Opteron", "Opteron_SSE3", "Barcelona", "Bobcat", "Bulldozer",
                        "Piledriver", "Steamroller", "Nano", "Unknown"}


def chosen_kernel(env):
    """The kernel OpenBLAS chooses when a process with `env` loads it, or None."""
    code = ("import ctypes; c = ctypes.CDLL('libopenblas.so.0').openblas_get_corename; "
            "c.restype = ctypes.c_char_p; print(c().decode())")
    try:
        return subprocess.run([sys.executable, "-c", code], env=env, check=True, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def better_kernel(chosen):
    """OPENBLAS_CORETYPE for a processor OpenBLAS fell back to an old kernel on: SkylakeX with
    AVX-512, Haswell with AVX2 and FMA; None when the kernel chosen is not older than AVX2."""
    if chosen not in KERNELS_WITHOUT_AVX2:
        return None
    flags = cpu_flags()
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"} <= flags:
        return "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


def run_worker(threads, quick, keep_openblas_env, suites, extra_env=None):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads), **(extra_env or {}))
    # Some machines set OPENBLAS_CORETYPE (and OPENBLAS_L2_SIZE) so that old OpenBLAS builds do
    # not crash; they pin a current OpenBLAS to an older, slower kernel (Haswell instead of
    # Cooperlake/SkylakeX here). Unset, for this child only, OpenBLAS picks its own kernel,
    # unless it falls back to Prescott on a processor it does not know (0.3.21 on an Intel
    # family 6, model 207): then the child gets a kernel the processor runs, as HeadLens does.
    if not keep_openblas_env:
        for name in OPENBLAS_SETTINGS:
            env.pop(name, None)
        better = better_kernel(chosen_kernel(env))
        if better:
            env["OPENBLAS_CORETYPE"] = better
    command = [sys.executable, os.path.abspath(__file__), "--worker", str(threads),
               "--suites", ",".join(suites)]
    output = subprocess.run(command + (["--quick"] if quick else []), env=env, check=True,
                            stdout=subprocess.PIPE, text=True).stdout
    return json.loads(output)


def cpu_flags():
    """The flags of /proc/cpuinfo's first processor (empty when it cannot be read)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            return set(next((line.split(":", 1)[1].split() for line in cpuinfo
                             if line.startswith("flags")), []))
    except OSError:
        return set()


def has_avx512():
    """Whether ATen's AVX-512 kernels can run here: ATEN_CPU_CAPABILITY=avx512 is not checked
    against the processor, so it is only ever set where these flags are present."""
    return {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= cpu_flags()


def train_settings():
    """PyTorch settings the training step is tried with, beyond the pinned thread counts, so
    that HeadLens is compared with the fastest of them. On two cores, OpenMP's spinning workers
    (libgomp's default wait policy) compete with OpenBLAS's own threads, and the pinned step at
    2 threads took 2-3x its 1-thread time on a 2-core Xeon; OMP_WAIT_POLICY=passive lets them
    sleep. Torch 1.13 runs its own kernels (softmax, GELU, LayerNorm, Adam) at AVX2 unless
    told ATEN_CPU_CAPABILITY=avx512."""
    settings = [("pinned", {}), ("passive", {"OMP_WAIT_POLICY": "passive"})]
    if has_avx512():
        settings += [("avx512", {"ATEN_CPU_CAPABILITY": "avx512"}),
                     ("passive+avx512", {"OMP_WAIT_POLICY": "passive",
                                         "ATEN_CPU_CAPABILITY": "avx512"})]
    return settings


def best_train_rows(threads, quick, keep_openblas_env):
    """train_step rows at `threads`, one child per train_settings(): each row keeps the pinned
    timing as "torch_pinned" and the fastest setting's (by median) as "torch", named in
    "torch_setting". The fastest of several medians favours PyTorch a little: a fair side for
    a claim that HeadLens is as fast."""
    runs = [(label, run_worker(threads, quick, keep_openblas_env, ["train"], extra))
            for label, extra in train_settings()]
    rows = []
    for i, pinned in enumerate(runs[0][1]["train_rows"]):
        label, best = min(((label, result["train_rows"][i]["torch"]) for label, result in runs),
                          key=lambda tried: tried[1]["median_ms"])
        rows.append(dict(pinned, torch=best, torch_setting=label, torch_pinned=pinned["torch"]))
    return rows, runs[0][1]


def train_key(row):
    """A train_step case: the same keys in headlens-bench's JSON and in time_train's rows."""
    return tuple(row[k] for k in ("layers", "d_model", "h", "n", "batch", "threads"))


def model_key(row, dtype):
    """A model_forward run in one precision of its products: HeadLens's bf16_products rows (a
    BF16 model multiplied as stored) against PyTorch's bfloat16 pass, its float32 products
    (every F32 model's, and a BF16 model's widened) against PyTorch's float32 pass."""
    return (row["model"], row["stored_bytes"], row["n"], row["threads"], dtype)


def read_headlens(path):
    """HeadLens medians: core_forward keyed by (n, d_model, h, threads), model_forward_run by
    model_key, train_step by train_key."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    # Versions 2 and 3 added suites; core_forward's and model_forward's keys are as before.
    if report.get("format_version") not in (1, 2, 3, 4):
        print(f"warning: {path} has format_version {report.get('format_version')}, "
              "this script reads versions 1 to 4", file=sys.stderr)
    results = report.get("results", [])
    core = {(r["n"], r["d_model"], r["h"], r["threads"]): r["median_ms"]
            for r in results if r.get("suite") == "core_forward"}
    models = {model_key(r, "bfloat16" if r.get("bf16_products") else "float32"): r["median_ms"]
              for r in results if r.get("suite") == "model_forward_run"}
    train = {train_key(r): r["median_ms"] for r in results if r.get("suite") == "train_step"}
    return {"core": core, "models": models, "train": train,
            "machine": report.get("machine", {})}


def fmt(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"


def print_table(rows, headlens):
    header = ["n", "d_model", "h", "threads", "numpy ms", "(min..max)", "torch ms", "(min..max)"]
    if headlens is not None:
        header += ["headlens ms", "HL/numpy", "HL/torch"]
    table = [header]
    for r in rows:
        np_t, th_t = r["numpy"], r["torch"]
        line = [str(r["n"]), str(r["d_model"]), str(r["h"]), str(r["threads"]),
                fmt(np_t["median_ms"]), f"{fmt(np_t['min_ms'])}..{fmt(np_t['max_ms'])}",
                fmt(th_t["median_ms"]), f"{fmt(th_t['min_ms'])}..{fmt(th_t['max_ms'])}"]
        if headlens is not None:
            hl = headlens["core"].get((r["n"], r["d_model"], r["h"], r["threads"]))
            line += [fmt(hl), fmt(hl and hl / np_t["median_ms"], 2),
                     fmt(hl and hl / th_t["median_ms"], 2)]
        table.append(line)
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    for row in table:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))


def print_model_table(rows, headlens):
    """One line per model, length and threads: PyTorch's forward per dtype and HeadLens's."""
    names = {1: "GPT-2 small", 2: "Qwen2.5-0.5B"}
    header = ["model", "stored", "n", "threads", "torch dtype", "torch ms", "(min..max)"]
    if headlens is not None:
        header += ["headlens ms", "HL/torch"]
    table = [header]
    for r in rows:
        t = r["torch"]
        line = [names.get(r["model"], str(r["model"])), "BF16" if r["stored_bytes"] == 2 else
                "F32", str(r["n"]), str(r["threads"]), r["dtype"], fmt(t["median_ms"], 1),
                f"{fmt(t['min_ms'], 1)}..{fmt(t['max_ms'], 1)}"]
        if headlens is not None:
            hl = headlens["models"].get(model_key(r, r["dtype"]))
            line += [fmt(hl, 1), fmt(hl and hl / t["median_ms"], 2)]
        table.append(line)
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    for row in table:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))


def print_train_table(rows, headlens):
    """One line per preset and threads: PyTorch's training step pinned and in its fastest setting
    (best_train_rows), and HeadLens's, as time and as tokens per second (batch * n per step);
    HL/torch is against the fastest."""
    header = ["preset", "layers", "d_model", "n", "batch", "threads", "pinned ms", "torch ms",
              "(min..max)", "setting", "torch tok/s"]
    if headlens is not None:
        header += ["headlens ms", "HL tok/s", "HL/torch"]
    table = [header]
    for r in rows:
        t, tokens = r["torch"], r["batch"] * r["n"]
        line = [r["preset"], str(r["layers"]), str(r["d_model"]), str(r["n"]), str(r["batch"]),
                str(r["threads"]), fmt(r["torch_pinned"]["median_ms"], 2), fmt(t["median_ms"], 2),
                f"{fmt(t['min_ms'], 2)}..{fmt(t['max_ms'], 2)}", r["torch_setting"],
                f"{tokens / t['median_ms'] * 1000:.0f}"]
        if headlens is not None:
            hl = headlens["train"].get(train_key(r))
            line += [fmt(hl, 2), "-" if hl is None else f"{tokens / hl * 1000:.0f}",
                     fmt(hl and hl / t["median_ms"], 2)]
        table.append(line)
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    for row in table:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer shapes, shorter runs")
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--headlens", metavar="JSON", help="headlens-bench --json output")
    parser.add_argument("--openblas-env", choices=("both", "keep", "unset"), default="both",
                        help="where this machine sets OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE: run "
                             "with them as set (keep), with OpenBLAS choosing its own kernel "
                             "(unset), or one table for each (both, the default)")
    parser.add_argument("--suites", default="core,models,train",
                        help="any of core (core_forward's shapes), models (model_forward's) and "
                             "train (train_step's), comma-separated (default core,models,train)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    suites = args.suites.split(",")
    if not suites or any(suite not in ("core", "models", "train") for suite in suites):
        parser.error(f"--suites takes core, models and train, comma-separated, not {args.suites}")
    if args.worker:
        worker(args.worker, args.quick, suites)
        return 0
    missing = [m for m in ("numpy", "torch") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"bench_reference.py: {sys.executable} has no {' or '.join(missing)}; nothing to "
              "compare (Debian: apt install python3-numpy python3-torch).")
        return 0
    headlens = read_headlens(args.headlens) if args.headlens else None
    if headlens is not None and headlens["machine"].get("gemm"):
        print(f"HeadLens products: {headlens['machine']['gemm']}; OPENBLAS_CORETYPE for HeadLens: "
              f"'{headlens['machine'].get('openblas_coretype', '')}'")
    configured = {name: os.environ[name] for name in OPENBLAS_SETTINGS if name in os.environ}
    if not configured:
        variants = [(True, "")]
    else:
        settings = " ".join(f"{name}={value}" for name, value in configured.items())
        variants = [(True, f"OpenBLAS as this machine configures it ({settings})"),
                    (False, "OpenBLAS choosing its own kernel (those settings unset)")]
        wanted = {"both": (True, False), "keep": (True,), "unset": (False,)}[args.openblas_env]
        variants = [v for v in variants if v[0] in wanted]
    for keep, title in variants:
        rows, model_rows, train_rows, versions = [], [], [], None
        others = [suite for suite in suites if suite != "train"]
        for threads in (int(t) for t in args.threads.split(",")):
            if others:
                versions = run_worker(threads, args.quick, keep, others)
                rows += versions["rows"]
                model_rows += versions["model_rows"]
            if "train" in suites:
                best, result = best_train_rows(threads, args.quick, keep)
                train_rows += best
                versions = versions or result
        if title:
            print(f"\n{title}")
        print(f"numpy {versions['numpy_version']}, torch {versions['torch_version']}, BLAS loaded: "
              f"{', '.join(versions['blas']) or 'unknown'}"
              + (f" ({'; '.join(versions['kernels'])})" if versions.get("kernels") else "")
              + (f"; OpenBLAS kernel: {', '.join(versions['openblas_kernels'])}"
                 if versions.get("openblas_kernels") else ""))
        if any("/blas/libblas" in path for path in versions["blas"]):
            print("note: that is the reference (netlib) BLAS: single-threaded and unoptimised, so "
                  "these figures understate NumPy and PyTorch (install libopenblas0 for a fair run)")
        if rows:
            print_table(rows, headlens)
        if model_rows:
            print("\nWhole models (model_forward: every head's weights kept, last position's "
                  "logits)")
            print_model_table(model_rows, headlens)
        if train_rows:
            print("\nTraining steps (train_step: batch, forward, backward, clip, AdamW), PyTorch "
                  "pinned and with the fastest of: " +
                  ", ".join(label for label, _ in train_settings()))
            print_train_table(train_rows, headlens)
    return 0


if __name__ == "__main__":
    sys.exit(main())
