"""Every method agrees on random instances; paths are valid; counts of optimal solutions match
an independent count of shortest paths."""

import pytest

from puzzlelib import PuzzleError, SearchLimitError, UnsolvableError, solve
from puzzlelib.api import METHODS

from . import reference
from .conftest import random_board

OPTIMAL = ("bfs", "bidir", "iddfs", "idastar", "astar")


def _check(sol, start, goal, cols):
    assert len(sol.moves) == sol.length
    assert reference.replay(start, sol.moves, cols) == list(goal)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_all_methods_agree_on_random_instances(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    dist = reference.distances(goal, rows, cols)
    for _ in range(6):
        start = random_board(rows, cols, rng)
        want = dist[reference.to_str(start)]  # moves are reversible
        for method in METHODS:
            sol = solve(start, size=f"{rows}x{cols}", method=method)
            _check(sol, start, goal, cols)
            if method in OPTIMAL:
                assert sol.length == want, (method, start)
            else:
                assert sol.length >= want


def test_custom_goal(rng):
    goal = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    dist = reference.distances(goal, 3, 3)
    for _ in range(4):
        start = random_board(3, 3, rng, goal=goal)
        for method in OPTIMAL:
            sol = solve(start, size="3x3", goal=goal, method=method)
            _check(sol, start, goal, 3)
            assert sol.length == dist[reference.to_str(start)]


def test_solution_counts_match_shortest_path_count(rng):
    goal = list(range(1, 9)) + [0]
    for _ in range(4):
        start = random_board(3, 3, rng, walk=40)
        want = reference.count_shortest_paths(start, goal, 3, 3)
        for method in ("iddfs", "idastar"):
            sol = solve(start, method=method, all_solutions=True)
            assert sol.solutions == want


@pytest.mark.parametrize("rows,cols", [(4, 4), (3, 5), (5, 5)])
def test_larger_boards_idastar_astar_bidir_agree(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    for _ in range(3):
        start = random_board(rows, cols, rng, walk=36)
        lengths = set()
        for method in ("idastar", "astar", "bidir"):
            sol = solve(start, size=f"{rows}x{cols}", method=method)
            _check(sol, start, goal, cols)
            lengths.add(sol.length)
        assert len(lengths) == 1


def test_repeated_labels_with_state_searches(rng):
    goal = [1, 1, 2, 2, 3, 0]
    dist = reference.distances(goal, 2, 3)
    for _ in range(5):
        start = random_board(2, 3, rng, goal=goal)
        for method in ("bfs", "bidir", "iddfs", "idastar", "astar"):
            sol = solve(start, size="2x3", goal=goal, method=method)
            _check(sol, start, goal, 3)
            assert sol.length == dist[reference.to_str(start)]


def test_repeated_labels_bfs_agrees_with_idastar_on_4x4(rng):
    """Document 001's first labelling: BFS over the multiset table against IDA*."""
    goal = [1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 0]
    for _ in range(3):
        start = random_board(4, 4, rng, goal=goal, walk=30)
        a = solve(start, size="4x4", goal=goal, method="bfs")
        b = solve(start, size="4x4", goal=goal, method="idastar")
        _check(a, start, goal, 4)
        assert a.length == b.length


def test_start_equals_goal():
    for method in METHODS:
        sol = solve("1 2 3 4 5 6 7 8 0", method=method)
        assert sol.length == 0 and sol.moves == ""


def test_unsolvable_and_bad_requests():
    with pytest.raises(UnsolvableError):
        solve("1 2 3 4 5 6 8 7 0", method="astar")
    with pytest.raises(PuzzleError, match="unknown method"):
        solve("1 2 3 4 5 6 7 8 0", method="dfs")
    with pytest.raises(PuzzleError, match="needs method iddfs or idastar"):
        solve("1 2 3 4 5 6 7 8 0", method="bfs", all_solutions=True)


def test_limits_stop_with_a_clear_message():
    start = "8 6 7 2 5 4 3 0 1"
    with pytest.raises(SearchLimitError, match="stored states"):
        solve(start, method="astar", max_states=500)
    with pytest.raises(SearchLimitError, match="stored states"):
        solve(start, method="bidir", max_states=500)
    with pytest.raises(SearchLimitError, match="node limit"):
        solve(start, method="iddfs", node_limit=10_000)
    with pytest.raises(SearchLimitError, match="within bound 20"):
        solve(start, method="idastar", max_bound=20)


def test_result_helpers():
    sol = solve("1 2 3 4 5 6 0 7 8", method="bfs")
    assert sol.moves == "rr"
    assert sol.tiles() == [7, 8]
    assert sol.boards()[-1] == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    d = sol.to_dict()
    assert {"length", "moves", "nodes", "seconds", "compile_seconds"} <= set(d)
    assert "solutions" not in d


def test_iddfs_node_counts_match_the_teaching_version(rng):
    """Same pruning, same order: the kernel generates exactly the nodes the plain version does
    (even-length solutions included, where bound 0 comes first)."""
    from puzzlelib import teaching

    goal = tuple(range(1, 9)) + (0,)
    for walk in (14, 15, 16):
        start = random_board(3, 3, rng, walk=walk)
        for method, lb in (("iddfs", False), ("idastar", True)):
            sol = solve(start, method=method, all_solutions=True)
            length, count, _, nodes = teaching.iddfs(start, goal, 3, 3, lower_bound=lb)
            assert (sol.length, sol.solutions, sol.nodes) == (length, count, nodes)


def test_repeated_labels_bound_parity():
    """With indistinguishable tiles the heuristic's parity is not the solution's; the bound must
    still step through the right parity (this instance needs 1 move, h = 0... 2)."""
    sol = solve("1 1 2 2 0 3", size="2x3", goal="1 1 2 2 3 0", method="idastar")
    assert sol.length == 1


@pytest.mark.parametrize("subtrees", [16, 256])
def test_parallel_deepening_matches_serial(rng, monkeypatch, subtrees):
    """Subtrees shared among threads: same length, same count, same node count, and the same
    first solution as the one-thread search (every pass in parallel, however small, split into
    few subtrees or many)."""
    from puzzlelib.search import idastar

    monkeypatch.setattr(idastar, "SPLIT_MIN_NODES", 0)
    monkeypatch.setattr(idastar, "SPLIT_MIN_SUBTREES", subtrees)
    for walk in (40, 41, 60):
        start = random_board(3, 3, rng, walk=walk)
        for method in ("iddfs", "idastar"):
            one = solve(start, method=method, all_solutions=True, threads=1)
            two = solve(start, method=method, all_solutions=True, threads=2)
            assert (one.length, one.solutions, one.nodes, one.moves) == (
                two.length, two.solutions, two.nodes, two.moves)
            first = solve(start, method=method, threads=2)
            assert first.length == one.length and first.moves == one.moves


def test_split_grows_with_the_pass():
    from puzzlelib.search.idastar import SPLIT_MIN_SUBTREES, SPLIT_SUBTREES, split_subtrees

    assert split_subtrees(0) == SPLIT_MIN_SUBTREES == 16
    assert split_subtrees(17_903) == 17  # the 8-puzzle's pass before its last
    assert split_subtrees(10**9) == SPLIT_SUBTREES == 256


def test_bad_thread_count():
    with pytest.raises(PuzzleError, match="threads must be at least 1"):
        solve("1 2 3 4 5 6 7 8 0", method="idastar", threads=0)


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
    against the general loop, pass by pass: same solutions, nodes, next bound, first path, with
    or without counting all and under a node budget; the state comes back unchanged."""
    import numpy as np

    from puzzlelib.domains.sliding import SlidingPuzzle
    from puzzlelib.search.idastar import _dfs_bounded

    rows, cols = size
    puz = SlidingPuzzle(rows, cols, goal=goal, **kwargs)
    assert puz.cfns is not None
    goal_list = [int(x) for x in puz.goal]
    for walk in (9, 14, 23, 30):
        board = random_board(rows, cols, rng, goal=goal_list, walk=walk)
        s = puz.encode(puz.parse(" ".join(map(str, board))))
        h0 = puz.start_h(s)
        for bound in range(max(h0 - 1, 0), h0 + 9):
            for count_all in (False, True):
                for budget in (0, 37):
                    out = []
                    for cfns in (None, puz.cfns):
                        st = s.copy()
                        path = np.full(bound + 1, -7, dtype=np.int64)
                        r = _dfs_bounded(st, h0, 0, -1, bound, puz.fns, puz.params, count_all,
                                         path, budget, None, cfns)
                        assert np.array_equal(st, s)
                        out.append((tuple(int(x) for x in r), path.tolist()))
                    assert out[0] == out[1], (board, bound, count_all, budget)


def test_puzzles_of_one_shape_share_their_tables():
    """The kernels' tables are made once per board shape, goal, heuristic and hash; any other
    goal or heuristic gets its own (and answers for its own goal)."""
    from puzzlelib.domains.sliding import SlidingPuzzle

    a, b = SlidingPuzzle(3, 3), SlidingPuzzle(3, 3)
    assert a.params is b.params
    other = SlidingPuzzle(3, 3, goal="0 1 2 3 4 5 6 7 8")
    plain = SlidingPuzzle(3, 3, heuristic="none")
    assert other.params is not a.params and plain.params is not a.params
    assert list(other.params.goal) == list(range(9)) and int(plain.params.h.max()) == 0
    start = "1 2 3 4 5 6 7 8 0"
    assert solve(start, goal="0 1 2 3 4 5 6 7 8", method="bfs").length == 22
    assert solve(start, method="bfs").length == 0
