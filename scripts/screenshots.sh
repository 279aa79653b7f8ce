#!/usr/bin/env bash
# Runs the real app under Xvfb with software Vulkan (lavapipe) and saves a PNG of every
# screen in docs/screenshots/, then checks that each PNG exists and is not blank.
#
#   scripts/screenshots.sh            # every screen, Chinese, plus a few in English
#   scripts/screenshots.sh game rules # only these screens
#   SIZE=720x1600 scripts/screenshots.sh   # at another window size (phone portrait), saved in
#                                          # docs/screenshots/720x1600/
#   SHOT_SECONDS=600 scripts/screenshots.sh  # more time per screen on a loaded machine
#
# `lobby`, `lan-pairing`, `lan-setup` (the guest's own setup after the pairing) and `lan-game`
# start headless `junqi-peer` hosts (advertised by mDNS) first, so the lobby lists real
# discovered hosts and `lan-game` (JUNQI_DEMO=lan-game) joins one and plays.
#
# Needs: apt-get install xvfb xauth mesa-vulkan-drivers libvulkan1 (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZE=${SIZE:-1280x800}
OUT=${OUT:-$ROOT/docs/screenshots}
[ "$SIZE" != 1280x800 ] && OUT=$OUT/$SIZE
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
PROFILE=${PROFILE:-debug}

if ! command -v xvfb-run >/dev/null || ! dpkg -s mesa-vulkan-drivers >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends xvfb xauth mesa-vulkan-drivers libvulkan1 >/dev/null
fi

# The demo driver (JUNQI_DEMO, JUNQI_SCREENSHOT) is in the app only with its `dev` feature.
if [ "$PROFILE" = release ]; then
  cargo build --release --workspace --bins --features junqi/dev
else
  cargo build --workspace --bins --features junqi/dev
fi
BIN=$CARGO_TARGET_DIR/$PROFILE/junqi
PEER=$CARGO_TARGET_DIR/$PROFILE/junqi-peer
PEERS=()
stop_peers() { for p in "${PEERS[@]}"; do kill "$p" 2>/dev/null || true; done; PEERS=(); }

SHOTS=("$@")
if [ ${#SHOTS[@]} -eq 0 ]; then
  SHOTS=(title setup game gameover replay profile settings rules lobby lan-pairing lan-setup lan-game title:en setup:en game:en rules:en four-setup four-game four-partners four-out four-over four-game:en review review:en)
fi

DATA=$(mktemp -d)
trap 'stop_peers; rm -rf "$DATA"' EXIT
mkdir -p "$OUT"
FILES=()
for spec in "${SHOTS[@]}"; do
  screen=${spec%%:*}
  lang=zh
  [ "$spec" != "$screen" ] && lang=${spec#*:}
  file=$OUT/$screen.png
  [ "$lang" != zh ] && file=$OUT/$screen-$lang.png
  rm -f "$file"
  echo "== $screen ($lang) -> ${file#$ROOT/}"
  frames=
  case $screen in
    lobby)
      "$PEER" host --yes --mode dark --name xiaozhang-pc --ai greedy >"$DATA/peer1.log" 2>&1 & PEERS+=($!)
      "$PEER" host --yes --mode flip --move-seconds 30 --name xiaoli-laptop --ai greedy >"$DATA/peer2.log" 2>&1 & PEERS+=($!)
      sleep 1 ;;
    lan-game)
      "$PEER" host --yes --mode dark --name xiaozhang-pc --ai greedy --seed 5 >"$DATA/peer1.log" 2>&1 & PEERS+=($!)
      frames=${LAN_FRAMES:-700}
      sleep 1 ;;
    lan-pairing)
      "$PEER" host --yes --mode dark --name xiaozhang-pc --ai greedy --seed 5 >"$DATA/peer1.log" 2>&1 & PEERS+=($!)
      frames=${LAN_FRAMES:-240}
      sleep 1 ;;
    lan-setup)
      "$PEER" host --yes --mode dark --name xiaozhang-pc --ai greedy --seed 5 >"$DATA/peer1.log" 2>&1 & PEERS+=($!)
      frames=${LAN_FRAMES:-360}
      sleep 1 ;;
  esac
  JUNQI_DEMO_FRAMES=${frames:-${JUNQI_DEMO_FRAMES:-}} JUNQI_WINDOW=$SIZE \
  JUNQI_DATA_DIR=$DATA JUNQI_DEMO=$screen JUNQI_LANG=$lang JUNQI_SCREENSHOT=$file \
    BEVY_ASSET_ROOT=$ROOT timeout "${SHOT_SECONDS:-300}" \
    xvfb-run -a -s "-screen 0 ${SIZE}x24" "$BIN" >"$DATA/$screen-$lang.log" 2>&1 \
    || { echo "app failed:"; tail -20 "$DATA/$screen-$lang.log"; }
  stop_peers
  FILES+=("$file")
done
python3 scripts/png-check.py "${FILES[@]}"
