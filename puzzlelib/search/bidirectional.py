"""Bidirectional breadth-first search (meet in the middle).

Two searches, one from the start and one backwards from the goal, each layer by layer, always
expanding the side whose frontier is smaller. A state generated on one side is looked up in
the other side's set; the first meeting gives a shortest path.

Why the first meeting is optimal: while no meeting has been seen with the sides complete to
depths ``a`` and ``b``, every path is longer than ``a + b``. Expanding one side to ``a + 1``, a
meeting costs at most ``a + 1 + b``, which is then the shortest possible.

One driver (:func:`_meet`) runs the search over three kinds of *side*, each with its own way
of expanding a layer, so the rule, the order and the results (statuses, layer ends, stored
count, path) are the same for all three kernels:

- :func:`_bidirectional` stores whole states in hash sets (see :mod:`puzzlelib.core.hashset`),
  so the search needs no perfect hash and works on spaces far too large to rank (4x4 boards
  and larger, the rotation puzzle);
- :func:`_bidirectional_table`, for domains with a perfect hash small enough to tabulate, marks
  each side's positions in a ``uint8`` distance table indexed by rank: a lookup is one byte
  instead of a hash-set probe that compares whole states;
- :func:`_bidirectional_keys`, for domains whose positions fit in 64 bits
  (:class:`~puzzlelib.core.contract.KeyFns`: sliding-tile boards of at most 15 cells), keeps
  each side's positions as keys in a hash set of integers and makes a child's key from its
  parent's, the quickest of the three where it applies.

``max_depth`` caps ``a + b``; moves must be reversible (``inverse``) so the backward side can
use the same move generator.

**Layers that cannot meet.** A layer that brings the sides to ``a + b = D`` can only find paths
of length ``D``. When the caller gives ``bound0`` (as for iterative deepening: every path from
start to goal has a length ``bound0 + k * params.bound_step``, e.g. the parity of the blank's
distance on sliding-tile boards) and the domain's ``heuristic`` is a lower bound on the
distance to ``goal``, no path is shorter than ``first_bound(bound0, h(start), step)`` and the
lengths in between go in whole steps. A layer whose ``D`` is below that or off the step makes
no lookups in the other side at all (its own set is kept as always, so the layers, the stored
count and the path are the same): on the 8-puzzle's start (31 moves, Manhattan distance 21)
only the layers with ``D`` = 21, 23, ..., 31 look. The first meeting is still a shortest path:
no path has a skipped length, so while the sides have not met every path is still longer than
``a + b``.
"""

import numpy as np
from numba import literal_unroll

