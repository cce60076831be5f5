"""Document 001's full-table BFS: our kernel against the document's own C program (compiled
here with ``gcc -O2`` at measuring time), side by side in one run, and a scaling table by
thread count.

    python -m benchmarks 001 [--repeat 5] [--threads 1,2] [--big] [--no-c] [--csv FILE]
    python -m benchmarks 001 --cli ROUNDS [--before TREE] [--csv FILE]

Every row: the median wall time of the search (compilation excluded; reported apart). ``--big``
adds the 2x6 and 3x4 God's-algorithm tables (239,500,800 positions each, about 2 GB).
``--breakdown`` times the parts of one layer's expansion (stepping keys, ranking, the table
lookup) to show where the time goes.

``--cli ROUNDS`` measures as a user sees it: the seconds that ``python -m puzzlelib layers
--size 4x4 --start ... --json`` reports in a fresh process (its first search; the kernels
loaded from numba's cache, which a first uncounted run fills), against the C program's whole
run, alternating which goes first from round to round. ``--before TREE`` (a checkout of
other code, ``git worktree add``) runs that tree's CLI in the same rounds, with its own cache.
"""

import argparse
import json
import os
import platform
import statistics
import tempfile

import numba

from puzzlelib import SlidingPuzzle, layers

from ._common import run_in_tree, spread, trees_compared, write_csv

PROBLEMS = {
    "problem1": ("4x4", "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0", 5_765_760, 58),
    "problem2": ("4x4", "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0", 12_108_096, 57),
}
BIG = {
    "2x6": ("2x6", " ".join(map(str, list(range(1, 12)) + [0])), 239_500_800, 80),
    "3x4": ("3x4", " ".join(map(str, list(range(1, 12)) + [0])), 239_500_800, 53),
}


def time_layers(size, start, threads, repeat):
    runs = [layers(SlidingPuzzle(size), start, threads=threads, progress=False)
            for _ in range(repeat)]
    return statistics.median(r.stats.seconds for r in runs), runs[-1]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks 001", description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", default=None,
                    help="comma-separated thread counts (default: 1 and all of numba's threads)")
    ap.add_argument("--big", action="store_true", help="add the 2x6 and 3x4 tables")
    ap.add_argument("--no-c", action="store_true", help="skip the document's C program")
    ap.add_argument("--breakdown", action="store_true", help="where one layer's time goes")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    ap.add_argument("--cli", type=int, metavar="ROUNDS",
                    help="time the CLI in fresh processes against the C program, ROUNDS rounds")
    ap.add_argument("--before", help="with --cli: also another tree's CLI, in the same rounds")
    args = ap.parse_args(argv)
    if args.cli:
        return cli_rounds(args.cli, args.before, args.csv)
    n_max = numba.config.NUMBA_NUM_THREADS
    threads = ([int(t) for t in args.threads.split(",")] if args.threads
               else sorted({1, numba.get_num_threads()}))
    threads = [t for t in threads if t <= n_max]
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, numba {numba.__version__} "
          f"(up to {n_max} threads), Python {platform.python_version()}")
    c_times = {}
    if not args.no_c:
        from . import seed_c

        try:
            progs = seed_c.build()
            for k, exe in progs.items():
                secs, total = seed_c.run(exe)
                c_times[f"problem{k}"] = secs
                print(f"document's C program, problem {k}: {secs:.2f} s ({total:,} positions)",
                      flush=True)
        except RuntimeError as e:
            print(f"document's C program skipped: {e}")
    cases = dict(PROBLEMS)
    if args.big:
        cases.update(BIG)
    rows = []
    for name, (size, start, total, depth) in cases.items():
        repeat = args.repeat if name in PROBLEMS else 1
        layers(SlidingPuzzle(size), start, progress=False)  # compile; a first run (faults, caches)
        base = None
        for t in threads:
            med, lay = time_layers(size, start, t, repeat)
            assert (lay.total, lay.max_depth) == (total, depth), (name, lay.total, lay.max_depth)
            base = base or med
            c = c_times.get(name)
            rows.append((name, t, med, base / med, c, c / med if c else None, lay.stats.compile_seconds))
            vs_c = f"   C/ours {c / med:5.1f}x" if c else ""
            print(f"{name:9s} threads {t:2d}  {med:8.3f} s   speed-up {base / med:4.2f}x{vs_c}"
                  f"   compile {lay.stats.compile_seconds:.1f} s", flush=True)
    if args.breakdown:
        breakdown()
    if args.csv:
        write_csv(args.csv, ["case", "threads", "seconds", "speedup_vs_1", "c_seconds", "c_over_ours",
                        "compile_s"], rows)
    return 0


def _cli_seconds(tree, size, start, cache):
    """The seconds ``layers --json`` reports in a fresh process run from ``tree``."""
    out = run_in_tree(tree, ["-m", "puzzlelib", "layers", "--size", size, "--start", start,
                             "--json"], cache)
    return json.loads(out)["seconds"]


