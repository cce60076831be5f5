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


def _both(start, size, goal=None, max_depth=80):
    """Bidirectional search through the key kernel (where the board has keys), the table
    kernel and the hash-set kernel, and through ``solve``; checks them all against the
    hash-set kernel and returns ``solve``'s result and the hash-set kernel's."""
    puz = SlidingPuzzle(size, goal=goal)
    s, g = puz.encode(start), puz.goal_state()
    bound0 = puz.residue(s)

    def run(variant):
        return bidir.bidirectional(s, g, puz.fns, puz.params, max_depth, 10**7, variant=variant,
                                   kfns=puz.keys, n_ranks=puz.n_ranks, bound0=bound0)

    states = run("states")
    table = run("table")
    _same(table, states)
    # each run used its own kernel
    assert table.memory_bytes != states.memory_bytes
    if puz.keys is not None:
        keys = run("keys")
        _same(keys, states)
        assert keys.memory_bytes != table.memory_bytes
    sol = solve(puz, start, method="bidir", max_depth=max_depth)
    assert sol.length == (len(states.path) if states.status == bidir.FOUND else -1)
    assert sol.stats.stored == states.stored
    assert sol.extra["forward_counts"] == states.forward_counts
    assert sol.extra["backward_counts"] == states.backward_counts
    return sol, states


def _same(a, b):
    assert (a.status, a.path.tolist(), a.stored) == (b.status, b.path.tolist(), b.stored)
    assert a.forward_counts == b.forward_counts
    assert a.backward_counts == b.backward_counts


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_keys_and_tables_match_hash_sets_and_plain_bfs(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    dist = reference.distances(goal, rows, cols)
    for walk in (None,) * 10 + (3, 8, 15):
        start = random_board(rows, cols, rng, walk=walk)
        sol, _ = _both(start, f"{rows}x{cols}")
        assert sol.length == dist[reference.to_str(start)]
        assert reference.replay(start, sol.moves, cols) == goal


def test_the_8puzzle_start_stores_what_the_notebook_quotes():
    sol = solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1", method="bidir")
    assert (sol.length, sol.stats.stored) == (31, 15828)
    assert sum(sol.extra["forward_counts"]) == 8456
    assert sum(sol.extra["backward_counts"]) == 7372


def test_start_equals_goal():
    sol, _ = _both("1 2 3 4 5 6 7 8 0", "3x3")
    assert (sol.length, sol.moves, sol.stats.stored) == (0, "", 2)


def test_depth_limit(rng):
    goal = list(range(1, 9)) + [0]
    dist = reference.distances(goal, 3, 3)
    start = random_board(3, 3, rng)
    d = dist[reference.to_str(start)]
    for bound in (d - 1, d, d + 1):
        sol, _ = _both(start, "3x3", max_depth=bound)
        assert sol.length == (d if bound >= d else -1)


def test_state_limit():
    eight = SlidingPuzzle("3x3")
    for limit in (500, 15_000):
        with pytest.raises(SearchLimitError, match="stored states"):
            solve(eight, "8 6 7 2 5 4 3 0 1", method="bidir", max_states=limit)
    assert solve(eight, "8 6 7 2 5 4 3 0 1", method="bidir", max_states=15_828).length == 31


@pytest.mark.parametrize("rows,cols,goal", [
    (2, 3, [1, 1, 2, 2, 3, 0]),
    (3, 3, [1, 1, 1, 2, 2, 2, 3, 3, 0]),
    (4, 4, [1] * 7 + [2] * 8 + [0]),  # the one-word multiset hash, 102,960 positions
])
def test_repeated_labels(rows, cols, goal, rng):
    size = f"{rows}x{cols}"
    for walk in (7, 20, 31, 60):
        start = random_board(rows, cols, rng, goal=goal, walk=walk)
        sol, _ = _both(start, size, goal=goal)
        assert reference.replay(start, sol.moves, cols) == goal
        if rows * cols <= 9:
            assert sol.length == reference.distances(goal, rows, cols)[reference.to_str(start)]
        else:
            assert sol.length == solve(SlidingPuzzle(size, goal=goal), start,
                                       method="idastar").length


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3)])
def test_unsolvable_pairs_are_exhausted(rows, cols, rng):
    """The sparse index ranks every arrangement, both parity classes: a start in the other
    class from the goal runs one side dry, in both kernels, with the same layer ends."""
    puz = SlidingPuzzle(rows, cols, heuristic="none", hash="sparse")
    for _ in range(3):
        board = random_board(rows, cols, rng)
        i, j = [k for k, v in enumerate(board) if v][:2]
        board[i], board[j] = board[j], board[i]  # two tiles swapped: the other parity class
        s = puz.state_of(np.array(board, dtype=np.uint8))  # (unchecked: the other class)
        g = puz.goal_state()
        a, b, c = (bidir.bidirectional(s, g, puz.fns, puz.params, 100, 10**6, variant=v,
                                       kfns=puz.keys, n_ranks=puz.n_ranks)
                   for v in ("table", "states", "keys"))
        assert a.status == b.status == c.status == bidir.EXHAUSTED
        assert len(a.path) == len(c.path) == 0
        assert a.forward_counts == b.forward_counts == c.forward_counts
        assert a.backward_counts == b.backward_counts == c.backward_counts
        # run to exhaustion, every kernel made and expanded the same
        assert (a.generated, a.expanded) == (b.generated, b.expanded) == (c.generated,
                                                                          c.expanded)


