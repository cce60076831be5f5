"""Two versions in one process, call by call: ``python -m benchmarks.inprocess --before TREE
[--after TREE] [--pairs N] [--csv FILE] WORKLOAD ...`` (``--list`` names the workloads).

:mod:`benchmarks.sidebyside` runs each version in processes of its own, one after the other; on
a shared machine whose speed drifts between processes, its ratios spread as widely
(benchmarks/RESULTS.md, "In one process, call by call"). Here each tree's ``puzzlelib`` is
copied under a name of its own (``pl_before``, ``pl_after``: the package imports itself by
relative imports, and the few places that name it are renamed in the copy, and so are the names
of the stop word's symbols), both are imported into one process, and each workload's calls
alternate between them, before-after then after-before (ABBA), so that a drift weighs on the two
calls of a pair alike. Each pair gives a ratio, after / before (above 1: slower after); the
median of the ratios and their quartiles are reported with each side's median time. A call
shorter than 50 ms is repeated within its sample.

Both sides must give the same answer: each workload's result is summed up (length, solutions,
nodes, counts) and compared once before timing; a difference ends the run.

Kernels are compiled (or loaded from the package's cache, kept per copy as for any package) by
untimed calls first; a version whose threaded depth-first searches share their passes only once
the process has searched for some seconds (``SPLIT_AFTER_SECONDS``) shares them from the first
call, as a process that has searched that long does. Pattern databases are built, or loaded,
through each side's own code, so the first run of a workload that needs them takes their build
time as well.
"""

import argparse
import csv
import importlib
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
DATA = HERE / "data"
MIN_SAMPLE = 0.05


def _copy(tree, name, workdir):
    """``tree``'s package copied into ``workdir`` as ``name`` (its own name rewritten)."""
    dst = Path(workdir) / name
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(Path(tree) / "puzzlelib", dst,
                    ignore=shutil.ignore_patterns("__pycache__"))
    pattern = re.compile(r"(?<![\w.])puzzlelib\.(?=[A-Za-z_])")
    for path in dst.rglob("*.py"):
        text = path.read_text()
        new = pattern.sub(f"{name}.", text).replace('"puzzlelib_', f'"{name}_')
        if new != text:
            path.write_text(new)
    return name


def _rows(name):
    with open(DATA / name) as f:
        return list(csv.DictReader(f))


def _eight(m):
    return m.SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1"


def _fifteen(m):
    return m.SlidingPuzzle("4x4", goal=" ".join(map(str, range(16))))


def _korf(m, heuristic, n):
    starts = [r["start"] for r in _rows("korf100.csv")][:n]
    puz = _fifteen(m)
    return lambda: m.solve_many(puz, starts, heuristic=heuristic, progress=False)


def _korf24(m, ident):
    start = next(r["start"] for r in _rows("korf24.csv") if int(r["id"]) == ident)
    puz = m.SlidingPuzzle("5x5", goal=" ".join(map(str, range(25))))
    return lambda: m.solve(puz, start, method="idastar", heuristic="pdb6666", progress=False)


def _sliding_table(m, size, start, table="auto"):
    puz = m.SlidingPuzzle(size)
    return lambda: m.layers(puz, start, table=table, progress=False)


TWELVE = " ".join(map(str, list(range(1, 12)) + [0]))
PROBLEM1 = "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0"
PROBLEM2 = "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0"

#: name -> (what it times, a function of the package giving the call)
WORKLOADS = {
    "8puzzle-iddfs": ("8-puzzle IDDFS, all solutions, every thread",
                      lambda m: (lambda E, S: lambda: m.solve(
                          E, S, method="iddfs", all_solutions=True))(*_eight(m))),
    "8puzzle-iddfs-1t": ("8-puzzle IDDFS, all solutions, one thread",
                         lambda m: (lambda E, S: lambda: m.solve(
                             E, S, method="iddfs", all_solutions=True, threads=1))(*_eight(m))),
    "8puzzle-idastar": ("8-puzzle IDA*, all solutions, every thread",
                        lambda m: (lambda E, S: lambda: m.solve(
                            E, S, method="idastar", all_solutions=True))(*_eight(m))),
    "8puzzle-idastar-1t": ("8-puzzle IDA*, all solutions, one thread",
                           lambda m: (lambda E, S: lambda: m.solve(
                               E, S, method="idastar", all_solutions=True, threads=1))(
                                   *_eight(m))),
    "8puzzle-bfs": ("8-puzzle BFS solve",
                    lambda m: (lambda E, S: lambda: m.solve(E, S, method="bfs"))(*_eight(m))),
    "8puzzle-bidir": ("8-puzzle bidirectional solve",
                      lambda m: (lambda E, S: lambda: m.solve(E, S, method="bidir"))(*_eight(m))),
    "8puzzle-layers": ("8-puzzle, every position's depth",
                       lambda m: _sliding_table(m, "3x3", "1 2 3 4 5 6 7 8 0")),
    "001-problem1": ("document 001, problem 1 (4x4, repeated labels), every thread",
                     lambda m: _sliding_table(m, "4x4", PROBLEM1)),
    "001-problem2": ("document 001, problem 2, every thread",
                     lambda m: _sliding_table(m, "4x4", PROBLEM2)),
    "korf-manhattan-5": ("Korf's first 5 instances, IDA* with Manhattan distance",
                         lambda m: _korf(m, "manhattan", 5)),
    "korf-pdb78-100": ("Korf's 100, IDA* with the 7-8 pattern databases",
                       lambda m: _korf(m, "pdb78", 100)),
    "korf24-40": ("the 24-puzzle's instance 40 (Korf and Felner), IDA* with the 6-6-6-6 "
                  "databases, every thread", lambda m: _korf24(m, 40)),
    "3x4-packed": ("the 3x4's 239,500,800 positions, packed table",
                   lambda m: _sliding_table(m, "3x4", TWELVE, table="packed")),
    "pancake-11": ("pancake-11's table", lambda m: (lambda p: lambda: m.layers(
        p, progress=False))(m.PancakePuzzle(11))),
    "pancake-12": ("pancake-12's table", lambda m: (lambda p: lambda: m.layers(
        p, progress=False))(m.PancakePuzzle(12))),
    "blocks-classic": ("the classic block puzzle's BFS, every position",
                       lambda m: (lambda p: lambda: m.layers(p, progress=False))(
                           m.BlockPuzzle(m.CLASSIC))),
}