from ..core.jit import call_direct, kernel, overload
from ..core.limits import RUNNING, STOP_MASK, check, report, stop_reason
from ..core.contract import ILLEGAL, UNSEEN
from .idastar import first_bound
from ..core.hashset import EMPTY_KEY
from ..core.hashset import key_add as _key_add
from ..core.hashset import key_hash as _key_hash
from ..core.hashset import key_in as _key_in
from ..core.hashset import key_regrow as _key_regrow
from ..core.hashset import (
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
#: order (benchmarks/RESULTS.md, "Constants").
BATCH = 16


@kernel
def _expand_side(lo, hi, slots, pool, par, mov, n, other_slots, other_pool, fns, p, look,
                 tally):
    """Expand rows ``[lo, hi)`` of one side into its next layer, checking each new state
    against the other side (when ``look``: see :func:`_meet`). Returns the side's (possibly
    grown) arrays, its new size, and the meeting as (row on this side, row on the other side),
    or (-1, -1).

    Children are handled in batches of :data:`BATCH` parents, in the same order as one at a
    time, so the result is the same. Making a batch's children apart from looking them up lets
    the processor overlap the lookups' cache misses (each table is megabytes), and the other
    side's slots are prefetched while the children are made. Prefetching this side's slots
    too was slower (benchmarks/RESULTS.md, "Constants").
    ``tally`` gets the children generated and the parents expanded (kept in locals until the
    end: a store into an array in the loop costs it a little)."""
    L = p.state_len
    made = 0
    cap = BATCH * p.n_moves
    kids = np.empty((cap, L), dtype=np.uint8)
    kid_h = np.empty(cap, dtype=np.uint64)
    kid_par = np.empty(cap, dtype=np.int64)
    kid_mov = np.empty(cap, dtype=np.int64)
    idx = lo
    while idx < hi:
        if stop_reason() != RUNNING:
            break  # stopped from outside (puzzlelib.core.limits): the caller raises
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
                if look:
                    prefetch(other_slots, h)
                kid_h[k] = h
                kid_par[k] = parent
                kid_mov[k] = m
                k += 1
        made += k
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
            j = find_hashed(other_slots, other_pool, kids[c], h) if look else -1
            if j >= 0:
                tally[0] += made
                tally[1] += idx - lo
                return slots, pool, par, mov, n, n - 1, j
    tally[0] += made
    tally[1] += hi - lo
    return slots, pool, par, mov, n, -1, -1


@kernel
def _after_layer(meet_f, stored, max_states):
    """The search's status after a layer: found at a meeting, else stopped once more than
    ``max_states`` states are stored, else going on."""
    if meet_f >= 0:
        return FOUND
    if stored > max_states or stop_reason() != RUNNING:  # (the caller tells which)
        return STATE_LIMIT
    return NOT_WITHIN_DEPTH


@kernel
def _nbytes(side):
    """Bytes held by a side's arrays."""
    total = 0
    for a in literal_unroll(side):
        total += a.nbytes
    return total


@kernel
def _meet(side_f, side_b, same_root, fns, p, ctx, max_depth, max_states, one_way, least, step):
    """The search the three kernels share: layers of the smaller side until the sides meet.

    A *side* is a tuple of arrays whose first two are its rows' moves and parent rows (the
    root in row 0, parent -1); the rest is the kernel's own (hash set and states, distance
    table, or keys). ``_layer(lo, n, side, other, other_n, depth, ctx, look, tally)`` expands rows
    ``[lo, n)`` of ``side`` into its layer ``depth``, looking each new position up in
    ``other`` (``other_n`` rows) when ``look``, and returns ``(side, n, meet, there)``: the
    side (its arrays possibly grown), its row count and the meeting as (row on this side, row
    on the other), or (-1, -1), and adds the children it generated and the rows it expanded
    to ``tally``. ``same_root``: start and goal are one position.

    ``least``, ``step``: every path has a length ``least + k * step`` (see
    :func:`_least_length`); a layer making any other total depth does not look.

    ``one_way``: never expand the backward side, which is then just the goal: plain
    breadth-first search from the start with the same sets (the baseline bidirectional search
    is measured against).

    Returns (status, moves, layer ends forward, layer ends backward, bytes used, generated,
    expanded); ``ends[k]`` is the number of positions of depth ``<= k`` on that side, then the
    children generated and the positions expanded on both sides."""
    tally = np.zeros(2, dtype=np.int64)
    n_f = n_b = 1
    d_f = d_b = 0
    ends_f, ends_b = _root_ends(max_depth)
    meet_f = meet_b = 0 if same_root else -1  # start == goal: met at the roots
    status = FOUND if same_root else NOT_WITHIN_DEPTH
    while status == NOT_WITHIN_DEPTH and d_f + d_b < max_depth:
        lo_f = ends_f[d_f - 1] if d_f > 0 else 0
        lo_b = ends_b[d_b - 1] if d_b > 0 else 0
        if n_f == lo_f or (n_b == lo_b and not one_way):
            status = EXHAUSTED  # one side has no frontier left: no path at all
            break
        total = d_f + d_b + 1  # the length of any path this layer can find
        look = total >= least and (total - least) % step == 0
        if one_way or n_f - lo_f <= n_b - lo_b:  # expand the smaller frontier
            side_f, n_f, meet_f, meet_b = _layer(lo_f, n_f, side_f, side_b, n_b, d_f + 1, ctx,
                                                 look, tally)
            d_f += 1
            ends_f[d_f] = n_f
        else:
            side_b, n_b, meet_b, meet_f = _layer(lo_b, n_b, side_b, side_f, n_f, d_b + 1, ctx,
                                                 look, tally)
            d_b += 1
            ends_b[d_b] = n_b
        report(d_f + d_b, n_f + n_b)
        status = _after_layer(meet_f, n_f + n_b, max_states)
    used = _nbytes(side_f) + _nbytes(side_b)
    if status != FOUND:
        return (status, np.empty(0, dtype=np.int64), ends_f[: d_f + 1], ends_b[: d_b + 1], used,
                tally[0], tally[1])
    moves = _join(path_to(meet_f, side_f[1], side_f[0]), path_to(meet_b, side_b[1], side_b[0]),
                  fns, p)
    return status, moves, ends_f[: d_f + 1], ends_b[: d_b + 1], used, tally[0], tally[1]


@kernel
def _least_length(start, fns, p, bound0):
    """``(least, step)``: every path from ``start`` to the goal has a length ``least + k *
    step``. With ``bound0 < 0`` nothing is known: ``(0, 1)``. Otherwise the caller vouches
    that every path's length is ``bound0`` plus whole multiples of ``p.bound_step``, and
    that ``fns.heuristic`` is a lower bound on the distance to the goal searched for; ``least``
    is then the heuristic's value rounded up in whole steps (as iterative deepening's first
    bound)."""
    if bound0 < 0:
        return np.int64(0), np.int64(1)
    step = np.int64(p.bound_step)
    return np.int64(first_bound(bound0, fns.heuristic(start, p), step)), step


@kernel
def _root_ends(max_depth):
    """Each side's layer ends (``ends[k]``: states of depth ``<= k``), the root alone so far."""
    ends_f = np.zeros(max_depth + 2, dtype=np.int64)
    ends_b = np.zeros(max_depth + 2, dtype=np.int64)
    ends_f[0] = 1
    ends_b[0] = 1
    return ends_f, ends_b


@kernel
def _states_side(root, fns, p):
    """One side of :func:`_bidirectional`: (moves, parent rows, hash-set slots, state pool),
    ``root`` in row 0."""
    cap = 1024
    slots, pool = new_table(p.state_len, cap)
    slots, pool = insert(slots, pool, 0, root)
    par = np.full(cap, -1, dtype=np.int64)
    mov = np.empty(cap, dtype=np.int64)
    return mov, par, slots, pool


@kernel
def _states_layer(lo, n, side, other, other_n, depth, ctx, look, tally):
    """:func:`_meet`'s ``layer`` for :func:`_bidirectional` (see :func:`_expand_side`)."""
    fns, p = ctx
    mov, par, slots, pool = side
    slots, pool, par, mov, n, meet, there = _expand_side(lo, n, slots, pool, par, mov, n,
                                                         other[2], other[3], fns, p, look,
                                                         tally)
    return (mov, par, slots, pool), n, meet, there


@kernel
def _bidirectional(start, goal, fns, p, max_depth, max_states, one_way=False, bound0=-1):
    """Bidirectional BFS over hash sets of whole states. Returns what :func:`_meet` does; ``one_way``: plain BFS
    from the start with the same sets. ``bound0``: see :func:`_least_length` (the layers that
    cannot meet skip their lookups; the result is the same)."""
    side_f = _states_side(start, fns, p)
    side_b = _states_side(goal, fns, p)
    same = find(side_b[2], side_b[3], start) >= 0
    least, step = _least_length(start, fns, p, bound0)
    return _meet(side_f, side_b, same, fns, p, (fns, p), max_depth, max_states,
                 one_way, least, step)


@kernel
def _join(head, tail, fns, p):
    """The whole path: start -> meeting point (``head``), then the backward side's path
    (``tail``, goal -> meeting point) walked the other way."""
    moves = np.empty(head.shape[0] + tail.shape[0], dtype=np.int64)
    moves[: head.shape[0]] = head
    for k in range(tail.shape[0]):
        moves[head.shape[0] + k] = fns.inverse(tail[tail.shape[0] - 1 - k], p)
    return moves


# ---------------------------------------------------------------------------------------------
# over two distance tables, for domains with a perfect hash
# ---------------------------------------------------------------------------------------------


#: Rows each side of :func:`_bidirectional_table` starts with (room for the 8-puzzle's
#: sides, about 8,500 rows each, without growing; untouched rows cost no memory).
FIRST_ROWS = 1 << 14


@kernel
def _expand_table_side(lo, hi, states, ranks, movs, pars, n, dist, other, mark, fns, p, look,
                       tally):
    """Expand rows ``[lo, hi)`` of one side (room for every child is made beforehand) into
    rows ``n, n+1, ...``: parents in row order, moves in move-number order, never straight
    back, exactly as :func:`_expand_side` does, so the same positions are stored in the same
    order. A child is new when this side's table has it unseen; it is then marked ``mark`` and
    (when ``look``) looked up in the other side's table. Returns the new row count and the
    meeting as (row on this side, rank), or (-1, -1).

    Each child is made in place from a copy of its parent and undone with the inverse move,
    quicker than a fresh copy of the parent for every move (benchmarks/RESULTS.md, "Constants")."""
    L = p.state_len
    state = np.empty(L, dtype=np.uint8)
    made = 0
    for i in range(lo, hi):
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break  # stopped from outside: the caller raises
        back = fns.inverse(movs[i], p) if movs[i] >= 0 else -1
        ri = ranks[i]
        for j in range(L):
            state[j] = states[i, j]
        for m in range(p.n_moves):
            if m == back:
                continue  # never straight back
            if fns.step(state, m, p) == ILLEGAL:
                continue
            made += 1
            r = fns.rank_after(state, m, ri, p)
            if dist[r] == UNSEEN:
                dist[r] = mark
                for j in range(L):
                    states[n, j] = state[j]
                ranks[n] = r
                movs[n] = m
                pars[n] = i
                n += 1
                if look and other[r] != UNSEEN:
                    tally[0] += made
                    tally[1] += i - lo + 1
                    return n, n - 1, r
            fns.step(state, fns.inverse(m, p), p)  # back to the parent
    tally[0] += made
    tally[1] += hi - lo
    return n, -1, -1


@kernel
def _table_side(root, n_ranks, fns, p):
    """One side of :func:`_bidirectional_table`: (moves, parent rows, distance table, states,
    ranks), ``root`` in row 0 and at depth 0 in the table."""
    dist = np.full(n_ranks, UNSEEN, dtype=np.uint8)
    cap = min(n_ranks, FIRST_ROWS)
    states = np.empty((cap, p.state_len), dtype=np.uint8)
    ranks = np.empty(cap, dtype=np.int64)
    movs = np.empty(cap, dtype=np.int32)
    pars = np.empty(cap, dtype=np.int32)
    for j in range(p.state_len):
        states[0, j] = root[j]
    ranks[0] = fns.rank(root, p)
    movs[0] = -1
    pars[0] = -1
    dist[ranks[0]] = 0
    return movs, pars, dist, states, ranks


@kernel
def _table_layer(lo, n, side, other, other_n, depth, ctx, look, tally):
    """:func:`_meet`'s ``layer`` for :func:`_bidirectional_table`: rows ``[lo, n)`` expanded
    after making room for every child (a side never holds more rows than the table has
    entries)."""
    fns, p = ctx
    movs, pars, dist, states, ranks = side
    n_ranks = dist.shape[0]
    need = min(n + (n - lo) * p.n_moves, n_ranks)
    if need > states.shape[0]:
        rows = min(max(need, 2 * states.shape[0]), n_ranks)
        states = grow_rows(states, rows)
        ranks = grow_rows(ranks, rows)
        movs = grow_rows(movs, rows)
        pars = grow_rows(pars, rows)
    mark = np.uint8(min(depth, UNSEEN - 1))
    n, meet, r = _expand_table_side(lo, n, states, ranks, movs, pars, n, dist, other[2], mark,
                                    fns, p, look, tally)
    there = _find_row(other[4], other_n, r) if meet >= 0 else -1
    return (movs, pars, dist, states, ranks), n, meet, there


@kernel
def _find_row(ranks, n, r):
    """The row holding rank ``r`` among the first ``n`` (once per search, at the meeting)."""
    for i in range(n):
        if ranks[i] == r:
            return i
    return -1


@kernel
def _bidirectional_table(start, goal, fns, p, n_ranks, max_depth, max_states, bound0=-1):
    """:func:`_bidirectional` over two ``uint8`` distance tables of ``n_ranks`` entries, one per
    side (:data:`~puzzlelib.core.contract.UNSEEN` until reached), for domains with a perfect hash
    (``fns.rank``, ``fns.rank_after``): a lookup is one byte read instead of a hash-set probe
    that compares whole states. ``start`` and ``goal`` must lie in the space the hash ranks
    (for distinct sliding tiles: the same parity class, which the API checks first).

    Each side also keeps its positions as rows (state, rank, the move that made it, the parent
    row), layer after layer, so nothing is unranked, the move straight back is never tried and
    ``rank_after`` gets the parent's rank. The search itself is :func:`_meet`'s, as for the
    other two kernels, hence the same statuses, the same layer ends, the same stored count and
    the same path. A table entry is the side's depth of the position (capped at 254: only
    "seen or not" is ever asked of it).

    One call does the whole search (each call of a jitted function from Python costs some
    20 microseconds, as much as a small search). ``bound0``: see :func:`_least_length`.
    Returns what :func:`_meet` does."""
    side_f = _table_side(start, n_ranks, fns, p)
    side_b = _table_side(goal, n_ranks, fns, p)
    same = side_f[4][0] == side_b[4][0]
    least, step = _least_length(start, fns, p, bound0)
    return _meet(side_f, side_b, same, fns, p, (fns, p), max_depth, max_states,
                 False, least, step)


# ---------------------------------------------------------------------------------------------
# over 64-bit keys, for domains whose positions fit in one (KeyFns)
# ---------------------------------------------------------------------------------------------

#: Slots each side's key set starts with, and rows: room for the 8-puzzle's sides (about 8,500
#: positions each) without growing. A set is kept at most half full (it doubles when it would
#: not be); fewer slots to start with mean more probes (benchmarks/RESULTS.md, "Constants").
FIRST_SLOTS = 1 << 16
FIRST_KEY_ROWS = 1 << 14
_EMPTY = EMPTY_KEY


#: Parents expanded between two checks that the rows and the key set have room for all
#: their children (growing them inside the loop over children made numba count references to
#: every array at each child). Their children's keys are made and prefetched together, then
#: looked up (benchmarks/RESULTS.md, "Constants").
KEY_CHUNK = 256


@kernel
def _key_expand(lo, hi, keys, movs, pars, n, slots, other_slots, kid_k, kid_par, kid_mov, fns,
                kfns, p, look):
    """Expand rows ``[lo, hi)`` of one side into rows ``n, n+1, ...`` (room made beforehand),
    in the order of :func:`_expand_side`: parents in row order, moves in move-number order,
    never straight back. A child is new when this side's set does not hold its key; it is then
    stored and (when ``look``) looked up in the other side's set. Returns the new row count,
    the meeting's row on this side (or -1), and the children made (the caller keeps the
    tally: a store into an array here costs the loops below a little).

    The children's keys are made first and the slots where their lookups begin prefetched,
    then looked up in order (``kid_*``: room for every child of the rows), so the processor
    waits for several cache misses at once."""
    k = 0
    for i in range(lo, hi):
        back = fns.inverse(movs[i], p) if movs[i] >= 0 else -1
        parent = keys[i]
        for m in range(p.n_moves):
            if m == back:
                continue  # never straight back
            c = kfns.key_step(parent, m, p)
            if c == -1:
                continue  # no such move here
            h = _key_hash(c)
            prefetch(slots, h)
            if look:
                prefetch(other_slots, h)
            uk = np.uint64(k)  # (an unsigned index: see _key_add)
            kid_k[uk] = c
            kid_par[uk] = i
            kid_mov[uk] = m
            k += 1
    for j in range(k):
        c = kid_k[j]
        if not _key_add(slots, c):
            continue  # this side has it already
        un = np.uint64(n)
        keys[un] = c
        movs[un] = kid_mov[j]
        pars[un] = kid_par[j]
        n += 1
        if look and _key_in(other_slots, c):
            return n, n - 1, k
    return n, -1, k


@kernel
def _key_layer(lo, n, side, other, other_n, depth, ctx, look, tally):
    """:func:`_meet`'s ``layer`` for :func:`_bidirectional_keys`: rows ``[lo, n)`` expanded
    :data:`KEY_CHUNK` parents at a time, making room for every child of a chunk before
    expanding it."""
    fns, kfns, p = ctx
    movs, pars, keys, slots = side
    other_keys, other_slots = other[2], other[3]
    kid_k = np.empty(KEY_CHUNK * p.n_moves, dtype=np.int64)
    kid_par = np.empty(KEY_CHUNK * p.n_moves, dtype=np.int32)
    kid_mov = np.empty(KEY_CHUNK * p.n_moves, dtype=np.int32)
    hi = n
    i = lo
    while i < hi and stop_reason() == RUNNING:  # (stopped from outside: the caller raises)
        j = min(i + KEY_CHUNK, hi)
        need = n + (j - i) * p.n_moves
        if need > keys.shape[0]:
            rows = max(need, 2 * keys.shape[0])
            keys = grow_rows(keys, rows)
            movs = grow_rows(movs, rows)
            pars = grow_rows(pars, rows)
        while 2 * need > slots.shape[0]:
            slots = _key_regrow(slots)
        n, meet, made = _key_expand(i, j, keys, movs, pars, n, slots, other_slots, kid_k,
                                    kid_par, kid_mov, fns, kfns, p, look)
        tally[0] += made
        tally[1] += j - i
        if meet >= 0:
            there = _find_row(other_keys, other_n, keys[meet])
            return (movs, pars, keys, slots), n, meet, there
        i = j
    return (movs, pars, keys, slots), n, -1, -1


@kernel
def _key_side(root, kfns, p):
    """One side of :func:`_bidirectional_keys`: (moves, parent rows, keys, key set), ``root``
    in row 0."""
    cap = FIRST_KEY_ROWS
    keys = np.empty(cap, dtype=np.int64)
    movs = np.empty(cap, dtype=np.int32)
    pars = np.empty(cap, dtype=np.int32)
    slots = np.full(FIRST_SLOTS, _EMPTY, dtype=np.int64)
    keys[0] = kfns.key(root, p)
    movs[0] = -1
    pars[0] = -1
    _key_add(slots, keys[0])
    return movs, pars, keys, slots


@kernel
def _bidirectional_keys(start, goal, fns, kfns, p, max_depth, max_states, bound0=-1):
    """:func:`_bidirectional` over 64-bit keys (``kfns``, a :class:`~puzzlelib.core.contract.KeyFns`),
    for domains whose positions fit in one: each side keeps its positions as rows of keys and a
    hash set of them, and a child's key is made from its parent's (``key_step``), with no state
    array copied, no move undone and nothing ranked. The search itself is :func:`_meet`'s, as
    for the other two kernels, hence the same statuses, layer ends, stored count and path.
    ``bound0``: see :func:`_least_length`.

    Returns what :func:`_meet` does."""
    side_f = _key_side(start, kfns, p)
    side_b = _key_side(goal, kfns, p)
    same = side_f[2][0] == side_b[2][0]
    least, step = _least_length(start, fns, p, bound0)
    return _meet(side_f, side_b, same, fns, p, (fns, kfns, p), max_depth,
                 max_states, False, least, step)


def _layer(lo, n, side, other, other_n, depth, ctx, look, tally):
    """:func:`_meet`'s step: expand rows ``[lo, n)`` of ``side`` into its layer ``depth``
    (looking new positions up in ``other`` when ``look``), by the kind of side it is (see
    :func:`_choose_layer`). Chosen at compile time from the side's type rather than handed to
    :func:`_meet` as a function: a jitted function passed as a value from inside a kernel cannot
    be saved in numba's on-disk cache."""


@overload(_layer)
def _choose_layer(lo, n, side, other, other_n, depth, ctx, look, tally):
    """Which kernel expands a side, told by its arrays: five for distance tables
    (:func:`_table_layer`); four ending in a state pool (2-D) for hash sets of states
    (:func:`_states_layer`), or in a key set (1-D) for keys (:func:`_key_layer`)."""
    if len(side) == 5:
        return lambda lo, n, side, other, other_n, depth, ctx, look, tally: _table_layer(
            lo, n, side, other, other_n, depth, ctx, look, tally)
    if side[3].ndim == 2:
        return lambda lo, n, side, other, other_n, depth, ctx, look, tally: _states_layer(
            lo, n, side, other, other_n, depth, ctx, look, tally)
    return lambda lo, n, side, other, other_n, depth, ctx, look, tally: _key_layer(
        lo, n, side, other, other_n, depth, ctx, look, tally)


# ---------------------------------------------------------------------------------------------
# the driver
# ---------------------------------------------------------------------------------------------

#: The kinds of search :func:`bidirectional` runs.
VARIANTS = ("keys", "table", "states", "one-way")


class BidirResult:
    """What :func:`bidirectional` found: ``status`` (:data:`FOUND`, :data:`NOT_WITHIN_DEPTH`,
    :data:`STATE_LIMIT` or :data:`EXHAUSTED`), the ``path`` (move numbers; empty unless found),
    the positions at each depth from each end (``forward_counts``, ``backward_counts``), the
    positions ``stored`` by both sides, the children ``generated``, the positions
    ``expanded``, and the bytes the sides held (``memory_bytes``)."""

    __slots__ = ("status", "path", "forward_counts", "backward_counts", "stored", "generated",
                 "expanded", "memory_bytes")

    def __init__(self, status, path, ends_f, ends_b, used, generated, expanded):
        self.status, self.path = int(status), path
        self.forward_counts = _layer_sizes(ends_f)
        self.backward_counts = _layer_sizes(ends_b)
        self.stored = int(ends_f[-1] + ends_b[-1])
        self.generated, self.expanded = int(generated), int(expanded)
        self.memory_bytes = int(used)


def _layer_sizes(ends):
    """Positions per depth from a side's layer ends (``ends[k]``: positions of depth
    ``<= k``), as a list (a short array: plain Python is quicker than ``np.diff`` here)."""
    e = ends.tolist()
    return e[:1] + [b - a for a, b in zip(e, e[1:])]


def bidirectional(start, goal, fns, p, max_depth, max_states, variant="states", kfns=None,
                  n_ranks=None, bound0=-1, direct=False):
    """Bidirectional breadth-first search from ``start`` to ``goal`` (states), at most
    ``max_depth`` moves in all, stopping with :data:`STATE_LIMIT` once more than ``max_states``
    positions are stored. Returns a :class:`BidirResult`; every variant gives the same status,
    layers, stored count and path.

    ``variant``: ``"keys"`` (64-bit keys in hash sets: ``kfns``), ``"table"`` (two distance
    tables of ``n_ranks`` entries: the domain's perfect hash), ``"states"`` (hash sets of whole
    states) or ``"one-way"`` (the same sets, the backward side never expanded: plain
    breadth-first search from the start). ``bound0``: see :func:`_least_length` (layers that
    cannot meet skip their lookups). ``direct``: the caller vouches that every call with the
    same bundles of functions passes arguments of the same numba types (a domain whose
    ``params`` always hold the same types): the kernel is then called through its compiled
    code without numba's typing of the arguments (:func:`~puzzlelib.core.jit.call_direct`)."""
    max_depth, max_states, bound0 = int(max_depth), int(max_states), int(bound0)
    key = (fns, kfns, type(p), variant)
    call = (lambda k, *a: call_direct(k, key, *a)) if direct else (lambda k, *a: k(*a))
    if variant == "keys":
        if kfns is None:
            raise ValueError("the keys variant needs the domain's KeyFns")
        out = call(_bidirectional_keys, start, goal, fns, kfns, p, max_depth, max_states, bound0)
    elif variant == "table":
        if n_ranks is None:
            raise ValueError("the table variant needs the size of the domain's perfect hash")
        out = call(_bidirectional_table, start, goal, fns, p, int(n_ranks), max_depth,
                   max_states, bound0)
    elif variant in ("states", "one-way"):
        out = call(_bidirectional, start, goal, fns, p, max_depth, max_states,
                   variant == "one-way", bound0)
    else:
        raise ValueError(f"unknown variant {variant!r}: use one of {', '.join(VARIANTS)}")
    check()
    return BidirResult(*out)
