"""Breadth-first search layer by layer on whole states, keeping only the layers it needs.

For spaces with no perfect hash (block puzzles, relaxed puzzles of pattern databases), each
layer is a :mod:`puzzlelib.core.hashset` hash set of whole states. When every move can be undone, a
neighbour of a position at depth ``d`` lies at depth ``d - 1``, ``d`` or ``d + 1``; so a new
position is recognised by looking it up in the previous, the current and the next layer only,
and older layers can be dropped ("frontier search"): memory is a few layers, not the whole
space. Kept layers (``keep_all``) also give a shortest path, by following each state's parent
in the layer before.

States are stored as keys, and only the moves a domain lists as candidates are tried: a domain
that offers them passes its :class:`~puzzlelib.core.contract.FrontierFns` (a 6x7 block puzzle's
position in 7 bytes instead of 43, and a few dozen of its several hundred move numbers);
without them a state is its own key and every move number is tried.

The driver is a Python loop over layers (so progress can be shown and a caller can consume each
layer: the pattern-database builder reads its images from it); the work of one layer is one
jitted call, written once over a domain's functions like the other searches.
"""

import time

import numpy as np

from ..core.jit import kernel
from ..core.limits import RUNNING, STOP_MASK, check, note, report, stop_reason
from ..core.contract import ILLEGAL, PLAIN_FRONTIER, play
from ..core.stats import peak_states
from ..core.hashset import (
    find_hashed,
    grow_rows,
    has_room,
    hash_state,
    insert_hashed,
    make_room,
    new_table,
    path_to,
    put,
)


class Layer:
    """One depth of the search: ``n`` keys (``pool[:n]``) with, for each, the index of its
    parent in the layer before and the move from it (-1 at depth 0)."""

    __slots__ = ("slots", "pool", "n", "parent", "move")

    def __init__(self, slots, pool, n, parent, move):
        self.slots, self.pool, self.n, self.parent, self.move = slots, pool, n, parent, move

    @property
    def keys(self):
        return self.pool[: self.n]

    @property
    def nbytes(self):
        return self.slots.nbytes + self.pool.nbytes + self.parent.nbytes + self.move.nbytes


@kernel
def _first_layer(starts, ffns, p, key_len):
    slots, pool = new_table(key_len, max(16, starts.shape[0]))
    key = np.empty(key_len, dtype=np.uint8)
    n = 0
    for i in range(starts.shape[0]):
        ffns.pack(starts[i], p, key)
        h = hash_state(key)
        if find_hashed(slots, pool, key, h) < 0:
            slots, pool = insert_hashed(slots, pool, n, key, h)
            n += 1
    return slots, pool, n


@kernel
def _unpack_rows(keys, ffns, p):
    out = np.empty((keys.shape[0], p.state_len), dtype=np.uint8)
    for i in range(keys.shape[0]):
        ffns.unpack(keys[i], p, out[i])
    return out


@kernel
def _expand(prev_slots, prev_pool, cur_slots, cur_pool, n_cur, cur_move, fns, ffns, p,
            stop_at_goal):
    """The next layer of ``cur``: returns (slots, pool, n, parent, move, goal index or -1,
    children generated, parents expanded). Parents and moves are 32-bit (a layer holds fewer
    than 2**31 states)."""
    cap = max(64, n_cur)
    key_len = cur_pool.shape[1]
    slots, pool = new_table(key_len, cap)
    parent = np.empty(cap, dtype=np.int32)
    move = np.empty(cap, dtype=np.int32)
    n = 0
    base = np.empty(p.state_len, dtype=np.uint8)
    buf = np.empty(p.state_len, dtype=np.uint8)
    key = np.empty(key_len, dtype=np.uint8)
    cand = np.empty(p.n_moves, dtype=np.int64)
    generated = 0
    for idx in range(n_cur):
        if (idx & STOP_MASK) == 0 and stop_reason() != RUNNING:
            return slots, pool, n, parent, move, -1, generated, idx  # (the caller raises)
        back = fns.inverse(cur_move[idx], p) if cur_move[idx] >= 0 else -1
        ffns.unpack(cur_pool[idx], p, base)
        for j in range(p.state_len):
            buf[j] = base[j]
        n_cand = ffns.candidates(base, p, cand)
        # room for every child first, so that no array is replaced in the loop below (numba
        # then counts references of the replaced arrays on every child)
        if n + n_cand > parent.shape[0]:
            parent = grow_rows(parent, max(2 * n, n + n_cand))
            move = grow_rows(move, parent.shape[0])
        if not has_room(slots, pool, n, n_cand):  # (growing only here: see core.hashset)
            slots, pool = make_room(slots, pool, n, n_cand)
        for t in range(n_cand):
            m = cand[t]
            if m == back or play(fns, ffns, buf, m, p) == ILLEGAL:
                continue
            generated += 1
            ffns.pack(buf, p, key)
            h = hash_state(key)
            if (find_hashed(slots, pool, key, h) < 0 and find_hashed(cur_slots, cur_pool, key, h) < 0
                    and find_hashed(prev_slots, prev_pool, key, h) < 0):
                put(slots, pool, n, key, h)
                parent[n] = idx
                move[n] = m
                n += 1
                if stop_at_goal and fns.is_goal(buf, p):
                    return slots, pool, n, parent, move, n - 1, generated, idx + 1
            for j in range(p.state_len):  # back to the parent (cheaper than undoing the move)
                buf[j] = base[j]
    return slots, pool, n, parent, move, -1, generated, n_cur


