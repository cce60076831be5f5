"""benchmarks korf24 --fewest: the K searches with the fewest nodes, found with node limits.

The scheduler (``benchmarks.bench_korf24.fewest``) is checked against known counts, every
order, first limit and number of slots, and then on real searches (8-puzzle boards, IDA* with a
node limit) against their counts without one: the K it returns are the K smallest, and every
other item either was counted or stopped past a limit no smaller than the K-th count.
"""

import concurrent.futures
import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.bench_korf24 import fewest
from puzzlelib import SearchLimitError, SlidingPuzzle, solve

ROOT = Path(__file__).resolve().parents[1]


def _check(counts, k, best, others, stopped_at):
    want = sorted(counts.values())[:k]
    assert [n for n, _ in best] == want
    assert all(counts[i] == n for n, i in best)
    assert set(others) == set(counts) - {i for _, i in best}
    for i, v in others.items():
        assert v >= best[-1][0]
        if i in stopped_at:
            assert counts[i] > stopped_at[i] == v  # stopped means more than the limit
        else:
            assert counts[i] == v


@pytest.mark.parametrize("slots", [1, 3])
def test_known_counts(slots):
    rng = random.Random(7)
    for trial in range(60):
        n = rng.randint(1, 9)
        counts = {f"i{j}": rng.choice([rng.randint(1, 50), rng.randint(1, 5000)])
                  for j in range(n)}
        k = rng.randint(1, n)
        first = rng.choice([0, 1, 10, 100, 10_000])
        seen = []

        def run(item, limit):
            seen.append((item, limit))
            c = counts[item]
            return (c if limit == 0 or c <= limit else None,)

        stopped_at = {}

        def report(item, result, limit, kth, done, total):
            if result[0] is None:
                stopped_at[item] = limit
            else:
                stopped_at.pop(item, None)
            assert 1 <= done <= total == n

        with concurrent.futures.ThreadPoolExecutor(slots) as ex:
            best, others = fewest(list(counts), k, run, ex, slots, first, report)
        _check(counts, k, best, others, stopped_at)
        if first == 0:  # the limit only falls: nothing runs twice
            assert sorted(i for i, _ in seen) == sorted(counts)


def test_a_resumed_scan():
    """An earlier scan's counts and stops are taken as they are: counted items never run again,
    a stopped one only when its limit is below the k-th count."""
    rng = random.Random(11)
    for trial in range(80):
        n = rng.randint(2, 9)
        counts = {f"i{j}": rng.randint(1, 60) for j in range(n)}
        k = rng.randint(1, n)
        known = {}
        for i in rng.sample(sorted(counts), rng.randint(0, n)):
            c = counts[i]
            known[i] = c if c == 1 or rng.random() < 0.5 else -rng.randint(1, c - 1)
        seen, stopped_at = [], {i: -v for i, v in known.items() if v < 0}

        def run(item, limit):
            seen.append((item, limit))
            c = counts[item]
            return (c if limit == 0 or c <= limit else None,)

        def report(item, result, limit, kth, done, total):
            if result[0] is None:
                stopped_at[item] = limit
            else:
                stopped_at.pop(item, None)

        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            best, others = fewest(list(counts), k, run, ex, 2, rng.choice([0, 5]), report, known)
        _check(counts, k, best, others, stopped_at)
        assert not {i for i, _ in seen} & {i for i, v in known.items() if v >= 0}
        for i, limit in seen:  # a stopped item runs again only with a higher limit
            assert known.get(i, 0) >= 0 or limit == 0 or limit > -known[i]


def test_every_order_of_a_small_set():
    counts = {"a": 30, "b": 5, "c": 30, "d": 12, "e": 7}
    for order in itertools.permutations(counts):
        def run(item, limit):
            return (counts[item] if limit == 0 or counts[item] <= limit else None,)
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            best, others = fewest(list(order), 3, run, ex, 1, 0, lambda *a: None)
        assert [n for n, _ in best] == [5, 7, 12]
        assert others["a"] >= 12 and others["c"] >= 12


def test_real_searches_with_node_limits():
    puz = SlidingPuzzle("3x3")
    rng = random.Random(3)
    boards = []
    while len(boards) < 8:
        tiles = list(range(9))
        rng.shuffle(tiles)
        t = [x for x in tiles if x]
        inversions = sum(a > b for j, a in enumerate(t) for b in t[j + 1:])
        if inversions % 2 == 0:  # odd width: reachable from the goal iff an even count
            boards.append(" ".join(map(str, tiles)))
    full = {b: solve(puz, b, method="idastar", progress=False).stats.generated for b in boards}
    stopped_at = {}

    def run(board, limit):
        try:
            return (solve(puz, board, method="idastar", node_limit=limit,
                          progress=False).stats.generated,)
        except SearchLimitError:
            return (None,)

    def report(item, result, limit, kth, done, total):
        if result[0] is None:
            stopped_at[item] = limit
        else:
            assert result[0] == full[item]  # a limit that is not reached changes nothing
            stopped_at.pop(item, None)

    for first in (0, 50):
        stopped_at.clear()
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            best, others = fewest(boards, 3, run, ex, 2, first, report)
        _check(full, 3, best, others, stopped_at)


def test_bad_k():
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        with pytest.raises(ValueError, match="k must be 1 to 2"):
            fewest(["a", "b"], 3, lambda i, lim: (1,), ex, 1)


@pytest.mark.parametrize("argv,msg", [
    (["--fewest", "0"], "--fewest: K must be 1 to 50, the instances taken, not 0"),
    (["--instances", "0"], "--instances: 1 to 50, not 0"),
    (["--fewest", "3", "--ids", "40,25"], "--fewest: K must be 1 to 2"),
    (["--fewest", "1", "--ids", "40", "--before", "."], "--fewest and --before do not go together"),
    (["--resume", "x.csv"], "--resume goes with --fewest"),
    (["--fewest", "1", "--resume", "no/such.csv"], "--resume: no/such.csv is not the CSV of a"),
    (["--fewest", "1", "--resume", "data/korf24.csv"], "--resume: data/korf24.csv is not the CSV"),
])
def test_cli_errors(argv, msg):
    p = subprocess.run([sys.executable, "-m", "benchmarks", "korf24", *argv], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert msg in p.stderr.strip().splitlines()[-1]
