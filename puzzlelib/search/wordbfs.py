"""Breadth-first search over positions that fit one 64-bit integer (a *word*).

For domains whose whole position fits in 64 bits and whose functions make the words of a
position's children directly (:class:`~puzzlelib.core.contract.WordFns`; block puzzles of up to
21 cells), nothing is unpacked, packed or compared byte by byte: each layer is an array of
words, and one open-addressing set of words holds every position seen, so a child is new when
one probe of that set says so. The whole search is one compiled call unless progress is asked
for (then one call per layer).

:func:`word_bfs` counts every layer, holding two layers of words beside the set;
:func:`word_solve` stops at the first goal and keeps every layer, each position with its
parent's index, so the path can be read back. Every position seen is in the set (8 to 32 bytes
each): these searches are for spaces that fit memory many times over;
:func:`.frontier.frontier_bfs` keeps three layers of byte keys instead.
"""

import time

import numpy as np

from ..core.hashset import key_add, key_regrow, new_key_set
from ..core.jit import kernel
from ..core.limits import RUNNING, STOP_MASK, check, note, report, stop_reason

#: Slots of the set to start with (512 KiB): a set that doubles from a few thousand slots
#: spends longer moving its words than the classic 4x5's whole search (benchmarks/RESULTS.md,
#: "Constants").
FIRST_SLOTS = 1 << 16


