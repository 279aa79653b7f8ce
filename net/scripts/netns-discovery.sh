#!/usr/bin/env bash
# Discovery across two network namespaces joined by a veth pair (needs root):
# a host advertises by mDNS in namespace A, a guest in namespace B finds it
# without an address, connects over QUIC through the veth and plays a game.
#
#   sudo net/scripts/netns-discovery.sh [dark|open|flip]
set -euo pipefail
MODE=${1:-dark}
BIN=${JUNQI_PEER:-${CARGO_TARGET_DIR:-target}/release/junqi-peer}
A=junqi-a-$$; B=junqi-b-$$
DIR=$(mktemp -d)
cleanup() { ip netns pids "$A" 2>/dev/null | xargs -r kill 2>/dev/null || true
            ip netns del "$A" 2>/dev/null || true; ip netns del "$B" 2>/dev/null || true; rm -rf "$DIR"; }
trap cleanup EXIT
ip netns add "$A"; ip netns add "$B"
ip link add "va$$" type veth peer name "vb$$"
ip link set "va$$" netns "$A"; ip link set "vb$$" netns "$B"
ip -n "$A" addr add 10.213.0.1/24 dev "va$$"; ip -n "$B" addr add 10.213.0.2/24 dev "vb$$"
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set "va$$" up multicast on; ip -n "$B" link set "vb$$" up multicast on
ip netns exec "$A" "$BIN" host --mode "$MODE" --ai greedy --seed 1 --name nshost --port 47000 --move-seconds 20 --yes > "$DIR/host.log" 2>&1 &
sleep 0.5
T0=$(date +%s%N)
timeout 120 ip netns exec "$B" "$BIN" join --ai random --seed 2 --yes > "$DIR/guest.log" 2>&1
T1=$(date +%s%N)
wait || true
grep -E '^(discovered|result|verdict|pairing)' "$DIR/host.log" "$DIR/guest.log"
grep -q '^discovered nshost at 10.213.0.1' "$DIR/guest.log"
grep -q 'verdict: clean audit' "$DIR/guest.log"
echo "netns discovery $MODE ok ($(( (T1 - T0) / 1000000 )) ms for discovery and the whole game)"