@kernel
def _goal_in(pool, n, fns, ffns, p):
    buf = np.empty(p.state_len, dtype=np.uint8)
    for i in range(n):
        ffns.unpack(pool[i], p, buf)
        if fns.is_goal(buf, p):
            return i
    return -1


@kernel
def _bfs_in_one_call(starts, fns, ffns, p, key_len, stop_at_goal, keep_all, max_depth):
    """The whole search in one compiled call (no progress, no per-layer callback): the same
    layers as :func:`frontier_bfs`, without a Python round trip per layer (which took half the
    time of the classic 4x5 puzzle's search).

    Returns (counts, deepest layer, goal depth or -1, moves, index of the start, peak bytes,
    children generated, positions expanded). With ``keep_all`` every layer is copied into one
    pool with global parent indices."""
    L = key_len
    slots, pool, n = _first_layer(starts, ffns, p, key_len)
    cur_slots, cur_pool, cur_n = slots, pool, n
    cur_move = np.full(n, -1, dtype=np.int32)
    prev_slots, prev_pool = new_table(L, 1)
    counts = np.zeros(256, dtype=np.int64)
    counts[0] = n
    cap = max(16, n) if keep_all else 1
    all_pool = np.empty((cap, L), dtype=np.uint8)
    all_par = np.full(cap, -1, dtype=np.int64)
    all_mov = np.full(cap, -1, dtype=np.int64)
    n_all = 0
    base_cur = 0
    if keep_all:
        all_pool[:n] = pool[:n]
        n_all = n
    goal = _goal_in(pool, n, fns, ffns, p) if stop_at_goal else -1
    goal_global = goal
    depth = 0
    peak = 0
    generated = 0
    expanded = 0
    seen = n
    while goal < 0 and (max_depth < 0 or depth < max_depth) and stop_reason() == RUNNING:
        slots, pool, n, parent, move, goal, g, e = _expand(prev_slots, prev_pool, cur_slots,
                                                           cur_pool, cur_n, cur_move, fns, ffns,
                                                           p, stop_at_goal)
        generated += g
        expanded += e
        if n == 0:
            break
        depth += 1
        if depth == counts.shape[0]:
            counts = grow_rows(counts, 2 * depth)
        counts[depth] = n
        seen += n
        report(depth, seen)
        if keep_all:
            while n_all + n > all_pool.shape[0]:
                all_pool = grow_rows(all_pool, 2 * all_pool.shape[0])
                all_par = grow_rows(all_par, 2 * all_par.shape[0])
                all_mov = grow_rows(all_mov, 2 * all_mov.shape[0])
            for i in range(n):
                all_pool[n_all + i] = pool[i]
                all_par[n_all + i] = base_cur + parent[i]
                all_mov[n_all + i] = move[i]
            base_cur = n_all
            n_all += n
            if goal >= 0:
                goal_global = base_cur + goal
        used = (slots.nbytes + pool.nbytes + cur_slots.nbytes + cur_pool.nbytes
                + prev_slots.nbytes + prev_pool.nbytes + all_pool.nbytes + 16 * all_par.shape[0])
        peak = max(peak, used)
        prev_slots, prev_pool = cur_slots, cur_pool
        cur_slots, cur_pool, cur_n, cur_move = slots, pool, n, move
    moves = np.empty(0, dtype=np.int64)
    start_index = -1
    goal_depth = -1
    if goal >= 0:
        goal_depth = depth
        if keep_all:
            moves = path_to(goal_global, all_par, all_mov)
            j = goal_global
            while all_par[j] >= 0:
                j = all_par[j]
            start_index = j
    last = _unpack_rows(cur_pool[:cur_n], ffns, p)
    return (counts[: depth + 1].copy(), last, goal_depth, moves, start_index, peak, generated,
            expanded)


class FrontierResult:
    """What :func:`frontier_bfs` found: ``counts[d]`` positions at depth ``d`` (the goal's
    layer counted up to the goal, when the search stopped there); ``goal_depth`` and ``moves``
    (move numbers from a start) when a goal was reached; ``last`` the deepest layer (the
    farthest positions when the search ran to exhaustion); the children ``generated``, the
    positions ``expanded``, the most positions and bytes the layers held at once
    (``peak_states``, ``peak_bytes``); whether ``max_depth`` stopped it while the last layer
    still had positions to expand (``stopped``)."""

    def __init__(self, counts, goal_depth, moves, last, peak_bytes, seconds, start_index,
                 generated, expanded, peak_states, stopped):
        self.counts = counts
        self.goal_depth = goal_depth
        self.moves = moves
        self.last = last
        self.peak_bytes = int(peak_bytes)
        self.seconds = seconds
        self.start_index = start_index
        self.generated, self.expanded = int(generated), int(expanded)
        self.peak_states = int(peak_states)
        self.stopped = bool(stopped)

    @property
    def total(self):
        return int(sum(self.counts))


