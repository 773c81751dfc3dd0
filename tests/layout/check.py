#!/usr/bin/env python3
"""The layering of preload/ and analysis/ (issue 21), checked.

  check.py ROOT OBJECT...

LAYERS below is the one place the order is defined: lowest first. A file's
layer is its folder's. Then, for every source file under preload/ and
analysis/ and every object built from them:

  - an #include names a file of its own layer or a lower one;
  - a reference to a symbol another object defines (a call, or a read of
    its data: nm, so what the linker sees, inline functions included) goes
    to its own layer or a lower one;
  - no circle: neither the includes between files nor the references
    between objects may go round, even inside one layer. The hook table's
    own circle is the one exception: tables/real.c names every hook, and
    every hook reaches its real function through it;
  - at most MAX_TOP .c files sit directly in preload/ and in analysis/;
  - every folder is in LAYERS (a new one has to be placed).

Layers that share a line are peers: either may use the other, but no file
circle may run through them. Exits 1 with one line per finding.
"""
import collections
import os
import re
import subprocess
import sys

# Lowest first. A line's folders are one layer.
LAYERS = [
    ("analysis/index",),                       # interval tree, hash map, slab pool
    ("analysis",),                             # engine.h (the interface), reasons, view
    ("analysis/algebra", "analysis/rules"),    # the fold algebra; kernel rules
    ("analysis/engine", "analysis/learn", "analysis/log"),  # the engine's state, learning, log
    ("preload/tables",),                       # hook tables, real functions
    ("preload/core",),                         # the one engine, its lock, the environment
    ("preload/streams",),                      # stream ids and order, events, replays, late marks
    ("preload/calls",),                        # describing calls, the hook steps, verify mode
    ("preload/launch",),                       # kernel launches, names, modules
    ("preload/learning",),                     # the hooks' half of learning
    ("preload", "preload/driver", "preload/runtime", "preload/cublas", "preload/lt",
     "preload/aten", "preload/gen"),           # the families: every hook (gen: built)
]
# Files whose layer is not their folder's: the two routes by which a program
# finds functions (dlsym, cuGetProcAddress) are hooks like any family's.
FILE_LAYER = {
    "preload/tables/dlsym.c": "preload/driver",
    "preload/tables/procaddress.c": "preload/driver",
}
# The hook table's own circle: the table names every hook.
TABLE_OWN = {"preload/tables/real"}
MAX_TOP = 10
PARTS = ("preload", "analysis")
SOURCE = (".c", ".h", ".def")

RANK = {folder: i for i, line in enumerate(LAYERS) for folder in line}


def layer_of(path):
    """The rank of a source path (relative to the root), or None."""
    folder = FILE_LAYER.get(path, os.path.dirname(path))
    return RANK.get(folder)


def sources(root):
    for part in PARTS:
        for d, _, names in os.walk(os.path.join(root, part)):
            for n in sorted(names):
                if n.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(d, n), root)


def resolve(root, include, frm):
    """The file an #include "..." names: beside the includer, then -I."""
    for base in (os.path.dirname(frm),) + PARTS:
        p = os.path.normpath(os.path.join(base, include))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None  # a generated or system header


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def circles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_includes(root, bad):
    graph = collections.defaultdict(set)
    for f in sources(root):
        lf = layer_of(f)
        if lf is None:
            bad.append(f"{f}: its folder is in no layer (tests/layout/check.py LAYERS)")
            continue
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for m in INCLUDE.finditer(text):
            t = resolve(root, m.group(1), f)
            if t is None or t == f:
                continue
            graph[f].add(t)
            lt = layer_of(t)
            if lt is not None and lt > lf:
                bad.append(f"{f}: includes {t}, a higher layer")
    for c in circles(graph):
        bad.append("include circle through: " + ", ".join(c))


def symbols(obj):
    defined, undefined = set(), set()
    out = subprocess.run(["nm", obj], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDBRVWGS":
            defined.add(p[2])
        elif len(p) == 2 and p[0] == "U":
            undefined.add(p[1])
    return defined, undefined


def check_references(root, objects, bad):
    """Objects are build/<source path without .c>.o."""
    names = {}
    for o in objects:
        rel = os.path.relpath(o, os.path.join(root, "build")) if os.path.isabs(o) else o.split("/", 1)[1]
        names[o] = rel[:-2]
    defs, uses = {}, {}
    for o in objects:
        d, u = symbols(o)
        uses[o] = u
        for s in d:
            defs[s] = o
    graph = collections.defaultdict(set)
    for o in objects:
        src = names[o]
        if src in TABLE_OWN:
            continue
        lo = layer_of(src + ".c")
        for s in sorted(uses[o]):
            t = defs.get(s)
            if t is None or t == o or names[t] in TABLE_OWN:
                continue
            graph[src].add(names[t])
            lt = layer_of(names[t] + ".c")
            if lo is not None and lt is not None and lt > lo:
                bad.append(f"{src}.c: uses {s} of {names[t]}.c, a higher layer")
    for c in circles(graph):
        bad.append("call circle through: " + ", ".join(c))


def check_top(root, bad):
    for part in PARTS:
        top = [n for n in os.listdir(os.path.join(root, part)) if n.endswith(".c")]
        if len(top) > MAX_TOP:
            bad.append(f"{part}/: {len(top)} .c files directly inside (at most {MAX_TOP})")


def main():
    root, objects = sys.argv[1], sys.argv[2:]
    bad = []
    check_top(root, bad)
    check_includes(root, bad)
    check_references(root, [o for o in objects if o.endswith(".o")], bad)
    for b in bad:
        print("layout: " + b)
    if bad:
        return 1
    print(f"layout: {len(LAYERS)} layers, includes and references point down, no circles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
