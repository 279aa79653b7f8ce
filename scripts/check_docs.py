#!/usr/bin/env python3
"""Checks the docs: every relative link resolves (a file, and a heading when it names one), every journal entry is listed in the
journal's index, the READMEs stay short, and the bench tables match docs/bench/*.json.

    python3 scripts/check_docs.py     # prints each fault, exits 1 if there is one
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = {"target", ".git", "node_modules", "build"}
# [text](target) and ![alt](target); the target ends at whitespace or ')'.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
LIMITS = {"README.md": 200, "game/README.md": 1600}


def markdown_files():
    for path in sorted(ROOT.rglob("*.md")):
        rel = path.relative_to(ROOT)
        if not SKIP.intersection(rel.parts):
            yield path


def strip_code(text):
    """Links inside code blocks and code spans are examples, not links."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slugs(path):
    """The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces
    to hyphens, a repeated heading numbered."""
    seen, out = {}, set()
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def main():
    faults = []
    for path in markdown_files():
        text = strip_code(path.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL, mailto: or an anchor in the same page
            file_part, _, anchor = target.partition("#")
            linked = path.parent / file_part
            if not linked.exists():
                faults.append(f"{path.relative_to(ROOT)}: broken link {target}")
            elif anchor and linked.suffix == ".md" and anchor not in slugs(linked):
                faults.append(f"{path.relative_to(ROOT)}: no heading #{anchor} in {file_part}")

    journal = ROOT / "docs" / "journal"
    if journal.exists():
        index = (journal / "README.md").read_text(encoding="utf-8")
        linked = set(LINK.findall(index))
        for entry in sorted(journal.glob("*.md")):
            if entry.name != "README.md" and entry.name not in linked:
                faults.append(f"docs/journal/README.md: does not list {entry.name}")

    for name, limit in LIMITS.items():
        lines = (ROOT / name).read_text(encoding="utf-8").count("\n")
        if lines >= limit:
            faults.append(f"{name}: {lines} lines, the limit is under {limit}")

    render = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_render.py"), "--check"],
        capture_output=True,
        text=True,
    )
    if render.returncode != 0:
        faults.append("bench tables out of date (run scripts/bench_render.py):\n" + render.stdout)

    for f in faults:
        print(f)
    print(f"{len(faults)} fault(s)" if faults else "docs check: no fault")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
