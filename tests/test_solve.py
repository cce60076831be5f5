"""Every method agrees on random instances; paths are valid; counts of optimal solutions match
an independent count of shortest paths; the stats record means the same for every method."""

import numpy as np
import pytest

from puzzlelib import (PuzzleError, SearchLimitError, SlidingPuzzle, UnsolvableError, solve,
                       solve_many)
from puzzlelib.domains.base import METHODS

from . import reference
from .conftest import random_board

OPTIMAL = ("bfs", "bidir", "iddfs", "idastar", "astar")


def _check(sol, start, goal, cols):
    assert len(sol.moves) == sol.length
    assert reference.replay(start, sol.moves, cols) == list(goal)
    assert sol.positions()[-1] == list(goal)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_all_methods_agree_on_random_instances(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    dist = reference.distances(goal, rows, cols)
    puz = SlidingPuzzle(rows, cols)
    for _ in range(6):
        start = random_board(rows, cols, rng)
        want = dist[reference.to_str(start)]  # moves are reversible
        for method in METHODS:
            sol = solve(puz, start, method=method)
            _check(sol, start, goal, cols)
            assert sol.status == "solved"
            if method in OPTIMAL:
                assert sol.length == want, (method, start)
            else:
                assert sol.length >= want


def test_custom_goal(rng):
    goal = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    dist = reference.distances(goal, 3, 3)
    puz = SlidingPuzzle("3x3", goal=goal)
    for _ in range(4):
        start = random_board(3, 3, rng, goal=goal)
        for method in OPTIMAL:
            sol = solve(puz, start, method=method)
            _check(sol, start, goal, 3)
            assert sol.length == dist[reference.to_str(start)]


def test_solution_counts_match_shortest_path_count(rng):
    goal = list(range(1, 9)) + [0]
    for _ in range(4):
        start = random_board(3, 3, rng, walk=40)
        want = reference.count_shortest_paths(start, goal, 3, 3)
        for method in ("iddfs", "idastar"):
            sol = solve(SlidingPuzzle("3x3"), start, method=method, all_solutions=True)
            assert sol.solutions == want


@pytest.mark.parametrize("rows,cols", [(4, 4), (3, 5), (5, 5)])
def test_larger_boards_idastar_astar_bidir_agree(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    for _ in range(3):
        start = random_board(rows, cols, rng, walk=36)
        lengths = set()
        for method in ("idastar", "astar", "bidir"):
            sol = solve(SlidingPuzzle(rows, cols), start, method=method)
            _check(sol, start, goal, cols)
            lengths.add(sol.length)
        assert len(lengths) == 1


def test_repeated_labels_with_state_searches(rng):
    goal = [1, 1, 2, 2, 3, 0]
    dist = reference.distances(goal, 2, 3)
    puz = SlidingPuzzle("2x3", goal=goal)
    for _ in range(5):
        start = random_board(2, 3, rng, goal=goal)
        for method in ("bfs", "bidir", "iddfs", "idastar", "astar"):
            sol = solve(puz, start, method=method)
            _check(sol, start, goal, 3)
            assert sol.length == dist[reference.to_str(start)]


def test_repeated_labels_bfs_agrees_with_idastar_on_4x4(rng):
    """Document 001's first labelling: BFS over the multiset table against IDA*."""
    goal = [1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 0]
    puz = SlidingPuzzle("4x4", goal=goal)
    for _ in range(3):
        start = random_board(4, 4, rng, goal=goal, walk=30)
        a = solve(puz, start, method="bfs")
        b = solve(puz, start, method="idastar")
        _check(a, start, goal, 4)
        assert a.length == b.length


def test_start_equals_goal():
    for method in METHODS:
        sol = solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", method=method)
        assert sol.length == 0 and sol.moves == "" and sol.positions() == [list(range(1, 9)) + [0]]


def test_unsolvable_and_bad_requests():
    eight = SlidingPuzzle("3x3")
    with pytest.raises(UnsolvableError):
        solve(eight, "1 2 3 4 5 6 8 7 0", method="astar")
    with pytest.raises(PuzzleError, match="unknown method"):
        solve(eight, "1 2 3 4 5 6 7 8 0", method="dfs")
    with pytest.raises(PuzzleError, match="needs method iddfs or idastar"):
        solve(eight, "1 2 3 4 5 6 7 8 0", method="bfs", all_solutions=True)
    with pytest.raises(PuzzleError, match="uses no heuristic"):
        solve(eight, "1 2 3 4 5 6 7 8 0", method="bfs", heuristic="linear-conflict")
    with pytest.raises(PuzzleError, match="unknown heuristic"):
        solve(eight, "1 2 3 4 5 6 7 8 0", method="astar", heuristic="euclid")
    with pytest.raises(PuzzleError, match="max_states must be a whole number"):
        solve(eight, "1 2 3 4 5 6 7 8 0", method="astar", max_states=0)
    with pytest.raises(PuzzleError, match="first argument must be a puzzle"):
        solve(42, "1 2 3 4 5 6 7 8 0")
    with pytest.raises(TypeError, match="size"):  # (1.0: the 0.1 form is gone)
        solve(eight, "1 2 3 4 5 6 7 8 0", size="3x3")
    with pytest.raises(PuzzleError, match="first argument must be a puzzle"):
        solve("1 2 3 4 5 6 0 7 8")


def test_limits_stop_with_a_clear_message():
    start = "8 6 7 2 5 4 3 0 1"
    eight = SlidingPuzzle("3x3")
    with pytest.raises(SearchLimitError, match="stored states"):
        solve(eight, start, method="astar", max_states=500)
    with pytest.raises(SearchLimitError, match="stored states"):
        solve(eight, start, method="bidir", max_states=500)
    with pytest.raises(SearchLimitError, match="node limit"):
        solve(eight, start, method="iddfs", node_limit=10_000)


def test_no_solution_within_max_depth_is_a_result_not_an_error():
    eight = SlidingPuzzle("3x3")
    for method in ("idastar", "iddfs", "bidir", "bfs"):
        sol = solve(eight, "8 6 7 2 5 4 3 0 1", method=method, max_depth=20)
        assert (sol.length, sol.moves, sol.status) == (-1, None, "not within max_depth"), method
        assert sol.positions() == [[8, 6, 7, 2, 5, 4, 3, 0, 1]]


def test_result_helpers():
    sol = solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 0 7 8", method="bfs")
    assert sol.moves == "rr"
    assert sol.puzzle.tiles_moved(sol.start, sol.moves) == [7, 8]
    assert sol.positions()[-1] == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    d = sol.to_dict()
    assert {"puzzle", "method", "start", "length", "moves", "status", "stats", "counts"} <= set(d)
    assert set(d["stats"]) == {"generated", "expanded", "stored", "memory_bytes", "seconds",
                               "compile_seconds"}
    assert d["puzzle"] == {"puzzle": "sliding", "size": "3x3",
                           "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0], "hash": "perfect"}
    assert "solutions" not in d


def test_iddfs_node_counts_match_the_teaching_version(rng):
    """Same pruning, same order: the kernel generates exactly the nodes the plain version does
    (even-length solutions included, where bound 0 comes first)."""
    from puzzlelib import teaching

    goal = tuple(range(1, 9)) + (0,)
    for walk in (14, 15, 16):
        start = random_board(3, 3, rng, walk=walk)
        for method, h in (("iddfs", "none"), ("idastar", "manhattan")):
            sol = solve(SlidingPuzzle("3x3"), start, method=method, all_solutions=True)
            plain = teaching.idastar(teaching.SlidingTiles(3, 3, start, goal, heuristic=h),
                                     all_solutions=True)
            assert (sol.length, sol.solutions, sol.stats.generated) == (
                plain.length, plain.extra["solutions"], plain.generated)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (3, 4)])
def test_deepening_counts_match_a_recursive_version(rows, cols, rng):
    """``generated`` and ``expanded`` of IDDFS and IDA* (first solution) against a recursive
    search written from the definitions (tests/reference.py), on one thread and on two with
    every pass shared: the counts do not depend on the threads."""
    goal = list(range(1, rows * cols)) + [0]
    puz = SlidingPuzzle(rows, cols)
    for walk in (9, 16, 21, 30):
        start = random_board(rows, cols, rng, walk=walk)
        for method, h in (("iddfs", None), ("idastar", reference.manhattan_to(goal, cols))):
            length, gen, exp = reference.deepening_stats(start, goal, rows, cols, h)
            for threads in (1, 2):
                sol = solve(puz, start, method=method, threads=threads, prune="parent")
                assert (sol.length, sol.stats.generated, sol.stats.expanded) == (
                    length, gen, exp), (method, threads, start)
                assert sol.stats.stored == sol.extra["initial_bound"] + 2 * (
                    sol.extra["iterations"] - 1) + 1


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4)])
def test_bfs_stats_from_the_definitions(rows, cols, rng):
    """Breadth-first search to the goal: ``expanded`` is every position of the layers before the
    goal's, ``stored`` every position of the layers made (the goal's included), ``generated``
    a child per legal move of each expanded position but the one back to its parent."""
    puz = SlidingPuzzle(rows, cols)
    for _ in range(4):
        start = random_board(rows, cols, rng)
        dist = reference.distances(start, rows, cols)
        sol = solve(puz, start, method="bfs")
        d = sol.length
        inner = [s for s, k in dist.items() if k < d]
        generated = sum(reference.degree(s, cols) for s in inner) - (len(inner) - 1)
        assert sol.stats.expanded == len(inner)
        assert sol.stats.stored == sum(1 for k in dist.values() if k <= d) == sum(sol.counts)
        assert sol.stats.generated == generated
        assert sol.stats.memory_bytes >= puz.n_ranks


