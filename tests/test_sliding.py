"""The sliding-tile domain: encoding, moves, the half-space hash, validation messages."""

import math
import random
from collections import Counter

import numpy as np
import pytest
from numba import njit

from puzzlelib import PuzzleError, SlidingPuzzle, UnsolvableError, solve
from puzzlelib.core.contract import ILLEGAL
from puzzlelib.domains import sliding
from puzzlelib.domains.sliding import parity_class, tiles_to_blank_moves

from . import reference
from .conftest import random_board


@njit
def _all_states(fns, p, n_ranks):
    out = np.empty((n_ranks, p.state_len), dtype=np.uint8)
    for r in range(n_ranks):
        fns.unrank(r, p, out[r])
    return out


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_rank_is_a_bijection_onto_the_reachable_half(rows, cols):
    puz = SlidingPuzzle(rows, cols)
    n = puz.n_ranks
    states = _all_states(puz.fns, puz.params, n)
    reachable = reference.distances(list(puz.goal), rows, cols)
    assert n == len(reachable)  # n!/2
    seen = set()
    for r in range(n):
        s = states[r]
        board = puz.decode(s)
        assert s[-1] == board.index(0)  # the blank's cell is stored last
        assert reference.to_str(board) in reachable
        assert puz.fns.rank(s, puz.params) == r
        seen.add(tuple(board))
    assert len(seen) == n


def test_step_and_inverse_restore_the_state(rng):
    puz = SlidingPuzzle(3, 4)
    from .conftest import random_board

    s = puz.encode(np.array(random_board(3, 4, rng), dtype=np.uint8))
    h = puz.fns.heuristic(s, puz.params)
    for _ in range(500):
        m = rng.randrange(4)
        before = s.copy()
        dh = puz.fns.step(s, m, puz.params)
        if dh == ILLEGAL:
            assert (s == before).all()
            continue
        h += dh
        assert h == puz.fns.heuristic(s, puz.params)  # incremental = full Manhattan
        assert reference.to_str(puz.decode(s)) in reference.moves_from(
            reference.to_str(puz.decode(before)), 3, 4
        )
        if rng.random() < 0.3:
            assert puz.fns.step(s, puz.fns.inverse(m, puz.params), puz.params) != ILLEGAL
            h = puz.fns.heuristic(s, puz.params)
            assert (s == before).all()


def test_manhattan_of_document_start():
    puz = SlidingPuzzle(3, 3)
    s = puz.encode(puz.parse("8 6 7 2 5 4 3 0 1"))
    assert puz.start_h(s) == 21


def test_repeated_labels_manhattan_is_distance_to_nearest_home():
    puz = SlidingPuzzle(2, 3, goal="1 1 2 2 3 0")
    assert not puz.distinct
    s = puz.encode(puz.parse("2 2 1 1 0 3"))
    # goal homes: 1 -> (0,0),(0,1); 2 -> (0,2),(1,0); 3 -> (1,1). In the start each tile is one
    # step from its nearest home: 2@(0,0)->(1,0), 2@(0,1)->(0,2), 1@(0,2)->(0,1), 1@(1,0)->(0,0),
    # 3@(1,2)->(1,1); a sum over homes taken jointly (2+1+...) would be larger.
    assert puz.start_h(s) == 5


def test_tiles_notation_round_trip():
    puz = SlidingPuzzle(3, 3)
    start = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    moves = "ruulddruuldldrrullurrdlldruurdd"
    tiles = puz.tiles_moved(start, moves)
    assert tiles[0] == 1  # the blank goes right, so tile 1 slides left
    assert tiles_to_blank_moves(start, tiles, 3) == moves
    assert puz.apply_moves(start, moves)[-1] == list(puz.goal)


