"""Layered breadth-first search over a ``uint8`` distance table indexed by rank.

``dist[r]`` holds the depth of the position whose rank is ``r`` (:data:`~puzzlelib.core.contract.UNSEEN`
until reached); the table decides what is new, one byte per position. Two ways to make layer
``d + 1`` from layer ``d``:

- **Layer lists** (the default): layer ``d`` is also kept as a list of states with their ranks
  and the moves that made them, so nothing is unranked, the move straight back is never tried,
  and a domain that knows the neighbour's rank from its parent's (``rank_after``) saves work.
  When the domain's ranks come in *buckets* (blocks of ranks such that a move from a given
  block always lands in one known block: for sliding tiles, the blank's cell) the lists are
  grouped by bucket and expanded in parallel, one task per *target* bucket. A position's table
  entry is then only touched by the task that owns its bucket: no races, no duplicates, and
  the counts are exact whatever the number of threads. A domain whose positions fit in 64-bit
  keys that also give its rank (:class:`~puzzlelib.core.contract.KeyFns` with ``rank_after``: sliding
  tiles of at most 15 cells, distinct) has its lists kept as keys: a child's key is a few
  integer operations on its parent's, with no state copied. Layers below
  :data:`PARALLEL_MIN_LAYER` positions are expanded on one thread; unless a progress bar is
  shown, many layers are made in one call.
- **Table scan**, for domains without buckets and tables of :data:`PARALLEL_MIN_TABLE` or
  more: ``prange`` over chunks of the table, unranking each entry equal to ``d`` (unless the
  domain's ``rank_from`` gives every neighbour's rank from its own). A thread only
  ever writes ``d + 1`` into an unseen entry, so two threads racing on one entry write the same
  byte; entries equal to ``d`` are never written during the layer, so counting them while
  scanning is exact.
"""

import numpy as np
from numba import prange

from ..core.jit import jit, kernel, overload
from ..core import memory
from ..core.contract import ILLEGAL, UNSEEN
from ..core.errors import SearchLimitError
from ..core.limits import RUNNING, STOP_MASK, check, note, report, stop_reason
from ..core.hashing import lowest_bit
from .expand import MEMO_WORDS, pull, push
from .workshare import (biggest_first, filled, new_counter, prefetch, start_threads, take,
                        total, workers)

#: Table entries per parallel work item.
CHUNK = 1 << 14
#: Without buckets, tables at least this large are scanned, layer by layer, in parallel chunks
#: of ``CHUNK`` entries (one byte a position and nothing else); smaller ones use one list of
#: states per layer on one thread. With buckets the lists are always used: they are several
#: times faster than the scan (benchmarks/RESULTS.md, "Constants").
PARALLEL_MIN_TABLE = 1 << 26
#: Layers with fewer positions than this are expanded on one thread: below it a parallel
#: region costs more than it saves (the 8-puzzle's table shares its 17 largest layers). The
#: price is paid on a busy machine, where each parallel region waits for every thread to be
#: scheduled; pass ``threads=1`` there (benchmarks/RESULTS.md, "Constants").
PARALLEL_MIN_LAYER = 1 << 12
#: Layers needing room for at most this many positions are made without a memory check
#: (about 100 MiB of rows on the 4x4 board), several per call.
UNCHECKED_ROWS = 1 << 22
#: The greatest depth a uint8 table can hold (255 means unseen).
MAX_DEPTH = UNSEEN - 1


_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)


#: Children the table scan collects (their entries prefetched) before it looks at them.
BATCH = 32
#: The table scan skips blocks of ``2**BLOCK_BITS`` entries that hold none of the layer it
#: expands: a byte a block says whether a position was marked in it (4 MiB for the 8-tile
#: pattern database's 4.15 billion entries), so the small layers at either end of a search
#: read almost nothing of the table.
BLOCK_BITS = 10


