#!/usr/bin/env python3
"""One name, one meaning: each type name below is defined at most once in the engine and the
protocol crates and the app (game/, net/, src/, tests/). These are the names that once meant two things (issue 51):
the protocol's rank codes are `WireRank`, its battle announcement `Announced` over the
engine's `Announcement`, its saved state `SavedSession`, its per-mode play state `ModeState`.

    python3 scripts/check_names.py     # prints each duplicate, exits 1 if there is one

The app's names: its match is `Match`, its game file `GameFile`, its battle caption
`Callout`, the profile's result `WinLossDraw`, its suspended game `SuspendedGame`.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROOTS = ["game", "net", "src", "tests"]
NAMES = [
    "Outcome", "Announcement", "Announced", "Rank", "WireRank", "Mode", "ModeState",
    "Session", "SavedGame", "SavedSession", "Unfinished", "ViewError", "Removal",
    "OutcomeTable", "AnnouncementTable", "HintReason", "RankSet", "Match", "GameFile",
    "Callout", "WinLossDraw", "SuspendedGame", "Standing", "Ending",
]
DEF = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:enum|struct|type|trait|union)\s+(\w+)", re.M)


def main():
    found = {n: [] for n in NAMES}
    for sub in ROOTS:
        for path in sorted((ROOT / sub).rglob("*.rs")):
            if "target" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for m in DEF.finditer(text):
                if m.group(1) in found:
                    line = text.count("\n", 0, m.start()) + 1
                    found[m.group(1)].append(f"{path.relative_to(ROOT)}:{line}")
    faults = [f"{n} is defined {len(w)} times: {', '.join(w)}" for n, w in found.items() if len(w) > 1]
    for f in faults:
        print(f)
    print(f"{len(faults)} duplicate name(s)" if faults else "names check: no duplicate")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
