#!/usr/bin/env bash
# Builds and runs the junqi desktop app (the `player` profile: Cargo.toml). On Debian/Ubuntu it
# first installs the Vulkan loader and drivers the window needs at run time, and ALSA's headers
# the sound needs to build, if they are missing. `--build-only` builds without starting the game
# (what `scripts/bench.sh build` times).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required: https://rustup.rs" >&2; exit 1; }
. scripts/ensure-alsa.sh
ensure_alsa
if command -v apt-get >/dev/null && ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1; then
  if ! apt_install_quietly "the Vulkan runtime the window needs" \
    libvulkan1 mesa-vulkan-drivers libx11-6 libxcursor1 libxi6 libxrandr2 libxkbcommon-x11-0; then
    echo "error: installing the Vulkan runtime (libvulkan1, mesa-vulkan-drivers, X11 libraries) failed;" >&2
    echo "install them with your package manager and run this again" >&2
    exit 1
  fi
fi
# The first build: say how long it takes before it starts (measured: docs/performance.md).
BIN="${CARGO_TARGET_DIR:-target}/player/junqi"
if [ ! -x "$BIN" ]; then
  echo "Building the game for the first time: about 12 minutes on 2 cores (less on more)." >&2
  echo "Later starts take seconds. Cargo's progress follows." >&2
fi
# Without a desktop session (no XDG_RUNTIME_DIR: e.g. root on a bare X server) Mesa's Vulkan
# device-selection layer prints "XDG_RUNTIME_DIR is invalid" twice; it has no choice to make
# there anyway.
[ -n "${XDG_RUNTIME_DIR:-}" ] || export NODEVICE_SELECT=1
if [ "${1:-}" = "--build-only" ]; then
  exec cargo build --profile player --bin junqi
fi
exec cargo run --profile player --bin junqi -- "$@"