@jit
def _mark_batch(kids, nk, dist, nxt, next_active):
    """Give each unseen rank of ``kids[:nk]`` the depth ``nxt`` and flag its block in
    ``next_active``; returns how many it gave."""
    marked = 0
    for k in range(nk):
        r2 = kids[k]
        if dist[r2] == UNSEEN:
            dist[r2] = nxt
            marked += 1
            b = r2 >> BLOCK_BITS
            if next_active[b] == 0:  # (read first: the line stays shared between threads)
                next_active[b] = 1
    return marked


@kernel
def _expand_range(lo, hi, dist, words, depth, fns, p, active, next_active):
    """Expand the positions of depth ``depth`` with rank in ``[lo, hi)``, skipping the blocks
    that ``active`` does not flag (see :data:`BLOCK_BITS`; ``next_active`` gets the blocks of
    the positions marked). ``words`` is ``dist`` seen as ``uint64``: eight entries are skipped
    at once when none of them equals ``depth`` (most of a big table, in most layers), and in a
    word with some, a bit mask gives the bytes to look at, one after the other, with no branch
    per byte. Each position's children come from :func:`.expand.push` (with the domain's
    ``rank_from`` or ``children`` where it offers them). Children are collected :data:`BATCH`
    at a time, their entries prefetched as each position's ranks are made, and only then
    looked at: the cache misses overlap, and no branch on a table entry waits for one.

    Returns (positions of depth ``depth`` found, neighbours newly marked ``depth + 1``,
    moves found illegal): the children generated are ``found * n_moves - illegal``, with no
    count in the innermost loop."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    kids = np.empty(BATCH + p.n_moves, dtype=np.int64)
    todo = np.empty(p.n_moves, dtype=np.int64)  # the moves rank_from leaves
    memo = np.full(MEMO_WORDS, -1, dtype=np.int64)  # the domain's, between calls of children
    nk = 0
    found = 0
    marked = 0
    illegal = 0
    nxt = np.uint8(depth + 1)
    pattern = np.uint64(depth) * _ONES
    block = np.int64(1) << BLOCK_BITS
    at = lo  # the next word's first rank (``lo`` is a multiple of 8)
    word_at = lo
    cand = np.uint64(0)  # the bytes of the word at ``word_at`` that may equal depth, not seen
    while True:
        while cand == 0 and at < hi:
            if (at & (block - 1)) == 0 and active[at >> BLOCK_BITS] == 0:
                at += block  # no position of the layer in this block
                continue
            if at + 8 <= hi:
                w = words[at >> 3] ^ pattern
                # the high bit of each byte equal to depth (and of a byte one above one that
                # is: checked below)
                cand = (w - _ONES) & ~w & _HIGHS
            else:  # the range's last few entries
                cand = _HIGHS >> np.uint64(8 * (8 - (hi - at)))
            word_at = at
            at += 8
        if cand == 0:
            break
        r = word_at + (lowest_bit(np.int64(cand)) >> 3)
        cand &= cand - np.uint64(1)
        if dist[r] != depth:
            continue
        found += 1
        k = push(fns, r, p, base, state, kids, nk, todo, memo)
        illegal += p.n_moves - (k - nk)
        for t in range(nk, k):
            prefetch(dist, kids[t])
        nk = k
        if nk >= BATCH:
            marked += _mark_batch(kids, nk, dist, nxt, next_active)
            nk = 0
    marked += _mark_batch(kids, nk, dist, nxt, next_active)
    return found, marked, illegal


@kernel(parallel=True)
def _layer_parallel(dist, depth, fns, p, active, next_active):
    n = dist.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    words = dist[: n - n % 8].view(np.uint64)
    found = filled(n_chunks, 0)
    marked = filled(n_chunks, 0)
    illegal = filled(n_chunks, 0)
    for c in prange(n_chunks):
        if stop_reason() != RUNNING:
            continue  # stopped from outside: the caller raises (puzzlelib.core.limits)
        lo = c * CHUNK
        hi = min(lo + CHUNK, n)
        found[c], marked[c], illegal[c] = _expand_range(lo, hi, dist, words, depth, fns, p,
                                                        active, next_active)
    # marked can over-count when two threads mark one entry; only "> 0" is used from it
    n_found = total(found)
    return n_found, total(marked), n_found * p.n_moves - total(illegal)


@kernel
def _expand_range_up(lo, hi, dist, words, depth, fns, p):
    """Bottom-up: every position not reached yet with rank in ``[lo, hi)`` looks for a
    neighbour of depth ``depth`` (every move has its inverse, so a neighbour's neighbour is the
    position itself) and, at the first, is marked ``depth + 1``. Cheaper than expanding the
    layer once fewer positions are left unseen than the layer holds: most unseen ones then
    find such a neighbour after a few moves. Only this range's entries are written, and only
    to ``depth + 1``, which no test here reads: no races, exact counts.

    Returns (positions examined, positions marked, children made)."""
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    todo = np.empty(p.n_moves, dtype=np.int64)  # the moves rank_from leaves
    examined = 0
    marked = 0
    made = 0
    nxt = np.uint8(depth + 1)
    r = lo
    while r < hi:
        if (r & 7) == 0 and r + 8 <= hi:
            w = ~words[r >> 3]  # an unseen byte (255) becomes 0
            if ((w - _ONES) & ~w & _HIGHS) == 0:
                r += 8  # every position of the word is reached already
                continue
        if dist[r] != UNSEEN:
            r += 1
            continue
        examined += 1
        hit, tried = pull(fns, r, p, base, state, dist, depth, todo)
        made += tried
        if hit:
            dist[r] = nxt
            marked += 1
        r += 1
    return examined, marked, made


@kernel(parallel=True)
def _layer_parallel_up(dist, depth, fns, p):
    """:func:`_expand_range_up` over the whole table in chunks, taken by the threads as they
    come free (the unseen positions may crowd into a few parts of the table)."""
    n = dist.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    words = dist[: n - n % 8].view(np.uint64)
    examined = filled(n_chunks, 0)
    marked = filled(n_chunks, 0)
    made = filled(n_chunks, 0)
    counter = new_counter()
    for _ in prange(workers(n_chunks)):
        while True:
            c = take(counter)
            if c >= n_chunks or stop_reason() != RUNNING:
                break
            lo = c * CHUNK
            hi = min(lo + CHUNK, n)
            examined[c], marked[c], made[c] = _expand_range_up(lo, hi, dist, words, depth, fns,
                                                               p)
    return total(examined), total(marked), total(made)


@kernel
def _capacities(lo, hi, bucket_next):
    """Room for each target bucket's next layer: the sizes of the source buckets that a move
    leads from into it."""
    nb = lo.shape[0]
    cap = np.zeros(nb, dtype=np.int64)
    for s in range(nb):
        for m in range(bucket_next.shape[1]):
            t = bucket_next[s, m]
            if t >= 0:
                cap[t] += hi[s] - lo[s]
    return cap


@kernel
def _expand_into(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, p, ns, nr, nm, k):
    """Target bucket ``t``'s share of a layer: apply, to every source bucket, the moves that
    lead into ``t``, and append the new positions at row ``k`` of ``ns, nr, nm``. Returns the
    row after the last one written, and the moves found illegal."""
    nb = lo.shape[0]
    illegal = 0
    state = np.empty(p.state_len, dtype=np.uint8)
    for s in range(nb):
        for m in range(p.n_moves):
            if bucket_next[s, m] != t:
                continue
            back = fns.inverse(m, p)
            for i0 in range(lo[s], hi[s], STOP_MASK + 1):
                # the stop word once per STOP_MASK + 1 parents, outside the loop over them
                if stop_reason() != RUNNING:
                    return k, illegal  # stopped from outside: the caller raises
                for i in range(i0, min(i0 + STOP_MASK + 1, hi[s])):
                    if fm[i] == back:
                        continue  # straight back to the parent
                    for j in range(p.state_len):  # (a loop: a slice copy costs more here)
                        state[j] = fs[i, j]
                    if fns.step(state, m, p) == ILLEGAL:
                        illegal += 1
                        continue
                    r = fns.rank_after(state, m, fr[i], p)
                    if dist[r] == UNSEEN:
                        dist[r] = mark
                        for j in range(p.state_len):
                            ns[k, j] = state[j]
                        nr[k] = r
                        nm[k] = m
                        k += 1
    return k, illegal


@kernel
def _expand_into_keys(t, dist, fk, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p, nk, nr, nm,
                      k):
    """:func:`_expand_into` over layer lists of keys (``kfns``, a
    :class:`~puzzlelib.core.contract.KeyFns` with ``rank_after``): each child's key is made from its
    parent's and its rank read from the key, with no state copied or stepped. Same positions,
    same order, same rows.

    Its arrays are indexed with unsigned integers: numba makes a signed index that might be
    negative count from the array's end, a few instructions per access."""
    nb = lo.shape[0]
    illegal = 0
    for s in range(nb):
        for m in range(p.n_moves):
            if bucket_next[s, m] != t:
                continue
            back = fns.inverse(m, p)
            for i0 in range(lo[s], hi[s], STOP_MASK + 1):
                if stop_reason() != RUNNING:  # (as in _expand_into)
                    return k, illegal  # stopped from outside: the caller raises
                for i in range(i0, min(i0 + STOP_MASK + 1, hi[s])):
                    ui = np.uint64(i)
                    if fm[ui] == back:
                        continue  # straight back to the parent
                    c = kfns.key_step(fk[ui], m, p)
                    if c == -1:
                        illegal += 1
                        continue
                    r = kfns.rank_after(c, m, fr[ui], p)
                    ur = np.uint64(r)
                    if dist[ur] == UNSEEN:
                        dist[ur] = mark
                        uk = np.uint64(k)
                        nk[uk] = c
                        nr[uk] = r
                        nm[uk] = m
                        k += 1
    return k, illegal


