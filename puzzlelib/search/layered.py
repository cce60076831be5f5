"""Layered breadth-first search over a ``uint8`` distance table indexed by rank.

``dist[r]`` holds the depth of the position whose rank is ``r`` (:data:`~puzzlelib.domain.UNSEEN`
until reached). Layer ``d + 1`` is made by scanning the table for entries equal to ``d``,
unranking each, applying every move and marking unseen neighbours ``d + 1``. No queue is kept:
the table *is* the frontier, one byte per position.

Small tables (below :data:`PARALLEL_MIN_TABLE`) take a shortcut: the layer is also kept as a
list of states, each with the move that made it, so nothing is unranked and the move straight
back is never tried; the table still decides what is new.

Parallel expansion (``prange`` over chunks of the table) is race-free where it matters: a
thread only ever writes ``d + 1`` into an unseen entry, so two threads racing on one entry write
the same byte, and entries equal to ``d`` are never written during the layer. Layer sizes are
counted while scanning (entries equal to ``d`` are stable), so the counts are exact.
"""

import numpy as np
from numba import njit, prange

from ..domain import ILLEGAL, UNSEEN
from ..errors import SearchLimitError

#: Table entries per parallel work item.
CHUNK = 1 << 14
#: Tables at least this large are scanned, layer by layer, in parallel chunks of ``CHUNK``
#: entries: one byte a position and nothing else. Smaller tables keep each layer as a list of
#: states as well, which spares the unranking and runs on one thread. Measured on 2 cores
#: (2026-11-22): the 2x5 board's 1,814,400 positions take 0.18 s with lists and 0.39 s with the
#: scan; lists of the largest layers of a 2**26-entry table still fit in about 1 GiB.
PARALLEL_MIN_TABLE = 1 << 26
#: The greatest depth a uint8 table can hold (255 means unseen).
MAX_DEPTH = UNSEEN - 1


@njit
def _expand_range(lo, hi, dist, depth, fns, p):
    """Expand the positions of depth ``depth`` with rank in ``[lo, hi)``.

    Returns (positions of depth ``depth`` found, neighbours newly marked ``depth + 1``)."""
    state = np.empty(p.state_len, dtype=np.uint8)
    found = 0
    marked = 0
    nxt = np.uint8(depth + 1)
    for r in range(lo, hi):
        if dist[r] != depth:
            continue
        found += 1
        fns.unrank(r, p, state)
        for m in range(p.n_moves):
            if fns.step(state, m, p) == ILLEGAL:
                continue
            r2 = fns.rank(state, p)
            if dist[r2] == UNSEEN:
                dist[r2] = nxt
                marked += 1
            fns.step(state, fns.inverse(m), p)
    return found, marked


