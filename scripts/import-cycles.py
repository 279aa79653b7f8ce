#!/usr/bin/env python3
"""Finds import circles between the files of a Rust crate's `src/`.

An edge A -> B means that file A names an item defined in file B through a
`crate::` / `super::` / `self::` path, in a `use` line or inline (`pub use`
re-exports are followed to the file that defines the item). `mod x;` lines
are not edges. Test code (`#[cfg(test)]` items and `tests.rs` files) is left
out. Prints every circle (strongly connected component of more than one
file) and exits 1 if there is one.

    scripts/import-cycles.py game/src [--skip ai --skip bin]
"""

import os
import re
import sys

ITEM = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern \"C\")\s+)*"
    r"(struct|enum|fn|const|type|trait|static|union|macro_rules!)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)
USE = re.compile(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
INLINE = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def strip_tests(text):
    """Drops `#[cfg(test)]` items (a brace-matched block or one line)."""
    out, i = [], 0
    while True:
        j = text.find("#[cfg(test)]", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = j + len("#[cfg(test)]")
        brace, semi = text.find("{", k), text.find(";", k)
        if semi >= 0 and (brace < 0 or semi < brace):
            i = semi + 1
            continue
        depth, k = 0, brace
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = tree.strip()
    depth = 0
    for i, ch in enumerate(tree):
        if ch == "{" and depth == 0:
            prefix, inner = tree[:i], tree[i + 1 : tree.rindex("}")]
            parts, cur, d = [], "", 0
            for c in inner:
                if c == "," and d == 0:
                    parts.append(cur)
                    cur = ""
                    continue
                d += c == "{"
                d -= c == "}"
                cur += c
            parts.append(cur)
            return [p for part in parts if part.strip() for p in expand(prefix + part.strip())]
        depth += ch == "{"
    return [re.sub(r"\s+as\s+\w+$", "", tree)]


def main():
    args = sys.argv[1:]
    root = args[0]
    skip = {args[i + 1] for i, a in enumerate(args) if a == "--skip"}
    files = {}  # module path tuple -> file
    for dirpath, _, names in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel.split(os.sep)[0] in skip:
            continue
        for n in names:
            if not n.endswith(".rs") or n == "tests.rs":
                continue
            parts = [] if rel == "." else rel.split(os.sep)
            stem = n[:-3]
            if stem not in ("lib", "main", "mod"):
                parts.append(stem)
            files[tuple(parts)] = os.path.join(dirpath, n)
    src = {m: strip_comments(strip_tests(open(f).read())) for m, f in files.items()}
    defs = {m: set(x[1] for x in ITEM.findall(t)) | set(MOD.findall(t)) for m, t in src.items()}
    reexports = {m: {} for m in src}  # name -> absolute path
    uses = {m: [] for m in src}

    def absolute(mod, path):
        segs = path.split("::")
        base = list(mod)
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        while segs and segs[0] in ("super", "self"):
            if segs.pop(0) == "super":
                base = base[:-1]
        return base + segs

    for m, t in src.items():
        for vis, tree in USE.findall(t):
            for p in expand(tree):
                if not re.match(r"(crate|super|self)::", p):
                    if p.split("::")[0] not in MOD.findall(t):
                        continue
                    p = "self::" + p
                a = absolute(m, p)
                if vis:
                    reexports[m][a[-1]] = a
                uses[m].append(a)
        for p in INLINE.findall(USE.sub("", t)):
            uses[m].append(absolute(m, p))

    def owner(path, seen=0):
        """The file module defining the item at absolute `path`."""
        for cut in range(len(path), 0, -1):
            mod, rest = tuple(path[:cut]), path[cut:]
            if mod in files:
                if not rest:
                    return mod
                name = rest[0]
                if name in defs[mod] and tuple(path[: cut + 1]) not in files:
                    return mod
                if name in reexports[mod] and seen < 20:
                    return owner(reexports[mod][name] + rest[1:], seen + 1)
                if tuple(path[: cut + 1]) in files:
                    continue
                return mod
        return None

    edges = {m: set() for m in src}
    for m, paths in uses.items():
        for p in paths:
            o = owner(p)
            if o is not None and o != m and o in src:
                edges[m].add(o)

    # Tarjan's strongly connected components.
    index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(src):
        if v not in index:
            visit(v)
    name = lambda m: os.path.relpath(files[m], root)
    circles = [c for c in comps if len(c) > 1]
    for c in circles:
        inside = set(c)
        print("circle:", ", ".join(sorted(name(m) for m in c)))
        for m in sorted(c):
            for o in sorted(edges[m] & inside):
                print(f"  {name(m)} -> {name(o)}")
    print(f"{len(src)} files, {sum(len(e) for e in edges.values())} edges, {len(circles)} circle(s)")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
