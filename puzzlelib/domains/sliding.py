"""Sliding-tile puzzles (8-puzzle, 15-puzzle and their rectangular cousins).

Boards are written as space-separated labels in row-major order, ``0`` for the blank; equal
labels are indistinguishable tiles. A move is named by the direction the *blank* travels:
``u``, ``d``, ``l``, ``r`` (the tile next to the blank slides the other way).

Encoding used by the kernels: a ``uint8`` state of ``n_cells + 1`` bytes, the labels cell by cell
followed by the blank's cell index, so a move never has to search for the blank.

Hash, chosen from the board; both are ``blank_cell * block + rank(tiles in reading order)``:

- distinct tiles: the reachable positions are exactly half of the ``n!`` arrangements (a move
  never changes a parity invariant), so ``block = (n-1)!/2`` and the tiles are ranked by
  ``lehmer // 2``, a minimal perfect hash onto ``n!/2``. Lexicographic ranks ``2k`` and ``2k+1``
  differ only by swapping the last two tiles, which flips the parity, so exactly one of each
  pair is reachable for a given blank cell; ``unrank`` picks it with the parity the blank's cell
  requires.
- repeated labels (indistinguishable tiles): swapping two equal tiles changes nothing, so both
  parities are one position and every arrangement is reachable; the tiles are ranked as a
  multiset permutation (:func:`~puzzlelib.core.hashing.multiset_rank`), ``block = (n-1)! /
  prod(multiplicity!)``, a minimal perfect hash onto ``n! / prod(multiplicity!)``.

Either way a horizontal move leaves the tiles' reading order alone, so the neighbour's rank is
the parent's plus or minus ``block`` (``rank_after``): half the ranking work of a BFS is free.
"""

from collections import Counter, namedtuple
from functools import lru_cache

import numpy as np


from ..core.contract import ILLEGAL, CursorFns, DomainFns, KeyFns, domain_fn
from . import cycles
from .base import Puzzle
from ..core.errors import PuzzleError, UnsolvableError
from ..core.hashing import (
    FACTORIALS,
    check_rank_size,
    _popcount,
    divmod_fast,
    lowest_bit,
    multiset_radix,
    MULTISET_FAST_CLASSES,
    MULTISET_FAST_N,
    multiset_rank,
    multiset_rank_skip_long,
    multiset_tables,
    multiset_unrank,
    multiset_weights,
    perm_rank_skip,
    perm_unrank,
)

#: The blank's moves, in move-number order: up, down, left, right.
MOVE_NAMES = "udlr"
HASHES = ("perfect", "sparse")
#: The largest sparse index: 2**40 entries (1 TiB), refused long before by the memory check.
MAX_SPARSE_BITS = 40
MIN_SIDE, MAX_SIDE = 2, 12
#: At most 5x5 = 25 cells (2x12, 3x8 and 4x6 included).
MAX_CELLS = 25

SlidingParams = namedtuple(
    "SlidingParams",
    [
        "state_len",  # n_cells + 1
        "n_moves",  # 4
        "bound_step",  # 2: every cycle of moves has even length
        "rows",
        "cols",
        "n_cells",
        "nbr",  # nbr[cell, m]: the cell the blank moves to with move m, or -1
        "h",  # h[label, cell]: heuristic contribution of a tile (all zero for no heuristic)
        "goal",  # goal labels, uint8[n_cells]
        "tile_parity",  # parity the tiles' permutation must have with the blank at each cell
        "block",  # the number of ranks per blank cell: (n-1)!/2, or (n-1)!/prod(mult!)
        "cls",  # cls[label]: the label's class for the multiset hash (repeated labels only)
        "class_label",  # class_label[c]: the label of class c
        "class_count",  # how many tiles carry each class's label
        "radix",  # radices of the multiset hash (see puzzlelib.core.hashing.multiset_radix)
        "weights",  # radix[c] * C(j, o), the table of the long multiset rank
        "mshift",  # tables of the one-word multiset rank (puzzlelib.core.hashing.multiset_tables)
        "mupdate",
        "mweights",
        "scode",  # scode[label]: its code in the sparse index (the blank: 0)
        "slabel",  # slabel[code]: the label of a sparse code
        "sbits",  # bits per cell in the sparse index
        # linear conflict (distinct tiles)
        "lc_w",  # lc_w[o, label, cell]: the label's share of the key of the cell's row (o = 0)
        #          or column (o = 1); see line_conflict_table
        "lc_table",  # lc_table[o, key]: linear conflict of a row (o = 0) or column (o = 1)
        # additive pattern databases (see puzzlelib.pdb); the state then also holds each
        # tile's cell (bytes n+1+label) and each group's value, then each reflected group's
        "n_groups",
        "reflect",  # 1: also look up the board mirrored in its main diagonal, take the max
        "pinfo",  # the groups, their tiles and where their tables start (see Q_HEAD)
        "tables",  # the databases, one after the other (uint8)
        # depth-first search's cursor loop (CursorFns)
        "cmoves",  # cmoves[(cell * 8 + prev + 1) * 8 + i]: the i-th blank move at cell after
        #            move prev (never its inverse), -1 after the last
        "cnbr",  # cnbr[cell * 4 + m]: nbr flat
        "dh",  # dh[(cell * 4 + m) * 32 + label]: the heuristic's change when the blank's move
        #        m from cell brings tile label to cell
    ],
)

#: Heuristics of the search methods that use one.
HEURISTICS = ("manhattan", "linear-conflict", "none", "pdb555", "pdb663", "pdb78", "pdb6666")


# ---------------------------------------------------------------------------------------------
# jitted domain functions (see puzzlelib.core.contract for the contract)
# ---------------------------------------------------------------------------------------------


@domain_fn
def _step(state, m, p):
    b = state[p.n_cells]
    t = p.nbr[b, m]
    if t < 0:
        return ILLEGAL
    tile = state[t]
    state[b] = tile
    state[t] = 0
    state[p.n_cells] = t
    return p.h[tile, b] - p.h[tile, t]


@domain_fn
def _inverse(m, p):
    return m ^ 1  # u <-> d, l <-> r


@domain_fn
def _is_goal(state, p):
    for i in range(p.n_cells):
        if state[i] != p.goal[i]:
            return False
    return True


@domain_fn
def _heuristic(state, p):
    total = 0
    for i in range(p.n_cells):
        total += p.h[state[i], i]
    return total


