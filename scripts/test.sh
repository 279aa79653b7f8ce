#!/usr/bin/env bash
# Runs every test of the workspace. Installs nothing system-wide: the app's
# tests run headless (MinimalPlugins) and need no display.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required: https://rustup.rs" >&2; exit 1; }
# Reuse a target directory outside the clone when one is given (CI cache).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo test --workspace "$@"
