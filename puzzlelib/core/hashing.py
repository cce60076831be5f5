"""Minimal perfect hash functions (``@njit``): permutation rank and unrank.

A permutation of ``0..n-1`` is ranked in lexicographic order through its Lehmer code:
digit ``i`` counts the values after position ``i`` that are smaller than ``perm[i]``, and the rank
is ``sum(digit[i] * (n-1-i)!)``. The rank maps the ``n!`` permutations one-to-one onto
``0..n!-1``: a *minimal perfect hash*, so a table indexed by rank wastes no entry.

The parity of a permutation is the parity of the sum of its Lehmer digits (the digits count
inversions), which the sliding-tile domain uses to rank only the reachable half.
"""

import itertools
import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from .jit import jit
from .errors import PuzzleError

#: The largest ``n`` whose ``n!`` fits a signed 64-bit integer.
MAX_RANK_N = 20

FACTORIALS = np.ones(MAX_RANK_N + 1, dtype=np.int64)
for _i in range(2, MAX_RANK_N + 1):
    FACTORIALS[_i] = FACTORIALS[_i - 1] * _i

#: :func:`perm_unrank` reads the last ``_LOW_N`` values of a permutation from a table. (7, not
#: more: the table, 20 KiB, and the next one, 15.5 KiB, are also compiled into GPU kernels,
#: whose constant data is limited to 64 KiB.)
_LOW_N = 7
#: ``_LOW_PERMS[x]`` for ``x < 7!``: the permutation of ``0..6`` of rank ``x``, its item ``j``
#: in bits ``4j``, and its parity in bit 28. The last 7 Lehmer digits of any rank ``r`` with
#: ``r % 7! == x`` arrange the 7 values left after the digits before them in this order, so
#: each of the last 7 values is read from the pool at once, none waiting for another.
def _low_perms():
    perms = np.array(list(itertools.permutations(range(_LOW_N))), dtype=np.uint32)  # rank order
    out = np.zeros(len(perms), dtype=np.uint32)
    parity = np.zeros(len(perms), dtype=np.uint32)
    for j in range(_LOW_N):
        out |= perms[:, j] << np.uint32(4 * j)
        for k in range(j + 1, _LOW_N):
            parity ^= (perms[:, j] > perms[:, k]).astype(np.uint32)
    return out | (parity << np.uint32(28))


