"""Layered breadth-first search on a Dask cluster: the rank space split into packed parts.

The ranks ``0..n-1`` are cut into ``P`` contiguous *parts* (by default one per thread of the
cluster), each held by one worker for the whole search in the layout of the one-machine packed
search (:mod:`.packed`): a position's depth modulo 3 in two bits and one frontier bit, 3/8 of
a byte a position. Each layer is two rounds of tasks, each pinned to the worker of its part:

1. **expand** (:func:`_expand_task`, :func:`_expand_part`): part ``i`` expands its frontier with the shared step
   (:func:`.expand.push`). A child of its own ranks is marked at once, as on one machine; a
   child of part ``j`` goes into a fixed buffer for ``j``. When a buffer fills, the kernel
   returns, the buffer's ranks are sorted and delta-coded (a variable-length byte string,
   :func:`_varint`: a byte or two a rank) into part ``j``'s *outbox*, and the kernel goes on
   where it stopped. Once an outbox's chunks would take more room than a bitmap of part
   ``j``'s ranks it becomes that bitmap, so a worker holds its part, its buffers, and at most
   a bitmap of every other part's ranks besides. In the large layers (:func:`_dense`) the
   kernel sets the children's bits in such bitmaps straight away, with no sorting. What is
   sent is the smaller form.
2. **absorb** (:func:`_absorb_task`): part ``j`` receives its batch from every part (Dask moves
   each from the worker that made it straight to the worker of part ``j``) and marks the
   positions not reached yet with the next layer's code and frontier bit, counting them: the
   counts are exact, since only part ``j`` writes its table.

Parts are expanded top down only: a bottom-up layer would look up the codes of neighbours in
other parts.

**Saved layers and a lost worker.** With a ``checkpoint`` folder that every worker reaches,
each part writes the positions its ``absorb`` reached (the layer, in the smaller of the two
forms) to a file of its own, and the client then writes the folder's record of the layers
done, each file by an atomic rename. When a worker is lost mid-layer the client gives its parts
to the workers left (or to one that joined), has every part rebuilt from its layer files, and
makes the layer again: at most one layer's work is lost, and the counts stay exact. A later
call with the same folder resumes after the last layer recorded. The parts of an earlier try
are keyed by its own run, so a worker that comes back late is not counted twice. Without a
folder a lost worker ends the search with one line saying so.

Limits (:mod:`puzzlelib.core.limits`): each task runs in a watch of its worker's memory (Dask's
``memory_limit``, else what the process may use), so a part that would outgrow its worker stops
with :class:`~puzzlelib.SearchLimitError` (a table too big for its workers is refused before, by
the plan). The client checks its own watch (Ctrl-C, the time limit) while it waits; when it
stops, it cancels the tasks not started and has every worker stop the kernel it runs, which
returns within a few thousand positions.
"""

import functools
import json
import os
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
#: Children a part's buffer for another part holds before they go to its outbox.
BUFFER = 1 << 17
#: The format of a checkpoint folder's record.
CHECKPOINT_FORMAT = "puzzlelib-dask-layers-1"
#: How often (seconds) the client asks the scheduler which workers are left while it waits.
LOOK_FOR_LOST = 1.0


class WorkerLost(Exception):
    """A worker holding a part left the cluster (the client recovers from the saved layers)."""