def test_kernel_choice(monkeypatch):
    assert api._bidir_variant(SlidingPuzzle(3, 3)) == ("keys", None)  # 9 cells: keys
    assert api._bidir_variant(SlidingPuzzle(4, 4)) == ("states", None)  # 16!/2: hash sets
    assert api._bidir_variant(SlidingPuzzle(5, 5)) == ("states", None)  # too many to rank
    # 16 cells of repeated labels: 4-bit fields and no field for the blank, so keys
    assert api._bidir_variant(SlidingPuzzle(4, 4, goal=[1] * 7 + [2] * 8 + [0])) == ("keys", None)
    multi = SlidingPuzzle(5, 4, goal=[1] * 10 + [2] * 9 + [0])  # 20 cells: no keys, two tables
    assert api._bidir_variant(multi) == ("table", 1_847_560)
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", "1000000")  # two such tables no longer fit
    assert api._bidir_variant(multi) == ("states", None)
    assert solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1", method="bidir").stats.stored == 15828


def test_long_multiset_hash_uses_tables_too():
    """More than 16 cells with repeated labels: the long multiset rank (allocation-free, so it
    compiles inside the kernels) gives the tables; both kernels agree there."""
    goal = [1] * 8 + [2] * 9 + [0]
    puz = SlidingPuzzle(3, 6, goal=goal)
    assert puz.fns is sliding.FNS_MULTISET_LONG
    assert api._bidir_variant(puz) == ("table", puz.n_ranks) == ("table", 437_580)
    start = random_board(3, 6, __import__("random").Random(5), goal=goal, walk=25)
    sol, states = _both(start, "3x6", goal=goal)
    assert reference.replay(start, sol.moves, 6) == goal
    assert sol.length == len(states.path) and sol.stats.stored == states.stored