@domain_fn
def _line_key(state, first, stride, length, w):
    """The key of one line in ``lc_table``: the sum of its tiles' shares ``w[label, cell]``.
    (Arrays come one by one: handing ``params`` to a helper that is not inlined costs more than
    the work.)"""
    key = 0
    for i in range(length):
        c = first + i * stride
        key += w[state[c], c]
    return key


@domain_fn
def _step_lc(state, m, p):
    """A move, returning the change of Manhattan distance plus linear conflict. A vertical move
    changes one tile's row, so only the two rows' conflicts can change (the tile keeps its
    place among its column's tiles); a horizontal move, likewise, only two columns'."""
    b = state[p.n_cells]
    t = p.nbr[b, m]
    if t < 0:
        return ILLEGAL
    tile = state[t]
    if m < 2:  # vertical: rows b // cols and t // cols change
        o = 0
        kb = _line_key(state, b - b % p.cols, 1, p.cols, p.lc_w[0])
        kt = _line_key(state, t - t % p.cols, 1, p.cols, p.lc_w[0])
    else:  # horizontal: columns b % cols and t % cols
        o = 1
        kb = _line_key(state, b % p.cols, p.cols, p.rows, p.lc_w[1])
        kt = _line_key(state, t % p.cols, p.cols, p.rows, p.lc_w[1])
    w = p.lc_w[o]
    table = p.lc_table[o]
    before = table[kb] + table[kt]
    # the tile leaves cell t for cell b, the blank the other way: update both keys
    kb += w[tile, b] - w[0, b]
    kt += w[0, t] - w[tile, t]
    after = table[kb] + table[kt]
    state[b] = tile
    state[t] = 0
    state[p.n_cells] = t
    return p.h[tile, b] - p.h[tile, t] + np.int64(after) - np.int64(before)


@domain_fn
def _heuristic_lc(state, p):
    total = _heuristic(state, p)
    for r in range(p.rows):
        total += p.lc_table[0, _line_key(state, r * p.cols, 1, p.cols, p.lc_w[0])]
    for c in range(p.cols):
        total += p.lc_table[1, _line_key(state, c, p.cols, p.rows, p.lc_w[1])]
    return total


# ``pinfo``, the pattern databases' numbers in one int64 array: a head of these entries, the
# last six of which say where a part starts (see SlidingPuzzle.with_pdbs). One array, because
# a call that is not inlined copies every array it is given (params: some 265 words); the step
# below is a few lines that LLVM inlines, and the move it calls gets this and the tables.
(Q_N, Q_GROUPS, Q_REFLECT, Q_KMAX,  # n cells, groups, reflect (0/1), the largest group
 Q_GROUP, Q_RLABEL, Q_RCELL,  # [label]: its group or -1; [label]: the mirrored tile; [cell]
 Q_GSIZE, Q_TOFFSET, Q_GTILES) = range(10)  # [g]: size; [g]: table start; [g * kmax + i]
Q_HEAD = 10


@domain_fn
def _group_value(state, g, f, q, tables):
    """Group ``g``'s database value: its tiles' cells (read from the state, or from the board
    mirrored in its diagonal when ``f`` is 1), ranked as a placement (see
    puzzlelib.pdb.space). Its indices, and those of the step's other helpers, are unsigned:
    numba tests every signed index for a negative (from-the-end) one, and on this path those
    tests took a large share of the time (benchmarks/RESULTS.md, "The 24-puzzle")."""
    U = np.uint64
    n = q[Q_N]
    tiles = U(q[Q_GTILES] + g * q[Q_KMAX])  # gtiles[g, i]: the i-th tile of group g
    rlabel = U(q[Q_RLABEL])
    rcell = U(q[Q_RCELL])
    at = U(n + 1)
    used = np.int64(0)
    r = np.int64(0)
    for i in range(q[U(q[Q_GSIZE] + g)]):
        label = U(q[tiles + U(i)])
        if f:
            x = q[rcell + U(state[at + U(q[rlabel + label])])]
        else:
            x = np.int64(state[at + label])
        r = r * (n - i) + x - _popcount(used & ((np.int64(1) << x) - 1))
        used |= np.int64(1) << x
    return tables[U(q[U(q[Q_TOFFSET] + g)] + r)]


@domain_fn
def _pdb_sums(state, at, n_groups):
    """The groups' values summed, and the reflected groups' values summed, in one loop (two
    loops, one per sum, were slower (benchmarks/RESULTS.md, "Constants"))."""
    total = np.int64(0)
    other = np.int64(0)
    i = np.uint64(at)  # unsigned indices: see _group_value
    for _ in range(n_groups):
        total += np.int64(state[i])
        other += np.int64(state[i + np.uint64(n_groups)])
        i += np.uint64(1)
    return total, other


@domain_fn
def _pdb_total(state, at, n_groups, reflect):
    total, other = _pdb_sums(state, at, n_groups)
    if reflect and other > total:
        return other
    return total


@domain_fn
def _fill_pdb(state, p):
    """Fill in a state's extra bytes (each tile's cell, each group's value) from its board."""
    n = p.n_cells
    for c in range(n):
        state[n + 1 + state[c]] = c
    at = 2 * n + 1
    q, ng = p.pinfo, p.n_groups
    for g in range(ng):
        state[at + g] = _group_value(state, g, 0, q, p.tables)
        state[at + ng + g] = _group_value(state, g, 1, q, p.tables) if p.reflect else 0
    sv = at + 2 * ng
    state[sv] = NO_MOVE
    state[sv + 1] = 0
    state[sv + 2] = 0
    total, other = _pdb_sums(state, at, ng)
    state[sv + 3] = total  # the sums, kept up by the steps
    state[sv + 4] = other


#: The last-move byte of a PDB state that no :func:`_step_pdb_dfs` made.
NO_MOVE = 255


@domain_fn
def _slide(state, t, n):
    """Slide the tile at cell ``t`` into the blank (a PDB state: the tiles' cells too). Returns
    the tile."""
    U = np.uint64  # unsigned indices: see _group_value
    b = state[U(n)]
    tile = state[U(t)]
    state[b] = tile
    state[U(t)] = 0
    state[U(n)] = t
    state[U(n + 1 + tile)] = b
    state[U(n + 1)] = t  # the blank's own cell, so that equal boards are equal states
    return tile


@domain_fn
def _step_pdb(state, m, p):
    """Move, and look up the moved tile's group values again (plain and reflected). The bytes
    after the values are left alone, so equal boards stay equal states (A* keys its sets by
    whole states)."""
    t = p.nbr[state[p.n_cells], m]
    if t < 0:
        return ILLEGAL
    return _move_pdb(state, t, p.pinfo, p.tables)


