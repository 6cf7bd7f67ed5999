#!/usr/bin/python3
"""NumPy and PyTorch timings of the shapes headlens-bench's core_forward suite measures.

For each (n, d_model, h) and thread count, the median wall time (and min/max) of
  numpy: a straightforward multi-head attention in float32 that keeps every head's weights
         (fused QKV projection, per-head softmax(Q K^T / sqrt(d_k)) V, output projection);
  torch: torch.nn.MultiheadAttention(d_model, h, batch_first=True) in eval mode, called with
         need_weights=True, average_attn_weights=False under torch.no_grad(),
with b = 1, self-attention, random input, repeated like headlens-bench does (one untimed run,
then until ~0.75 s and at least 5 runs; --quick: ~0.1 s and at least 3).

Each thread count runs in its own child process with OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and
MKL_NUM_THREADS set before numpy is imported (BLAS reads them only once, at load) and with
torch.set_num_threads. NumPy's and PyTorch's speed depend on the BLAS they load; the script
prints which (and warns about the unoptimised reference BLAS, Debian's default).

Usage (needs numpy and torch for /usr/bin/python3; exits 0 with a message otherwise):
    /usr/bin/python3 scripts/bench_reference.py [--quick] [--threads 1,2]
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


def blas_kernels():
    """threadpoolctl's view of the BLAS in use ("openblas 0.3.21 Cooperlake"), if installed."""
    try:
        import threadpoolctl
    except ImportError:
        return []
    return [f"{i.get('internal_api')} {i.get('version')} {i.get('architecture', '')}".strip()
            for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]


def loaded_blas():
    """The BLAS libraries numpy and torch actually loaded (Debian picks libblas.so.3 through
    update-alternatives, so the build information alone does not say which one runs)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    except OSError:
        return []
    return sorted(paths)


def worker(threads, quick):
    """Runs in the child process: times every shape, prints one JSON document on stdout."""
    import numpy as np
    import torch
    torch.set_num_threads(threads)
    rows = []
    for shape in (QUICK_SHAPES if quick else SHAPES):
        print(f"reference n={shape[0]} d_model={shape[1]} h={shape[2]} threads={threads}",
              file=sys.stderr, flush=True)
        rows.append({"n": shape[0], "d_model": shape[1], "h": shape[2], "threads": threads,
                     "numpy": time_numpy(np, shape, quick),
                     "torch": time_torch(torch, shape, quick)})
    print(json.dumps({"numpy_version": np.__version__, "torch_version": torch.__version__,
                      "blas": loaded_blas(), "kernels": blas_kernels(), "rows": rows}))


OPENBLAS_SETTINGS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def run_worker(threads, quick, keep_openblas_env):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads))
    # Some machines set OPENBLAS_CORETYPE (and OPENBLAS_L2_SIZE) so that old OpenBLAS builds do
    # not crash; they pin a current OpenBLAS to an older, slower kernel (Haswell instead of
    # Cooperlake/SkylakeX here). Unset, for this child only, OpenBLAS picks its own kernel.
    if not keep_openblas_env:
        for name in OPENBLAS_SETTINGS:
            env.pop(name, None)
    command = [sys.executable, os.path.abspath(__file__), "--worker", str(threads)]
    output = subprocess.run(command + (["--quick"] if quick else []), env=env, check=True,
                            stdout=subprocess.PIPE, text=True).stdout
    return json.loads(output)


def read_headlens(path):
    """HeadLens core_forward medians keyed by (n, d_model, h, threads)."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    # Version 2 added suites; core_forward's keys are those of version 1.
    if report.get("format_version") not in (1, 2):
        print(f"warning: {path} has format_version {report.get('format_version')}, "
              "this script reads versions 1 and 2", file=sys.stderr)
    return {(r["n"], r["d_model"], r["h"], r["threads"]): r["median_ms"]
            for r in report.get("results", []) if r.get("suite") == "core_forward"}


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
            hl = headlens.get((r["n"], r["d_model"], r["h"], r["threads"]))
            line += [fmt(hl), fmt(hl and hl / np_t["median_ms"], 2),
                     fmt(hl and hl / th_t["median_ms"], 2)]
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
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.quick)
        return 0
    missing = [m for m in ("numpy", "torch") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"bench_reference.py: {sys.executable} has no {' or '.join(missing)}; nothing to "
              "compare (Debian: apt install python3-numpy python3-torch).")
        return 0
    headlens = read_headlens(args.headlens) if args.headlens else None
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
        rows, versions = [], None
        for threads in (int(t) for t in args.threads.split(",")):
            result = run_worker(threads, args.quick, keep)
            rows += result["rows"]
            versions = result
        if title:
            print(f"\n{title}")
        print(f"numpy {versions['numpy_version']}, torch {versions['torch_version']}, BLAS loaded: "
              f"{', '.join(versions['blas']) or 'unknown'}"
              + (f" ({'; '.join(versions['kernels'])})" if versions.get("kernels") else ""))
        if any("/blas/libblas" in path for path in versions["blas"]):
            print("note: that is the reference (netlib) BLAS: single-threaded and unoptimised, so "
                  "these figures understate NumPy and PyTorch (install libopenblas0 for a fair run)")
        print_table(rows, headlens)
    return 0


if __name__ == "__main__":
    sys.exit(main())
