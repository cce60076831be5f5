"""Minimal perfect hash functions (``@njit``): permutation rank and unrank.

A permutation of ``0..n-1`` is ranked in lexicographic order through its Lehmer code:
digit ``i`` counts the values after position ``i`` that are smaller than ``perm[i]``, and the rank
is ``sum(digit[i] * (n-1-i)!)``. The rank maps the ``n!`` permutations one-to-one onto
``0..n!-1``: a *minimal perfect hash*, so a table indexed by rank wastes no entry.

The parity of a permutation is the parity of the sum of its Lehmer digits (the digits count
inversions), which the sliding-tile domain uses to rank only the reachable half.
"""

import numpy as np
from numba import njit

from .errors import PuzzleError

#: The largest ``n`` whose ``n!`` fits a signed 64-bit integer.
MAX_RANK_N = 20

FACTORIALS = np.ones(MAX_RANK_N + 1, dtype=np.int64)
for _i in range(2, MAX_RANK_N + 1):
    FACTORIALS[_i] = FACTORIALS[_i - 1] * _i


def check_rank_size(n):
    """Raise :class:`PuzzleError` when permutations of ``n`` items cannot be ranked in 64 bits."""
    if n > MAX_RANK_N:
        raise PuzzleError(
            f"{n} items are too many for the permutation hash: {n}! does not fit in 64 bits "
            f"(at most {MAX_RANK_N} items)"
        )


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a non-negative 64-bit integer (SWAR bit counting)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def divmod_fast(a, b):
    """``divmod`` of non-negative 64-bit integers, with a 32-bit division when both fit (several
    times faster than a 64-bit one on many x86 processors)."""
    if a <= 0xFFFFFFFF and b <= 0xFFFFFFFF:
        q = np.int64(np.uint32(a) // np.uint32(b))
    else:
        q = a // b
    return q, a - q * b


@njit(cache=True)
def perm_rank_skip(seq, length, skip, shift):
    """Lexicographic rank of the permutation read from ``seq[0:length]`` with position ``skip``
    left out (``-1`` keeps every position) and ``shift`` subtracted from every value.

    Each Lehmer digit is the value minus the number of smaller values already placed, which a bit
    mask of the placed values and a bit count give in constant time. The sliding-tile domain
    ranks its tiles in place this way, skipping the blank, with no temporary array.
    """
    n = length if skip < 0 else length - 1
    seen = np.int64(0)
    r = np.int64(0)
    j = 0
    for i in range(length):
        if i == skip:
            continue
        v = np.int64(seq[i]) - shift
        digit = v - _popcount(seen & ((np.int64(1) << v) - 1))
        r += digit * FACTORIALS[n - 1 - j]
        seen |= np.int64(1) << v
        j += 1
    return r


@njit(cache=True)
def perm_rank(perm, n):
    """Lexicographic rank of ``perm[0:n]``, a permutation of ``0..n-1``, in ``0..n!-1``."""
    return perm_rank_skip(perm, n, -1, 0)


#: ``0x...3210``: the values 0..15 as 4-bit fields, the pool ``perm_unrank`` picks from.
_NIBBLES = np.uint64(0xFEDCBA9876543210)


@njit(cache=True)
def perm_unrank(r, n, out):
    """Write into ``out[0:n]`` the permutation of ``0..n-1`` whose rank is ``r``; return its
    parity (0 even, 1 odd).

    Digit ``i`` picks the ``digit``-th smallest value not used yet. For ``n <= 16`` the unused
    values sit as 4-bit fields of one 64-bit word, so picking and removing one is a few shifts
    and masks, with no branch; larger ``n`` falls back to a bit-mask walk.
    """
    parity = 0
    if n <= 16:
        pool = _NIBBLES
        for i in range(n):
            digit, r = divmod_fast(r, FACTORIALS[n - 1 - i])
            parity ^= digit & 1
            shift = np.uint64(4 * digit)
            out[i] = (pool >> shift) & np.uint64(15)
            low = pool & ((np.uint64(1) << shift) - np.uint64(1))
            pool = low | ((pool >> shift) >> np.uint64(4)) << shift
        return parity
    used = np.int64(0)
    for i in range(n):
        digit, r = divmod_fast(r, FACTORIALS[n - 1 - i])
        parity ^= digit & 1
        k = digit
        v = 0
        while True:
            if not (used >> v) & 1:
                if k == 0:
                    break
                k -= 1
            v += 1
        out[i] = v
        used |= np.int64(1) << v
    return parity


@njit(cache=True)
def perm_parity(perm, n):
    """Parity (0 even, 1 odd) of the permutation ``perm[0:n]`` of ``0..n-1``."""
    seen = np.int64(0)
    parity = 0
    for i in range(n):
        v = np.int64(perm[i])
        parity ^= (v - _popcount(seen & ((np.int64(1) << v) - 1))) & 1
        seen |= np.int64(1) << v
    return parity
