#!/usr/bin/env python3
"""Renders docs/bench/*.json as markdown tables into the docs, between markers.

A doc includes a table by holding the two lines

    <!-- bench:NAME -->
    <!-- /bench -->

where NAME is `engine`, `net`, `arena`, `build` or `build_summary`; whatever stands between them is replaced by the
table rendered from docs/bench/NAME.json (written by scripts/bench.sh). So every figure
between markers is the output of a command, never typed.

    python3 scripts/bench_render.py           # rewrite the docs
    python3 scripts/bench_render.py --check   # exit 1 if a doc is not up to date
"""

import json
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "docs" / "bench"
DOCS = [ROOT / "README.md", ROOT / "game" / "README.md", ROOT / "net" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"(<!-- bench:(\w+) -->\n)(.*?)(<!-- /bench -->)", re.S)


def load(name):
    path = BENCH / f"{name}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def num(x, digits=0):
    """A figure with thousands separators, or a dash when the bench could not measure it."""
    if x is None:
        return "—"
    return f"{x:,.{digits}f}"


def provenance(data, what):
    dirty = " (with uncommitted changes)" if data.get("dirty") else ""
    cpu = f", {data['cpu_seconds'] / 60:.1f} CPU minutes" if "cpu_seconds" in data else ""
    return (
        f"\n*{what}: `scripts/bench.sh` on {data['date']}, commit `{data['commit']}`{dirty}, "
        f"{data['cores']} cores, load average {data['load_at_start']} (1, 5, 15 min), "
        f"{data['wall_seconds']} s wall{cpu}. Raw figures: "
        f"[docs/bench/]({{bench}}).*\n"
    )


def engine(data):
    two, four = data["two_players"], data["four_players"]
    rows = [
        ("complete random games per second, one core (`Position` level)", "random_games_per_sec", 0),
        ("the same through `Game` (events, record, result checks)", "game_api_games_per_sec", 0),
        ("`legal_moves_into` per position, ns", "movegen_ns_per_position", 1),
        ("`Position` clone, ns", "position_clone_ns", 1),
        ("`Position` size, bytes", "position_bytes", 0),
        ("plies per random game", "avg_plies_per_game", 1),
        ("legal moves per position", "avg_moves_per_position", 1),
    ]
    out = ["| figure (thread CPU time) | two players | four players |", "|---|---|---|"]
    for label, key, digits in rows:
        out.append(f"| {label} | {num(two.get(key), digits)} | {num(four.get(key), digits)} |")
    return "\n".join(out) + "\n" + provenance(data, "Measured with `junqi-cli bench --json`")


def net(data):
    r = data["result"]
    out = [
        "| figure | measured | target |",
        "|---|---|---|",
        f"| attacker CPU per battle (median of {r['battles']:,}), ms | {num(r['attacker_ms_median'], 4)} | — |",
        f"| defender CPU per battle (median), ms | {num(r['defender_ms_median'], 4)} | — |",
        f"| one battle, both sides (medians), ms | {num(r['battle_total_ms_median'], 4)} | ≤ {r['battle_target_ms']} |",
        f"| a move's round trip over loopback QUIC (median of {r['round_trip_samples']}), ms | "
        f"{num(r['quic_move_round_trip_ms_median'], 3)} | ≤ {r['round_trip_target_ms']} |",
        f"| from start to discovering a host by mDNS, ms | {num(r['discovery_ms'], 1)} | — |",
        f"| a flip game's shuffle, both sides, ms | {num(r['flip_game_ms'], 1)} | — |",
        f"| opening one face-down piece, ms | {num(r['flip_opening_ms'], 3)} | — |",
    ]
    return "\n".join(out) + "\n" + provenance(data, "Measured with `junqi-net-bench --json`")


def quiet(r):
    """The draws by the quiet-move rule and their share of the games (— from an arena
    that did not count them)."""
    if "quiet_draws" not in r:
        return "—"
    return f"{r['quiet_draws']} ({100 * r['quiet_draw_rate']:.0f}%)"


def flag_share(r):
    """A's wins by flag capture and their share of A's wins."""
    if "a_wins_by" not in r:
        return "—"
    flags = r["a_wins_by"].get("flag", 0)
    return f"{flags} of {r['wins']}" + (f" ({100 * flags / r['wins']:.0f}%)" if r["wins"] else "")


def bar_text(bar, max_draws):
    """The row's bar: the score A should reach, and the most drawn games it allows."""
    if bar is None:
        return "—"
    return f"≥ {bar:.2f}" + ("" if max_draws is None else f", ≤ {100 * max_draws:.0f}% drawn")


def cpu(r):
    """A's processor time per move, one core (— from an arena that did not measure it)."""
    if "a_cpu_max_ms" not in r:
        return "—"
    return f"{r['a_cpu_mean_ms']:.1f} / {r['a_cpu_max_ms']:.0f}"


def measured_at(data):
    """When rows were replayed alone (`BENCH_ONLY`), the commits and dates they were
    measured at, row by row; empty when the whole table is one run."""
    runs = {}
    for i, row in enumerate(data["rows"], 1):
        key = (row.get("commit", data["commit"]), row.get("date", data["date"])[:10])
        runs.setdefault(key, []).append(i)
    if len(runs) <= 1:
        return ""
    parts = [f"rows {', '.join(map(str, rows))}: commit `{c}` ({d})" for (c, d), rows in runs.items()]
    return "\nRows measured apart (`BENCH_ONLY`): " + "; ".join(parts) + ".\n"


