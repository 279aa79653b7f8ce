#!/usr/bin/env bash
# Sourced by run.sh and test.sh: on Linux the app's sound (Bevy audio, via ALSA) needs ALSA's
# headers and pkg-config to build. Installs them on Debian/Ubuntu when missing (with sudo when
# not root); elsewhere, or when the install fails, stops with what to install.

# apt_install_quietly WHAT PACKAGE...: installs the packages with apt-get, saying one line
# (WHAT) instead of apt's and dpkg's thirty; on failure shows their output and returns 1.
apt_install_quietly() {
  local what=$1 sudo="" log
  shift
  [ "$(id -u)" = 0 ] || sudo="sudo"
  log=$(mktemp)
  echo "installing $what ($*)..." >&2
  if $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1 &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "$@" >>"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  cat "$log" >&2
  rm -f "$log"
  return 1
}

ensure_alsa() {
  [ "$(uname -s)" = Linux ] || return 0
  if command -v pkg-config >/dev/null && pkg-config --exists alsa; then
    return 0
  fi
  if command -v apt-get >/dev/null &&
    apt_install_quietly "ALSA's headers for the game's sound" libasound2-dev pkg-config; then
    return 0
  fi
  echo "error: building the game's sound needs ALSA's development files and pkg-config:" >&2
  echo "  Debian/Ubuntu: apt-get install libasound2-dev pkg-config" >&2
  echo "  Fedora: dnf install alsa-lib-devel pkgconf   Arch: pacman -S alsa-lib pkgconf" >&2
  exit 1
}