@pytest.mark.parametrize(
    "board,message",
    [
        ("1 2 3", "expected 9 labels for a 3x3 board, got 3"),
        ("1 2 3 4 5 6 7 8 9", "label 9 is out of range 0..8"),
        ("1 2 3 4 5 6 7 -1 0", "label -1 is out of range"),
        ("1 2 3 4 5 6 7 8 x", "label 'x' is not an integer"),
        ("1 2 3 4 5 6 7 8 1", "no blank"),
        ("0 2 3 4 5 6 7 0 1", "2 blanks"),
        ("1 1 3 4 5 6 7 8 0", "tile 1 appears 2 times; tiles must be distinct"),
    ],
)
def test_bad_boards_are_named(board, message):
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SlidingPuzzle(3, 3).parse(board)


def test_unsolvable_is_reported_as_such():
    with pytest.raises(UnsolvableError, match="unsolvable"):
        SlidingPuzzle(3, 3).parse("1 2 3 4 5 6 8 7 0")
    with pytest.raises(UnsolvableError):
        SlidingPuzzle(4, 4).parse("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0")


def test_parity_class_matches_reachability():
    for rows, cols in [(2, 2), (2, 3), (3, 3), (2, 4)]:
        goal = list(SlidingPuzzle(rows, cols).goal)
        reach = reference.distances(goal, rows, cols)
        import itertools

        for perm in itertools.islice(itertools.permutations(range(rows * cols)), 3000):
            same = parity_class(np.array(perm), cols) == parity_class(np.array(goal), cols)
            assert same == (reference.to_str(perm) in reach)


@pytest.mark.parametrize("size", ["1x3", "6x6", "5x6", "2x13", "3x9", "3", "axb", "3x3x3"])
def test_bad_sizes(size):
    from puzzlelib.domains.sliding import parse_size

    with pytest.raises(PuzzleError, match="board size"):
        parse_size(size)


@pytest.mark.parametrize("size", ["2x7", "7x2", "2x9"])
def test_long_boards_rank_and_solve(size):
    """Boards longer than 6 (the 2x7 of issue 28): rank/unrank round trips on random
    positions, and bidirectional BFS, A* and IDA* agree on random walks from the goal."""
    rng = random.Random(7)
    puz = SlidingPuzzle(size)
    rows, cols = puz.rows, puz.cols
    sp = puz.rooted(list(range(1, rows * cols)) + [0])
    buf = np.empty(sp.params.state_len, dtype=np.uint8)
    for r in [0, sp.n_ranks - 1] + [rng.randrange(sp.n_ranks) for _ in range(300)]:
        sp.fns.unrank(r, sp.params, buf)
        assert sp.fns.rank(buf, sp.params) == r
    for _ in range(3):
        start = random_board(rows, cols, rng, walk=40)
        lengths = {m: solve(puz, start, method=m).length for m in ("bidir", "astar", "idastar")}
        assert len(set(lengths.values())) == 1, lengths


def test_start_and_goal_with_different_tiles():
    with pytest.raises(PuzzleError, match="do not hold the same tiles"):
        SlidingPuzzle(2, 3, goal="1 1 2 2 3 0").parse("1 1 1 2 3 0")