def arena(data):
    out = [
        "| mode | A vs B | games | W / D / L | score of A | 95% CI | bar | met "
        "| draws agreed / on the board | quiet-move draws | wins by the flag (either side) "
        "| A's wins by the flag | A think ms mean / max | A processor ms mean / max "
        "| plies mean (min–max) | illegal |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    rows = os.path.basename(data.get("rows_file", "arena-rows.txt"))
    for row in data["rows"]:
        r, bar = row["result"], row["bar"]
        ends = r.get("ends", {})
        games = f"{r['games']}" + ("" if r["games"] == row["requested_games"] else f" of {row['requested_games']}")
        # A time limit only bounds the run ("N of M" shows when it cut a row short); other
        # arguments change what is measured, so the table shows them.
        extra = re.sub(r"--time-limit\s+\S+", "", row.get("extra_args", "")).strip()
        if extra:
            games += f" (`{extra}`)"
        max_draws = row.get("max_draws")
        met = "—" if bar is None else ("yes" if r["score"] >= bar else "no")
        if bar is not None and max_draws is not None and r["draws"] > max_draws * r["games"]:
            met = "no (draws)"
        out.append(
            f"| {r['mode']} | {r['a']} vs {r['b']} | {games} | {r['wins']} / {r['draws']} / {r['losses']} "
            f"| {r['score']:.3f} | {r['ci95'][0]:.3f}–{r['ci95'][1]:.3f} "
            f"| {bar_text(bar, max_draws)} | {met} "
            f"| {ends.get('agreed_draw', 0)} / {ends.get('draw', 0)} | {quiet(r)} | {ends.get('flag', 0)} "
            f"| {flag_share(r)} "
            f"| {r['mean_ms']:.1f} / {r['max_ms']:.0f} | {cpu(r)} "
            f"| {r['mean_plies']:.0f} ({r['min_plies']}–{r['max_plies']}) | {r['illegal']} |"
        )
    note = (
        f"\nSeeds, game counts and bars per row are in [docs/bench/{rows}]({{bench}}{rows}); "
        f"`--threads {data['command'].split('--threads ')[1].split()[0]}`, release build, think times are wall clock "
        "on the shared machine, processor times one core's work. *Met* compares the score with the bar; short rows have wide "
        "intervals, so a strength claim needs more games.\n"
    )
    return "\n".join(out) + "\n" + note + measured_at(data) + provenance(data, "Played with `arena`")


def minutes(seconds):
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s} s"


BUILD_WHAT = {
    "test": "`./scripts/test.sh` (the test command, `.ci/run`)",
    "play": "`./scripts/run.sh --build-only` (the play command's first build, `player` profile)",
}


def build(data):
    out = [
        "| command, fresh clone, empty target directory | wall | CPU (user + system) | peak memory | tests passed / failed / ignored | measured |",
        "|---|---|---|---|---|---|",
    ]
    for p in data["parts"]:
        t = p.get("tests")
        tests = f"{t['passed']} / {t['failed']} / {t['ignored']}" if t else "—"
        out.append(
            f"| {BUILD_WHAT[p['part']]} | **{minutes(p['wall_seconds'])}** "
            f"| {p['user_seconds']:,.0f} s + {p['system_seconds']:,.0f} s | {p['peak_rss_mb']:,} MB | {tests} "
            f"| {p['date']}, commit `{p['commit']}`, {p['cores']} cores, load {p['load_at_start']} |"
        )
    return "\n".join(out) + (
        "\n\n*Measured with `scripts/bench.sh build` (crates already in cargo's download cache; "
        "`/usr/bin/time -v`). Raw figures: [docs/bench/build.json]({bench}build.json).*\n"
    )


def build_summary(data):
    parts = {p["part"]: p for p in data["parts"]}
    said = []
    if "play" in parts:
        said.append(f"the first `run.sh` builds the game in {minutes(parts['play']['wall_seconds'])}")
    if "test" in parts:
        said.append(f"the test command takes {minutes(parts['test']['wall_seconds'])}")
    cores = next(iter(parts.values()))["cores"] if parts else "?"
    return (
        f"From a fresh clone on {cores} cores (crates already downloaded) "
        + " and ".join(said)
        + " (`scripts/bench.sh build`; [docs/performance.md]({bench}../performance.md#building)).\n"
    )


# Tables rendered from another table's JSON file.
DATA = {"build_summary": "build", "arena_proof": "arena-proof"}

RENDER = {
    "engine": engine,
    "net": net,
    "arena": arena,
    "arena_proof": arena,
    "build": build,
    "build_summary": build_summary,
}


def render_doc(path):
    text = path.read_text(encoding="utf-8")
    bench = os.path.relpath(BENCH, path.parent).replace(os.sep, "/") + "/"

    def sub(m):
        name = m.group(2)
        if name not in RENDER:
            sys.exit(f"{path}: unknown bench table {name!r}")
        data = load(DATA.get(name, name))
        if data is None:
            return m.group(0)
        return m.group(1) + RENDER[name](data).replace("{bench}", bench) + m.group(4)

    return text, BLOCK.sub(sub, text)


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for path in DOCS:
        if not path.exists():
            continue
        old, new = render_doc(path)
        if old != new:
            stale.append(path.relative_to(ROOT))
            if not check:
                path.write_text(new, encoding="utf-8")
    for p in stale:
        print(f"{'stale' if check else 'rendered'}: {p}")
    if check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
