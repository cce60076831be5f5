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

import shutil
from pathlib import Path

import numpy as np
from numba import prange, types
from numba.cpython.unsafe.numbers import trailing_zeros

from ..core.contract import ILLEGAL
from ..core.jit import jit, kernel
from ..core.limits import RUNNING, check, note, stop_reason
from .expand import MEMO_WORDS, code_at, pull_word, push
from .workshare import (atomic_rmw, filled, new_counter, prefetch, start_threads, take, total,
                        workers)

#: The code of a position not reached yet.
UNSEEN_CODE = 3
#: A chunk a thread takes at a time is ``2**CHUNK_BITS`` frontier words (64 positions each).
CHUNK_BITS = 10
CHUNK_WORDS = 1 << CHUNK_BITS
#: The chunk of rank ``r`` is ``r >> CHUNK_SHIFT``.
CHUNK_SHIFT = CHUNK_BITS + 6

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
def _push_words(a, b, table, front, depth, next_active, fns, p, l, out, hs, ws):
    """Top down: expand the positions of depth ``depth`` among the frontier bits of words
    ``[a, b)``. A set bit is one of three kinds, told apart by its code: depth ``depth``
    (expanded, and kept: if no layer follows, they are the farthest positions), depth
    ``depth + 1`` (a child reached in this layer: kept), or depth ``depth - 1`` (last layer's,
    cleared here). Children are collected :data:`BATCH` at a time, their table and frontier
    words prefetched as their ranks are computed, so that the cache misses overlap.

    Returns (positions expanded, children newly reached, moves found illegal). The expanded
    positions keep their frontier bits (until the next layer), so a chunk with any has more
    work next layer (``next_active``, set by the caller). With ``l >= 0`` the positions
    expanded are also written, in the form of a saved layer (see :class:`LayerLog`), by the
    writer ``ws`` begun at a word of ``out``."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    kids = np.empty(BATCH + p.n_moves, dtype=np.int64)
    todo = np.empty(p.n_moves, dtype=np.int64)  # (see expand.push)
    memo = np.full(MEMO_WORDS, -1, dtype=np.int64)
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
            if l >= 0:
                _w_put(ws, out, hs, l, r - a * 64)
            found += 1
            k = push(fns, r, p, base, state, kids, nk, todo, memo)
            illegal += p.n_moves - (k - nk)
            for t in range(nk, k):
                prefetch(table, kids[t] >> 5)
                prefetch(front, kids[t] >> 6)  # (for the mark if new: an atomic waits for it)
            nk = k
            if nk >= BATCH:
                marked += _mark_children(kids, nk, table, front, clear_next, next_active)
                nk = 0
        if stale != 0:
            _fetch_and(front, i, ~stale)
    marked += _mark_children(kids, nk, table, front, clear_next, next_active)
    return found, marked, illegal


@kernel
def _pull_words(a, b, table, front, depth, n, fns, p, l, out, hs, ws):
    """Bottom up: every unseen position of frontier words ``[a, b)`` (table words ``2a`` to
    ``2b``) that has a neighbour with code ``depth % 3`` gets code ``(depth + 1) % 3`` and its
    frontier bit (:func:`.expand.pull_word`); of the frontier bits already set, those of depth
    ``depth`` are kept and last layer's cleared (as top down). Only these words are written.

    Returns (positions examined, positions reached, children made, whether any frontier bit
    is left set in these words). With ``l >= 0`` the positions of depth ``depth`` are
    written as :func:`_push_words` writes them."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    todo = np.empty(p.n_moves, dtype=np.int64)  # (see expand.push)
    c = np.uint64(depth % 3)
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
                if l >= 0:
                    _w_put(ws, out, hs, l, (fi - a) * 64 + bit)
        for wi in range(2 * fi, 2 * fi + 2):
            looked, tried, reached, clear, bits = pull_word(fns, wi, n, p, base, state, table, c,
                                                            todo)
            examined += looked
            made += tried
            marked += reached
            new_front |= bits
            if clear != 0:
                table[wi] &= ~clear
        front[fi] = new_front
        left |= new_front
    return examined, marked, made, left != 0


