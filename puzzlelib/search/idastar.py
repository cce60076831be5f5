"""Iterative deepening: IDDFS and IDA* in one kernel.

Depth-first search below a cost bound ``f = g + h <= bound``, repeated with a growing bound.
With ``h = 0`` it is plain iterative deepening (IDDFS); with an admissible ``h`` it is IDA*.
The search never applies the move that undoes the previous one, keeps only the current path
(an explicit stack, no recursion) and can keep going after the first solution to count every
optimal one.

The next bound is the smallest ``f`` that went over the current one, rounded up to a whole
number of ``params.bound_step`` steps: on sliding-tile boards every solution has the parity of the
blank's distance, so the bound starts with that parity and steps by 2 (document 000). Rounding
keeps the parity even when a heuristic's values do not have it (with indistinguishable tiles the
distance to the nearest home does not).
"""

import numpy as np
from numba import njit

from ..domain import ILLEGAL

#: ``status`` values returned by the kernel.
FOUND, EXHAUSTED, NODE_LIMIT = 0, 1, 2


@njit
def _dfs_bounded(state, h0, bound, fns, p, count_all, path, node_budget):
    """One depth-first pass below ``bound``. ``state`` is restored on return.

    Returns (solutions found, nodes generated, smallest f over the bound, first solution length).
    The first solution's moves are left in ``path``.
    """
    n_moves = p.n_moves
    max_depth = bound
    next_move = np.zeros(max_depth + 1, dtype=np.int64)
    hs = np.empty(max_depth + 1, dtype=np.int64)
    moves = np.empty(max_depth + 1, dtype=np.int64)
    hs[0] = h0
    solutions = 0
    first_len = -1
    nodes = 0
    over = np.int64(1) << 62
    if bound == 0:
        # only the start itself lies within bound 0; its children would have f >= 1
        if h0 == 0 and fns.is_goal(state, p):
            return 1, 0, over, 0
        return 0, 0, np.int64(1), -1
    depth = 0
    while depth >= 0:
        m = next_move[depth]
        if m == n_moves:
            # all moves tried here: go back up, undoing the move that led here
            depth -= 1
            if depth >= 0:
                fns.step(state, fns.inverse(moves[depth]), p)
            continue
        next_move[depth] = m + 1
        if depth > 0 and m == fns.inverse(moves[depth - 1]):
            continue  # never undo the last move
        dh = fns.step(state, m, p)
        if dh == ILLEGAL:
            continue
        nodes += 1
        g = depth + 1
        h = hs[depth] + dh
        f = g + h
        if f > bound:
            if f < over:
                over = f
            fns.step(state, fns.inverse(m), p)
            continue
        moves[depth] = m
        if g == bound:
            if h == 0 and fns.is_goal(state, p):
                solutions += 1
                if first_len < 0:
                    first_len = g
                    path[:g] = moves[:g]
                if not count_all:
                    # restore the state before returning
                    for k in range(g - 1, -1, -1):
                        fns.step(state, fns.inverse(moves[k]), p)
                    return solutions, nodes, over, first_len
            elif bound + 1 < over:
                over = bound + 1  # children would have g > bound
            fns.step(state, fns.inverse(m), p)
            continue
        if node_budget > 0 and nodes >= node_budget:
            for k in range(g - 1, -1, -1):
                fns.step(state, fns.inverse(moves[k]), p)
            return solutions, -nodes, over, first_len
        depth += 1
        next_move[depth] = 0
        hs[depth] = h
    return solutions, nodes, over, first_len


@njit
def _iterative_deepening(start, fns, p, bound0, count_all, max_bound, node_limit):
    """Deepen from ``bound0`` until a solution or ``max_bound``. ``bound0`` must have the residue
    (mod ``bound_step``) of every solution length; it is raised to the heuristic's value in
    whole steps.

    Returns (status, length, solutions, nodes, path, iterations, first bound)."""
    state = start.copy()
    h0 = fns.heuristic(state, p)
    step = p.bound_step
    bound = bound0
    if h0 > bound:
        bound += (h0 - bound + step - 1) // step * step
    first_bound = bound
    path = np.empty(max_bound + 1, dtype=np.int64)
    nodes = 0
    iterations = 0
    while bound <= max_bound:
        iterations += 1
        budget = node_limit - nodes if node_limit > 0 else 0
        sols, n, over, length = _dfs_bounded(state, h0, bound, fns, p, count_all, path, budget)
        if n < 0:
            return NODE_LIMIT, -1, 0, nodes - n, path[:0], iterations, first_bound
        nodes += n
        if sols > 0:
            return FOUND, length, sols, nodes, path[:length].copy(), iterations, first_bound
        if over >= np.int64(1) << 62:
            break  # nothing over the bound: the space below it is exhausted
        bound += max(1, (over - bound + step - 1) // step) * step
    return EXHAUSTED, -1, 0, nodes, path[:0], iterations, first_bound
