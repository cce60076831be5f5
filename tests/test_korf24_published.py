"""The 24-puzzle's databases against Korf and Felner's published node counts.

``data/korf24.csv`` carries, for each of the 50 instances, the nodes their IDA* generated
(Korf and Felner 2002). Their program tries the blank's moves up, left, right, down, prunes only
the move straight back, and takes the larger of the databases' sum and the sum of the lookups
mirrored in the main diagonal. :func:`paper_idastar` is that search written plainly over our
databases (each node's value computed from scratch): on the instances with the fewest published
nodes it generates exactly the published count (heavy: it needs the 6-6-6-6 databases), which
shows that our databases and bound are theirs.

The library's IDA* with ``prune="parent"`` tries the moves in another order (up, down, left,
right) unless told the paper's (``order="ulrd"``), so its first solution comes after another
share of the last pass. Told the order, it must generate what the plain search does. Counting
every optimal solution finishes the last pass, which makes the order irrelevant: there the two
searches must generate the same number of nodes in any order. Both are checked on random boards
with small databases (always) and on published instances (heavy).
"""

import csv
import random
from pathlib import Path

import pytest
from numba import njit

from puzzlelib import SlidingPuzzle, pdb as pdb_package, solve
from puzzlelib.domains.sliding import _fill_pdb, _heuristic_pdb

from . import reference_ida
from .conftest import random_board

DATA = Path(__file__).resolve().parents[1] / "data"
GOAL_24 = " ".join(map(str, range(25)))


def korf24():
    with open(DATA / "korf24.csv") as f:
        return {int(r["id"]): r for r in csv.DictReader(f)}


@njit(cache=False)
def _h(state, p):
    _fill_pdb(state, p)  # every tile's cell and every group's value, from the board alone
    return _heuristic_pdb(state, p)


def paper_idastar(space, start, count_all=False):
    """(length, nodes generated, optimal solutions found) of IDA* as Korf and Felner ran it
    (:mod:`tests.reference_ida`): bounds from the start's value up by two, moves up, left,
    right, down, over ``space``'s databases."""
    return reference_ida.idastar(space.encode(start), space.rows, space.cols, _h, space.params,
                                 count_all)


@pytest.mark.parametrize("rows,groups,walk", [
    (4, [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]], 45),
    (5, [[1, 2, 6], [5, 10, 11], [3, 4, 9], [15, 20, 21], [7, 8, 12], [13, 14, 19], [16, 17, 22],
         [18, 23, 24]], 50),
])
def test_counting_every_solution_agrees_with_the_paper_order_search(rows, groups, walk):
    """Random boards, small additive databases with their mirrored lookup: the library's IDA*
    (parent pruning, one thread, every optimal solution counted) and the plain search in the
    paper's order find the same length, the same number of optimal solutions and the same node
    count; the first solution, in either order, comes no later than the whole last pass."""
    goal = " ".join(map(str, range(rows * rows)))
    space, _ = pdb_package.guide(SlidingPuzzle(rows, rows, goal=goal), groups, reflect=True,
                                 cache=False, progress=False)
    puz = SlidingPuzzle(rows, rows, goal=goal)
    rng = random.Random(rows)
    lengths = []
    for _ in range(4):
        start = " ".join(map(str, random_board(rows, rows, rng, goal=range(rows * rows),
                                               walk=walk)))
        every = solve(puz, start, method="idastar", pdb=groups, reflect=True, prune="parent",
                      all_solutions=True, threads=1, cache=False, progress=False)
        first = solve(puz, start, method="idastar", pdb=groups, reflect=True, prune="parent",
                      threads=1, cache=False, progress=False)
        ordered = solve(puz, start, method="idastar", pdb=groups, reflect=True, prune="parent",
                        order="ulrd", threads=1, cache=False, progress=False)
        length, nodes, sols = paper_idastar(space, start, count_all=True)
        p_length, p_nodes, _ = paper_idastar(space, start)
        assert length == p_length == every.length == first.length == ordered.length
        assert nodes == every.stats.generated and sols == every.solutions
        assert first.stats.generated <= nodes and p_nodes <= nodes
        assert ordered.stats.generated == p_nodes  # the same search, told the paper's order
        lengths.append(length)
    assert max(lengths) >= 16  # boards deep enough for several passes


def test_korf_24_published_nodes():
    """The file's node counts: one per instance, the column's sum that of the paper's table as
    transcribed (data/README.md), and the ten with the fewest those the notebook and the
    benchmark run."""
    rows = korf24()
    nodes = {i: int(r["published_nodes"]) for i, r in rows.items()}
    assert sorted(nodes) == list(range(1, 51)) and min(nodes.values()) > 0
    assert sum(nodes.values()) == 18_044_623_983_548
    assert sorted(nodes, key=nodes.get)[:10] == [38, 40, 25, 32, 44, 37, 30, 13, 1, 28]


@pytest.mark.heavy
@pytest.mark.parametrize("instance", [38, 40])
def test_paper_order_search_generates_the_published_count(instance):
    """Instances 38 and 40 (the two with the fewest published nodes) with the 6-6-6-6 databases
    and their reflection, in the paper's order: the published length and exactly the published
    node count, from the plain search and from the library's IDA* told that order."""
    row = korf24()[instance]
    puz = SlidingPuzzle("5x5", goal=GOAL_24)
    space, _ = pdb_package.guide(puz, "pdb6666", progress=False)
    length, nodes, _ = paper_idastar(space, row["start"])
    assert length == int(row["optimal_length"])
    assert nodes == int(row["published_nodes"])
    got = solve(puz, row["start"], method="idastar", heuristic="pdb6666", prune="parent",
                order="ulrd", progress=False)
    assert (got.length, got.stats.generated) == (length, nodes)


@pytest.mark.heavy
def test_library_counts_every_solution_of_instance_40_as_the_paper_order_search():
    """Instance 40 with the 6-6-6-6 databases, every optimal solution counted: the library's IDA*
    (parent pruning, one and two threads) and the paper-order search generate the same nodes."""
    row = korf24()[40]
    puz = SlidingPuzzle("5x5", goal=GOAL_24)
    space, _ = pdb_package.guide(puz, "pdb6666", progress=False)
    length, nodes, sols = paper_idastar(space, row["start"], count_all=True)
    for threads in (1, 2):
        got = solve(puz, row["start"], method="idastar", heuristic="pdb6666", prune="parent",
                    all_solutions=True, threads=threads, progress=False)
        assert (got.length, got.stats.generated, got.solutions) == (length, nodes, sols)
