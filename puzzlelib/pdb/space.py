"""The abstract space of a pattern database: where a few chosen tiles are, and where the blank
can get to.

A pattern database (PDB) for a group of ``k`` tiles of a sliding-tile board stores, for every
placement of those tiles, the fewest moves *of those tiles* needed to bring them home. Other
tiles are ignored: the blank may wander through any cell not held by a pattern tile for free.
Because each real move moves one tile, the values of PDBs over disjoint groups can be added and
the sum is still a lower bound (an *additive* PDB).

Free blank moves would make a search with costs 0 and 1. Here they are folded away instead: a
state is the placement of the ``k`` pattern tiles plus the *region* the blank is in (the
connected set of cells it can reach without moving a pattern tile), named by the region's
lowest cell. A move slides a pattern tile into the blank's region and costs 1, so the space has
unit costs and the library's layered breadth-first search over a ``uint8`` table builds it
unchanged (:func:`puzzlelib.search.layered.layered_bfs`, table scan).

Encoding (``uint8`` state, ``k + 9`` bytes): the cells of pattern tiles ``0..k-1``; the region's
lowest cell; the region as a 32-bit cell mask; the cells held by pattern tiles as a 32-bit mask.
Move ``m = 4 * j + d`` slides tile ``j`` one cell in direction ``d`` (up, down, left, right);
its inverse slides it back.

Rank: the placement's rank among the ``n! / (n-k)!`` placements (a *k*-permutation of the
cells, lexicographic), times the ``n - k`` free cells, plus the region's lowest cell counted
among the free cells.
"""

from collections import namedtuple

import numpy as np


from ..core.jit import jit, overload
from ..core.contract import ILLEGAL, DomainFns, domain_fn
from ..core.errors import PuzzleError
from ..domains.sliding import grid_neighbours
from ..core.hashing import FAST_PDEP, _popcount, divmod_fast, lowest_bit, select_pdep

#: Cell masks are kept in 32 bits.
MAX_PATTERN_CELLS = 32
#: Boards up to this many cells read regions from a table (2 MiB at 16 cells).
TABLE_CELLS = 16

PatternParams = namedtuple(
    "PatternParams",
    [
        "state_len",  # k + 9
        "n_moves",  # 4 k
        "bound_step",  # 1
        "n_cells",
        "k",
        "cols",
        "nbr",  # nbr[cell, d]: the neighbouring cell in direction d, or -1
        "not_first_col",  # mask of the cells not in column 0
        "not_last_col",  # mask of the cells not in the last column
        "full",  # mask of all cells
        "comp",  # comp[free, cell]: the region of ``cell`` within the mask ``free`` (small boards)
        # a placement's digits read from two tables (see _children_of_rank)
        "low_size",  # how many values the last digits take together
        "low_digits",  # low_digits[v]: the last digits of value v, 5 bits each at their places
        "high_digits",  # high_digits[v]: the first digits, likewise (empty: worked out)
    ],
)


@domain_fn
def _get32(state, at):
    return (np.int64(state[at]) | (np.int64(state[at + 1]) << 8)
            | (np.int64(state[at + 2]) << 16) | (np.int64(state[at + 3]) << 24))


@domain_fn
def _put32(state, at, x):
    state[at] = x & 0xFF
    state[at + 1] = (x >> 8) & 0xFF
    state[at + 2] = (x >> 16) & 0xFF
    state[at + 3] = (x >> 24) & 0xFF


@domain_fn
def flood(seed, free, p):
    """The cells of ``free`` (a mask) connected to the cells of ``seed``."""
    m = seed & free
    while True:
        g = (m | ((m << 1) & p.not_first_col) | ((m >> 1) & p.not_last_col)
             | (m << p.cols) | (m >> p.cols)) & free
        if g == m:
            return m
        m = g


@domain_fn
def _lowest(m):
    return lowest_bit(m)


@jit
def _component_table(n, p):
    """``comp[free, cell]`` for every mask of free cells: a 2 MiB table on 16 cells, which
    makes finding the blank's region one memory read instead of a flood fill."""
    comp = np.zeros((1 << n, n), dtype=np.uint16)
    for free in range(1 << n):
        for c in range(n):
            if (free >> c) & 1 and comp[free, c] == 0:
                region = flood(np.int64(1) << c, np.int64(free), p)
                for x in range(n):
                    if (region >> x) & 1:
                        comp[free, x] = region
    return comp


@domain_fn
def _target(state, m, p):
    """The cell move ``m`` slides its tile into, or -1 when that cell is off the board or not
    in the blank's region."""
    t = np.int64(state[m >> 2])
    c = p.nbr[t, m & 3]
    if c < 0 or not (_get32(state, p.k + 1) >> c) & 1:
        return -1
    return c