def _expand(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p, ns, nr, nm, k):
    """Target bucket ``t``'s share of a layer, by the kind of rows the lists hold: states
    (:func:`_expand_into`) or keys (:func:`_expand_into_keys`), chosen when compiling.
    Returns the row after the last one written, and the moves found illegal.

    The children generated are not counted one by one (an increment in the innermost loop
    costs a few percent of a small search); :func:`_generated` works them out per layer."""


@overload(_expand)
def _choose_expand(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p, ns, nr, nm, k):
    if fs.ndim == 1:
        return lambda t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p, ns, nr, nm, \
            k: _expand_into_keys(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p,
                                 ns, nr, nm, k)
    return lambda t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns, p, ns, nr, nm, \
        k: _expand_into(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, p, ns, nr, nm, k)


def _new_rows(fs, total, p):
    """Room for ``total`` rows of the kind ``fs`` holds (states or keys)."""


@overload(_new_rows)
def _choose_new_rows(fs, total, p):
    if fs.ndim == 1:
        return lambda fs, total, p: np.empty(total, dtype=np.int64)
    return lambda fs, total, p: np.empty((total, p.state_len), dtype=np.uint8)


@kernel
def _room(lo, hi, bucket_next, fs, p):
    """The next layer's arrays (rows of the kind ``fs`` holds), with room for each target
    bucket, and where each one starts."""
    nb = lo.shape[0]
    cap = _capacities(lo, hi, bucket_next)
    start = np.zeros(nb, dtype=np.int64)
    total = 0
    for t in range(nb):
        start[t] = total
        total += cap[t]
    ns = _new_rows(fs, total, p)
    nr = np.empty(total, dtype=np.int64)
    nm = np.empty(total, dtype=np.int8)
    return cap, start, ns, nr, nm