@domain_fn
def _move_pdb(state, t, q, tables):
    U = np.uint64  # unsigned indices: see _group_value
    n = q[Q_N]
    ng = q[Q_GROUPS]
    reflect = q[Q_REFLECT]
    at = 2 * n + 1
    sums = U(at + 2 * ng + 3)
    sp = np.int64(state[sums])
    sm = np.int64(state[sums + U(1)])
    old = sm if reflect and sm > sp else sp
    tile = _slide(state, t, n)
    g = q[U(q[Q_GROUP] + tile)]
    if g >= 0:
        v = _group_value(state, g, 0, q, tables)
        sp += v - np.int64(state[U(at + g)])
        state[U(at + g)] = v
    if reflect:
        g = q[U(q[Q_GROUP] + q[U(q[Q_RLABEL] + tile)])]
        if g >= 0:
            v = _group_value(state, g, 1, q, tables)
            sm += v - np.int64(state[U(at + ng + g)])
            state[U(at + ng + g)] = v
    state[sums] = sp
    state[sums + U(1)] = sm
    return (sm if reflect and sm > sp else sp) - old


@domain_fn
def _step_pdb_dfs(state, m, p):
    """:func:`_step_pdb` for depth-first search: same boards, same values. A state it makes
    keeps, after its groups' values, the move that made it and the two values that move
    replaced; a step that takes that move back (the search's undo, most often of a child its
    bound prunes) puts them back instead of looking them up again: half the lookups per node,
    and on a big database each costs a cache miss (benchmarks/RESULTS.md, "Constants").
    Whatever the steps, the kept values are those of the board the kept move's inverse leads
    to, so they are right to put back. Its states are for depth-first search only: equal boards
    may differ in those bytes."""
    t = p.nbr[state[np.uint64(p.n_cells)], np.uint64(m)]  # unsigned: see _group_value
    if t < 0:
        return ILLEGAL
    return _move_pdb_dfs(state, m, t, p.pinfo, p.tables)


@domain_fn
def _move_pdb_dfs(state, m, t, q, tables):
    U = np.uint64  # unsigned indices: see _group_value
    n = q[Q_N]
    ng = q[Q_GROUPS]
    reflect = q[Q_REFLECT]
    at = 2 * n + 1
    sv = U(at + 2 * ng)
    sp = np.int64(state[sv + U(3)])
    sm = np.int64(state[sv + U(4)])
    old = sm if reflect and sm > sp else sp
    tile = _slide(state, t, n)
    g = q[U(q[Q_GROUP] + tile)]
    g2 = q[U(q[Q_GROUP] + q[U(q[Q_RLABEL] + tile)])] if reflect else -1
    if state[sv] == (m ^ 1):  # the move that made this state, taken back
        if g >= 0:
            sp += np.int64(state[sv + U(1)]) - np.int64(state[U(at + g)])
            state[U(at + g)] = state[sv + U(1)]
        if g2 >= 0:
            sm += np.int64(state[sv + U(2)]) - np.int64(state[U(at + ng + g2)])
            state[U(at + ng + g2)] = state[sv + U(2)]
        state[sv] = NO_MOVE
    else:
        state[sv] = m
        if g >= 0:
            v = _group_value(state, g, 0, q, tables)
            state[sv + U(1)] = state[U(at + g)]
            sp += v - np.int64(state[U(at + g)])
            state[U(at + g)] = v
        if g2 >= 0:
            v = _group_value(state, g2, 1, q, tables)
            state[sv + U(2)] = state[U(at + ng + g2)]
            sm += v - np.int64(state[U(at + ng + g2)])
            state[U(at + ng + g2)] = v
    state[sv + U(3)] = sp
    state[sv + U(4)] = sm
    return (sm if reflect and sm > sp else sp) - old


@domain_fn
def _heuristic_pdb(state, p):
    return _pdb_total(state, 2 * p.n_cells + 1, p.n_groups, p.reflect)


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


FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after)
#: Distinct tiles with Manhattan distance plus linear conflict.
FNS_LC = DomainFns(_step_lc, _inverse, _is_goal, _heuristic_lc, _rank, _unrank, _rank_after)
#: Distinct tiles with additive pattern databases: for the searches that step states (IDA*,
#: A*, bidirectional); the rank table's unrank does not fill in the extra bytes.
FNS_PDB = DomainFns(_step_pdb, _inverse, _is_goal, _heuristic_pdb, _rank, _unrank, _rank_after)
#: Pattern databases, for depth-first search (IDA*): :func:`_step_pdb_dfs`.
FNS_PDB_DFS = DomainFns(_step_pdb_dfs, _inverse, _is_goal, _heuristic_pdb, _rank, _unrank,
                        _rank_after)
#: The sparse direct index (``hash="sparse"``): no ranking, a much larger table.
FNS_SPARSE = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_sparse, _unrank_sparse, _rank_after_sparse
)
@domain_fn
def _rank_after_multiset_long(state, m, r, p):
    if m >= 2:
        return r - p.block if m == 2 else r + p.block
    return _rank_multiset_long(state, p)


FNS_MULTISET = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_multiset, _unrank_multiset, _rank_after_multiset
)
#: Repeated labels on more than 16 cells, or in more than 8 classes: the long multiset rank.
FNS_MULTISET_LONG = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_multiset_long, _unrank_multiset,
    _rank_after_multiset_long,
)


# The cursor loop of depth-first search (puzzlelib.core.contract.CursorFns): the blank is the cursor.
# Its functions index with unsigned integers: numba makes a signed index that might be negative
# count from the array's end, a few instructions per access in IDA*'s innermost loop (see
# _dfs_bounded_cursor).


@domain_fn
def _cursor(state, p):
    return np.int64(state[p.n_cells])


@domain_fn
def _next_move(c, prev, i, p):
    return np.int64(p.cmoves[np.uint64((c * 8 + prev + 1) * 8 + i)])


@domain_fn
def _peek(state, c, m, p):
    cm = c * 4 + m
    t = np.int64(p.cnbr[np.uint64(cm)])
    return np.int64(p.dh[np.uint64(cm * 32 + state[np.uint64(t)])]), t


@domain_fn
def _apply(state, c, m, t, p):
    state[np.uint64(c)] = state[np.uint64(t)]
    state[np.uint64(t)] = 0
    state[p.n_cells] = t


