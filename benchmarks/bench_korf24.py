"""The 24-puzzle (issue 30): Korf and Felner's 6-6-6-6 databases, their build, and IDA* on the
instances of ``data/korf24.csv``, every length checked against the published one.

    python -m benchmarks korf24 [--instances 10] [--ids 25,40] [--threads 2] [--rebuild]
                                [--node-limit N] [--processes P] [--prune P] [--csv FILE]
    python -m benchmarks korf24 --ids 40,44 --before TREE [--rounds 2] [--threads 2]
    python -m benchmarks korf24 --fewest 10 [--ids ORDER] [--processes 2] [--node-limit N]
                                [--csv FILE] [--resume FILE]

With ``--processes P`` the instances are solved P at a time, each in a process of its own on
one thread (a many-core machine's way through all 50 with a node limit). With ``--before`` the
instances of ``--ids`` are solved in fresh processes by this checkout and by another tree (a
worktree of an older commit, its own numba cache), the trees taking turns, every node count
required equal (with ``--prune parent``: an older tree prunes so; with the default pruning
this tree generates fewer nodes, and each tree's counts are only required equal across rounds).

With ``--fewest K`` the K instances with the fewest nodes are found and the choice proved: once
K are solved, every other instance runs with the K-th count so far as its node limit, so each
one left out stopped past it (:func:`fewest`). Listing the likely ones first in ``--ids`` makes
the limit fall early. Its ``--csv`` is written as it goes; ``--resume`` that file goes on from
it (an instance stopped there below the K-th count runs again and gets a second row: the last
row of an instance is its result).

With ``--node-limit`` an instance that reaches it is reported as stopped and the run goes on;
after ten or more solved, the ten with the fewest nodes are summed. Without ``--ids`` the
instances taken are those with the fewest nodes in Korf and Felner's table (``published_nodes``
of ``data/korf24.csv``), the issue's choice; each count is printed beside the published one.
The databases are built on first use (two breadth-first searches: the other two groups are a
quarter and a half turn of one of them) and cached; their build time is printed apart from the
search.
"""

import argparse
import concurrent.futures
import csv
import functools
import json
import multiprocessing
import os
import platform
import tempfile
import time

import numba

from puzzlelib import SearchLimitError, SlidingPuzzle, pdb as pdb_package, solve
from puzzlelib.pdb import sliding as pdb

from ._common import data_rows, run_in_tree, spread, trees_compared, write_csv

GOAL = " ".join(map(str, range(25)))
PUZ = SlidingPuzzle("5x5", goal=GOAL)
#: The columns of ``--csv`` (builds and searches alike).
COLUMNS = ["what", "id", "source", "optimal_length", "initial_h", "length", "generated", "seconds",
           "threads", "note"]


# Solves the instances named in argv[1] on argv[2] threads (pruning argv[3] if given); prints
# one JSON line per instance.
_SOLVE = """
import csv, json, sys
from puzzlelib import SlidingPuzzle, solve
puz = SlidingPuzzle("5x5", goal=" ".join(map(str, range(25))))
rows = {r["id"]: r for r in csv.DictReader(open("data/korf24.csv"))}
kw = {"prune": sys.argv[3]} if len(sys.argv) > 3 else {}
for i in sys.argv[1].split(","):
    sol = solve(puz, rows[i]["start"], method="idastar", heuristic="pdb6666",
                threads=int(sys.argv[2]), progress=False, **kw)
    print(json.dumps([i, sol.length, sol.stats.generated, sol.stats.seconds]))
"""


