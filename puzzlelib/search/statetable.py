"""A hash set of whole states for spaces with no perfect hash (or too big to rank).

States are rows of a growing ``uint8`` pool; an open-addressing table of pool indices finds them.
A lookup compares the *whole* state, never just its hash, so a hash collision costs a probe and
can never make two positions look equal.

The table is a tuple of arrays passed through ``@njit`` functions; the ones that may grow it
return the new arrays. Parallel arrays beside the pool (depth, parent, move...) belong to the
caller and are grown with :func:`grow_rows`.
"""

import numpy as np
from numba import njit

EMPTY = -1


@njit(cache=True)
def hash_state(state):
    """64-bit FNV-1a over the bytes, then a final avalanche (splitmix64's finaliser)."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(state.shape[0]):
        h = (h ^ np.uint64(state[i])) * np.uint64(0x100000001B3)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


@njit(cache=True)
def new_table(state_len, capacity):
    """An empty set with room for ``capacity`` states before it grows: (slots, pool)."""
    n_slots = 16
    while n_slots < 2 * capacity:
        n_slots *= 2
    slots = np.full(n_slots, EMPTY, dtype=np.int64)
    pool = np.empty((capacity, state_len), dtype=np.uint8)
    return slots, pool


@njit(cache=True)
def _same(pool, idx, state):
    for i in range(state.shape[0]):
        if pool[idx, i] != state[i]:
            return False
    return True


@njit(cache=True)
def find(slots, pool, state):
    """Pool index of ``state``, or -1."""
    mask = np.uint64(slots.shape[0] - 1)
    s = hash_state(state) & mask
    while True:
        idx = slots[s]
        if idx == EMPTY:
            return -1
        if _same(pool, idx, state):
            return idx
        s = (s + np.uint64(1)) & mask


@njit(cache=True)
def _rehash(slots_size, pool, size):
    slots = np.full(slots_size, EMPTY, dtype=np.int64)
    mask = np.uint64(slots_size - 1)
    for idx in range(size):
        s = hash_state(pool[idx]) & mask
        while slots[s] != EMPTY:
            s = (s + np.uint64(1)) & mask
        slots[s] = idx
    return slots


@njit(cache=True)
def grow_rows(arr, new_rows):
    """Copy of ``arr`` (1-D or 2-D) with room for ``new_rows`` rows."""
    if arr.ndim == 1:
        out1 = np.empty(new_rows, dtype=arr.dtype)
        out1[: arr.shape[0]] = arr
        return out1
    out = np.empty((new_rows,) + arr.shape[1:], dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


@njit(cache=True)
def insert(slots, pool, size, state):
    """Add ``state`` (known to be absent) as pool row ``size``.

    Returns the (possibly regrown) slots and pool; the caller's size becomes ``size + 1``.
    """
    if size == pool.shape[0]:
        pool = grow_rows(pool, 2 * pool.shape[0])
    pool[size] = state
    if 2 * (size + 1) > slots.shape[0]:
        slots = _rehash(2 * slots.shape[0], pool, size + 1)
    else:
        mask = np.uint64(slots.shape[0] - 1)
        s = hash_state(state) & mask
        while slots[s] != EMPTY:
            s = (s + np.uint64(1)) & mask
        slots[s] = size
    return slots, pool


@njit(cache=True)
def path_to(idx, parent, move):
    """Moves from the root (parent -1) to pool row ``idx``, following parent links."""
    n = 0
    j = idx
    while parent[j] >= 0:
        n += 1
        j = parent[j]
    out = np.empty(n, dtype=np.int64)
    j = idx
    while parent[j] >= 0:
        n -= 1
        out[n] = move[j]
        j = parent[j]
    return out
