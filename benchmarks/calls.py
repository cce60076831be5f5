"""Whole ``solve`` calls on the 8-puzzle as a user's loop sees them, in two checkouts side by
side (0.1's API and 0.2's): wall time and the search's own seconds per call, medians per process,
processes alternating between the two trees (before, after; then after, before; ...).

    python -m benchmarks.calls --before TREE [--after TREE] [--rounds 8] [--tune] [--csv FILE]
                               [--cases iddfs:1:5,iddfs:all:5,idastar:1:30,bidir:1:300,...]

A case is ``method:threads:calls`` (threads ``all``: every numba thread); ``iddfs`` and
``idastar`` count every optimal solution, as ``benchmarks 8puzzle`` does. ``--tune``: the 0.2
processes call ``puzzlelib.tune()`` first (0.1 made the same malloc settings on import).
Kernels load from numba's cache after the first process of each tree, so compile time is not
part of these figures (``benchmarks.sidebyside`` reports it).
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

START = (8, 6, 7, 2, 5, 4, 3, 0, 1)
CASES = "iddfs:1:5,iddfs:all:5,idastar:1:30,idastar:all:30,bidir:1:300,bfs:all:30"


def _one(tree, cases, tune):
    """In a child process: time each case in ``tree``'s puzzlelib; one line per case."""
    sys.path.insert(0, tree)
    import puzzlelib

    new = not puzzlelib.__version__.startswith("0.1")
    if new and tune:
        puzzlelib.tune()
    puzzle = puzzlelib.SlidingPuzzle("3x3") if new else None

    def call(method, threads):
        every = method in ("iddfs", "idastar")
        if new:
            r = puzzlelib.solve(puzzle, START, method=method, all_solutions=every, threads=threads)
            return r.stats.seconds
        r = puzzlelib.solve(START, method=method, all_solutions=every, threads=threads)
        return r.seconds

    for case in cases.split(","):
        method, threads, calls = case.split(":")
        threads = None if threads == "all" else int(threads)
        call(method, threads)
        walls, searches = [], []
        for _ in range(int(calls)):
            t0 = time.perf_counter()
            searches.append(call(method, threads))
            walls.append(time.perf_counter() - t0)
        print(case, statistics.median(walls) * 1e3, statistics.median(searches) * 1e3, flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.calls", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--cases", default=CASES)
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--csv")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        _one(args.one, args.cases, args.tune)
        return
    rows = []
    sides = [("before", os.path.abspath(args.before)), ("after", os.path.abspath(args.after))]
    for r in range(args.rounds):
        for side, tree in (sides if r % 2 == 0 else sides[::-1]):
            # run as a script, so that nothing but ``tree`` puts a puzzlelib on the path first
            cmd = [sys.executable, __file__, "--one", tree, "--cases", args.cases,
                   "--before", args.before] + (["--tune"] if args.tune else [])
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            for line in out.split("\n"):
                if line.strip():
                    case, wall, search = line.split()
                    rows.append({"round": r + 1, "side": side, "case": case,
                                 "wall_ms": float(wall), "search_ms": float(search)})
    for case in args.cases.split(","):
        med = {s: {k: statistics.median(x[k] for x in rows if x["case"] == case and x["side"] == s)
                   for k in ("wall_ms", "search_ms")} for s, _ in sides}
        print(f"{case}: wall {med['before']['wall_ms']:.4g} -> {med['after']['wall_ms']:.4g} ms "
              f"({med['after']['wall_ms'] / med['before']['wall_ms']:.3f}x); search "
              f"{med['before']['search_ms']:.4g} -> {med['after']['search_ms']:.4g} ms "
              f"({med['after']['search_ms'] / med['before']['search_ms']:.3f}x)")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
