"""A* (and greedy best-first) search on whole states.

Nodes live in a :mod:`puzzlelib.core.hashset` set (the closed and open sets together, keyed by the whole
state); a binary heap orders them by ``f = weight_g * g + h``, ties broken towards larger ``g``
(deeper nodes first). ``weight_g = 1`` is A*, optimal with an admissible heuristic;
``weight_g = 0`` is greedy best-first search (``f = h``): fast, not optimal.

A node found again by a shorter route is reopened, so A* stays optimal even with a heuristic
that is admissible but not consistent. Greedy search reopens too: its order ignores g, but a
shorter route still shortens the path it returns (on document 002's instance 194 moves, against
1,304 without reopening). ``max_states`` bounds memory: the search stops with a
status instead of swapping.
"""

import numpy as np


from ..core.jit import jit, kernel
from ..core.limits import RUNNING, STOP_MASK, check, report, stop_reason
from ..core.contract import ILLEGAL, PLAIN_FRONTIER, play
from ..core.hashset import (
    find_hashed,
    grow_rows,
    has_room,
    hash_state,
    insert,
    make_room,
    new_table,
    path_to,
    put,
)

FOUND, EXHAUSTED, STATE_LIMIT = 0, 1, 2

_G_BITS = 20
_G_MASK = (1 << _G_BITS) - 1


@jit
def _key(f, g):
    return (np.int64(f) << _G_BITS) | (_G_MASK - g)


@jit
def _heap_push(keys, vals, n, key, val):
    if n == keys.shape[0]:
        keys = grow_rows(keys, 2 * n)
        vals = grow_rows(vals, 2 * n)
    i = n
    while i > 0:
        parent = (i - 1) >> 1
        if keys[parent] <= key:
            break
        keys[i] = keys[parent]
        vals[i] = vals[parent]
        i = parent
    keys[i] = key
    vals[i] = val
    return keys, vals


@jit
def _heap_pop(keys, vals, n):
    """Remove the smallest entry (``n`` > 0 entries); return its value."""
    top = vals[0]
    n -= 1
    key = keys[n]
    val = vals[n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and keys[c + 1] < keys[c]:
            c += 1
        if keys[c] >= key:
            break
        keys[i] = keys[c]
        vals[i] = vals[c]
        i = c
    if n > 0:
        keys[i] = key
        vals[i] = val
    return top


class AStarResult:
    """What :func:`astar` found: ``status`` (:data:`FOUND`, :data:`EXHAUSTED` or
    :data:`STATE_LIMIT`), the ``path`` (move numbers; empty unless found), the positions
    ``stored`` (open and closed together), the nodes ``generated`` and ``expanded``, and the
    bytes of the search's arrays (``memory_bytes``)."""

    __slots__ = ("status", "path", "stored", "generated", "expanded", "memory_bytes")

    def __init__(self, status, path, stored, generated, expanded, memory_bytes):
        self.status, self.path = int(status), path
        self.stored, self.generated = int(stored), int(generated)
        self.expanded, self.memory_bytes = int(expanded), int(memory_bytes)


def astar(start, fns, p, weight_g=1, max_states=50_000_000, ffns=None):
    """A* (``weight_g = 1``) or greedy best-first search (0) from ``start``, stopping with
    :data:`STATE_LIMIT` once more than ``max_states`` states are stored. ``ffns``: the domain's
    compact keys and candidate moves (:class:`~puzzlelib.core.contract.FrontierFns`), if it
    has them. Returns an :class:`AStarResult`."""
    key_len = p.state_len if ffns is None else int(p.key_len)
    ffns = PLAIN_FRONTIER if ffns is None else ffns
    out = _astar(start, fns, ffns, p, key_len, weight_g, max_states)
    check()
    return AStarResult(*out)


@kernel
def _astar(start, fns, ffns, p, key_len, weight_g, max_states):
    L = p.state_len
    cap = 4096
    slots, pool = new_table(key_len, cap)
    g = np.empty(cap, dtype=np.int64)
    h = np.empty(cap, dtype=np.int64)
    parent = np.empty(cap, dtype=np.int64)
    move = np.empty(cap, dtype=np.int64)
    closed = np.zeros(cap, dtype=np.uint8)
    keys = np.empty(cap, dtype=np.int64)
    vals = np.empty(cap, dtype=np.int64)
    key = np.empty(key_len, dtype=np.uint8)
    ffns.pack(start, p, key)
    slots, pool = insert(slots, pool, 0, key)
    n = 1
    g[0] = 0
    h[0] = fns.heuristic(start, p)
    parent[0] = -1
    move[0] = -1
    n_heap = 0
    keys, vals = _heap_push(keys, vals, n_heap, _key(h[0], 0), 0)
    n_heap += 1
    buf = np.empty(L, dtype=np.uint8)
    base = np.empty(L, dtype=np.uint8)
    cand = np.empty(p.n_moves, dtype=np.int64)
    expanded = 0
    generated = 0
    status = EXHAUSTED
    goal_idx = -1
    while n_heap > 0:
        idx = _heap_pop(keys, vals, n_heap)
        n_heap -= 1
        if closed[idx]:
            continue
        closed[idx] = 1
        ffns.unpack(pool[idx], p, base)
        if fns.is_goal(base, p):
            status = FOUND
            goal_idx = idx
            break
        expanded += 1
        buf[:] = base
        back = fns.inverse(move[idx], p) if move[idx] >= 0 else -1
        n_cand = ffns.candidates(base, p, cand)
        for t in range(n_cand):
            m = cand[t]
            if m == back:
                continue  # straight back to the parent
            dh = play(fns, ffns, buf, m, p)
            if dh == ILLEGAL:
                continue
            generated += 1
            ng = g[idx] + 1
            ffns.pack(buf, p, key)
            hk = hash_state(key)
            j = find_hashed(slots, pool, key, hk)
            if j < 0:
                if n == g.shape[0]:
                    g = grow_rows(g, 2 * n)
                    h = grow_rows(h, 2 * n)
                    parent = grow_rows(parent, 2 * n)
                    move = grow_rows(move, 2 * n)
                    closed = grow_rows(closed, 2 * n)
                if not has_room(slots, pool, n, 1):
                    slots, pool = make_room(slots, pool, n, 1)
                put(slots, pool, n, key, hk)
                j = n
                n += 1
                h[j] = h[idx] + dh
                closed[j] = 0
            elif ng >= g[j]:
                buf[:] = base  # back to the parent (cheaper than undoing the move)
                continue
            g[j] = ng
            parent[j] = idx
            move[j] = m
            closed[j] = 0
            keys, vals = _heap_push(keys, vals, n_heap, _key(weight_g * ng + h[j], ng), j)
            n_heap += 1
            buf[:] = base
        if (expanded & STOP_MASK) == 0:
            report(g[idx], n)
        if n > max_states or ((expanded & STOP_MASK) == 0 and stop_reason() != RUNNING):
            status = STATE_LIMIT  # (stopped from outside: the caller raises)
            break
    used = slots.nbytes + pool.nbytes + g.shape[0] * 41 + keys.nbytes + vals.nbytes
    if status != FOUND:
        return status, np.empty(0, dtype=np.int64), n, generated, expanded, used
    return status, path_to(goal_idx, parent, move), n, generated, expanded, used
