"""Document 004's block puzzles: the frontier-search BFS on the classic 4x5 (every position,
each metric; target <= 5 ms after compile, issue 30), and A* with a PDB against BFS on random 6x7
instances; medians of repeated runs, compile time apart, all in one run.

    python -m benchmarks blocks [--repeat 7] [--random 10] [--csv FILE]
    python -m benchmarks blocks --start 6x7 [--csv FILE]
    python -m benchmarks blocks --tables 6x7 --pdbs 36-0-0-f,30-0-3-f [--cached] [--csv FILE]
    python -m benchmarks blocks --builds 6x7 --pdbs 30-0-3-f [--csv FILE]

``--start`` instead times BFS, and A* with the 36-0-0-f (6x7) or 50-0-0-f (7x8) PDB, on the
designed start in ``data/blocks`` (BFS on the 6x7 start holds hundreds of millions of positions:
several GiB and many minutes; progress is printed per layer). ``--tables`` builds the named
PDBs for that start (no cache, so the build is timed; PDBs that differ only in their map, such
as 42-4-0-l, -c and -b, are built by one search, whose time each of them records) and times A*
and IDA* (with its transposition table) with each: document 004's Tables 2 and 3 on our
starts. ``--cached`` takes PDBs from the cache where they are, recording the build time their
file holds (for PDBs that take hours, built once by ``python -m puzzlelib blocks pdb``). An
IDA* run that passes ``--ida-seconds`` is stopped after its pass and recorded as such.

``--builds`` builds the named PDBs (one search for those of one relaxation) side by side with
the two backward searches: hash sets (:mod:`puzzlelib.search.frontier`, one thread) and sorted
arrays (:mod:`puzzlelib.search.sortedfrontier`, on one thread and on all of them), checks
that all three give the same PDBs, and prints each build's time and the memory its layers held.
"""

import argparse
import csv
import os
import platform
import statistics
import time
from pathlib import Path

from puzzlelib import CLASSIC, layers, pattern_databases, solve
from puzzlelib.domains.blocks import FNS_PLAIN, FRONTIER_PLAIN, BlockPuzzle
from puzzlelib.search.frontier import frontier_bfs

from ._common import write_csv

DATA = Path(__file__).resolve().parent.parent / "data" / "blocks"


def block_solve(text, goal=None, metric="straight", pdb=None, **kwargs):
    """``solve`` on a board's own block puzzle, from the board."""
    return solve(BlockPuzzle(text, metric=metric, goal=goal), text, heuristic=pdb, **kwargs)


def block_layers(text, metric="straight"):
    return layers(BlockPuzzle(text, metric=metric, goal=False))


STARTS = {"6x7": ("start_6x7.txt", None, "36-0-0-f"), "7x8": ("start_7x8.txt", (6, 2), "50-0-0-f")}


def designed_start(size, csv_path, max_states=450_000_000):
    name, goal, pdb = STARTS[size]
    text = (DATA / name).read_text()
    t0 = time.perf_counter()
    ast = block_solve(text, goal=goal, method="astar", pdb=pdb)
    print(f"{size} start: A* {pdb}: {ast.length} moves, {ast.stats.seconds:.2f} s, "
          f"{ast.stats.expanded:,} expanded "
          f"(PDB {ast.extra['pdb_seconds']:.1f} s, first call {time.perf_counter() - t0:.1f} s)",
          flush=True)
    last = [time.perf_counter()]
    t_bfs = time.perf_counter()
    seen = [0, 0]

    def progress(depth, layer, total):
        seen[:] = [depth, total]
        if time.perf_counter() - last[0] > 10 or depth % 10 == 0:
            last[0] = time.perf_counter()
            print(f"  BFS depth {depth}: {layer:,} positions, {total:,} so far, "
                  f"{time.perf_counter() - t_bfs:.0f} s", flush=True)

    # Frontier search to the goal's depth, three layers held (the path would need them all:
    # hundreds of millions of positions, more than this machine's memory).
    puz = BlockPuzzle(text, goal=goal)
    try:
        bfs = frontier_bfs(FNS_PLAIN, puz.params, puz.encode(), stop_at_goal=True, keep_all=False,
                           max_states=max_states, progress=progress, ffns=FRONTIER_PLAIN)
    except MemoryError as e:  # a lower bound on BFS's time, then
        secs = time.perf_counter() - t_bfs
        print(f"{size} start: {e}; BFS had reached depth {seen[0]} ({seen[1]:,} positions) in "
              f"{secs:.0f} s: A* is more than {secs / ast.stats.seconds:.0f}x faster")
        if csv_path:
            write_csv(csv_path, HEADER, [[f"{size} start", "bfs", "", "", secs, seen[1], "",
                                          f"stopped at depth {seen[0]}: over {max_states:,} states"],
                                         _astar_row(size, pdb, ast)])
        return 1
    print(f"{size} start: BFS reaches the goal at depth {bfs.goal_depth} in {bfs.seconds:.1f} s, "
          f"{bfs.total:,} positions, {bfs.peak_bytes / 2**30:.2f} GiB; "
          f"A* {bfs.seconds / ast.stats.seconds:.0f}x faster")
    if csv_path:
        write_csv(csv_path, HEADER, [[f"{size} start", "bfs", "", bfs.goal_depth, bfs.seconds,
                                      bfs.total, bfs.peak_bytes, "finished"],
                                     _astar_row(size, pdb, ast)])
    return 0


