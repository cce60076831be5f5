"""IDA* as the published programs ran it (Korf 1985; Korf and Felner 2002): compiled, but
written plainly, to check the published node counts and the library's kernels against.

The blank's moves are tried in a given order (theirs: up, left, right, down), only the move
straight back is pruned, the bound steps by two from the start's value, and every position's
value is computed from scratch by ``h(state, arg)``. ``state``: the board's labels row by row,
then the blank's cell (more entries may follow for ``h``); it is changed in place.
"""

import numpy as np
from numba import njit

#: The blank's steps (row, column) by move letter.
STEPS = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


@njit(cache=False)
def _pass(state, blank, back, g, bound, nbr, h, arg, count, count_all):
    """One depth-first pass below ``bound``: the solutions found (all, or stop at the first)."""
    n = nbr.shape[0]
    found = 0
    for k in range(4):
        t = nbr[blank, k]
        if t < 0 or t == back:
            continue
        tile = state[t]
        state[blank] = tile
        state[t] = 0
        state[n] = t
        count[0] += 1  # generated: every child but the parent, pruned by the bound or not
        v = h(state, arg)
        if g + 1 + v <= bound:
            if v == 0:
                found += 1
            else:
                found += _pass(state, t, blank, g + 1, bound, nbr, h, arg, count, count_all)
            if found and not count_all:
                return found
        state[t] = tile
        state[blank] = 0
        state[n] = blank
    return found


def neighbours(rows, cols, order="ulrd"):
    """``nbr[cell, k]``: the cell the blank moves to by the ``k``-th move of ``order`` (-1:
    off the board)."""
    nbr = np.full((rows * cols, 4), -1, dtype=np.int64)
    for c in range(rows * cols):
        r, k = divmod(c, cols)
        for i, ch in enumerate(order):
            dr, dc = STEPS[ch]
            if 0 <= r + dr < rows and 0 <= k + dc < cols:
                nbr[c, i] = (r + dr) * cols + k + dc
    return nbr


def idastar(state, rows, cols, h, arg, count_all=False, order="ulrd"):
    """(length, nodes generated (the start not counted), optimal solutions found)."""
    nbr = neighbours(rows, cols, order)
    bound = int(h(state.copy(), arg))
    total = 0
    while True:
        count = np.zeros(1, dtype=np.int64)
        found = _pass(state.copy(), int(state[rows * cols]), -1, 0, bound, nbr, h, arg, count,
                      count_all)
        total += int(count[0])
        if found:
            return bound, total, int(found)
        bound += 2
