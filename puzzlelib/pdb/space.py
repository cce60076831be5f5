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


from ..core.jit import jit
from ..core.contract import ILLEGAL, DomainFns, domain_fn
from ..core.errors import PuzzleError
from ..domains.sliding import grid_neighbours
from ..core.hashing import _popcount, divmod_fast, lowest_bit

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


FNS = DomainFns(_step_flood, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after)
#: The same with the region read from a table (boards of at most :data:`TABLE_CELLS` cells).
FNS_TABLE = DomainFns(_step_table, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after)


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
            np.zeros((1, 1), dtype=np.uint16),
        )
        self.fns = FNS
        if n <= TABLE_CELLS:  # regions read from a table
            self.params = self.params._replace(comp=_component_table(n, self.params))
            self.fns = FNS_TABLE

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
