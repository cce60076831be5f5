"""Document 003's Rotation Puzzle: the bidirectional kernel on the worst case (8x8, answer
above 20: ten levels from each end), against a plain-Python bidirectional BFS (dictionaries of
tuples, the document's approach without the SHA-1 keys), and one-way BFS against bidirectional
on instances of growing depth; all measured side by side in one run.

    python -m benchmarks rotation [--repeat 9] [--python-repeat 1] [--csv FILE]
"""

import argparse
import os
import platform
import statistics
import time

import numba
import numpy as np

from puzzlelib import RotationPuzzle, solve
from puzzlelib.domains.rotation import OPERATIONS

from ._common import write_csv


def rotation(grid, rows, cols, method="bidir"):
    """The kernel's answer: ``solve`` on the Rotation Puzzle, the contest's 20 moves at most."""
    return solve(RotationPuzzle(rows, cols), grid, method=method, max_depth=20)


def plain_turn(g, rows, cols, x, y):
    out = list(g)
    cells = [(x + i) * cols + (y + j) for i in range(rows - 1) for j in range(cols - 1)]
    for a, b in zip(cells, reversed(cells)):
        out[a] = g[b]
    return tuple(out)


def plain_bidirectional(values, rows, cols, max_ops=20):
    """Plain Python: level by level from both ends, smaller frontier first, dict per side."""
    start, goal = tuple(values), tuple(range(1, rows * cols + 1))
    if start == goal:
        return 0
    sides = [{start: 0}, {goal: 0}]
    fronts = [[start], [goal]]
    depth = [0, 0]
    while depth[0] + depth[1] < max_ops:
        k = 0 if len(fronts[0]) <= len(fronts[1]) else 1
        seen, other = sides[k], sides[1 - k]
        nxt = []
        for g in fronts[k]:
            for x, y in OPERATIONS:
                h = plain_turn(g, rows, cols, x, y)
                if h in seen:
                    continue
                seen[h] = depth[k] + 1
                if h in other:
                    return depth[k] + 1 + other[h]
                nxt.append(h)
        fronts[k] = nxt
        depth[k] += 1
    return -1


def worst_case(seed=3):
    rng = np.random.default_rng(seed)
    return (rng.permutation(64) + 1).tolist()


def scrambled(rows, cols, k, rng):
    """The sorted grid turned by k random operations, never the same one twice in a row."""
    puz = RotationPuzzle(rows, cols)
    ops, last = [], -1
    while len(ops) < k:
        m = int(rng.integers(4))
        if m != last:
            ops.append(m)
            last = m
    return puz.apply(list(range(1, rows * cols + 1)), ops)[-1]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks rotation",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--python-repeat", type=int, default=1)
    ap.add_argument("--max-one-way", type=int, default=11,
                    help="deepest instance for the one-way BFS")
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, numba {numba.__version__}, "
          f"Python {platform.python_version()}")
    rows_out = []
    g = worst_case()
    first = rotation(g, 8, 8)
    runs = [rotation(g, 8, 8) for _ in range(args.repeat)]
    k_med = statistics.median(r.stats.seconds for r in runs)
    assert first.length == -1
    t = []
    for _ in range(args.python_repeat):
        t0 = time.perf_counter()
        assert plain_bidirectional(g, 8, 8) == -1
        t.append(time.perf_counter() - t0)
    p_med = statistics.median(t)
    st = first.stats
    print(f"worst case 8x8 (-1): kernel {k_med * 1e3:7.1f} ms ({st.stored:,} states, "
          f"{st.memory_bytes / 2**20:.0f} MiB)   plain Python {p_med:6.2f} s   "
          f"ratio {p_med / k_med:5.0f}x   compile {st.compile_seconds:.1f} s", flush=True)
    rows_out.append(("worst_8x8", "bidir", -1, st.stored, k_med, p_med, st.compile_seconds))
    rng = np.random.default_rng(11)
    for k in range(2, 21, 2):
        grid = scrambled(8, 8, k, rng)
        bi = [rotation(grid, 8, 8) for _ in range(3)]
        d = bi[0].length
        b_med = statistics.median(r.stats.seconds for r in bi)
        line = f"8x8 depth {d:2d}: bidir {bi[0].stats.stored:9,} states {b_med * 1e3:8.2f} ms"
        rows_out.append((f"depth_{d}", "bidir", d, bi[0].stats.stored, b_med, None, None))
        if 0 <= d <= args.max_one_way:
            one = [rotation(grid, 8, 8, method="bfs") for _ in range(3)]
            o_med = statistics.median(r.stats.seconds for r in one)
            assert one[0].length == d
            line += f"   one-way {one[0].stats.stored:10,} states {o_med * 1e3:9.2f} ms"
            rows_out.append((f"depth_{d}", "bfs", d, one[0].stats.stored, o_med, None, None))
        print(line, flush=True)
    if args.csv:
        write_csv(args.csv, ["case", "method", "length", "states", "seconds", "python_seconds",
                        "compile_s"], rows_out)
    return 0
