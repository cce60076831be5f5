"""Layered breadth-first search on a Dask cluster: the rank space split among the workers.

The ranks ``0..n-1`` are cut into ``P`` contiguous *parts*, one per worker, each holding the
one-byte distance table of its own ranks (a part of ``n / P`` bytes lives on its worker for
the whole search). Each layer is two rounds of tasks, each pinned to the worker of its part:

1. **expand**: part ``i`` unranks its positions of depth ``d``, applies every move, and sorts
   and de-duplicates the children's ranks; cut at the parts' bounds, they are ``P`` arrays,
   the ``j``-th for part ``j``.
2. **absorb**: part ``j`` receives its array from every part (Dask moves each one from the
   worker that made it straight to the worker of part ``j``; nothing passes through the
   client) and marks those not reached yet with depth ``d + 1``, counting them: the counts are
   exact, since only part ``j`` writes its table.

The client only sends the depth and adds up the counts. The domain's functions and kernels are
the same as on one machine (the puzzle object is pickled to the workers, and numba compiles or
loads its kernels there).

Limits (:mod:`puzzlelib.core.limits`): each task runs in a watch of its worker's memory (Dask's
``memory_limit``, else what the process may use), so a part that would outgrow its worker stops
with :class:`~puzzlelib.SearchLimitError` (a table too big for its workers is refused before, by
the plan). The client checks its own watch (Ctrl-C, the time limit) after every layer and while
it waits; when it stops, it cancels the tasks not started and has every worker stop the kernel
it runs, which returns within a few thousand positions.
"""

import functools
import uuid

import numpy as np

from ..core.contract import UNSEEN
from ..core.errors import SearchLimitError
from ..core.limits import (INTERRUPTED, MARGIN, RUNNING, STOP_MASK, active, check, note,
                           stop_reason, watch)
from ..core.jit import jit, kernel
from ..core.memory import check_fits
from .expand import MEMO_WORDS, push

#: The greatest depth a part's one-byte table holds (255 means unseen).
MAX_DEPTH = UNSEEN - 1
#: The parts held by this process's worker(s): ``(run, part) -> (space, lo, dist)``.
_PARTS = {}


@kernel
def _children(ranks, fns, p):
    """The ranks of every child (legal moves) of the positions of ``ranks``
    (:func:`.expand.push`)."""
    out = np.empty(ranks.shape[0] * p.n_moves, dtype=np.int64)
    state = np.empty(p.state_len, dtype=np.uint8)
    base = np.empty(p.state_len, dtype=np.uint8)
    todo = np.empty(p.n_moves, dtype=np.int64)
    memo = np.full(MEMO_WORDS, -1, dtype=np.int64)
    k = 0
    for i in range(ranks.shape[0]):
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break  # (the task's watch raises)
        k = push(fns, ranks[i], p, base, state, out, k, todo, memo)
    return out[:k]


@jit
def _absorb(dist, lo, ranks, mark):
    """Mark the ranks of ``ranks`` (global ranks, this part's) not reached yet with ``mark``;
    returns how many were new."""
    new = 0
    for i in range(ranks.shape[0]):
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break  # (the task's watch raises)
        k = ranks[i] - lo
        if dist[k] == UNSEEN:
            dist[k] = mark
            new += 1
    return new


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
    empty = np.empty(0, dtype=np.int64)
    _children(empty, space.fns, space.params)
    _absorb(np.empty(0, dtype=np.uint8), 0, empty, np.uint8(1))


@_watched
def _init_part(run, i, lo, hi, space, starts):
    dist = np.full(hi - lo, UNSEEN, dtype=np.uint8)
    mine = starts[(starts >= lo) & (starts < hi)]
    dist[mine - lo] = 0
    _PARTS[(run, i)] = (space, lo, dist)
    return len(mine)


@_watched
def _expand_part(run, i, depth, bounds):
    space, lo, dist = _PARTS[(run, i)]
    ranks = np.flatnonzero(dist == depth).astype(np.int64) + lo
    check_fits(16 * len(ranks) * int(space.params.n_moves),
               f"the children of {len(ranks):,} positions of part {i} (8-byte ranks, sorted)")
    kids = _children(ranks, space.fns, space.params)
    generated = len(kids)
    kids = np.unique(kids)
    cuts = np.searchsorted(kids, bounds)
    pieces = [kids[cuts[j]:cuts[j + 1]] for j in range(len(bounds) - 1)]
    return pieces, len(ranks), generated, kids.nbytes


def _piece(expanded, j):
    return expanded[0][j]


def _tally(expanded):
    return expanded[1:]


@_watched
def _absorb_part(run, j, depth, *pieces):
    space, lo, dist = _PARTS[(run, j)]
    mark = np.uint8(depth + 1)
    return sum(int(_absorb(dist, lo, piece, mark)) for piece in pieces)


