"""One expansion step, shared by the searches over a table indexed by rank.

Every layered search makes a layer one of two ways, and both come down to the children of one
position, given its rank:

- **push** (top down): :func:`push` writes the ranks of every child of a position, which the
  caller then marks in its table (:mod:`.layered`'s scan, :mod:`.packed`, :mod:`.distributed`,
  :mod:`.gpu`).
- **pull** (bottom up): :func:`pull` tries a position's moves until a child has a given entry
  in the table (a byte table's depth, or a packed table's two-bit code): an unseen position
  looking for a parent one layer up.

Both unrank the position once into ``base``, then for each move copy it to ``state``, apply the
move and rank the child (``rank_after``, given the parent's rank), restoring ``state`` from
``base`` after each legal move (a copy is cheaper than the inverse move). They use the domain's
optional fast paths (:mod:`puzzlelib.core.contract`) where the bundle of functions has them,
chosen when compiling: ``children`` (every child's rank from the rank alone, ``memo`` kept
between calls of one thread), else ``rank_from`` (a child's rank from the parent's rank for
the moves it answers, the position made only for the rest, listed in ``todo``).

The steps allocate nothing and are compiled without reference counting, and force-inlined
(LLVM ``alwaysinline``) into the kernels that call them: a call that is not inlined passes
``params`` field by field, several times the cost of the step on a small board, and numba's
own inlining would count the references of ``params``' arrays at every position. numba-cuda
compiles the same functions for the GPU, given a bundle of device functions (see :mod:`.gpu`).
"""

import numpy as np
from numba import types

from ..core.contract import ILLEGAL
from ..core.hashing import popcount_swar
from ..core.jit import jit, overload

#: Words a domain's ``children`` may keep between its calls on one range of the table.
MEMO_WORDS = 8

_LOW_BITS = np.uint64(0x5555555555555555)

def _rank_from(fns, r, m, p):
    """The domain's ``rank_from`` where it offers one, else -1 (chosen when compiling)."""


@overload(_rank_from, jit_options={"_nrt": False})
def _choose_rank_from(fns, r, m, p):
    if isinstance(fns[7], types.NoneType):
        return lambda fns, r, m, p: np.int64(-1)
    return lambda fns, r, m, p: fns.rank_from(r, m, p)


def has_rank_from(fns):
    """Whether the domain offers ``rank_from`` (a constant when compiling: the kernels keep
    their plain loop for the domains that do not)."""


@overload(has_rank_from, jit_options={"_nrt": False})
def _choose_has_rank_from(fns):
    has = not isinstance(fns[7], types.NoneType)
    return lambda fns: has


def _children(fns, r, p, out, k, memo):
    """The domain's ``children`` where it offers them, else ``k`` (chosen when compiling)."""


@overload(_children, jit_options={"_nrt": False})
def _choose_children(fns, r, p, out, k, memo):
    if isinstance(fns[8], types.NoneType):
        return lambda fns, r, p, out, k, memo: k
    return lambda fns, r, p, out, k, memo: fns.children(r, p, out, k, memo)


def has_children(fns):
    """Whether the domain offers ``children`` (a constant when compiling)."""


@overload(has_children, jit_options={"_nrt": False})
def _choose_has_children(fns):
    has = not isinstance(fns[8], types.NoneType)
    return lambda fns: has


@jit(_nrt=False, forceinline=True)
def code_at(table, r):
    """The two-bit code of rank ``r`` in a packed table (:mod:`.packed`): its depth modulo 3,
    or 3 where not reached yet."""
    return (table[r >> 5] >> np.uint64((r & 31) << 1)) & np.uint64(3)


def entry(table, r):
    """Rank ``r``'s entry: a byte table's byte, or a packed (``uint64``) table's two-bit code
    (chosen when compiling)."""


@overload(entry, jit_options={"_nrt": False})
def _choose_entry(table, r):
    if table.dtype == types.uint64:
        return lambda table, r: code_at(table, r)
    return lambda table, r: table[r]


@jit(_nrt=False, forceinline=True)
def _copy(src, dst, n):
    for j in range(n):
        dst[j] = src[j]


