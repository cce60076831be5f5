"""Breadth-first search over positions that fit one 64-bit integer (a *word*).

For domains whose whole position fits in 64 bits and whose functions make the words of a
position's children directly (:class:`~puzzlelib.core.contract.WordFns`; block puzzles of up to
21 cells), nothing is unpacked, packed or compared byte by byte: each layer is an array of
words, and one open-addressing set of words holds every position seen, so a child is new when
one probe of that set says so. The whole search is one compiled call unless progress is asked
for (then one call per layer).

Every position seen is kept (8 bytes in a layer, 8 to 32 in the set): this search is for spaces
that fit memory many times over; :func:`.frontier.frontier_bfs` keeps three layers instead.
"""

import time

import numpy as np

from ..core.hashset import key_add, key_regrow, new_key_set
from ..core.jit import kernel

#: Slots of the set to start with (512 KiB): a set that doubles from a few thousand slots
#: spends longer moving its words than the classic 4x5's whole search (benchmarks/RESULTS.md,
#: "Constants").
FIRST_SLOTS = 1 << 16


@kernel
def _expand_some(cur, i, n_cur, slots, room, nxt, n, wfns, p, out):
    """Expand ``cur[i:n_cur]`` into ``nxt[n:]``, up to the first parent whose children might
    not fit: in the set without passing its load of one half (``room`` more words) or in
    ``nxt``. Returns (next parent, size of ``nxt``, room left, children generated). No array
    is replaced here, so numba counts no references in this loop."""
    generated = 0
    while i < n_cur:
        k = wfns.children(cur[i], p, out)
        if k > room or n + k > nxt.shape[0]:
            break
        generated += k
        for j in range(k):
            if key_add(slots, out[j]):
                nxt[n] = out[j]
                n += 1
                room -= 1
        i += 1
    return i, n, room, generated


@kernel
def _run(cur, n_cur, slots, n_seen, counts, depth, wfns, p, max_layers, max_depth,
         max_states):
    """Make up to ``max_layers`` layers after layer ``depth`` (``cur[:n_cur]``), stopping
    early at ``max_depth`` (-1: none), at an empty layer, or once more than ``max_states``
    positions have been seen. Returns (last layer made, its size, slots, positions
    seen, counts, depth, children generated, positions expanded, whether the next layer was
    empty, whether the limit stopped it)."""
    out = np.empty(p.max_children, dtype=np.int64)
    generated = 0
    expanded = 0
    made = 0
    while made < max_layers and (max_depth < 0 or depth < max_depth):
        if n_seen > max_states:
            return cur, n_cur, slots, n_seen, counts, depth, generated, expanded, False, True
        nxt = np.empty(max(64, 2 * n_cur), dtype=np.int64)
        n = 0
        i = 0
        room = slots.shape[0] // 2 - n_seen
        while True:
            i, n, room, g = _expand_some(cur, i, n_cur, slots, room, nxt, n, wfns, p, out)
            generated += g
            if i == n_cur:
                break
            if room < p.max_children:
                slots = key_regrow(slots)
                room = slots.shape[0] // 2 - n_seen - n
            if nxt.shape[0] - n < p.max_children:
                bigger = np.empty(2 * nxt.shape[0] + p.max_children, dtype=np.int64)
                bigger[:n] = nxt[:n]
                nxt = bigger
        n_seen += n
        expanded += n_cur
        if n == 0:
            return cur, n_cur, slots, n_seen, counts, depth, generated, expanded, True, False
        depth += 1
        made += 1
        if depth >= counts.shape[0]:
            more = np.zeros(2 * counts.shape[0], dtype=np.int64)
            more[: counts.shape[0]] = counts
            counts = more
        counts[depth] = n
        cur, n_cur = nxt, n
    return cur, n_cur, slots, n_seen, counts, depth, generated, expanded, False, False


@kernel
def _first(starts, wfns, p):
    """Layer 0 (the starts' words, each once) and the set holding them."""
    n_slots = FIRST_SLOTS
    while n_slots < 4 * starts.shape[0]:
        n_slots *= 2
    slots = new_key_set(n_slots)
    cur = np.empty(max(1, starts.shape[0]), dtype=np.int64)
    n = 0
    for i in range(starts.shape[0]):
        w = wfns.word(starts[i], p)
        if key_add(slots, w):
            cur[n] = w
            n += 1
    return cur, n, slots


@kernel
def _states(words, n, wfns, p, state_len):
    out = np.empty((n, state_len), dtype=np.uint8)
    for i in range(n):
        wfns.unword(words[i], p, out[i])
    return out


class WordResult:
    """What :func:`word_bfs` found, with the fields of
    :class:`~puzzlelib.search.frontier.FrontierResult` that a full search fills: ``counts``,
    ``last`` (the deepest layer's states, in increasing order of their words), ``generated``,
    ``expanded``, ``peak_states`` and ``peak_bytes`` (every position seen is held),
    ``seconds``, ``stopped`` (``max_depth`` stopped it: its last layer was not expanded)."""

    goal_depth = None
    moves = None
    start_index = None

    def __init__(self, counts, last, generated, expanded, peak_states, peak_bytes, seconds,
                 stopped):
        self.counts = counts
        self.last = last
        self.generated, self.expanded = int(generated), int(expanded)
        self.peak_states, self.peak_bytes = int(peak_states), int(peak_bytes)
        self.seconds = seconds
        self.stopped = bool(stopped)

    @property
    def total(self):
        return int(sum(self.counts))


def word_bfs(wfns, p, starts, state_len, max_depth=None, max_states=None, progress=None):
    """Breadth-first search from every row of ``starts`` (a 2-D ``uint8`` array of states of
    ``state_len`` bytes) over the words of ``wfns`` with params ``p`` (which has
    ``max_children``). ``max_depth`` stops after that layer; ``max_states`` bounds the
    positions held (every one seen): passing it raises :class:`MemoryError` with a message.
    ``progress(depth, layer_size, total)`` is called after each layer (the search then
    returns to Python once per layer). Returns a :class:`WordResult`."""
    t0 = time.perf_counter()
    starts = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.uint8)
    cur, n_cur, slots = _first(starts, wfns, p)
    counts = np.zeros(256, dtype=np.int64)
    counts[0] = n_cur
    n_seen = n_cur
    depth = 0
    generated = expanded = 0
    limit = (1 << 62) if max_states is None else int(max_states)
    deepest = -1 if max_depth is None else int(max_depth)
    step = 1 if progress is not None else 1 << 30
    if progress is not None:
        progress(0, n_cur, n_seen)
    done = False
    while not done and (deepest < 0 or depth < deepest):
        (cur, n_cur, slots, n_seen, counts, depth, g, e, done,
         over) = _run(cur, n_cur, slots, n_seen, counts, depth, wfns, p, step, deepest, limit)
        generated += int(g)
        expanded += int(e)
        if over:
            raise MemoryError(
                f"breadth-first search stopped at depth {depth}: {n_seen:,} positions held "
                f"({(slots.nbytes + 8 * n_seen) / 2**30:.2f} GiB), over the limit of "
                f"{limit:,}")
        if progress is not None and not done:
            progress(depth, int(n_cur), int(n_seen))
        if step > 1:
            break
    stopped = not done and deepest >= 0 and depth >= deepest
    last = _states(np.sort(cur[:n_cur]), n_cur, wfns, p, state_len)  # (in the words' order)
    return WordResult(counts[: depth + 1].copy(), last, generated, expanded, n_seen,
                      slots.nbytes + 16 * int(counts[: depth + 1].max()), time.perf_counter() - t0,
                      stopped)
