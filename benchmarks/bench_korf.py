"""Document 002 taken to Korf's 100 (issue 4): IDA* node rate with Manhattan distance, pattern
database build times, and all 100 instances with the 7-8 additive PDB; measured in one run.

    python -m benchmarks korf [--instances 10] [--manhattan-all] [--pdb pdb78] [--rebuild]
                              [--threads 1,2] [--csv FILE]
    python -m benchmarks korf --build-rounds N [--pdb pdb78] [--before TREE] [--csv FILE]

``--build-rounds N`` measures only the databases' build, as a fresh install meets it: each round
builds every group of ``--pdb`` (Korf's goal, no cache) in a fresh process, and with ``--before
TREE`` (a checkout of other code, e.g. ``git worktree add /tmp/before <commit>``) the same in a
process run from that tree, alternating which goes first; every build's table digest must be
the same. The seconds are the builds' own (``build_seconds``: compiling apart).

Figures quoted beside ours, as given in this project's issue 4 (not in SEEDS.md): a C++
research IDA* with Manhattan distance generates about 47 million nodes a second on one of our
cores; Korf's 100 need about 3.6e10 nodes in all; with the 7-8 PDB and its reflection, about
36,700 nodes per instance (Felner, Korf & Hanan 2004), all 100 in about 0.5 s for a plain C
implementation on one core, whose 8-tile PDB takes about 80 minutes to build.
"""

import argparse
import json
import os
import platform
import tempfile

import numba

from puzzlelib import SlidingPuzzle, solve_many
from puzzlelib.pdb import sliding as pdb

from ._common import data_rows, run_in_tree, spread, trees_compared, write_csv

GOAL = " ".join(map(str, range(16)))
KORF = SlidingPuzzle("4x4", goal=GOAL)


def solve_all(rows, heuristic, threads):
    """All of ``rows`` by IDA*, one instance per thread (solve_many); checks every length."""
    batch = solve_many(KORF, [r["start"] for r in rows], heuristic=heuristic, threads=threads,
                       progress=False)
    for r, length in zip(rows, batch.lengths):
        if length != int(r["optimal_length"]):
            raise AssertionError(f"instance {r['id']}: {length} moves, published "
                                 f"{r['optimal_length']}")
    return batch.stats.generated, batch.stats.seconds, batch.stats.compile_seconds


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks korf", description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=10,
                    help="Manhattan rate on the N instances with the fewest published nodes "
                         "above 1e7 (default 10)")
    ap.add_argument("--manhattan-all", action="store_true",
                    help="all 100 with Manhattan (about 3.6e10 nodes: ten minutes or more)")
    ap.add_argument("--pdb", default="pdb78", help="pdb555, pdb663 or pdb78 (default)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the PDBs, ignoring the cache")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--build-rounds", type=int,
                    help="only the databases' build, in N rounds of fresh processes")
    ap.add_argument("--before", help="with --build-rounds: also another tree's build, alternating")
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    if args.build_rounds:
        return build_rounds(args.pdb, args.build_rounds, args.before, args.csv)
    if args.before:
        ap.error("--before goes with --build-rounds")
    threads = [int(t) for t in args.threads.split(",")]
    rows = data_rows("korf100.csv")
    print(f"machine: {platform.machine()}, numba {numba.__version__} "
          f"(up to {numba.config.NUMBA_NUM_THREADS} threads)")
    out = []

    # -- IDA* + Manhattan node rate ------------------------------------------------------------
    if args.manhattan_all:
        subset = rows
    else:
        subset = sorted((r for r in rows if int(r["korf1985_nodes"]) > 10**7),
                        key=lambda r: int(r["korf1985_nodes"]))[: args.instances]
    # compilation is timed apart by the API (compile_seconds), never inside ``seconds``
    for t in threads:
        nodes, sec, comp = solve_all(subset, "manhattan", t)
        rate = nodes / sec / 1e6
        print(f"IDA*+Manhattan  {len(subset):3d} instances  threads {t}  {nodes:,} nodes  "
              f"{sec:.2f} s  {rate:.1f} M nodes/s  (published C++: ~47 M/s on one core; "
              f"compile {comp:.1f} s apart)")
        out.append(["manhattan", len(subset), t, nodes, round(sec, 3), round(rate, 2), 47.0])

    # -- pattern databases --------------------------------------------------------------------
    if args.rebuild:
        pdb._MEMORY.clear()
    for cells in pdb.partition_cells(args.pdb, 4, 4, list(range(16))):
        if args.rebuild:
            db = pdb.build(4, 4, cells, 0, progress=True)
        else:
            db = pdb.pattern_database(4, 4, cells, 0, progress=True)
        print(f"PDB {db.k} tiles: {db.n_entries:,} entries, {db.n_states:,} abstract states, "
              f"built in {db.build_seconds:.1f} s ({db.source})")
        out.append([f"build {db.k} tiles", 1, numba.get_num_threads(), db.n_states,
                    round(db.build_seconds, 2), None, None])
    solve_many(KORF, [rows[0]["start"]], heuristic=args.pdb, threads=1)  # loads the PDBs
    for t in threads:
        nodes, sec, _ = solve_all(rows, args.pdb, t)
        print(f"IDA*+{args.pdb}+reflection  100 instances  threads {t}  {nodes / 100:,.0f} "
              f"nodes/instance  {sec:.3f} s in all  (published: ~36,700 nodes/instance; "
              f"plain C ~0.5 s on one core)")
        out.append([args.pdb, 100, t, nodes, round(sec, 3), round(nodes / sec / 1e6, 2), None])
    if args.csv:
        write_csv(args.csv, ["what", "instances", "threads", "nodes", "seconds",
                             "M_nodes_per_s", "published_M_nodes_per_s"], out)
    return 0


