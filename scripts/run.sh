#!/usr/bin/env bash
# Builds and runs the junqi desktop app. On Debian/Ubuntu it first installs the
# Vulkan loader and drivers the window needs at run time, and ALSA's headers the
# sound needs to build, if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required: https://rustup.rs" >&2; exit 1; }
. scripts/ensure-alsa.sh
ensure_alsa
if command -v apt-get >/dev/null && ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends \
    libvulkan1 mesa-vulkan-drivers libx11-6 libxcursor1 libxi6 libxrandr2 libxkbcommon-x11-0; }; then
    echo "error: installing the Vulkan runtime (libvulkan1, mesa-vulkan-drivers, X11 libraries) failed;" >&2
    echo "install them with your package manager and run this again" >&2
    exit 1
  fi
fi
exec cargo run --release --bin junqi -- "$@"
