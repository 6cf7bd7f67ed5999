#!/bin/sh
# fuzz-smoke.sh: build the libFuzzer targets with clang and run each for a short while.
# Usage: scripts/fuzz-smoke.sh [--out DIR] [seconds per target, default 30]   (--help: this text)
# --out DIR is the fuzz build's folder (default $BUILD_DIR, else build-fuzz/ in the checkout,
# ignored by git as build/ is); the runs' inputs, logs and crashes go to its fuzz-work/.
# Needs clang, libclang-rt-dev (libFuzzer) and libomp-dev. Crashes leave crash-* files in the
# build dir's fuzz-work/ and make the script fail; copy them into tests/fuzz/regressions/<target>/
# once fixed (ctest replays every folder there: fuzz/replay_*).
# FUZZ_TARGETS="tokenizerjson npz" runs only the targets named.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-fuzz}
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --out) [ $# -ge 2 ] || { echo "fuzz-smoke.sh: --out needs a folder" >&2; exit 2; }
      BUILD=$2; shift 2 ;;
    -*) echo "fuzz-smoke.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
SECONDS_EACH=${1:-30}
DATA=$ROOT/tests/data/gpt2

cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DHEADLENS_BUILD_GUI=OFF -DHEADLENS_FUZZ=ON -DHEADLENS_NATIVE=OFF >/dev/null
ALL_TARGETS="safetensorsheader bpeencode bpefiles modelconfig tokenizerjson encodertokenizers npy npz
    toymodel shardindex workspace trainingtext datasetfile gguf"
TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
cmake --build "$BUILD" --target $(for t in $TARGETS; do printf 'fuzz_%s ' "$t"; done) -j2

# Seed corpora from the committed checkpoint: a real header, real texts, real tokenizer files.
WORK=$BUILD/fuzz-work
rm -rf "$WORK"
# Every regression corpus (the seeds and every input fuzzing found before) seeds its target.
for target in $ALL_TARGETS; do
    mkdir -p "$WORK/$target"
    regressions=$ROOT/tests/fuzz/regressions/$target
    if [ -d "$regressions" ]; then cp "$regressions"/* "$WORK/$target/"; fi
done
# tokenizer.json: the small hand-made files too.
cp "$ROOT"/tests/data/tokenizers/*.json "$WORK/tokenizerjson/"
python3 - "$DATA" "$WORK" <<'PY'
import json, struct, sys
data, work = sys.argv[1], sys.argv[2]
raw = open(f"{data}/tiny/model.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
open(f"{work}/safetensorsheader/tiny", "wb").write(struct.pack("<Q", len(raw) - 8 - n) + raw[8:8 + n])
for i, case in enumerate(json.load(open(f"{data}/bpe_golden.json", encoding="utf-8"))):
    open(f"{work}/bpeencode/{i}", "wb").write(case["text"].encode())
vocab, merges = (open(f"{data}/realids/{f}", "rb").read() for f in ("vocab.json", "merges.txt"))
open(f"{work}/bpefiles/realids", "wb").write(vocab + b"\0" + merges)
for name in ("tiny/config.json", "tiny_sharded/model.safetensors.index.json"):
    open(f"{work}/modelconfig/{name.replace('/', '_')}", "wb").write(open(f"{data}/{name}", "rb").read())
# The sharded checkpoint as fuzz_shardindex reads it: index #shard# shard 1 #shard# shard 2.
files = ("model.safetensors.index.json", "model-00001-of-00002.safetensors",
         "model-00002-of-00002.safetensors")
parts = [open(f"{data}/tiny_sharded/{f}", "rb").read() for f in files]
open(f"{work}/shardindex/gpt2_tiny_sharded", "wb").write(b"#shard#".join(parts))
PY
# Every small .npy and .npz of the test data (the golden files among them).
find "$ROOT/tests/data" -name '*.npy' -size -64k -exec cp {} "$WORK/npy/" \;
find "$ROOT/tests/data" -name '*.npz' -size -64k -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} \
    "$WORK/npz" \;

status=0
for target in $TARGETS; do
    dict=""
    [ -f "$ROOT/tests/fuzz/$target.dict" ] && dict="-dict=$ROOT/tests/fuzz/$target.dict"
    echo "== fuzz_$target for ${SECONDS_EACH}s"
    (cd "$WORK" && "$BUILD/tests/fuzz/fuzz_$target" -max_total_time="$SECONDS_EACH" \
        -rss_limit_mb=2048 -print_final_stats=1 $dict "$WORK/$target" 2>"$WORK/$target.log") ||
        status=1
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY" \
        "$WORK/$target.log" || true
done
exit $status