HEADER = ["instance", "method", "pdb", "length", "seconds", "nodes", "memory_bytes", "note"]


def _astar_row(size, pdb, ast):
    return [f"{size} start", "astar", pdb, ast.length, ast.stats.seconds, ast.stats.expanded,
            ast.stats.memory_bytes, "finished"]


class _OutOfTime(Exception):
    pass


def _timed_idastar(text, goal, pdb, seconds, length):
    """IDA* with ``pdb``, stopped after the first pass that ends past ``seconds`` unless that
    pass's bound is ``length`` (the optimal length: that pass found the solution): (finished,
    seconds, nodes, last bound)."""
    t0 = time.perf_counter()
    seen = [0, 0]

    def check(bound, total):
        seen[:] = [bound, total]
        if time.perf_counter() - t0 > seconds and bound < length:
            raise _OutOfTime

    try:
        sol = block_solve(text, goal=goal, method="idastar", pdb=pdb, progress=check)
    except _OutOfTime:
        return False, time.perf_counter() - t0, seen[1], seen[0]
    assert sol.length == length  # both optimal
    return True, sol.stats.seconds, sol.stats.generated, sol.length


def tables(size, names, csv_path, ida_seconds, cached=False):
    name, goal, _ = STARTS[size]
    text = (DATA / name).read_text()
    out = []
    t0 = time.perf_counter()
    pattern_databases(BlockPuzzle(CLASSIC), "14-0-0-f", cache=False)  # compile: not timed below
    block_solve(CLASSIC, method="astar", pdb="14-0-0-f")
    print(f"compile (PDB build, A*): {time.perf_counter() - t0:.1f} s", flush=True)
    dbs = pattern_databases(BlockPuzzle(text, goal=goal), names, cache=cached, progress=True)
    together = {}
    for db in dbs:  # built by one search: the same relaxation and build
        together.setdefault((db.keep_h, db.keep_v, db.build_seconds), []).append(db.name)
    for pdb, db in zip(names, dbs):
        print(f"{size} {pdb}: {db.patterns:,} patterns from {db.states:,} relaxed positions, "
              f"built in {db.build_seconds:.1f} s ({db.source})", flush=True)
        sol = block_solve(text, goal=goal, method="astar", pdb=pdb)  # the PDB now in memory
        print(f"  A*: {sol.length} moves, {sol.stats.seconds:.2f} s, {sol.stats.expanded:,} "
              f"expanded, "
              f"h(start) {sol.extra['initial_h']}", flush=True)
        done, ida_s, ida_nodes, bound = _timed_idastar(text, goal, pdb, ida_seconds, sol.length)
        note = "finished" if done else f"stopped after the pass at bound {bound}"
        print(f"  IDA*: {note}, {ida_s:.2f} s, {ida_nodes:,} nodes", flush=True)
        out.append([f"{size} start", pdb, db.patterns, db.states, db.build_seconds, sol.length,
                    sol.stats.seconds, sol.stats.expanded, sol.extra["initial_h"], ida_s,
                    ida_nodes, note,
                    db.source, "+".join(together[(db.keep_h, db.keep_v, db.build_seconds)])])
    if csv_path:
        write_csv(csv_path, ["instance", "pdb", "patterns", "relaxed_positions", "build_s",
                             "length", "astar_s", "astar_expanded", "h_start", "ida_s",
                             "ida_nodes", "ida_note", "pdb_source", "built_together"], out)
    return 0


