#!/usr/bin/env bash
# End-to-end over QUIC on 127.0.0.1: two junqi-peer processes play a whole
# game; with --kill the guest is killed mid-game and restarted from its saved
# state. Checks that both sides saw the same result and a clean audit.
#
#   net/scripts/e2e.sh [dark|open|flip] [--kill]
set -euo pipefail
MODE=${1:-dark}
KILL=${2:-}
BIN=${JUNQI_PEER:-${CARGO_TARGET_DIR:-target}/release/junqi-peer}
DIR=$(mktemp -d)
PORT=$((40000 + RANDOM % 20000))
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$DIR"' EXIT

"$BIN" host --mode "$MODE" --ai greedy --seed 3 --port "$PORT" --no-mdns --move-seconds 20 --yes \
  --state "$DIR/host" > "$DIR/host.log" 2>&1 &
HOST=$!
sleep 0.5
"$BIN" join --addr "127.0.0.1:$PORT" --ai random --seed 4 --yes --state "$DIR/guest" > "$DIR/guest.log" 2>&1 &
GUEST=$!
if [ "$KILL" = "--kill" ]; then
  for _ in $(seq 1 200); do
    n=$(grep -c '^event' "$DIR/guest.log" || true)
    [ "$n" -ge 12 ] && break
    sleep 0.05
  done
  kill -9 "$GUEST" || true
  wait "$GUEST" 2>/dev/null || true
  echo "killed the guest after $(grep -c '^event' "$DIR/guest.log") events"
  cp "$DIR/guest.log" "$DIR/guest-before.log"
  sleep 1
  "$BIN" join --addr "127.0.0.1:$PORT" --ai random --seed 5 --yes --state "$DIR/guest" > "$DIR/guest.log" 2>&1 &
  GUEST=$!
fi
wait "$GUEST"; G=$?
wait "$HOST"; H=$?
grep -E '^(resumed|result|verdict|pairing|connected)' "$DIR/host.log" "$DIR/guest.log" || true
HR=$(grep '^result' "$DIR/host.log")
GR=$(grep '^result' "$DIR/guest.log")
[ "$HR" = "$GR" ] || { echo "results differ: $HR / $GR"; exit 1; }
[ "$H" = 0 ] && [ "$G" = 0 ] || { echo "exit codes host $H guest $G"; tail -5 "$DIR"/*.log; exit 1; }
echo "e2e $MODE ${KILL:-} ok"