def _last_layer(run, i, depth, limit):
    space, lo, dist = _PARTS[(run, i)]
    ranks = np.flatnonzero(dist == depth).astype(np.int64) + lo
    return ranks[:limit], len(ranks)


def _drop_part(run, i):
    _PARTS.pop((run, i), None)


# -- the client's side ---------------------------------------------------------------------------

def worker_addresses(client):
    """The cluster's workers, in a fixed order, with their memory limits (bytes; 0: none).

    Asked of the scheduler directly: ``Client.scheduler_info`` returns a cached record that the
    client's periodic refresh may overwrite with one listing no workers at all."""
    info = client.sync(client.scheduler.identity, n_workers=-1)["workers"]
    return [(addr, int(info[addr].get("memory_limit") or 0)) for addr in sorted(info)]


def warm_workers(client, space):
    """Have every worker compile the kernels for ``space`` (or load them from numba's cache),
    so that a search's time holds none of it."""
    workers = [addr for addr, _ in worker_addresses(client)]
    client.gather([client.submit(_warm, space, workers=[w], allow_other_workers=False,
                                 pure=False) for w in workers])


def part_bounds(n, n_parts):
    """Where each of ``n_parts`` parts of ranks ``0..n-1`` starts (and ``n`` at the end)."""
    return np.linspace(0, n, n_parts + 1).astype(np.int64)


def dask_bfs(client, space, n_ranks, start_ranks, progress=None, max_depth=None,
             farthest_limit=1000, n_parts=None):
    """Breadth-first search from ``start_ranks`` over the ranks ``0..n_ranks-1`` of ``space``,
    split into ``n_parts`` parts (default: one per worker) on the workers of ``client`` (see
    the module). ``progress(depth, layer_count, total)`` after each layer; stops after layer
    ``max_depth`` if given.

    Returns ``(counts, farthest_ranks, n_farthest, tally, stopped)``; ``tally``: the children
    generated, the positions expanded, and the bytes sent between parts."""
    workers = [addr for addr, _ in worker_addresses(client)]
    n_parts = len(workers) if n_parts is None else int(n_parts)
    bounds = part_bounds(n_ranks, n_parts)
    owner = [workers[i % len(workers)] for i in range(n_parts)]
    run = uuid.uuid4().hex
    starts = np.unique(np.asarray(start_ranks, dtype=np.int64))
    submitted = []  # every task, for a stop to cancel

    def on(i, fn, *args):
        future = client.submit(fn, *args, workers=[owner[i]], allow_other_workers=False,
                               pure=False)
        submitted.append(future)
        return future

    stopping = True
    try:
        made = client.gather([on(i, _init_part, run, i, int(bounds[i]), int(bounds[i + 1]),
                                 space, starts) for i in range(n_parts)])
        counts = [int(sum(made))]
        tally = np.zeros(3, dtype=np.int64)
        depth = 0
        stopped = False
        while True:
            if max_depth is not None and depth >= max_depth:
                stopped = True
                break
            if depth >= MAX_DEPTH:
                raise SearchLimitError(f"depth {MAX_DEPTH} reached: deeper layers do not fit "
                                       f"the parts' one-byte tables")
            expanded = [on(i, _expand_part, run, i, depth, bounds) for i in range(n_parts)]
            absorbed = [on(j, _absorb_part, run, j, depth,
                           *[on(i, _piece, expanded[i], j) for i in range(n_parts)])
                        for j in range(n_parts)]
            new = int(sum(client.gather(absorbed)))
            for found, generated, sent in client.gather([on(i, _tally, expanded[i])
                                                          for i in range(n_parts)]):
                tally += (generated, found, sent)
            del expanded, absorbed
            if new == 0:
                break
            depth += 1
            counts.append(new)
            note(depth, sum(counts))
            check()
            if progress is not None:
                progress(depth, new, sum(counts))
        last = client.gather([on(i, _last_layer, run, i, depth, farthest_limit)
                              for i in range(n_parts)])
        far = np.concatenate([ranks for ranks, _ in last])[:farthest_limit]
        n_far = sum(k for _, k in last)
        stopping = False
    finally:
        drops = [on(i, _drop_part, run, i) for i in range(n_parts)]
        if stopping:
            _stop_workers(client, submitted[:-n_parts], drops)
        else:
            client.gather(drops)
    return counts, far, int(n_far), tally, stopped


def _stop_workers(client, pending, drops):
    """The search stopped (an error, Ctrl-C, a limit): cancel the tasks not done, stop the
    kernels running on the workers, and let the parts go without waiting."""
    try:
        client.cancel([f for f in pending if not f.done()])
        client.run(_halt)
    except Exception:  # noqa: BLE001 (a worker gone, a cluster closing: nothing left to stop)
        pass
    try:
        from distributed import fire_and_forget
        fire_and_forget(drops)
    except Exception:  # noqa: BLE001
        pass
