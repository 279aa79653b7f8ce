#!/usr/bin/env python3
"""Synthesize the game's sound effects into assets/sounds/*.wav (all committed).

Pure standard library (math, random with a fixed seed, wave): the same bytes every run.
16-bit mono PCM at 22,050 Hz, each well under a second. The sounds are the project's own
work, made by this script, under the project's licence (MIT OR Apache-2.0).

  move     a wooden "tock": a piece set down (also a flip)
  battle   two pieces clash (an attack that is not a bomb, a mine or a flag)
  bomb     a low boom (a bomb goes off)
  mine     a click and a muffled thud (a landmine: stepped on, or dug up by an engineer)
  flag     a short rising fanfare (a flag is captured)
  timeout  two short beeps (the player's clock is running out)
  turn     a soft two-note chime (your turn, in a LAN game)

Run from anywhere:  python3 scripts/make-sounds.py
"""
import math
import pathlib
import random
import struct
import sys
import wave

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "assets/sounds"
RATE = 22050


def silence(secs):
    return [0.0] * int(secs * RATE)


def tone(freq, secs, decay, phase=0.0):
    """A sine at `freq` Hz, decaying by e every `decay` seconds."""
    n = int(secs * RATE)
    return [math.sin(2 * math.pi * freq * i / RATE + phase) * math.exp(-i / RATE / decay) for i in range(n)]


def sweep(f0, f1, secs, decay):
    """A sine gliding from f0 to f1 Hz (a drum-like boom when falling)."""
    out, ph = [], 0.0
    n = int(secs * RATE)
    for i in range(n):
        f = f0 + (f1 - f0) * i / n
        ph += 2 * math.pi * f / RATE
        out.append(math.sin(ph) * math.exp(-i / RATE / decay))
    return out


def noise(secs, decay, lowpass, rng):
    """White noise through a one-pole low-pass (`lowpass` in 0..1: smaller is duller)."""
    out, y = [], 0.0
    n = int(secs * RATE)
    for i in range(n):
        y += lowpass * (rng.uniform(-1, 1) - y)
        out.append(y * math.exp(-i / RATE / decay))
    return out


def mix(*parts):
    """Adds (gain, offset_secs, samples) parts into one track."""
    length = max(int(off * RATE) + len(s) for _, off, s in parts)
    out = [0.0] * length
    for gain, off, s in parts:
        start = int(off * RATE)
        for i, v in enumerate(s):
            out[start + i] += gain * v
    return out


def finish(samples, peak=0.7):
    """Normalises to `peak` and fades both ends over 3 ms (no clicks)."""
    top = max(abs(v) for v in samples) or 1.0
    fade = int(0.003 * RATE)
    n = len(samples)
    out = []
    for i, v in enumerate(samples):
        g = min(1.0, i / fade, (n - 1 - i) / fade)
        out.append(v / top * peak * g)
    return out


def sounds(rng):
    return {
        "move": mix(
            (1.0, 0, tone(190, 0.09, 0.018)),
            (0.5, 0, tone(740, 0.05, 0.008)),
            (0.6, 0, noise(0.03, 0.006, 0.5, rng)),
        ),
        "battle": mix(
            (0.7, 0, noise(0.05, 0.01, 0.8, rng)),
            (1.0, 0.0, tone(523, 0.28, 0.07)),
            (0.7, 0.0, tone(1231, 0.25, 0.05)),
            (0.5, 0.0, tone(1747, 0.2, 0.04)),
            (0.5, 0.06, noise(0.04, 0.01, 0.7, rng)),
        ),
        "bomb": mix(
            (1.0, 0, sweep(110, 35, 0.8, 0.22)),
            (1.2, 0, noise(0.8, 0.2, 0.06, rng)),
            (0.6, 0, noise(0.08, 0.02, 0.9, rng)),
        ),
        "mine": mix(
            (0.6, 0, tone(2400, 0.02, 0.004)),
            (0.8, 0.07, sweep(80, 40, 0.45, 0.12)),
            (1.0, 0.07, noise(0.45, 0.1, 0.04, rng)),
        ),
        "flag": mix(
            *[
                (g, off, mix((1.0, 0, tone(f, d, d / 2.5)), (0.35, 0, tone(2 * f, d, d / 4))))
                for g, off, f, d in [
                    (0.8, 0.00, 523.25, 0.16),
                    (0.8, 0.13, 659.25, 0.16),
                    (0.8, 0.26, 783.99, 0.16),
                    (1.0, 0.39, 1046.5, 0.5),
                ]
            ]
        ),
        "timeout": mix(
            (1.0, 0, tone(880, 0.08, 0.2)),
            (1.0, 0.16, tone(880, 0.08, 0.2)),
        ),
        "turn": mix(
            (1.0, 0, tone(659.25, 0.3, 0.1)),
            (0.9, 0.12, tone(987.77, 0.35, 0.12)),
        ),
    }


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(14)
    for name, samples in sounds(rng).items():
        pcm = finish(samples)
        path = OUT / f"{name}.wav"
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(b"".join(struct.pack("<h", round(v * 32767)) for v in pcm))
        print(f"{path.relative_to(ROOT)}: {len(pcm) / RATE:.2f} s, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
