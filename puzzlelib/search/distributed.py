"""Layered breadth-first search on a Dask cluster: the rank space split into packed parts.

The ranks ``0..n-1`` are dealt into ``P`` *parts* in blocks of 4096 (block ``b`` to part
``b % P``, so that every layer is shared about evenly; by default one part per thread of the
cluster), each held by one worker for the whole search in the layout of the one-machine packed
search (:mod:`.packed`): a position's depth modulo 3 in two bits and one frontier bit, 3/8 of
a byte a position. Each layer is two rounds of tasks, each pinned to the worker of its part:

1. **expand** (:func:`_expand_task`, :func:`_expand_part`): part ``i`` expands its frontier
   with the shared step (:func:`.expand.push`), a slice of the frontier at a time. A child of
   its own ranks is marked at once, as on one machine; a child of part ``j`` goes into a fixed
   buffer for ``j`` (:data:`BUFFER_BYTES` in all). When a buffer fills, its ranks are sorted
   (a radix sort) and delta-coded (:func:`_sorted_varint`: a byte to three a rank), or made a
   bitmap of part ``j``'s ranks if that is smaller, and *sent at once* to part ``j``'s worker,
   which keeps it in ``j``'s inbox and marks it once ``j`` has sent its own batches (sooner if
   the inbox fills), or at once when ``j`` is not expanding (:func:`_deliver`, through a
   handler each worker adds to its server, :data:`DOOR`, called from worker to worker). So a
   worker holds its parts, their buffers and a few batches on their way, whatever the layer.
   In the large
   layers of tables whose parts' bitmaps fit the buffers (:func:`_dense`) the kernel sets the
   children's bits in a bitmap of each other part's ranks instead, sent at the end.
2. **absorb** (:func:`_absorb_task`), once every expansion has had its batches received: part
   ``j`` marks any batch still waiting, saves its layer if asked, and gives its count. The
   counts are exact: a position is counted by whoever first marks it in its part's table, and
   only one thread writes a part's table at a time (its lock).

Parts are expanded top down only: a bottom-up layer would look up the codes of neighbours in
other parts.

**Saved layers and a lost worker.** With a ``checkpoint`` folder that every worker reaches,
each part writes the positions of its new layer (the layer, in the smaller of the two forms,
made and written a slice of the part at a time) to a file of its own, and the client then
writes the folder's record of the layers done, each file by an atomic rename. When a worker is
lost mid-layer the client gives its parts to the workers left (or to one that joined), has
every part rebuilt from its layer files, and makes the layer again: at most one layer's work is
lost, and the counts stay exact. A later call with the same folder resumes after the last layer
recorded. The parts of an earlier try are keyed by its own run, so a worker that comes back
late is not counted twice. Without a folder a lost worker ends the search with one line saying
so.

Limits (:mod:`puzzlelib.core.limits`): each task runs in a watch of its worker's memory (Dask's
``memory_limit``, else what the process may use), so a part that would outgrow its worker stops
with :class:`~puzzlelib.SearchLimitError` (a table too big for its workers is refused before, by
the plan). The client checks its own watch (Ctrl-C, the time limit) while it waits; when it
stops, it cancels the tasks not started and has every worker stop the kernel it runs, which
returns within a few thousand positions.
"""

import collections
import functools
import json
import os
import threading
import time
import uuid
from pathlib import Path

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..core.errors import PuzzleError, SearchLimitError
from ..core.hashing import popcount
from ..core.limits import (INTERRUPTED, MARGIN, RUNNING, STOP_MASK, active, check, note,
                           stop_reason, watch)
from ..core.jit import jit, kernel
from ..core.memory import check_fits
from .expand import MEMO_WORDS, code_at, push
from .packed import front_words, packed_bytes, table_words

#: The parts held by this process's worker(s): ``(run, part) -> _Part``.
_PARTS = {}
#: The runs whose parts were let go (:func:`_drop_run`): a part an unfinished task of one of them
#: makes afterwards is not kept. Changes to both under :data:`_PARTS_LOCK` (tasks run in the
#: worker's threads, :func:`_drop_run` in its event loop).
_GIVEN_UP = set()
_PARTS_LOCK = threading.Lock()
#: The format of a checkpoint folder's record.
CHECKPOINT_FORMAT = "puzzlelib-dask-layers-2"
#: How often (seconds) the client asks the scheduler which workers are left while it waits.
LOOK_FOR_LOST = 1.0


class WorkerLost(Exception):
    """A worker holding a part left the cluster (the client recovers from the saved layers)."""


#: Ranks are dealt to the parts in blocks of ``2**BLOCK_SHIFT`` (a whole number of table and
#: frontier words), block ``b`` to part ``b % P``: a layer's positions, which gather in some
#: stretches of ranks, are then shared about evenly among the parts (with contiguous parts a
#: layer can fall mostly in one; benchmarks/RESULTS.md, "Dask with streamed batches").
BLOCK_SHIFT = 12
_BLOCK_MASK = (1 << BLOCK_SHIFT) - 1