@domain_fn
def _undo(state, c, m, t, p):
    state[np.uint64(t)] = state[np.uint64(c)]
    state[np.uint64(c)] = 0
    state[p.n_cells] = c


#: Manhattan distance (or none), distinct or repeated labels.
CURSOR = CursorFns(_cursor, _next_move, _peek, _apply, _undo)


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


def cursor_tables(nbr, h):
    """The tables ``cmoves``, ``cnbr`` and ``dh`` of the cursor loop (:data:`CURSOR`), small
    (int8, strides of powers of two) so that they stay in the first-level cache."""
    n = nbr.shape[0]
    cmoves = np.full(n * 64, -1, dtype=np.int8)
    for c in range(n):
        for prev in range(-1, 4):
            ms = [m for m in range(4) if nbr[c, m] >= 0 and (prev < 0 or m != prev ^ 1)]
            base = (c * 8 + prev + 1) * 8
            cmoves[base:base + len(ms)] = ms
    cnbr = nbr.ravel().astype(np.int8)
    dh = np.zeros(n * 4 * 32, dtype=np.int8)  # (one move changes a distance by at most 1)
    for c in range(n):
        for m in range(4):
            t = nbr[c, m]
            if t >= 0:
                dh[(c * 4 + m) * 32:(c * 4 + m) * 32 + n] = h[:, c] - h[:, t]
    return cmoves, cnbr, dh


# ---------------------------------------------------------------------------------------------
# parsing and validation
# ---------------------------------------------------------------------------------------------


def line_conflict_table(length):
    """Linear conflict of a line of ``length`` cells for every key ``sum(code[i] * (length +
    1) ** i)``, where ``code[i]`` is the goal place along the line of the tile in cell ``i`` if
    the line is its goal line, else ``length``: 2 x (such tiles - the longest run of them
    already in goal order), the extra moves to let them pass each other."""
    size = (length + 1) ** length
    out = np.zeros(size, dtype=np.uint8)
    for key in range(size):
        codes, k = [], key
        for _ in range(length):
            k, c = divmod(k, length + 1)
            if c < length:
                codes.append(c)
        best = [1] * len(codes)  # longest increasing run ending at each tile
        for i in range(len(codes)):
            for j in range(i):
                if codes[j] < codes[i] and best[j] + 1 > best[i]:
                    best[i] = best[j] + 1
        out[key] = 2 * (len(codes) - max(best, default=0))
    return out


def grid_neighbours(rows, cols):
    """``nbr[cell, m]``: the cell next to ``cell`` in direction ``m`` (up, down, left, right),
    or -1 off the board."""
    n = rows * cols
    nbr = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, q = divmod(c, cols)
        if r > 0:
            nbr[c, 0] = c - cols
        if r < rows - 1:
            nbr[c, 1] = c + cols
        if q > 0:
            nbr[c, 2] = c - 1
        if q < cols - 1:
            nbr[c, 3] = c + 1
    return nbr


def board_symmetries(rows, cols):
    """The symmetries of a ``rows x cols`` board other than the identity, each as ``sigma``
    with ``sigma[cell]`` the cell it goes to: the half turn and the two mirrors (left-right,
    top-bottom), and on a square board also the two quarter turns and the two diagonal
    mirrors."""
    maps = [lambda r, c: (rows - 1 - r, cols - 1 - c), lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c)]
    if rows == cols:
        maps += [lambda r, c: (c, cols - 1 - r), lambda r, c: (rows - 1 - c, r),
                 lambda r, c: (c, r), lambda r, c: (rows - 1 - c, cols - 1 - r)]
    out = []
    for f in maps:
        sigma = np.empty(rows * cols, dtype=np.int64)
        for cell in range(rows * cols):
            r, c = f(*divmod(cell, cols))
            sigma[cell] = r * cols + c
        out.append(sigma)
    return out


def parse_size(text):
    """``"3x3"`` -> ``(3, 3)``; sides from 2 to 12, at most 25 cells."""
    if isinstance(text, (tuple, list)):
        rows, cols = text
    else:
        parts = str(text).lower().replace("×", "x").split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise PuzzleError(f"board size {text!r} is not of the form ROWSxCOLS, e.g. 3x3")
        rows, cols = int(parts[0]), int(parts[1])
    for side in (rows, cols):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise PuzzleError(
                f"board size {rows}x{cols} is not supported: each side must be "
                f"{MIN_SIDE} to {MAX_SIDE}"
            )
    if rows * cols > MAX_CELLS:
        raise PuzzleError(
            f"board size {rows}x{cols} is not supported: at most {MAX_CELLS} cells (5x5)"
        )
    return int(rows), int(cols)


def parse_board(board, rows, cols, what="board"):
    """Check a board (a string of space-separated labels, or a sequence of ints) and return it as
    a ``uint8`` array. Raises :class:`PuzzleError` naming the problem."""
    n = rows * cols
    if isinstance(board, str):
        tokens = board.replace(",", " ").split()
        labels = []
        for tok in tokens:
            try:
                labels.append(int(tok))
            except ValueError:
                raise PuzzleError(f"{what}: label {tok!r} is not an integer") from None
    else:
        labels = [int(x) for x in np.asarray(board).ravel()]
    if len(labels) != n:
        raise PuzzleError(
            f"{what}: expected {n} labels for a {rows}x{cols} board, got {len(labels)}"
        )
    for x in labels:
        if not 0 <= x < n:
            raise PuzzleError(
                f"{what}: label {x} is out of range 0..{n - 1} for a {rows}x{cols} board"
            )
    blanks = labels.count(0)
    if blanks == 0:
        raise PuzzleError(f"{what}: no blank (0) on the board; exactly one is needed")
    if blanks > 1:
        raise PuzzleError(f"{what}: {blanks} blanks (0) on the board; exactly one is needed")
    return np.array(labels, dtype=np.uint8)


def default_goal(rows, cols):
    """Tiles ``1..n-1`` in order, then the blank."""
    n = rows * cols
    return np.array(list(range(1, n)) + [0], dtype=np.uint8)


def _duplicates(labels):
    return {int(k): v for k, v in Counter(int(x) for x in labels).items() if k != 0 and v > 1}


def _tile_parity(board):
    """Parity of the tiles' permutation read row by row, the blank left out."""
    tiles = [int(x) for x in board if x != 0]
    inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    return inv & 1