def side_by_side(ids, before, rounds, threads, csv_path, prune=None):
    """The instances ``ids`` solved in fresh processes by each tree in turn (the order of the
    trees flipped every round); prints each run and the medians. ``prune`` is given to this
    tree only (an older one may not know it)."""
    trees = trees_compared(before)
    caches = {name: tempfile.mkdtemp(prefix=f"korf24-{name}-") for name in trees}
    got, out = {}, []
    for k in range(rounds):
        for name in (list(trees) if k % 2 == 0 else list(trees)[::-1]):
            argv = ["-c", _SOLVE, ids, str(threads)]
            if prune is not None and name != "before":
                argv.append(prune)
            for line in run_in_tree(trees[name], argv, caches[name]).splitlines():
                i, length, nodes, secs = json.loads(line)
                print(f"round {k + 1} {name:>6}: instance {i} {length} moves, {nodes:,} nodes, "
                      f"{secs:.2f} s", flush=True)
                key = i if prune == "parent" else (i, name)
                if got.setdefault(key, nodes) != nodes:
                    raise AssertionError(f"instance {i}: {nodes:,} nodes, {got[key]:,} before")
                out.append([k + 1, name, i, length, nodes, round(secs, 3), threads])
    for i in ids.split(","):
        med = {n: spread([r[5] for r in out if r[1] == n and r[2] == i]) for n in trees}
        print(f"instance {i}: " + ", ".join(f"{n} {m:.2f} s ({w})" for n, (m, w) in med.items()))
    if csv_path:
        write_csv(csv_path, ["round", "tree", "id", "length", "generated", "seconds", "threads"],
                  out)
    return 0


def _solve_limited(job):
    """One instance on one thread in a worker process: (row, length or None, nodes, seconds,
    the bound of the last whole pass and the nodes up to it)."""
    r, limit, prune = job
    t0 = time.perf_counter()
    passes = [(None, 0)]
    try:
        sol = solve(PUZ, r["start"], method="idastar", heuristic="pdb6666", threads=1,
                    node_limit=limit, progress=lambda b, n: passes.append((b, n)), prune=prune)
    except SearchLimitError:
        return r, None, None, time.perf_counter() - t0, passes[-1]
    return r, sol.length, sol.stats.generated, sol.stats.seconds, passes[-1]