@domain_fn
def _place(state, m, c, region_of_t, occ, p):
    """Finish a move: tile ``m >> 2`` now on ``c``, the blank's new region, the new mask."""
    state[m >> 2] = c
    state[p.k] = _lowest(region_of_t)
    _put32(state, p.k + 1, region_of_t)
    _put32(state, p.k + 5, occ)


# Two versions of the move, chosen in Python (a fallback branch inside one hot function keeps
# LLVM from inlining it, several times slower (benchmarks/RESULTS.md, "Constants")): the region read from a table on boards of
# at most TABLE_CELLS cells, else flood-filled.


@domain_fn
def _step_table(state, m, p):
    c = _target(state, m, p)
    if c < 0:
        return ILLEGAL
    t = np.int64(state[m >> 2])
    occ = _get32(state, p.k + 5) ^ (np.int64(1) << t) ^ (np.int64(1) << c)
    # the blank is now where the tile was; its region is whatever that cell connects to
    _place(state, m, c, np.int64(p.comp[p.full & ~occ, t]), occ, p)
    return 0


@domain_fn
def _step_flood(state, m, p):
    c = _target(state, m, p)
    if c < 0:
        return ILLEGAL
    t = np.int64(state[m >> 2])
    occ = _get32(state, p.k + 5) ^ (np.int64(1) << t) ^ (np.int64(1) << c)
    _place(state, m, c, flood(np.int64(1) << t, p.full & ~occ, p), occ, p)
    return 0


@domain_fn
def _inverse(m, p):
    return m ^ 1


@domain_fn
def _is_goal(state, p):
    return False  # the space is only ever searched breadth-first, from the goal


@domain_fn
def _heuristic(state, p):
    return 0


@domain_fn
def placement_rank(cells, k, n):
    """Lexicographic rank of ``k`` distinct cells (in tile order) among ``n!/(n-k)!``."""
    used = np.int64(0)
    r = np.int64(0)
    for i in range(k):
        x = np.int64(cells[i])
        r = r * (n - i) + x - _popcount(used & ((np.int64(1) << x) - 1))
        used |= np.int64(1) << x
    return r


@domain_fn
def _rank(state, p):
    k, n = p.k, p.n_cells
    rep = np.int64(state[k])
    occ = _get32(state, k + 5)
    free_below = rep - _popcount(occ & ((np.int64(1) << rep) - 1))
    return placement_rank(state, k, n) * (n - k) + free_below


@domain_fn
def _select(mask, d):
    """Index of the ``d``-th set bit of ``mask`` (from 0)."""
    for _ in range(d):
        mask &= mask - 1
    return lowest_bit(mask)


@domain_fn
def placement_unrank(r, k, n, full, cells):
    """The inverse of :func:`placement_rank`: the ``k`` cells of the placement of rank ``r``
    into ``cells[0:k]`` (``full``: the mask of the ``n`` cells); returns their mask."""
    for i in range(k - 1, -1, -1):  # the placement's digits, kept in ``cells`` for now
        r, digit = divmod_fast(r, n - i)
        cells[i] = digit
    used = np.int64(0)
    for i in range(k):
        x = _select(full & ~used, np.int64(cells[i]))  # the cells[i]-th cell not used yet
        cells[i] = x
        used |= np.int64(1) << x
    return used


@domain_fn
def _unrank(r, p, state):
    k, n = p.k, p.n_cells
    cr, free_idx = divmod_fast(r, n - k)
    used = placement_unrank(cr, k, n, p.full, state)
    free = p.full & ~used
    x = _select(free, free_idx)
    region = flood(np.int64(1) << x, free, p)
    state[k] = _lowest(region)
    _put32(state, k + 1, region)
    _put32(state, k + 5, used)


@domain_fn
def _rank_after(state, m, r, p):
    return _rank(state, p)


#: ``_SEL8[8 * b + d]``: the place of the ``d``-th set bit of the byte ``b``.
_SEL8 = np.zeros(256 * 8, dtype=np.uint8)
for _b in range(256):
    for _d, _at in enumerate(i for i in range(8) if (_b >> i) & 1):
        _SEL8[8 * _b + _d] = _at


@domain_fn
def _select32(mask, d):
    """:func:`_select` for masks of at most 32 cells: which half, then which byte, by counting
    bits, and the byte's table; no loop whose end the processor would have to guess."""
    c = _popcount(mask & 0xFFFF)
    h = np.int64(d >= c)
    mask >>= 16 * h
    d -= c * h
    c = _popcount(mask & 0xFF)
    b = np.int64(d >= c)
    mask >>= 8 * b
    d -= c * b
    return 16 * h + 8 * b + np.int64(_SEL8[8 * (mask & 0xFF) + d])