def parity_class(board, cols):
    """The invariant no move changes (distinct tiles): tile-permutation parity plus
    ``(cols-1) * blank_row``, mod 2. A vertical move makes one tile jump over ``cols-1`` others."""
    b = int(np.flatnonzero(np.asarray(board) == 0)[0])
    return (_tile_parity(board) + (cols - 1) * (b // cols)) & 1


@lru_cache(maxsize=64)
def _goal_class(goal_bytes, cols):
    """:func:`parity_class` of a goal, worked out once per goal and width."""
    return parity_class(np.frombuffer(goal_bytes, dtype=np.uint8), cols)


# ---------------------------------------------------------------------------------------------
# the puzzle
# ---------------------------------------------------------------------------------------------


#: The kernels' tables of each board shape, goal, heuristic and hash made so far in this process
#: (at most 64): the kernels only read them, and making them costs more Python time than the
#: search of many an 8-puzzle. Pattern databases are added to a copy.
_PARAMS = {}


def _size_of(rows, cols):
    if cols is None:
        return parse_size(rows)
    return parse_size((rows, cols))


class SlidingPuzzle(Puzzle):
    """A sliding-tile puzzle: ``SlidingPuzzle("3x3")`` or ``SlidingPuzzle(3, 3)``, sides 2 to 12,
    at most 25 cells, with a goal (default: tiles ``1..n-1`` in order, then the blank). Equal
    labels are indistinguishable tiles (the goal must hold the same labels as every start).

    Positions are written as space-separated labels row by row (or a sequence of ints), ``0``
    for the blank. Moves are named by the direction the *blank* travels: ``u``, ``d``, ``l``,
    ``r`` (a solution's ``moves`` is a string of them).

    Heuristics (:meth:`with_heuristic`, or ``heuristic=`` of :func:`~puzzlelib.solve`):
    ``"manhattan"`` (each tile's distance to the nearest goal cell holding its label; the
    default), ``"linear-conflict"`` (Manhattan plus 2 for each tile that must leave its goal
    row or column to let another tile of that line past it; distinct tiles), ``"none"``; and
    additive pattern databases (:mod:`puzzlelib.pdb.sliding`): the 15-puzzle's ``"pdb555"``,
    ``"pdb663"`` and ``"pdb78"``, or ``pdb=`` groups of tile labels on any board.

    ``hash``: ``"perfect"`` (the minimal perfect hash: ``n!/2`` positions with distinct tiles,
    ``n!/prod(multiplicity!)`` with repeated labels) or ``"sparse"`` (a direct index of a few
    bits a cell: no ranking work, a far larger table; for comparing the two).
    """

    name = "sliding"
    move_names = MOVE_NAMES
    heuristics = ("manhattan", "linear-conflict", "none")
    default_heuristic = "manhattan"
    default_max_depth = 400
    default_max_states = 20_000_000
    #: Every call with the same bundle of functions passes ``params`` of the same numba types
    #: (tests/test_bidir_table.py checks it), so kernels may be called without typing them.
    stable_types = True

    def __init__(self, rows, cols=None, goal=None, heuristic="manhattan", hash="perfect"):
        self.rows, self.cols = _size_of(rows, cols)
        self.n_cells = self.rows * self.cols
        if goal is None:
            self.goal = default_goal(self.rows, self.cols)
        else:
            self.goal = parse_board(goal, self.rows, self.cols, what="goal")
        self.distinct = not _duplicates(self.goal)
        self._goal_labels = sorted(self.goal.tolist())
        if heuristic not in self.heuristics:
            raise PuzzleError(f"unknown heuristic {heuristic!r}: use one of "
                              f"{', '.join(HEURISTICS)}")
        if heuristic not in ("manhattan", "none") and not self.distinct:
            raise PuzzleError(
                f"heuristic {heuristic} needs distinct tiles; boards with repeated labels use "
                f"'manhattan' (distance to the nearest home) or 'none'"
            )
        self.heuristic = heuristic
        #: The pattern databases' groups of tile labels, and whether the mirrored lookup is
        #: added (see :meth:`with_pdbs`).
        self.groups = None
        self.reflect = False
        if hash not in HASHES:
            raise PuzzleError(f"unknown hash {hash!r}: use 'perfect' or 'sparse'")
        self.hash = hash
        key = (self.rows, self.cols, self.goal.tobytes(), heuristic, hash)
        self.params = _PARAMS.get(key)
        if self.params is None:
            self.params = self._make_params()
            if len(_PARAMS) >= 64:
                _PARAMS.pop(next(iter(_PARAMS)))  # the oldest
            _PARAMS[key] = self.params
        if heuristic == "linear-conflict":
            self.fns = FNS_LC
        elif hash == "sparse":
            self.fns = FNS_SPARSE
        elif self.distinct:
            self.fns = FNS
        elif self._fast_multiset(self.params.class_count):
            self.fns = FNS_MULTISET
        else:
            self.fns = FNS_MULTISET_LONG
        #: The tighter loop of depth-first search, for Manhattan distance (or none). With
        #: linear conflict or pattern databases, the general loop (its step's work is the cost).
        self.cfns = CURSOR if heuristic in ("manhattan", "none") else None
        #: The functions depth-first search steps with (its states are its own).
        self.dfs_fns = self.fns
        #: 64-bit keys for bidirectional search, on boards of at most 15 cells.
        self.kfns = KEYS if self.n_cells <= KEY_MAX_CELLS else None
        #: Keys that also give ``fns``' rank, for layered BFS.
        if self.fns is FNS_MULTISET and self.n_cells <= MULTISET_KEY_MAX_CELLS:
            self.lkfns = KEYS_MULTISET
        elif self.kfns is not None and self.fns.rank is _rank:
            self.lkfns = KEYS_RANKED
        else:
            self.lkfns = None

    # -- construction ---------------------------------------------------------------------
    def _coords(self, cell):
        return divmod(cell, self.cols)

    def _make_params(self):
        n, rows, cols = self.n_cells, self.rows, self.cols
        nbr = grid_neighbours(rows, cols)
        h = np.zeros((n, n), dtype=np.int64)
        if self.heuristic in ("manhattan", "linear-conflict"):
            for label in range(1, n):
                homes = [self._coords(g) for g in np.flatnonzero(self.goal == label)]
                for c in range(n):
                    r, q = self._coords(c)
                    h[label, c] = min((abs(r - hr) + abs(q - hq) for hr, hq in homes), default=0)
        tile_parity = np.zeros(n, dtype=np.int64)
        block = 0  # 0: the board is too large to rank in 64 bits (n_ranks says so)
        cls = np.zeros(n, dtype=np.int64)
        labels = sorted(set(int(x) for x in self.goal) - {0})
        class_label = np.array(labels, dtype=np.uint8)
        class_count = np.array([int((self.goal == v).sum()) for v in labels], dtype=np.int64)
        radix = np.ones(len(labels), dtype=np.int64)
        weights = np.zeros((1, 1, 1), dtype=np.int64)
        mshift = np.zeros(n, dtype=np.int64)
        mupdate = np.zeros(n, dtype=np.uint64)
        mweights = np.zeros(1, dtype=np.int64)
        self._multiset_size = None
        if self.distinct:
            bg = int(np.flatnonzero(self.goal == 0)[0])
            tp_goal = _tile_parity(self.goal)
            for b in range(n):
                tile_parity[b] = (tp_goal + (cols - 1) * (b // cols - bg // cols)) & 1
            if n - 1 <= 20:
                block = int(FACTORIALS[n - 1] // 2)
        else:
            for c, v in enumerate(labels):
                cls[v] = c
            radix, self._multiset_size = multiset_radix(class_count)
            weights = multiset_weights(radix, class_count)
            if self._fast_multiset(class_count):
                mshift, mupdate, mweights = multiset_tables(cls, class_count, ignore=0)
            if self._multiset_size * n < 1 << 63:
                block = self._multiset_size
        all_labels = sorted(set(int(x) for x in self.goal))  # the blank (0) first
        scode = np.zeros(n, dtype=np.int64)
        for code, v in enumerate(all_labels):
            scode[v] = code
        slabel = np.array(all_labels, dtype=np.uint8)
        sbits = max(1, (len(all_labels) - 1).bit_length())
        lc_w = np.zeros((2, 1, 1), dtype=np.int64)
        lc_table = np.zeros((2, 1), dtype=np.uint8)
        if self.heuristic == "linear-conflict":
            # code of a tile along a line: its goal place there if the line is its goal row
            # (column), else the line's length; a line's key: sum code * (length + 1) ** place
            lc_w = np.zeros((2, n, n), dtype=np.int64)
            home = {int(v): divmod(c, cols) for c, v in enumerate(self.goal) if v}
            for v in range(n):
                for c in range(n):
                    r, q = divmod(c, cols)
                    hr, hq = home.get(v, (-1, -1))
                    lc_w[0, v, c] = (hq if hr == r else cols) * (cols + 1) ** q
                    lc_w[1, v, c] = (hr if hq == q else rows) * (rows + 1) ** r
            tabs = [line_conflict_table(cols), line_conflict_table(rows)]
            lc_table = np.zeros((2, max(len(t) for t in tabs)), dtype=np.uint8)
            for o, t in enumerate(tabs):
                lc_table[o, : len(t)] = t
        none = np.zeros(1, dtype=np.int64)
        return SlidingParams(
            n + 1, 4, 2, rows, cols, n, nbr, h, self.goal.copy(), tile_parity, np.int64(block),
            cls, class_label, class_count, radix, weights, mshift, mupdate, mweights,
            scode, slabel, np.int64(sbits), lc_w, lc_table,
            np.int64(0), np.int64(0), none, np.zeros(1, dtype=np.uint8),
            *cursor_tables(nbr, h),
        )


    def with_heuristic(self, name):
        """This puzzle (same size, goal and hash) with heuristic ``name``."""
        if name is None:
            name = self.default_heuristic
        if name == self.heuristic and self.groups is None:
            return self
        if name not in self.heuristics:
            raise PuzzleError(f"unknown heuristic {name!r} for sliding tiles: use "
                              f"{', '.join(self.heuristics)}, or a pattern database (pdb555, "
                              f"pdb663, pdb78 on 4x4, pdb6666 on 5x5, or pdb= groups of "
                              f"tiles)")
        return SlidingPuzzle(self.rows, self.cols, goal=self.goal, heuristic=name,
                             hash=self.hash)

    def move_automaton(self):
        """Strings of up to :data:`~puzzlelib.domains.cycles.DEFAULT_MAX_LEN` blank moves that a
        smaller string replaces on any board (:mod:`puzzlelib.domains.cycles`)."""
        return cycles.cached_automaton()

    def rooted(self, start):
        """The puzzle whose goal is ``start`` itself (any labels): :func:`~puzzlelib.layers`
        counts the positions reachable from there."""
        arr = parse_board(start, self.rows, self.cols, what="start")
        return SlidingPuzzle(self.rows, self.cols, goal=arr, heuristic="none", hash=self.hash)

    # -- pattern databases ------------------------------------------------------------------
    def pattern_groups(self, groups, reflect=None):
        """Check pattern-database ``groups`` (lists of tile labels, disjoint) for this goal;
        returns ``(label groups, cell groups, blank's goal cell, reflect)``, ``reflect``
        resolved: by default the mirrored lookup is added where the board is square and the
        goal's blank lies on the main diagonal (it needs both)."""
        if self.hash != "perfect":
            raise PuzzleError("pattern databases go with the perfect hash, not a sparse index")
        if not self.distinct:
            raise PuzzleError("pattern databases need distinct tiles")
        cell_of = {int(v): c for c, v in enumerate(self.goal)}
        if not groups:
            raise PuzzleError("pattern databases need groups: lists of tile labels")
        label_groups, seen = [], set()
        for grp in groups:
            try:
                grp = [int(x) for x in grp]
            except (TypeError, ValueError):
                raise PuzzleError(f"pattern group {grp!r} is not a list of tile labels") from None
            bad = [x for x in grp if x not in cell_of or x == 0]
            if bad or not grp:
                raise PuzzleError(f"pattern groups: {bad or 'an empty group'} are not tiles of "
                                  f"this board")
            if seen & set(grp) or len(set(grp)) != len(grp):
                raise PuzzleError("pattern groups must be disjoint, each tile at most once")
            seen |= set(grp)
            label_groups.append(grp)
        blank = cell_of[0]
        mirrorable = self.rows == self.cols and blank // self.cols == blank % self.cols
        if reflect is None:
            reflect = mirrorable
        elif reflect and not mirrorable:
            raise PuzzleError(
                "reflect needs a square board whose goal has the blank on the main diagonal")
        return label_groups, [[cell_of[x] for x in g] for g in label_groups], blank, bool(reflect)

    def with_pdbs(self, groups, tables, reflect=None):
        """This puzzle guided by additive pattern databases: ``groups`` of tile labels (see
        :meth:`pattern_groups`) and each group's table (``uint8``, indexed by the rank of its
        tiles' cells, :func:`puzzlelib.pdb.space.placement_rank`); ``tables`` may also be the
        groups' tables already joined one after the other."""
        label_groups, _, _, reflect = self.pattern_groups(groups, reflect)
        n, goal = self.n_cells, self.goal
        cell_of = {int(v): c for c, v in enumerate(goal)}
        rcell = np.arange(n, dtype=np.int64)
        if reflect:
            rcell = np.array([(c % self.cols) * self.cols + c // self.cols for c in range(n)],
                             dtype=np.int64)
        rlabel = np.array([int(goal[rcell[cell_of[v]]]) if v in cell_of else 0
                           for v in range(n)], dtype=np.int64)
        G = len(label_groups)
        kmax = max(len(g) for g in label_groups)
        group = np.full(n, -1, dtype=np.int64)
        gtiles = np.zeros((G, kmax), dtype=np.int64)
        sizes = []
        for g, grp in enumerate(label_groups):
            entries = 1
            for i, v in enumerate(grp):
                group[v] = g
                gtiles[g, i] = v
                entries *= n - i
            sizes.append(entries)
        if isinstance(tables, np.ndarray):
            joined = tables
        else:
            if [len(t) for t in tables] != sizes:
                raise PuzzleError(f"pattern tables of {[len(t) for t in tables]} entries do "
                                  f"not fit groups of {sizes} placements")
            joined = np.concatenate(tables)
        if joined.dtype != np.uint8 or len(joined) != sum(sizes):
            raise PuzzleError(f"joined pattern tables must be {sum(sizes):,} bytes (uint8)")
        toffset = np.cumsum([0] + sizes[:-1])
        parts = [group, rlabel, rcell, np.array([len(g) for g in label_groups]), toffset, gtiles]
        starts = np.cumsum([Q_HEAD] + [a.size for a in parts[:-1]])
        head = [n, G, int(reflect), kmax, *starts]
        pinfo = np.concatenate([np.array(head)] + [np.ravel(a) for a in parts]).astype(np.int64)
        out = SlidingPuzzle(self.rows, self.cols, goal=goal, heuristic="none", hash=self.hash)
        out.heuristic = "pdb"
        out.groups = label_groups
        out.reflect = reflect
        out.fns = FNS_PDB
        out.dfs_fns = FNS_PDB_DFS
        out.cfns = None
        out.lkfns = None
        out.params = out.params._replace(
            # the board, each tile's cell, the groups' values, plain then reflected, the last
            # move with the two values it replaced (see _step_pdb_dfs), and the two sums
            state_len=2 * n + 1 + 2 * G + 5, n_groups=np.int64(G),
            reflect=np.int64(int(reflect)), pinfo=pinfo, tables=joined,
        )
        return out

    @staticmethod
    def _fast_multiset(class_count):
        # one byte of the word per class, and a spare one for the blank
        return len(class_count) < MULTISET_FAST_CLASSES and sum(class_count) <= MULTISET_FAST_N

    @property
    def state_len(self):
        return int(self.params.state_len)

    @property
    def size(self):
        return f"{self.rows}x{self.cols}"

    label = size

    def describe(self):
        return {"puzzle": self.name, "size": self.size, "goal": [int(x) for x in self.goal],
                "hash": self.hash}

    def layers_extra(self):
        return {"hash": self.hash_name}

    # -- positions ------------------------------------------------------------------------
    def parse(self, board, what="start"):
        """Check ``board`` against this puzzle (length, labels, blank, the goal's tiles,
        solvable) and return it as a ``uint8`` array."""
        arr = parse_board(board, self.rows, self.cols, what=what)
        if sorted(arr.tolist()) != self._goal_labels:
            want, have = Counter(self.goal.tolist()), Counter(arr.tolist())
            dup = _duplicates(arr)
            if dup and self.distinct:
                tile, count = next(iter(dup.items()))
                raise PuzzleError(
                    f"{what}: tile {tile} appears {count} times; tiles must be distinct "
                    f"(give a goal with the same repeated labels to use indistinguishable tiles)"
                )
            missing = sorted((want - have).elements())
            extra = sorted((have - want).elements())
            raise PuzzleError(
                f"{what} and goal do not hold the same tiles: missing {missing}, extra {extra}"
            )
        if self.distinct and parity_class(arr, self.cols) != _goal_class(self.goal.tobytes(),
                                                                         self.cols):
            raise UnsolvableError(
                f"{what} is unsolvable: it lies in the other parity class from the goal "
                f"(tile-permutation parity plus (cols-1) x blank row differs), so no sequence of "
                f"moves reaches the goal"
            )
        return arr

    def encode(self, position, what="start"):
        """A board (checked: :meth:`parse`) -> the kernels' state: the labels, then the blank's
        cell (with pattern databases: each tile's cell and each group's value too)."""
        return self.state_of(self.parse(position, what=what))

    def state_of(self, arr):
        """The kernels' state of a board already checked (a ``uint8`` array)."""
        state = np.empty(self.state_len, dtype=np.uint8)
        state[: self.n_cells] = arr
        state[self.n_cells] = int(np.flatnonzero(arr == 0)[0])
        if self.fns is FNS_PDB:
            _fill_pdb(state, self.params)
        return state

    def decode(self, state):
        """The kernels' state -> the board as a list of ints."""
        return [int(x) for x in state[: self.n_cells]]

    def goal_state(self):
        return self.state_of(self.goal)

    def residue(self, state):
        """Every solution's length has the parity of the blank's distance to its goal cell."""
        b = int(state[self.n_cells])
        bg = int(np.flatnonzero(self.goal == 0)[0])
        return (abs(b // self.cols - bg // self.cols) + abs(b % self.cols - bg % self.cols)) % 2

    def start_h(self, state):
        return int(self.fns.heuristic(state, self.params))

    # -- hashing ---------------------------------------------------------------------------
    @property
    def n_ranks(self):
        """Size of the rank table (the positions reachable from the goal)."""
        if self.hash == "sparse":
            bits = int(self.params.sbits) * self.n_cells
            if bits > MAX_SPARSE_BITS:
                raise PuzzleError(
                    f"the sparse index of this board needs 2**{bits} entries "
                    f"({int(self.params.sbits)} bits for each of {self.n_cells} cells); at most "
                    f"2**{MAX_SPARSE_BITS}: use the perfect hash"
                )
            return 1 << bits
        if self.distinct:
            check_rank_size(self.n_cells - 1)
        elif int(self.params.block) == 0:
            raise PuzzleError(
                f"{self.n_cells * self._multiset_size:,} positions are too many for the 64-bit "
                f"multiset hash"
            )
        return self.n_cells * int(self.params.block)

    @property
    def buckets(self):
        """``(bucket_next, block)`` for the parallel layered BFS: ranks come in blocks of
        ``block``, one per blank cell, and move ``m`` takes the blank from cell ``b`` to
        ``nbr[b, m]``."""
        if self.hash == "sparse":
            return None  # the blank's cell is not a block of the sparse index
        return self.params.nbr, int(self.params.block)

    @property
    def hash_name(self):
        """Which hash this board uses."""
        if self.hash == "sparse":
            return f"sparse direct index, {int(self.params.sbits)} bits a cell"
        if self.distinct:
            return "permutation rank of the reachable half, n!/2"
        return "multiset-permutation rank, n!/prod(multiplicity!)"

    # -- moves ------------------------------------------------------------------------------
    def moves_out(self, path):
        return "".join(MOVE_NAMES[int(m)] for m in path)

    def move_order(self, order):
        """``order``: the letters ``u``, ``d``, ``l``, ``r`` once each (``"ulrd"``: up, left,
        right, down, the order of Korf's programs) -> their move numbers."""
        if not isinstance(order, str) or sorted(order) != sorted(MOVE_NAMES):
            raise PuzzleError(f"order must name the blank's four moves once each, as a string of "
                              f"u, d, l, r such as 'ulrd', not {order!r}")
        return np.array([MOVE_NAMES.index(ch) for ch in order], dtype=np.int64)

    def moves_in(self, state, moves):
        """A string of ``u``, ``d``, ``l``, ``r`` -> move numbers, each legal in turn."""
        out = []
        b = int(state[self.n_cells])
        for k, ch in enumerate(moves):
            if ch not in MOVE_NAMES:
                raise PuzzleError(f"move {k}: {ch!r} is not one of u, d, l, r")
            m = MOVE_NAMES.index(ch)
            t = int(self.params.nbr[b, m])
            if t < 0:
                raise PuzzleError(f"move {k}: the blank cannot move {ch!r} from cell {b}")
            out.append(m)
            b = t
        return out

    def apply_moves(self, board, moves):
        """Replay blank moves (a string of u/d/l/r) from ``board``; return every board on the way
        (the first is ``board`` itself). Raises :class:`PuzzleError` on an impossible move."""
        cur = [int(x) for x in np.asarray(board).ravel()] if not isinstance(board, str) else [
            int(x) for x in board.replace(",", " ").split()]
        out = [list(cur)]
        b = cur.index(0)
        for m in self.moves_in(np.array(cur + [b], dtype=np.uint8), moves):
            t = int(self.params.nbr[b, m])
            cur[b], cur[t] = cur[t], 0
            b = t
            out.append(list(cur))
        return out

    def replay(self, start, moves):
        return self.apply_moves(self.parse(start, what="start"), moves)

    def tiles_moved(self, board, moves):
        """Convert blank moves to the labels of the tiles moved (document 000's notation)."""
        boards = self.apply_moves(board, moves)
        # the tile moved lands where the blank was
        return [after[before.index(0)] for before, after in zip(boards, boards[1:])]

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.cols, self.rows

    def text(self, position):
        """A board as one line: its rows joined by `` / ``."""
        board = [int(x) for x in parse_board(position, self.rows, self.cols, what="position")]
        return " / ".join(" ".join(map(str, board[i:i + self.cols]))
                          for i in range(0, len(board), self.cols))

    def move_mark(self, position, after, move):
        """The tile that slides: the one that lands on the blank's cell."""
        return after[list(position).index(0)]

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None, colours="goal"):
        """Draw a board on matplotlib axes ``ax``, one cell a unit, its top-left corner at
        ``(x0, y0)``, y growing downwards; ``mark``: a tile label to outline. ``colours``:
        ``"goal"``, a tile green where the goal holds its label and orange elsewhere;
        ``"labels"``, one colour per label (indistinguishable tiles look alike)."""
        import matplotlib.pyplot as plt

        if colours not in ("goal", "labels"):
            raise PuzzleError(f"colours must be 'goal' or 'labels', not {colours!r}")
        board = position if isinstance(position, list) else self.decode(
            self.state_of(parse_board(position, self.rows, self.cols, what="position")))
        palette = plt.get_cmap("tab20").colors
        labels = sorted({int(x) for x in self.goal if x})
        for i, tile in enumerate(board):
            r, c = divmod(i, self.cols)
            home = tile != 0 and int(self.goal[i]) == tile
            if tile == 0:
                colour = "#f2f2f2"
            elif colours == "labels":
                colour = palette[(2 * labels.index(tile) + 1) % len(palette)]
            else:
                colour = "#9fd39b" if home else "#f4c36b"
            ax.add_patch(plt.Rectangle((x0 + c, y0 + r), 1, 1, facecolor=colour,
                                       edgecolor="#444", lw=1.2))
            if tile:
                ax.text(x0 + c + 0.5, y0 + r + 0.5, str(tile), ha="center", va="center",
                        weight="bold", fontsize=10 if self.n_cells <= 16 else 8)
            if mark is not None and tile == mark:
                ax.add_patch(plt.Rectangle((x0 + c + 0.06, y0 + r + 0.06), 0.88, 0.88,
                                           fill=False, edgecolor="#c0392b", lw=2.2))
        if title is not None:
            ax.text(x0 + self.cols / 2, y0 - 0.15, title, ha="center", va="bottom", fontsize=9)


def tiles_to_blank_moves(board, tiles, cols):
    """Convert a sequence of moved tile labels back to blank moves u/d/l/r."""
    cur = [int(x) for x in board]
    moves = []
    for k, tile in enumerate(tiles):
        b = cur.index(0)
        cells = [i for i, x in enumerate(cur) if x == tile]
        step = None
        for t in cells:
            d = t - b
            if d == -cols:
                step = "u"
            elif d == cols:
                step = "d"
            elif d == -1 and b % cols != 0:
                step = "l"
            elif d == 1 and t % cols != 0:
                step = "r"
            if step:
                break
        if step is None:
            raise PuzzleError(f"move {k}: tile {tile} is not next to the blank")
        moves.append(step)
        cur[b], cur[t] = cur[t], 0
    return "".join(moves)
