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

DATA = Path(__file__).resolve().parents[1] / "data"
KORF = SlidingPuzzle("4x4", goal=" ".join(map(str, range(16))))


def korf100():
    with open(DATA / "korf100.csv") as f:
        return {int(r["id"]): r for r in csv.DictReader(f)}


def ten_smallest():
    rows = korf100()
    return sorted(rows, key=lambda i: int(rows[i]["korf1985_nodes"]))[:10]


@njit(cache=False)
def _pass(board, blank, back, g, h, bound, md, nbr, count, count_all):
    """One depth-first pass below ``bound``: the solutions found (all, or stop at the first)."""
    found = 0
    for k in range(4):
        t = nbr[blank, k]
        if t < 0 or t == back:
            continue
        tile = board[t]
        h2 = h - md[tile, t] + md[tile, blank]
        count[0] += 1
        if g + 1 + h2 <= bound:
            board[blank] = tile
            board[t] = 0
            if h2 == 0:
                found += 1
            else:
                found += _pass(board, t, blank, g + 1, h2, bound, md, nbr, count, count_all)
            if found and not count_all:
                return found
            board[t] = tile
            board[blank] = 0
    return found


def korf_idastar(start, count_all=False):
    """(length, nodes with the start counted, optimal solutions found): IDA* with Manhattan
    distance as Korf ran it, moves up, left, right, down."""
    board = np.array([int(x) for x in start.split()], dtype=np.int64)
    md = np.zeros((16, 16), dtype=np.int64)
    nbr = np.full((16, 4), -1, dtype=np.int64)
    for c in range(16):
        r, k = divmod(c, 4)
        for tile in range(1, 16):
            md[tile, c] = abs(r - tile // 4) + abs(k - tile % 4)
        for i, (ok, t) in enumerate([(r > 0, c - 4), (k > 0, c - 1), (k < 3, c + 1),
                                     (r < 3, c + 4)]):
            if ok:
                nbr[c, i] = t
    h = int(sum(md[board[c], c] for c in range(16)))
    bound, total = h, 1
    while True:
        count = np.zeros(1, dtype=np.int64)
        found = _pass(board.copy(), int(np.flatnonzero(board == 0)[0]), -1, 0, h, bound, md,
                      nbr, count, count_all)
        total += int(count[0])
        if found:
            return bound, total, int(found)
        bound += 2


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
