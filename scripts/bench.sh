#!/usr/bin/env bash
# Regenerates the figures the docs show: runs the engine bench (`junqi-cli bench`), the
# protocol bench (`junqi-net-bench`) and the arena's standard table (the rows in
# docs/bench/arena-rows.txt), writes docs/bench/{engine,net,arena}.json, then renders the
# markdown tables between the `<!-- bench:NAME -->` markers (scripts/bench_render.py).
#
#   scripts/bench.sh [engine] [net] [arena]    # default: all three, then render
#   scripts/bench.sh proof                     # the long strength rows (docs/bench/
#                                              # arena-proof-rows.txt: 200 games a row,
#                                              # hours) into docs/bench/arena-proof.json
#   scripts/bench.sh build                     # the first build of the two README commands
#   scripts/bench.sh render                    # only re-render the tables from the JSON
#   BENCH_ONLY='guard|alphabeta' scripts/bench.sh arena   # replay only the matching rows
#
# Environment: BENCH_THREADS (arena threads, default 2), BENCH_ROWS (the rows file),
# BENCH_ONLY (an extended regular expression: only the rows-file lines it matches are
# played; every other row keeps its last result from docs/bench/arena.json (arena-proof.json), with the date
# and commit it was measured at, and is played only if it has none),
# BENCH_SECONDS (engine bench measuring time, default 3), BENCH_BUILD (for `build`: `test`,
# `play` or both, the default; a part left out keeps its last figure from build.json), CARGO_TARGET_DIR (release
# builds; keep it apart from the debug/test target directory). Run it on a quiet machine,
# e.g. `nice -n 10 scripts/bench.sh`; the JSON records the load average at the start, the
# wall time and (for the arena) the CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required: https://rustup.rs" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is required to render the tables" >&2; exit 1; }
if [ -n "${BENCH_ONLY:-}" ]; then
  command -v jq >/dev/null || { echo "jq is required to keep the rows BENCH_ONLY leaves out" >&2; exit 1; }
fi

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(engine net arena)
out=docs/bench
rows_file="${BENCH_ROWS:-$out/arena-rows.txt}"
arena_json=arena
threads="${BENCH_THREADS:-2}"
seconds="${BENCH_SECONDS:-3}"
target="${CARGO_TARGET_DIR:-$PWD/target}"
bin="$target/release"
mkdir -p "$out"

want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

if want proof; then
  want arena && { echo "proof and arena are two runs: ask for one" >&2; exit 2; }
  # The same loop as the standard table, on the long rows, into its own file.
  rows_file="${BENCH_ROWS:-$out/arena-proof-rows.txt}" arena_json=arena-proof
  parts+=(arena)
fi

# Sets cpu_now to the CPU seconds (user + system) used so far by this script's finished
# children. `times` must run in this shell (a subshell would report its own children), so
# it writes to a file and the function sets a variable instead of printing.
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
children_cpu() {
  times > "$cpu_file"
  cpu_now=$(tail -n 1 "$cpu_file" | awk '{
    s = 0
    for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
    printf "%.1f", s
  }')
}
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }

# Facts about the run every JSON file carries: when, which commit, which machine, how busy.
meta() {
  local commit dirty
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  # Dirty: uncommitted changes to anything but the docs (which this script rewrites).
  dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -v '^.. docs/' | grep -qv '\.md$' && echo true || echo false)
  printf '"date":"%s","commit":"%s","dirty":%s,"cores":%s,"load_at_start":"%s"' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$dirty" "$(nproc)" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
}

# `build`: each README command in a fresh clone of HEAD with an empty target directory (the
# crates already in cargo's download cache), timed by /usr/bin/time: `./scripts/test.sh` and
# `./scripts/run.sh --build-only`. Needs idle cores to mean anything: the JSON keeps the load.
build_part() {
  local name=$1; shift
  local tmp; tmp=$(mktemp -d)
  git clone -q . "$tmp/junqi"
  echo "build: $name in a fresh clone ($tmp), empty target directory" >&2
  if ! (cd "$tmp/junqi" && CARGO_TARGET_DIR="$tmp/target" /usr/bin/time -v -o "$tmp/time" "$@" > "$tmp/out" 2>&1); then
    echo "build: $name failed; its output is in $tmp/out" >&2
    exit 1
  fi
  python3 - "$name" "$tmp/time" "$tmp/out" <<'PY'
import json, re, sys
name, time_file, out_file = sys.argv[1:]
t = open(time_file).read()
def field(label):
    return re.search(re.escape(label) + r"(?: \([^)]*\))?: (.+)", t).group(1).strip()
wall = 0.0
for part in field("Elapsed (wall clock) time").split(":"):
    wall = wall * 60 + float(part)
tests = [0, 0, 0]
for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", open(out_file, errors="replace").read()):
    tests = [a + int(b) for a, b in zip(tests, m.groups())]
print(json.dumps({"part": name, "wall_seconds": round(wall, 1),
    "user_seconds": float(field("User time")), "system_seconds": float(field("System time")),
    "peak_rss_mb": round(int(field("Maximum resident set size")) / 1024),
    "tests": dict(zip(["passed", "failed", "ignored"], tests)) if name == "test" else None}))
PY
  rm -rf "$tmp"
}