@kernel(parallel=True)
def _layer_buckets(dist, fs, fr, fm, lo, hi, bucket_next, depth, fns, kfns, p):
    """Make layer ``depth + 1`` from the list of layer ``depth``: states ``fs`` (or their keys,
    with ``kfns``), their ranks ``fr`` and the moves that made them ``fm`` (-1 for a start),
    grouped by bucket (bucket ``b`` is rows ``lo[b]:hi[b]``).

    One task per *target* bucket: it applies, to every source bucket, the moves that lead into
    its own bucket, and writes into its own rows of the next layer. A position's table entry is
    therefore only ever read and written by the task that owns its bucket: no races, no
    duplicates, exact counts, whatever the threads. The biggest tasks are started first and
    each thread takes the next one as it comes free (:mod:`.workshare`). The buckets are left
    where they were written (rows between them unused) rather than packed: one copy of the
    layer fewer.

    Returns the next layer in the same form, and the children generated."""
    nb = lo.shape[0]
    cap, start, ns, nr, nm = _room(lo, hi, bucket_next, fs, p)
    end = start.copy()
    illegal = filled(nb, 0)
    mark = np.uint8(depth + 1)
    order = biggest_first(cap)
    counter = new_counter()
    for _ in prange(workers(nb)):
        while True:
            j = take(counter)
            if j >= nb:
                break
            t = order[j]
            end[t], illegal[t] = _expand(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns,
                                         kfns, p, ns, nr, nm, start[t])
    return ns, nr, nm, start, end, _generated(cap, total(hi) - total(lo), depth, total(illegal))


