"""Layered breadth-first search over a packed table: two bits per position.

Where one byte per position does not fit in memory, :func:`packed_bfs` keeps a position's depth
*modulo 3* in two bits (code 3: not reached yet), a quarter of the byte table, and beside it one
bit per position marking the current layer (the *frontier*): 3 bits a position in all.

Depth modulo 3 is enough to walk a shortest path back: a position at depth ``d`` has neighbours
at depths ``d - 1``, ``d`` and ``d + 1`` only, three different codes, so the neighbour with code
``(d - 1) % 3`` is one layer closer to the start (:func:`packed_path`). Following such
neighbours down to a start gives both a shortest path and the exact depth.

Each layer is made one of two ways, whichever has less to look at:

- **Top down** (while the layer is smaller than what is left unseen): every position of the
  frontier is unranked and its moves applied; a child not reached yet gets code
  ``(d + 1) % 3`` and its frontier bit. Threads take chunks of the frontier as they come free
  and write wherever the children fall, so each write to a shared 64-bit word is an atomic
  AND or OR (LLVM ``atomicrmw``); a child is counted by the thread whose AND found it unseen,
  so the counts are exact whatever the threads.
- **Bottom up** (once fewer positions are left unseen than the layer holds): every position
  not reached yet looks for a neighbour with code ``d % 3``, which can only be at depth ``d``
  (a neighbour of an unseen position is at depth ``d`` or more). Each thread writes only the
  words of its own chunk: no atomics.

The frontier bits are what separates depth ``d`` from depths ``d - 3``, ``d - 6`` ..., which
share its code: without them a top-down layer would expand every older position with the
same code again. While layer ``d`` is made, a set bit is of depth ``d - 1`` (last layer's,
cleared now), ``d`` (expanded, and kept) or ``d + 1`` (just reached); the codes tell them
apart. So when the search ends, the bits of the last layer's code are its positions: the
farthest ones (:func:`front_ranks`).
"""

import numpy as np
from numba import prange, types
from numba.cpython.unsafe.numbers import trailing_zeros

from ..core.contract import ILLEGAL
from ..core.jit import jit, kernel
from .workshare import (atomic_rmw, filled, new_counter, prefetch, start_threads, take, total,
                        workers)

#: The code of a position not reached yet.
UNSEEN_CODE = 3
#: A chunk a thread takes at a time is ``2**CHUNK_BITS`` frontier words (64 positions each).
CHUNK_BITS = 10
CHUNK_WORDS = 1 << CHUNK_BITS
#: The chunk of rank ``r`` is ``r >> CHUNK_SHIFT``.
CHUNK_SHIFT = CHUNK_BITS + 6

_LOW_BITS = np.uint64(0x5555555555555555)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


#: ``arr[i] &= v`` and ``arr[i] |= v`` done atomically on a ``uint64`` array; each returns the
#: word before.
_fetch_and = atomic_rmw("and", types.uint64)
_fetch_or = atomic_rmw("or", types.uint64)


def table_words(n):
    """``uint64`` words of the two-bit table for ``n`` positions."""
    return (n + 31) // 32


def front_words(n):
    """``uint64`` words of the frontier bits for ``n`` positions (whole pairs of table
    words, so that a chunk of frontier words covers whole table words)."""
    return (n + 63) // 64


def packed_bytes(n):
    """Bytes :func:`packed_bfs` allocates for ``n`` positions."""
    return 8 * (2 * front_words(n) + front_words(n))


@jit
def code_at(table, r):
    """The two-bit code of rank ``r``: its depth modulo 3, or :data:`UNSEEN_CODE`."""
    return (table[r >> 5] >> np.uint64((r & 31) << 1)) & np.uint64(3)