def builds(size, names, csv_path):
    import numba
    import numpy as np
    from numba import njit

    from puzzlelib.pdb import blocks as blockpdb
    from puzzlelib.core.hashset import hash_state

    @njit(cache=False)
    def fingerprint(pool, values):  # the same for the same (image, value) pairs in any order
        acc = np.uint64(0)
        for i in range(pool.shape[0]):
            acc += hash_state(pool[i]) * np.uint64(values[i] + 1)
        return acc

    name, goal, _ = STARTS[size]
    puz = BlockPuzzle((DATA / name).read_text(), goal=goal)
    all_threads = numba.get_num_threads()
    runs = [("hash", 1), ("sorted", 1), ("sorted", all_threads)]
    t0 = time.perf_counter()
    small = BlockPuzzle(CLASSIC)
    for search, _ in runs[:2]:  # compile: not timed below
        blockpdb.build_many(small, ["8-1-2-l", "8-1-2-f"], search=search)
    print(f"compile (both searches): {time.perf_counter() - t0:.1f} s", flush=True)
    out = []
    for search, threads in runs:
        numba.set_num_threads(threads)
        dbs = blockpdb.build_many(puz, names, search=search)
        numba.set_num_threads(all_threads)
        prints = [int(fingerprint(db.pool, db.values)) for db in dbs]
        held = dbs[0].search_bytes
        print(f"{size} {'+'.join(names)} {search:6s} {threads} thread(s): {dbs[0].states:,} "
              f"relaxed positions in {dbs[0].build_seconds:.1f} s, layers held "
              f"{held / 2**30:.2f} GiB at most", flush=True)
        if dbs[0].search_phases:
            print("    " + ", ".join(f"{k} {v:.1f} s" for k, v in dbs[0].search_phases.items()))
        out.append([f"{size} start", "+".join(names), search, threads, dbs[0].states,
                    dbs[0].build_seconds, held, ";".join(str(db.patterns) for db in dbs), prints])
    assert all(row[-1] == out[0][-1] for row in out), "the searches built different PDBs"
    print(f"same PDBs from all three; hash / sorted: {out[0][5] / out[1][5]:.2f}x on one thread, "
          f"{out[0][5] / out[2][5]:.2f}x with {all_threads} threads")
    if csv_path:
        write_csv(csv_path, ["instance", "pdbs", "search", "threads", "relaxed_positions",
                             "build_s", "layers_bytes", "patterns"], [r[:-1] for r in out])
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m benchmarks blocks")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--random", type=int, default=10, help="random 6x7 instances (BFS and A*)")
    ap.add_argument("--ida-max", type=int, default=100,
                    help="IDA* too on the random instances of at most this many moves")
    ap.add_argument("--csv")
    ap.add_argument("--start", choices=sorted(STARTS), help="BFS and A* on a designed start")
    ap.add_argument("--tables", choices=sorted(STARTS), help="PDB builds and A* on a start")
    ap.add_argument("--pdbs", default="", help="PDB names for --tables, joined by commas")
    ap.add_argument("--builds", choices=sorted(STARTS),
                    help="PDB builds by hash sets and by sorted arrays, side by side")
    ap.add_argument("--cached", action="store_true",
                    help="--tables: take PDBs from the cache where they are (build time from "
                         "their file)")
    ap.add_argument("--ida-seconds", type=float, default=300,
                    help="--tables: stop IDA* after the first pass that ends past this")
    args = ap.parse_args(argv)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    if args.start:
        return designed_start(args.start, args.csv)
    if args.builds:
        return builds(args.builds, [t for t in args.pdbs.split(",") if t], args.csv)
    if args.tables:
        return tables(args.tables, [t for t in args.pdbs.split(",") if t], args.csv,
                      args.ida_seconds, cached=args.cached)
    rows = []
    t0 = time.perf_counter()
    first = block_layers(CLASSIC, metric="unit")
    print(f"compile (BFS kernels): {first.stats.compile_seconds:.2f} s; first call "
          f"{time.perf_counter() - t0:.2f} s")
    for metric in ("unit", "straight", "path"):
        secs = [block_layers(CLASSIC, metric=metric).stats.seconds for _ in range(args.repeat)]
        med = statistics.median(secs)
        print(f"classic 4x5 full BFS, {metric:8s}: median {1000 * med:6.1f} ms "
              f"(min {1000 * min(secs):.1f}, target 5)")
        rows.append({"case": f"classic BFS {metric}", "median_s": med, "min_s": min(secs)})
    with open(DATA / "random_6x7.csv") as f:
        inst = list(csv.DictReader(f))[: args.random]
    if inst:  # (--random 0: the classic alone)
        block_solve(inst[0]["board"].replace("/", "\n"), method="astar", pdb="36-0-0-f")  # compile
    for r in inst:
        text = r["board"].replace("/", "\n")
        bfs = block_solve(text, method="bfs")
        runs = [block_solve(text, method="astar", pdb="36-0-0-f") for _ in range(3)]
        a = statistics.median(s.stats.seconds for s in runs)
        bfs_s = bfs.stats.seconds
        ida = None
        if bfs.length <= args.ida_max:
            ida = block_solve(text, method="idastar", pdb="36-0-0-f")
            assert ida.length == bfs.length
        assert runs[0].length == bfs.length
        print(f"6x7 random #{r['id']:>3} ({bfs.length} moves): BFS {bfs_s:8.3f} s, "
              f"A* 36-0-0-f {1000 * a:8.2f} ms, ratio {bfs_s / a:6.0f}"
              + (f", IDA* {1000 * ida.stats.seconds:8.2f} ms, ratio "
                 f"{bfs_s / ida.stats.seconds:6.1f}" if ida else ""), flush=True)
        rows.append({"case": f"6x7 random {r['id']} ({bfs.length} moves)", "id": r["id"],
                     "length": bfs.length, "bfs_positions": bfs.stats.stored, "bfs_s": bfs_s,
                     "astar_expanded": runs[0].stats.expanded, "astar_s": a, "ratio": bfs_s / a,
                     "ida_nodes": ida.stats.generated if ida else None,
                     "ida_s": ida.stats.seconds if ida else None})
    if args.csv:
        header = ["case", "median_s", "min_s", "id", "length", "bfs_positions", "bfs_s",
                  "astar_expanded", "astar_s", "ratio", "ida_nodes", "ida_s"]
        write_csv(args.csv, header, [[r.get(k) for k in header] for r in rows])
    return 0
