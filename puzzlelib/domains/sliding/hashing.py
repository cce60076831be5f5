"""Sliding-tile puzzles' hashes: the ranks of positions onto a table (the permutation rank of
the reachable half for distinct tiles, the multiset rank for repeated labels, a sparse direct
index) and the 64-bit keys of bidirectional search and of layered BFS's layer lists, with the
rank a move makes worked out from the parent's.
"""

import numpy as np

from ...core.contract import KeyFns, domain_fn
from ...core.hashing import (_popcount, divmod_fast, lowest_bit, multiset_rank,
                             multiset_rank_skip_long, multiset_unrank, perm_rank_skip, perm_unrank)


@domain_fn
def _rank(state, p):
    b = np.int64(state[p.n_cells])
    # tiles 1..n-1 read in row-major order without the blank, as a permutation of 0..n-2
    return b * p.block + perm_rank_skip(state, p.n_cells, b, 1) // 2


@domain_fn
def _unrank(r, p, state):
    n = p.n_cells
    b, t = divmod_fast(r, p.block)
    parity = perm_unrank(2 * t, n - 1, state)
    if parity != p.tile_parity[b]:
        # rank 2k+1 instead of 2k: swap the last two tiles
        tmp = state[n - 3]
        state[n - 3] = state[n - 2]
        state[n - 2] = tmp
    # spread the n-1 tiles (values 0..n-2) around the blank, labels 1..n-1
    for i in range(n - 1, b, -1):
        state[i] = state[i - 1] + 1
    for i in range(b):
        state[i] += 1
    state[b] = 0
    state[n] = b


@domain_fn
def _rank_after(state, m, r, p):
    if m >= 2:  # l or r: the tiles' reading order is unchanged, only the blank's cell moved
        return r - p.block if m == 2 else r + p.block
    return _rank(state, p)


@domain_fn
def _rank_multiset(state, p):
    b = np.int64(state[p.n_cells])
    # the blank adds nothing wherever it stands (see multiset_tables' ``ignore``)
    return b * p.block + multiset_rank(state, p.n_cells, p.mshift, p.mupdate, p.mweights)


@domain_fn
def _rank_multiset_long(state, p):
    b = np.int64(state[p.n_cells])
    return b * p.block + multiset_rank_skip_long(state, p.n_cells, b, p.cls, p.weights)


@domain_fn
def _unrank_multiset(r, p, state):
    n = p.n_cells
    b, t = divmod_fast(r, p.block)
    multiset_unrank(t, p.class_count, p.radix, state)
    # classes -> labels, spread around the blank
    for i in range(n - 1, b, -1):
        state[i] = p.class_label[state[i - 1]]
    for i in range(b):
        state[i] = p.class_label[state[i]]
    state[b] = 0
    state[n] = b


@domain_fn
def _rank_after_multiset(state, m, r, p):
    if m >= 2:
        return r - p.block if m == 2 else r + p.block
    return _rank_multiset(state, p)


@domain_fn
def _rank_sparse(state, p):
    r = np.int64(0)
    for i in range(p.n_cells):
        r |= p.scode[state[i]] << (p.sbits * i)
    return r


@domain_fn
def _unrank_sparse(r, p, state):
    mask = (np.int64(1) << p.sbits) - 1
    for i in range(p.n_cells):
        c = (r >> (p.sbits * i)) & mask
        state[i] = p.slabel[c]
        if c == 0:
            state[p.n_cells] = i


@domain_fn
def _rank_after_sparse(state, m, r, p):
    return _rank_sparse(state, p)


@domain_fn
def _rank_after_multiset_long(state, m, r, p):
    if m >= 2:
        return r - p.block if m == 2 else r + p.block
    return _rank_multiset_long(state, p)


# 64-bit keys (KeyFns) for bidirectional search: 4 bits per cell, cell i's label in bits
# 4i..4i+3, the blank's cell in the top 4 bits. A move changes two cells and the blank's cell,
# so a child's key is a few operations on its parent's, with no state array and no rank.

#: Boards of at most this many cells have a key (15 cells of 4 bits, and the blank's cell).
KEY_MAX_CELLS = 15
#: Repeated labels on at most this many cells have keys for layered BFS (:data:`KEYS_MULTISET`).
MULTISET_KEY_MAX_CELLS = 16
_KEY_CELLS = (1 << 60) - 1


@domain_fn
def _key(state, p):
    k = np.int64(state[p.n_cells]) << 60
    for i in range(p.n_cells):
        k |= np.int64(state[i]) << (4 * i)
    return k


@domain_fn
def _key_step(k, m, p):
    b = (k >> 60) & 15
    t = np.int64(p.cnbr[b * 4 + m])
    if t < 0:
        return np.int64(-1)
    tile = (k >> (4 * t)) & 15
    return ((k & _KEY_CELLS) + (tile << (4 * b)) - (tile << (4 * t))) | (t << 60)


