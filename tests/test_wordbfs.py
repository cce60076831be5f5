"""Block puzzles of up to 21 cells as 64-bit words (puzzlelib.domains.blocks.words) and the
breadth-first search over words (puzzlelib.search.wordbfs), checked against the byte-state
frontier search and the plain-Python reference."""

import numpy as np
import pytest
from numba import njit

from puzzlelib import CLASSIC, layers, solve
from puzzlelib.core.errors import SearchLimitError
from puzzlelib.results import BEYOND_DEPTH
from puzzlelib.domains import blocks as B
from puzzlelib.domains.blocks import (FNS_PLAIN, FRONTIER_PLAIN, METRICS, WORD_CELLS, WORDS,
                                      BlockPuzzle)
from puzzlelib.search.frontier import frontier_bfs
from puzzlelib.search.wordbfs import word_bfs, word_solve

from . import reference_blocks as ref

METRIC_CODE = {"unit": B.UNIT, "straight": B.STRAIGHT, "path": B.PATH}


@njit
def _words_of(states, wfns, p):
    out = np.empty(states.shape[0], dtype=np.int64)
    for i in range(states.shape[0]):
        out[i] = wfns.word(states[i], p)
    return out


def _every_state(puz):
    """Every position reachable from the puzzle's board, as states, by the byte-state frontier
    search (the implementation the words are checked against)."""
    keys = []
    frontier_bfs(FNS_PLAIN, puz.params, puz.encode(), ffns=FRONTIER_PLAIN,
                 on_layer=lambda d, k: keys.append(k.copy()))
    return np.stack([puz.from_key(k) for k in np.concatenate(keys)])


def _children_by_frontier(puz, state):
    """The positions one move away, by the byte-state domain's candidates and moves."""
    p = puz.params
    cand = np.empty(p.n_moves, dtype=np.int64)
    got = []
    for m in cand[: FRONTIER_PLAIN.candidates(state, p, cand)]:
        t = state.copy()
        FRONTIER_PLAIN.play(t, int(m), p)
        got.append(t)
    return got


def _boards(seed, n):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = ref.random_board(rng, max_cells=WORD_CELLS, min_fill=0.4)
        if b is not None:
            out.append(b)
    return out


def test_gather_takes_every_third_bit():
    rng = np.random.default_rng(5)
    xs = [0, 1, (1 << 21) - 1, 1 << 20] + [int(x) for x in rng.integers(0, 1 << 21, 2000)]
    for x in xs:
        spread = sum(((x >> i) & 1) << (3 * i) for i in range(21))
        noise = int(rng.integers(0, 1 << 62)) & ~0x1249249249249249  # the other two planes
        assert B._gather3(spread) == B._gather3(spread | noise) == x


def test_words_round_trip_and_differ_on_every_classic_position():
    puz = BlockPuzzle(CLASSIC, goal=False)
    wp = puz.word_params()
    states = _every_state(puz)
    words = _words_of(states, WORDS, wp)
    assert len(set(words.tolist())) == len(states) == 25955
    assert words.min() >= 0  # (the set's empty slot is -1)
    back = np.empty_like(states[0])
    for s, w in zip(states, words):
        WORDS.unword(w, wp, back)
        assert np.array_equal(back, s)


@pytest.mark.parametrize("metric", METRICS)
def test_children_are_the_frontier_domains_on_every_classic_position(metric):
    puz = BlockPuzzle(CLASSIC, metric=metric, goal=False)
    wp = puz.word_params()
    states = _every_state(puz)
    words = _words_of(states, WORDS, wp)
    out = np.empty(wp.max_children, dtype=np.int64)
    n_children = 0
    for s, w in zip(states, words):
        k = WORDS.children(w, wp, out)
        got = out[:k].tolist()
        assert len(set(got)) == k  # each position once
        want = _words_of(np.stack(_children_by_frontier(puz, s)), WORDS, wp).tolist()
        assert sorted(got) == sorted(want)
        n_children += k
    assert n_children > 80_000


@pytest.mark.parametrize("metric", METRICS)
def test_children_match_the_plain_python_reference_on_random_boards(metric):
    n_checked = 0
    for rows, cols, pieces in _boards(11, 40):
        puz = BlockPuzzle(pieces, rows=rows, cols=cols, metric=metric, goal=False)
        wp = puz.word_params()
        states = _every_state(puz)[:200]
        words = _words_of(states, WORDS, wp)
        out = np.empty(wp.max_children, dtype=np.int64)
        back = np.empty_like(states[0])
        for s, w in zip(states, words):
            k = WORDS.children(w, wp, out)
            got = set()
            for c in out[:k]:
                WORDS.unword(c, wp, back)
                got.add(ref.parse(puz.render(back))[2])
            assert got == ref.neighbours(ref.parse(puz.render(s))[2], rows, cols, metric)
            n_checked += 1
    assert n_checked > 1000


@pytest.mark.parametrize("metric", METRICS)
def test_layers_equal_the_frontier_search_on_random_boards(metric):
    for rows, cols, pieces in _boards(23, 25):
        puz = BlockPuzzle(pieces, rows=rows, cols=cols, metric=metric, goal=False)
        st = puz.encode()
        a = word_bfs(WORDS, puz.word_params(), st, len(st))
        b = frontier_bfs(FNS_PLAIN, puz.params, st, ffns=FRONTIER_PLAIN)
        assert list(a.counts) == list(b.counts), (rows, cols, pieces)
        assert np.array_equal(np.unique(a.last, axis=0), np.unique(b.last, axis=0))
        assert a.expanded == b.expanded == sum(b.counts) == a.peak_states


