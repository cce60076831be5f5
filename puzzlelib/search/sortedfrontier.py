"""Breadth-first search over sorted arrays of 64-bit keys, for spaces too big for hash sets.

:mod:`.frontier` keeps each layer in a hash set: 40-70 bytes per position (slots at most half
full, the pool, parents and moves), and every child costs lookups that miss the caches once the
tables hold tens of millions. The pattern databases of document 004's Tables 2 and 3 search 3.7
and 5.8 billion relaxed positions, in layers of a hundred million and more: three such layers
as hash sets do not fit in 24 GiB.

Here a layer is a sorted array of distinct keys (the domain's compact key, at most 8 bytes,
read as one unsigned 64-bit number): 8 bytes a position. The next layer is found with *delayed
duplicate detection* instead of a lookup per child:

1. each thread writes the children of its share of the layer into a buffer, sorts it (a radix
   sort), drops repeats, and drops the children found in the layer before or the layer itself
   (when every move can be undone, a child of a position at depth ``d`` lies at depth
   ``d - 1``, ``d`` or ``d + 1``; the run is sorted, so each lookup hops forward from the last
   one): a *run* of new positions;
2. runs are merged as they come (two sorted arrays into one, repeats dropped), a new run into
   the last one while they are of similar size, so a key is merged about log2(runs) times;
3. the merged runs are the next layer.

Dropping the known children on the threads, before any merge, keeps what is merged and held
to the new positions: most children of a big layer lead back to the layers before.

Every step is a pass along arrays, which a processor does far faster than scattered lookups,
and step 1, the bulk of the work, is shared among threads. No parent links are kept, so this
search gives layer counts and the layers themselves (what a pattern database is built from),
not paths: :func:`.frontier.frontier_bfs` gives those.
"""

import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np


from ..core.jit import jit, kernel
from ..core.limits import RUNNING, STOP_MASK, check, note, stop_reason
from ..core.contract import ILLEGAL, PLAIN_FRONTIER, play
from ..core.memory import SHARE, available_bytes, human

#: Children each thread writes before sorting them into a run (8 bytes each, twice: the buffer
#: and the sort's scratch).
RUN_KEYS = 1 << 22


