#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""structure.py [--check] [--module] [BUILD] - the shape of pagehop's source tree.

Prints, for user/ + kernels/ and for kmod/:
  - dependency cycles between files: file A depends on B when A includes B's
    header or calls a function that only B defines (read from the object
    files' symbol tables with nm, so build first: BUILD/obj, and
    BUILD/kmod/<kver>/kmod when the module was built);
  - files over 600 lines;
  - the longest function of each command (cmd_*.c), from ctags;
  - imports that run up the layers (README.md, "Layout"): kernels/ <
    user/base < user/io, user/machine < user/analysis < user/service <
    user/study < user/cli;
  - files of user/ outside those folders.

--check exits 1 when there is a cycle, an upward import or a file outside
the layer folders (tests/host/test_structure.sh, and "make structure" at
the end of make check, once the guests have built the module); without it,
the figures are only printed.

--module looks at kmod/ alone (tests/host/test_structure.sh).  The module's
call edges come only from objects built from the sources in kmod/ as they
are now: "make kmod" copies kmod/ next to its objects, and a build whose
copy differs is stale and not read.  Then only includes are counted, and
the exit status is 77 with --check (the test's "skip") unless a cycle was
found anyway.
"""
import filecmp
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 600

# Layers, lowest first: a file may use its own layer and those below it.
# Keyed by the folder under user/ (or the top folder, for kernels/).
LAYERS = {
    "kernels": 0,
    "base": 1,
    "io": 2,
    "machine": 2,
    "analysis": 3,
    "service": 4,
    "study": 5,
    "cli": 6,
}


def sources(top):
    out = []
    for ext in ("c", "h"):
        out += glob.glob(os.path.join(ROOT, top, "**", "*." + ext), recursive=True)
    return sorted(out)


def unit(path):
    """A .c and its .h are one unit: user/foo/bar.c and user/foo/bar.h -> user/foo/bar.

    So is bar_impl.h, the inside of bar.c that the files helping it share
    (user/io/output_impl.h: the document's structures, for the renderers).
    """
    u = os.path.splitext(os.path.relpath(path, ROOT))[0]
    return u[:-len("_impl")] if path.endswith("_impl.h") else u


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def include_edges(files):
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    edges = set()
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = os.path.basename(m.group(1))
                cands = by_name.get(name, [])
                # Prefer a header in the same folder, as the compiler does.
                same = [c for c in cands if os.path.dirname(c) == os.path.dirname(f)]
                for c in same or cands[:1]:
                    if unit(c) != unit(f):
                        edges.add((unit(f), unit(c)))
    return edges


def nm(path, defined):
    args = ["nm", "--defined-only" if defined else "--undefined-only", path]
    try:
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        if defined:
            if len(parts) >= 3 and parts[1] in "TDBR":
                syms.add(parts[2])
        else:
            syms.add(parts[-1])
    return syms


def call_edges(objs, src_of):
    """objs: object paths; src_of(obj) -> the unit the object was built from."""
    defs = {}
    for o in objs:
        for s in nm(o, True):
            defs.setdefault(s, set()).add(src_of(o))
    edges = set()
    for o in objs:
        a = src_of(o)
        for s in nm(o, False):
            owners = defs.get(s, set())
            if len(owners) == 1:
                b = next(iter(owners))
                if b != a:
                    edges.add((a, b))
    return edges


def current_kmod_build(build, kfiles):
    """The first BUILD/kmod/<kver>/kmod built, whole, from kmod/ as it is now, or None."""
    names = sorted(os.path.basename(f) for f in kfiles)
    for d in sorted(glob.glob(os.path.join(build, "kmod", "*", "kmod"))):
        copy = sorted(os.path.basename(f) for f in glob.glob(os.path.join(d, "*.[ch]"))
                      if not f.endswith(".mod.c"))  # kbuild's, not ours
        if copy != names:
            continue
        same = all(filecmp.cmp(f, os.path.join(d, os.path.basename(f)), shallow=False)
                   for f in kfiles)
        built = all(os.path.exists(os.path.join(d, os.path.basename(f)[:-2] + ".o"))
                    for f in kfiles if f.endswith(".c"))
        if same and built:
            return d
    return None


def sccs(nodes, edges):
    """Tarjan's strongly connected components with more than one member."""
    adj = {n: [] for n in nodes}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, [])
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        # Iterative, so deep graphs cannot overflow Python's stack.
        work = [(v, iter(sorted(adj[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(adj[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for n in sorted(adj):
        if n not in index:
            visit(n)
    return out


def layer_of(u):
    parts = u.split("/")
    if parts[0] == "kernels":
        return "kernels"
    if parts[0] == "user" and len(parts) > 2 and parts[1] in LAYERS:
        return parts[1]
    return None


def longest_functions(files):
    rows = []
    for f in files:
        try:
            out = subprocess.run(
                ["ctags", "-x", "--_xformat=%N %n %e", "--kinds-C=f", "--fields=+ne", f],
                capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        best = None
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[2].isdigit():
                n = int(p[2]) - int(p[1]) + 1
                if not best or n > best[1]:
                    best = (p[0], n)
        if best:
            rows.append((os.path.relpath(f, ROOT), best[0], best[1]))
    return rows


def module(build):
    """kmod/: the module.  Returns its cycles, its files and whether calls were counted."""
    kfiles = sources("kmod")
    kunits = {unit(f) for f in kfiles}
    kedges = include_edges(kfiles)
    ninc = len(kedges)
    kver_dir = current_kmod_build(build, kfiles)
    kobjs = []
    if kver_dir:
        kobjs = [o for o in glob.glob(os.path.join(kver_dir, "*.o"))
                 if not o.endswith((".mod.o", "/pagehop.o"))]
    kcalls = set()
    if kobjs:
        def ksrc(o):
            return "kmod/" + os.path.splitext(os.path.basename(o))[0]

        kcalls = call_edges(kobjs, ksrc)
        kedges |= kcalls
    else:
        print("# no module objects built from kmod/ as it is under %s/kmod "
              "(make kmod KVER=...): the module's call edges not counted" % build)
    kcyc = sccs(kunits, kedges)
    print("module: %d files, %d units, %d include edges, %d call edges" %
          (len(kfiles), len(kunits), ninc, len(kcalls)))
    print("module: dependency cycles: %d" % len(kcyc))
    for c in kcyc:
        print("  cycle: " + " <-> ".join(c))
    return kcyc, kfiles, bool(kobjs)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    module_only = "--module" in args
    args = [a for a in args if a not in ("--check", "--module")]
    build = os.path.join(ROOT, args[0] if args else "build")
    bad = 0

    if module_only:
        kcyc, _, counted = module(build)
        if check and kcyc:
            print("structure: %d problem(s)" % len(kcyc))
            return 1
        return 77 if check and not counted else 0

    # user/ and kernels/: the command.
    files = sources("user") + sources("kernels")
    units = {unit(f) for f in files}
    edges = include_edges(files)
    inc_only = set(edges)
    obj_root = os.path.join(build, "obj")
    # Only objects of sources that still exist: a file renamed or removed
    # leaves its old object behind, with edges the tree no longer has.
    objs = [o for o in glob.glob(os.path.join(obj_root, "**", "*.o"), recursive=True)
            if os.path.exists(os.path.join(ROOT, os.path.relpath(o, obj_root)[:-2] + ".c"))]

    def src_of(o):
        return os.path.splitext(os.path.relpath(o, obj_root))[0]

    calls = call_edges(objs, src_of)
    edges |= calls
    if not objs:
        print("# no object files under %s/obj: call edges not counted (build first)" % build)
    cyc = sccs(units, edges)
    print("command: %d files, %d units, %d include edges, %d call edges" %
          (len(files), len(units), len(inc_only), len(calls)))
    print("command: dependency cycles: %d" % len(cyc))
    for c in cyc:
        print("  cycle: " + " <-> ".join(c))
    bad += len(cyc)

    up = []
    for a, b in sorted(edges):
        la, lb = layer_of(a), layer_of(b)
        if la and lb and LAYERS[lb] > LAYERS[la]:
            up.append((a, b))
    # Every source of the command sits in the folder of its layer.
    loose = sorted(f for f in files if os.path.relpath(f, ROOT).startswith("user/")
                   and layer_of(unit(f)) is None)
    print("command: files outside a layer folder of user/: %d" % len(loose))
    for f in loose:
        print("  loose: %s" % os.path.relpath(f, ROOT))
    bad += len(loose)

    print("command: imports up the layers: %d" % len(up))
    for a, b in up:
        print("  up: %s (%s) -> %s (%s)" % (a, layer_of(a), b, layer_of(b)))
    bad += len(up)

    kcyc, kfiles, _ = module(build)
    bad += len(kcyc)

    big = []
    for f in files + kfiles + sources("tests"):
        with open(f, encoding="utf-8", errors="replace") as fh:
            n = sum(1 for _ in fh)
        if n > MAX_LINES:
            big.append((os.path.relpath(f, ROOT), n))
    print("files over %d lines: %d" % (MAX_LINES, len(big)))
    for f, n in sorted(big, key=lambda x: -x[1]):
        print("  %5d %s" % (n, f))

    cmds = [f for f in files if os.path.basename(f).startswith("cmd_") and f.endswith(".c")]
    print("longest function per command:")
    for f, name, n in sorted(longest_functions(cmds), key=lambda x: -x[2]):
        print("  %4d %s (%s)" % (n, name, f))

    if check and bad:
        print("structure: %d problem(s)" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
