#!/usr/bin/env python3
"""Checks that an Android shared library only needs what every device at the API level
has: each NEEDED entry is a documented system library (android/abi/) or one packaged
beside it, each undefined symbol is exported by a NEEDED system library at that level
(in the version node it asks for, if any), no text relocations, and AArch64 code.
Weak undefined symbols the platform lacks are allowed and listed: the loader binds
them to null and the code checks for that (Rust's std does so for `getrandom`).

Usage: symcheck.py [--readelf llvm-readelf-19] [--api 26] [--bundled NAME.so ...] LIB.so
Exits 1 and says what is wrong when the library would not load on such a device.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from abi_data import AbiDataError, Library, load_all


@dataclass(frozen=True)
class Undefined:
    name: str
    version: str | None
    weak: bool


@dataclass
class ElfFacts:
    machine: str
    needed: list[str]
    textrel: bool
    undefined: list[Undefined]


_NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[(.+)\]")
_MACHINE = re.compile(r"^\s*Machine:\s+(.+?)\s*$", re.M)
# llvm-readelf --dyn-syms --wide: Num: Value Size Type Bind Vis Ndx Name[@VERSION]
_SYM = re.compile(r"^\s*\d+:\s+[0-9a-f]+\s+\d+\s+\S+\s+(\S+)\s+\S+\s+(\S+)\s+(\S+)\s*$")


def parse_readelf(text: str) -> ElfFacts:
    """The facts this check needs from `readelf -h -d --dyn-syms --wide` output."""
    machine = _MACHINE.search(text)
    undefined = []
    for line in text.splitlines():
        m = _SYM.match(line)
        if not m or m.group(2) != "UND" or m.group(3) in ("", "0"):
            continue
        bind, name = m.group(1), m.group(3)
        version = None
        if "@" in name:
            name, version = name.split("@", 1)
            version = version.lstrip("@") or None
        undefined.append(Undefined(name, version, bind == "WEAK"))
    return ElfFacts(
        machine=machine.group(1) if machine else "unknown",
        needed=_NEEDED.findall(text),
        textrel=bool(re.search(r"\(TEXTREL\)|\bTEXTREL\b", text)),
        undefined=undefined,
    )


def check(facts: ElfFacts, libs: dict[str, Library], api: int,
          bundled: set[str]) -> tuple[list[str], list[str]]:
    """(errors, notes): errors make the library unfit for a device at `api`."""
    errors, notes = [], []
    if facts.machine != "AArch64":
        errors.append(f"machine is {facts.machine}, not AArch64")
    if facts.textrel:
        errors.append("has text relocations (TEXTREL)")
    system = []
    for name in facts.needed:
        if name in libs:
            system.append(libs[name])
        elif name not in bundled:
            errors.append(f"NEEDED {name}: not a platform library every device has, "
                          "nor packaged in the APK")
    for sym in facts.undefined:
        owners = [lib for lib in system if lib.lookup(sym.name, api)]
        if sym.version:
            owners = [lib for lib in owners
                      if lib.versioned and lib.lookup(sym.name, api).node == sym.version]
        if owners:
            continue
        where = f"@{sym.version}" if sym.version else ""
        if sym.weak:
            notes.append(f"weak {sym.name}{where}: not at API {api}, bound to null there")
        else:
            errors.append(f"{sym.name}{where}: not exported at API {api} by "
                          f"{', '.join(facts.needed) or 'any NEEDED library'}")
    return errors, notes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readelf", default="llvm-readelf-19")
    parser.add_argument("--api", type=int, default=26)
    parser.add_argument("--bundled", action="append", default=[])
    parser.add_argument("library", type=Path)
    args = parser.parse_args()
    try:
        libs = load_all()
    except AbiDataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    result = subprocess.run([args.readelf, "-h", "-d", "--dyn-syms", "--wide",
                             str(args.library)], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"error: {args.readelf} could not read {args.library}:\n{result.stderr}",
              file=sys.stderr)
        return 2
    facts = parse_readelf(result.stdout)
    errors, notes = check(facts, libs, args.api, set(args.bundled))
    for note in notes:
        print(f"note: {note}")
    print(f"{args.library.name}: AArch64={facts.machine == 'AArch64'}, "
          f"TEXTREL={facts.textrel}, NEEDED={' '.join(facts.needed)}, "
          f"{len(facts.undefined)} undefined symbols, "
          f"{len(facts.undefined) - len(notes) - len(errors)} found at API {args.api}")
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        print(f"symbol check FAILED: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print("symbol check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