@jit
def _mark_starts(table, front, ranks):
    k = 0
    for r in ranks:
        sh = np.uint64((r & 31) << 1)
        if ((table[r >> 5] >> sh) & np.uint64(3)) == np.uint64(3):
            table[r >> 5] &= ~(np.uint64(3) << sh)  # code 0
            front[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
            k += 1
    return k


#: Children a top-down layer collects (their words prefetched) before it looks at them.
BATCH = 32


@jit
def _mark_children(kids, nk, table, front, clear_next, next_active):
    """Give each unseen rank of ``kids[:nk]`` the next layer's code and its frontier bit, and
    flag its chunk in ``next_active``; returns how many this thread reached first."""
    one = np.uint64(1)
    marked = 0
    for k in range(nk):
        r2 = kids[k]
        wi = r2 >> 5
        sh = np.uint64((r2 & 31) << 1)
        if ((table[wi] >> sh) & np.uint64(3)) != np.uint64(3):
            continue
        old = _fetch_and(table, wi, ~(clear_next << sh))
        if ((old >> sh) & np.uint64(3)) == np.uint64(3):  # this thread reached it
            marked += 1
            _fetch_or(front, r2 >> 6, one << np.uint64(r2 & 63))
            next_active[r2 >> CHUNK_SHIFT] = 1
    return marked


@kernel
def _push_words(a, b, table, front, depth, next_active, fns, p):
    """Top down: expand the positions of depth ``depth`` among the frontier bits of words
    ``[a, b)``. A set bit is one of three kinds, told apart by its code: depth ``depth``
    (expanded, and kept: if no layer follows, they are the farthest positions), depth
    ``depth + 1`` (a child reached in this layer: kept), or depth ``depth - 1`` (last layer's,
    cleared here). Children are collected :data:`BATCH` at a time, their table and frontier
    words prefetched as their ranks are computed, so that the cache misses overlap.

    Returns (positions expanded, children newly reached, moves found illegal). The expanded
    positions keep their frontier bits (until the next layer), so a chunk with any has more
    work next layer (``next_active``, set by the caller)."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    kids = np.empty(BATCH + p.n_moves, dtype=np.int64)
    nk = 0
    c = np.uint64(depth % 3)
    old_code = np.uint64((depth + 2) % 3)
    clear_next = np.uint64(3) ^ np.uint64((depth + 1) % 3)
    one = np.uint64(1)
    found = 0
    marked = 0
    illegal = 0
    for i in range(a, b):
        w = front[i]
        if w == 0:
            continue
        stale = np.uint64(0)
        while w != 0:
            bit = trailing_zeros(w)
            w &= w - one
            r = i * 64 + bit
            k = code_at(table, r)
            if k != c:
                if k == old_code:
                    stale |= one << np.uint64(bit)
                continue
            found += 1
            fns.unrank(r, p, base)
            for j in range(p.state_len):
                state[j] = base[j]
            for m in range(p.n_moves):
                if fns.step(state, m, p) == ILLEGAL:
                    illegal += 1
                    continue
                r2 = fns.rank_after(state, m, r, p)
                for j in range(p.state_len):
                    state[j] = base[j]
                prefetch(table, r2 >> 5)
                prefetch(front, r2 >> 6)  # (for the mark if it is new: an atomic waits for it)
                kids[nk] = r2
                nk += 1
            if nk >= BATCH:
                marked += _mark_children(kids, nk, table, front, clear_next, next_active)
                nk = 0
        if stale != 0:
            _fetch_and(front, i, ~stale)
    marked += _mark_children(kids, nk, table, front, clear_next, next_active)
    return found, marked, illegal


@kernel
def _pull_words(a, b, table, front, depth, n, fns, p):
    """Bottom up: every unseen position of frontier words ``[a, b)`` (table words ``2a`` to
    ``2b``) that has a neighbour with code ``depth % 3`` gets code ``(depth + 1) % 3`` and its
    frontier bit; of the frontier bits already set, those of depth ``depth`` are kept and
    last layer's cleared (as top down). Only these words are written.

    Returns (positions examined, positions reached, children made, whether any frontier bit
    is left set in these words)."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    c = np.uint64(depth % 3)
    clear_next = np.uint64(3) ^ np.uint64((depth + 1) % 3)
    one = np.uint64(1)
    examined = 0
    marked = 0
    made = 0
    left = np.uint64(0)
    for fi in range(a, b):
        new_front = np.uint64(0)
        f = front[fi]
        while f != 0:
            bit = trailing_zeros(f)
            f &= f - one
            if code_at(table, fi * 64 + bit) == c:
                new_front |= one << np.uint64(bit)
        for half in range(2):
            wi = 2 * fi + half
            w = table[wi]
            unseen = w & (w >> one) & _LOW_BITS  # the low bit of every code-3 pair
            clear = np.uint64(0)
            while unseen != 0:
                bit = trailing_zeros(unseen)
                unseen &= unseen - one
                r = wi * 32 + (bit >> 1)
                if r >= n:
                    break
                examined += 1
                fns.unrank(r, p, base)
                for j in range(p.state_len):
                    state[j] = base[j]
                for m in range(p.n_moves):
                    if fns.step(state, m, p) == ILLEGAL:
                        continue
                    made += 1
                    hit = code_at(table, fns.rank_after(state, m, r, p)) == c
                    for j in range(p.state_len):
                        state[j] = base[j]
                    if hit:
                        clear |= clear_next << np.uint64(bit)
                        new_front |= one << np.uint64(half * 32 + (bit >> 1))
                        marked += 1
                        break
            if clear != 0:
                table[wi] = w & ~clear
        front[fi] = new_front
        left |= new_front
    return examined, marked, made, left != 0


@kernel(parallel=True)
def _layer(table, front, depth, n, bottom_up, active, next_active, fns, p):
    """One layer, top down or bottom up, over chunks of :data:`CHUNK_WORDS` frontier words
    taken by the threads as they come free. Top down skips the chunks with no frontier bits
    (``active[k] == 0``); both flag in ``next_active`` (all zero on entry) the chunks that
    have frontier bits after the layer. Returns (positions expanded or examined, positions
    reached, children generated)."""
    nw = front.shape[0]
    n_chunks = (nw + CHUNK_WORDS - 1) // CHUNK_WORDS
    looked = filled(n_chunks, 0)
    marked = filled(n_chunks, 0)
    other = filled(n_chunks, 0)
    counter = new_counter()
    for _ in prange(workers(n_chunks)):
        while True:
            k = take(counter)
            if k >= n_chunks:
                break
            a = k * CHUNK_WORDS
            b = min(a + CHUNK_WORDS, nw)
            if bottom_up:
                looked[k], marked[k], other[k], left = _pull_words(a, b, table, front, depth, n,
                                                                   fns, p)
                if left:
                    next_active[k] = 1
            elif active[k]:
                looked[k], marked[k], other[k] = _push_words(a, b, table, front, depth,
                                                             next_active, fns, p)
                if looked[k] > 0:
                    next_active[k] = 1
    n_looked = total(looked)
    made = total(other) if bottom_up else n_looked * p.n_moves - total(other)
    return n_looked, total(marked), made


@jit
def _active_chunks(front):
    """1 for each chunk of frontier words with a bit set, else 0."""
    n_chunks = (front.shape[0] + CHUNK_WORDS - 1) // CHUNK_WORDS
    out = np.zeros(n_chunks, dtype=np.uint8)
    for i in range(front.shape[0]):
        if front[i] != 0:
            out[i >> CHUNK_BITS] = 1
    return out


@jit
def front_ranks(table, front, depth, limit):
    """The first ``limit`` ranks at depth ``depth`` (the last layer made: its frontier bits with
    code ``depth % 3``), and how many there are."""
    c = np.uint64(depth % 3)
    out = np.empty(limit, dtype=np.int64)
    k = 0
    count = 0
    one = np.uint64(1)
    for i in range(front.shape[0]):
        w = front[i]
        while w != 0:
            bit = trailing_zeros(w)
            w &= w - one
            if code_at(table, i * 64 + bit) != c:
                continue
            if k < limit:
                out[k] = i * 64 + bit
                k += 1
            count += 1
    return out[:k], count


@kernel
def packed_path(table, r_end, start_ranks, max_len, fns, p):
    """Moves of a shortest path from a start to rank ``r_end``: from each position, the
    neighbour whose code is one less modulo 3 is one layer closer (see the module), until a
    start (a sorted array of ranks) is reached. Empty when ``r_end`` was not reached, and
    ``[-1]`` if no start is found within ``max_len`` moves (an inconsistent table)."""
    back = np.empty(max_len, dtype=np.int64)
    state = np.empty(p.state_len, dtype=np.uint8)
    if code_at(table, r_end) == UNSEEN_CODE:
        return back[:0]
    fns.unrank(r_end, p, state)
    r = r_end
    k = 0
    while True:
        i = np.searchsorted(start_ranks, r)
        if i < start_ranks.shape[0] and start_ranks[i] == r:
            break
        if k >= max_len:
            return np.full(1, -1, dtype=np.int64)
        want = (code_at(table, r) + np.uint64(2)) % np.uint64(3)
        stepped = False
        for m in range(p.n_moves):
            if fns.step(state, m, p) == ILLEGAL:
                continue
            r2 = fns.rank(state, p)
            if code_at(table, r2) == want:
                back[k] = fns.inverse(m, p)  # we moved back along m: forward is its inverse
                k += 1
                r = r2
                stepped = True
                break
            fns.step(state, fns.inverse(m, p), p)
        if not stepped:
            return np.full(1, -1, dtype=np.int64)
    out = np.empty(k, dtype=np.int64)
    for j in range(k):
        out[j] = back[k - 1 - j]
    return out


class PackedTable:
    """The table :func:`packed_bfs` leaves: two bits per position (depth modulo 3), read by
    rank. ``depth(r)`` and ``path(r)`` walk back to a start (see the module)."""

    def __init__(self, table, front, n, start_ranks, max_depth, fns, params):
        self.words, self.front, self.n = table, front, int(n)
        self.start_ranks = np.unique(np.asarray(start_ranks, dtype=np.int64))
        self.max_depth = int(max_depth)
        self.fns, self.params = fns, params

    @property
    def nbytes(self):
        return self.words.nbytes + self.front.nbytes

    def __len__(self):
        return self.n

    def reached(self, r):
        return int(code_at(self.words, int(r))) != UNSEEN_CODE

    def path(self, r):
        """Move numbers of a shortest path from a start to rank ``r`` (None: not reached)."""
        if not self.reached(r):
            return None
        moves = packed_path(self.words, int(r), self.start_ranks, self.max_depth, self.fns,
                            self.params)
        if len(moves) == 1 and moves[0] == -1:
            raise RuntimeError("the packed table is inconsistent: no way back to a start")
        return moves

    def depth(self, r):
        """The depth of rank ``r`` (-1: not reached)."""
        path = self.path(r)
        return -1 if path is None else len(path)


def packed_bfs(fns, params, n_ranks, start_ranks, progress=None, max_depth=None, stop_rank=-1,
               resume=None, after_layer=None):
    """Breadth-first search from ``start_ranks`` over a two-bit table (see the module).

    ``progress(depth, layer_count, total)`` after each layer. Stops after the layer that
    reaches ``stop_rank`` (if given), when a layer adds nothing, or after layer ``max_depth``.
    ``resume``: ``(table, front, counts, tally)`` saved by ``after_layer(table, front, counts,
    tally)``, which is called after each layer (it may save them).

    Returns ``(PackedTable, counts, tally, stopped)``: ``tally`` holds the children generated,
    the positions expanded or examined, and the layers made bottom up."""
    start_threads()
    n = int(n_ranks)
    starts = np.unique(np.asarray(start_ranks, dtype=np.int64))
    if resume is None:
        table = np.full(2 * front_words(n), _ALL, dtype=np.uint64)
        front = np.zeros(front_words(n), dtype=np.uint64)
        counts = [int(_mark_starts(table, front, starts))]
        tally = np.zeros(3, dtype=np.int64)
    else:
        table, front, counts, tally = resume
        counts = [int(c) for c in counts]
        saved = np.asarray(tally, dtype=np.int64)
        tally = np.zeros(3, dtype=np.int64)
        tally[:len(saved)] = saved[:3]
    depth = len(counts) - 1
    reached = sum(counts)
    active = _active_chunks(front)
    next_active = np.zeros_like(active)
    limit = None if max_depth is None else int(max_depth)
    stopped = False
    while True:
        if stop_rank >= 0 and code_at(table, stop_rank) != UNSEEN_CODE:
            break
        if limit is not None and depth >= limit:
            stopped = True
            break
        layer = counts[-1]
        bottom_up = n - reached < layer
        looked, marked, made = _layer(table, front, depth, n, bottom_up, active, next_active,
                                      fns, params)
        active, next_active = next_active, active
        next_active[:] = 0
        tally[0] += made
        tally[1] += looked
        tally[2] += bottom_up
        if marked == 0:
            break
        depth += 1
        counts.append(int(marked))
        reached += int(marked)
        if after_layer is not None:
            after_layer(table, front, counts, tally)
        if progress is not None:
            progress(depth, int(marked), reached)
    result = PackedTable(table, front, n, starts, depth + 1, fns, params)
    return result, counts, tally, stopped


#: A packed search saves its state at the end of a layer once this many seconds have passed
#: since it last did (or since it started)...
CHECKPOINT_SECONDS = 600
#: ...and, left to its default, once the time since also reaches this many times what the
#: last save took, so that saving takes at most about 5% of the run.
CHECKPOINT_SPACING = 19
CHECKPOINT_FORMAT = "puzzlelib-packed-layers-1"


def run_packed(fns, params, n_ranks, start_ranks, key, progress=None, max_depth=None,
               checkpoint=None, checkpoint_seconds=None):
    """:func:`packed_bfs` that saves its state to the file ``checkpoint`` (when given) every
    ``checkpoint_seconds`` at the end of a layer (by default every :data:`CHECKPOINT_SECONDS`,
    or :data:`CHECKPOINT_SPACING` times what the last save took if that is longer), and
    resumes from that file when it holds a search of the same ``key`` (a string naming the
    puzzle and its start). The file is written atomically (:mod:`puzzlelib.core.store`) and
    deleted once the search is over (kept when ``max_depth`` stopped it: a deeper search
    resumes from it; a state saved beyond ``max_depth`` is neither resumed nor touched).

    Returns ``(PackedTable, counts, tally, stopped, resumed_at)``: ``resumed_at`` is the depth
    the saved state had reached (None: started afresh)."""
    import time

    from ..core import store

    import warnings

    expect = {"format": CHECKPOINT_FORMAT, "key": key, "n": int(n_ranks)}
    what = "the saved state of a packed search"
    resume = None
    resumed_at = None
    if checkpoint is not None:
        got = store.read(checkpoint, expect, what)
        if got is not None:
            header, (table, front) = got
            depth = len(header["counts"]) - 1
            if table.shape != (2 * front_words(n_ranks),) or front.shape != (
                    front_words(n_ranks),) or table.dtype != np.uint64 or front.dtype != np.uint64:
                warnings.warn(f"{what} {checkpoint} holds tables of the wrong size; it will be "
                              f"written again")
            elif max_depth is not None and depth > max_depth:
                warnings.warn(f"{what} {checkpoint} is at depth {depth}, beyond max_depth "
                              f"{max_depth}: not resumed (the file is kept)")
                checkpoint = None  # neither resumed nor overwritten
            else:
                resume = (table, front, header["counts"], header["tally"])
                resumed_at = depth
    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else float(checkpoint_seconds)
    last = [time.monotonic()]
    took = [0.0]  # seconds the last save took

    def after_layer(table, front, counts, tally):
        wait = every if checkpoint_seconds is not None else max(every,
                                                                 CHECKPOINT_SPACING * took[0])
        if checkpoint is None or time.monotonic() - last[0] < wait:
            return
        began = time.monotonic()
        try:
            store.write(checkpoint, dict(expect, counts=[int(c) for c in counts],
                                         tally=[int(t) for t in tally]), [table, front])
        except OSError as e:  # (a full disk, a folder not writable): the search goes on
            warnings.warn(f"{what} could not be written to {checkpoint} ({e}); the search goes "
                          f"on, and will try again in {wait:.0f} s")
        last[0] = time.monotonic()
        took[0] = last[0] - began

    res, counts, tally, stopped = packed_bfs(fns, params, n_ranks, start_ranks,
                                             progress=progress, max_depth=max_depth,
                                             resume=resume, after_layer=after_layer)
    if checkpoint is not None and not stopped:
        store.remove(checkpoint)  # (kept after max_depth: a deeper run resumes from it)
    return res, counts, tally, stopped, resumed_at