@jit
def _generated(cap, size, depth, illegal):
    """The children a layer generated: of the moves it looked at (``cap``, per target bucket;
    every move of every parent whose target bucket is not -1), those found illegal, and one
    per parent that has one (its move straight back is skipped; the depth-0 positions have
    none) were not made."""
    return total(cap) - (size if depth > 0 else 0) - illegal


@kernel
def _list_bytes(fs, fr, fm):
    return fs.nbytes + fr.nbytes + fm.nbytes


@kernel
def _bfs_lists_run(dist, fs, fr, fm, lo, hi, bucket_next, depth, fns, kfns, p, max_layers,
                   min_par, stop_rank, max_rows):
    """Layer after layer in one call (each call of a kernel from Python costs the typing of
    its arguments, a large share of a small search when made once a layer), at
    most ``max_layers`` of them, until the layer that reaches ``stop_rank`` (if ``>= 0``) or an
    empty one, and before any layer after the first that would need room for more than
    ``max_rows`` positions (the caller checks the memory for those). A layer of ``min_par``
    positions or more is shared among the threads (:func:`_layer_buckets`); smaller ones are
    made on this thread, where a parallel region would cost more than it saves.

    Returns the last layer made, its depth, the sizes of the layers made, and ``tally``: the
    children generated, the positions expanded, and the most bytes two consecutive layers'
    lists held at once."""
    nb = lo.shape[0]
    counts = np.zeros(max_layers, dtype=np.int64)
    generated = expanded = peak = 0  # (locals: the tally array is filled once, at the end)
    n = 0
    size = (hi - lo).sum()
    while n < max_layers and size > 0:
        if stop_rank >= 0 and dist[stop_rank] != UNSEEN or stop_reason() != RUNNING:
            break
        if n > 0 and _capacities(lo, hi, bucket_next).sum() > max_rows:
            break
        held = _list_bytes(fs, fr, fm)
        if size >= min_par:
            fs, fr, fm, lo, hi, made = _layer_buckets(dist, fs, fr, fm, lo, hi, bucket_next,
                                                      depth, fns, kfns, p)
        else:
            cap, start, ns, nr, nm = _room(lo, hi, bucket_next, fs, p)
            end = start.copy()
            mark = np.uint8(depth + 1)
            illegal = 0
            for t in range(nb):
                end[t], g = _expand(t, dist, fs, fr, fm, lo, hi, bucket_next, mark, fns, kfns,
                                    p, ns, nr, nm, start[t])
                illegal += g
            made = _generated(cap, size, depth, illegal)
            fs, fr, fm, lo, hi = ns, nr, nm, start, end
        generated += made
        expanded += size
        peak = max(peak, held + _list_bytes(fs, fr, fm))
        size = (hi - lo).sum()
        if size == 0:
            break
        depth += 1
        counts[n] = size
        n += 1
        report(depth, expanded + size)
    tally = np.empty(3, dtype=np.int64)
    tally[0], tally[1], tally[2] = generated, expanded, peak
    return fs, fr, fm, lo, hi, depth, counts[:n], tally