_LOW_PERMS = _low_perms()
#: The 4 Lehmer digits before those 7 (weights ``7!`` to ``10!``) come from a second table,
#: :data:`_MID_DIGITS`, of ``(r // 7!) % (11! / 7!)``.
_MID_N = 4
_MID_SIZE = int(FACTORIALS[_LOW_N + _MID_N] // FACTORIALS[_LOW_N])  # 7920
_LOW_SIZE = int(FACTORIALS[_LOW_N])  # 5040
#: ``_MID_DIGITS[x]`` for ``x < 11!/7!``: the digits of ``x * 7!`` of weights ``10!`` down to
#: ``7!``, the digit of weight ``(10 - j)!`` in bits ``4j``.
_MID_DIGITS = np.zeros(_MID_SIZE, dtype=np.uint16)
for _j in range(_MID_N):
    _k = _LOW_N + _MID_N - 1 - _j  # the digit of weight k! takes values 0..k
    _w = FACTORIALS[_k] // FACTORIALS[_LOW_N]
    _MID_DIGITS |= (((np.arange(_MID_SIZE) // _w) % (_k + 1)).astype(np.uint16)
                    << np.uint16(4 * _j))
#: ``k! / 11!`` for ``k >= 11``: the weights of the Lehmer digits before the last 11, in units
#: of 11!.
_TOP_WEIGHTS = np.ones(MAX_RANK_N + 1, dtype=np.int64)
for _i in range(_LOW_N + _MID_N, MAX_RANK_N + 1):
    _TOP_WEIGHTS[_i] = FACTORIALS[_i] // FACTORIALS[_LOW_N + _MID_N]


def check_rank_size(n):
    """Raise :class:`PuzzleError` when permutations of ``n`` items cannot be ranked in 64 bits."""
    if n > MAX_RANK_N:
        raise PuzzleError(
            f"{n} items are too many for the permutation hash: {n}! does not fit in 64 bits "
            f"(at most {MAX_RANK_N} items)"
        )


@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count (LLVM ``ctpop``) of a 64-bit integer."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    """Trailing zero bits (LLVM ``cttz``) of a non-zero 64-bit integer."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


def _pdep_is_fast():
    """Whether numba compiles for an x86 processor whose PDEP instruction (BMI2) is quick: not
    where numba is told to compile for another processor, and not AMD's before Zen 3, which run
    PDEP in microcode, slower than the table it replaces."""
    try:
        import llvmlite.binding as ll
        from numba.core import config

        if config.CPU_NAME is not None or config.CPU_FEATURES is not None:
            return False
        name = ll.get_host_cpu_name()
        return bool(ll.get_host_cpu_features().get("bmi2")) and not (
            name.startswith(("znver1", "znver2", "bdver", "btver")) or name == "generic")
    except Exception:  # no such query on this platform
        return False


#: Whether :func:`select_pdep` may be compiled and is worth using (see :func:`_pdep_is_fast`).
FAST_PDEP = _pdep_is_fast()


@intrinsic
def _pdep(typingctx, x, mask):
    """The bits of ``x``, lowest first, put at the set bits of ``mask`` (x86 BMI2 ``pdep``;
    compiled only where :data:`FAST_PDEP` says the processor has it)."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(
            i64, [i64, i64]))
        return builder.call(fn, args)

    return sig, codegen


@jit
def select_pdep(mask, d):
    """The place of the ``d``-th set bit (from 0) of ``mask``: two instructions, PDEP and a
    trailing-zero count (only where :data:`FAST_PDEP`)."""
    return _cttz(_pdep(np.int64(1) << d, np.int64(mask)))


@jit
def _popcount(x):
    """Number of set bits of a non-negative 64-bit integer (one instruction where the
    processor has it)."""
    return _ctpop(np.int64(x))


#: The same, for other modules.
popcount = _popcount


@jit
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero 64-bit integer."""
    return _cttz(np.int64(x))


@jit
def popcount_swar(x):
    """The same count by plain bit arithmetic (SWAR), kept as the reference for tests."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@jit
def divmod_fast(a, b):
    """``divmod`` of non-negative 64-bit integers, with a 32-bit division when both fit (several
    times faster than a 64-bit one on many x86 processors)."""
    if a <= 0xFFFFFFFF and b <= 0xFFFFFFFF:
        q = np.int64(np.uint32(a) // np.uint32(b))
    else:
        q = a // b
    return q, a - q * b


def _item(seq, i):
    """Item ``i`` of a sequence: an array's, or the 4-bit field ``i`` of an integer (item ``i``
    in bits ``4i`` to ``4i + 3``, at most 15 items: the sliding domain's 64-bit keys)."""


@overload(_item, inline="always")
def _item_of(seq, i):
    if isinstance(seq, types.Integer):
        return lambda seq, i: (seq >> (4 * i)) & 15
    return lambda seq, i: seq[i]


@jit(inline="always")  # (inlined: a tenth of the BFS over keys (benchmarks/RESULTS.md, "Constants"))
def perm_rank_skip(seq, length, skip, shift):
    """Lexicographic rank of the permutation read from ``seq[0:length]`` (an array, or an
    integer holding the items as 4-bit fields: see :func:`_item`) with position ``skip`` left
    out (``-1`` keeps every position) and ``shift`` subtracted from every value.

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
        v = np.int64(_item(seq, i)) - shift
        digit = v - _popcount(seen & ((np.int64(1) << v) - 1))
        r += digit * FACTORIALS[n - 1 - j]
        seen |= np.int64(1) << v
        j += 1
    return r


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def perm_rank(perm, n):
    """Lexicographic rank of ``perm[0:n]``, a permutation of ``0..n-1``, in ``0..n!-1``."""
    return perm_rank_skip(perm, n, -1, 0)


#: ``0x...3210``: the values 0..15 as 4-bit fields, the pool ``perm_unrank`` picks from.
_NIBBLES = np.uint64(0xFEDCBA9876543210)


@jit(inline="always")
def _pick(pool, digit, out, i):
    """Put the ``digit``-th value left in ``pool`` (4-bit fields) in ``out[i]``; return the pool
    without it."""
    shift = np.uint64(4 * digit)
    out[i] = (pool >> shift) & np.uint64(15)
    low = pool & ((np.uint64(1) << shift) - np.uint64(1))
    return low | ((pool >> shift) >> np.uint64(4)) << shift


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def perm_unrank(r, n, out):
    """Write into ``out[0:n]`` the permutation of ``0..n-1`` whose rank is ``r``; return its
    parity (0 even, 1 odd).

    Digit ``i`` picks the ``digit``-th smallest value not used yet. For ``n <= 16`` the unused
    values sit as 4-bit fields of one 64-bit word, so picking and removing one is a few shifts
    and masks, with no branch; the last 7 values come from one table lookup of ``r % 7!``
    (:data:`_LOW_PERMS`), the 4 before them from a second (:data:`_MID_DIGITS`), and only
    the ones before those (``n > 11``) take a division each. Larger ``n`` falls back to a
    division per digit and a bit-mask walk.
    """
    parity = 0
    if n <= 16:
        pool = _NIBBLES
        i = 0
        if n > _LOW_N:
            high, low = divmod_fast(r, _LOW_SIZE)
            mid_first = 0
            if n > _LOW_N + _MID_N:
                top, mid = divmod_fast(high, _MID_SIZE)
                for i in range(n - _LOW_N - _MID_N - 1):  # the last of these is what is left
                    digit, top = divmod_fast(top, _TOP_WEIGHTS[n - 1 - i])
                    parity ^= digit & 1
                    pool = _pick(pool, digit, out, i)
                i = n - _LOW_N - _MID_N - 1
                parity ^= top & 1
                pool = _pick(pool, top, out, i)
                i += 1
            else:
                mid = high
                mid_first = _LOW_N + _MID_N - n
            digits = np.uint64(_MID_DIGITS[mid])
            for j in range(mid_first, _MID_N):
                digit = (digits >> np.uint64(4 * j)) & np.uint64(15)
                parity ^= np.int64(digit) & 1
                pool = _pick(pool, digit, out, i)
                i += 1
            first = 0
        else:
            low = r
            first = _LOW_N - n
        perm = np.uint64(_LOW_PERMS[low])
        parity ^= np.int64(perm >> np.uint64(28)) & 1
        for j in range(first, _LOW_N):
            at = (perm >> np.uint64(4 * j)) & np.uint64(15)  # (at >= first when n < 7)
            out[i] = ((pool >> (at << np.uint64(2))) & np.uint64(15)) - np.uint64(first)
            i += 1
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


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def perm_parity(perm, n):
    """Parity (0 even, 1 odd) of the permutation ``perm[0:n]`` of ``0..n-1``."""
    seen = np.int64(0)
    parity = 0
    for i in range(n):
        v = np.int64(perm[i])
        parity ^= (v - _popcount(seen & ((np.int64(1) << v) - 1))) & 1
        seen |= np.int64(1) << v
    return parity


# ---------------------------------------------------------------------------------------------
# multiset permutations: indistinguishable items
# ---------------------------------------------------------------------------------------------
#
# A sequence of k items in L classes (class c appearing counts[c] times) has
# k! / prod(counts[c]!) arrangements. We rank it as a chain of combinations: class 0 picks its
# counts[0] places among all k, class 1 picks its places among the k - counts[0] left, and so
# on (the last class takes what remains). Each choice is a subset, ranked in colexicographic
# order (elements a_1 < a_2 < ... ranked as C(a_1, 1) + C(a_2, 2) + ...), and the subset ranks
# are the digits of a mixed-radix number whose radices are the numbers of subsets. Distinct
# items (every count 1) give a k-permutation rank; two or three colours give the combination
# ranks of hand-made puzzle hashes. No division is needed to rank.

#: The longest sequence the multiset hash ranks (5x5 board: 24 tiles).
MAX_MULTISET_N = 32

BINOM = np.zeros((MAX_MULTISET_N + 1, MAX_MULTISET_N + 2), dtype=np.int64)
for _i in range(MAX_MULTISET_N + 1):
    BINOM[_i, 0] = 1
    for _j in range(1, _i + 1):
        BINOM[_i, _j] = BINOM[_i - 1, _j - 1] + BINOM[_i - 1, _j]


def multiset_radix(counts):
    """Radices of the multiset hash given the multiplicity of each class, and the
    number of arrangements ``k! / prod(counts!)`` (a Python int; may exceed 64 bits)."""
    counts = [int(c) for c in counts]
    if any(c < 1 for c in counts):
        raise ValueError("every class must appear at least once")
    k = sum(counts)
    if k > MAX_MULTISET_N:
        raise PuzzleError(f"{k} items are too many for the multiset hash (at most {MAX_MULTISET_N})")
    places = [0] * len(counts)  # places left when class c chooses
    left = k
    for c, m in enumerate(counts):
        places[c] = left
        left -= m
    radix = [1] * len(counts)
    for c in range(len(counts) - 2, -1, -1):
        radix[c] = radix[c + 1] * math.comb(places[c + 1], counts[c + 1])
    total = radix[0] * math.comb(places[0], counts[0])
    if total >= 1 << 63:
        raise PuzzleError(
            f"{total:,} arrangements do not fit the 64-bit multiset hash"
        )
    return np.array(radix, dtype=np.int64), total


#: The most items and classes :func:`multiset_rank` ranks (more: the long form).
MULTISET_FAST_N = 15
MULTISET_FAST_CLASSES = 8


def multiset_weights(radix, counts):
    """``weights[c, j, o] = radix[c] * C(j, o)``: the table :func:`multiset_rank_skip_long`
    reads."""
    k = int(np.sum(counts))
    w = np.zeros((len(radix), k + 1, int(np.max(counts)) + 2), dtype=np.int64)
    for c in range(len(radix)):
        for j in range(k + 1):
            for o in range(w.shape[2]):
                w[c, j, o] = int(radix[c]) * int(BINOM[j, o]) if o <= j else 0
    return w


def multiset_tables(cls, counts, ignore=None):
    """Tables for :func:`multiset_rank`, given ``cls[v]``, the class of each value ``v``
    (values that never occur: any class), and the multiplicity of each class.

    Returns ``(shift, update, weights)``: ``shift[v] = 8 * cls[v]``; ``update[v]``, what an
    item of value ``v`` adds to the running word; ``weights[256 * c + key]``, what an item of
    class ``c`` adds to the rank when its class's byte of the running word is ``key``.
    ``ignore``: a value that adds nothing at all wherever it stands (it reads a spare byte of
    the word and a row of zero weights), so a sequence holding it once is ranked as if it were
    left out, with no test in the loop (the sliding-tile blank; at most 7 classes then).
    """
    counts = np.asarray(counts, dtype=np.int64)
    n_cls = len(counts)
    if n_cls > MULTISET_FAST_CLASSES or counts.sum() > MULTISET_FAST_N:
        raise ValueError("too many classes or items for the one-word multiset rank")
    radix, _ = multiset_radix(counts)
    cls = np.asarray(cls, dtype=np.int64)
    shift = 8 * cls
    update = np.zeros(len(cls), dtype=np.uint64)
    for v, c in enumerate(cls):
        u = 1 << (8 * int(c))  # one more item of class c seen
        for c2 in range(int(c) + 1):
            u += 16 << (8 * c2)  # one more place taken for every class c2 <= c
        update[v] = u
    weights = np.zeros(256 * (n_cls + 1), dtype=np.int64)  # the last row: for `ignore`
    for c in range(n_cls):
        for key in range(256):
            place, occ = key >> 4, key & 15
            if occ < counts[c]:
                weights[256 * c + key] = int(radix[c]) * int(BINOM[place, occ + 1])
    if ignore is not None:
        if n_cls >= MULTISET_FAST_CLASSES:
            raise ValueError("no spare byte for the ignored value")
        shift[ignore] = 8 * n_cls
        update[ignore] = 0
    return shift, update, weights


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def multiset_rank(seq, length, shift, update, weights):
    """Rank of the arrangement ``seq[0:length]``, with the tables of :func:`multiset_tables`:
    at most 15 items in at most 8 classes (7 with an ignored value). One pass, no division, no
    multiplication, no branch.

    Item ``i`` of class ``c`` is the next element of class ``c``'s subset; its place among the
    positions still free for class ``c`` is the number of items before it of class ``c`` or
    higher. One 64-bit word keeps, for every class, that place (high 4 bits of the class's
    byte) and how many of its items came already (low 4 bits); each item adds a constant to
    the word, and its class's byte picks its term of the rank from a table. A value made
    ``ignore`` in the tables adds nothing wherever it stands (the sliding-tile blank).
    Longer sequences or more classes need :func:`multiset_rank_skip_long` (kept apart: a
    fallback branch in here would stop the compiler from inlining this function into the
    search kernels, which makes it more than twice as slow).
    """
    r = np.int64(0)
    word = np.uint64(0)
    for pos in range(length):
        v = seq[pos]
        s = np.uint64(shift[v])
        r += weights[(s << np.uint64(5)) + ((word >> s) & np.uint64(255))]
        word += update[v]
    return r


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def multiset_rank_skip_long(seq, length, skip, cls, weights):
    """The multiset rank for any number of items and classes (``cls[v]``: the class of value
    ``v``; ``weights`` from :func:`multiset_weights`). Gives the same ranks as
    :func:`multiset_rank` (position ``skip`` left out; ``-1``: none).

    Each item's counts (items already placed of a smaller class, and of its own) come from
    rereading the items before it: quadratic, but at most 25 cells, and nothing allocated, so
    it can be called from domain functions compiled without reference counting."""
    r = np.int64(0)
    i = 0
    for pos in range(length):
        if pos == skip:
            continue
        c = cls[seq[pos]]
        below = 0
        same = 0
        for q in range(pos):
            if q == skip:
                continue
            c2 = cls[seq[q]]
            if c2 < c:
                below += 1
            elif c2 == c:
                same += 1
        r += weights[c, i - below, same + 1]
        i += 1
    return r


@jit(_nrt=False)  # (allocates nothing: no reference counts on the arrays passed)
def multiset_unrank(r, counts, radix, out):
    """Write into ``out[0:k]`` the classes of the arrangement of rank ``r`` (the inverse of
    :func:`multiset_rank`), ``k = sum(counts)``."""
    k = 0
    for c in range(counts.shape[0]):
        k += counts[c]
    for i in range(k):
        out[i] = 255
    for c in range(counts.shape[0]):
        digit, r = divmod_fast(r, radix[c])
        # colexicographic unrank: the largest element first
        for j in range(counts[c], 0, -1):
            a = j - 1
            while BINOM[a + 1, j] <= digit:
                a += 1
            digit -= BINOM[a, j]
            # place class c at the a-th position still free
            free = -1
            for pos in range(k):
                if out[pos] == 255:
                    free += 1
                    if free == a:
                        out[pos] = c
                        break
