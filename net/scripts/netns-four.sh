#!/usr/bin/env bash
# A four-seat table across four network namespaces (needs root): the host
# advertises by mDNS in namespace S; three guests in E, N and W, joined to
# it by a bridge, find it without an address, connect over QUIC and play a
# whole game with computer players; all four must print the same result,
# record and a clean audit.
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
[ "$KIND" = partners ] && EXTRA=(--partners-open)
[ "$KIND" = open ] && EXTRA=(--mode open)
ip netns exec "${NS[0]}" "$BIN" host --seats 4 "${EXTRA[@]}" --ai greedy --seed 1 --name nstable --yes > "$DIR/south.log" 2>&1 &
sleep 0.5
SEATS=(east north west)
for i in 1 2 3; do
  ip netns exec "${NS[$i]}" timeout 180 "$BIN" join --seat "${SEATS[$((i - 1))]}" --ai random --seed "$i" --yes > "$DIR/${SEATS[$((i - 1))]}.log" 2>&1 &
done
wait
grep -E '^(discovered|result|verdict)' "$DIR"/*.log
for s in east north west; do grep -q '^discovered nstable at 10.214.0.1' "$DIR/$s.log"; done
for s in south east north west; do grep -q 'verdict: clean audit' "$DIR/$s.log"; done
test "$(grep -h '^record:' "$DIR"/*.log | sort -u | wc -l)" = 1
echo "netns four-seat table $KIND ok"
