"""Korf's 1985 node counts for the 15-puzzle, exactly (``data/korf100.csv``).

Korf's IDA* with Manhattan distance tried the blank's moves up, left, right, down, pruned only
the move straight back, and counted the start as well as every position generated. Written
plainly here, that search gives each of the ten smallest published counts to the node, which
checks the table (as transcribed) and the reading of it; so does the library's IDA* told that
order (``order="ulrd"``). In its own order, counting every optimal solution, which makes the
order irrelevant, it must generate the same nodes as this search.
"""

import csv
import re
from pathlib import Path

import numba
import numpy as np
import pytest
from numba import njit

from puzzlelib import PuzzleError, SlidingPuzzle, solve

from . import reference_ida

DATA = Path(__file__).resolve().parents[1] / "data"
KORF = SlidingPuzzle("4x4", goal=" ".join(map(str, range(16))))


def korf100():
    with open(DATA / "korf100.csv") as f:
        return {int(r["id"]): r for r in csv.DictReader(f)}


def ten_smallest():
    rows = korf100()
    return sorted(rows, key=lambda i: int(rows[i]["korf1985_nodes"]))[:10]


@njit(cache=False)
def _manhattan(state, md):
    total = 0
    for c in range(md.shape[1]):
        total += md[state[c], c]
    return total


def korf_idastar(start, count_all=False):
    """(length, nodes with the start counted, optimal solutions found): IDA* with Manhattan
    distance as Korf ran it, moves up, left, right, down (:mod:`tests.reference_ida`)."""
    board = [int(x) for x in start.split()]
    state = np.array(board + [board.index(0)], dtype=np.int64)
    md = np.zeros((16, 16), dtype=np.int64)
    for c in range(16):
        for tile in range(1, 16):
            md[tile, c] = abs(c // 4 - tile // 4) + abs(c % 4 - tile % 4)
    length, nodes, found = reference_ida.idastar(state, 4, 4, _manhattan, md, count_all)
    return length, nodes + 1, found


@pytest.mark.parametrize("instance", ten_smallest())
def test_korf_order_search_gives_the_published_count(instance):
    """The plain search, and the library's IDA* told Korf's order (``order="ulrd"``, parent
    pruning, one thread; it does not count the start)."""
    row = korf100()[instance]
    length, nodes, _ = korf_idastar(row["start"])
    assert length == int(row["optimal_length"])
    assert nodes == int(row["korf1985_nodes"])
    got = solve(KORF, row["start"], method="idastar", heuristic="manhattan", prune="parent",
                order="ulrd", progress=False)
    assert (got.length, got.stats.generated + 1, got.threads) == (length, nodes, 1)


@pytest.mark.parametrize("instance", ten_smallest()[:4])
def test_library_counts_every_solution_as_the_korf_order_search(instance):
    """Every optimal solution counted: the library's IDA* (Manhattan, parent pruning, one
    thread) generates the nodes the plain search does (the start apart), and finds as many
    solutions."""
    row = korf100()[instance]
    length, nodes, sols = korf_idastar(row["start"], count_all=True)
    got = solve(KORF, row["start"], method="idastar", heuristic="manhattan", prune="parent",
                all_solutions=True, threads=1, progress=False)
    assert (got.length, got.stats.generated + 1, got.solutions) == (length, nodes, sols)


@pytest.mark.parametrize("kw,msg", [
    (dict(order="udl"), "order must name the blank's four moves once each"),
    (dict(order="uldr", method="astar"), "order applies to iddfs and idastar, not astar"),
    (dict(order="ulrd", threads=2), "order needs one thread (threads=1)"),
])
def test_order_errors(kw, msg):
    if kw.get("threads", 1) > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("one core: threads=2 is one thread here")
    kw = {"method": "idastar", **kw}
    with pytest.raises(PuzzleError, match=re.escape(msg)):
        solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1", **kw)
