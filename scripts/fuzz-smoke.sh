#!/bin/sh
# fuzz-smoke.sh: build the libFuzzer targets with clang and run each for a short while.
#   scripts/fuzz-smoke.sh [seconds per target, default 30]   (BUILD_DIR=... to choose the dir)
# Needs clang, libclang-rt-dev (libFuzzer) and libomp-dev. Crashes leave crash-* files in the
# build dir's fuzz-work/ and make the script fail; copy them into tests/fuzz/regressions/<target>/
# once fixed (ctest replays tokenizerjson, modelconfig and encodertokenizers: fuzz/replay_*).
# FUZZ_TARGETS="tokenizerjson" runs only the targets named.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_EACH=${1:-30}
BUILD=${BUILD_DIR:-$ROOT/build-fuzz}
DATA=$ROOT/tests/data/gpt2

cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DHEADLENS_BUILD_GUI=OFF -DHEADLENS_FUZZ=ON -DHEADLENS_NATIVE=OFF >/dev/null
cmake --build "$BUILD" --target fuzz_safetensorsheader fuzz_bpeencode fuzz_bpefiles fuzz_modelconfig \
    fuzz_tokenizerjson fuzz_encodertokenizers -j2

# Seed corpora from the committed checkpoint: a real header, real texts, real tokenizer files.
WORK=$BUILD/fuzz-work
rm -rf "$WORK" && mkdir -p "$WORK/safetensorsheader" "$WORK/bpeencode" "$WORK/bpefiles" "$WORK/modelconfig" \
    "$WORK/tokenizerjson" "$WORK/encodertokenizers"
# tokenizer.json: the small hand-made files and every input fuzzing found before.
cp "$ROOT"/tests/data/tokenizers/*.json "$ROOT"/tests/fuzz/regressions/tokenizerjson/* "$WORK/tokenizerjson/"
# tokenizer_config.json NUL vocab.txt NUL vocab.json NUL merges.txt: the seeds and what was found.
cp "$ROOT"/tests/fuzz/regressions/encodertokenizers/* "$WORK/encodertokenizers/"
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
PY
# Every family's config (the encoders' among them) and what fuzzing found before.
cp "$ROOT"/tests/fuzz/regressions/modelconfig/* "$WORK/modelconfig/"

status=0
for target in ${FUZZ_TARGETS:-safetensorsheader bpeencode bpefiles modelconfig tokenizerjson encodertokenizers}; do
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