def test_bidirectional_kernels_report_the_same_stats():
    """Keys, distance tables and hash sets of whole states expand the same rows in the same
    order: the same generated, expanded and stored counts while no meeting stops them (their
    bytes differ). In the layer that meets, the table kernel stops at the meeting child, the
    others after the children of a chunk of parents (16 for states, 256 for keys): they have
    made more."""
    from puzzlelib.search import bidirectional

    puz = SlidingPuzzle("3x3")
    s, g = puz.encode("8 6 7 2 5 4 3 0 1"), puz.goal_state()
    for depth in (20, 40):
        out = {}
        for variant in ("keys", "table", "states"):
            res = bidirectional.bidirectional(s, g, puz.fns, puz.params, depth, 10**6,
                                              variant=variant, kfns=puz.keys, n_ranks=puz.n_ranks)
            out[variant] = res
        keys, table, states = out["keys"], out["table"], out["states"]
        for r in (keys, states):
            assert (r.path.tolist(), r.stored, r.forward_counts, r.backward_counts) == (
                table.path.tolist(), table.stored, table.forward_counts, table.backward_counts)
        if depth == 20:  # no meeting: every layer made whole, by all three
            assert table.status == bidirectional.NOT_WITHIN_DEPTH
            assert (keys.generated, keys.expanded) == (table.generated, table.expanded) == (
                states.generated, states.expanded)
        else:
            assert table.status == bidirectional.FOUND and len(table.path) == 31
            assert table.stored == sum(table.forward_counts) + sum(table.backward_counts) == 15828
            for r, chunk in ((states, 16), (keys, 256)):
                assert table.expanded <= r.expanded < table.expanded + chunk
                assert table.generated <= r.generated < table.generated + 4 * chunk
        # every expanded row made its children, at most 3 of them (4 at a root) and at least one
        assert table.expanded < table.generated <= 3 * table.expanded + 2