def _select_fast(mask, d):
    """:func:`_select32`, or the processor's PDEP where it is quick (chosen when compiling)."""


@overload(_select_fast, jit_options={"_nrt": False})
def _choose_select(mask, d):
    if FAST_PDEP:
        return lambda mask, d: select_pdep(mask, d)
    return lambda mask, d: _select32(mask, d)


@domain_fn
def _children_of_rank(r, p, out, k0, memo, table):
    """Every child of the state of rank ``r`` (its rank written to ``out[k0:]``), found and
    ranked on the rank's digits and cell masks, no state made; returns the new count.

    The placement's rank is the sum of its digits times their weights, digit ``i`` being tile
    ``i``'s cell counted among the cells no earlier tile holds. A move of tile ``j`` from cell
    ``t`` to ``c`` changes digit ``j``, and the digit of each later tile whose cell lies between
    ``t`` and ``c`` by one (up when ``t`` is below it); every other digit stays. ``table``: the
    regions are read from ``p.comp``, else flood-filled. The cells and digits are kept 5 bits
    each in one integer (so ``k <= 12``). ``memo`` keeps the last placement decoded and its
    cells (the scan meets the states of one placement, its blank regions, one after another),
    and the cells of its first tiles, those of the digits :attr:`high_digits` holds (shared by
    the next placements, met in rank order, up to the next multiple of ``low_size``)."""
    k, n = p.k, p.n_cells
    cols, nf, nl, full = p.cols, p.not_first_col, p.not_last_col, p.full
    placement, free_idx = divmod_fast(r, n - k)
    if memo[0] == placement:
        cells, used = memo[1], memo[2]
    else:
        high, low = divmod_fast(placement, p.low_size)
        n_high = k - DIGIT_TABLE_DIGITS if k > DIGIT_TABLE_DIGITS else 0
        if memo[3] == high:
            cells, used = memo[4], memo[5]
        else:
            # the first tiles' digits from a table (or divisions), then their cells in order
            if p.high_digits.shape[0] > 0:
                digits = p.high_digits[high]
            else:
                digits = np.int64(0)
                q = high
                for i in range(n_high - 1, -1, -1):
                    q, d = divmod_fast(q, n - i)
                    digits |= d << (5 * i)
            cells = np.int64(0)
            used = np.int64(0)
            for i in range(n_high):
                x = _select_fast(full & ~used, (digits >> (5 * i)) & 31)
                cells |= x << (5 * i)
                used |= np.int64(1) << x
            memo[3], memo[4], memo[5] = high, cells, used
        digits = p.low_digits[low]  # the last tiles' digits
        for i in range(n_high, k):
            x = _select_fast(full & ~used, (digits >> (5 * i)) & 31)
            cells |= x << (5 * i)
            used |= np.int64(1) << x
        memo[0], memo[1], memo[2] = placement, cells, used
    free = full & ~used
    x = _select_fast(free, free_idx)
    if table:
        region = np.int64(p.comp[free, x])
    else:
        region = flood(np.int64(1) << x, free, p)
    kk = k0
    weight = np.int64(1)  # tile j's weight: the product of n - i for i = j+1 .. k-1
    later = np.int64(0)  # the cells of the tiles after j
    for j in range(k - 1, -1, -1):
        t = (cells >> (5 * j)) & 31
        bit = np.int64(1) << t
        earlier = used & ~later & ~bit
        near = (((bit << 1) & nf) | ((bit >> 1) & nl) | (bit << cols) | (bit >> cols)) & region
        d_old = t - _popcount(earlier & (bit - 1))
        while near != 0:
            cb = near & -near
            near ^= cb
            c = lowest_bit(cb)
            occ = used ^ bit ^ cb
            if table:
                reg = np.int64(p.comp[full & ~occ, t])
            else:
                reg = flood(bit, full & ~occ, p)
            low = lowest_bit(reg)
            below = low - _popcount(occ & ((np.int64(1) << low) - 1))
            child = placement + (c - _popcount(earlier & (cb - 1)) - d_old) * weight
            lo, hi = (bit, cb) if t < c else (cb, bit)
            between = later & (hi - 1) & ~(lo | (lo - 1))
            if between != 0:  # a later tile's digit moves by one for each such cell
                w = np.int64(1)
                for i in range(k - 1, j, -1):
                    if (between >> ((cells >> (5 * i)) & 31)) & 1:
                        child += w if t < c else -w
                    w *= n - i
            out[kk] = child * (n - k) + below
            kk += 1
        later |= bit
        weight *= n - j
    return kk


@domain_fn
def _children_table(r, p, out, k0, memo):
    return _children_of_rank(r, p, out, k0, memo, True)


@domain_fn
def _children_flood(r, p, out, k0, memo):
    return _children_of_rank(r, p, out, k0, memo, False)


