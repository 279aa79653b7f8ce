#!/usr/bin/env bash
# Measures what the desktop app costs while nothing (or little) changes: the CPU time of the
# app's process (all its threads) over 30 s under Xvfb, software Vulkan (lavapipe), after a
# 10 s start, in three scenes:
#   title     the title screen, untouched;
#   game      a game on the screen, waiting for the player's move (the clock running);
#   computer  computer moves: the app joins a local `junqi-peer host --ai expert` over the LAN
#             (JUNQI_DEMO=lan-game) and the computer plays the player's moves too.
# Saves a screenshot of each scene at 10 s and 12 s (the clock must have moved on).
#
#   scripts/idle-cost.sh path/to/junqi path/to/junqi-peer [out-dir]
#
# The app must be built with its `dev` feature (the demo driver, JUNQI_DEMO), e.g.
# `cargo build --release -p junqi --features dev`.
#
# Needs xvfb, mesa-vulkan-drivers, x11-apps (xwd) and imagemagick (convert).
set -euo pipefail
cd "$(dirname "$0")/.."
APP=$(realpath "$1"); PEER=$(realpath "$2"); OUT=${3:-/tmp/junqi-idle}
grep -qa JUNQI_DEMO_FRAMES "$APP" || {
  echo "error: $APP has no demo driver: build it with --features dev" >&2; exit 1; }
SECS=${IDLE_SECS:-30}
mkdir -p "$OUT"
DISPLAY_NUM=:$((90 + RANDOM % 9))
Xvfb "$DISPLAY_NUM" -screen 0 1280x800x24 >/dev/null 2>&1 &
XVFB=$!
PEER_PID=""
cleanup() {
  [ -n "$PEER_PID" ] && kill "$PEER_PID" 2>/dev/null || true
  kill "$XVFB" 2>/dev/null || true
}
trap cleanup EXIT
sleep 1

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run_scene() {
  local scene=$1; shift
  local data; data=$(mktemp -d)
  env DISPLAY="$DISPLAY_NUM" BEVY_ASSET_ROOT="$PWD" JUNQI_DATA_DIR="$data" "$@" "$APP" \
    >"$OUT/$scene.log" 2>&1 &
  local pid=$!
  sleep 10
  xwd -root -display "$DISPLAY_NUM" | convert xwd:- "$OUT/$scene-10s.png"
  local t0; t0=$(cpu_ticks "$pid")
  sleep 2
  xwd -root -display "$DISPLAY_NUM" | convert xwd:- "$OUT/$scene-12s.png"
  sleep $((SECS - 2))
  local t1; t1=$(cpu_ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
  local hz; hz=$(getconf CLK_TCK)
  awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$SECS" -v n="$scene" \
    'BEGIN { printf "%-9s %6.2f s CPU in %d s = %5.1f%% of a core\n", n, d / hz, s, 100 * d / hz / s }'
}

run_scene title
run_scene game JUNQI_DEMO=game
"$PEER" host --ai expert --name idle-host --yes >"$OUT/peer.log" 2>&1 &
PEER_PID=$!
sleep 1
run_scene computer JUNQI_DEMO=lan-game