def frontier_bfs(fns, p, starts, stop_at_goal=False, keep_all=None, max_depth=None,
                 max_states=None, progress=None, on_layer=None, ffns=None):
    """Breadth-first search from every row of ``starts`` (a 2-D ``uint8`` array of states).

    ``stop_at_goal``: stop at the first layer holding a goal and return a shortest path to it
    (layers are then all kept; otherwise only three at a time, unless ``keep_all``).
    ``progress(depth, layer_size, total)`` is called after each layer, ``on_layer(depth,
    keys)`` with each layer's keys (a view, valid during the call; the states themselves when
    there is no ``ffns``). ``max_states`` bounds the states held at once; passing it raises
    :class:`MemoryError` with a message. ``ffns``: the domain's compact keys (with
    ``p.key_len``) and candidate moves (:class:`~puzzlelib.core.contract.FrontierFns`); the
    result's ``last`` holds states either way. Returns a :class:`FrontierResult`.
    """
    t0 = time.perf_counter()
    starts = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.uint8)
    keep_all = stop_at_goal if keep_all is None else keep_all
    key_len = p.state_len if ffns is None else int(p.key_len)
    ffns = PLAIN_FRONTIER if ffns is None else ffns
    if progress is None and on_layer is None and max_states is None:
        counts, last, gd, mv, si, peak, gen, exp = _bfs_in_one_call(
            starts, fns, ffns, p, key_len, stop_at_goal, keep_all,
            -1 if max_depth is None else max_depth)
        note(len(counts) - 1, int(counts.sum()))
        check()
        found = gd >= 0
        stopped = not found and max_depth is not None and len(counts) - 1 >= max_depth
        return FrontierResult(counts, gd if found else None,
                              [int(x) for x in mv] if found else None, last, peak,
                              time.perf_counter() - t0, si if found else None, gen, exp,
                              peak_states(counts, keep_all), stopped)
    slots, pool, n = _first_layer(starts, ffns, p, key_len)
    layers = [Layer(slots, pool, n, np.full(n, -1, dtype=np.int32), np.full(n, -1, dtype=np.int32))]
    counts = [n]
    held = n
    peak = layers[0].nbytes
    if on_layer is not None:
        on_layer(0, layers[0].keys)
    if progress is not None:
        progress(0, n, n)
    goal = _goal_in(pool, n, fns, ffns, p) if stop_at_goal else -1
    empty_slots, empty_pool = new_table(key_len, 1)
    prev = None
    depth = 0
    generated = expanded = 0
    while goal < 0 and layers[-1].n > 0 and (max_depth is None or depth < max_depth):
        cur = layers[-1]
        ps, pp = (prev.slots, prev.pool) if prev is not None else (empty_slots, empty_pool)
        slots, pool, n, parent, move, goal, gen, exp = _expand(
            ps, pp, cur.slots, cur.pool, cur.n, cur.move, fns, ffns, p, stop_at_goal)
        check()
        generated += int(gen)
        expanded += int(exp)
        depth += 1
        nxt = Layer(slots, pool, n, parent, move)
        if n == 0:
            break
        counts.append(n)
        note(depth, sum(counts))
        if on_layer is not None:
            on_layer(depth, nxt.keys)
        if progress is not None:
            progress(depth, n, sum(counts))
        if keep_all:
            layers.append(nxt)
            held += n
            peak = max(peak, sum(layer.nbytes for layer in layers))
        else:  # the layer before, this one and the next were all held while expanding
            layers = [nxt]
            held = cur.n + nxt.n
            peak = max(peak, (prev.nbytes if prev is not None else 0) + cur.nbytes + nxt.nbytes)
        prev = cur
        if max_states is not None and held > max_states:
            raise MemoryError(
                f"breadth-first search stopped at depth {depth}: {held:,} states held "
                f"({peak / 2**30:.2f} GiB), over the limit of {max_states:,}"
            )
    moves = None
    start_index = None
    goal_depth = None
    if goal >= 0:
        goal_depth = depth
    if goal >= 0 and keep_all:
        moves = []
        i = goal
        for layer in reversed(layers[1: goal_depth + 1]):
            moves.append(int(layer.move[i]))
            i = int(layer.parent[i])
        moves.reverse()
        start_index = i
    last = _unpack_rows(layers[-1].keys, ffns, p)
    stopped = goal < 0 and max_depth is not None and len(counts) - 1 >= max_depth
    return FrontierResult(np.array(counts, dtype=np.int64), goal_depth, moves,
                          last, peak, time.perf_counter() - t0, start_index, generated, expanded,
                          peak_states(counts, keep_all), stopped)
