"""Bidirectional search over 64-bit keys and over two distance tables against the hash-set
kernel (same order, so the same layer ends, stored count and path) and against a plain-Python
BFS (the length)."""

import numpy as np
import pytest

from puzzlelib import SearchLimitError, api, solve
from puzzlelib.domains import sliding
from puzzlelib.domains.sliding import SlidingPuzzle
from puzzlelib.search import bidirectional as bidir

from . import reference
from .conftest import random_board


def _both(monkeypatch, start, size, goal=None, **kw):
    """``solve(method="bidir")`` through the key kernel, through the table kernel and through
    the hash-set kernel; checks the first two against the third and returns the first and the
    third."""
    rows, cols = (int(x) for x in size.split("x"))
    assert api._bidir_table_ranks(SlidingPuzzle(rows, cols, goal=goal)) is not None
    keys = solve(start, size=size, goal=goal, method="bidir", **kw)
    with monkeypatch.context() as m:
        m.setattr(api, "BIDIR_KEY_MAX_CELLS", 0)  # over distance tables
        table = solve(start, size=size, goal=goal, method="bidir", **kw)
        m.setattr(api, "BIDIR_TABLE_MAX_RANKS", 0)  # every board on whole states
        states = solve(start, size=size, goal=goal, method="bidir", **kw)
    _same(table, states)
    _same(keys, states)
    # each run used its own kernel (boards over 15 cells have no keys: tables twice)
    assert table.extra["memory_bytes"] != states.extra["memory_bytes"]
    if rows * cols <= api.BIDIR_KEY_MAX_CELLS:
        assert keys.extra["memory_bytes"] != table.extra["memory_bytes"]
    return keys, states


def _same(a, b):
    assert (a.length, a.moves, a.nodes) == (b.length, b.moves, b.nodes)
    assert a.extra["forward_counts"] == b.extra["forward_counts"]
    assert a.extra["backward_counts"] == b.extra["backward_counts"]


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_keys_and_tables_match_hash_sets_and_plain_bfs(rows, cols, rng, monkeypatch):
    goal = list(range(1, rows * cols)) + [0]
    dist = reference.distances(goal, rows, cols)
    for walk in (None,) * 10 + (3, 8, 15):
        start = random_board(rows, cols, rng, walk=walk)
        table, states = _both(monkeypatch, start, f"{rows}x{cols}")
        _same(table, states)
        assert table.length == dist[reference.to_str(start)]
        assert reference.replay(start, table.moves, cols) == goal


def test_the_8puzzle_start_stores_what_the_notebook_quotes():
    sol = solve("8 6 7 2 5 4 3 0 1", method="bidir")
    assert (sol.length, sol.nodes) == (31, 15828)
    assert sum(sol.extra["forward_counts"]) == 8456
    assert sum(sol.extra["backward_counts"]) == 7372


def test_start_equals_goal(monkeypatch):
    table, states = _both(monkeypatch, "1 2 3 4 5 6 7 8 0", "3x3")
    _same(table, states)
    assert (table.length, table.moves, table.nodes) == (0, "", 2)


def test_depth_limit(monkeypatch, rng):
    goal = list(range(1, 9)) + [0]
    dist = reference.distances(goal, 3, 3)
    start = random_board(3, 3, rng)
    d = dist[reference.to_str(start)]
    for bound in (d - 1, d, d + 1):
        table, states = _both(monkeypatch, start, "3x3", max_bound=bound)
        _same(table, states)
        assert table.length == (d if bound >= d else -1)


def test_state_limit(monkeypatch):
    for limit in (500, 15_000):
        with pytest.raises(SearchLimitError, match="stored states"):
            solve("8 6 7 2 5 4 3 0 1", method="bidir", max_states=limit)
    assert solve("8 6 7 2 5 4 3 0 1", method="bidir", max_states=15_828).length == 31


