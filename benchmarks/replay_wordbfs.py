"""The classic block puzzle's word BFS kernel (``wordbfs._run``, one call, every layer)
replayed in one process for two trees, in both orders of loading.

    python -m benchmarks.replay_wordbfs --before TREE --after TREE [--rounds N] [--workdir D]

Each tree's package is copied under a name of its own (as :mod:`benchmarks.inprocess` does),
both are loaded into one process, and their kernels are called in turn (ABBA), 20 calls a
sample; a ratio (second loaded / first) per round, their median and quartiles. The copy loaded
second can read slower for the same code (benchmarks/RESULTS.md, "The classic block BFS's
kernel"), so each pair of trees is run in both orders, each order in a process of its own.
"""

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from .inprocess import _copy


def _caller(name):
    m = importlib.import_module(name)
    wb = importlib.import_module(name + ".search.wordbfs")
    puz = m.BlockPuzzle(m.CLASSIC)
    wp = puz.word_params()
    wf = getattr(puz, "words", None) or getattr(puz, "wfns")
    st = np.ascontiguousarray(np.atleast_2d(puz.encode()), dtype=np.uint8)

    def call():
        words, n0, slots, _ = wb._first(st, wf, wp, False)
        parent = np.full(0, -1, dtype=np.int64)
        counts = np.zeros(256, dtype=np.int64)
        counts[0] = n0
        t = time.perf_counter()
        r = wb._run(words, parent, 0, n0, slots, n0, counts, 0, wf, wp, 1 << 30, -1, 1 << 62,
                    False)
        return time.perf_counter() - t, int(r[5])
    call()
    return call


def _one_order(workdir, names, rounds):
    sys.path.insert(0, workdir)
    calls = {n: _caller(n) for n in names}
    seen = {n: c()[1] for n, c in calls.items()}
    assert len(set(seen.values())) == 1, seen
    ratios = []
    for r in range(rounds):
        order = names if r % 2 == 0 else names[::-1]
        got = {}
        for n in order + order[::-1]:
            got.setdefault(n, []).append(statistics.median(calls[n]()[0] for _ in range(20)))
        a, b = (statistics.mean(got[n]) for n in names)
        ratios.append(b / a)
    q = statistics.quantiles(ratios, n=4)
    print(f"{names[1]} / {names[0]} (loaded second / first): median "
          f"{statistics.median(ratios):.3f}, quartiles {q[0]:.3f}-{q[2]:.3f}, "
          f"{rounds} rounds, {seen[names[0]]:,} positions")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--workdir")
    ap.add_argument("--order", help=argparse.SUPPRESS)  # (one order, in the child process)
    a = ap.parse_args(argv)
    if a.order:
        _one_order(a.workdir, a.order.split(","), a.rounds)
        return 0
    workdir = a.workdir or tempfile.mkdtemp(prefix="replay_wordbfs_")
    _copy(a.before, "pz_before", workdir)
    _copy(a.after, "pz_after", workdir)
    for order in ("pz_before,pz_after", "pz_after,pz_before"):
        subprocess.run([sys.executable, "-m", "benchmarks.replay_wordbfs", "--before", a.before,
                        "--after", a.after, "--rounds", str(a.rounds), "--workdir", workdir,
                        "--order", order], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