def test_astar_stats_hold_together(rng):
    """A*: the goal is never expanded, every stored state but the start was generated, and no
    position makes more than four children."""
    puz = SlidingPuzzle("3x3")
    for _ in range(4):
        start = random_board(3, 3, rng)
        sol = solve(puz, start, method="astar")
        st = sol.stats
        if sol.length:
            assert st.expanded >= sol.length
            assert st.stored - 1 <= st.generated <= 4 * st.expanded
            assert st.memory_bytes > 0


def test_repeated_labels_bound_parity():
    """With indistinguishable tiles the heuristic's parity is not the solution's; the bound must
    still step through the right parity (this instance needs 1 move, h = 0... 2)."""
    sol = solve(SlidingPuzzle("2x3", goal="1 1 2 2 3 0"), "1 1 2 2 0 3", method="idastar")
    assert sol.length == 1


@pytest.mark.parametrize("subtrees", [16, 256])
def test_parallel_deepening_matches_serial(rng, subtrees):
    """Subtrees shared among threads: same length, same count, same node counts, and the same
    first solution as the one-thread search (every pass in parallel, however small, split into
    few subtrees or many)."""
    from puzzlelib.search import idastar

    for size in ("3x3", "4x4"):
        puz = SlidingPuzzle(size)
        for walk in (40, 41, 60):
            start = puz.encode(random_board(puz.rows, puz.cols, rng, walk=walk))
            for all_solutions in (True, False):
                for space in (puz, puz.with_heuristic("none")):
                    if size == "4x4" and space.heuristic == "none":
                        continue
                    runs = [idastar.iterative_deepening(
                        start, space.depth_first.fns, space.params, space.residue(start),
                        all_solutions, 80, parallel=parallel, cfns=space.depth_first.cursor,
                        split_after=0 if parallel else None)
                        for parallel in (False, True)]
                    one, two = runs
                    assert (one.length, one.solutions, one.generated, one.expanded) == (
                        two.length, two.solutions, two.generated, two.expanded)
                    assert np.array_equal(one.path, two.path)


