"""Permutation puzzles' moves: a move applied in place, in the location form (with and
without orientations) and in the cell form (by cycles, or by swaps where every move is its own
inverse), each its own small step that also updates the heuristic byte.
"""

import numpy as np

from ...core.contract import domain_fn


@domain_fn
def _apply_loc(state, j, p):
    """Move ``j`` in place, location form: each moving piece goes where ``dest`` sends its
    cell."""
    for i in range(p.m):
        state[i] = p.dest[j, state[i]]


@domain_fn
def _apply_loc_twist(state, j, p):
    """:func:`_apply_loc` for pieces with orientations, turned by ``tadd`` where they
    arrive."""
    n = p.n
    for i in range(p.m):
        c = p.dest[j, state[i]]
        state[i] = c
        state[n + i] = p.tadd[j, c, state[n + i]]


@domain_fn
def _apply_cells(state, j, p):
    """Move ``j`` in place, cell form: cycle by cycle, with no scratch array."""
    n = p.n
    for c in range(p.move_cycles[j], p.move_cycles[j + 1]):
        last = p.cyc_len[c] - 1
        first = state[p.cyc[c, 0]]
        for t in range(last):
            state[p.cyc[c, t]] = state[p.cyc[c, t + 1]]
        state[p.cyc[c, last]] = first
        if p.k > 1:
            firsto = state[n + p.cyc[c, 0]]
            for t in range(last):
                dst = p.cyc[c, t]
                state[n + dst] = p.tadd[j, dst, state[n + p.cyc[c, t + 1]]]
            dst = p.cyc[c, last]
            state[n + dst] = p.tadd[j, dst, firsto]


@domain_fn
def _apply_swaps(state, j, p):
    """Move ``j`` in place, cell form, when every move only swaps pairs of cells (reversals:
    pancakes, TopSpin, the Rotation Puzzle)."""
    for t in range(p.n_swaps[j]):
        a = p.swaps[j, t, 0]
        b = p.swaps[j, t, 1]
        x = state[a]
        state[a] = state[b]
        state[b] = x


@domain_fn
def _new_h(state, p):
    """After a move: the heuristic's change, its byte updated (0 without a heuristic)."""
    if p.state_len == p.hpos:  # no heuristic, no byte for it
        return 0
    old = np.int64(state[p.hpos])
    h = np.int64(p.hfn(state, p))
    state[p.hpos] = h
    return h - old


# one step function per form, each small (a step choosing its form at run time was several
# times slower: benchmarks/RESULTS.md, "Permutation puzzles")
@domain_fn
def _step_loc(state, j, p):
    _apply_loc(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_loc_twist(state, j, p):
    _apply_loc_twist(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_cells(state, j, p):
    _apply_cells(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_swaps(state, j, p):
    _apply_swaps(state, j, p)
    return _new_h(state, p)


@domain_fn
def _inverse(j, p):
    return p.inv[j]


@domain_fn
def _is_goal(state, p):
    for i in range(p.hpos):
        if state[i] != p.goal[i]:
            return False
    return True