@domain_fn
def _unkey(k, p, state):
    """Writes the cells and the blank's cell (the first ``n_cells + 1`` bytes)."""
    for i in range(p.n_cells):
        state[i] = (k >> (4 * i)) & 15
    state[p.n_cells] = (k >> 60) & 15


@domain_fn
def _rank_after_key(k, m, r, p):
    """:func:`_rank_after` read from a key instead of a state: the rank of the position of key
    ``k``, made by move ``m`` from a position of rank ``r`` (distinct tiles, ``_rank``'s hash)."""
    if m >= 2:  # l or r: the tiles' reading order is unchanged, only the blank's cell moved
        return r - p.block if m == 2 else r + p.block
    b = (k >> 60) & 15
    # as _rank: tiles 1..n-1 in reading order without the blank, as a permutation of 0..n-2
    return b * p.block + perm_rank_skip(k, p.n_cells, b, 1) // 2


KEYS = KeyFns(_key, _key_step, _unkey)
#: The same keys with the rank of distinct tiles read from them: layered BFS keeps its layer
#: lists as keys (see :mod:`puzzlelib.search.layered`).
KEYS_RANKED = KeyFns(_key, _key_step, _unkey, _rank_after_key)


# Keys of repeated labels on up to 16 cells, for the layer lists of layered BFS: 4 bits per cell
# (labels are below the number of cells) and no field for the blank's cell: it is the cell whose
# field is zero, which a few word operations find (the fields above the last cell are zero too,
# and only fields above the lowest zero one can be mistaken for zero).

_NIBBLE_ONES = np.uint64(0x1111111111111111)
_NIBBLE_HIGHS = np.uint64(0x8888888888888888)


@domain_fn
def _blank_of_key(k):
    u = np.uint64(k)
    return lowest_bit((u - _NIBBLE_ONES) & ~u & _NIBBLE_HIGHS) >> 2


@domain_fn
def _key_cells(state, p):
    k = np.int64(0)
    for i in range(p.n_cells):
        k |= np.int64(state[i]) << (4 * i)
    return k


@domain_fn
def _key_cells_step(k, m, p):
    b = _blank_of_key(k)
    t = np.int64(p.cnbr[b * 4 + m])
    if t < 0:
        return np.int64(-1)  # (no key is -1: some field is zero)
    u = np.uint64(k)
    tile = (u >> np.uint64(4 * t)) & np.uint64(15)
    return np.int64(u + (tile << np.uint64(4 * b)) - (tile << np.uint64(4 * t)))


@domain_fn
def _unkey_cells(k, p, state):
    """Writes the cells and the blank's cell (the first ``n_cells + 1`` bytes)."""
    for i in range(p.n_cells):
        state[i] = (k >> (4 * i)) & 15
    state[p.n_cells] = _blank_of_key(k)


@domain_fn
def _multiset_rank_of_key(k, b, p):
    """``multiset_rank`` of a key's cells (blank in cell ``b``), from bit masks: one bit per
    cell, at the bottom of its field. Class by class, its cells are those whose field equals
    its label, and an item's place (the items of its class or a later one before it) is a bit
    count of the cells still free below it; the last class's terms are all zero. A term of
    the same table for each item of every class but the last, and no pass over all cells."""
    u = np.uint64(k)
    ones = _NIBBLE_ONES >> np.uint64(64 - 4 * p.n_cells)  # one bit per cell
    free = ones & ~(np.uint64(1) << np.uint64(4 * b))
    r = np.int64(0)
    for c in range(p.class_count.shape[0] - 1):
        x = u ^ (np.uint64(p.class_label[c]) * _NIBBLE_ONES)
        x |= x >> np.uint64(1)
        x |= x >> np.uint64(2)
        mine = free & ~x  # the cells of label c's class
        at = np.uint64(256 * c)
        j = np.uint64(0)
        rest = mine
        while rest:
            low = rest & (~rest + np.uint64(1))
            place = np.uint64(_popcount(free & (low - np.uint64(1))))
            r += p.mweights[at + (place << np.uint64(4)) + j]
            j += np.uint64(1)
            rest ^= low
        free &= ~mine
    return r


@domain_fn
def _rank_after_key_multiset(k, m, r, p):
    """:func:`_rank_after_multiset` read from a key of :data:`KEYS_MULTISET`."""
    if m >= 2:
        return r - p.block if m == 2 else r + p.block
    b = _blank_of_key(k)
    return b * p.block + _multiset_rank_of_key(k, b, p)


#: Keys of repeated labels (the one-word multiset rank's boards, up to 16 cells) that give
#: their rank: the layer lists of layered BFS.
KEYS_MULTISET = KeyFns(_key_cells, _key_cells_step, _unkey_cells, _rank_after_key_multiset)