@kernel(parallel=True)
def _layer(table, front, depth, n, bottom_up, active, next_active, fns, p, l, streams, scratch,
           used, where, sizes):
    """One layer, top down or bottom up, over chunks of :data:`CHUNK_WORDS` frontier words
    taken by the threads as they come free. Top down skips the chunks with no frontier bits
    (``active[k] == 0``); both flag in ``next_active`` (all zero on entry) the chunks that
    have frontier bits after the layer. Returns (positions expanded or examined, positions
    reached, children generated).

    With ``l >= 0``, the positions of depth ``depth`` are written on the way, as a saved layer
    (:class:`LayerLog`) with ``l`` low bits a rank: worker ``w`` writes its chunks one after
    the other in ``streams[w]`` from ``used[w]`` (``scratch[w]``: room for a chunk's high
    parts), chunk ``k``'s ``sizes[k]`` positions at ``where[k]`` (``w`` times the row's length
    plus the word). A chunk that might overrun its row is not written (``sizes[k] = -1``)."""
    nw = front.shape[0]
    n_chunks = (nw + CHUNK_WORDS - 1) // CHUNK_WORDS
    looked = filled(n_chunks, 0)
    marked = filled(n_chunks, 0)
    other = filled(n_chunks, 0)
    counter = new_counter()
    cap = streams.shape[1]
    for w in prange(workers(n_chunks)):
        ws = np.zeros(6, dtype=np.uint64)
        row = np.int64(0)  # (the prange index is unsigned: mixed with signed, a float)
        if l >= 0:
            row = np.int64(w)
        out = streams[row]
        hs = scratch[row]
        while True:
            k = take(counter)
            if k >= n_chunks or stop_reason() != RUNNING:
                break  # (stopped from outside: the caller raises, puzzlelib.core.limits)
            a = k * CHUNK_WORDS
            b = min(a + CHUNK_WORDS, nw)
            lk = l
            if l >= 0 and (bottom_up or active[k]):
                if used[row] + _most_chunk_words(l) > cap:
                    sizes[k] = -1
                    lk = -1
                _w_start(ws, used[row])
            if bottom_up:
                looked[k], marked[k], other[k], left = _pull_words(a, b, table, front, depth, n,
                                                                   fns, p, lk, out, hs, ws)
                if left:
                    next_active[k] = 1
            elif active[k]:
                looked[k], marked[k], other[k] = _push_words(a, b, table, front, depth,
                                                             next_active, fns, p, lk, out, hs, ws)
                if looked[k] > 0:
                    next_active[k] = 1
            if lk >= 0 and (bottom_up or active[k]):
                n_k = _w_end(ws, out, hs, lk, used[row])
                sizes[k] = n_k
                where[k] = row * cap + used[row]
                used[row] += _chunk_words(n_k, lk)
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
               resume=None, log=None):
    """Breadth-first search from ``start_ranks`` over a two-bit table (see the module).

    ``progress(depth, layer_count, total)`` after each layer. Stops after the layer that
    reaches ``stop_rank`` (if given), when a layer adds nothing, or after layer ``max_depth``.
    ``resume``: ``(table, front, counts, tally)`` as they were after a layer. ``log``: a
    :class:`LayerLog` that saves every layer: each layer's positions are written while the
    next layer is made from them (the kernels look at them then anyway), and saved once it is
    made; the last layer of a search stopped by ``max_depth`` is written on its own.

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
    no_log = _LogArrays.none()
    while True:
        if stop_rank >= 0 and code_at(table, stop_rank) != UNSEEN_CODE:
            break
        if limit is not None and depth >= limit:
            stopped = True
            if log is not None and (resume is None or depth >= len(resume[2])):
                log.write(table, front, counts, tally, active)  # (no layer made it on the way)
            break
        layer = counts[-1]
        bottom_up = n - reached < layer
        arrays = no_log if log is None or log.broken else log.arrays(layer, n)
        before = tally.copy()
        looked, marked, made = _layer(table, front, depth, n, bottom_up, active, next_active,
                                      fns, params, arrays.l, arrays.streams, arrays.scratch,
                                      arrays.used, arrays.where, arrays.sizes)
        check()  # (a layer cut short is never saved)
        if arrays.l >= 0:
            log.put(depth, counts[-1], before, arrays)
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
        note(depth, reached)
        if progress is not None:
            progress(depth, int(marked), reached)
    result = PackedTable(table, front, n, starts, depth + 1, fns, params)
    return result, counts, tally, stopped


class _LogArrays:
    """Where :func:`_layer` writes the layer it expands (see its docstring); ``l = -1``: not
    written."""

    def __init__(self, l, rows, cap, n_chunks):
        self.l = l
        self.streams = np.empty((rows, cap), dtype=np.uint64)  # (only pages written are kept)
        self.scratch = np.empty((rows, 2 * _U // 64 + 2 if l >= 0 else 0), dtype=np.uint64)
        self.used = np.zeros(rows, dtype=np.int64)
        self.where = np.zeros(n_chunks, dtype=np.int64)
        self.sizes = np.zeros(n_chunks, dtype=np.int64)

    @classmethod
    def none(cls):
        return cls(-1, 1, 0, 0)

    @classmethod
    def new(cls, count, n, rows=None):
        """Rows long enough for a layer of ``count`` positions of a table of ``n``, one per
        worker thread (each row is bounded by the whole layer's size, but only the pages
        written are ever in memory)."""
        import numba

        n_chunks = _n_chunks(n)
        if rows is None:
            rows = max(1, min(numba.get_num_threads(), n_chunks))
        l = int(layer_low_bits(count, n))
        return cls(l, rows, cls._cap(count, n), n_chunks)

    @staticmethod
    def _cap(count, n):
        """``count`` ranks in ``C`` chunks of ``U`` with ``l = floor(log2(C U / count))`` take at
        most ``count (l + 1) + C U / 2**l < count (l + 3)`` bits, a word more a chunk for each
        part, and a whole chunk's worth more (a row is not begun on a chunk that might not
        fit)."""
        n_chunks = _n_chunks(n)
        l = int(layer_low_bits(count, n))
        return int(count * (l + 3)) // 64 + 2 * n_chunks + int(_most_chunk_words(l)) + 16

    @classmethod
    def bound_bytes(cls, count, n):
        """The most memory the writing of a layer of ``count`` positions takes (the rows'
        pages that can be written, and the per-chunk records)."""
        return 8 * cls._cap(count, n) + 24 * _n_chunks(n)


# ---------------------------------------------------------------------------------------------
# Every layer saved: a search's state is the list of its layers, one file each
# ---------------------------------------------------------------------------------------------
#
# The table after layer d is fixed by the positions of layers 0..d (each gets its depth's code)
# and the frontier bits of layer d. So a search saves, after each layer, that layer's ranks, and
# a stopped search rebuilds its table from the files of the layers it finished. Writing the
# whole table instead (3 bits a position) after every layer would cost as much as the search.
#
# A layer's ranks are written chunk by chunk (2**CHUNK_SHIFT ranks each) in the Elias-Fano
# form: of the k ranks of a chunk, offsets x below U = 2**CHUNK_SHIFT in increasing order, the
# low l bits of each side by side, then the high parts in unary (bit (x >> l) + i set for the
# i-th), each part filling whole words: about k (l + 1) + U / 2**l bits. One l serves the whole
# layer, floor(log2(C U / K)) for K ranks in C chunks (:func:`layer_low_bits`): about
# 2 + log2(C U / K) bits a rank where the ranks are spread evenly (figures: benchmarks/
# RESULTS.md). The kernels that make layer d + 1 look at every rank of layer d in order, chunk
# by chunk, so they write it on the way (:func:`_w_put`), each thread in its own row; a chunk's
# size is known only at its end, hence the high parts' scratch row. The file lists the chunks
# that hold ranks, with their sizes and where their words begin, and is read back in parallel.

#: The format of the files of a search's layers (one file per layer in the checkpoint folder).
CHECKPOINT_FORMAT = "puzzlelib-packed-layer-2"
#: The format of the single file that earlier versions saved (not resumed: its folder replaces it).
OLD_CHECKPOINT_FORMAT = "puzzlelib-packed-layers-1"
_U = 1 << CHUNK_SHIFT


@jit
def layer_low_bits(count, n):
    """``l`` of a layer of ``count`` positions in a table of ``n``: ``floor(log2(C U / count))``
    for its ``C`` chunks of ``U`` ranks (at most 16), the same for all its chunks."""
    room = _n_chunks(n) * _U
    l = 0
    while l < CHUNK_SHIFT and (max(count, 1) << (l + 1)) <= room:
        l += 1
    return l


@jit
def _n_chunks(n):
    """Chunks of the frontier bits of a table of ``n`` positions."""
    return ((n + 63) // 64 + CHUNK_WORDS - 1) // CHUNK_WORDS


@jit
def _chunk_words(k, l):
    """``uint64`` words of a chunk of ``k`` ranks: the low bits, then the high parts."""
    if k <= 0:
        return 0
    return (k * l + 63) // 64 + (k + (_U >> l) + 63) // 64


@jit
def _most_chunk_words(l):
    """Words of a chunk of every rank it can hold."""
    return _chunk_words(_U, l)


# A chunk is written in one pass, its size not known before: the low bits go straight to
# ``out`` from ``at``, and the high parts (unary) to a scratch row ``hs``, copied after the low
# bits at the end. ``ws`` (uint64[6]) holds the writer: the low word being filled, its bits,
# the next word of ``out``, the high word being filled, its index in ``hs``, and the ranks
# written.


@jit(_nrt=False)
def _w_start(ws, at):
    ws[0] = 0
    ws[1] = 0
    ws[2] = at
    ws[3] = 0
    ws[4] = 0
    ws[5] = 0


@jit(_nrt=False)
def _w_put(ws, out, hs, l, x):
    """Write offset ``x`` (increasing) of its chunk."""
    i = ws[5]
    if l > 0:
        low = np.uint64(x) & ((np.uint64(1) << np.uint64(l)) - np.uint64(1))
        nb = ws[1]
        word = ws[0] | (low << nb)
        nb += np.uint64(l)
        if nb >= np.uint64(64):
            out[ws[2]] = word
            ws[2] += np.uint64(1)
            nb -= np.uint64(64)
            word = (low >> (np.uint64(l) - nb)) if nb > np.uint64(0) else np.uint64(0)
        ws[0] = word
        ws[1] = nb
    hb = (np.uint64(x) >> np.uint64(l)) + i
    w = hb >> np.uint64(6)
    if ws[4] < w:
        hs[ws[4]] = ws[3]
        ws[3] = 0
        for j in range(ws[4] + np.uint64(1), w):
            hs[j] = 0
        ws[4] = w
    ws[3] |= np.uint64(1) << (hb & np.uint64(63))
    ws[5] = i + np.uint64(1)


@jit(_nrt=False)
def _w_end(ws, out, hs, l, at):
    """Finish the chunk begun at ``out[at]``: returns how many ranks it holds (its words are
    :func:`_chunk_words` of that)."""
    k = np.int64(ws[5])
    if k == 0:
        return 0
    p = ws[2]
    if ws[1] > np.uint64(0):
        out[p] = ws[0]
        p += np.uint64(1)
    n_high = (k + (_U >> l) + 63) // 64
    hs[ws[4]] = ws[3]
    for j in range(np.int64(ws[4]) + 1, n_high):
        hs[j] = 0
    for j in range(n_high):
        out[p + np.uint64(j)] = hs[j]
    return k


@kernel(parallel=True)
def _encode_layer(table, front, depth, l, out, hs):
    """Write the ranks of depth ``depth`` (frontier bits with its code) chunk by chunk, one
    after the other from ``out[0]`` (room: :func:`_LogArrays` of its count). Returns the
    chunks' sizes and where each begins (the search of a layer writes the same on the way;
    this is for the last layer of a search stopped by ``max_depth``)."""
    c = np.uint64(depth % 3)
    nw = front.shape[0]
    n_chunks = (nw + CHUNK_WORDS - 1) // CHUNK_WORDS
    sizes = np.zeros(n_chunks, dtype=np.int64)
    where = np.zeros(n_chunks, dtype=np.int64)
    ws = np.zeros(6, dtype=np.uint64)
    one = np.uint64(1)
    at = 0
    for k in range(n_chunks):
        _w_start(ws, at)
        for fi in range(k * CHUNK_WORDS, min((k + 1) * CHUNK_WORDS, nw)):
            w = front[fi]
            while w != 0:
                bit = trailing_zeros(w)
                w &= w - one
                r = fi * 64 + bit
                if code_at(table, r) == c:
                    _w_put(ws, out, hs, l, r - (k << CHUNK_SHIFT))
        n_k = _w_end(ws, out, hs, l, at)
        sizes[k] = n_k
        where[k] = at
        at += _chunk_words(n_k, l)
    return sizes, where, at


@jit
def _offsets_fit(sizes, offsets, l, n_words):
    """Whether every chunk's words (from ``offsets[k]``) lie within ``n_words``."""
    if l < 0 or l > CHUNK_SHIFT:
        return False
    for k in range(sizes.shape[0]):
        if sizes[k] < 0 or sizes[k] > _U or (sizes[k] > 0 and (
                offsets[k] < 0 or offsets[k] + _chunk_words(sizes[k], l) > n_words)):
            return False
    return True