@pytest.mark.parametrize("metric", METRICS)
def test_classic_layers_by_words_equal_the_reference(metric):
    lay = layers(BlockPuzzle(CLASSIC, metric=metric))
    assert lay.counts == ref.layers(CLASSIC, metric) and lay.total == 25955
    assert lay.stats.stored == lay.total  # every position seen is held


def test_the_set_grows_and_many_starts_are_one_layer():
    # 3x7 with ten 1x1 pieces: C(21, 10) = 352,716 positions, well past the first set's
    # 2**15 words; every start given twice counts once
    board = "AB.CD.E\n.F.GH..\nI.J...."
    puz = BlockPuzzle(board, metric="unit", goal=False)
    st = puz.encode()
    a = word_bfs(WORDS, puz.word_params(), np.stack([st, st]), len(st))
    assert a.counts[0] == 1 and sum(a.counts) == 352_716
    b = frontier_bfs(FNS_PLAIN, puz.params, st, ffns=FRONTIER_PLAIN)
    assert list(a.counts) == list(b.counts)


def test_progress_max_depth_and_max_states():
    puz = BlockPuzzle(CLASSIC, metric="path", goal=False)
    st = puz.encode()
    seen = []
    whole = word_bfs(WORDS, puz.word_params(), st, len(st))
    a = word_bfs(WORDS, puz.word_params(), st, len(st),
                 progress=lambda d, n, t: seen.append((d, n, t)))
    assert list(a.counts) == list(whole.counts) and not a.stopped
    assert [d for d, _, _ in seen] == list(range(len(whole.counts)))
    assert seen[-1][2] == 25955 and [n for _, n, _ in seen] == list(whole.counts)
    b = word_bfs(WORDS, puz.word_params(), st, len(st), max_depth=10)
    assert list(b.counts) == list(whole.counts[:11]) and b.stopped
    c = layers(BlockPuzzle(CLASSIC, metric="path"), max_depth=10)
    assert c.counts == list(whole.counts[:11]) and c.status == BEYOND_DEPTH
    with pytest.raises(MemoryError, match="over the limit of 1,000"):
        word_bfs(WORDS, puz.word_params(), st, len(st), max_states=1000)
    with pytest.raises(SearchLimitError, match="max_states"):
        layers(BlockPuzzle(CLASSIC, metric="path"), max_states=1000)


def test_which_boards_are_searched_as_words():
    assert BlockPuzzle(CLASSIC).word_params() is not None
    assert BlockPuzzle("ABBC\nABBC\nDEEF\nDGHF\nI..J\n....", goal=False).word_params() is None
    assert BlockPuzzle(CLASSIC, relax=True).word_params() is None
    with pytest.raises(ValueError, match="at most 21 cells"):
        B.word_params(4, 6, B.UNIT)


# ---- breadth-first search to a goal over words ----------------------------------------------

def _boards_with_a_daughter(seed, n):
    """Random boards of up to 21 cells holding a 2x2 piece, each with a random goal cell for
    it (row, col)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = ref.random_board(rng, max_cells=WORD_CELLS, min_fill=0.4)
        if b is None or not any(s == "2x2" for s, _, _ in b[2]):
            continue
        rows, cols, _ = b
        out.append((*b, (int(rng.integers(rows - 1)), int(rng.integers(cols - 1)))))
    return out


@pytest.mark.parametrize("metric", METRICS)
def test_solve_by_words_is_as_short_as_the_frontier_search(metric):
    solved = 0
    for rows, cols, pieces, goal in _boards_with_a_daughter(31, 30):
        puz = BlockPuzzle(pieces, rows=rows, cols=cols, metric=metric, goal=goal)
        st = puz.encode()
        a = word_solve(WORDS, puz.word_params(), st, len(st))
        b = frontier_bfs(FNS_PLAIN, puz.params, st, stop_at_goal=True, ffns=FRONTIER_PLAIN)
        assert a.goal_depth == b.goal_depth, (rows, cols, pieces, goal)
        if a.goal_depth is None:
            assert list(a.counts) == list(b.counts)  # every layer, to exhaustion
            continue
        assert list(a.counts[:-1]) == list(b.counts[:-1])  # (the goal's layer is cut short)
        sol = solve(puz, method="bfs")
        assert sol.length == a.goal_depth == len(sol.moves)
        boards = sol.positions()  # the moves replay, each legal under the metric, to a goal
        assert puz.is_goal(puz.encode(boards[-1])) and len(boards) == sol.length + 1
        assert sol.stats.stored == sum(sol.counts)
        solved += 1
    assert solved > 10


def test_solve_by_words_at_the_goal_out_of_reach_and_over_limits():
    done = BlockPuzzle("AB\nAB\n..\nCC\nCC", goal=(3, 0))  # the 2x2 piece starts at its goal
    assert solve(done, method="bfs").length == 0
    stuck = BlockPuzzle("AAB\nAAC\nDE.", goal=(1, 1))  # one empty cell: the 2x2 never moves
    res = solve(stuck, method="bfs")
    assert res.status == "no solution" and res.length == -1 and sum(res.counts) == 5
    classic = BlockPuzzle(CLASSIC, metric="path")
    short = solve(classic, method="bfs", max_depth=40)
    assert short.status == BEYOND_DEPTH and len(short.counts) == 41
    with pytest.raises(SearchLimitError, match="max_states"):
        solve(classic, method="bfs", max_states=1000)
    seen = []
    a = word_solve(WORDS, classic.word_params(), classic.encode(), len(classic.encode()),
                   progress=lambda d, n, t: seen.append(d))
    assert a.goal_depth == 81 and seen == list(range(82))  # the goal's layer too