def _take(out, k, c, table, want):
    """Child ``c``: written to ``out[k]`` (``table`` None: top down), else whether its entry
    is ``want`` (chosen when compiling)."""


@overload(_take, jit_options={"_nrt": False})
def _choose_take(out, k, c, table, want):
    if isinstance(table, types.NoneType):
        def put(out, k, c, table, want):
            out[k] = c
            return False

        return put
    return lambda out, k, c, table, want: entry(table, c) == want


@jit(_nrt=False, forceinline=True)
def _expand(fns, r, p, base, state, out, k, todo, table, want):
    """The children of the position of rank ``r`` (those ``rank_from`` gives first, with no
    position made, then the others in move order), each given to :func:`_take`, until one has
    the entry ``want``. Returns ``k`` plus the children made, and whether one had it."""
    rest = p.n_moves
    if has_rank_from(fns):
        rest = 0
        for m in range(p.n_moves):
            c = _rank_from(fns, r, m, p)
            if c < 0:
                todo[rest] = m
                rest += 1
            elif _take(out, k, c, table, want):
                return k + 1, True
            else:
                k += 1
        if rest == 0:
            return k, False
    fns.unrank(r, p, base)
    _copy(base, state, p.state_len)
    for t in range(rest):
        m = todo[t] if has_rank_from(fns) else t
        if fns.step(state, m, p) == ILLEGAL:
            continue
        if _take(out, k, fns.rank_after(state, m, r, p), table, want):
            return k + 1, True
        k += 1
        _copy(base, state, p.state_len)  # back to the parent
    return k, False


@jit(_nrt=False, forceinline=True)
def push(fns, r, p, base, state, out, k, todo, memo):
    """Top down: the ranks of the children of the position of rank ``r``, written to
    ``out[k:]`` (room for ``p.n_moves``); returns the new count, so ``n_moves`` less the
    count made is the moves found illegal. ``base``, ``state``: room for a state each;
    ``todo``: for ``n_moves`` move numbers, ``memo``: the domain's words for ``children``
    (only read where the domain has these fast paths)."""
    if has_children(fns):
        return _children(fns, r, p, out, k, memo)
    return _expand(fns, r, p, base, state, out, k, todo, None, 0)[0]


@jit(_nrt=False, forceinline=True)
def pull(fns, r, p, base, state, table, want, todo):
    """Bottom up: whether a child of the position of rank ``r`` has the entry ``want`` in
    ``table`` (see :func:`entry`), looking at the children in :func:`push`'s order and
    stopping at the first such one. Returns (found, children made). ``base``, ``state``,
    ``todo`` as :func:`push`."""
    made, hit = _expand(fns, r, p, base, state, None, 0, todo, table, want)
    return hit, made


@jit(_nrt=False, forceinline=True)
def pull_word(fns, wi, n, p, base, state, table, want, todo):
    """Bottom up over word ``wi`` of a packed table (32 positions, ranks below ``n``): each
    unseen position with a child of code ``want`` (:func:`pull`) is reached. Returns
    (positions examined, children made, positions reached, the bits to clear in the word to
    give them code ``want + 1``, their bits in frontier word ``wi >> 1``)."""
    clear_next = np.uint64(3) ^ ((want + np.uint64(1)) % np.uint64(3))
    one = np.uint64(1)
    w = table[wi]
    unseen = w & (w >> one) & _LOW_BITS  # the low bit of every code-3 pair
    examined = 0
    made = 0
    marked = 0
    clear = np.uint64(0)
    front = np.uint64(0)
    while unseen != 0:
        low = unseen & (~unseen + one)
        unseen ^= low
        bit = popcount_swar(np.int64(low - one))  # (no intrinsic: the GPU compiles it too)
        r = wi * 32 + (bit >> 1)
        if r >= n:
            break
        examined += 1
        hit, tried = pull(fns, r, p, base, state, table, want, todo)
        made += tried
        if hit:
            clear |= clear_next << np.uint64(bit)
            front |= one << np.uint64(r & 63)
            marked += 1
    return examined, made, marked, clear, front
