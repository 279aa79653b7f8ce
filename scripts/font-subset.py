#!/usr/bin/env python3
"""Regenerate the bundled CJK font subsets in assets/fonts/.

Needs Debian's fonts-noto-cjk (apt-get install fonts-noto-cjk) and fonttools
(pip install fonttools). The characters kept are every non-ASCII character in
the Fluent files (assets/i18n/*.ftl: everything the player reads), in src/ and
game/src/ (the board's printed labels, piece notation), the classic layout
names, a fixed list below, and all of printable ASCII.

Run from the repository root:  python3 scripts/font-subset.py
"""
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTO = pathlib.Path("/usr/share/fonts/opentype/noto")
# (source .ttc, index of "Noto Sans CJK SC" in it, output file)
FONTS = [
    (NOTO / "NotoSansCJK-Regular.ttc", 2, ROOT / "assets/fonts/NotoSansCJKsc-Regular-subset.otf"),
    (NOTO / "NotoSansCJK-Bold.ttc", 2, ROOT / "assets/fonts/NotoSansCJKsc-Bold-subset.otf"),
]
ALWAYS = (
    "司令军长师旅团营连排工兵地雷炸弹旗"  # pieces
    "小兵副班正"  # rating levels (RULES.md §8)
    "红蓝黑白胜负和棋步秒行营大本铁路公山界兵站"
    "０１２３４５６７８９？！，。：；（）《》【】、·…—－＞＜→←↑↓✓✗×÷±−"
    "零一二三四五六七八九十百千万"
)


def chars() -> str:
    found = set(ALWAYS)
    for sub in ("src", "game/src", "net/src"):
        for f in (ROOT / sub).rglob("*.rs"):
            found.update(c for c in f.read_text(encoding="utf-8") if ord(c) > 0x7E)
    for f in (ROOT / "assets/i18n").glob("*.ftl"):
        found.update(c for c in f.read_text(encoding="utf-8") if ord(c) > 0x7E)
    for f in (ROOT / "assets").rglob("*.json"):
        found.update(c for c in f.read_text(encoding="utf-8") if ord(c) > 0x7E)
    found.update(chr(c) for c in range(0x20, 0x7F))
    found.discard("\ufeff")
    return "".join(sorted(found))


def main() -> int:
    text = chars()
    print(f"{len(text)} characters")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as t:
        t.write(text)
        listing = t.name
    for src, index, out in FONTS:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "pyftsubset", str(src), f"--font-number={index}", f"--text-file={listing}",
                f"--output-file={out}", "--layout-features=*", "--no-hinting",
                "--desubroutinize", "--name-IDs=*", "--notdef-outline",
            ],
            check=True,
        )
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