def _summary(res):
    """What both sides must agree on."""
    out = []
    for name in ("length", "solutions", "total", "max_depth"):
        out.append(getattr(res, name, None))
    stats = getattr(res, "stats", None)
    out.append(getattr(stats, "generated", None))
    counts = getattr(res, "counts", None)
    out.append(None if counts is None else tuple(int(c) for c in counts))
    if isinstance(res, (list, tuple)) or hasattr(res, "results"):
        items = getattr(res, "results", res)
        out.append(tuple((getattr(r, "length", None), getattr(getattr(r, "stats", None),
                                                              "generated", None))
                         for r in items))
    return tuple(out)


def _sample(f, reps):
    t0 = time.perf_counter()
    for _ in range(reps):
        f()
    return (time.perf_counter() - t0) / reps


def compare(fb, fa, pairs):
    """``pairs`` ABBA pairs of calls; returns (before's times, after's times, ratios)."""
    t0 = time.perf_counter()
    fb()
    one = time.perf_counter() - t0
    reps = 1 if one >= MIN_SAMPLE else max(1, int(MIN_SAMPLE / max(one, 1e-6)))
    tb, ta, ratios = [], [], []
    for k in range(pairs):
        if k % 2 == 0:
            b = _sample(fb, reps)
            a = _sample(fa, reps)
        else:
            a = _sample(fa, reps)
            b = _sample(fb, reps)
        tb.append(b)
        ta.append(a)
        ratios.append(a / b)
    return tb, ta, ratios, reps


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.inprocess",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("workloads", nargs="*", help="names (see --list)")
    ap.add_argument("--before", help="the other version's tree (a git worktree)")
    ap.add_argument("--after", default=str(HERE), help="default: this checkout")
    ap.add_argument("--pairs", type=int, default=12, help="ABBA pairs of calls per workload")
    ap.add_argument("--csv", help="also write the rows to this CSV file")
    ap.add_argument("--workdir", help="where the copies go (default: a temporary folder)")
    ap.add_argument("--list", action="store_true", help="name the workloads and stop")
    args = ap.parse_args(argv)
    if args.list:
        for name, (what, _) in WORKLOADS.items():
            print(f"{name:20s} {what}")
        return 0
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown or not args.workloads or not args.before:
        ap.error(f"unknown workload {unknown[0]!r} (see --list)" if unknown
                 else "give --before TREE and at least one workload (see --list)")
    if args.pairs < 2:
        ap.error("--pairs must be at least 2")
    workdir = args.workdir or tempfile.mkdtemp(prefix="inprocess-")
    sys.path.insert(0, workdir)
    mods = {side: importlib.import_module(_copy(tree, f"pl_{side}", workdir))
            for side, tree in (("before", args.before), ("after", args.after))}
    for m in mods.values():
        # a version that shares a threaded search's passes only once the process has searched
        # for a while (1.0) shares them from the first call, as a process that has
        ida = importlib.import_module(m.__name__ + ".search.idastar")
        if hasattr(ida, "SPLIT_AFTER_SECONDS"):
            ida.SPLIT_AFTER_SECONDS = 0.0
    rows = []
    for name in args.workloads:
        fb, fa = (WORKLOADS[name][1](mods[s]) for s in ("before", "after"))
        sb, sa = _summary(fb()), _summary(fa())  # (compiles or loads the kernels)
        if sb != sa:
            sys.exit(f"inprocess: {name}: the two versions disagree: {sb} against {sa}")
        fb()
        fa()
        tb, ta, ratios, reps = compare(fb, fa, args.pairs)
        q1, _, q3 = statistics.quantiles(ratios, n=4)
        row = dict(workload=name, pairs=args.pairs, calls_per_sample=reps,
                   before_ms=round(1e3 * statistics.median(tb), 4),
                   after_ms=round(1e3 * statistics.median(ta), 4),
                   ratio=round(statistics.median(ratios), 4), ratio_q1=round(q1, 4),
                   ratio_q3=round(q3, 4))
        rows.append(row)
        print(f"{name}: before {row['before_ms']:.3f} ms, after {row['after_ms']:.3f} ms, "
              f"after/before {row['ratio']:.3f} (quartiles {row['ratio_q1']:.3f}-"
              f"{row['ratio_q3']:.3f}; {args.pairs} pairs)", flush=True)
    if args.csv and rows:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
