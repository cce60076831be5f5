"""A hash set of whole states for spaces with no perfect hash (or too big to rank).

States are rows of a growing ``uint8`` pool; an open-addressing table of pool indices (each with
31 bits of the state's hash beside it) finds them.
A lookup compares the *whole* state, never just its hash, so a hash collision costs a probe and
can never make two positions look equal.

The table is a tuple of arrays passed through ``@njit`` functions; the ones that may grow it
return the new arrays. Parallel arrays beside the pool (depth, parent, move...) belong to the
caller and are grown with :func:`grow_rows`.

A hot loop inserts with :func:`has_room`, :func:`make_room` and :func:`put` rather than
:func:`insert_hashed`: a call that returns arrays costs numba's reference counting on every
insert (benchmarks/RESULTS.md, "Constants"), while ``put`` returns nothing and
``make_room`` runs only when the table grows.

The functions that allocate nothing are compiled without numba's reference counting: a call of
one then no longer increments and decrements every array it is given, on every lookup.
"""

import sys

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from .jit import jit
from .limits import claim

EMPTY = -1


@jit(_nrt=False)
def hash_state(state):
    """64-bit hash of the bytes: eight bytes at a time are gathered into a word and mixed in
    by a multiplication (a byte at a time for the rest), then a final avalanche (splitmix64's
    finaliser). Eight times fewer dependent multiplications than hashing byte by byte, which
    matters for big states (64 bytes on an 8x8 grid)."""
    h = np.uint64(0xCBF29CE484222325)
    n = state.shape[0]
    i = 0
    while i + 8 <= n:
        w = np.uint64(0)
        for j in range(8):
            w |= np.uint64(state[i + j]) << np.uint64(8 * j)
        h = (h ^ w) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
        i += 8
    while i < n:
        h = (h ^ np.uint64(state[i])) * np.uint64(0x100000001B3)
        i += 1
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


#: Arrays from this size up are backed by 2 MiB pages where the system allows it.
HUGE_PAGE_BYTES = 4 << 20

