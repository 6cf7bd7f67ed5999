#!/bin/bash
# monkey-x11.sh: random X input (xdotool) to the real `headlens` window under Xvfb, as a curious
# class would give it; says whether the window survived. The in-process monkey is tst_monkey.
set -u
usage() {
  cat <<'USAGE'
Usage: scripts/monkey-x11.sh [--binary PATH] [--seed N] [--actions N] [--delay SECONDS]

Starts Xvfb (1600x1000), the window at 1400x900 with a fresh HOME, then sends N random clicks,
right-clicks, double-clicks, drags, wheel turns, keys and typed words at random places, DELAY
apart (default: seed 1, 1000 actions, 0.03 s), from bash's RANDOM seeded with N. Runs the window
as the user `nobody` when started as root, so a click in a file dialog cannot delete your files.
Prints the action where the window died and its exit status, or "survived". Needs xvfb and
xdotool (apt-get install xvfb xdotool). Writes only into a temporary folder.
USAGE
}
binary="$(cd "$(dirname "$0")/.." && pwd)/build/release/app/headlens"
seed=1 actions=1000 delay=0.03
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --actions) actions="$2"; shift 2 ;;
    --delay) delay="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "monkey-x11: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "monkey-x11: $tool is missing: apt-get install xvfb xdotool" >&2; exit 2; }
done
[ -x "$binary" ] || { echo "monkey-x11: no window program at $binary (make build, or --binary)" >&2; exit 2; }

work=$(mktemp -d)
chmod 777 "$work"
display=""
for n in $(seq 90 199); do # the first display no other X server holds
  [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
done
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app $xvfb 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
export DISPLAY="$display"
run_as=()
[ "$(id -u)" -eq 0 ] && run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
# MONKEY_X11_GDB=1: under gdb, which prints every thread's stack when the window crashes.
[ -n "${MONKEY_X11_GDB:-}" ] && run_as+=(gdb -q -batch -ex "set pagination off" -ex run \
  -ex "thread apply all bt 40" -ex "thread 1" -ex "bt -80" --args)
(cd "$work" && HOME="$work" XDG_RUNTIME_DIR="$work" "${run_as[@]}" "$binary" >"$work/log" 2>&1) &
app=$!
for _ in $(seq 50); do
  xdotool search --name HeadLens >/dev/null 2>&1 && break
  sleep 0.2
done
window=$(xdotool search --name HeadLens | head -1)
xdotool windowsize "$window" 1400 900 windowmove "$window" 0 0
words=(the tired robot dropped heavy gear because it broke cat sat on mat 42 . "[MASK]")
keys=(Tab shift+Tab Left Right Up Down Home End Prior Next Return Escape space BackSpace Delete
      ctrl+a ctrl+z ctrl+1 ctrl+2 ctrl+3 ctrl+4 ctrl+5 ctrl+6 ctrl+7 ctrl+8 ctrl+e ctrl+m ctrl+o
      ctrl+s ctrl+p ctrl+plus ctrl+minus ctrl+0 F5 F1 a x 3 9)
RANDOM=$seed
for ((i = 1; i <= actions; i++)); do
  if ! kill -0 "$app" 2>/dev/null; then
    wait "$app"
    echo "monkey-x11: seed $seed: the window died before action $i (exit status $?)"
    cat "$work/log"
    exit 1
  fi
  x=$((RANDOM % 1400)) y=$((RANDOM % 900)) r=$((RANDOM % 100))
  if ((r < 30)); then xdotool mousemove $x $y click 1
  elif ((r < 38)); then xdotool mousemove $x $y click 3
  elif ((r < 44)); then xdotool mousemove $x $y click --repeat 2 --delay 40 1
  elif ((r < 50)); then xdotool mousemove $x $y mousedown 1 mousemove $((RANDOM % 1400)) $((RANDOM % 900)) mouseup 1
  elif ((r < 60)); then xdotool mousemove $x $y click --repeat $((1 + RANDOM % 3)) $((4 + RANDOM % 2))
  elif ((r < 85)); then xdotool key "${keys[RANDOM % ${#keys[@]}]}"
  else xdotool type "${words[RANDOM % ${#words[@]}]} "
  fi
  sleep "$delay"
done
echo "monkey-x11: seed $seed: survived $actions actions"
if [ -n "${MONKEY_X11_SCREENSHOT:-}" ] && command -v xwd >/dev/null && command -v convert >/dev/null; then
  xwd -root -silent | convert xwd:- "$MONKEY_X11_SCREENSHOT"
fi
[ -n "${MONKEY_X11_LOG:-}" ] && cat "$work/log"
