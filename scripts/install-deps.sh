#!/bin/sh
# Installs the Debian 12 packages HeadLens needs to build, test and run. Idempotent: does
# nothing when everything is present. Runs apt-get as root (or through sudo).
set -eu

PACKAGES="build-essential cmake pkg-config git \
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev \
  libeigen3-dev libzip-dev nlohmann-json3-dev libpcre2-dev libicu-dev \
  fonts-dejavu-core"

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
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
