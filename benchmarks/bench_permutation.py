"""Permutation puzzles defined from their moves: the Pocket Cube's and pancake stacks' full
tables, the generic Rotation Puzzle against the hand-written one (8x8 worst case,
bidirectional), a plain-Python BFS beside the kernel, and IDA* with the gap heuristic on
random stacks of 30 to 60 pancakes; all measured side by side in one run.

    python -m benchmarks permutation [--repeat 5] [--pancakes 11] [--csv FILE]

``--pancakes 12`` adds the 479,001,600-stack table (minutes, 0.5 GB).
"""

import argparse
import math
import os
import platform
import statistics
import time
from collections import deque

import numba
import numpy as np

from puzzlelib import PancakePuzzle, PocketCube, RotationPuzzle, layers, solve

from ._common import write_csv
from .bench_rotation import worst_case


def plain_pancake_layers(n):
    """Plain Python: breadth-first over tuples in a dict."""
    start = tuple(range(1, n + 1))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        d = dist[s] + 1
        for k in range(2, n + 1):
            t = s[:k][::-1] + s[k:]
            if t not in dist:
                dist[t] = d
                queue.append(t)
    return max(dist.values())


def _timed(fn, repeat):
    first = fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        times.append(time.perf_counter() - t0)
    return first, res, times


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks permutation")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pancakes", type=int, default=11, help="largest full pancake table")
    ap.add_argument("--csv", default=None)
    args = ap.parse_args(argv)
    rows = []
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numba {numba.__version__}, {numba.get_num_threads()} threads")

    print("\nPocket Cube, full table (3,674,160 positions)")
    for metric in ("htm", "qtm"):
        cube = PocketCube(metric)
        for threads in (1, 2):
            first, res, times = _timed(lambda: layers(cube, threads=threads), args.repeat)
            med = statistics.median(times)
            print(f"  {metric} threads={threads}: median {med:.3f} s (of {len(times)}), search "
                  f"{res.stats.seconds:.3f} s, God's number {res.max_depth}, compile "
                  f"{first.stats.compile_seconds:.1f} s")
            rows.append(("pocket-cube", metric, threads, med, res.stats.seconds,
                         first.stats.compile_seconds, res.max_depth, res.total))

    print("\nPancake stacks, full tables")
    for n in range(8, args.pancakes + 1):
        puz = PancakePuzzle(n)
        rep = args.repeat if n <= 10 else 1
        first, res, times = _timed(lambda: layers(puz), rep)
        med = statistics.median(times)
        print(f"  n={n}: {res.total:,} stacks, P(n)={res.max_depth}, median {med:.3f} s "
              f"(search {res.stats.seconds:.3f} s; compile {first.stats.compile_seconds:.1f} s)")
        rows.append(("pancake-table", n, numba.get_num_threads(), med, res.stats.seconds,
                     first.stats.compile_seconds, res.max_depth, res.total))
    t0 = time.perf_counter()
    pn = plain_pancake_layers(8)
    plain = time.perf_counter() - t0
    kern = [r for r in rows if r[0] == "pancake-table" and r[1] == 8][0][3]
    print(f"  plain Python, n=8: {plain:.3f} s (P(8)={pn}); the kernel {plain / kern:.0f}x "
          f"faster")
    rows.append(("pancake-plain", 8, 1, plain, plain, 0.0, pn, math.factorial(8)))

    print("\nRotation Puzzle 8x8 worst case, bidirectional: generic against hand-written")
    hand = RotationPuzzle(8, 8)
    gen = hand.as_permutation()
    grid = worst_case()
    for puz in (hand, gen):
        solve(puz, grid, method="bidir", max_depth=20)  # compile
    t = {"hand": [], "generic": []}
    for _ in range(args.repeat):  # alternating, so drift hits both alike
        for name, puz in (("hand", hand), ("generic", gen)):
            res = solve(puz, grid, method="bidir", max_depth=20)
            t[name].append(res.stats.seconds)
    mh, mg = statistics.median(t["hand"]), statistics.median(t["generic"])
    print(f"  hand-written {mh:.3f} s, generic {mg:.3f} s: generic/hand = {mg / mh:.2f}")
    rows.append(("rotation-8x8-hand", 8, 1, mh, mh, 0.0, None, None))
    rows.append(("rotation-8x8-generic", 8, 1, mg, mg, 0.0, None, None))

    print("\nRandom pancake stacks, IDA* with the gap heuristic (2 threads)")
    rng = np.random.default_rng(2010)
    for n in (30, 40, 50, 60):
        puz = PancakePuzzle(n)
        for i in range(3):
            start = [int(x) + 1 for x in rng.permutation(n)]
            res = solve(puz, start, method="idastar")
            h0 = res.extra["initial_h"]
            print(f"  n={n} #{i}: length {res.length}, gap at the start {h0}, "
                  f"{res.stats.generated:,} nodes, {res.stats.seconds:.3f} s")
            rows.append(("pancake-gap", n, res.threads, res.stats.seconds, res.stats.seconds,
                         res.stats.compile_seconds, res.length, res.stats.generated, h0))
    if args.csv:
        write_csv(args.csv, ["case", "size", "threads", "median_s", "search_s", "compile_s",
                             "depth_or_length", "positions_or_nodes", "initial_h"], rows)
    return 0
