"""Document 004's block puzzles: the frontier-search BFS on the classic 4x5 (every position,
each metric; target <= 50 ms after compile), and A* with a PDB against BFS on random 6x7
instances; medians of repeated runs, compile time apart, all in one run.

    python -m benchmarks blocks [--repeat 7] [--random 10] [--csv FILE]
"""

import argparse
import csv
import os
import platform
import statistics
import time
from pathlib import Path

from puzzlelib.blocks import CLASSIC, block_layers, block_solve

from ._common import write_csv

DATA = Path(__file__).resolve().parent.parent / "data" / "blocks"


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m benchmarks blocks")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--random", type=int, default=10, help="random 6x7 instances (BFS and A*)")
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    rows = []
    t0 = time.perf_counter()
    first = block_layers(CLASSIC, metric="unit")
    print(f"compile (BFS kernels): {first.compile_seconds:.2f} s; first call {time.perf_counter() - t0:.2f} s")
    for metric in ("unit", "straight", "path"):
        secs = [block_layers(CLASSIC, metric=metric).seconds for _ in range(args.repeat)]
        med = statistics.median(secs)
        print(f"classic 4x5 full BFS, {metric:8s}: median {1000 * med:6.1f} ms "
              f"(min {1000 * min(secs):.1f}, target 50)")
        rows.append({"case": f"classic BFS {metric}", "median_s": med, "min_s": min(secs)})
    with open(DATA / "random_6x7.csv") as f:
        inst = list(csv.DictReader(f))[: args.random]
    block_solve(inst[0]["board"].replace("/", "\n"), method="astar", pdb="36-0-0-f")  # compile, PDB
    for r in inst:
        text = r["board"].replace("/", "\n")
        bfs = block_solve(text, method="bfs")
        ast = [block_solve(text, method="astar", pdb="36-0-0-f").seconds for _ in range(3)]
        a = statistics.median(ast)
        print(f"6x7 random #{r['id']:>3} ({bfs.length} moves): BFS {bfs.seconds:8.3f} s, "
              f"A* 36-0-0-f {1000 * a:8.2f} ms, ratio {bfs.seconds / a:6.0f}")
        rows.append({"case": f"6x7 random {r['id']} ({bfs.length} moves)", "bfs_s": bfs.seconds,
                     "astar_s": a, "ratio": bfs.seconds / a})
    if args.csv:
        header = ["case", "median_s", "min_s", "bfs_s", "astar_s", "ratio"]
        write_csv(args.csv, header, [[r.get(k) for k in header] for r in rows])
    return 0