def cli_rounds(rounds, before, csv_path):
    """Each round: per problem, the C program and each tree's CLI, in an order that alternates."""
    from . import seed_c

    trees = trees_compared(before)
    work = tempfile.mkdtemp(prefix="puzzlelib_001_cli_")
    caches = {name: os.path.join(work, f"numba_{name}") for name in trees}
    os.makedirs(os.path.join(work, "c"))
    progs = seed_c.build(os.path.join(work, "c"))
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs; {rounds} rounds; trees: "
          + ", ".join(f"{k} {v}" for k, v in trees.items()))
    times = {}
    for name, (size, start, total, _) in PROBLEMS.items():
        for tag, tree in trees.items():  # fill each tree's numba cache (not counted)
            _cli_seconds(tree, size, start, caches[tag])
        exe = progs[int(name[-1])]
        for k in range(rounds):
            order = [("C", None)] + list(trees.items())
            if k % 2:
                order.reverse()
            for tag, tree in order:
                if tree is None:
                    secs, got = seed_c.run(exe)
                    assert got == total, (name, got)
                else:
                    secs = _cli_seconds(tree, size, start, caches[tag])
                times.setdefault((name, tag), []).append(secs)
    rows = []
    for name in PROBLEMS:
        c = statistics.median(times[(name, "C")])
        for tag in trees:
            ts = times[(name, tag)]
            med, runs = spread(ts)
            rows.append((name, f"cli-{tag}", med, min(ts), max(ts), c, c / med))
            print(f"{name}  {tag:6s} CLI {med:6.3f} s ({runs})   C {c:5.2f} s   "
                  f"C/{tag} {c / med:5.1f}x", flush=True)
    if csv_path:
        write_csv(csv_path, ["case", "code", "seconds", "min_s", "max_s", "c_seconds",
                             "c_over_ours"], rows)
    return 0


def breakdown():
    """Time the parts of expanding one large layer of problem 2, on one thread: each parent's
    key stepped by each move, the child ranked, and its table entry read."""
    import time

    import numpy as np
    from numba import njit

    from puzzlelib.core.contract import UNSEEN
    from puzzlelib.domains.sliding import SlidingPuzzle

    size, start, _, _ = PROBLEMS["problem2"]
    lay = layers(SlidingPuzzle(size), start)
    puz = SlidingPuzzle(4, 4, goal=[int(x) for x in start.split()], heuristic="none")
    fns, p, kf = puz.fns, puz.params, puz.keys
    depth = int(np.argmax(lay.counts))
    ranks = np.flatnonzero(lay.table == depth)
    keys = np.empty(len(ranks), dtype=np.int64)
    state = np.empty(p.state_len, dtype=np.uint8)
    for i, r in enumerate(ranks):
        fns.unrank(int(r), p, state)
        keys[i] = kf.key(state, p)

    @njit
    def part(dist, keys, ranks, kf, p, upto):
        acc = 0
        for i in range(keys.shape[0]):
            for m in range(4):
                c = kf.key_step(keys[i], m, p)
                if c == -1:
                    continue
                if upto == 0:
                    acc += c
                    continue
                r = kf.rank_after(c, m, ranks[i], p)
                if upto == 1:
                    acc += r
                    continue
                acc += dist[r] == UNSEEN
        return acc

    # memory: what the layer lists move, against what this machine can copy
    a = np.ones(1 << 27, dtype=np.uint8)
    b = np.empty_like(a)
    np.copyto(b, a)
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        np.copyto(b, a)
        ts.append(time.perf_counter() - t0)
    bandwidth = 2 * a.nbytes / statistics.median(ts)  # read + write
    row = 8 + 8 + 1  # key, rank, move
    moved = lay.total * row * (2 + 3)  # written twice (expand, pack), read ~3 times as a parent
    t2 = statistics.median(layers(SlidingPuzzle(size), start).stats.seconds for _ in range(3))
    print(f"\nmemory: one thread copies {bandwidth / 1e9:.1f} GB/s (read + write); the layer "
          f"lists of problem 2 move about {moved / 1e9:.2f} GB in {t2:.2f} s "
          f"({moved / t2 / 1e9:.1f} GB/s, {100 * moved / t2 / bandwidth:.0f}% of that), plus "
          f"~{2.5 * lay.total / 1e6:.0f}M random reads of the {lay.table.nbytes / 2**20:.0f} MiB "
          f"table")
    share = moved / t2 / bandwidth
    print("  -> " + ("well below what memory can move: the time goes to computing (see below)"
                     if share < 0.5 else "close to what memory can move: memory-bound"))
    names = ["step keys", "+ rank child", "+ table lookup"]
    prev = 0.0
    print(f"\nwhere the time goes: one layer of problem 2 (depth {depth}, {len(ranks):,} "
          f"positions), one thread, ns per parent")
    for upto in range(3):
        part(lay.table, keys, ranks, kf, p, upto)
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            part(lay.table, keys, ranks, kf, p, upto)
            ts.append(time.perf_counter() - t0)
        ns = statistics.median(ts) / len(ranks) * 1e9
        print(f"  {names[upto]:16s} {ns:7.1f} ns  (this part {ns - prev:6.1f} ns)")
        prev = ns
