#!/usr/bin/env bash
# A four-seat table across four network namespaces (needs root): the host
# advertises by mDNS in namespace S; three guests in E, N and W, joined to
# it by a bridge in the root namespace, find it without an address, connect
# over QUIC and play a whole game with computer players. Every process must
# exit 0 and print the same pairing code, public events, ending, result,
# record and a clean audit (the lines net/tests/table_e2e.rs compares).
# Prints each guest's discovery time and the whole run's time.
#
#   sudo net/scripts/netns-four.sh [dark|partners|open]
set -euo pipefail
KIND=${1:-dark}
BIN=${JUNQI_PEER:-${CARGO_TARGET_DIR:-target}/release/junqi-peer}
BR=jqbr$$
DIR=$(mktemp -d)
NS=(jq-s-$$ jq-e-$$ jq-n-$$ jq-w-$$)
cleanup() {
  for n in "${NS[@]}"; do ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null || true; done
  for n in "${NS[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  ip link del "$BR" 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT
T0=$(date +%s%N)
ip link add "$BR" type bridge
ip link set "$BR" up
for i in 0 1 2 3; do
  n=${NS[$i]}
  ip netns add "$n"
  ip link add "v$i-$$" type veth peer name "p$i-$$"
  ip link set "p$i-$$" master "$BR" up
  ip link set "v$i-$$" netns "$n"
  ip -n "$n" addr add "10.214.0.$((i + 1))/24" dev "v$i-$$"
  ip -n "$n" link set lo up
  ip -n "$n" link set "v$i-$$" up multicast on
done
EXTRA=()
case "$KIND" in
  dark) ;;
  partners) EXTRA=(--partners-open) ;;
  open) EXTRA=(--mode open) ;;
  *) echo "usage: $0 [dark|partners|open]" >&2; exit 2 ;;
esac
SEATS=(south east north west)
PIDS=()
ip netns exec "${NS[0]}" timeout 180 "$BIN" host --seats 4 "${EXTRA[@]}" --ai greedy --seed 1 --name nstable --yes > "$DIR/south.log" 2>&1 &
PIDS+=($!)
sleep 0.5
for i in 1 2 3; do
  ip netns exec "${NS[$i]}" timeout 180 "$BIN" join --seat "${SEATS[$i]}" --ai random --seed "$i" --yes > "$DIR/${SEATS[$i]}.log" 2>&1 &
  PIDS+=($!)
done
FAILED=0
for i in 0 1 2 3; do
  wait "${PIDS[$i]}" || { echo "${SEATS[$i]} exited with $?" >&2; FAILED=1; }
done
T1=$(date +%s%N)
grep -E '^(discovered|pairing|result|verdict)' "$DIR"/*.log
if [ "$FAILED" = 1 ]; then tail -n 20 "$DIR"/*.log >&2; exit 1; fi
for s in east north west; do grep -q '^discovered nstable at 10.214.0.1' "$DIR/$s.log"; done
shared() { grep -E '^(pairing code:|event:|ending:|result:|record:|verdict:)' "$1"; }
shared "$DIR/south.log" > "$DIR/south.shared"
for s in east north west; do
  shared "$DIR/$s.log" | cmp -s - "$DIR/south.shared" || { echo "$s printed another game than south" >&2; exit 1; }
done
grep -qx 'verdict: clean audit' "$DIR/south.shared"
grep -qx 'ending: Played' "$DIR/south.shared"
grep -q '^record: ' "$DIR/south.shared"
if grep -qx 'result: none' "$DIR/south.shared"; then echo "no result" >&2; exit 1; fi
echo "netns four-seat table $KIND ok ($(grep -c '^event:' "$DIR/south.shared") events; $(( (T1 - T0) / 1000000 )) ms for the namespaces, discovery and the whole game)"
