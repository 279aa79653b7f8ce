#!/usr/bin/env bash
# Runs every test of the workspace. The app's tests run headless (MinimalPlugins)
# and need no display and no sound device (ALSA's headers are needed to build the
# sound: installed on Debian/Ubuntu if missing). As root (as in CI) it also runs
# the LAN discovery tests across network namespaces: two joined by a veth pair,
# and a four-seat table (四暗 and 双明) on four joined by a bridge (about 3 s each).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required: https://rustup.rs" >&2; exit 1; }
. scripts/ensure-alsa.sh
ensure_alsa
# Reuse a target directory outside the clone when one is given (CI cache).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
# The gates: formatting, lints and the docs, before any test (each fails the run).
if ! cargo fmt --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || {
    echo "error: rustfmt and clippy are needed: rustup component add rustfmt clippy" >&2; exit 1; }
fi
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --locked
python3 scripts/check_docs.py
python3 scripts/check_names.py
# No import circle between the files of a crate (docs/development.md, "Import circles").
for dir in game/src net/proto/src net/src src; do python3 scripts/import-cycles.py "$dir"; done
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns list >/dev/null 2>&1; then
  cargo build -p junqi-net --bin junqi-peer
  JUNQI_PEER="$CARGO_TARGET_DIR/debug/junqi-peer" net/scripts/netns-discovery.sh dark
  JUNQI_PEER="$CARGO_TARGET_DIR/debug/junqi-peer" net/scripts/netns-four.sh dark
  JUNQI_PEER="$CARGO_TARGET_DIR/debug/junqi-peer" net/scripts/netns-four.sh partners
else
  echo "note: the network-namespace discovery tests need root and iproute2; not run here"
fi
# The Android build's tools (symbol data, symbol check, manifest), on fixtures: a second.
if command -v python3 >/dev/null && python3 -c 'import tomllib' 2>/dev/null; then
  python3 -m unittest discover -s android -p 'test_*.py'
else
  echo "note: the Android tools' tests need python3 3.11 or later; not run here"
fi
# Last, so that its summary closes the output.
cargo test --workspace "$@"