def part_sizes(n, n_parts):
    """The ranks of each of ``n_parts`` parts of the ranks ``0..n-1`` (see :data:`BLOCK_SHIFT`)."""
    full, tail = divmod(n, 1 << BLOCK_SHIFT)
    sizes = np.array([max(0, (full - i + n_parts - 1) // n_parts) << BLOCK_SHIFT
                      for i in range(n_parts)], dtype=np.int64)
    sizes[full % n_parts] += tail
    return sizes


def global_ranks(local, i, n_parts):
    """The ranks of the local ranks ``local`` of part ``i`` (of ``n_parts``)."""
    local = np.asarray(local, dtype=np.int64)
    return (((local >> BLOCK_SHIFT) * n_parts + i) << BLOCK_SHIFT) | (local & _BLOCK_MASK)


def local_ranks(ranks, n_parts):
    """``(part, local rank)`` of each of ``ranks``."""
    ranks = np.asarray(ranks, dtype=np.int64)
    block = ranks >> BLOCK_SHIFT
    return block % n_parts, ((block // n_parts) << BLOCK_SHIFT) | (ranks & _BLOCK_MASK)


class _Part:
    """A part's packed table on its worker: part ``i`` of ``n_parts``, ``m`` ranks (see
    :data:`BLOCK_SHIFT`)."""

    def __init__(self, space, i, n_parts, m):
        self.space, self.i, self.n_parts, self.m = space, i, n_parts, m
        self.table = np.full(table_words(m), np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
        self.front = np.zeros(front_words(m), dtype=np.uint64)
        self.lock = threading.Lock()  # held by whoever writes the table
        self.inbox = collections.deque()  # batches received while the lock was held
        self.new = 0  # positions of the layer being made marked so far
        self.error = None  # what stopped the marking thread on this part
        self.expanding = False  # whether its layer's expansion runs


# -- kernels -------------------------------------------------------------------------------------

@kernel
def _expand_part(table, front, depth, me, n_parts, a, quota, buf, fill, bits, to_bits, fns, p):
    """Expand the positions of depth ``depth`` among the frontier bits of words ``a..`` of
    part ``me`` of ``n_parts`` (see :data:`BLOCK_SHIFT`), as :func:`.packed._push_words` does
    on one machine: a child in the part gets the next layer's code and frontier bit; a child
    of part ``j`` is written as a local rank of that part to ``buf[j, fill[j]]``, or with
    ``to_bits`` set in the bitmaps ``bits``, a row for each part but this one. Returns at the
    first word with less room left in some buffer than one word's children need, or once
    ``quota`` positions are expanded, or at the end.

    Returns (the word to go on from, positions expanded, children of the part newly reached,
    moves found illegal)."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    kids = np.empty(p.n_moves, dtype=np.int64)
    todo = np.empty(p.n_moves, dtype=np.int64)  # (see expand.push)
    memo = np.full(MEMO_WORDS, -1, dtype=np.int64)
    c = np.uint64(depth % 3)
    old_code = np.uint64((depth + 2) % 3)
    clear_next = np.uint64(3) ^ np.uint64((depth + 1) % 3)
    one = np.uint64(1)
    room = buf.shape[1] - 64 * p.n_moves
    found = 0
    marked = 0
    illegal = 0
    top = 0  # the fullest buffer's count
    for j in range(fill.shape[0]):
        top = max(top, fill[j])
    i = a
    while i < front.shape[0]:
        if top > room or found >= quota:
            break
        if (i & 255) == 0 and stop_reason() != RUNNING:
            break  # (the task's watch raises)
        w = front[i]
        if w == 0:
            i += 1
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
            g = (((r >> BLOCK_SHIFT) * n_parts + me) << BLOCK_SHIFT) | (r & _BLOCK_MASK)
            nk = push(fns, g, p, base, state, kids, 0, todo, memo)
            illegal += p.n_moves - nk
            for t in range(nk):
                r2 = kids[t]
                b2 = r2 >> BLOCK_SHIFT
                j = b2 % n_parts
                x = ((b2 // n_parts) << BLOCK_SHIFT) | (r2 & _BLOCK_MASK)
                if j == me:
                    wi = x >> 5
                    sh = np.uint64((x & 31) << 1)
                    if ((table[wi] >> sh) & np.uint64(3)) == np.uint64(3):
                        table[wi] &= ~(clear_next << sh)
                        front[x >> 6] |= one << np.uint64(x & 63)
                        marked += 1
                elif to_bits:
                    bits[j - 1 if j > me else j, x >> 6] |= one << np.uint64(x & 63)
                else:
                    f = fill[j]
                    buf[j, f] = x
                    fill[j] = f + 1
                    if f + 1 > top:
                        top = f + 1
        if stale != 0:
            front[i] &= ~stale
        i += 1
    return i, found, marked, illegal


@jit
def _set_bits(bits, ranks):
    for r in ranks:
        bits[r >> 6] |= np.uint64(1) << np.uint64(r & 63)


@jit
def _varint(ranks):
    """``ranks`` (sorted, at least 0) as bytes: each difference from the one before (the first
    from -1, less one) in 7-bit groups, lowest first, the high bit set on all but a number's
    last; a repeated rank is written once."""
    return _code_sorted(ranks, 10)


@jit
def _code_sorted(ranks, per):
    """:func:`_varint` with room for ``per`` bytes a rank."""
    out = np.empty(per * ranks.shape[0], dtype=np.uint8)
    k = 0
    prev = -1
    for r in ranks:
        if r == prev:
            continue
        k = _put_delta(out, k, r - prev - 1)
        prev = r
    return out[:k].copy()


@jit
def _put_delta(out, k, d):
    """Write the difference ``d`` at ``out[k]`` as :func:`_varint` codes it (``out`` None:
    only count its bytes); returns the index after it."""
    d = np.uint64(d)
    while d >= np.uint64(128):
        if out is not None:
            out[k] = np.uint8((d & np.uint64(127)) | np.uint64(128))
        k += 1
        d >>= np.uint64(7)
    if out is not None:
        out[k] = np.uint8(d)
    return k + 1


@jit
def _mark(table, front, x, clear, with_front):
    wi = x >> 5
    sh = np.uint64((x & 31) << 1)
    if ((table[wi] >> sh) & np.uint64(3)) == np.uint64(3):
        table[wi] &= ~(clear << sh)
        if with_front:
            front[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
        return 1
    return 0


@jit
def _mark_varint(table, front, data, code, with_front, r, m):
    """Give code ``code`` (and, ``with_front``, the frontier bit) to each unseen rank of the
    delta-coded ``data`` (:func:`_varint`), the first difference taken from rank ``r`` (-1 for
    a whole form); returns how many were unseen and the last rank, or -2 for the last rank if
    a rank reached ``m`` (a damaged file: nothing past it is marked)."""
    clear = np.uint64(3) ^ np.uint64(code)
    new = 0
    d = np.uint64(0)
    s = np.uint64(0)
    for k in range(data.shape[0]):
        if (k & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break
        b = np.uint64(data[k])
        d |= (b & np.uint64(127)) << s
        if b < np.uint64(128):
            if d >= np.uint64(m) or r + np.int64(d) + 1 >= m:
                return new, -2
            r += np.int64(d) + 1
            new += _mark(table, front, r, clear, with_front)
            d = np.uint64(0)
            s = np.uint64(0)
        else:
            s += np.uint64(7)
            if s > np.uint64(63):
                return new, -2
    return new, r


@jit
def _mark_bitmap(table, front, bits, code, with_front, base):
    """As :func:`_mark_varint`, for the ranks of the set bits of ``bits``, its first word
    being word ``base`` of the part's ranks."""
    clear = np.uint64(3) ^ np.uint64(code)
    one = np.uint64(1)
    new = 0
    for i in range(bits.shape[0]):
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break
        w = bits[i]
        while w != 0:
            bit = trailing_zeros(w)
            w &= w - one
            new += _mark(table, front, (base + i) * 64 + bit, clear, with_front)
    return new


@jit
def _layer_word(table, front, code, i):
    """Frontier word ``i`` with only the bits of positions of code ``code`` kept (a layer just
    made)."""
    w = front[i]
    keep = np.uint64(0)
    one = np.uint64(1)
    while w != 0:
        bit = trailing_zeros(w)
        w &= w - one
        if code_at(table, i * 64 + bit) == code:
            keep |= one << np.uint64(bit)
    return keep


@jit
def _layer_bits(table, front, code, lo, hi):
    """The frontier bits of words ``lo..hi-1`` whose positions have code ``code`` (a layer just
    made), and their count."""
    out = np.zeros(hi - lo, dtype=np.uint64)
    n = 0
    for i in range(lo, hi):
        out[i - lo] = _layer_word(table, front, code, i)
        n += popcount(out[i - lo])
    return out, n


@jit
def _layer_ranks(table, front, code, limit):
    """The first ``limit`` ranks of the positions with code ``code`` among the frontier bits
    (a layer just made), and how many there are in all (no bitmap of the part made)."""
    out = np.empty(limit, dtype=np.int64)
    one = np.uint64(1)
    n = 0
    for i in range(front.shape[0]):
        w = _layer_word(table, front, code, i)
        while w != 0:
            if n < limit:
                out[n] = i * 64 + trailing_zeros(w)
            w &= w - one
            n += 1
    return out[:min(n, limit)].copy(), n


@jit
def _layer_deltas(table, front, code, lo, hi, r, out):
    """The ranks of words ``lo..hi-1`` whose positions have code ``code``, delta-coded as
    :func:`_varint` codes them, the first from rank ``r``, into ``out`` (``out=None``: only
    counted); returns the bytes, the ranks and the last rank."""
    one = np.uint64(1)
    k = 0
    n = 0
    for i in range(lo, hi):
        w = _layer_word(table, front, code, i)
        while w != 0:
            x = i * 64 + trailing_zeros(w)
            w &= w - one
            k = _put_delta(out, k, x - r - 1)
            r = x
            n += 1
    return k, n, r


@jit
def _deltas_of_bits(bits, limit):
    """The ranks of the set bits of ``bits`` delta-coded (:func:`_varint`) if that takes at
    most ``limit`` bytes (else None), made without a list of the ranks."""
    out = np.empty(limit + 10, dtype=np.uint8)  # (room for the number that passes the limit)
    one = np.uint64(1)
    k = 0
    r = -1
    for i in range(bits.shape[0]):
        w = bits[i]
        while w != 0:
            x = i * 64 + trailing_zeros(w)
            w &= w - one
            k = _put_delta(out, k, x - r - 1)
            r = x
            if k > limit:
                return None
    return out[:k].copy()


def _smaller_form(ranks, m):
    """Sorted distinct ranks of a part of ``m`` ranks as the smaller of a delta-coded byte
    string and a bitmap."""
    data = _varint(ranks)
    if data.nbytes <= 8 * front_words(m):
        return data
    bits = np.zeros(front_words(m), dtype=np.uint64)
    _set_bits(bits, ranks)
    return bits


def _bitmap_form(bits, count, m):
    """A bitmap of ``count`` set bits as the smaller form (see :func:`_smaller_form`)."""
    if count < bits.nbytes:  # sparse enough that the deltas (a byte or more each) may be shorter
        data = _deltas_of_bits(bits, bits.nbytes - 1)
        if data is not None:
            return data
    return bits


def _mark_form(table, front, form, code, with_front):
    """Mark the ranks of a form (a list of forms: each in turn); returns how many were new."""
    if isinstance(form, list):
        return sum(_mark_form(table, front, f, code, with_front) for f in form)
    if form.dtype == np.uint8:
        return int(_mark_varint(table, front, form, np.uint64(code), with_front, -1,
                                64 * front.shape[0])[0])
    return int(_mark_bitmap(table, front, form, np.uint64(code), with_front, 0))


@jit
def _sorted_varint(ranks, tmp, m):
    """The distinct values of ``ranks`` (each in ``0..m-1``) sorted and delta-coded as
    :func:`_varint` codes them: sorted by a radix sort of 11 bits a pass (``tmp``: scratch of
    the same length; ``ranks`` is left in some order), so that a batch costs a few
    nanoseconds a rank, not a comparison sort's hundred."""
    n = ranks.shape[0]
    width = 1
    while (np.int64(1) << width) < m:
        width += 1
    src = ranks
    dst = tmp[:n]
    count = np.empty(2049, dtype=np.int64)
    for shift in range(0, width, 11):
        count[:] = 0
        for x in src:
            count[((x >> shift) & 2047) + 1] += 1
        for d in range(1, 2049):
            count[d] += count[d - 1]
        for x in src:
            d = (x >> shift) & 2047
            dst[count[d]] = x
            count[d] += 1
        src, dst = dst, src
    return _code_sorted(src, (width + 6) // 7)


def _batch_form(ranks, tmp, m):
    """A batch of children for a part of ``m`` ranks (local ranks, in any order, repeats
    allowed) as the smaller of its sorted deltas and a bitmap of the part's ranks."""
    data = _sorted_varint(ranks, tmp, m)
    if data.nbytes <= 8 * front_words(m):
        return data
    bits = np.zeros(front_words(m), dtype=np.uint64)
    _set_bits_varint(bits, data)
    return bits


@jit
def _set_bits_varint(bits, data):
    """Set the bits of the ranks of the delta-coded ``data`` (:func:`_varint`)."""
    r = -1
    d = np.uint64(0)
    s = np.uint64(0)
    for k in range(data.shape[0]):
        b = np.uint64(data[k])
        d |= (b & np.uint64(127)) << s
        if b < np.uint64(128):
            r += np.int64(d) + 1
            bits[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
            d = np.uint64(0)
            s = np.uint64(0)
        else:
            s += np.uint64(7)


@jit
def _popcount(bits):
    """The set bits of a bitmap."""
    n = 0
    for w in bits:
        n += popcount(w)
    return n


# -- tasks (run on the workers) ----------------------------------------------------------------

def _worker_memory_limit():
    """This worker's ``memory_limit`` less the limits' margin (None: no worker, or none set)."""
    try:
        from distributed import get_worker
        limit = get_worker().memory_manager.memory_limit
    except (ImportError, ValueError, AttributeError):
        return None
    return int(limit * (1 - MARGIN)) if limit else None


def _watched(fn):
    """Run the task ``fn`` inside a watch of its worker's memory (see the module)."""
    @functools.wraps(fn)
    def task(*args):
        try:
            with watch(_worker_memory_limit(), None, "a Dask part"):
                return fn(*args)
        except KeyboardInterrupt:  # halted by the client (_halt), which waits for nothing
            return None
        except WorkerLost:  # a worker it sent to is gone: the client sees it and starts over
            return None
    return task


def _halt():
    """Run on every worker by the client that stops: the task running there stops (its kernel
    at its next look at the stop word) and returns None to a client that no longer waits."""
    w = active()
    if w is not None:
        w._stop(INTERRUPTED)


def _warm(space):
    """Compile the kernels in this worker's process (or load them from numba's cache)."""
    part = _Part(space, 0, 2, 64)
    buf = np.zeros((2, 64 * space.params.n_moves + 1), dtype=np.int64)
    fill = np.zeros(2, dtype=np.int64)
    for dense in (False, True):
        _expand_part(part.table, part.front, 0, 0, 2, 0, 1, buf, fill,
                     np.zeros((1, 1), dtype=np.uint64), dense, space.fns, space.params)
    empty = np.zeros(1, dtype=np.uint64)
    _mark_form(part.table, part.front, _varint(np.zeros(1, dtype=np.int64)), 0, True)
    _mark_form(part.table, part.front, empty, 0, True)
    _bitmap_form(*_layer_bits(part.table, part.front, np.uint64(0), 0, 1), 64)
    out = np.empty(FILE_BYTES, dtype=np.uint8)
    for o in (None, out):
        _layer_deltas(part.table, part.front, np.uint64(0), 0, 1, -1, o)
    _popcount(empty)
    _set_bits(empty, np.zeros(1, dtype=np.int64))
    _set_bits_varint(empty, _varint(np.zeros(1, dtype=np.int64)))
    _batch_form(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), 64)
    _layer_ranks(part.table, part.front, np.uint64(0), 1)


def _layer_file(folder, i, depth):
    return Path(folder) / f"part{i:05d}-{depth:04d}.npy"


#: Frontier words a layer file is written or read in at a time (2**20 ranks).
FILE_WORDS = 1 << 14
#: Bytes of the scratch that writing or reading a layer file takes (see :func:`_write_layer`).
FILE_BYTES = 8 * FILE_WORDS + 10 + 3 * 64 * FILE_WORDS


def _write_layer(folder, part, depth):
    """Write ``part``'s layer ``depth`` (the frontier positions with code ``depth % 3``) to its
    file in ``folder``, by an atomic rename: an ``.npy`` array of the layer in the smaller of
    the two forms (:func:`_smaller_form`), made and written a slice of the part at a time, so
    that saving takes :data:`FILE_BYTES` of memory whatever the part's size."""
    path = _layer_file(folder, part.i, depth)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    code = np.uint64(depth % 3)
    words = part.front.shape[0]
    size = _layer_deltas(part.table, part.front, code, 0, words, -1, None)[0]
    deltas = size <= 8 * words
    dtype = np.dtype(np.uint8 if deltas else np.uint64)
    out = np.empty(FILE_BYTES, dtype=np.uint8)
    r = -1
    try:
        with open(tmp, "wb") as fh:
            np.lib.format.write_array_header_1_0(fh, {
                "descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
                "shape": (int(size) if deltas else words,)})
            for lo in range(0, words, FILE_WORDS):
                hi = min(lo + FILE_WORDS, words)
                if deltas:
                    k, _, r = _layer_deltas(part.table, part.front, code, lo, hi, r, out)
                    fh.write(out[:k].data)
                else:
                    fh.write(_layer_bits(part.table, part.front, code, lo, hi)[0].data)
                check()
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _read_layer(path, part, code, with_front):
    """Mark the positions of a layer file (:func:`_write_layer`) in ``part`` with code
    ``code`` (and their frontier bits, ``with_front``), a slice of the file at a time; returns
    how many were new. A file that is not a whole layer of this part raises ``ValueError``."""
    table, front, m = part.table, part.front, part.m
    new = 0
    with open(path, "rb") as fh:
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
        if dtype not in (np.uint8, np.uint64) or len(shape) != 1:
            raise ValueError(f"an array of {dtype} and shape {shape}")
        n = shape[0]
        if dtype == np.uint64:
            if n != front.shape[0]:
                raise ValueError(f"a bitmap of {n} words, for a part of {front.shape[0]}")
            for lo in range(0, n, FILE_WORDS):
                bits = np.fromfile(fh, np.uint64, min(FILE_WORDS, n - lo))
                if len(bits) < min(FILE_WORDS, n - lo):
                    raise ValueError("the file is cut short")
                if lo + len(bits) == n and m % 64:
                    bits[-1] &= np.uint64((1 << (m % 64)) - 1)  # (no rank past the part's)
                new += int(_mark_bitmap(table, front, bits, code, with_front, lo))
                check()
        else:
            new = _read_deltas(fh, n, part, code, with_front)
        if fh.read(1):
            raise ValueError("bytes after the layer")
    return new


def _read_deltas(fh, n, part, code, with_front):
    """:func:`_read_layer`'s reading of ``n`` bytes of deltas from ``fh``."""
    new = 0
    r, rest, left = -1, np.zeros(0, dtype=np.uint8), n
    while left:
        chunk = np.fromfile(fh, np.uint8, min(FILE_BYTES, left))
        if len(chunk) == 0:
            raise ValueError("the file is cut short")
        left -= len(chunk)
        data = np.concatenate([rest, chunk])
        ends = np.flatnonzero(data < 128)
        cut = int(ends[-1]) + 1 if len(ends) else 0
        k, r = _mark_varint(part.table, part.front, data[:cut], code, with_front, r, part.m)
        if r == -2:
            raise ValueError("a rank past the part's")
        new += int(k)
        rest = data[cut:]
        if len(rest) > 10:
            raise ValueError("a number of more than ten bytes")
        check()
    if len(rest):
        raise ValueError("the file ends inside a number")
    return new


@_watched
def _init_part(run, i, n_parts, m, space, starts, folder, depth):
    """Make part ``i``: the starts marked (``depth`` None), or its layers ``0..depth`` read
    from ``folder``; with ``folder``, a new part's layer 0 is saved there."""
    part = _Part(space, i, n_parts, m)
    if depth is None:
        owner, local = local_ranks(starts, n_parts)
        new = _mark_form(part.table, part.front, _smaller_form(local[owner == i], m), 0, True)
        if folder is not None:
            _write_layer(folder, part, 0)
    else:
        new = 0
        for d in range(depth + 1):
            path = _layer_file(folder, i, d)
            try:
                new = _read_layer(path, part, np.uint64(d % 3), d == depth)
            except (OSError, ValueError, EOFError) as e:
                raise PuzzleError(f"checkpoint folder {folder}: {path.name} (part {i}, layer "
                                  f"{d}) cannot be read ({str(e).splitlines()[0]}); give "
                                  f"another folder") from None
    with _PARTS_LOCK:
        if run not in _GIVEN_UP:  # (a run the client gave up while this task ran: no part kept)
            _PARTS[(run, i)] = part
    return new


#: Bytes of buffers a part expands into: its batches for the other parts (split between them)
#: and, in the large layers of small tables, the bitmaps of their ranks (see :func:`_dense`).
BUFFER_BYTES = 64 << 20
#: Positions a part expands between two looks at the batches it received (and at a stop).
SLICE = 1 << 18
#: Batches one part may have on their way to another before it waits for the first.
IN_FLIGHT = 2
#: Batches a part's inbox may hold before a call bringing another waits for it to be marked.
INBOX = 8


def buffer_ranks(n_parts, n_moves, m):
    """Ranks of a part's buffer for each other part: :data:`BUFFER_BYTES` split between them,
    no more than a 64th of a part's ranks ``m`` (a small part's buffer, 8 bytes a rank, then
    holds as much as its packed table), and room for two words' children at least."""
    return max(min(BUFFER_BYTES // 8 // max(n_parts - 1, 1), m // 64), 128 * int(n_moves))


def _varint_bytes(m):
    """The most bytes :func:`_varint` gives a rank of a part of ``m`` ranks."""
    return max(-(-int(m - 1).bit_length() // 7), 1)


def worker_bytes(n, n_parts, n_moves, saves=False):
    """Bytes a part takes on its worker at the most: its packed table; its buffers and their
    sorting scratch, or the bitmaps of a large layer (see :func:`_dense`); the batches on
    their way to it; and, when its layers are saved, the scratch of a layer file
    (:data:`FILE_BYTES`)."""
    m = int(part_sizes(n, n_parts).max())
    k = buffer_ranks(n_parts, n_moves, m)
    bitmap = 8 * front_words(m)
    batch = min(_varint_bytes(m) * k, bitmap)
    sparse = 8 * k * (n_parts + 1) + batch
    dense = (n_parts - 1) * bitmap if _may_be_dense(n, n_parts) else 0
    return (packed_bytes(m) + max(sparse, dense) + (INBOX + (n_parts - 1) * IN_FLIGHT) * batch
            + (FILE_BYTES if saves else 0))


_MARKER = []  # (the queue of the parts with batches to mark, its thread), once started
_MARKER_LOCK = threading.Lock()


def _drain(part):
    """Mark the batches in ``part``'s inbox (its lock held)."""
    while part.inbox:
        depth, form = part.inbox.popleft()
        part.new += _mark_form(part.table, part.front, form, (depth + 1) % 3, True)


def _help(part):
    """Mark ``part``'s inbox if nobody writes its table now (for a part that waits)."""
    if part is not None and part.inbox and part.lock.acquire(blocking=False):
        try:
            _drain(part)
        finally:
            part.lock.release()


def _marker(parts):
    """This process's marking thread: marks the batches of each part handed to it, unless the
    part is expanding (it marks them itself once its own batches are sent); an error is kept
    for the part's next task."""
    while True:
        part = parts.get()
        if part.expanding:
            continue
        try:
            with part.lock:
                _drain(part)
        except BaseException as e:  # noqa: BLE001 (raised again by the part's next task)
            part.error = e


def _deliver(run, j, depth, form, own=None):
    """Give part ``j`` (of ``run``, held in this process) a batch of its children of layer
    ``depth``: put in its inbox, to be marked by the part once it has sent its own batches
    (or sooner if the inbox fills), or by this process's marking thread (:func:`_marker`)
    when the part is not expanding; the sender need not wait for the marking. While the inbox
    is full this waits, marking the batches of ``own`` (the sender's part, if in this
    process) meanwhile. False when the part is not here (any more)."""
    part = _PARTS.get((run, j))
    if part is None:
        return False
    while len(part.inbox) >= INBOX and (run, j) in _PARTS:
        _help(own)
        time.sleep(0.001)
    part.inbox.append((depth, form))
    if not _MARKER:
        with _MARKER_LOCK:
            if not _MARKER:
                import queue
                parts = queue.SimpleQueue()
                thread = threading.Thread(target=_marker, args=(parts,), daemon=True,
                                          name="puzzlelib-marker")
                thread.start()
                _MARKER.append((parts, thread))
    _MARKER[0][0].put(part)
    return True


#: The name of the workers' handler for batches (see :func:`_open_door`).
DOOR = "puzzlelib_batch"


async def _door(comm, run=None, j=None, depth=None, form=None):
    """A worker's handler for another worker's batch: :func:`_deliver` in a thread (it may
    wait for a full inbox), not on the worker's event loop."""
    import asyncio

    return await asyncio.to_thread(_deliver, run, j, depth, form)


def _open_door(dask_worker):
    """Run on every worker (``Client.run``): let it take batches sent to :data:`DOOR`."""
    dask_worker.handlers[DOOR] = _door


class _Sender:
    """A part's batches on their way to the other parts while it expands: a part held by this
    worker gets them straight away, another through its worker's handler (:data:`DOOR`: worker
    to worker, on this worker's event loop), with at most
    :data:`IN_FLIGHT` on their way to each before the part waits (marking its own inbox
    meanwhile, so that two parts waiting for each other go on)."""

    def __init__(self, run, i, depth, owner):
        from distributed import get_worker

        self.run, self.i, self.depth = run, i, depth
        self.part = _PARTS[(run, i)]
        self.owner = owner
        self.worker = get_worker()
        self.here = self.worker.address
        self.flying = {}
        self.sent = 0

    def send(self, j, form):
        self.sent += form.nbytes
        if self.owner[j] == self.here:
            if not _deliver(self.run, j, self.depth, form, self.part):
                raise WorkerLost(self.here)  # (this run's parts were let go here)
            return
        queue = self.flying.setdefault(j, collections.deque())
        while len(queue) >= IN_FLIGHT:
            self._wait(queue.popleft())
        queue.append(self._post(self.owner[j], j, form))

    def _post(self, addr, j, form):
        """Send a batch to the worker at ``addr``: a future of its answer."""
        import asyncio

        from distributed.protocol import to_serialize

        async def call():
            door = getattr(self.worker.rpc(addr), DOOR)
            return await door(run=self.run, j=int(j), depth=self.depth,
                              form=to_serialize(form))

        return asyncio.run_coroutine_threadsafe(call(), self.worker.loop.asyncio_loop)

    def finish(self):
        """Wait until every batch sent has been received."""
        for queue in self.flying.values():
            while queue:
                self._wait(queue.popleft())

    def _wait(self, future):
        pause = 0.0005
        while not future.done():
            check()
            if (self.run, self.i) not in _PARTS:  # the client gave this run up (a lost worker)
                raise WorkerLost(self.here)
            _help(self.part)
            time.sleep(pause)
            pause = min(2 * pause, 0.02)
        try:
            taken = future.result()
        except OSError:  # (the connection to a worker that died)
            taken = False
        if not taken:
            raise WorkerLost(self.here)


@_watched
def _expand_task(run, i, depth, sizes, dense, owner):
    """Expand part ``i``'s layer ``depth``, streaming its children in other parts to them as it
    goes: in buffers sent as sorted batches whenever one fills, or when ``dense`` (as many
    children as a bitmap's bytes are expected, and the bitmaps fit :data:`BUFFER_BYTES`) set
    in a bitmap a part, sent at the end (see the module). The batches it receives meanwhile
    are marked once its own are sent (when every part's bitmaps go at the end of a layer,
    each part then marks what it received while the others do), or between two slices of its
    frontier once its inbox is half full. Returns (positions expanded, children generated,
    bytes sent)."""
    part = _PARTS[(run, i)]
    space = part.space
    p = space.params
    n_parts = len(sizes)
    k = buffer_ranks(n_parts, p.n_moves, int(sizes.max()))
    if dense:
        bits = np.zeros((n_parts - 1, front_words(int(sizes.max()))), dtype=np.uint64)
        buf = np.empty((n_parts, 64 * p.n_moves + 1), dtype=np.int64)
        tmp = np.empty(0, dtype=np.int64)
    else:
        bits = np.zeros((1, 1), dtype=np.uint64)
        buf = np.empty((n_parts, k), dtype=np.int64)
        tmp = np.empty(k, dtype=np.int64)
    room = buf.shape[1] - 64 * p.n_moves
    out = _Sender(run, i, depth, owner)
    fill = np.zeros(n_parts, dtype=np.int64)
    found = illegal = 0
    a = 0
    words = len(part.front)
    part.expanding = True
    try:
        while a < words:
            with part.lock:
                a, f, mk, il = _expand_part(part.table, part.front, depth, i, n_parts, a,
                                            SLICE, buf, fill, bits, dense, space.fns, p)
                part.new += mk
                if len(part.inbox) >= INBOX // 2:
                    _drain(part)
            check()
            if part.error is not None:
                raise part.error
            found, illegal = found + f, illegal + il
            for j in np.flatnonzero(fill > room):
                out.send(j, _batch_form(buf[j, :fill[j]], tmp, int(sizes[j])))
                fill[j] = 0
        for j in np.flatnonzero(fill):
            out.send(j, _batch_form(buf[j, :fill[j]], tmp, int(sizes[j])))
        if dense:
            for j in range(n_parts):
                if j != i:
                    row = bits[j - 1 if j > i else j, :front_words(int(sizes[j]))]
                    count = int(_popcount(row))
                    if count:
                        out.send(j, _bitmap_form(row, count, int(sizes[j])))
    finally:
        part.expanding = False
    with part.lock:
        _drain(part)
    out.finish()
    return found, found * int(p.n_moves) - illegal, out.sent


@_watched
def _absorb_task(run, j, depth, folder, *expanded):
    """Part ``j``'s layer ``depth + 1`` is made (every part's expansion, given as
    ``expanded``, has had its batches received): mark what is left in its inbox, save the
    layer to ``folder`` if given, and return how many positions it holds."""
    part = _PARTS[(run, j)]
    code = (depth + 1) % 3
    with part.lock:
        _drain(part)
        new, part.new = part.new, 0
    if part.error is not None:
        raise part.error
    if folder is not None:
        _write_layer(folder, part, depth + 1)
    return new


def _last_layer(run, i, depth, limit):
    part = _PARTS[(run, i)]
    ranks, count = _layer_ranks(part.table, part.front, np.uint64(depth % 3), limit)
    return global_ranks(ranks, i, part.n_parts), int(count)


def _drop_part(run, i):
    _PARTS.pop((run, i), None)


async def _drop_run(run):
    """Let the parts of ``run`` go (a coroutine, so that the client need not wait for it), and
    any that a task still running makes (:data:`_GIVEN_UP`)."""
    with _PARTS_LOCK:
        _GIVEN_UP.add(run)
        for k in [k for k in _PARTS if k[0] == run]:
            del _PARTS[k]


def _part_bytes():
    """The packed tables this worker holds (bytes)."""
    return sum(p.table.nbytes + p.front.nbytes for p in _PARTS.values())


# -- the client's side ---------------------------------------------------------------------------

def worker_addresses(client):
    """The cluster's workers, in a fixed order, with their memory limits (bytes; 0: none).

    Asked of the scheduler directly: ``Client.scheduler_info`` returns a cached record that the
    client's periodic refresh may overwrite with one listing no workers at all."""
    info = client.sync(client.scheduler.identity, n_workers=-1)["workers"]
    return [(addr, int(info[addr].get("memory_limit") or 0)) for addr in sorted(info)]


def worker_threads(client):
    """The threads of every worker, added up."""
    info = client.sync(client.scheduler.identity, n_workers=-1)["workers"]
    return sum(int(w.get("nthreads") or 1) for w in info.values())


def warm_workers(client, space):
    """Have every worker compile the kernels for ``space`` (or load them from numba's cache),
    so that a search's time holds none of it."""
    workers = [addr for addr, _ in worker_addresses(client)]
    client.gather([client.submit(_warm, space, workers=[w], allow_other_workers=False,
                                 pure=False) for w in workers])


#: Bytes a position the saved layers of a whole search may take (the 2x5's folder on two
#: parts held 1.03; a margin on top).
SAVED_BYTES = 1.25


def _prepare_folder(folder, n_ranks):
    """Make the checkpoint folder and check its disk has room for the layers (one line if
    not)."""
    from ..core.memory import human
    from .packed import _bytes_free

    if folder.exists() and not folder.is_dir():
        raise PuzzleError(f"{folder} is a file, not the folder of a search's saved layers: "
                          f"give another checkpoint path")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PuzzleError(f"cannot make the checkpoint folder {folder}: {e.strerror or e}")
    need = int(SAVED_BYTES * n_ranks) - sum(p.stat().st_size for p in folder.glob("part*.npy"))
    free = _bytes_free(folder)
    if free is not None and need > free:
        raise PuzzleError(f"saving every layer of this search needs about {human(need)} on the "
                          f"disk of {folder}, which has {human(free)} free: free some, or give "
                          f"checkpoint another path")


def _record_path(folder):
    return Path(folder) / "layers.json"


def _read_record(folder, key):
    """The layers a checkpoint folder records for a search of ``key``: ``(parts, counts)``,
    or None when it holds none. A folder of another search is refused."""
    path = _record_path(folder)
    if not path.exists():
        return None
    try:
        rec = json.loads(path.read_text())
        if rec.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"format {rec.get('format')!r}")
    except (OSError, ValueError) as e:
        raise PuzzleError(f"checkpoint folder {folder}: its record {path.name} cannot be read "
                          f"({e}); give another folder")
    if rec["key"] != key:
        raise PuzzleError(f"checkpoint folder {folder} holds the layers of another search "
                          f"({rec['key']['label']} from rank {rec['key']['starts'][:3]}); give "
                          f"another folder")
    if rec.get("block_shift") != BLOCK_SHIFT:
        raise PuzzleError(f"checkpoint folder {folder}: its parts are cut otherwise (blocks of "
                          f"2**{rec.get('block_shift')} ranks); give another folder")
    return int(rec["parts"]), [int(c) for c in rec["counts"]]


def _write_record(folder, key, n_parts, counts):
    path = _record_path(folder)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps({"format": CHECKPOINT_FORMAT, "key": key,
                               "parts": int(n_parts), "block_shift": BLOCK_SHIFT,
                               "counts": counts}))
    os.replace(tmp, path)


class _Cluster:
    """The client's view of the parts: which worker holds each, in which run."""

    def __init__(self, client, n_parts):
        self.client = client
        self.submitted = []
        self.run = None
        self.owner = []
        self.n_parts = n_parts
        self.lost = 0
        self._looked = 0.0

    def assign(self):
        """Give the parts to the workers there are now, round robin, under a new run."""
        workers = self._wait_for_workers()
        self.owner = [workers[i % len(workers)] for i in range(self.n_parts)]
        self.run = uuid.uuid4().hex
        self.client.run(_open_door, workers=sorted(set(self.owner)))

    def _wait_for_workers(self, patience=60.0):
        t0 = time.monotonic()
        while True:
            workers = [addr for addr, _ in worker_addresses(self.client)]
            if workers:
                return workers
            if time.monotonic() - t0 > patience:
                raise SearchLimitError(f"no Dask worker left after {patience:.0f} s")
            check()
            time.sleep(0.2)

    def on(self, i, fn, *args):
        future = self.client.submit(fn, *args, workers=[self.owner[i]],
                                    allow_other_workers=False, pure=False)
        self.submitted.append(future)
        return future

    def gather(self, futures):
        """The results of ``futures``; raises :class:`WorkerLost` when a worker holding a part
        leaves the cluster while they run."""
        from distributed import TimeoutError as DaskTimeout
        from distributed import wait

        while True:
            try:
                wait(futures, timeout=0.25)
            except (DaskTimeout, TimeoutError):
                pass
            check()
            if all(f.done() for f in futures):
                break
            now = time.monotonic()
            if now - self._looked >= LOOK_FOR_LOST:
                self._looked = now
                self._look_for_lost()
        try:
            return self.client.gather(futures)
        except Exception as e:  # noqa: BLE001 (a worker gone shows as many kinds of error)
            self._look_for_lost()
            raise e

    def _look_for_lost(self):
        left = {addr for addr, _ in worker_addresses(self.client)}
        gone = sorted(set(self.owner) - left)
        if gone:
            raise WorkerLost(gone[0])

    def forget(self):
        """Cancel what this run still has to do and let its parts go (without waiting)."""
        pending = [f for f in self.submitted if not f.done()]
        self.submitted = []
        try:
            self.client.cancel(pending)
        except Exception:  # noqa: BLE001
            pass
        try:  # on the workers left (a task for one gone would wait for it for ever)
            self.client.run(_drop_run, self.run, wait=False, on_error="ignore")
        except Exception:  # noqa: BLE001
            pass


def dask_bfs(client, space, n_ranks, start_ranks, progress=None, max_depth=None,
             farthest_limit=1000, n_parts=None, checkpoint=None, key=None):
    """Breadth-first search from ``start_ranks`` over the ranks ``0..n_ranks-1`` of ``space``,
    split into ``n_parts`` parts (default: one per thread of the cluster) on the workers of
    ``client`` (see the module). ``progress(depth, layer_count, total)`` after each layer;
    stops after layer ``max_depth`` if given. ``checkpoint``: a folder every worker reaches, where
    every layer is saved and from which a search resumes (see the module); ``key``: a string
    naming the search (the puzzle and its start), which the folder's record must match.

    Returns ``(counts, farthest_ranks, n_farthest, tally, stopped)``; ``tally``: the children
    generated, the positions expanded, the bytes sent between parts, and the workers lost on
    the way."""
    starts = np.unique(np.asarray(start_ranks, dtype=np.int64))
    if len(starts) == 0 or starts[0] < 0 or starts[-1] >= n_ranks:
        raise ValueError(f"start ranks outside 0..{n_ranks - 1}: {starts[:3].tolist()}")
    folder = None if checkpoint is None else str(checkpoint)
    key = {"label": space.label, "n": int(n_ranks), "starts": [int(s) for s in starts[:16]],
           "n_starts": len(starts), "search": key}
    record = None
    if folder is not None:
        _prepare_folder(Path(folder), n_ranks)
        record = _read_record(folder, key)
    if record is not None:
        n_parts, counts = record
    else:
        if n_parts is None:
            n_parts = max(worker_threads(client), 1)
        counts = None
    sizes = part_sizes(n_ranks, int(n_parts))
    cl = _Cluster(client, len(sizes))
    tally = np.zeros(4, dtype=np.int64)
    stopping = True
    try:
        while True:
            try:
                counts, stopped = _search(cl, space, sizes, starts, counts, folder, key,
                                          progress, max_depth, tally)
                depth = len(counts) - 1
                last = cl.gather([cl.on(i, _last_layer, cl.run, i, depth, farthest_limit)
                                  for i in range(cl.n_parts)])
                break
            except WorkerLost as e:
                tally[3] += 1
                if folder is None:
                    raise SearchLimitError(
                        f"the Dask worker {e.args[0]} left the cluster at depth "
                        f"{len(counts or [0])}: give a checkpoint folder that every worker "
                        f"reaches (checkpoint=, --checkpoint) to go on without it")
                cl.forget()
                rec = _read_record(folder, key)
                counts = None if rec is None else rec[1]
        far = np.sort(np.concatenate([ranks for ranks, _ in last]))[:farthest_limit]
        n_far = sum(k for _, k in last)
        stopping = False
    finally:
        if stopping:
            _stop_workers(cl)
        else:
            cl.client.gather([cl.on(i, _drop_part, cl.run, i) for i in range(cl.n_parts)])
    return counts, far, int(n_far), tally, stopped


def _search(cl, space, sizes, starts, counts, folder, key, progress, max_depth, tally):
    """Make (or rebuild from ``folder``, after the layers ``counts``) the parts, then the
    layers; returns the counts and whether ``max_depth`` stopped it."""
    cl.assign()
    n = cl.n_parts
    depth = None if counts is None else len(counts) - 1
    made = cl.gather([cl.on(i, _init_part, cl.run, i, n, int(sizes[i]),
                            space, starts, folder, depth) for i in range(n)])
    if counts is None:
        counts = [int(sum(made))]
        if folder is not None:
            _write_record(folder, key, n, counts)
    depth = len(counts) - 1
    n_ranks = int(sizes.sum())
    branching = 2.0  # children a position, measured after each layer
    if progress is not None:
        progress(depth, counts[-1], sum(counts))
    while True:
        if max_depth is not None and depth >= max_depth:
            return counts, True
        dense = _dense(counts[-1] * branching / n, n_ranks, n)
        expanded = [cl.on(i, _expand_task, cl.run, i, depth, sizes, dense, cl.owner)
                    for i in range(n)]
        absorbed = [cl.on(j, _absorb_task, cl.run, j, depth, folder, *expanded)
                    for j in range(n)]
        got = cl.gather(absorbed + expanded)  # one wait for both
        if any(g is None for g in got):  # a task gave up on a worker gone (see _watched)
            cl._look_for_lost()
            raise WorkerLost("a worker that did not answer")
        new, mine = int(sum(got[:n])), got[n:]
        cl.submitted = []
        del expanded, absorbed
        for found, generated, sent in mine:
            tally[:3] += (generated, found, sent)
        found = sum(int(t[0]) for t in mine)
        if found:
            branching = sum(int(t[1]) for t in mine) / found
        if new == 0:
            return counts, False
        counts = counts + [new]
        depth += 1
        if folder is not None:
            _write_record(folder, key, n, counts)
        note(depth, sum(counts))
        check()
        if progress is not None:
            progress(depth, new, sum(counts))


def _may_be_dense(n_ranks, n_parts):
    """Whether the bitmaps of the other parts' ranks that a part's large layers would set fit
    in :data:`BUFFER_BYTES` (else every layer sends sorted batches)."""
    m = int(part_sizes(n_ranks, n_parts).max())
    return (n_parts - 1) * 8 * front_words(m) <= BUFFER_BYTES


def _dense(children, n_ranks, n_parts):
    """Whether a part that makes ``children`` children sets them in bitmaps of the other parts'
    ranks rather than sending sorted batches (see the module): only when those bitmaps fit
    (:func:`_may_be_dense`), and then when the ranks would take as much room as the bitmaps,
    or when the bitmaps take no more room than the part's own table and sorting the ranks
    would take longer than clearing and reading the bitmaps."""
    if not _may_be_dense(n_ranks, n_parts):
        return False
    m = n_ranks / n_parts
    bitmaps = (n_ranks - m) / 8
    return 8 * children >= bitmaps or (bitmaps <= 3 * m / 8 and 200 * children >= bitmaps)


def _stop_workers(cl):
    """The search stopped (an error, Ctrl-C, a limit): cancel the tasks not done, stop the
    kernels running on the workers, and let the parts go without waiting."""
    try:
        cl.client.cancel([f for f in cl.submitted if not f.done()])
        cl.client.run(_halt)
    except Exception:  # noqa: BLE001 (a worker gone, a cluster closing: nothing left to stop)
        pass
    if cl.run is not None:
        cl.forget()