@pytest.mark.parametrize("rows,cols,goal", [
    (2, 3, None), (3, 3, None), (3, 5, None), (2, 6, None),
    (3, 4, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 0]), (4, 4, [1] * 7 + [2] * 8 + [0]),
])
def test_keys_follow_the_moves(rows, cols, goal, rng):
    """A key unkeys to its position, and ``key_step`` gives the key of ``step``'s child (or -1
    exactly where ``step`` finds the move illegal), from every position of 2x3 and random ones
    elsewhere, the blank in every cell (keys with the top bit set included)."""
    import itertools

    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic="none")
    kf, p = puz.keys, puz.params
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
    assert SlidingPuzzle(3, 5).keys is not None
    assert SlidingPuzzle(4, 4).keys is None
    assert SlidingPuzzle(4, 4, goal=[1] * 7 + [2] * 8 + [0]).keys is not None  # (no blank field)
    assert SlidingPuzzle(5, 4, goal=[1] * 10 + [2] * 9 + [0]).keys is None
    assert solve(SlidingPuzzle("4x4"), "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
                 method="bidir").length == 1


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
        for variant in ("states", "table", "keys"):
            r = bidir.bidirectional(s, g, puz.fns, puz.params, 60, 10**7, variant=variant,
                                    kfns=puz.keys, n_ranks=puz.n_ranks, bound0=bound0)
            yield r.status, r.path, r.forward_counts, r.backward_counts

    for walk in (None,) * 6 + (1, 2, 9):
        board = random_board(rows, cols, rng, goal=goal, walk=walk)
        s = puz.encode(board)
        b = board.index(0)
        parity = (abs(b // cols - bg // cols) + abs(b % cols - bg % cols)) % 2
        for plain, bounded, wrong in zip(kernels(s, -1), kernels(s, parity),
                                         kernels(s, 1 - parity)):
            assert plain[0] == bounded[0] == bidir.FOUND
            assert plain[1].tolist() == bounded[1].tolist()
            assert plain[2] == bounded[2] and plain[3] == bounded[3]
            if len(plain[1]) > 0:  # start == goal meets at the roots, before any layer
                assert len(wrong[2]) + len(wrong[3]) > len(plain[2]) + len(plain[3])


def test_direct_calls_see_the_same_types_for_one_bundle():
    """``solve`` calls the bidirectional kernels through their compiled code, typed once per
    bundle of domain functions (``call_direct``, where the puzzle says ``stable_types``): on
    every kind of board it can be given, the arguments' numba types must then depend on the
    bundle alone, or the compiled code would read one board's parameters as another's."""
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
        key = (id(puz.fns), id(puz.keys), type(puz.params))
        assert puz.stable_types
        state = numba.typeof(puz.goal_state())
        assert state == numba.types.Array(numba.types.uint8, 1, "C")
        seen.setdefault(key, set()).add(numba.typeof(puz.params))
    assert len(seen) >= 4  # distinct tiles, sparse, two multiset ranks, with and without keys
    assert all(len(types) == 1 for types in seen.values())


def test_call_direct_gives_what_the_dispatcher_gives(monkeypatch):
    """The compiled code called directly returns what the dispatcher returns, and a numba
    without ``entry_point`` falls back to the dispatcher."""
    from puzzlelib.core import jit as _numba_cache

    puz = SlidingPuzzle(3, 3)
    g = puz.goal_state()
    s = puz.encode("8 6 7 2 5 4 3 0 1")
    args = (s, g, puz.fns, puz.keys, puz.params, 80, 10**6, 1)
    kernel = bidir._bidirectional_keys
    want = kernel(*args)
    monkeypatch.setattr(_numba_cache, "_DIRECT", {})
    for _ in range(2):  # the first call through the dispatcher, the second direct
        got = _numba_cache.call_direct(kernel, "k", *args)
        assert got[0] == want[0] and got[4:] == want[4:]  # status, bytes, the two counts
        assert all(a.tolist() == b.tolist() for a, b in zip(got[1:4], want[1:4]))
    assert _numba_cache._DIRECT[(kernel, "k")] is not kernel  # the compiled code itself

    class NoOverloads:  # a dispatcher that does not expose its compiled code
        def __call__(self, *a):
            return kernel(*a)

    plain = NoOverloads()
    assert _numba_cache.call_direct(plain, "p", *args)[1].tolist() == want[1].tolist()
    assert _numba_cache._DIRECT[(plain, "p")] is plain
    assert _numba_cache.call_direct(plain, "p", *args)[1].tolist() == want[1].tolist()