def fewest(items, k, run, executor, slots, first_limit=0, report=print, known=None):
    """The ``k`` items of ``items`` whose searches generate the fewest nodes, and the proof.

    ``run(item, limit)`` (submitted to ``executor``, ``slots`` at a time) returns a tuple: the
    item's node count, or None when it stopped at ``limit`` (0: none) without an answer, which
    means more than ``limit`` nodes; then anything for ``report(item, result, limit, the k-th
    count so far or None, items done, items)``. Once ``k`` are solved, each search starts with
    the ``k``-th smallest count so far as its limit; before that with ``first_limit``, doubled
    for another round while fewer than ``k`` are solved. Every count solved is at most the
    limit it ran with, and every limit is at least the ``k``-th count when the scan ends, so a
    stopped item never needs a second run once ``k`` are solved. ``known`` (a scan resumed) maps
    items searched before to their count, or to ``-limit`` for one stopped at ``limit``; those
    run again only if stopped below the ``k``-th count. Returns (the ``k`` as (nodes, item),
    fewest first; every other item with the limit it passed or its count), each of those at
    least the largest of the ``k`` counts."""
    if k < 1 or k > len(items):
        raise ValueError(f"fewest: k must be 1 to {len(items)}, not {k}")
    known = {i: v for i, v in (known or {}).items() if i in items}
    solved = {i: v for i, v in known.items() if v >= 0}
    passed = {i: -v for i, v in known.items() if v < 0}
    queue, limit0 = [i for i in items if i not in known], first_limit
    floor = {}  # the limit a stopped item passed, while it waits to run again

    def kth():
        counts = sorted(solved.values())
        return counts[k - 1] if len(counts) >= k else limit0

    while True:
        running = {}
        while queue or running:
            while queue and len(running) < slots:
                item, limit = queue.pop(0), kth()
                if len(solved) >= k and floor.get(item, -1) >= limit:
                    passed[item] = floor[item]  # its earlier stop proves it now
                    continue
                running[executor.submit(run, item, limit)] = (item, limit)
            done, _ = concurrent.futures.wait(running,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                item, limit = running.pop(fut)
                result = fut.result()
                if result[0] is None:
                    passed[item] = limit
                else:
                    solved[item] = result[0]
                report(item, result, limit, kth() if len(solved) >= k else None,
                       len(solved) + len(passed), len(items))
        if len(solved) < k:
            if limit0:
                limit0 = 2 * max([limit0, *passed.values()])
            queue = list(passed)
        else:
            queue = sorted((i for i, lim in passed.items() if lim < kth()), key=passed.get)
        if not queue:
            break
        for i in queue:
            floor[i] = passed.pop(i)
    ranked = sorted((n, i) for i, n in solved.items())
    out = dict(passed)
    out.update((i, n) for n, i in ranked[k:])
    return ranked[:k], out


def _count_limited(i, limit, prune):
    """Instance ``i`` on one thread: (its node count or None when stopped at ``limit``, seconds,
    the bound of the last whole pass, the nodes up to it)."""
    r = next(r for r in data_rows("korf24.csv") if r["id"] == i)
    r, length, nodes, secs, (bound, so_far) = _solve_limited((r, limit, prune))
    if length is not None and length != int(r["optimal_length"]):
        raise AssertionError(f"instance {r['id']}: {length} moves, published "
                             f"{r['optimal_length']}")
    return nodes, secs, bound, so_far


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks korf24",
                                 description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--instances", type=int, default=10,
                    help="without --ids: how many, those with the fewest published nodes")
    ap.add_argument("--ids", default=None, help="comma-separated instance numbers (1-50)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--node-limit", type=int, default=0,
                    help="per instance (0: none); with --fewest, the limit until K are solved, "
                         "doubled for another round while fewer are")
    ap.add_argument("--rebuild", action="store_true", help="build the databases again")
    ap.add_argument("--processes", type=int, default=1,
                    help="instances at a time, each on one thread in its own process")
    ap.add_argument("--prune", choices=("cycles", "parent"), default=None,
                    help="IDA*'s pruning (default: solve's, cycles)")
    ap.add_argument("--fewest", type=int, default=None, metavar="K",
                    help="find the K instances (of --ids, in that order, else all 50) with the "
                         "fewest nodes, and prove it: the others stopped past the K-th count")
    ap.add_argument("--resume", metavar="CSV",
                    help="with --fewest: the --csv of an earlier scan (same code and pruning) to "
                         "go on from; its solved instances are not searched again, its stopped "
                         "ones only if stopped below the K-th count")
    ap.add_argument("--before", help="another tree to solve --ids beside this one")
    ap.add_argument("--rounds", type=int, default=2, help="with --before")
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    known = {r["id"] for r in data_rows("korf24.csv")}
    n_ids = len(set(args.ids.split(","))) if args.ids else len(known)
    if args.fewest is not None and not 1 <= args.fewest <= n_ids:
        ap.error(f"--fewest: K must be 1 to {n_ids}, the instances taken, not {args.fewest}")
    if not 1 <= args.instances <= len(known):
        ap.error(f"--instances: 1 to {len(known)}, not {args.instances}")
    if args.ids and not set(args.ids.split(",")) <= known:
        ap.error(f"--ids: instances are numbered 1 to {len(known)}, not {args.ids}")
    if args.resume and args.fewest is None:
        ap.error("--resume goes with --fewest")
    if args.resume:
        try:
            with open(args.resume, newline="") as f:
                resumed = [r for r in csv.DictReader(f) if r["what"] == "idastar"]
            known_rows = {r["id"]: (int(r["generated"]) if r["generated"] else
                                    -int(r["note"].split("stopped past ")[1].split()[0]))
                          for r in resumed}
        except (OSError, KeyError, IndexError, ValueError) as e:
            ap.error(f"--resume: {args.resume} is not the CSV of a korf24 --fewest scan "
                     f"({type(e).__name__}: {e})")
        args.resume = (resumed, known_rows)
    if args.before:
        if args.fewest is not None:
            ap.error("--fewest and --before do not go together: --before compares two trees on "
                     "--ids")
        if not args.ids:
            ap.error("--before needs --ids")
        if not os.path.isdir(os.path.join(args.before, "puzzlelib")):
            ap.error(f"--before: {args.before} is not a tree of this project")
        return side_by_side(args.ids, args.before, args.rounds, args.threads, args.csv,
                            args.prune)
    print(f"machine: {platform.machine()}, numba {numba.__version__} "
          f"(up to {numba.config.NUMBA_NUM_THREADS} threads)")
    rows = data_rows("korf24.csv")

    # -- the databases --------------------------------------------------------------------------
    if args.rebuild:
        pdb._MEMORY.clear()
    out = []
    for cells in pdb.partition_cells("pdb6666", 5, 5, list(range(25))):
        db = (pdb.build(5, 5, cells, 0, progress=True) if args.rebuild
              else pdb.pattern_database(5, 5, cells, 0, progress=True))
        print(f"PDB tiles {'-'.join(map(str, cells))}: {db.n_entries:,} entries, "
              f"{db.n_states:,} abstract states, made in {db.build_seconds:.1f} s by {db.made_by} "
              f"({db.source})",
              flush=True)
        out.append(["build", "-".join(map(str, cells)), db.made_by, None, None, None,
                    db.n_states, round(db.build_seconds, 2), None, None])

    # -- which instances ------------------------------------------------------------------------
    space, _ = pdb_package.guide(PUZ, "pdb6666", progress=False)
    for r in rows:
        r["h0"] = int(space.heuristic_value(space.encode(r["start"])))
    by_published = sorted(rows, key=lambda r: int(r["published_nodes"]))
    if args.ids and args.fewest is not None:
        by_id = {r["id"]: r for r in rows}
        chosen = [by_id[i] for i in dict.fromkeys(args.ids.split(","))]
    elif args.ids:
        wanted = [int(x) for x in args.ids.split(",")]
        chosen = [r for r in rows if int(r["id"]) in wanted]
    else:
        chosen = by_published if args.fewest is not None else by_published[: args.instances]
    print("instances: " + ", ".join(f"{r['id']} ({r['optimal_length']} moves, h {r['h0']})"
                                    for r in chosen), flush=True)

    if args.fewest is not None:
        return _fewest_main(args, chosen, out)

    # -- IDA* -----------------------------------------------------------------------------------
    total_s, total_nodes = 0.0, 0
    solved = []
    if args.processes > 1:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            for r, length, nodes, secs, (bound, so_far) in pool.imap_unordered(
                    _solve_limited, [(r, args.node_limit, args.prune) for r in chosen]):
                if length is not None and length != int(r["optimal_length"]):
                    raise AssertionError(f"instance {r['id']}: {length} moves, published "
                                         f"{r['optimal_length']}")
                stopped = (f"stopped at {args.node_limit} nodes, the passes to bound {bound} "
                           f"having made {so_far}")
                print(f"instance {r['id']:>2}: " + (f"{length} moves, {nodes:,} nodes, "
                      if length is not None else stopped + ", ") +
                      f"{secs:.1f} s on one thread", flush=True)
                out.append(["idastar", r["id"], None, int(r["optimal_length"]), r["h0"], length,
                            nodes, round(secs, 3), 1, None if length is not None else stopped])
                if length is not None:
                    solved.append((nodes, r["id"], secs))
                    total_s, total_nodes = total_s + secs, total_nodes + nodes
    for r in (chosen if args.processes <= 1 else []):
        t0 = time.perf_counter()
        try:
            sol = solve(PUZ, r["start"], method="idastar", heuristic="pdb6666",
                        threads=args.threads, node_limit=args.node_limit, progress=False,
                        prune=args.prune)
        except SearchLimitError:
            wall = time.perf_counter() - t0
            print(f"instance {r['id']:>2}: stopped at the node limit ({args.node_limit:,}), "
                  f"{wall:.1f} s wall", flush=True)
            out.append(["idastar", r["id"], None, int(r["optimal_length"]), r["h0"], None,
                        None, None, args.threads, f"stopped at {args.node_limit} nodes"])
            continue
        wall = time.perf_counter() - t0
        if sol.length != int(r["optimal_length"]):
            raise AssertionError(f"instance {r['id']}: {sol.length} moves, published "
                                 f"{r['optimal_length']}")
        total_s += sol.stats.seconds
        total_nodes += sol.stats.generated
        print(f"instance {r['id']:>2}: {sol.length} moves (published {r['optimal_length']}), "
              f"h {r['h0']}, {sol.stats.generated:,} nodes (published "
              f"{int(r['published_nodes']):,}), {sol.stats.seconds:.1f} s search "
              f"({wall:.1f} s wall, {sol.stats.generated / max(sol.stats.seconds, 1e-9) / 1e6:.1f} "
              f"M nodes/s; {total_s:.0f} s so far)", flush=True)
        out.append(["idastar", r["id"], None, int(r["optimal_length"]), r["h0"], sol.length,
                    sol.stats.generated, round(sol.stats.seconds, 3), args.threads, None])
        solved.append((sol.stats.generated, r["id"], sol.stats.seconds))
    done = {i for _, i, _ in solved}
    published = sum(int(r["published_nodes"]) for r in chosen if r["id"] in done)
    print(f"{len(solved)} of {len(chosen)} instances solved: {total_nodes:,} nodes "
          f"(published for them: {published:,}), {total_s:.1f} s of search on "
          f"{args.threads if args.processes <= 1 else 1} thread(s) each")
    if len(solved) >= 10:
        ten = sorted(solved)[:10]
        print(f"the ten solved with the fewest nodes ({', '.join(str(i) for _, i, _ in ten)}): "
              f"{sum(n for n, _, _ in ten):,} nodes, {sum(t for _, _, t in ten):.1f} s of search")
    if args.csv:
        write_csv(args.csv, COLUMNS, out)
    return 0