FNS = DomainFns(_step_flood, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after,
                None, _children_flood)
#: The same with the region read from a table (boards of at most :data:`TABLE_CELLS` cells).
FNS_TABLE = DomainFns(_step_table, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after,
                      None, _children_table)
#: Without ``children`` (groups of more than :data:`CHILDREN_TILES` tiles, whose cells do not
#: fit one integer).
FNS_STEPS = DomainFns(_step_flood, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after)
FNS_TABLE_STEPS = DomainFns(_step_table, _inverse, _is_goal, _heuristic, _rank, _unrank,
                            _rank_after)
#: The most tiles whose cells :func:`_children_of_rank` keeps in one integer.
CHILDREN_TILES = 12
#: A placement's last digits read from one table (``low_digits``; 11,880 entries for 8 tiles on
#: 16 cells), and the others from a second one when it has at most :data:`DIGIT_TABLE_MAX`
#: entries: one division instead of one per digit.
DIGIT_TABLE_DIGITS = 4
DIGIT_TABLE_MAX = 1 << 18


def digit_tables(n, k):
    """``(low_size, low_digits, high_digits)`` for placements of ``k`` tiles on ``n`` cells:
    the digits of the last ``min(k, 4)`` tiles, and of the others (an empty table when it
    would pass :data:`DIGIT_TABLE_MAX` entries), each digit 5 bits at its tile's place."""
    n_low = min(k, DIGIT_TABLE_DIGITS)
    radices = [n - i for i in range(k)]  # tile i's digit runs over n - i values

    def table(first, last):
        size = 1
        for i in range(first, last):
            size *= radices[i]
        v = np.arange(size, dtype=np.int64)
        out = np.zeros(size, dtype=np.int64)
        for i in range(last - 1, first - 1, -1):
            v, d = np.divmod(v, radices[i])
            out |= d << (5 * i)
        return size, out

    low_size, low = table(k - n_low, k)
    high_size = 1
    for i in range(k - n_low):
        high_size *= radices[i]
    high = table(0, k - n_low)[1] if high_size <= DIGIT_TABLE_MAX else np.zeros(0, np.int64)
    return np.int64(low_size), low, high


class PatternSpace:
    """The abstract space of ``k`` pattern tiles on a ``rows x cols`` board (see the module's
    docstring); ``n_ranks`` table entries, of which the reachable states are a subset."""

    def __init__(self, rows, cols, k):
        n = rows * cols
        if n > MAX_PATTERN_CELLS:
            raise PuzzleError(
                f"pattern databases are limited to boards of {MAX_PATTERN_CELLS} cells, "
                f"not {rows}x{cols}"
            )
        if not 1 <= k <= n - 1:
            raise PuzzleError(f"a pattern needs 1 to {n - 1} tiles on a {rows}x{cols} board, not {k}")
        self.rows, self.cols, self.n_cells, self.k = rows, cols, n, k
        nbr = grid_neighbours(rows, cols)
        not_first = sum(1 << c for c in range(n) if nbr[c, 2] >= 0)
        not_last = sum(1 << c for c in range(n) if nbr[c, 3] >= 0)
        self.params = PatternParams(
            k + 9, 4 * k, 1, np.int64(n), np.int64(k), np.int64(cols), nbr,
            np.int64(not_first), np.int64(not_last), np.int64((1 << n) - 1),
            np.zeros((1, 1), dtype=np.uint16), *digit_tables(n, k),
        )
        few = k <= CHILDREN_TILES
        self.fns = FNS if few else FNS_STEPS
        if n <= TABLE_CELLS:  # regions read from a table
            self.params = self.params._replace(comp=_component_table(n, self.params))
            self.fns = FNS_TABLE if few else FNS_TABLE_STEPS

    @property
    def n_placements(self):
        out = 1
        for i in range(self.k):
            out *= self.n_cells - i
        return out

    @property
    def n_ranks(self):
        return self.n_placements * (self.n_cells - self.k)

    def state(self, cells, blank):
        """The abstract state with pattern tile ``j`` on ``cells[j]`` and the blank on ``blank``."""
        cells = [int(c) for c in cells]
        if len(set(cells)) != len(cells) or blank in cells:
            raise PuzzleError("pattern tiles and the blank must be on distinct cells")
        st = np.zeros(self.params.state_len, dtype=np.uint8)
        st[: self.k] = cells
        occ = sum(1 << c for c in cells)
        free = ((1 << self.n_cells) - 1) & ~occ
        region = int(flood(np.int64(1 << blank), np.int64(free), self.params))
        st[self.k] = (region & -region).bit_length() - 1
        _put32(st, self.k + 1, np.int64(region))
        _put32(st, self.k + 5, np.int64(occ))
        return st
