"""Permutation puzzles' hashes: the ranks of the moving pieces (permutation, even
permutation or multiset, times their orientations) in either form, the low form whose first
cells are its lowest digits, and the tables of children that give a child's rank from its
parent's alone.
"""

import math

import numpy as np
from numba import prange

from ...core.contract import domain_fn
from ...core.hashing import (FACTORIALS, _popcount, divmod_fast, multiset_rank_skip_long,
                             multiset_unrank, perm_rank_skip, perm_unrank)
from ...core.jit import kernel
from .encoding import RANK_EVEN

#: The largest table of children (:func:`child_tables`), in entries: moves that change only
#: the first ``w`` cells get one when ``w!`` is at most this (a pancake flip of up to 10).
CHILD_TABLE_MAX = 1 << 22
#: All the tables of one puzzle together, in entries (4 bytes each): 64 MiB.
CHILD_TABLES_MAX = 1 << 24


@domain_fn
def _orient_rank(state, p):
    o = np.int64(0)
    for i in range(p.odig):
        o = o * p.k + state[p.n + i]
    return o


@domain_fn
def _rank_loc(state, p):
    r = perm_rank_skip(state, p.m, -1, 0)
    if p.rkind == RANK_EVEN:
        r >>= 1
    if p.odig > 0:
        r = r * p.kpow + _orient_rank(state, p)
    return r


@domain_fn
def _rank_cells(state, p):
    r = multiset_rank_skip_long(state, p.m, -1, p.cls, p.weights)
    if p.odig > 0:
        r = r * p.kpow + _orient_rank(state, p)
    return r


@domain_fn
def _unrank_rest(r, p, state):
    """The orientations of rank ``r`` (and the fixed cells); returns the permutation's rank."""
    n, m, k = p.n, p.m, p.k
    if p.odig > 0:
        r, o = divmod_fast(r, p.kpow)
        total = 0
        for i in range(p.odig - 1, -1, -1):
            o, d = divmod_fast(o, np.int64(k))
            state[n + i] = d
            total += d
        if p.odig < m:  # the last ranked piece's orientation is fixed by the others'
            state[n + m - 1] = (k - total % k) % k
    for i in range(m, n):
        state[i] = p.goal[i]
        if k > 1:
            state[n + i] = p.goal[n + i]
    return r


@domain_fn
def _unrank_loc(r, p, state):
    r = _unrank_rest(r, p, state)
    m = p.m
    if p.rkind == RANK_EVEN:
        if perm_unrank(2 * r, m, state) == 1:  # ranks 2r, 2r + 1 differ by the last two
            t = state[m - 2]
            state[m - 2] = state[m - 1]
            state[m - 1] = t
    else:
        perm_unrank(r, m, state)
    if p.state_len > p.hpos:
        state[p.hpos] = p.hfn(state, p)


@domain_fn
def _unrank_cells(r, p, state):
    r = _unrank_rest(r, p, state)
    multiset_unrank(r, p.counts, p.radix, state)
    if p.state_len > p.hpos:
        state[p.hpos] = p.hfn(state, p)


@domain_fn
def reverse(state, a, b):
    """Reverse ``state[a..b]`` in place (both ends included)."""
    while a < b:
        t = state[a]
        state[a] = state[b]
        state[b] = t
        a += 1
        b -= 1


@domain_fn
def _low_sum(state, w):
    """The low form's rank of cells ``0..w-1`` alone: cell ``t``'s digit (the pieces before it
    that are smaller than its own) times ``t!``."""
    seen = np.int64(0)
    r = np.int64(0)
    for t in range(w):
        v = np.int64(state[t])
        r += _popcount(seen & ((np.int64(1) << v) - 1)) * FACTORIALS[t]
        seen |= np.int64(1) << v
    return r


@domain_fn
def _rank_low(state, p):
    """The cell form's rank of distinct pieces (tables too large for layer lists): the Lehmer
    code read from the first cell, so that cell ``t``'s digit (the pieces before it that are
    smaller than its own) weighs ``t!`` and the last moving cell's is the most significant.
    A move that changes only cells ``0..b`` changes only the digits below ``(b + 1)!``."""
    return _low_sum(state, p.m)


@domain_fn
def _unrank_low(r, p, state):
    perm_unrank(r, p.m, state)  # the same digits, read from the last moving cell
    reverse(state, 0, p.m - 1)
    _unrank_rest(0, p, state)
    if p.state_len > p.hpos:
        state[p.hpos] = p.hfn(state, p)