@jit
def ranks_at_depth(dist, depth, limit):
    """The first ``limit`` ranks whose entry equals ``depth``, and how many there are in all."""
    out = np.empty(limit, dtype=np.int64)
    k = 0
    total = 0
    for r in range(dist.shape[0]):
        if dist[r] == depth:
            if k < limit:
                out[k] = r
                k += 1
            total += 1
    return out[:k], total


@kernel
def path_to(dist, r_end, fns, p):
    """Moves of a shortest path from a depth-0 position to rank ``r_end``, read back from the
    table by stepping to a neighbour one layer lower until depth 0."""
    depth = np.int64(dist[r_end])
    moves = np.empty(depth, dtype=np.int64)
    state = np.empty(p.state_len, dtype=np.uint8)
    fns.unrank(r_end, p, state)
    while depth > 0:
        stepped = False
        for m in range(p.n_moves):
            if fns.step(state, m, p) == ILLEGAL:
                continue
            if dist[fns.rank(state, p)] == depth - 1:
                # we moved back along m, so the path goes forward along inverse(m)
                moves[depth - 1] = fns.inverse(m, p)
                stepped = True
                break
            fns.step(state, fns.inverse(m, p), p)
        if not stepped:
            return moves[:0]  # cannot happen in a consistent table
        depth -= 1
    return moves


@jit
def count_reached(dist):
    """Entries of the table that are not :data:`UNSEEN`."""
    total = 0
    for r in range(dist.shape[0]):
        if dist[r] != UNSEEN:
            total += 1
    return total


def use_parallel(table_size):
    """Whether a table this large is scanned in parallel chunks when the domain offers no
    buckets (else: one list of states per layer, on one thread)."""
    return table_size >= PARALLEL_MIN_TABLE


def choose_kernel(table_size, buckets):
    """``"lists"`` (layer lists, parallel over buckets when the domain has them) or ``"scan"``."""
    return "lists" if buckets is not None or not use_parallel(table_size) else "scan"


class LayeredResult:
    """What :func:`layered_bfs` found: the table ``dist``, the positions at each depth
    ``counts``, the children ``generated`` and positions ``expanded``, the most bytes the table
    and the layer lists held at once (``peak_bytes``), and whether ``max_depth`` stopped it
    before a layer that would have added positions (``stopped``)."""

    __slots__ = ("dist", "counts", "generated", "expanded", "peak_bytes", "stopped")

    def __init__(self, dist, counts, generated, expanded, peak_bytes, stopped):
        self.dist, self.counts = dist, counts
        self.generated, self.expanded = int(generated), int(expanded)
        self.peak_bytes, self.stopped = int(peak_bytes), bool(stopped)