def test_split_grows_with_the_pass():
    from puzzlelib.search.idastar import SPLIT_MIN_SUBTREES, SPLIT_SUBTREES, split_subtrees

    assert split_subtrees(0) == SPLIT_MIN_SUBTREES == 16
    assert split_subtrees(17_903) == 17  # the 8-puzzle's pass before its last
    assert split_subtrees(10**9) == SPLIT_SUBTREES == 256


def test_bad_thread_count():
    with pytest.raises(PuzzleError, match="threads must be a whole number, at least 1, not 0"):
        solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", method="idastar", threads=0)


@pytest.mark.parametrize("size,goal,kwargs", [
    ((3, 3), None, {}),
    ((3, 3), None, {"heuristic": "none"}),
    ((2, 4), "1 1 2 2 3 3 4 0", {}),
    ((3, 3), "0 1 2 3 4 5 6 7 8", {}),
    ((2, 3), "1 1 0 2 2 2", {"heuristic": "none"}),
    ((4, 4), None, {}),
])
def test_cursor_loop_searches_the_same_tree(size, goal, kwargs, rng):
    """The sliding-tile cursor loop (legal moves only, children looked at before they are made)
    against the general loop, pass by pass: same solutions, nodes, next bound, first path,
    nodes expanded, with or without counting all and under a node budget; the state comes back
    unchanged."""
    from puzzlelib.search.idastar import DepthFirst, _dfs_bounded

    rows, cols = size
    puz = SlidingPuzzle(rows, cols, goal=goal, **kwargs)
    assert puz.depth_first.cursor is not None
    goal_list = [int(x) for x in puz.goal]
    for walk in (9, 14, 23, 30):
        board = random_board(rows, cols, rng, goal=goal_list, walk=walk)
        s = puz.encode(" ".join(map(str, board)))
        h0 = puz.start_h(s)
        for bound in range(max(h0 - 1, 0), h0 + 9):
            for count_all in (False, True):
                for budget in (0, 37):
                    out = []
                    for cfns in (None, puz.depth_first.cursor):
                        st = s.copy()
                        path = np.full(bound + 1, -7, dtype=np.int64)
                        r = _dfs_bounded(DepthFirst(puz.fns, puz.params, count_all, cfns=cfns),
                                         st, h0, 0, -1, bound, path, budget)
                        assert np.array_equal(st, s)
                        out.append((tuple(int(x) for x in r), path.tolist()))
                    assert out[0] == out[1], (board, bound, count_all, budget)


def test_puzzles_of_one_shape_share_their_tables():
    """The kernels' tables are made once per board shape, goal, heuristic and hash; any other
    goal or heuristic gets its own (and answers for its own goal)."""
    a, b = SlidingPuzzle(3, 3), SlidingPuzzle("3x3")
    assert a.params is b.params
    other = SlidingPuzzle(3, 3, goal="0 1 2 3 4 5 6 7 8")
    plain = SlidingPuzzle(3, 3, heuristic="none")
    assert other.params is not a.params and plain.params is not a.params
    assert a.with_heuristic("none").params is plain.params
    assert list(other.params.goal) == list(range(9)) and int(plain.params.h.max()) == 0
    start = "1 2 3 4 5 6 7 8 0"
    assert solve(other, start, method="bfs").length == 22
    assert solve(a, start, method="bfs").length == 0


def test_solve_many_takes_a_puzzle_and_its_starts():
    batch = solve_many(SlidingPuzzle("3x3"), ["1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8"])
    assert [r.moves for r in batch.results] == ["rr", "r"]
    with pytest.raises(PuzzleError, match="first argument must be a puzzle"):
        solve_many(["1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8"])
    with pytest.raises(PuzzleError, match="no starts given"):
        solve_many(SlidingPuzzle("3x3"))