if sys.platform.startswith("linux"):

    @intrinsic
    def _madvise(typingctx, addr, length, advice):
        """The C library's ``madvise(addr, length, advice)``."""
        sig = types.int32(types.intp, types.intp, types.int32)

        def codegen(context, builder, signature, args):
            i8p = ir.IntType(8).as_pointer()
            fnty = ir.FunctionType(ir.IntType(32), [i8p, ir.IntType(64), ir.IntType(32)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "madvise")
            return builder.call(fn, [builder.inttoptr(args[0], i8p), args[1], args[2]])

        return sig, codegen

    @jit
    def huge_pages(arr):
        """Ask Linux to back a fresh array of at least :data:`HUGE_PAGE_BYTES` with 2 MiB pages
        (``MADV_HUGEPAGE``, as numpy does for its own arrays), before anything is written to
        it: a 4 KiB page costs a fault on its first write, a fifth of the 8x8 rotation
        search's time went to them (benchmarks/RESULTS.md, "Constants"). Only a hint: where transparent huge pages are off,
        nothing changes."""
        if arr.nbytes >= HUGE_PAGE_BYTES:
            start = arr.ctypes.data
            first = (start + 4095) & ~4095
            end = (start + arr.nbytes) & ~4095
            _madvise(first, end - first, np.int32(14))  # MADV_HUGEPAGE

else:

    @jit
    def huge_pages(arr):
        """Linux only (elsewhere nothing to do)."""


@jit
def _empty_slots(n_slots):
    claim(8 * n_slots)
    slots = np.empty(n_slots, dtype=np.int64)
    huge_pages(slots)
    slots[:] = EMPTY
    return slots


@jit
def new_table(state_len, capacity):
    """An empty set with room for ``capacity`` states before it grows: (slots, pool)."""
    n_slots = 16
    while n_slots < 2 * capacity:
        n_slots *= 2
    slots = _empty_slots(n_slots)
    pool = np.empty((capacity, state_len), dtype=np.uint8)
    huge_pages(pool)
    return slots, pool


_LOW = np.int64(0xFFFFFFFF)


#: Tables up to this many slots regrow from the slots alone (see :func:`_tag`).
_TAG_SLOTS = 1 << 31


@jit(_nrt=False)
def _tag(h):
    """31 low bits of the hash, kept in the slot beside the pool index, so most probes of
    other states are settled without reading the pool (one cache miss instead of two). The
    home slot is ``h & mask``, the tag's own low bits while the table has at most 2**31 slots,
    so a table that doubles finds every entry's new home in its tag, without reading and
    hashing the pool again (a pool row is a cache miss). Entries that share a home share those bits, so their tags tell them apart
    by the remaining ``31 - log2(slots)`` bits: a full-state comparison is wasted once in
    8,192 such meetings at 2**18 slots."""
    return np.int64(h & np.uint64(0x7FFFFFFF))


@jit(_nrt=False)
def _same(pool, idx, state):
    for i in range(state.shape[0]):
        if pool[idx, i] != state[i]:
            return False
    return True


@intrinsic
def _prefetch(typingctx, arr, i):
    """Ask the processor to start loading ``arr[i]`` into its caches (LLVM ``prefetch``):
    unlike a load, it waits for nothing, so many misses can be under way at once."""
    sig = types.void(arr, types.intp)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read, keep in all levels, data
        return context.get_dummy_value()

    return sig, codegen


@jit(_nrt=False)
def prefetch(slots, h):
    """Start loading the slot where a lookup of hash ``h`` begins. A search that prefetches
    the slots of a batch of states before looking them up waits for one cache miss per batch
    instead of one per lookup."""
    _prefetch(slots, np.intp(h & np.uint64(slots.shape[0] - 1)))


@jit(_nrt=False)
def find(slots, pool, state):
    """Pool index of ``state``, or -1."""
    return find_hashed(slots, pool, state, hash_state(state))


@jit(_nrt=False)
def find_hashed(slots, pool, state, h):
    """:func:`find` given ``h = hash_state(state)`` (one hash for several lookups)."""
    mask = np.uint64(slots.shape[0] - 1)
    s = h & mask
    tag = _tag(h)
    while True:
        v = slots[s]
        if v == EMPTY:
            return -1
        if (v >> 32) == tag:
            idx = v & _LOW
            if _same(pool, idx, state):
                return idx
        s = (s + np.uint64(1)) & mask


@jit
def _rehash(slots_size, old_slots, pool, size):
    """The ``size`` states of the table in ``slots_size`` slots."""
    slots = _empty_slots(slots_size)
    mask = np.uint64(slots_size - 1)
    if slots_size <= _TAG_SLOTS:  # each entry's home is in its tag
        for v in old_slots:
            if v != EMPTY:
                s = np.uint64(v >> 32) & mask
                while slots[s] != EMPTY:
                    s = (s + np.uint64(1)) & mask
                slots[s] = v
        return slots
    for idx in range(size):
        h = hash_state(pool[idx])
        s = h & mask
        while slots[s] != EMPTY:
            s = (s + np.uint64(1)) & mask
        slots[s] = (_tag(h) << 32) | idx
    return slots


@jit
def grow_rows(arr, new_rows):
    """Copy of ``arr`` (1-D or 2-D, C-contiguous) with room for ``new_rows`` rows (stopping
    the search instead where they would pass its memory limit: :func:`.limits.claim`)."""
    claim((new_rows - arr.shape[0]) * (arr.size // max(arr.shape[0], 1)) * arr.itemsize)
    out = np.empty((new_rows,) + arr.shape[1:], dtype=arr.dtype)
    huge_pages(out)
    # one flat loop: numba's 2-D slice assignment copied a pool of 64-byte rows slowly
    # (benchmarks/RESULTS.md, "Constants")
    src = arr.reshape(arr.size)
    dst = out.reshape(out.size)
    for i in range(src.shape[0]):
        dst[i] = src[i]
    return out


@jit
def insert(slots, pool, size, state):
    """Add ``state`` (known to be absent) as pool row ``size``.

    Returns the (possibly regrown) slots and pool; the caller's size becomes ``size + 1``.
    """
    return insert_hashed(slots, pool, size, state, hash_state(state))


@jit
def insert_hashed(slots, pool, size, state, h):
    """:func:`insert` given ``h = hash_state(state)``."""
    if not has_room(slots, pool, size, 1):
        slots, pool = make_room(slots, pool, size, 1)
    put(slots, pool, size, state, h)
    return slots, pool


@jit(_nrt=False)
def has_room(slots, pool, size, extra):
    """Whether ``extra`` more states fit beside ``size`` without growing (the pool has the
    rows, and the slots stay at most half full)."""
    return size + extra <= pool.shape[0] and 2 * (size + extra) <= slots.shape[0]


@jit
def make_room(slots, pool, size, extra):
    """The table (holding ``size`` states) grown, each part by doubling, until
    :func:`has_room` for ``extra`` more: returns (slots, pool)."""
    rows = pool.shape[0]
    while rows < size + extra:
        rows *= 2
    if rows != pool.shape[0]:
        pool = grow_rows(pool, rows)
    n_slots = slots.shape[0]
    while n_slots < 2 * (size + extra):
        n_slots *= 2
    if n_slots != slots.shape[0]:
        slots = _rehash(n_slots, slots, pool, size)
    return slots, pool


@jit(_nrt=False)
def put(slots, pool, size, state, h):
    """Store ``state`` (known to be absent, ``h = hash_state(state)``) as pool row ``size``
    in a table that :func:`has_room` for it. The caller's size becomes ``size + 1``."""
    for j in range(state.shape[0]):
        pool[size, j] = state[j]
    mask = np.uint64(slots.shape[0] - 1)
    s = h & mask
    while slots[s] != EMPTY:
        s = (s + np.uint64(1)) & mask
    slots[s] = (_tag(h) << 32) | size


@jit
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


# ---------------------------------------------------------------------------------------------
# Sets of 63-bit keys: positions that fit one integer (bidirectional search over KeyFns, the
# breadth-first search over words). Open addressing over an ``int64`` array of the keys
# themselves, kept at most half full by its callers; a key is never negative.
# ---------------------------------------------------------------------------------------------

#: An empty slot of a key set (no key is negative), as in the tables above.
EMPTY_KEY = EMPTY
_MIX = np.uint64(0x9E3779B97F4A7C15)


@jit
def new_key_set(n_slots):
    """An empty key set of ``n_slots`` slots (a power of two)."""
    return _empty_slots(n_slots)


@jit(_nrt=False)
def key_hash(k):
    """The key times a large odd constant, its upper bits folded onto the low ones (a lookup
    starts at its low bits). Bits 32-47 alone would leave a key's top 16 bits out of the low
    16, where a block puzzle's word keeps its last cells."""
    h = np.uint64(k) * _MIX
    return h ^ (h >> np.uint64(32)) ^ (h >> np.uint64(48))


@jit(_nrt=False)
def key_in(slots, k):
    """Whether the set holds key ``k``."""
    mask = np.uint64(slots.shape[0] - 1)
    i = key_hash(k) & mask
    while True:
        s = slots[i]
        if s == k:
            return True
        if s == EMPTY_KEY:
            return False
        i = (i + np.uint64(1)) & mask


@jit(_nrt=False)
def key_add(slots, k):
    """Store key ``k`` unless the set holds it: returns True when stored.

    The slot's index is unsigned: numba makes every signed index that might be negative count
    from the array's end, a few instructions per access."""
    mask = np.uint64(slots.shape[0] - 1)
    i = key_hash(k) & mask
    while True:
        s = slots[i]
        if s == k:
            return False
        if s == EMPTY_KEY:
            slots[i] = k
            return True
        i = (i + np.uint64(1)) & mask


@jit
def key_regrow(slots):
    """The same set in twice as many slots."""
    new_slots = new_key_set(2 * slots.shape[0])
    for i in range(slots.shape[0]):
        if slots[i] != EMPTY_KEY:
            key_add(new_slots, slots[i])
    return new_slots
