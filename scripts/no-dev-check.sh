#!/usr/bin/env bash
# Shows that the app built without its `dev` feature (as `cargo build`, `scripts/run.sh` and
# the release packages build it) holds none of the dev tools: no demo driver (JUNQI_DEMO,
# JUNQI_SCREENSHOT), no diagnostics (JUNQI_DIAG), no headless test app, no code of the `demo`
# and `diag` modules. Then builds it with the feature and checks that the same search finds
# them there, so the check is seen to bite.
#
#   scripts/no-dev-check.sh            # debug builds (the features, not the optimiser, decide)
#   PROFILE=release scripts/no-dev-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
PROFILE=${PROFILE:-debug}
flags=(); [ "$PROFILE" = release ] && flags=(--release)
BIN=$CARGO_TARGET_DIR/$PROFILE/junqi

# What only the dev tools hold: their environment variables and their functions' symbols.
dev_marks() {
  local n=0 mark
  for mark in JUNQI_DEMO JUNQI_SCREENSHOT JUNQI_DIAG; do
    grep -qa "$mark" "$1" && { echo "  found the string $mark"; n=$((n + 1)); }
  done
  # Mangled paths of the modules' functions (legacy mangling: junqi::demo is 5junqi4demo).
  for mark in 5junqi4demo 5junqi4diag 12headless_app; do
    grep -qa "$mark" "$1" && { echo "  found the symbol $mark"; n=$((n + 1)); }
  done
  return "$n"
}

cargo build --locked "${flags[@]}" -p junqi --bin junqi
echo "junqi without the dev feature ($BIN):"
if dev_marks "$BIN"; then
  echo "  no dev tool"
else
  echo "error: the app without the dev feature holds dev tools" >&2
  exit 1
fi

cargo build --locked "${flags[@]}" -p junqi --bin junqi --features dev
echo "junqi with the dev feature:"
if dev_marks "$BIN"; then
  echo "error: the check found no dev tool in the dev build: it would miss them" >&2
  exit 1
fi
echo "ok: the dev tools are in the dev build only (the binary left is the dev build)"