@pytest.mark.parametrize("rows,cols,goal", [
    (2, 3, [1, 1, 2, 2, 3, 0]),
    (3, 3, [1, 1, 1, 2, 2, 2, 3, 3, 0]),
    (4, 4, [1] * 7 + [2] * 8 + [0]),  # the one-word multiset hash, 102,960 positions
])
def test_repeated_labels(rows, cols, goal, rng, monkeypatch):
    size = f"{rows}x{cols}"
    for walk in (7, 20, 31, 60):
        start = random_board(rows, cols, rng, goal=goal, walk=walk)
        table, states = _both(monkeypatch, start, size, goal=goal)
        _same(table, states)
        assert reference.replay(start, table.moves, cols) == goal
        if rows * cols <= 9:
            assert table.length == reference.distances(goal, rows, cols)[reference.to_str(start)]
        else:
            assert table.length == solve(start, size=size, goal=goal, method="idastar").length


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3)])
def test_unsolvable_pairs_are_exhausted(rows, cols, rng):
    """The sparse index ranks every arrangement, both parity classes: a start in the other
    class from the goal runs one side dry, in both kernels, with the same layer ends."""
    goal = list(range(1, rows * cols)) + [0]
    puz = SlidingPuzzle(rows, cols, heuristic="none", hash="sparse")
    for _ in range(3):
        board = random_board(rows, cols, rng)
        i, j = [k for k, v in enumerate(board) if v][:2]
        board[i], board[j] = board[j], board[i]  # two tiles swapped: the other parity class
        s = puz.encode(np.array(board, dtype=np.uint8))
        g = puz.encode(np.array(goal, dtype=np.uint8))
        a = bidir._bidirectional_table(s, g, puz.fns, puz.params, puz.n_ranks, 100, 10**6)
        b = bidir._bidirectional(s, g, puz.fns, puz.params, 100, 10**6)
        c = bidir._bidirectional_keys(s, g, puz.fns, puz.kfns, puz.params, 100, 10**6)
        assert a[0] == b[0] == c[0] == bidir.EXHAUSTED
        assert len(a[1]) == len(c[1]) == 0
        assert a[2].tolist() == b[2].tolist() == c[2].tolist()
        assert a[3].tolist() == b[3].tolist() == c[3].tolist()


def test_kernel_choice(monkeypatch):
    assert api._bidir_table_ranks(SlidingPuzzle(3, 3)) == 181_440
    assert api._bidir_table_ranks(SlidingPuzzle(4, 4)) is None  # 16!/2 positions: hash sets
    assert api._bidir_table_ranks(SlidingPuzzle(5, 5)) is None  # too many to rank at all
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", "100000")  # two 3x3 tables no longer fit
    assert api._bidir_table_ranks(SlidingPuzzle(3, 3)) is None
    assert solve("8 6 7 2 5 4 3 0 1", method="bidir").nodes == 15828


def test_long_multiset_hash_uses_tables_too():
    """More than 16 cells with repeated labels: the long multiset rank (allocation-free, so it
    compiles inside the kernels) gives the tables; both kernels agree there."""
    goal = [1] * 8 + [2] * 9 + [0]
    puz = SlidingPuzzle(3, 6, goal=goal)
    assert puz.fns is sliding.FNS_MULTISET_LONG
    assert api._bidir_table_ranks(puz) == puz.n_ranks == 437_580
    start = random_board(3, 6, __import__("random").Random(5), goal=goal, walk=25)
    sol = solve(start, size="3x6", goal=goal, method="bidir")
    assert reference.replay(start, sol.moves, 6) == goal
    s, g = puz.encode(puz.parse(start)), puz.encode(puz.goal)
    states = bidir._bidirectional(s, g, puz.fns, puz.params, 80, 10**7)
    assert sol.length == len(states[1])
    assert sol.nodes == int(states[2][-1] + states[3][-1])


@pytest.mark.parametrize("rows,cols,goal", [
    (2, 3, None), (3, 3, None), (3, 5, None), (2, 6, None),
    (3, 4, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 0]),
])
def test_keys_follow_the_moves(rows, cols, goal, rng):
    """A key unkeys to its position, and ``key_step`` gives the key of ``step``'s child (or -1
    exactly where ``step`` finds the move illegal), from every position of 2x3 and random ones
    elsewhere, the blank in every cell (keys with the top bit set included)."""
    import itertools

    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic="none")
    kf, p = puz.kfns, puz.params
    if rows * cols <= 6:
        boards = [list(b) for b in itertools.permutations(range(rows * cols))]
    else:
        boards = [random_board(rows, cols, rng, goal=goal, walk=200 + i % 2) for i in range(300)]
    seen = set()
    for board in boards:
        state = np.zeros(puz.state_len, dtype=np.uint8)
        state[: rows * cols] = board
        state[rows * cols] = board.index(0)
        k = kf.key(state, p)
        assert k != -1
        back = np.zeros_like(state)
        kf.unkey(k, p, back)
        assert back.tolist() == state.tolist()
        seen.add(k)
        for m in range(p.n_moves):
            child = state.copy()
            legal = puz.fns.step(child, m, p) != sliding.ILLEGAL
            c = kf.key_step(k, m, p)
            assert c == (kf.key(child, p) if legal else -1)
    assert len(seen) == len({tuple(b) for b in boards})
    assert {b.index(0) for b in boards} == set(range(rows * cols))


def test_boards_over_15_cells_have_no_keys():
    assert SlidingPuzzle(3, 5).kfns is not None
    assert SlidingPuzzle(4, 4).kfns is None
    assert solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", size="4x4", method="bidir").length == 1