def layered_bfs(fns, params, n_ranks, start_ranks, stop_rank=-1, progress=None, buckets=None,
                kernel="auto", min_parallel_layer=None, kfns=None, max_depth=None,
                unchecked_rows=None):
    """Breadth-first search from ``start_ranks`` (all at depth 0) over a fresh distance table.

    Stops after the layer in which ``stop_rank`` is reached (when given), when a layer adds
    nothing, or after layer ``max_depth``. ``progress`` is called after each layer as
    ``progress(depth, layer_count, total)``.

    ``buckets``: ``(bucket_next, block)`` when the domain's ranks fall into equal blocks of
    ``block`` ranks such that a move ``m`` from a position of block ``b`` always lands in block
    ``bucket_next[b, m]`` (-1: the move is never legal there); sliding tiles: the blank's cell.
    The layer lists are then expanded in parallel, one task per block. ``kernel``: ``"lists"``,
    ``"scan"``, ``"scan-up"`` (the scan, with the layers whose positions outnumber those left
    unseen made bottom-up: each unseen position looks for a neighbour in the layer, which needs
    every move's inverse among the moves, as the contract says; the same table and counts,
    fewer children made) or ``"auto"`` (see :func:`choose_kernel`). ``min_parallel_layer``: layers of at
    least this many positions are shared among the threads (default
    :data:`PARALLEL_MIN_LAYER`). ``kfns``: the domain's :class:`~puzzlelib.core.contract.KeyFns`,
    when they give its rank (``rank_after``): the layer lists then hold keys instead of states
    (same table, same counts). ``unchecked_rows``: layers needing room for more positions are
    made one per call, each after a memory check (default :data:`UNCHECKED_ROWS`).

    Returns a :class:`LayeredResult`."""
    start_threads()
    limit = MAX_DEPTH if max_depth is None else min(int(max_depth), MAX_DEPTH)
    dist = np.full(n_ranks, UNSEEN, dtype=np.uint8)
    start_ranks = np.unique(np.asarray(start_ranks, dtype=np.int64))
    dist[start_ranks] = 0
    if kernel == "auto":
        kernel = choose_kernel(n_ranks, buckets)
    if kernel == "lists":
        min_par = PARALLEL_MIN_LAYER if min_parallel_layer is None else int(min_parallel_layer)
        unchecked = UNCHECKED_ROWS if unchecked_rows is None else int(unchecked_rows)
        counts, tally, stopped = _bfs_lists(dist, start_ranks, fns, params, stop_rank, progress,
                                            buckets, min_par, kfns, limit, max_depth is None,
                                            unchecked)
    elif kernel in ("scan", "scan-up"):
        counts, tally, stopped = _bfs_scan(dist, start_ranks, fns, params, stop_rank, progress,
                                           limit, max_depth is None,
                                           bottom_up=kernel == "scan-up")
    else:
        raise ValueError(f"unknown kernel {kernel!r}")
    return LayeredResult(dist, counts, tally[0], tally[1], dist.nbytes + tally[2], stopped)


def _too_deep():
    return SearchLimitError(
        f"depth {MAX_DEPTH} reached: deeper layers do not fit the uint8 distance table")