class _Part:
    """A part's packed table on its worker: ranks ``lo..hi-1`` at local ranks ``0..hi-lo-1``."""

    def __init__(self, space, lo, hi):
        self.space, self.lo, self.hi = space, lo, hi
        m = hi - lo
        self.table = np.full(table_words(m), np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
        self.front = np.zeros(front_words(m), dtype=np.uint64)


# -- kernels -------------------------------------------------------------------------------------

@kernel
def _expand_part(table, front, depth, lo, hi, a, bounds, buf, fill, bits, to_bits, me, fns, p):
    """Expand the positions of depth ``depth`` among the frontier bits of words ``a``.. of a
    part (global ranks ``lo..hi-1``), as :func:`.packed._push_words` does on one machine: a
    child in the part gets the next layer's code and frontier bit; a child of part ``j`` is
    written as a rank of that part to ``buf[j, fill[j]]``, or with ``to_bits`` set in the
    bitmaps ``bits``, a row for each part but this one, part ``me``. Returns at the first word with less room left in some
    buffer than one word's children need, or at the end.

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
    i = a
    while i < front.shape[0]:
        if top > room:
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
            nk = push(fns, lo + r, p, base, state, kids, 0, todo, memo)
            illegal += p.n_moves - nk
            for t in range(nk):
                r2 = kids[t]
                if r2 >= lo and r2 < hi:
                    x = r2 - lo
                    wi = x >> 5
                    sh = np.uint64((x & 31) << 1)
                    if ((table[wi] >> sh) & np.uint64(3)) == np.uint64(3):
                        table[wi] &= ~(clear_next << sh)
                        front[x >> 6] |= one << np.uint64(x & 63)
                        marked += 1
                elif to_bits:
                    j = np.searchsorted(bounds, r2, side="right") - 1
                    x = r2 - bounds[j]
                    bits[j - 1 if j > me else j, x >> 6] |= one << np.uint64(x & 63)
                else:
                    j = np.searchsorted(bounds, r2, side="right") - 1
                    f = fill[j]
                    buf[j, f] = r2 - bounds[j]
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
    """``ranks`` (sorted, distinct, at least 0) as bytes: each difference from the one before
    (the first from -1, less one) in 7-bit groups, lowest first, the high bit set on all but a
    number's last."""
    out = np.empty(10 * ranks.shape[0], dtype=np.uint8)
    k = 0
    prev = -1
    for r in ranks:
        d = np.uint64(r - prev - 1)
        prev = r
        while d >= np.uint64(128):
            out[k] = np.uint8((d & np.uint64(127)) | np.uint64(128))
            k += 1
            d >>= np.uint64(7)
        out[k] = np.uint8(d)
        k += 1
    return out[:k].copy()


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
def _mark_varint(table, front, data, code, with_front):
    """Give code ``code`` (and, ``with_front``, the frontier bit) to each unseen rank of the
    delta-coded ``data`` (:func:`_varint`); returns how many were unseen."""
    clear = np.uint64(3) ^ np.uint64(code)
    new = 0
    r = -1
    d = np.uint64(0)
    s = np.uint64(0)
    for k in range(data.shape[0]):
        if (k & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break
        b = np.uint64(data[k])
        d |= (b & np.uint64(127)) << s
        if b < np.uint64(128):
            r += np.int64(d) + 1
            new += _mark(table, front, r, clear, with_front)
            d = np.uint64(0)
            s = np.uint64(0)
        else:
            s += np.uint64(7)
    return new


@jit
def _mark_bitmap(table, front, bits, code, with_front):
    """As :func:`_mark_varint`, for the ranks of the set bits of ``bits``."""
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
            new += _mark(table, front, i * 64 + bit, clear, with_front)
    return new


@jit
def _layer_bits(table, front, code):
    """The frontier bits of the positions with code ``code`` (a layer just made), and their
    count."""
    out = np.zeros(front.shape[0], dtype=np.uint64)
    one = np.uint64(1)
    n = 0
    for i in range(front.shape[0]):
        w = front[i]
        keep = np.uint64(0)
        while w != 0:
            bit = trailing_zeros(w)
            w &= w - one
            if code_at(table, i * 64 + bit) == code:
                keep |= one << np.uint64(bit)
                n += 1
        out[i] = keep
    return out, n


@jit
def _ranks_of_bits(bits, n):
    out = np.empty(n, dtype=np.int64)
    k = 0
    one = np.uint64(1)
    for i in range(bits.shape[0]):
        w = bits[i]
        while w != 0 and k < n:
            bit = trailing_zeros(w)
            w &= w - one
            out[k] = i * 64 + bit
            k += 1
    return out[:k]


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
        data = _varint(_ranks_of_bits(bits, count))
        if data.nbytes < bits.nbytes:
            return data
    return bits


def _mark_form(table, front, form, code, with_front):
    """Mark the ranks of a form (a list of forms: each in turn); returns how many were new."""
    if isinstance(form, list):
        return sum(_mark_form(table, front, f, code, with_front) for f in form)
    if form.dtype == np.uint8:
        return int(_mark_varint(table, front, form, np.uint64(code), with_front))
    return int(_mark_bitmap(table, front, form, np.uint64(code), with_front))


class _Outbox:
    """The children one part sends another in a layer: each buffer's worth sorted and
    delta-coded as it comes (duplicates between two such chunks are harmless: the owner marks
    a rank once), then a bitmap once the chunks would take more room (see the module)."""

    def __init__(self, m):
        self.m = m
        self.chunks = []
        self.nbytes = 0
        self.bits = None

    def add(self, ranks):
        if self.bits is not None:
            _set_bits(self.bits, ranks)
            return
        data = _varint(np.unique(ranks))
        self.chunks.append(data)
        self.nbytes += data.nbytes
        if self.nbytes > 8 * front_words(self.m):
            self.bits = np.zeros(front_words(self.m), dtype=np.uint64)
            for chunk in self.chunks:
                _set_bits_varint(self.bits, chunk)
            self.chunks = []

    def form(self):
        """What is sent: None when empty, a bitmap or a chunk of deltas (the smaller), or a list
        of chunks."""
        if self.bits is not None:
            return _bitmap_form(self.bits, int(_popcount(self.bits)), self.m)
        if not self.chunks:
            return None
        if len(self.chunks) > 1:
            return self.chunks
        data = self.chunks[0]
        if data.nbytes > 8 * front_words(self.m):
            bits = np.zeros(front_words(self.m), dtype=np.uint64)
            _set_bits_varint(bits, data)
            return bits
        return data


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
    return task


def _halt():
    """Run on every worker by the client that stops: the task running there stops (its kernel
    at its next look at the stop word) and returns None to a client that no longer waits."""
    w = active()
    if w is not None:
        w._stop(INTERRUPTED)


def _warm(space):
    """Compile the kernels in this worker's process (or load them from numba's cache)."""
    part = _Part(space, 0, 64)
    bounds = np.array([0, 64, 128], dtype=np.int64)
    buf = np.zeros((2, 64 * space.params.n_moves + 1), dtype=np.int64)
    fill = np.zeros(2, dtype=np.int64)
    for dense in (False, True):
        _expand_part(part.table, part.front, 0, 0, 64, 0, bounds, buf, fill,
                     np.zeros((1, 1), dtype=np.uint64), dense, 0, space.fns, space.params)
    empty = np.zeros(1, dtype=np.uint64)
    _mark_form(part.table, part.front, _varint(np.zeros(1, dtype=np.int64)), 0, True)
    _mark_form(part.table, part.front, empty, 0, True)
    _bitmap_form(*_layer_bits(part.table, part.front, np.uint64(0)), 64)
    _popcount(empty)
    _set_bits(empty, np.zeros(1, dtype=np.int64))
    _set_bits_varint(empty, _varint(np.zeros(1, dtype=np.int64)))


def _layer_file(folder, i, depth):
    return Path(folder) / f"part{i:05d}-{depth:04d}.npy"


def _save_layer(folder, i, depth, form):
    """Write part ``i``'s layer ``depth`` (a form) by an atomic rename."""
    path = _layer_file(folder, i, depth)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            np.save(fh, form)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return form.nbytes


@_watched
def _init_part(run, i, lo, hi, space, starts, folder, depth):
    """Make part ``i``: the starts marked (``depth`` None), or its layers ``0..depth`` read
    from ``folder``; with ``folder``, a new part's layer 0 is saved there."""
    part = _Part(space, lo, hi)
    if depth is None:
        mine = starts[(starts >= lo) & (starts < hi)] - lo
        form = _smaller_form(mine, hi - lo)
        new = _mark_form(part.table, part.front, form, 0, True)
        if folder is not None:
            _save_layer(folder, i, 0, form)
    else:
        new = 0
        for d in range(depth + 1):
            path = _layer_file(folder, i, d)
            try:
                form = np.load(path)
                if form.dtype not in (np.uint8, np.uint64) or form.ndim != 1:
                    raise ValueError(f"an array of {form.dtype}")
            except (OSError, ValueError, EOFError) as e:
                raise PuzzleError(f"checkpoint folder {folder}: {path.name} (part {i}, layer "
                                  f"{d}) cannot be read ({str(e).splitlines()[0]}); give "
                                  f"another folder") from None
            new = _mark_form(part.table, part.front, form, d % 3, d == depth)
    _PARTS[(run, i)] = part
    return new


@_watched
def _expand_task(run, i, depth, bounds, dense):
    """Expand part ``i``'s layer ``depth``: its children in other parts set in a bitmap a part
    when ``dense`` (as many children as a bitmap's bytes are expected), else collected in
    buffers and outboxes (see the module)."""
    part = _PARTS[(run, i)]
    space, lo, hi = part.space, part.lo, part.hi
    p = space.params
    n_parts = len(bounds) - 1
    sizes = np.diff(bounds)
    if dense:
        bits = np.zeros((n_parts - 1, front_words(int(sizes.max()))), dtype=np.uint64)
        buf = np.empty((n_parts, 64 * p.n_moves + 1), dtype=np.int64)
    else:
        bits = np.zeros((1, 1), dtype=np.uint64)
        buf = np.empty((n_parts, max(BUFFER, 128 * p.n_moves)), dtype=np.int64)
    boxes = [None if j == i else _Outbox(int(sizes[j])) for j in range(n_parts)]
    fill = np.zeros(n_parts, dtype=np.int64)
    found = marked = illegal = 0
    a = 0
    while True:
        a, f, mk, il = _expand_part(part.table, part.front, depth, lo, hi, a, bounds, buf, fill,
                                    bits, dense, i, space.fns, p)
        check()
        found, marked, illegal = found + f, marked + mk, illegal + il
        for j in np.flatnonzero(fill):
            boxes[j].add(buf[j, :fill[j]])
        fill[:] = 0
        if a >= len(part.front):
            break
    if dense:
        forms = [None if j == i else _bitmap_form(
                     row := bits[j - 1 if j > i else j, :front_words(int(sizes[j]))],
                     int(_popcount(row)), int(sizes[j])) for j in range(n_parts)]
    else:
        forms = [None if box is None else box.form() for box in boxes]
    sent = sum(_form_bytes(form) for form in forms)
    generated = found * int(p.n_moves) - illegal
    return forms, marked, found, generated, sent


def _form_bytes(form):
    if form is None:
        return 0
    return sum(f.nbytes for f in form) if isinstance(form, list) else form.nbytes


def _piece(expanded, j):
    return expanded[0][j]


def _tally(expanded):
    return expanded[1:]


@_watched
def _absorb_task(run, j, depth, folder, *forms):
    part = _PARTS[(run, j)]
    code = (depth + 1) % 3
    new = 0
    for form in forms:
        if form is not None:
            new += _mark_form(part.table, part.front, form, code, True)
        check()
    if folder is not None:
        bits, count = _layer_bits(part.table, part.front, np.uint64(code))
        _save_layer(folder, j, depth + 1, _bitmap_form(bits, int(count), part.hi - part.lo))
    return new


def _last_layer(run, i, depth, limit):
    part = _PARTS[(run, i)]
    bits, count = _layer_bits(part.table, part.front, np.uint64(depth % 3))
    return _ranks_of_bits(bits, min(int(count), limit)) + part.lo, int(count)


def _drop_part(run, i):
    _PARTS.pop((run, i), None)


async def _drop_run(run):
    """Let the parts of ``run`` go (a coroutine, so that the client need not wait for it)."""
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


def part_bounds(n, n_parts):
    """Where each of ``n_parts`` parts of ranks ``0..n-1`` starts (and ``n`` at the end): every
    part but the last a whole number of frontier words (64 ranks)."""
    cuts = (np.linspace(0, n, n_parts + 1) // 64).astype(np.int64) * 64
    cuts[-1] = n
    return np.maximum.accumulate(cuts)


def part_bytes(n, n_parts):
    """Bytes of the largest part's packed table."""
    return packed_bytes(int(np.diff(part_bounds(n, n_parts)).max()))


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
    """The layers a checkpoint folder records for a search of ``key``: ``(bounds, counts)``,
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
    return np.array(rec["bounds"], dtype=np.int64), [int(c) for c in rec["counts"]]


def _write_record(folder, key, bounds, counts):
    path = _record_path(folder)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps({"format": CHECKPOINT_FORMAT, "key": key,
                               "bounds": [int(b) for b in bounds], "counts": counts}))
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
        bounds, counts = record
    else:
        if n_parts is None:
            n_parts = max(worker_threads(client), 1)
        bounds = part_bounds(n_ranks, int(n_parts))
        counts = None
    cl = _Cluster(client, len(bounds) - 1)
    tally = np.zeros(4, dtype=np.int64)
    stopping = True
    try:
        while True:
            try:
                counts, stopped = _search(cl, space, bounds, starts, counts, folder, key,
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
        far = np.concatenate([ranks for ranks, _ in last])[:farthest_limit]
        n_far = sum(k for _, k in last)
        stopping = False
    finally:
        if stopping:
            _stop_workers(cl)
        else:
            cl.client.gather([cl.on(i, _drop_part, cl.run, i) for i in range(cl.n_parts)])
    return counts, far, int(n_far), tally, stopped


def _search(cl, space, bounds, starts, counts, folder, key, progress, max_depth, tally):
    """Make (or rebuild from ``folder``, after the layers ``counts``) the parts, then the
    layers; returns the counts and whether ``max_depth`` stopped it."""
    cl.assign()
    n = cl.n_parts
    depth = None if counts is None else len(counts) - 1
    made = cl.gather([cl.on(i, _init_part, cl.run, i, int(bounds[i]), int(bounds[i + 1]),
                            space, starts, folder, depth) for i in range(n)])
    if counts is None:
        counts = [int(sum(made))]
        if folder is not None:
            _write_record(folder, key, bounds, counts)
    depth = len(counts) - 1
    n_ranks = int(bounds[-1])
    branching = 2.0  # children a position, measured after each layer
    if progress is not None:
        progress(depth, counts[-1], sum(counts))
    while True:
        if max_depth is not None and depth >= max_depth:
            return counts, True
        dense = _dense(counts[-1] * branching / n, n_ranks, n)
        expanded = [cl.on(i, _expand_task, cl.run, i, depth, bounds, dense) for i in range(n)]
        absorbed = [cl.on(j, _absorb_task, cl.run, j, depth, folder,
                          *[cl.on(i, _piece, expanded[i], j) for i in range(n)])
                    for j in range(n)]
        tallies = [cl.on(i, _tally, expanded[i]) for i in range(n)]
        got = cl.gather(absorbed + tallies)  # one wait for both
        new, mine = int(sum(got[:n])), got[n:]
        cl.submitted = []
        del expanded, absorbed, tallies
        new += sum(int(t[0]) for t in mine)
        for _, found, generated, sent in mine:
            tally[:3] += (generated, found, sent)
        found = sum(int(t[1]) for t in mine)
        if found:
            branching = sum(int(t[2]) for t in mine) / found
        if new == 0:
            return counts, False
        counts = counts + [new]
        depth += 1
        if folder is not None:
            _write_record(folder, key, bounds, counts)
        note(depth, sum(counts))
        check()
        if progress is not None:
            progress(depth, new, sum(counts))


def _dense(children, n_ranks, n_parts):
    """Whether a part that makes ``children`` children sends them as bitmaps (see the module):
    when the ranks would take as much room as the bitmaps of the other parts, or when those
    bitmaps take no more room than the part's own table and sorting the ranks would take
    longer than clearing and reading the bitmaps (about 100 ns a rank against 0.5 ns a
    byte)."""
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
