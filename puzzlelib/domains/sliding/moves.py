"""Sliding-tile puzzles' moves: the step that slides a tile into the blank (with Manhattan
distance, or no heuristic, from a table), the cursor loop depth-first search runs with the blank
as its cursor, and the board's geometry they read (each cell's neighbours, the board's
symmetries).
"""

import numpy as np

from ...core.contract import ILLEGAL, CursorFns, domain_fn


@domain_fn
def _step(state, m, p):
    b = state[p.n_cells]
    t = p.nbr[b, m]
    if t < 0:
        return ILLEGAL
    tile = state[t]
    state[b] = tile
    state[t] = 0
    state[p.n_cells] = t
    return p.h[tile, b] - p.h[tile, t]


@domain_fn
def _inverse(m, p):
    return m ^ 1  # u <-> d, l <-> r


@domain_fn
def _is_goal(state, p):
    for i in range(p.n_cells):
        if state[i] != p.goal[i]:
            return False
    return True


@domain_fn
def _heuristic(state, p):
    total = 0
    for i in range(p.n_cells):
        total += p.h[state[i], i]
    return total


# The cursor loop of depth-first search (puzzlelib.core.contract.CursorFns): the blank is the cursor.
# Its functions index with unsigned integers: numba makes a signed index that might be negative
# count from the array's end, a few instructions per access in IDA*'s innermost loop (see
# _dfs_bounded_cursor).


@domain_fn
def _cursor(state, p):
    return np.int64(state[p.n_cells])


@domain_fn
def _next_move(c, prev, i, p):
    return np.int64(p.cmoves[np.uint64((c * 8 + prev + 1) * 8 + i)])


@domain_fn
def _peek(state, c, m, p):
    cm = c * 4 + m
    t = np.int64(p.cnbr[np.uint64(cm)])
    return np.int64(p.dh[np.uint64(cm * 32 + state[np.uint64(t)])]), t


@domain_fn
def _apply(state, c, m, t, p):
    state[np.uint64(c)] = state[np.uint64(t)]
    state[np.uint64(t)] = 0
    state[p.n_cells] = t


@domain_fn
def _undo(state, c, m, t, p):
    state[np.uint64(t)] = state[np.uint64(c)]
    state[np.uint64(c)] = 0
    state[p.n_cells] = c


#: Manhattan distance (or none), distinct or repeated labels.
CURSOR = CursorFns(_cursor, _next_move, _peek, _apply, _undo)


def cursor_tables(nbr, h):
    """The tables ``cmoves``, ``cnbr`` and ``dh`` of the cursor loop (:data:`CURSOR`), small
    (int8, strides of powers of two) so that they stay in the first-level cache."""
    n = nbr.shape[0]
    cmoves = np.full(n * 64, -1, dtype=np.int8)
    for c in range(n):
        for prev in range(-1, 4):
            ms = [m for m in range(4) if nbr[c, m] >= 0 and (prev < 0 or m != prev ^ 1)]
            base = (c * 8 + prev + 1) * 8
            cmoves[base:base + len(ms)] = ms
    cnbr = nbr.ravel().astype(np.int8)
    dh = np.zeros(n * 4 * 32, dtype=np.int8)  # (one move changes a distance by at most 1)
    for c in range(n):
        for m in range(4):
            t = nbr[c, m]
            if t >= 0:
                dh[(c * 4 + m) * 32:(c * 4 + m) * 32 + n] = h[:, c] - h[:, t]
    return cmoves, cnbr, dh


def grid_neighbours(rows, cols):
    """``nbr[cell, m]``: the cell next to ``cell`` in direction ``m`` (up, down, left, right),
    or -1 off the board."""
    n = rows * cols
    nbr = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, q = divmod(c, cols)
        if r > 0:
            nbr[c, 0] = c - cols
        if r < rows - 1:
            nbr[c, 1] = c + cols
        if q > 0:
            nbr[c, 2] = c - 1
        if q < cols - 1:
            nbr[c, 3] = c + 1
    return nbr


def board_symmetries(rows, cols):
    """The symmetries of a ``rows x cols`` board other than the identity, each as ``sigma``
    with ``sigma[cell]`` the cell it goes to: the half turn and the two mirrors (left-right,
    top-bottom), and on a square board also the two quarter turns and the two diagonal
    mirrors."""
    maps = [lambda r, c: (rows - 1 - r, cols - 1 - c), lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c)]
    if rows == cols:
        maps += [lambda r, c: (c, cols - 1 - r), lambda r, c: (rows - 1 - c, r),
                 lambda r, c: (c, r), lambda r, c: (rows - 1 - c, cols - 1 - r)]
    out = []
    for f in maps:
        sigma = np.empty(rows * cols, dtype=np.int64)
        for cell in range(rows * cols):
            r, c = f(*divmod(cell, cols))
            sigma[cell] = r * cols + c
        out.append(sigma)
    return out
