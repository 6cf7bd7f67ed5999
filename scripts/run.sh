#!/bin/sh
# Starts the HeadLens window when a display is present; otherwise renders the lesson's demo
# with headlens-cli and says where the files are.
set -eu
BUILD="${1:-build/release}"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/app/headlens" ]; then
  exec "$BUILD/app/headlens"
fi
OUT="$BUILD/demo"
echo "No display found: rendering the demo with headlens-cli instead."
"$BUILD/app/headlens-cli" --text "The tired robot dropped the heavy gear because it broke" \
  --heads 8 --d-model 512 --print-shapes --stats --export-dir "$OUT" --figures png
echo "The demo's heatmaps (heads.png, head_1.png, ...), tensors and trace.json are in $OUT"