@domain_fn
def _rank_after_low(state, j, r, p):
    """:func:`_rank_low` of a position made by move ``j`` from one of rank ``r``: the digits
    above the last cell the move changes (``top[j]``) are its parent's, so only the cells up
    to it are read. A pancake flip of the top ``k`` reads ``k`` cells, and its child lies
    within ``k!`` ranks of its parent (mostly in the processor's caches)."""
    b = p.top[j]  # (the last moving cell: low = r, and every cell is read)
    _, low = divmod_fast(r, FACTORIALS[b + 1])
    return r - low + _low_sum(state, b + 1)


#: Reciprocals of the factorials, for :func:`_mod_factorial`.
_INV_FACTORIALS = 1.0 / FACTORIALS.astype(np.float64)


@domain_fn
def _mod_factorial(r, w):
    """``r % w!`` for ``r >= 0``, below ``2**52`` without a division: the quotient from a
    floating-point product with ``1 / w!`` is off by at most one, and the remainder is put
    right."""
    f = FACTORIALS[w]
    if r >= 1 << 52:
        return divmod_fast(r, f)[1]
    q = np.int64(np.float64(r) * _INV_FACTORIALS[w])
    low = r - q * f
    if low < 0:
        low += f
    elif low >= f:
        low -= f
    return low


@domain_fn
def _rank_from_low(r, j, p):
    """``DomainFns.rank_from`` of the low form. A move that changes only cells ``0..w-1``
    rearranges the pieces there among themselves, so its child's digits below ``w!`` depend
    only on its parent's (``r % w!``), and the digits above are the parent's: the child's rank
    is ``r + kid_delta[kid_off[j] + r % w!]`` for a move with a table (:func:`child_tables`),
    and -1 (make the position) for the others."""
    off = p.kid_off[j]
    if off < 0:
        return np.int64(-1)
    return r + p.kid_delta[off + _mod_factorial(r, p.top[j] + 1)]


@domain_fn
def _rank_after_loc(state, j, r, p):
    return _rank_loc(state, p)


@domain_fn
def _rank_after_cells(state, j, r, p):
    return _rank_cells(state, p)


@kernel(parallel=True)
def _fill_child_table(dest, w, out):
    """``out[s]`` for ``s < w!``: the low form's rank of cells ``0..w-1`` after a move that
    carries the piece of cell ``c`` to ``dest[c]``, from the arrangement whose rank there is
    ``s``, less ``s``."""
    n = out.shape[0]
    n_chunks = (n + 4095) // 4096
    for c in prange(n_chunks):
        cells = np.empty(w, dtype=np.uint8)
        kid = np.empty(w, dtype=np.uint8)
        for s in range(c * 4096, min(n, c * 4096 + 4096)):
            perm_unrank(s, w, cells)  # the arrangement of low-form rank s (see _unrank_low)
            reverse(cells, 0, w - 1)
            for t in range(w):
                kid[dest[t]] = cells[t]
            out[s] = _low_sum(kid, w) - s


def child_tables(params):
    """The tables of :func:`_rank_from_low` for a low-form puzzle's ``params``: (``kid_off``,
    ``kid_delta``). Moves that change only cells ``0..w-1`` with ``w!`` at most
    :data:`CHILD_TABLE_MAX` get one, the smallest first, while all of them together stay within
    :data:`CHILD_TABLES_MAX` entries; moves that do the same to those cells share one."""
    kid_off = np.full(params.n_moves, -1, dtype=np.int64)
    parts, made = [], {}
    size = 0
    for j in sorted(range(params.n_moves), key=lambda j: int(params.top[j])):
        w = int(params.top[j]) + 1
        if math.factorial(w) > CHILD_TABLE_MAX:
            continue
        key = tuple(int(c) for c in params.dest[j, :w])
        if key not in made:
            if size + math.factorial(w) > CHILD_TABLES_MAX:
                continue
            table = np.empty(math.factorial(w), dtype=np.int32)
            _fill_child_table(params.dest[j, :w].astype(np.int64), w, table)
            made[key] = size
            parts.append(table)
            size += len(table)
        kid_off[j] = made[key]
    delta = np.concatenate(parts) if parts else np.zeros(1, dtype=np.int32)
    return kid_off, delta