@kernel
def _expand_some(cur, i, hi, slots, room, nxt, parent, n, wfns, p, out, keep):
    """Expand ``cur[i:hi]`` into ``nxt[n:]``, up to the first parent whose children might not
    fit: in the set without passing its load of one half (``room`` more words) or in ``nxt``.
    With ``keep``, each new word's parent index goes to ``parent`` and the expansion stops at
    the first goal. Returns (next parent, size of ``nxt``, room left, children generated, the
    goal's index in ``nxt`` or -1). No array is replaced here, so numba counts no references
    in this loop."""
    generated = 0
    while i < hi:
        if (i & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break  # stopped from outside (puzzlelib.core.limits): the caller raises
        k = wfns.children(cur[i], p, out)
        if k > room or n + k > nxt.shape[0]:
            break
        generated += k
        for j in range(k):
            if key_add(slots, out[j]):
                nxt[n] = out[j]
                n += 1
                room -= 1
                if keep:
                    parent[n - 1] = i
                    if wfns.is_goal(out[j], p):
                        return i + 1, n, room, generated, n - 1
        i += 1
    return i, n, room, generated, -1


@kernel
def _run(words, parent, lo, hi, slots, n_seen, counts, depth, wfns, p, max_layers, max_depth,
         max_states, keep):
    """Make up to ``max_layers`` layers after layer ``depth`` (``words[lo:hi]``), stopping
    early at ``max_depth`` (-1: none), at an empty layer, once more than ``max_states``
    positions have been seen, or (``keep``) at a goal. With ``keep`` every layer stays in
    ``words`` (and each position's parent index in ``parent``); without it the next layer
    replaces the last. Returns (words, parent, lo, hi, slots, positions seen, counts, depth,
    children generated, positions expanded, goal index or -1, whether the next layer was
    empty, whether the limit stopped it)."""
    out = np.empty(p.max_children, dtype=np.int64)
    generated = 0
    expanded = 0
    made = 0
    while made < max_layers and (max_depth < 0 or depth < max_depth) and (
            stop_reason() == RUNNING):
        if n_seen > max_states:
            return (words, parent, lo, hi, slots, n_seen, counts, depth, generated, expanded,
                    -1, False, True)
        if keep:
            nxt = words
            n = hi
        else:
            nxt = np.empty(max(64, 2 * (hi - lo)), dtype=np.int64)
            n = 0
        first = n
        i = lo
        room = slots.shape[0] // 2 - n_seen
        while True:
            i, n, room, g, goal = _expand_some(words, i, hi, slots, room, nxt, parent, n, wfns,
                                               p, out, keep)
            generated += g
            if i == hi or goal >= 0 or stop_reason() != RUNNING:
                break
            if room < p.max_children:
                slots = key_regrow(slots)
                room = slots.shape[0] // 2 - n_seen - (n - first)
            if nxt.shape[0] - n < p.max_children:
                bigger = np.empty(2 * nxt.shape[0] + p.max_children, dtype=np.int64)
                bigger[:n] = nxt[:n]
                nxt = bigger
                if keep:
                    words = nxt
                    up = np.empty(nxt.shape[0], dtype=np.int64)
                    up[:n] = parent[:n]
                    parent = up
        n_seen += n - first
        expanded += i - lo
        if n == first:
            return (words, parent, lo, hi, slots, n_seen, counts, depth, generated, expanded,
                    -1, True, False)
        depth += 1
        made += 1
        if depth >= counts.shape[0]:
            more = np.zeros(2 * counts.shape[0], dtype=np.int64)
            more[: counts.shape[0]] = counts
            counts = more
        counts[depth] = n - first
        report(depth, n_seen)
        words, lo, hi = nxt, first, n
        if goal >= 0:
            return (words, parent, lo, hi, slots, n_seen, counts, depth, generated, expanded,
                    goal, False, False)
    return (words, parent, lo, hi, slots, n_seen, counts, depth, generated, expanded, -1,
            False, False)


@kernel
def _first(starts, wfns, p, keep):
    """Layer 0 (the starts' words, each once, with room for more when ``keep``), the set
    holding them, and the index of a goal among them or -1."""
    n_slots = FIRST_SLOTS
    while n_slots < 4 * starts.shape[0]:
        n_slots *= 2
    slots = new_key_set(n_slots)
    words = np.empty(max(1 << 12, 4 * starts.shape[0]) if keep else max(1, starts.shape[0]),
                     dtype=np.int64)
    n = 0
    goal = -1
    for i in range(starts.shape[0]):
        w = wfns.word(starts[i], p)
        if key_add(slots, w):
            words[n] = w
            if keep and goal < 0 and wfns.is_goal(w, p):
                goal = n
            n += 1
    return words, n, slots, goal


@kernel
def _states(words, n, wfns, p, state_len):
    out = np.empty((n, state_len), dtype=np.uint8)
    for i in range(n):
        wfns.unword(words[i], p, out[i])
    return out


class WordResult:
    """What :func:`word_bfs` and :func:`word_solve` found, with the fields of
    :class:`~puzzlelib.search.frontier.FrontierResult`: ``counts`` (the goal's layer counted up
    to the goal), ``last`` (the deepest layer's states, in increasing order of their words),
    ``generated``, ``expanded``, ``peak_states`` and ``peak_bytes`` (every position seen is
    held), ``seconds``, ``stopped`` (``max_depth`` stopped it: its last layer was not
    expanded); from :func:`word_solve`, when a goal was reached, ``goal_depth`` and ``path``
    (the words from a start to it)."""

    moves = None
    start_index = None

    def __init__(self, counts, last, generated, expanded, peak_states, peak_bytes, seconds,
                 stopped, goal_depth=None, path=None):
        self.counts = counts
        self.last = last
        self.generated, self.expanded = int(generated), int(expanded)
        self.peak_states, self.peak_bytes = int(peak_states), int(peak_bytes)
        self.seconds = seconds
        self.stopped = bool(stopped)
        self.goal_depth = goal_depth
        self.path = path

    @property
    def total(self):
        return int(sum(self.counts))


def _search(wfns, p, starts, state_len, max_depth, max_states, progress, keep):
    t0 = time.perf_counter()
    starts = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.uint8)
    words, n0, slots, goal = _first(starts, wfns, p, keep)
    parent = np.full(words.shape[0] if keep else 0, -1, dtype=np.int64)
    counts = np.zeros(256, dtype=np.int64)
    counts[0] = n0
    lo, hi, n_seen, depth = 0, n0, n0, 0
    generated = expanded = 0
    limit = (1 << 62) if max_states is None else int(max_states)
    deepest = -1 if max_depth is None else int(max_depth)
    step = 1 if progress is not None else 1 << 30
    if progress is not None:
        progress(0, n0, n0)
    done = False
    while goal < 0 and not done and (deepest < 0 or depth < deepest):
        (words, parent, lo, hi, slots, n_seen, counts, depth, g, e, goal, done,
         over) = _run(words, parent, lo, hi, slots, n_seen, counts, depth, wfns, p, step,
                      deepest, limit, keep)
        note(depth, n_seen)
        check()
        generated += int(g)
        expanded += int(e)
        if over:
            held = slots.nbytes + words.nbytes + parent.nbytes
            raise MemoryError(
                f"breadth-first search stopped at depth {depth}: {n_seen:,} positions held "
                f"({held / 2**30:.2f} GiB), over the limit of {limit:,}")
        if progress is not None and not done:
            progress(depth, int(hi - lo), int(n_seen))
        if step > 1:
            break
    path = None
    if goal >= 0:
        path = [int(words[goal])]
        j = goal
        while parent[j] >= 0:
            j = int(parent[j])
            path.append(int(words[j]))
        path.reverse()
    stopped = goal < 0 and not done and deepest >= 0 and depth >= deepest
    last = _states(np.sort(words[lo:hi]), hi - lo, wfns, p, state_len)
    peak = slots.nbytes + (words.nbytes + parent.nbytes if keep
                           else 16 * int(counts[: depth + 1].max()))
    return WordResult(counts[: depth + 1].copy(), last, generated, expanded, n_seen, peak,
                      time.perf_counter() - t0, stopped, depth if goal >= 0 else None, path)


def word_bfs(wfns, p, starts, state_len, max_depth=None, max_states=None, progress=None):
    """Breadth-first search from every row of ``starts`` (a 2-D ``uint8`` array of states of
    ``state_len`` bytes) over the words of ``wfns`` with params ``p`` (which has
    ``max_children``), every layer to the last. ``max_depth`` stops after that layer;
    ``max_states`` bounds the positions held (every one seen): passing it raises
    :class:`MemoryError` with a message. ``progress(depth, layer_size, total)`` is called
    after each layer (the search then returns to Python once per layer). Returns a
    :class:`WordResult`."""
    return _search(wfns, p, starts, state_len, max_depth, max_states, progress, False)


def word_solve(wfns, p, starts, state_len, max_depth=None, max_states=None, progress=None):
    """:func:`word_bfs` until a position ``wfns.is_goal`` accepts, every layer kept with each
    position's parent, so that the path to the first goal met (a shortest one) is read back
    into the result's ``path``."""
    return _search(wfns, p, starts, state_len, max_depth, max_states, progress, True)
