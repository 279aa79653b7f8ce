"""The Android platform's exported symbols, as kept in android/abi/*.txt (see its README)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ABI_DIR = Path(__file__).resolve().parent / "abi"
# arm64's first API level: a symbol with no `api=` has been there since.
FIRST_API = 21


class AbiDataError(Exception):
    """A malformed line in a symbol list (file, line number, what is wrong)."""


@dataclass(frozen=True)
class Symbol:
    name: str
    node: str
    api: int
    is_var: bool


@dataclass
class Library:
    soname: str
    versioned: bool
    # Version nodes in file order, each with its parent (None for the first).
    nodes: list[tuple[str, str | None]] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)

    def at_api(self, api: int) -> list[Symbol]:
        """The symbols the library exports at `api`."""
        return [s for s in self.symbols if s.api <= api]

    def lookup(self, name: str, api: int) -> Symbol | None:
        for s in self.symbols:
            if s.name == name and s.api <= api:
                return s
        return None


_NODE = re.compile(r"^\[([A-Za-z0-9_]+)(?:\s*:\s*([A-Za-z0-9_]+))?\]$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse(path: Path) -> Library:
    lib: Library | None = None
    soname = None
    versioned = False
    node = None
    seen: set[str] = set()
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue

        def fail(what: str) -> AbiDataError:
            return AbiDataError(f"{path}:{number}: {what}: {raw.strip()!r}")

        if line.startswith("%soname "):
            soname = line.split(None, 1)[1]
            continue
        if line == "%versioned":
            versioned = True
            continue
        if lib is None:
            if soname is None:
                raise fail("a symbol list starts with `%soname NAME`")
            lib = Library(soname=soname, versioned=versioned)
        m = _NODE.match(line)
        if m:
            node, parent = m.group(1), m.group(2)
            known = [n for n, _ in lib.nodes]
            if node in known:
                raise fail("version node given twice")
            if parent is not None and parent not in known:
                raise fail("unknown parent node")
            lib.nodes.append((node, parent))
            continue
        if node is None:
            raise fail("a symbol before any [NODE]")
        words = line.split()
        name, api, is_var = words[0], FIRST_API, False
        if not _NAME.match(name):
            raise fail("not a symbol name")
        for word in words[1:]:
            if word == "var":
                is_var = True
            elif word.startswith("api=") and word[4:].isdigit():
                api = max(FIRST_API, int(word[4:]))
            else:
                raise fail(f"unknown attribute {word!r}")
        if name in seen:
            raise fail("symbol given twice")
        seen.add(name)
        lib.symbols.append(Symbol(name, node, api, is_var))
    if lib is None:
        raise AbiDataError(f"{path}: no symbols")
    return lib


def load_all(directory: Path = ABI_DIR) -> dict[str, Library]:
    """Every documented system library, by soname."""
    libs = {}
    for path in sorted(directory.glob("*.txt")):
        lib = parse(path)
        libs[lib.soname] = lib
    return libs