#: Run in a fresh process from a tree: build each group of a partition for Korf's goal (no
#: cache) and print, per group, its build seconds and its table's SHA-256.
_BUILD = """
import hashlib, json, sys
from puzzlelib.pdb import sliding as pdb
out = []
for cells in pdb.partition_cells(sys.argv[1], 4, 4, list(range(16))):
    db = pdb.build(4, 4, cells, 0)
    out.append([db.k, db.build_seconds, db.n_states,
                hashlib.sha256(db.table.tobytes()).hexdigest()])
print(json.dumps(out))
"""


def _build_in(tree, name, cache):
    out = run_in_tree(tree, ["-c", _BUILD, name], cache)
    return json.loads(out.strip().splitlines()[-1])


def build_rounds(name, rounds, before, csv_path):
    """The databases of ``name`` built in fresh processes, ``rounds`` times per tree."""
    trees = trees_compared(before)
    work = tempfile.mkdtemp(prefix="puzzlelib_pdb_build_")
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; {name}, {rounds} rounds; "
          f"trees: " + ", ".join(f"{k} {v}" for k, v in trees.items()), flush=True)
    digests, times, rows = {}, {}, []
    for k in range(rounds):
        order = list(trees.items())
        if k % 2:
            order.reverse()
        for tag, tree in order:
            groups = _build_in(tree, name, os.path.join(work, f"numba_{tag}"))
            for g, (tiles, seconds, states, digest) in enumerate(groups):
                if digests.setdefault(g, digest) != digest:
                    raise AssertionError(f"{tag}: group {g + 1}'s table differs from the first "
                                         f"one built")
                rows.append([k + 1, tag, g + 1, tiles, states, round(seconds, 2), digest[:16]])
            total = sum(group[1] for group in groups)
            times.setdefault(tag, []).append(total)
            print(f"round {k + 1}  {tag:6s} " + " + ".join(f"{group[1]:.1f}" for group in groups)
                  + f" = {total:.1f} s", flush=True)
    for tag, ts in times.items():
        med, runs = spread(ts, 1)
        print(f"{tag:6s} median {med:.1f} s ({runs}); tables equal in every run", flush=True)
    if csv_path:
        write_csv(csv_path, ["round", "code", "group", "tiles", "abstract_states", "build_s",
                             "sha256_16"], rows)
    return 0
