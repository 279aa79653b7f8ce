#!/usr/bin/env bash
# Sourced by run.sh and test.sh: on Linux the app's sound (Bevy audio, via ALSA) needs ALSA's
# headers and pkg-config to build. Installs them on Debian/Ubuntu when missing (with sudo when
# not root); elsewhere, or when the install fails, stops with what to install.
ensure_alsa() {
  [ "$(uname -s)" = Linux ] || return 0
  if command -v pkg-config >/dev/null && pkg-config --exists alsa; then
    return 0
  fi
  if command -v apt-get >/dev/null; then
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "installing ALSA's headers for the game's sound (libasound2-dev, pkg-config)" >&2
    if $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends \
      libasound2-dev pkg-config >/dev/null; then
      return 0
    fi
  fi
  echo "error: building the game's sound needs ALSA's development files and pkg-config:" >&2
  echo "  Debian/Ubuntu: apt-get install libasound2-dev pkg-config" >&2
  echo "  Fedora: dnf install alsa-lib-devel pkgconf   Arch: pacman -S alsa-lib pkgconf" >&2
  exit 1
}
