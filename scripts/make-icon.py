#!/usr/bin/env python3
"""Draw the app icon: a round 军棋 piece with 军 on an army-green rounded square.

Writes into assets/icon/ (all committed):
  android/res/mipmap-{mdpi,hdpi,xhdpi,xxhdpi,xxxhdpi}/ic_launcher.png  48 72 96 144 192 px
  junqi-512.png   the store icon (Google Play asks for 512 x 512)
  junqi-256.png   the desktop window icon (src/window_icon.rs) and the .ico's largest image
  junqi.ico       Windows: 16 24 32 48 64 128 256 px (build.rs puts it in the .exe)

Needs Pillow (apt-get install python3-pil) and Debian's fonts-noto-cjk.
Run from anywhere:  python3 scripts/make-icon.py
The drawing is the project's own work, under the project's licence (MIT OR Apache-2.0).
"""
import pathlib
import sys

from PIL import Image, ImageDraw, ImageFont

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "assets/icon"
FONT = pathlib.Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FONT_INDEX = 2  # "Noto Serif CJK SC" inside the collection
MASTER = 1024  # drawn large once, then scaled down (smooth edges at every size)
ANDROID = {"mdpi": 48, "hdpi": 72, "xhdpi": 96, "xxhdpi": 144, "xxxhdpi": 192}
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]

GREEN = (46, 74, 46, 255)  # army green, as the board's green theme
GREEN_EDGE = (30, 50, 30, 255)
IVORY = (246, 234, 206, 255)  # the piece's face
WOOD = (196, 150, 90, 255)  # the piece's side
RED = (190, 30, 30, 255)  # the red side's colour


def draw_master() -> Image.Image:
    s = MASTER
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # Rounded square background (launchers that mask it to a circle still show the piece).
    d.rounded_rectangle([0, 0, s - 1, s - 1], radius=s * 0.22, fill=GREEN_EDGE)
    m = s * 0.025
    d.rounded_rectangle([m, m, s - 1 - m, s - 1 - m], radius=s * 0.2, fill=GREEN)
    # The piece: a disc with a thick wooden side (offset down), an ivory face, a red ring.
    c, r = s / 2, s * 0.36
    side = s * 0.035
    d.ellipse([c - r, c - r + side, c + r, c + r + side], fill=(0, 0, 0, 70))
    d.ellipse([c - r, c - r + side * 0.6, c + r, c + r + side * 0.6], fill=WOOD)
    d.ellipse([c - r, c - r, c + r, c + r], fill=IVORY)
    ring = r * 0.86
    d.ellipse([c - ring, c - ring, c + ring, c + ring], outline=RED, width=round(s * 0.022))
    # The character, centred on its ink box (a glyph's advance box is not centred).
    font = ImageFont.truetype(str(FONT), size=round(s * 0.46), index=FONT_INDEX)
    left, top, right, bottom = d.textbbox((0, 0), "军", font=font)
    d.text((c - (left + right) / 2, c - (top + bottom) / 2), "军", font=font, fill=RED)
    return img


def main() -> int:
    if not FONT.exists():
        print(f"missing {FONT}: apt-get install fonts-noto-cjk", file=sys.stderr)
        return 1
    master = draw_master()
    scaled = lambda n: master.resize((n, n), Image.LANCZOS)
    for density, n in ANDROID.items():
        path = OUT / f"android/res/mipmap-{density}/ic_launcher.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        scaled(n).save(path, optimize=True)
    for n in (512, 256):
        scaled(n).save(OUT / f"junqi-{n}.png", optimize=True)
    scaled(256).save(OUT / "junqi.ico", sizes=[(n, n) for n in ICO_SIZES])
    for f in sorted(OUT.rglob("*")):
        if f.is_file():
            print(f"{f.relative_to(ROOT)}: {f.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
