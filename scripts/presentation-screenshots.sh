#!/bin/sh
# Renders the classroom checklist of issues 22 and 33 in presentation mode: every tab at 1280x720,
# 1366x768 and 1920x1080, light and dark (8, 12 and grouped heads); the pipeline's steps 1-14
# forward from step 1 and back from the last; the Train tab during and after training; and the
# handout of a grouped, RoPE, causal layer (handout-gqa-rope-causal.pdf).
# Usage: scripts/presentation-screenshots.sh [--out DIR | OUT_DIR] [BUILD_DIR]   (then look at
# every PNG). The screenshots go to /tmp/headlens-presentation, outside the repository, unless
# --out DIR (or OUT_DIR) names another folder; BUILD_DIR defaults to build/release.
set -eu
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --out) [ $# -ge 2 ] || { echo "--out needs a folder" >&2; exit 2; }; OUT="$2"; shift 2 ;;
    -*) echo "presentation-screenshots.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ -z "$OUT" ] && [ $# -ge 1 ]; then OUT="$1"; shift; fi
OUT="${OUT:-/tmp/headlens-presentation}"
BUILD="${1:-build/release}"
APP="$BUILD/app/headlens"
MODEL="$(dirname "$0")/../tests/data/gpt2/tiny"
[ -x "$APP" ] || { echo "no $APP: build the headlens target first" >&2; exit 1; }
mkdir -p "$OUT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
# A toy model for the Heads view's note (its vocabulary, what of the lesson sentence was cut).
TOY="$OUT/previous-token.npz"
"$BUILD/app/headlens-cli" --train previous --steps 100 --save "$TOY" >/dev/null
# A small corpus for the Corpus tab (one text a line).
CORPUS="$OUT/corpus.txt"
printf '%s\n' "The tired robot dropped the heavy gear because it broke" \
  "When Mary and John went to the store, John gave a drink to Mary" \
  "The cat sat on the mat and the cat slept" "A B C D A B C D" >"$CORPUS"

shot() { # NAME, then the window's options
  name="$1"
  shift
  "$APP" --presentation --screenshot "$OUT/$name.png" "$@" >/dev/null 2>&1 ||
    { echo "failed: $name ($*)" >&2; return 1; }
}

# The handout of the lesson with grouped K/V heads, RoPE and the causal mask (17 pages).
"$BUILD/app/headlens-cli" --text "The tired robot dropped the heavy gear because it broke" \
  --heads 8 --kv-heads 2 --attention-positions rope --causal \
  --handout "$OUT/handout-gqa-rope-causal.pdf" >/dev/null

for size in 1280x720 1366x768 1920x1080; do
  for theme in light dark; do
    at="$size-$theme"
    shot "heads-16-$at" --size "$size" --theme "$theme" --heads 16
    shot "heads-8-$at" --size "$size" --theme "$theme"
    shot "heads-12-$at" --size "$size" --theme "$theme" --heads 12 --d-model 768
    shot "heads-gqa-$at" --size "$size" --theme "$theme" --heads 8 --kv-heads 2
    shot "cost-$at" --size "$size" --theme "$theme" --view cost
    # The tiny GPT-2 reads 32 positions: a short sentence.
    shot "model-$at" --size "$size" --theme "$theme" --model "$MODEL" --view model \
      --text "The tired robot dropped the gear"
    shot "toy-heads-$at" --size "$size" --theme "$theme" --model "$TOY"
    shot "train-live-$at" --size "$size" --theme "$theme" --view train-live \
      --train induction --layers 2 --heads 4 --steps 400
    shot "train-done-$at" --size "$size" --theme "$theme" --view train \
      --train previous --steps 100
    shot "lines-$at" --size "$size" --theme "$theme" --view lines
    shot "compare-$at" --size "$size" --theme "$theme" --view compare \
      --compare-text "The tired robot lifted the heavy gear because it broke"
    shot "corpus-$at" --size "$size" --theme "$theme" --model "$MODEL" --corpus "$CORPUS" \
      --view corpus --text "The tired robot dropped the gear"
    shot "importance-$at" --size "$size" --theme "$theme" --model "$MODEL" --view importance \
      --text "The tired robot dropped the gear"
    # Two texts of six tokens each for the tiny GPT-2 (the indirect-object example is 41).
    shot "patching-$at" --size "$size" --theme "$theme" --model "$MODEL" --view patching \
      --text "Hello world, the cat on" --patch-from "Hello world, the cat sat" \
      --answer " the" --wrong " on"
    for step in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
      # Forward from step 1, and back from the last step (End, then Left), one step at a time.
      shot "pipeline-$step-$at" --size "$size" --theme "$theme" --view pipeline --step "$step"
      shot "pipeline-back-$step-$at" --size "$size" --theme "$theme" --view pipeline-back \
        --step "$step"
    done
    # The side tabs (below the heatmaps when narrow): One cell at Softmax, W_O at the end.
    shot "side-onecell-$at" --size "$size" --theme "$theme" --view pipeline-side --step 9
    shot "side-wo-$at" --size "$size" --theme "$theme" --view pipeline-side --step 14
  done
done
echo "wrote $(ls "$OUT"/*.png | wc -l) screenshots to $OUT"