def _fewest_main(args, chosen, out):
    """``--fewest K``: the scan of :func:`fewest` over ``chosen``, each on one thread,
    ``--processes`` at a time; prints each instance as it ends and the proof."""
    rows = {r["id"]: r for r in chosen}
    resumed, known = args.resume or ([], {})
    if resumed:
        out.extend([r[h] or None for h in COLUMNS] for r in resumed if r["id"] in rows)
        mine = [v for i, v in known.items() if i in rows]
        print(f"resumed from {len(mine)} instances of the earlier scan: "
              f"{sum(v >= 0 for v in mine)} solved, {sum(v < 0 for v in mine)} stopped",
              flush=True)
    if args.csv:  # written as the scan goes, so that a stopped scan can be resumed
        write_csv(args.csv, COLUMNS, out)
    t0 = time.perf_counter()

    def report(i, result, limit, kth, done, n):
        nodes, secs, bound, so_far = result
        r = rows[i]
        what = (f"{nodes:,} nodes" if nodes is not None else
                f"stopped past {limit:,} nodes (passes to bound {bound}: {so_far:,})")
        bar = (f"the largest of the {args.fewest} fewest so far: {kth:,}" if kth is not None
               else f"fewer than {args.fewest} solved yet")
        print(f"[{done}/{n}, {time.perf_counter() - t0:.0f} s] instance {i:>2} "
              f"({r['optimal_length']} moves): {what}, {secs:.1f} s; {bar}", flush=True)
        row = ["idastar", i, None, int(r["optimal_length"]), r["h0"],
               int(r["optimal_length"]) if nodes is not None else None, nodes,
               round(secs, 3), 1, None if nodes is not None else
               f"stopped past {limit} nodes, the passes to bound {bound} having made {so_far}"]
        out.append(row)
        if args.csv:
            with open(args.csv, "a", newline="") as f:
                csv.writer(f).writerow(["" if x is None else x for x in row])

    run = functools.partial(_count_limited, prune=args.prune)
    with concurrent.futures.ProcessPoolExecutor(
            args.processes, mp_context=multiprocessing.get_context("spawn")) as ex:
        best, others = fewest(list(rows), args.fewest, run, ex, args.processes,
                              args.node_limit, report, known)
    kth = best[-1][0]
    print(f"the {args.fewest} with the fewest nodes ({', '.join(i for _, i in best)}): "
          f"{sum(n for n, _ in best):,} nodes; every other instance of the {len(rows)} needs "
          f"at least {min(others.values(), default=kth):,}, the largest of these {kth:,}; "
          f"{time.perf_counter() - t0:.0f} s in all", flush=True)
    return 0