@njit(parallel=True)
def _layer_parallel(dist, depth, fns, p):
    n = dist.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    found = np.zeros(n_chunks, dtype=np.int64)
    marked = np.zeros(n_chunks, dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * CHUNK
        hi = min(lo + CHUNK, n)
        found[c], marked[c] = _expand_range(lo, hi, dist, depth, fns, p)
    # marked can over-count when two threads mark one entry; only "> 0" is used from it
    return found.sum(), marked.sum()


@njit
def _bfs_lists(dist, front, came_by, depth, reached, fns, p, stop_rank, max_layers):
    """Search for a small table: each layer is a list of states (``front``, depth ``depth``)
    with the moves that made them (``came_by``, -1 for a start). Makes up to ``max_layers``
    layers, and stops after the layer that reaches ``stop_rank``.

    Returns (counts of the new layers, last layer, its moves, its depth, positions reached);
    an empty last layer means the search is over."""
    n_moves = p.n_moves
    n_front = front.shape[0]
    counts = np.zeros(max_layers, dtype=np.int64)
    n_counts = 0
    state = np.empty(p.state_len, dtype=np.uint8)
    stop_depth = depth + max_layers
    while n_front > 0 and depth < min(MAX_DEPTH, stop_depth):
        if stop_rank >= 0 and dist[stop_rank] != UNSEEN:
            break
        cap = min(n_front * n_moves, dist.shape[0] - reached)
        nxt = np.empty((cap, p.state_len), dtype=np.uint8)
        nxt_by = np.empty(cap, dtype=np.int64)
        mark = np.uint8(depth + 1)
        k = 0
        for i in range(n_front):
            for j in range(p.state_len):
                state[j] = front[i, j]
            back = fns.inverse(came_by[i]) if came_by[i] >= 0 else -1
            for m in range(n_moves):
                if m == back or fns.step(state, m, p) == ILLEGAL:
                    continue
                r = fns.rank(state, p)
                if dist[r] == UNSEEN:
                    dist[r] = mark
                    for j in range(p.state_len):
                        nxt[k, j] = state[j]
                    nxt_by[k] = m
                    k += 1
                fns.step(state, fns.inverse(m), p)
        front, came_by, n_front = nxt[:k], nxt_by[:k], k
        depth += 1
        if k > 0:
            counts[n_counts] = k
            n_counts += 1
            reached += k
    if stop_rank >= 0 and dist[stop_rank] != UNSEEN:
        front, came_by = front[:0], came_by[:0]  # done
    return counts[:n_counts], front, came_by, depth, reached


@njit(cache=True)
def _ranks_at_depth(dist, depth, limit):
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


@njit
def _walk_down(dist, r_end, fns, p):
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
                moves[depth - 1] = fns.inverse(m)
                stepped = True
                break
            fns.step(state, fns.inverse(m), p)
        if not stepped:
            return moves[:0]  # cannot happen in a consistent table
        depth -= 1
    return moves


@njit(cache=True)
def _count_reached(dist):
    total = 0
    for r in range(dist.shape[0]):
        if dist[r] != UNSEEN:
            total += 1
    return total


def use_parallel(table_size):
    """Whether a table this large is scanned in parallel chunks (else: lists of states)."""
    return table_size >= PARALLEL_MIN_TABLE


def layered_bfs(fns, params, n_ranks, start_ranks, stop_rank=-1, progress=None):
    """Breadth-first search from ``start_ranks`` (all at depth 0) over a fresh distance table.

    Stops after the layer in which ``stop_rank`` is reached (when given), or when a layer adds
    nothing. ``progress`` is called after each layer as ``progress(depth, layer_count, total)``.

    Returns ``(dist, counts)``: the table and the exact number of positions at each depth.
    """
    dist = np.full(n_ranks, UNSEEN, dtype=np.uint8)
    for r in start_ranks:
        dist[int(r)] = 0
    if not use_parallel(n_ranks):
        front = np.empty((len(start_ranks), params.state_len), dtype=np.uint8)
        for i, r in enumerate(start_ranks):
            fns.unrank(int(r), params, front[i])
        came_by = np.full(len(start_ranks), -1, dtype=np.int64)
        counts = [len(start_ranks)]
        depth, reached = 0, len(start_ranks)
        # one call for the whole search, or one per layer when someone watches the progress
        step = 1 if progress is not None else MAX_DEPTH
        while front.shape[0] > 0:
            if depth >= MAX_DEPTH:
                raise SearchLimitError(
                    f"depth {MAX_DEPTH} reached: deeper layers do not fit the uint8 distance table"
                )
            new, front, came_by, depth, reached = _bfs_lists(
                dist, front, came_by, depth, reached, fns, params, stop_rank, step
            )
            counts.extend(int(c) for c in new)
            if progress is not None and len(new):
                progress(len(counts) - 1, counts[-1], reached)
        return dist, counts
    counts = []
    depth = 0
    total = 0
    while True:
        found, marked = _layer_parallel(dist, depth, fns, params)
        counts.append(int(found))
        total += int(found)
        if progress is not None:
            progress(depth, int(found), total)
        if marked == 0:
            break
        if stop_rank >= 0 and dist[stop_rank] != UNSEEN:
            # the stop position is in layer depth + 1: count that layer and finish
            _, last = _ranks_at_depth(dist, depth + 1, 0)
            counts.append(int(last))
            if progress is not None:
                progress(depth + 1, int(last), total + int(last))
            break
        depth += 1
        if depth >= MAX_DEPTH:
            raise SearchLimitError(
                f"depth {depth} reached: deeper layers do not fit the uint8 distance table"
            )
    return dist, counts