def _bfs_lists(dist, start_ranks, fns, params, stop_rank, progress, buckets, min_par, kfns,
               limit, unlimited, unchecked):
    if buckets is None:
        bucket_next = np.zeros((1, params.n_moves), dtype=np.int64)
        block = dist.shape[0]
    else:
        bucket_next, block = np.asarray(buckets[0], dtype=np.int64), int(buckets[1])
    nb = bucket_next.shape[0]
    order = np.argsort(start_ranks // block, kind="stable")
    fr = start_ranks[order]
    if kfns is None or kfns.rank_after is None:
        kfns = None
        fs = np.empty((len(fr), params.state_len), dtype=np.uint8)
        for i, r in enumerate(fr):
            fns.unrank(int(r), params, fs[i])
    else:
        fs = np.empty(len(fr), dtype=np.int64)
        state = np.empty(params.state_len, dtype=np.uint8)
        for i, r in enumerate(fr):
            fns.unrank(int(r), params, state)
            fs[i] = kfns.key(state, params)
    fm = np.full(len(fr), -1, dtype=np.int8)
    off = np.searchsorted(fr // block, np.arange(nb + 1)).astype(np.int64)
    lo, hi = off[:-1].copy(), off[1:].copy()
    counts = [len(fr)]
    total = len(fr)
    tally = np.zeros(3, dtype=np.int64)
    depth = 0
    row_bytes = (8 if kfns is not None else params.state_len) + 9
    while not (stop_rank >= 0 and dist[stop_rank] != UNSEEN):
        if depth >= limit:
            if unlimited:
                raise _too_deep()
            break
        room = int(_capacities(lo, hi, bucket_next).sum())
        if room > unchecked:
            memory.check_fits(
                room * row_bytes,
                f"layer {depth + 1} of the breadth-first search (room for {room:,} positions)",
            )
        # nobody watching: as many layers as one call makes (up to a big one, checked above)
        n_layers = limit - depth if progress is None else 1
        fs, fr, fm, lo, hi, depth, new, t = _bfs_lists_run(
            dist, fs, fr, fm, lo, hi, bucket_next, depth, fns, kfns, params, n_layers, min_par,
            stop_rank, unchecked,
        )
        check()
        tally[:2] += t[:2]
        tally[2] = max(tally[2], t[2])
        if len(new) == 0:
            return counts, tally, False
        counts.extend(int(c) for c in new)
        total += int(new.sum())
        note(depth, total)
        if progress is not None:
            progress(depth, int(new[-1]), total)
    return counts, tally, depth >= limit and not (stop_rank >= 0 and dist[stop_rank] != UNSEEN)


def blocks_of(ranks, n):
    """A byte per block of ``2**BLOCK_BITS`` of the ranks ``0..n-1``: 1 where ``ranks`` has one."""
    out = np.zeros((n + (1 << BLOCK_BITS) - 1) >> BLOCK_BITS, dtype=np.uint8)
    out[np.asarray(ranks, dtype=np.int64) >> BLOCK_BITS] = 1
    return out


def _bfs_scan(dist, start_ranks, fns, params, stop_rank, progress, limit, unlimited,
              bottom_up=False):
    counts = []
    tally = np.zeros(3, dtype=np.int64)
    depth = 0
    total = 0
    n = dist.shape[0]
    layer = len(start_ranks)  # (roughly) the size of the layer to expand
    active = blocks_of(start_ranks, n)  # the blocks holding the layer to expand
    while True:
        if bottom_up and n - total - layer < layer:
            # fewer positions left unseen than the layer holds: they look for it instead
            examined, marked, generated = _layer_parallel_up(dist, depth, fns, params)
            check()
            found = ranks_at_depth(dist, depth, 0)[1]
            tally[0] += generated
            tally[1] += examined
            active[:] = 1  # (where it marked is not kept)
        else:
            next_active = np.zeros_like(active)
            found, marked, generated = _layer_parallel(dist, depth, fns, params, active,
                                                       next_active)
            check()
            active = next_active
            tally[0] += generated
            tally[1] += found
        layer = marked
        counts.append(int(found))
        total += int(found)
        note(depth, total)
        if progress is not None:
            progress(depth, int(found), total)
        if marked == 0:
            return counts, tally, False
        if (stop_rank >= 0 and dist[stop_rank] != UNSEEN) or depth + 1 >= limit:
            # layer depth + 1 is made: count it and finish
            _, last = ranks_at_depth(dist, depth + 1, 0)
            counts.append(int(last))
            if progress is not None:
                progress(depth + 1, int(last), total + int(last))
            if depth + 1 >= limit and unlimited and not (stop_rank >= 0
                                                         and dist[stop_rank] != UNSEEN):
                raise _too_deep()
            return counts, tally, not (stop_rank >= 0 and dist[stop_rank] != UNSEEN)
        depth += 1