@jit
def radix_sort(a, tmp, bits):
    """Sort ``a`` (``uint64``, keys below ``2**bits``) in place, least significant digit first;
    ``tmp`` is scratch of at least ``a``'s length. An even number of passes of at most 11 bits
    (256 to 2,048 buckets), so the result ends in ``a`` without a copy."""
    n = a.shape[0]
    npass = max(2, (bits + 10) // 11)
    npass += npass % 2
    d = (bits + npass - 1) // npass
    r = 1 << d
    mask = np.uint64(r - 1)
    cnt = np.zeros((npass, r), dtype=np.int64)
    for i in range(n):
        x = a[i]
        for k in range(npass):
            cnt[k, (x >> np.uint64(d * k)) & mask] += 1
    src, dst = a, tmp[:n]
    for k in range(npass):
        s = 0
        for b in range(r):
            c = cnt[k, b]
            cnt[k, b] = s
            s += c
        sh = np.uint64(d * k)
        for i in range(n):
            x = src[i]
            b = (x >> sh) & mask
            dst[cnt[k, b]] = x
            cnt[k, b] += 1
        src, dst = dst, src


@jit
def unique_sorted(a):
    """Drop repeats from the sorted ``a`` in place; returns how many distinct keys lead it."""
    n = a.shape[0]
    if n == 0:
        return 0
    m = 1
    for i in range(1, n):
        if a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    return m


@jit
def merge_unique(a, b):
    """The distinct keys of two sorted arrays of distinct keys, sorted."""
    out = np.empty(a.shape[0] + b.shape[0], dtype=np.uint64)
    i = j = k = 0
    while i < a.shape[0] and j < b.shape[0]:
        x = a[i]
        y = b[j]
        if x <= y:
            out[k] = x
            i += 1
            j += x == y
        else:
            out[k] = y
            j += 1
        k += 1
    while i < a.shape[0]:
        out[k] = a[i]
        i += 1
        k += 1
    while j < b.shape[0]:
        out[k] = b[j]
        j += 1
        k += 1
    if 8 * k >= 7 * out.shape[0]:  # few repeats: keep the buffer (a copy would hold both)
        return out[:k]
    return out[:k].copy()


@jit(nogil=True)
def _gallop(a, j, x):
    """The first index ``>= j`` of sorted ``a`` whose key is ``>= x`` (``a.shape[0]`` if none):
    steps of 1, 2, 4, ... from ``j``, then halving, so a short hop costs a few reads."""
    n = a.shape[0]
    if j >= n or a[j] >= x:
        return j
    lo = j  # a[lo] < x throughout
    step = 1
    hi = j + 1
    while hi < n and a[hi] < x:
        lo = hi
        step *= 2
        hi = lo + step
    if hi > n:
        hi = n
    while hi - lo > 1:  # a[lo] < x, and a[hi] >= x or hi == n
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid
        else:
            hi = mid
    return hi


@jit(nogil=True)
def drop_known(a, n, b, c):
    """Drop from the sorted ``a[:n]``, in place, the keys found in sorted ``b`` or sorted
    ``c``; returns how many keys are left at its front. ``a`` may be far shorter than ``b`` and
    ``c`` (a run of children against two whole layers): each lookup hops forward from the last
    one (:func:`_gallop`), so its cost grows with the log of the gap, not the layers' length."""
    j = 0
    m = 0
    k = 0
    for i in range(n):
        x = a[i]
        j = _gallop(b, j, x)
        if j < b.shape[0] and b[j] == x:
            continue
        m = _gallop(c, m, x)
        if m < c.shape[0] and c[m] == x:
            continue
        a[k] = x
        k += 1
    return k


@jit
def _to_word(key, key_len):
    v = np.uint64(0)
    for j in range(key_len):
        v |= np.uint64(key[j]) << np.uint64(8 * j)
    return v


@jit
def _from_word(v, key, key_len):
    for j in range(key_len):
        key[j] = (v >> np.uint64(8 * j)) & np.uint64(255)


@kernel
def _state_keys(states, ffns, p, key_len):
    out = np.empty(states.shape[0], dtype=np.uint64)
    key = np.zeros(key_len, dtype=np.uint8)
    for i in range(states.shape[0]):
        ffns.pack(states[i], p, key)
        out[i] = _to_word(key, key_len)
    return out


@kernel
def _key_states(keys, ffns, p, key_len):
    out = np.empty((keys.shape[0], p.state_len), dtype=np.uint8)
    key = np.zeros(key_len, dtype=np.uint8)
    for i in range(keys.shape[0]):
        _from_word(keys[i], key, key_len)
        ffns.unpack(key, p, out[i])
    return out


@jit
def words_to_bytes(keys, key_len):
    """Keys as rows of ``key_len`` bytes (the form :mod:`.frontier` stores)."""
    out = np.empty((keys.shape[0], key_len), dtype=np.uint8)
    for i in range(keys.shape[0]):
        _from_word(keys[i], out[i], key_len)
    return out


@kernel(nogil=True)
def _child_run(keys, i, end, prev, fns, ffns, p, key_len, bits, out, tmp):
    """Write the children of ``keys[i:end]`` into ``out`` until the next position might not
    fit, sort them, drop repeats and drop those in ``prev`` or ``keys`` (the layers before).
    Returns (the first position not done, the run's length, the children generated): the run
    is ``out[:length]``. Runs without the interpreter lock, so threads can run it side by side,
    each with its own ``p`` (see :func:`thread_params`), ``out`` and ``tmp``."""
    base = np.empty(p.state_len, dtype=np.uint8)
    buf = np.empty(p.state_len, dtype=np.uint8)
    key = np.zeros(key_len, dtype=np.uint8)
    cand = np.empty(p.n_moves, dtype=np.int64)
    n = 0
    while i < end and n + p.n_moves <= out.shape[0]:
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break  # stopped from outside (puzzlelib.core.limits): the caller raises
        _from_word(keys[i], key, key_len)
        ffns.unpack(key, p, base)
        for j in range(p.state_len):
            buf[j] = base[j]
        for c in range(ffns.candidates(base, p, cand)):
            if play(fns, ffns, buf, cand[c], p) == ILLEGAL:
                continue
            ffns.pack(buf, p, key)
            out[n] = _to_word(key, key_len)
            n += 1
            for j in range(p.state_len):
                buf[j] = base[j]
        i += 1
    run = out[:n]
    radix_sort(run, tmp, bits)
    return i, drop_known(run, unique_sorted(run), prev, keys), n


def thread_params(p, n_threads):
    """``n_threads`` copies of a domain's params, arrays copied: params may hold scratch arrays
    that its functions write (block puzzles' flood fills and move marks do), which threads
    must not share."""
    return tuple(type(p)(*(f.copy() if isinstance(f, np.ndarray) else f for f in p))
                 for _ in range(n_threads))


def sorted_keys(keys, bits=64):
    """``keys`` (``uint64``) sorted, repeats dropped (a new array)."""
    a = np.array(keys, dtype=np.uint64)
    radix_sort(a, np.empty_like(a), bits)
    return a[: unique_sorted(a)].copy()


class SortedResult:
    """What :func:`sorted_frontier_bfs` found: ``counts[d]`` positions at depth ``d``; ``last``
    the deepest layer (states); ``peak_bytes`` the most its arrays held at once; ``phases``
    where the seconds went (children made, sorted and the known ones dropped, on the threads;
    runs merged; the caller's ``on_layer``); the children ``generated`` and positions
    ``expanded`` (by this call: a resumed search counts from where it resumed)."""

    def __init__(self, counts, last, peak_bytes, seconds, phases, generated=0, expanded=0):
        self.counts = counts
        self.last = last
        self.peak_bytes = peak_bytes
        self.seconds = seconds
        self.phases = phases
        self.generated, self.expanded = int(generated), int(expanded)

    @property
    def total(self):
        return int(sum(self.counts))


def _room_for(n_keys, depth):
    """Raise :class:`MemoryError` (a message, not the system killing the process) when an array
    of ``n_keys`` keys would not fit in the memory available now."""
    need = 8 * n_keys
    avail = available_bytes()
    if need > SHARE * avail:
        raise MemoryError(
            f"breadth-first search stopped making layer {depth}: merging its children needs "
            f"{human(need)} more, but only {human(avail)} is available")


def _merge(a, b, depth):
    """:func:`merge_unique`, after checking that its result fits (:func:`_room_for`)."""
    _room_for(a.shape[0] + b.shape[0], depth)
    return merge_unique(a, b)


class _Runs:
    """Sorted runs of distinct keys, merged as they come: a run joins the last while that one
    is at most twice its size (so sizes fall along the list and there are about log2 of them)."""

    def __init__(self, depth):
        self.runs = []
        self.depth = depth

    def _merge_last_two(self):
        b = self.runs.pop()
        a = self.runs.pop()
        self.runs.append(_merge(a, b, self.depth))

    def add(self, run):
        self.runs.append(run)
        while len(self.runs) >= 2 and self.runs[-2].shape[0] <= 2 * self.runs[-1].shape[0]:
            self._merge_last_two()

    @property
    def nbytes(self):
        return sum(r.nbytes for r in self.runs)

    def merged(self):
        while len(self.runs) >= 2:
            self._merge_last_two()
        return self.runs[0] if self.runs else np.empty(0, dtype=np.uint64)


def _next_layer(prev, cur, fns, ffns, ps, key_len, bits, outs, tmps, pool, held_before, peak,
                phases, depth, made):
    n_threads = len(ps)
    edges = np.linspace(0, cur.shape[0], n_threads + 1).astype(np.int64)
    pos, end = list(edges[:-1]), list(edges[1:])
    runs = _Runs(depth)

    def work(t):  # (made[t]: this thread's children so far)
        pos[t], n, m = _child_run(cur, pos[t], end[t], prev, fns, ffns, ps[t], key_len, bits,
                                  outs[t], tmps[t])
        made[t] += int(m)
        return outs[t][:n]

    while any(pos[t] < end[t] for t in range(n_threads)):
        check()  # (between runs, a few milliseconds each)
        busy = [t for t in range(n_threads) if pos[t] < end[t]]
        t0 = time.perf_counter()
        parts = [r for r in (pool.map(work, busy) if pool else map(work, busy)) if r.shape[0]]
        t1 = time.perf_counter()
        fresh = len(parts) >= 2  # else the run is a view of a thread's buffer, used again
        while len(parts) >= 2:  # the threads' runs merged into a fresh array
            parts = [_merge(parts[i], parts[i + 1], depth) if i + 1 < len(parts) else parts[i]
                     for i in range(0, len(parts), 2)]
        if parts:
            if not fresh:
                _room_for(parts[0].shape[0], depth)
            runs.add(parts[0] if fresh else parts[0].copy())
        peak = max(peak, held_before + runs.nbytes)
        phases["children"] += t1 - t0
        phases["merge"] += time.perf_counter() - t1
    t0 = time.perf_counter()
    nxt = runs.merged()
    phases["merge"] += time.perf_counter() - t0
    return nxt, max(peak, held_before + nxt.nbytes)


def sorted_frontier_bfs(fns, p, starts, ffns=None, bits=None, max_depth=None, max_states=None,
                        progress=None, on_layer=None, run_keys=RUN_KEYS, threads=None,
                        resume=None, after_layer=None):
    """Breadth-first search from every start, each layer a sorted array of 64-bit keys.

    ``starts``: states (a 2-D ``uint8`` array, or one state) or their keys (a 1-D ``uint64``
    array). ``ffns``: the domain's :class:`~puzzlelib.core.contract.FrontierFns`; its ``p.key_len``
    must be at most 8 (without ``ffns`` a state is its own key, so ``p.state_len`` must be).
    ``bits``: the keys' width, if known to be under 64 (a radix sort pass fewer).
    ``progress(depth, layer_size, total)`` is called after each layer and ``on_layer(depth,
    keys)`` with each layer's sorted keys. ``max_states`` bounds the keys held at once (the
    layer before, the layer, and the children found so far): passing it raises
    :class:`MemoryError` with a message, as does a merge that would not fit in the memory
    available. Every move must be undoable (see the module).

    A long search can be saved and resumed: ``after_layer(depth, prev, cur, counts, done)`` is
    called after each layer (and its ``on_layer``) with the two layers the search goes on from
    and ``done``, the children generated and positions expanded so far; ``resume=(counts, prev,
    cur, done)`` goes on from them (``starts`` is then ignored; ``on_layer`` is called for the
    layers after ``cur`` only).
    """
    t0 = time.perf_counter()
    if ffns is None:
        ffns = PLAIN_FRONTIER
        key_len = int(p.state_len)
    else:
        key_len = int(p.key_len)
    if key_len > 8:
        raise ValueError(f"keys of {key_len} bytes do not fit in 64 bits: use frontier_bfs")
    bits = 8 * key_len if bits is None else int(bits)
    if resume is None:
        starts = np.asarray(starts)
        if starts.dtype == np.uint64 and starts.ndim == 1:
            keys = starts
        else:
            keys = _state_keys(np.ascontiguousarray(np.atleast_2d(starts), dtype=np.uint8), ffns,
                               p, key_len)
        cur = sorted_keys(keys, bits)
        prev = np.empty(0, dtype=np.uint64)
        counts = [cur.shape[0]]
        del keys
    else:
        counts, prev, cur = list(resume[0]), resume[1], resume[2]
        done = resume[3] if len(resume) > 3 else (0, 0)
        if len(counts) < 1 or counts[-1] != cur.shape[0] or (
                len(counts) > 1 and counts[-2] != prev.shape[0]):
            raise ValueError("resume=(counts, prev, cur): the layers do not match the counts")
    n_threads = max(1, int(threads or numba.get_num_threads()))
    ps = thread_params(p, n_threads)
    part = max(int(run_keys), 2 * int(p.n_moves))
    outs = [np.empty(part, dtype=np.uint64) for _ in range(n_threads)]
    tmps = [np.empty(part, dtype=np.uint64) for _ in range(n_threads)]
    scratch = 2 * n_threads * part * 8
    pool = ThreadPoolExecutor(n_threads) if n_threads > 1 else None
    peak = prev.nbytes + cur.nbytes + scratch
    phases = {"children": 0.0, "merge": 0.0, "on_layer": 0.0}
    made = [0] * n_threads
    expanded = 0
    if resume is not None:
        made[0], expanded = int(done[0]), int(done[1])
    depth = len(counts) - 1
    if resume is None and on_layer is not None:
        on_layer(0, cur)
    if progress is not None:
        progress(depth, cur.shape[0], sum(counts))
    try:
        while cur.shape[0] and (max_depth is None or depth < max_depth):
            held = prev.nbytes + cur.nbytes + scratch
            nxt, peak = _next_layer(prev, cur, fns, ffns, ps, key_len, bits, outs, tmps, pool,
                                    held, peak, phases, depth + 1, made)
            expanded += cur.shape[0]
            if nxt.shape[0] == 0:
                break
            depth += 1
            counts.append(nxt.shape[0])
            note(depth, sum(counts))
            if on_layer is not None:
                t1 = time.perf_counter()
                on_layer(depth, nxt)
                phases["on_layer"] += time.perf_counter() - t1
            if progress is not None:
                progress(depth, nxt.shape[0], sum(counts))
            prev, cur = cur, nxt
            if after_layer is not None:
                after_layer(depth, prev, cur, counts, (sum(made), expanded))
            if max_states is not None and prev.shape[0] + cur.shape[0] > max_states:
                raise MemoryError(
                    f"breadth-first search stopped at depth {depth}: "
                    f"{prev.shape[0] + cur.shape[0]:,} keys held ({peak / 2**30:.2f} GiB), over "
                    f"the limit of {max_states:,}"
                )
    finally:
        if pool is not None:
            pool.shutdown()
    return SortedResult(np.array(counts, dtype=np.int64), _key_states(cur, ffns, p, key_len), peak,
                        time.perf_counter() - t0, phases, sum(made), expanded)