if want build; then
  command -v /usr/bin/time >/dev/null || { echo "build needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
  start=$(date +%s) facts=$(meta)
  previous="$out/build.json"
  entries=()
  for part in test play; do
    case " ${BENCH_BUILD:-test play} " in
      *" $part "*)
        part_facts=$(meta)
        if [ "$part" = test ]; then line=$(build_part test ./scripts/test.sh)
        else line=$(build_part play ./scripts/run.sh --build-only); fi
        entries+=("$(printf '%s' "$line" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(dict(d, **json.loads(sys.argv[1]))))' "{$part_facts}")") ;;
      *)
        kept=$(python3 -c 'import json,sys; print(next((json.dumps(p) for p in json.load(open(sys.argv[1]))["parts"] if p["part"] == sys.argv[2]), ""))' "$previous" "$part" 2>/dev/null || true)
        [ -n "$kept" ] && entries+=("$kept") ;;
    esac
  done
  joined=$(IFS=,; echo "${entries[*]}")
  printf '{%s,"command":"/usr/bin/time -v ./scripts/test.sh | ./scripts/run.sh --build-only, each in a fresh clone","wall_seconds":%s,"parts":[%s]}\n' \
    "$facts" "$(($(date +%s) - start))" "$joined" > "$out/build.json"
fi

if want engine || want net || want arena; then
  echo "building the release tools in $target (game and net crates, no Bevy)" >&2
  cargo build --release --locked -p junqi-game --bin junqi-cli --bin arena \
    -p junqi-net --bin junqi-net-bench --features junqi-net/testing
fi

if want engine; then
  echo "engine bench (${seconds} s per figure, one thread)" >&2
  start=$(date +%s) facts=$(meta)
  two=$("$bin/junqi-cli" bench --json --seconds "$seconds")
  four=$("$bin/junqi-cli" bench --json --seconds "$seconds" --players 4)
  printf '{%s,"command":"junqi-cli bench --json --seconds %s [--players 4]","wall_seconds":%s,"two_players":%s,"four_players":%s}\n' \
    "$facts" "$seconds" "$(($(date +%s) - start))" "$two" "$four" > "$out/engine.json"
fi

if want net; then
  echo "protocol bench" >&2
  start=$(date +%s) facts=$(meta)
  # NaN (a part that could not run, e.g. no multicast for the discovery) is not JSON.
  line=$("$bin/junqi-net-bench" --json | sed 's/\bNaN\b/null/g')
  printf '{%s,"command":"junqi-net-bench --json","wall_seconds":%s,"result":%s}\n' \
    "$facts" "$(($(date +%s) - start))" "$line" > "$out/net.json"
fi

if want arena; then
  [ -f "$rows_file" ] || { echo "no rows file: $rows_file" >&2; exit 1; }
  start=$(date +%s) facts=$(meta)
  children_cpu
  cpu_start=$cpu_now
  rows=()
  n=0
  only="${BENCH_ONLY:-}"
  previous="$out/$arena_json.json"
  while read -r mode a b games seed bar extra; do
    case "$mode" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    if [ -n "$only" ] && ! echo "$mode $a $b $games $seed $bar ${extra:-}" | grep -Eq -- "$only"; then
      # Not asked for: the row's last result, if the previous run has it.
      kept=$(jq -c --arg m "$mode" --arg a "$a" --arg b "$b" --argjson s "$seed" \
        --argjson g "$games" --arg e "${extra:-}" --slurpfile prev "$previous" -n '
        $prev[0] as $p | [$p.rows[] | select(.result.mode == $m and .result.a == $a
          and .result.b == $b and .result.seed == $s and .requested_games == $g
          and .extra_args == $e)
          | .date //= $p.date | .commit //= $p.commit] | first // empty' 2>/dev/null || true)
      if [ -n "$kept" ]; then
        echo "arena row $n: $a vs $b, $mode: kept from $previous" >&2
        rows+=("$kept")
        continue
      fi
    fi
    echo "arena row $n: $a vs $b, $mode, $games games, seed $seed" >&2
    row_start=$(date +%s)
    children_cpu
    row_cpu=$cpu_now
    # shellcheck disable=SC2086 # the extra arguments are words on purpose
    line=$("$bin/arena" --a "$a" --b "$b" --mode "$mode" --games "$games" --seed "$seed" \
      --threads "$threads" --json ${extra:-} 2>/dev/null)
    # A bar of the form SCORE/DRAWS also caps the share of drawn games.
    max_draws=null
    case "$bar" in */*) max_draws=${bar#*/} bar=${bar%/*} ;; esac
    [ "$bar" = "-" ] && bar=null
    children_cpu
    rows+=("$(printf '{"date":"%s","commit":"%s","requested_games":%s,"bar":%s,"max_draws":%s,"extra_args":"%s","row_wall_seconds":%s,"row_cpu_seconds":%s,"result":%s}' \
      "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
      "$games" "$bar" "$max_draws" "${extra:-}" "$(($(date +%s) - row_start))" \
      "$(minus "$cpu_now" "$row_cpu")" "$line")")
  done < "$rows_file"
  joined=$(IFS=,; echo "${rows[*]}")
  children_cpu
  printf '{%s,"command":"arena --a A --b B --mode MODE --games N --seed S --threads %s --json","rows_file":"%s","wall_seconds":%s,"cpu_seconds":%s,"rows":[%s]}\n' \
    "$facts" "$threads" "$rows_file" "$(($(date +%s) - start))" \
    "$(minus "$cpu_now" "$cpu_start")" "$joined" > "$out/$arena_json.json"
fi

python3 scripts/bench_render.py
