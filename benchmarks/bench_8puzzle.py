"""Document 000's experiments: numba kernels against the plain-Python teaching versions,
measured side by side in one run.

    python -m benchmarks [--repeat 9] [--python-repeat 3] [--skip-slow] [--csv FILE]

For each experiment: the median wall time of the kernel (search only, after compilation), the
median of the plain-Python version, their ratio, and the kernel's compile time (paid once per
process, reported apart). The two are timed in alternating rounds (a run of the plain version,
then an untimed run of the kernel and a few timed ones, and again), so that a machine that
speeds up or slows down during the run (these are shared virtual machines) weighs on both
alike; ``ratio range`` is the least and greatest ratio of one round's plain run to the same
round's kernel median. The untimed run takes out the cost of a first call: right after the
plain version has run, the kernel's first call finds its tables out of the processor's caches
(and the threaded searches' threads asleep; bidirectional BFS on the 8-puzzle, on one thread:
about 0.4 ms against 0.2 ms in a long loop). The calls timed after it are not quite at a long
loop's speed either: the same search repeated settles only after some eight calls (0.41, 0.28,
0.25, 0.23 ... 0.20 ms, on 2026-11-24, with no page faults; a numba arithmetic loop run before
them did not shorten this), partly because the processor learns that one search's branches, so
a loop's figure would flatter the kernel. ``--skip-slow`` leaves out the plain-Python IDDFS
without pruning (about 150 million nodes: minutes in Python). The deepening searches run on all
of numba's threads (subtrees shared out); the ``_1thread`` rows time them on one thread.
"""

import argparse
import os
import platform
import statistics
import time

import numba

from puzzlelib import SlidingPuzzle, layers, solve, teaching

START = (8, 6, 7, 2, 5, 4, 3, 0, 1)
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
EIGHT = SlidingPuzzle("3x3")


def _median_time(fn, repeat):
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def _tiles(heuristic="none"):
    return teaching.SlidingTiles(3, 3, START, GOAL, heuristic=heuristic)


def experiments():
    """(name, kernel call returning (result, search seconds), plain-Python call, what to compare)."""
    return [
        ("bfs", lambda: solve(EIGHT, START, method="bfs"),
         lambda: teaching.breadth_first(_tiles()), lambda k, p: k.length == p.length == 31),
        ("bidir", lambda: solve(EIGHT, START, method="bidir"),
         lambda: teaching.bidirectional(_tiles()), lambda k, p: k.length == p.length == 31),
        ("longest", lambda: layers(EIGHT, GOAL),
         lambda: teaching.layers(teaching.SlidingTiles(3, 3, GOAL, heuristic="none")),
         lambda k, p: k.counts == p.counts and k.n_farthest == len(p.farthest) == 2),
        ("iddfs", lambda: solve(EIGHT, START, method="iddfs", all_solutions=True),
         lambda: teaching.idastar(_tiles(), all_solutions=True),
         lambda k, p: (k.length, k.solutions, k.stats.generated) == (31, 40, p.generated)),
        ("iddfs_1thread", lambda: solve(EIGHT, START, method="iddfs", all_solutions=True,
                                        threads=1),
         None, None),
        ("iddfs_lower_bound", lambda: solve(EIGHT, START, method="idastar",
                                            all_solutions=True),
         lambda: teaching.idastar(_tiles("manhattan"), all_solutions=True),
         lambda k, p: (k.length, k.solutions, k.stats.generated) == (31, 40, p.generated)),
        ("iddfs_lower_bound_1thread", lambda: solve(EIGHT, START, method="idastar",
                                                    all_solutions=True, threads=1),
         None, None),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9, help="kernel runs per experiment (median)")
    ap.add_argument("--python-repeat", type=int, default=5,
                    help="plain-Python runs (median), one per round")
    ap.add_argument("--skip-slow", action="store_true", help="skip plain-Python IDDFS without pruning")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args(argv)

    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} CPUs, "
          f"numba {numba.__version__} with {numba.get_num_threads()} threads, "
          f"Python {platform.python_version()}")
    rows = []
    for name, kernel, plain, agree in experiments():
        first = kernel()  # compiles, then one untimed run: first-touch page faults, caches
        skipped = plain is None or (args.skip_slow and name == "iddfs")
        rounds = 1 if skipped or name == "iddfs" else max(1, args.python_repeat)
        per_round = max(1, -(-args.repeat // rounds))  # kernel runs per round, rounded up
        runs, plain_times, round_ratios, p_res = [], [], [], None
        if not skipped and rounds > 1:
            plain()  # untimed too, as the kernel's first run is (its first run was the slowest)
        for _ in range(rounds):
            if not skipped:
                t_plain, p_res = _median_time(plain, 1)
                plain_times.append(t_plain)
            kernel()  # untimed: its tables back in the caches, its threads awake
            batch = [kernel() for _ in range(per_round)]
            runs.extend(batch)
            if not skipped:
                round_ratios.append(t_plain / statistics.median(r.stats.seconds for r in batch))
        k_med = statistics.median(r.stats.seconds for r in runs)
        compile_s = first.stats.compile_seconds
        if skipped:
            p_med = None
        else:
            p_med = statistics.median(plain_times)
            assert agree(runs[-1], p_res), f"{name}: kernel and plain Python disagree"
        spread = (min(round_ratios), max(round_ratios)) if len(round_ratios) > 1 else None
        rows.append((name, k_med, p_med, compile_s, spread))
        ratio = f"{p_med / k_med:10.0f}x" if p_med else "   skipped"
        plain_txt = f"{p_med * 1e3:12.1f}" if p_med else "     skipped"
        spread_txt = f"   ratio range {spread[0]:.0f}-{spread[1]:.0f}x" if spread else ""
        print(f"{name:26s} kernel {k_med * 1e3:9.2f} ms   plain Python {plain_txt} ms   "
              f"ratio {ratio}   compile {compile_s:5.2f} s{spread_txt}", flush=True)
    if args.csv:
        import csv

        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["experiment", "kernel_ms", "python_ms", "ratio", "compile_s",
                        "ratio_min", "ratio_max"])
            for name, k, p, c, spread in rows:
                w.writerow([name, k * 1e3, "" if p is None else p * 1e3,
                            "" if p is None else p / k, c,
                            "" if spread is None else spread[0],
                            "" if spread is None else spread[1]])
    return 0