@pytest.mark.parametrize(
    "rows,cols,goal,variant",
    [
        (2, 3, [1, 1, 2, 2, 3, 0], sliding.FNS_MULTISET),
        (3, 3, [1, 2, 2, 3, 3, 3, 4, 4, 0], sliding.FNS_MULTISET),
        (2, 4, [1, 2, 3, 4, 5, 6, 6, 0], sliding.FNS_MULTISET),
        (3, 3, [1, 1, 1, 1, 1, 1, 1, 1, 0], sliding.FNS_MULTISET),
        (4, 5, [1] * 17 + [2, 2, 0], sliding.FNS_MULTISET_LONG),  # more than 15 tiles
    ],
)
def test_multiset_hash_is_a_bijection_onto_every_arrangement(rows, cols, goal, variant):
    """With repeated labels every arrangement is reachable (swapping two equal tiles fixes the
    parity), and the hash maps them one-to-one onto n!/prod(multiplicity!) ranks."""
    puz = SlidingPuzzle(rows, cols, goal=goal)
    assert puz.fns is variant
    n = puz.n_ranks
    expected = math.factorial(rows * cols)
    for m in Counter(goal).values():
        expected //= math.factorial(m)
    assert n == expected
    states = _all_states(puz.fns, puz.params, n)
    boards = {tuple(puz.decode(s)) for s in states}
    assert len(boards) == n
    for r in range(0, n, max(1, n // 2000)):
        assert puz.fns.rank(states[r], puz.params) == r
        assert states[r][-1] == list(states[r][:-1]).index(0)
    if n <= 20_000:
        assert len(reference.distances(goal, rows, cols)) == n  # all of them reachable


def test_multiset_fast_and_long_ranks_agree(rng):
    puz = SlidingPuzzle(4, 4, goal=[1, 1, 2, 2, 1, 1, 2, 2, 1, 3, 3, 2, 3, 3, 3, 0])
    p = puz.params
    assert puz.fns is sliding.FNS_MULTISET
    for _ in range(500):
        board = random_board(4, 4, rng, goal=list(puz.goal))
        s = puz.encode(board)
        assert sliding._rank_multiset(s, p) == sliding._rank_multiset_long(s, p)


def test_multiset_long_form_round_trip_with_many_classes(rng):
    """Ten labels (more than the one-word rank's eight classes): random round trips."""
    goal = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 0]
    puz = SlidingPuzzle(3, 4, goal=goal)
    assert puz.fns is sliding.FNS_MULTISET_LONG and puz.n_ranks == math.factorial(12) // 2
    out = np.empty(puz.state_len, dtype=np.uint8)
    for _ in range(300):
        s = puz.encode(random_board(3, 4, rng, goal=goal))
        r = puz.fns.rank(s, puz.params)
        assert 0 <= r < puz.n_ranks
        puz.fns.unrank(r, puz.params, out)
        assert (out == s).all()


def test_rank_after_matches_rank(rng):
    for goal in ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0], [1, 2, 2, 3, 3, 3, 1, 2, 2, 3, 3, 0]):
        puz = SlidingPuzzle(3, 4, goal=goal)
        for _ in range(200):
            s = puz.encode(random_board(3, 4, rng, goal=goal))
            r = puz.fns.rank(s, puz.params)
            for m in range(4):
                t = s.copy()
                if puz.fns.step(t, m, puz.params) != ILLEGAL:
                    assert puz.fns.rank_after(t, m, r, puz.params) == puz.fns.rank(t, puz.params)


def test_multiset_table_too_large_is_refused_with_memory_needed(monkeypatch):
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(10_000_000))
    from puzzlelib import layers

    with pytest.raises(PuzzleError, match=r"12,108,096 positions.*needs 11\.5 MiB"):
        layers(SlidingPuzzle("4x4"), "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0", table="bytes")


@pytest.mark.parametrize("goal, methods", [
    # more than 16 cells: the long multiset rank (2,448 and 257,040 positions)
    pytest.param([1] * 15 + [2, 2, 0], ("bfs", "bidir", "astar", "idastar"),
                 marks=pytest.mark.heavy),  # (compiles every kernel for it: a minute)
    ([1] * 12 + [2, 2, 3, 3, 1, 0], ("bfs", "bidir", "astar")),  # (IDA*: 51 moves, minutes)
])
def test_long_multiset_boards_search_end_to_end(goal, methods):
    """The long multiset rank inside the search kernels (it once allocated inside a domain
    function compiled without reference counting, which failed to compile there): layer counts
    against plain Python, and each method's length from a farthest position."""
    from puzzlelib import layers, solve

    puz = SlidingPuzzle(3, 6, goal=goal)
    assert puz.fns is sliding.FNS_MULTISET_LONG
    lay = layers(puz, goal)
    assert lay.counts == reference.layer_counts(goal, 3, 6)
    far = lay.farthest[0]
    for method in methods:
        assert solve(puz, far, method=method).length == lay.max_depth, method
