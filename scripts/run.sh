#!/bin/sh
# Starts the HeadLens window when a display is present; otherwise renders the lesson's demo
# with headlens-cli and says where the files are.
# Usage: scripts/run.sh [--out DIR] [BUILD_DIR]
#   BUILD_DIR   the build to run (default build/release)
#   --out DIR   where the demo's files go without a display (default BUILD_DIR/demo, beside the
#               build it came from; build folders are ignored by git)
set -eu
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '4,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --out) [ $# -ge 2 ] || { echo "run.sh: --out needs a folder" >&2; exit 2; }
      OUT="$2"; shift 2 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
BUILD="${1:-build/release}"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/app/headlens" ]; then
  exec "$BUILD/app/headlens"
fi
OUT="${OUT:-$BUILD/demo}"
echo "No display found: rendering the demo with headlens-cli instead."
"$BUILD/app/headlens-cli" --text "The tired robot dropped the heavy gear because it broke" \
  --heads 8 --d-model 512 --print-shapes --stats --export-dir "$OUT" --figures png
echo "The demo's heatmaps (heads.png, head_1.png, ...), tensors and trace.json are in $OUT"