@kernel(parallel=True)
def _decode_layer(sizes, offsets, l, words, code, table, front, with_front):
    """Give each rank of a layer written chunk by chunk (the low bits, ``l`` a rank, then the
    high parts) the two-bit ``code`` (the table's entries start unseen) and, if
    ``with_front``, its frontier bit. Returns how many ranks disagreed with ``sizes`` or fell
    outside the table (0 for a sound file)."""
    n = table.shape[0] * 32
    bad = np.zeros(sizes.shape[0], dtype=np.int64)
    one = np.uint64(1)
    for k in prange(sizes.shape[0]):
        n_k = sizes[k]
        if n_k == 0:
            continue
        base = offsets[k]
        high0 = 64 * ((n_k * l + 63) // 64)  # (bits from base)
        i = 0
        hb = high0
        end = high0 + n_k + (_U >> l)
        while hb < end and i < n_k:
            if (words[base + (hb >> 6)] >> np.uint64(hb & 63)) & one:
                x = (hb - high0 - i) << l
                if l > 0:
                    at = i * l
                    sh = at & 63
                    low = words[base + (at >> 6)] >> np.uint64(sh)
                    if sh + l > 64:
                        low |= words[base + (at >> 6) + 1] << np.uint64(64 - sh)
                    x |= np.int64(low & np.uint64((1 << l) - 1))
                r = (k << CHUNK_SHIFT) + x
                if x >= _U or r >= n:
                    bad[k] += 1
                else:
                    sh2 = np.uint64((r & 31) << 1)
                    table[r >> 5] &= ~((np.uint64(3) ^ np.uint64(code)) << sh2)  # 3 -> code
                    if with_front:
                        front[r >> 6] |= one << np.uint64(r & 63)
                i += 1
            hb += 1
        if i != n_k:
            bad[k] += 1
    return total(bad)


def _layer_file(folder, depth):
    return Path(folder) / f"layer-{depth:04d}.bin"


def _bytes_free(folder):
    """Free bytes on the disk that holds ``folder`` (or the nearest folder above it that
    exists), or None when that cannot be told."""
    p = Path(folder).resolve()
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        return shutil.disk_usage(p).free
    except OSError:
        return None


def save_bytes(n_ranks):
    """About the most bytes the layer files of a search of ``n_ranks`` positions take: 7 bits a
    rank (a layer holding 1/16 of the table takes about 6, and small layers are few ranks),
    and each layer's records of its chunks (12 bytes a chunk; 128 layers)."""
    return int(n_ranks) * 7 // 8 + 12 * _n_chunks(n_ranks) * 128


class LayerLog:
    """The folder ``folder`` of a search's layer files (see above): ``read`` rebuilds the
    table from them; ``put`` saves a layer the kernels wrote while making the next one, and
    ``write`` one looked for in the table (the last layer of a search stopped by
    ``max_depth``). Each file is written atomically and checked by its SHA-256 when read
    (:mod:`puzzlelib.core.store`); a failed write warns and the search goes on unsaved."""

    def __init__(self, folder, key, n_ranks):
        self.folder = Path(folder)
        self.expect = {"format": CHECKPOINT_FORMAT, "key": key, "n": int(n_ranks)}
        self.n = int(n_ranks)
        self.broken = False

    what = "the saved layers of a packed search"

    def prepare(self):
        """Make the folder (an older version's single state file there is replaced) and check
        the disk has room for the layers; raises :class:`PuzzleError` if it has not."""
        import warnings

        from ..core.errors import PuzzleError
        from ..core.memory import human

        if self.folder.is_file():
            with open(self.folder, "rb") as f:
                first = f.readline(4096)
            if OLD_CHECKPOINT_FORMAT.encode() not in first:
                raise PuzzleError(f"{self.folder} is a file, not the folder of a search's "
                                  f"saved layers: give another checkpoint path")
            warnings.warn(f"{self.what} {self.folder} was saved by an earlier version in one "
                          f"file; it is not resumed, and a folder of layers replaces it")
            self.folder.unlink()
        need = save_bytes(self.n) - sum(_file_size(p) for p in self._files())
        free = _bytes_free(self.folder)
        if free is not None and need > free:
            raise PuzzleError(
                f"saving every layer of this search needs about {human(need)} on the disk "
                f"of {self.folder}, which has {human(free)} free: free some, give "
                f"checkpoint another path, or save nothing (checkpoint=False, --checkpoint none)")

    def _files(self):
        try:
            return sorted(self.folder.glob("layer-*.bin"))
        except OSError:
            return []

    def _layer(self, depth):
        """``(header, sizes, offsets, l, words)`` of layer ``depth``'s file, or None (missing,
        damaged, or for another search: a warning, except when missing)."""
        import warnings

        from ..core import store

        item = store.read(_layer_file(self.folder, depth), dict(self.expect, depth=depth),
                          self.what)
        if item is None:
            return None
        header, arrays = item
        if len(arrays) < 3 or not _held_fit(arrays[0], arrays[1], arrays[2],
                                             _n_chunks(self.n)) or any(
                p.dtype != np.uint64 for p in arrays[3:]):
            warnings.warn(f"{self.what} in {self.folder}: layer {depth} has the wrong shape; "
                          f"it will be written again")
            return None
        sizes = np.zeros(_n_chunks(self.n), dtype=np.int64)
        offsets = np.zeros(_n_chunks(self.n), dtype=np.int64)
        sizes[arrays[0]] = arrays[1]
        offsets[arrays[0]] = arrays[2]
        pieces = arrays[3:]
        words = (pieces[0] if len(pieces) == 1 else np.concatenate(pieces)) if pieces else (
            np.zeros(0, dtype=np.uint64))
        return header, sizes, offsets, int(header.get("low_bits", -1)), words

    def read(self, max_depth=None):
        """``(table, front, counts, tally)`` rebuilt from the layers saved (those before the
        first missing or damaged file, and none beyond ``max_depth``), or None when there are
        none. One layer's file is in memory at a time; the last one's is read twice (its
        frontier bits are set once it is known to be the last)."""
        import warnings

        if not self.folder.is_dir() or self._layer(0) is None:
            return None
        table = np.full(2 * front_words(self.n), _ALL, dtype=np.uint64)
        front = np.zeros(front_words(self.n), dtype=np.uint64)
        counts = []
        tally = None
        depth = 0
        while max_depth is None or depth <= max_depth:
            got = self._layer(depth)
            if got is None:
                break
            header, sizes, offsets, l, words = got
            if not _offsets_fit(sizes, offsets, l, words.shape[0]) or _decode_layer(
                    sizes, offsets, l, words, depth % 3, table, front, False) != 0 or (
                    int(sizes.sum()) != header["count"]):
                warnings.warn(f"{self.what} in {self.folder}: layer {depth} does not read back "
                              f"as written; the search starts afresh")
                return None
            counts.append(int(header["count"]))
            tally = header["tally"]
            depth += 1
        _, sizes, offsets, l, words = self._layer(depth - 1)
        _decode_layer(sizes, offsets, l, words, (depth - 1) % 3, table, front, True)
        return table, front, counts, tally

    def _save(self, depth, count, tally, l, sizes, offsets, pieces):
        """Write the file of layer ``depth``: only its chunks that hold ranks are listed."""
        import warnings

        from ..core import store

        held = np.flatnonzero(sizes > 0)
        try:
            store.write(_layer_file(self.folder, depth),
                        dict(self.expect, depth=int(depth), count=int(count), low_bits=int(l),
                             tally=[int(t) for t in tally]),
                        [held.astype(np.int64), sizes[held].astype(np.uint32),
                         offsets[held].astype(np.int64), *pieces], sync=False)
        except OSError as e:  # (a full disk, a folder not writable): the search goes on
            self.broken = True
            warnings.warn(f"{self.what} could not be written to {self.folder} ({e}); the "
                          f"search goes on without saving its layers")

    def arrays(self, count, n):
        """Room for the next layer's writing (:class:`_LogArrays`), or the empty one when the
        memory for it is not there (a warning; the search goes on without saving)."""
        import warnings

        from ..core import memory

        need = _LogArrays.bound_bytes(count, n)
        if memory.fits(need):
            try:
                return _LogArrays.new(count, n)
            except MemoryError:
                pass
        self.broken = True
        warnings.warn(f"{self.what}: writing a layer of {count:,} positions needs up to "
                      f"{memory.human(need)} of memory, which is not free; the search goes on "
                      f"without saving its layers")
        return _LogArrays.none()

    def put(self, depth, count, tally, arrays):
        """Save layer ``depth`` as :func:`_layer` wrote it while making the next one."""
        import warnings

        sizes = arrays.sizes
        if (sizes < 0).any() or int(sizes.sum()) != count:  # (their room was worked out short)
            self.broken = True
            warnings.warn(f"{self.what}: layer {depth} did not fit the room made for it; the "
                          f"search goes on without saving its layers")
            return
        cap = arrays.streams.shape[1]
        starts = np.concatenate([[0], np.cumsum(arrays.used)[:-1]])
        offsets = starts[arrays.where // cap] + arrays.where % cap
        pieces = [arrays.streams[w, :arrays.used[w]] for w in range(arrays.streams.shape[0])]
        self._save(depth, count, tally, arrays.l, sizes, offsets, pieces)

    def write(self, table, front, counts, tally, active):
        """Save the last layer made (depth ``len(counts) - 1``), looking for its positions in
        the table (a search stopped by ``max_depth``: no next layer wrote it on the way)."""
        if self.broken:
            return
        depth = len(counts) - 1
        room = _LogArrays.new(counts[-1], self.n, rows=1)
        sizes, where, used = _encode_layer(table, front, depth, room.l, room.streams[0],
                                           room.scratch[0])
        self._save(depth, counts[-1], tally, room.l, sizes, where, [room.streams[0, :used]])

    def remove(self):
        for p in self._files():
            p.unlink(missing_ok=True)
        try:
            self.folder.rmdir()
        except OSError:
            pass


def _held_fit(held, sizes, offsets, n_chunks):
    """Whether a layer file's chunk list is well formed: increasing chunk numbers below
    ``n_chunks``, one size and one offset each."""
    return (held.dtype == np.int64 and sizes.dtype == np.uint32 and offsets.dtype == np.int64
            and held.ndim == sizes.ndim == offsets.ndim == 1
            and held.shape == sizes.shape == offsets.shape
            and bool(np.all(np.diff(held) > 0)) and (held.size == 0 or (
                held[0] >= 0 and held[-1] < n_chunks)))


def _file_size(path):
    try:
        return path.stat().st_size
    except OSError:
        return 0


def run_packed(fns, params, n_ranks, start_ranks, key, progress=None, max_depth=None,
               checkpoint=None):
    """:func:`packed_bfs` that saves every layer it makes to the folder ``checkpoint`` (when
    given; see :class:`LayerLog`), and resumes from the layers saved there for the same
    ``key`` (a string naming the puzzle and its start): up to ``max_depth`` when that is
    given. Before it starts it checks that the disk has room for all the layers
    (:func:`save_bytes`). The folder is deleted once the search is over (kept when
    ``max_depth`` stopped it: a deeper search resumes from it).

    Returns ``(PackedTable, counts, tally, stopped, resumed_at)``: ``resumed_at`` is the depth
    the saved layers had reached (None: started afresh)."""
    resume = None
    resumed_at = None
    log = None
    if checkpoint is not None:
        log = LayerLog(checkpoint, key, n_ranks)
        log.prepare()
        resume = log.read(max_depth)
        if resume is not None:
            resumed_at = len(resume[2]) - 1
    res, counts, tally, stopped = packed_bfs(fns, params, n_ranks, start_ranks,
                                             progress=progress, max_depth=max_depth,
                                             resume=resume, log=log)
    if log is not None and not stopped:
        log.remove()  # (kept after max_depth: a deeper run resumes from it)
    return res, counts, tally, stopped, resumed_at
