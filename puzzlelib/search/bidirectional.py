"""Bidirectional breadth-first search on whole states (meet in the middle).

Two searches, one from the start and one backwards from the goal, each layer by layer, always
expanding the side whose frontier is smaller. A state generated on one side is looked up in
the other side's set; the first meeting gives a shortest path.

Why the first meeting is optimal: while no meeting has been seen with the sides complete to
depths ``a`` and ``b``, every path is longer than ``a + b``. Expanding one side to ``a + 1``, a
meeting costs at most ``a + 1 + b``, which is then the shortest possible.

Both sides store whole states (see :mod:`.statetable`), so the search needs no perfect hash and
works on spaces far too large to rank. ``max_depth`` caps ``a + b``; moves must be reversible
(``inverse``) so the backward side can use the same move generator.
"""

import numpy as np
from numba import njit

from ..domain import ILLEGAL
from .statetable import (
    find,
    find_hashed,
    grow_rows,
    has_room,
    hash_state,
    insert,
    make_room,
    new_table,
    path_to,
    prefetch,
    put,
)

FOUND, NOT_WITHIN_DEPTH, STATE_LIMIT, EXHAUSTED = 0, 1, 2, 3


#: Parents expanded together: their children are made and hashed first, then looked up in
#: order (measured on the 8x8 rotation worst case, side by side: one parent at a time 76 ms,
#: batches of 4 67 ms, of 16 or 64 65 ms).
BATCH = 16


@njit
def _expand_side(lo, hi, slots, pool, par, mov, n, other_slots, other_pool, fns, p):
    """Expand rows ``[lo, hi)`` of one side into its next layer, checking each new state
    against the other side. Returns the side's (possibly grown) arrays, its new size, and the
    meeting as (row on this side, row on the other side), or (-1, -1).

    Children are handled in batches of :data:`BATCH` parents, in the same order as one at a
    time, so the result is the same. Making a batch's children apart from looking them up lets
    the processor overlap the lookups' cache misses (each table is megabytes), and the other
    side's slots are prefetched while the children are made. Prefetching this side's slots
    too was slower (78 ms against 65 on the 8x8 worst case, repeatedly; not understood)."""
    L = p.state_len
    cap = BATCH * p.n_moves
    kids = np.empty((cap, L), dtype=np.uint8)
    kid_h = np.empty(cap, dtype=np.uint64)
    kid_par = np.empty(cap, dtype=np.int64)
    kid_mov = np.empty(cap, dtype=np.int64)
    idx = lo
    while idx < hi:
        k = 0  # make, hash and prefetch the children of the next BATCH parents
        for parent in range(idx, min(idx + BATCH, hi)):
            back = fns.inverse(mov[parent], p) if par[parent] >= 0 else -1
            for m in range(p.n_moves):
                if m == back:
                    continue  # never straight back
                for j in range(L):  # a fresh copy of the parent (cheaper than undoing)
                    kids[k, j] = pool[parent, j]
                if fns.step(kids[k], m, p) == ILLEGAL:
                    continue
                h = hash_state(kids[k])
                prefetch(other_slots, h)
                kid_h[k] = h
                kid_par[k] = parent
                kid_mov[k] = m
                k += 1
        idx = min(idx + BATCH, hi)
        for c in range(k):  # then look them up, in order
            h = kid_h[c]
            if find_hashed(slots, pool, kids[c], h) >= 0:
                continue
            if n == par.shape[0]:
                par = grow_rows(par, 2 * n)
                mov = grow_rows(mov, 2 * n)
            if not has_room(slots, pool, n, 1):
                slots, pool = make_room(slots, pool, n, 1)
            put(slots, pool, n, kids[c], h)
            par[n] = kid_par[c]
            mov[n] = kid_mov[c]
            n += 1
            j = find_hashed(other_slots, other_pool, kids[c], h)
            if j >= 0:
                return slots, pool, par, mov, n, n - 1, j
    return slots, pool, par, mov, n, -1, -1


@njit
def _bidirectional(start, goal, fns, p, max_depth, max_states, one_way=False):
    """Returns (status, moves, layer ends forward, layer ends backward, bytes used).

    ``ends[k]`` is the number of states of depth ``<= k`` on that side. ``one_way``: never
    expand the backward side, which is then just the goal: plain breadth-first search from the
    start with the same tables (the baseline bidirectional search is measured against)."""
    cap = 1024
    slots_f, pool_f = new_table(p.state_len, cap)
    slots_b, pool_b = new_table(p.state_len, cap)
    par_f = np.full(cap, -1, dtype=np.int64)
    mov_f = np.empty(cap, dtype=np.int64)
    par_b = np.full(cap, -1, dtype=np.int64)
    mov_b = np.empty(cap, dtype=np.int64)
    slots_f, pool_f = insert(slots_f, pool_f, 0, start)
    slots_b, pool_b = insert(slots_b, pool_b, 0, goal)
    n_f = 1
    n_b = 1
    ends_f = np.zeros(max_depth + 2, dtype=np.int64)
    ends_b = np.zeros(max_depth + 2, dtype=np.int64)
    ends_f[0] = 1
    ends_b[0] = 1
    d_f = 0
    d_b = 0
    status = NOT_WITHIN_DEPTH
    meet_f = -1
    meet_b = -1
    if find(slots_b, pool_b, start) >= 0:
        status = FOUND
        meet_f = 0
        meet_b = 0
    while status == NOT_WITHIN_DEPTH and d_f + d_b < max_depth:
        lo_f = ends_f[d_f - 1] if d_f > 0 else 0
        lo_b = ends_b[d_b - 1] if d_b > 0 else 0
        if n_f == lo_f or (n_b == lo_b and not one_way):
            status = EXHAUSTED  # one side has no frontier left: no path at all
            break
        if one_way or n_f - lo_f <= n_b - lo_b:  # expand the smaller frontier
            slots_f, pool_f, par_f, mov_f, n_f, meet_f, meet_b = _expand_side(
                lo_f, n_f, slots_f, pool_f, par_f, mov_f, n_f, slots_b, pool_b, fns, p
            )
            d_f += 1
            ends_f[d_f] = n_f
        else:
            slots_b, pool_b, par_b, mov_b, n_b, meet_b, meet_f = _expand_side(
                lo_b, n_b, slots_b, pool_b, par_b, mov_b, n_b, slots_f, pool_f, fns, p
            )
            d_b += 1
            ends_b[d_b] = n_b
        if meet_f >= 0:
            status = FOUND
        elif n_f + n_b > max_states:
            status = STATE_LIMIT
    used = (slots_f.nbytes + pool_f.nbytes + slots_b.nbytes + pool_b.nbytes
            + par_f.nbytes + mov_f.nbytes + par_b.nbytes + mov_b.nbytes)
    if status != FOUND:
        return status, np.empty(0, dtype=np.int64), ends_f[: d_f + 1], ends_b[: d_b + 1], used
    head = path_to(meet_f, par_f, mov_f)
    tail = path_to(meet_b, par_b, mov_b)
    moves = np.empty(head.shape[0] + tail.shape[0], dtype=np.int64)
    moves[: head.shape[0]] = head
    # the backward side went goal -> meeting point; walk it the other way
    for k in range(tail.shape[0]):
        moves[head.shape[0] + k] = fns.inverse(tail[tail.shape[0] - 1 - k], p)
    return status, moves, ends_f[: d_f + 1], ends_b[: d_b + 1], used