@pytest.mark.parametrize("rows,cols,goal", [
    (2, 3, None), (3, 3, None), (3, 4, None), (3, 4, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 0]),
])
def test_layers_that_cannot_meet_skip_their_lookups_and_nothing_else(rows, cols, goal, rng):
    """With ``bound0`` (the parity of the blank's distance; the Manhattan distance as the
    least length) each kernel finds what it finds looking up every layer: the same status,
    path and layer ends. Given the wrong parity instead, the layer where the sides meet is one
    of those skipped, and no earlier one can meet (it would be a shorter path), so every kernel
    makes more layers than the search that looks: the lookups really are left out."""
    puz = SlidingPuzzle(rows, cols, goal=goal)
    g = puz.encode(puz.goal)
    bg = int(np.flatnonzero(puz.goal == 0)[0])

    def kernels(s, bound0):
        yield bidir._bidirectional(s, g, puz.fns, puz.params, 60, 10**7, False, bound0)
        yield bidir._bidirectional_table(s, g, puz.fns, puz.params, puz.n_ranks, 60, 10**7,
                                         bound0)
        yield bidir._bidirectional_keys(s, g, puz.fns, puz.kfns, puz.params, 60, 10**7, bound0)

    for walk in (None,) * 6 + (1, 2, 9):
        board = random_board(rows, cols, rng, goal=goal, walk=walk)
        s = puz.encode(puz.parse(board))
        b = board.index(0)
        parity = (abs(b // cols - bg // cols) + abs(b % cols - bg % cols)) % 2
        for plain, bounded, wrong in zip(kernels(s, -1), kernels(s, parity),
                                         kernels(s, 1 - parity)):
            assert plain[0] == bounded[0] == bidir.FOUND
            assert plain[1].tolist() == bounded[1].tolist()
            assert plain[2].tolist() == bounded[2].tolist()
            assert plain[3].tolist() == bounded[3].tolist()
            if len(plain[1]) > 0:  # start == goal meets at the roots, before any layer
                assert len(wrong[2]) + len(wrong[3]) > len(plain[2]) + len(plain[3])


def test_direct_calls_see_the_same_types_for_one_bundle():
    """``solve`` calls the bidirectional kernels through their compiled code, typed once per
    bundle of domain functions (``call_direct``): on every kind of board it can be given, the
    arguments' numba types must then depend on the bundle alone, or the compiled code would
    read one board's parameters as another's."""
    import numba

    configs = [(r, c, None, h) for r, c in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4),
                                             (4, 4), (3, 5), (4, 5), (5, 5)]
               for h in ("perfect", "sparse")]
    configs += [(3, 4, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 0], "perfect"),
                (2, 3, [1, 1, 1, 2, 2, 0], "perfect"), (4, 4, [1] * 8 + [2] * 7 + [0], "perfect"),
                (3, 6, [1] * 8 + [2] * 9 + [0], "perfect"), (5, 5, [1] * 24 + [0], "perfect")]
    seen = {}
    for rows, cols, goal, hash_ in configs:
        if hash_ == "sparse" and rows * cols > 12:
            continue  # the sparse index is for small boards only
        puz = SlidingPuzzle(rows, cols, goal=goal, hash=hash_)
        key = (id(puz.fns), id(puz.kfns), type(puz.params))
        state = numba.typeof(puz.encode(puz.goal))
        assert state == numba.types.Array(numba.types.uint8, 1, "C")
        seen.setdefault(key, set()).add(numba.typeof(puz.params))
    assert len(seen) >= 4  # distinct tiles, sparse, two multiset ranks, with and without keys
    assert all(len(types) == 1 for types in seen.values())


def test_call_direct_gives_what_the_dispatcher_gives(monkeypatch):
    """The compiled code called directly returns what the dispatcher returns, and a numba
    without ``entry_point`` falls back to the dispatcher."""
    from puzzlelib.core import jit as _numba_cache

    puz = SlidingPuzzle(3, 3)
    g = puz.encode(puz.goal)
    s = puz.encode(puz.parse("8 6 7 2 5 4 3 0 1"))
    args = (s, g, puz.fns, puz.kfns, puz.params, 80, 10**6, 1)
    kernel = bidir._bidirectional_keys
    want = kernel(*args)
    monkeypatch.setattr(_numba_cache, "_DIRECT", {})
    for _ in range(2):  # the first call through the dispatcher, the second direct
        got = _numba_cache.call_direct(kernel, "k", *args)
        assert got[0] == want[0] and got[4] == want[4]
        assert all(a.tolist() == b.tolist() for a, b in zip(got[1:4], want[1:4]))
    assert _numba_cache._DIRECT[(kernel, "k")] is not kernel  # the compiled code itself

    class NoOverloads:  # a dispatcher that does not expose its compiled code
        def __call__(self, *a):
            return kernel(*a)

    plain = NoOverloads()
    assert _numba_cache.call_direct(plain, "p", *args)[1].tolist() == want[1].tolist()
    assert _numba_cache._DIRECT[(plain, "p")] is plain
    assert _numba_cache.call_direct(plain, "p", *args)[1].tolist() == want[1].tolist()
