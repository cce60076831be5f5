"""Any permutation puzzle, from its positions and moves: :class:`PermutationPuzzle`.

A permutation puzzle has ``n`` cells, each holding a piece; a move sends the piece of one cell
to another, for many cells at once, and may twist pieces that carry an orientation (modulo
``k``: 3 for a cube's corners). Pancake stacks, TopSpin, the Rotation Puzzle and the Pocket
Cube are all of this kind. Give the goal (a label per cell; labels may repeat: the pieces are
then indistinguishable) and each move as a permutation, and every search of the library runs
on the puzzle unchanged.

**A move** is ``src`` with ``src[i]`` the cell whose piece move carries to cell ``i``, and,
with orientations, ``twist[i]``, added (modulo ``k``) to the orientation of the piece arriving
at cell ``i``. Every move's inverse must be a move too.

**Symmetries.** Positions that are the same up to a symmetry of the whole puzzle (the Pocket
Cube turned in the hand) are identified by holding one piece, the *anchor*, still: each move
that carries the anchor away is followed by the symmetry that brings it home untwisted, which
gives a move of the other pieces alone. Every position then has exactly one form with the
anchor at home, moves that became the same are kept once, and the anchor's cell drops out of
the hash.

**Hash.** Cells that no move changes are left out. The other ``m`` cells are ranked as a
permutation (``m!`` ranks; ``m!/2`` when every move is an even permutation), or as an
arrangement of repeated labels, times ``k`` per orientation (one fewer when no move changes the
sum of the twists, which fixes the last). Beyond 64 bits, or 20 distinct pieces, there is no
table, and the searches keep whole states.

Encoding (``uint8``). Cells are numbered in :attr:`PermutationPuzzle.order`: the ``m`` moving
cells first, in the order given, then the unchanged ones; a piece is its goal cell's number (with
repeated labels: the label's class). When the pieces are distinct and ranked, and the table
fits layer lists or the pieces have orientations (``params.loc == 1``, the *location form*),
byte ``i`` is the cell where piece ``i`` is, and
with orientations byte ``n + i`` is piece ``i``'s orientation; otherwise (the *cell form*)
byte ``i`` is the piece in cell ``i``, and byte ``n + i`` the orientation there. Then, when the
puzzle has a heuristic, one byte holds its value (``params.hpos``). A heuristic of your own
(``heuristics={name: fn}``, ``fn(state, params) -> int``, a numba function) reads either form:
``params.loc`` says which.
"""

import hashlib
import math
from collections import namedtuple

import numpy as np
from numba import prange

from ..core.contract import DomainFns, domain_fn
from ..core.jit import kernel
from ..core.errors import PuzzleError, UnsolvableError
from ..core.hashing import (FACTORIALS, MAX_RANK_N, _popcount, divmod_fast, multiset_radix,
                            multiset_rank_skip_long,
                            multiset_unrank, multiset_weights, perm_parity, perm_rank_skip,
                            perm_unrank)
from .base import Puzzle

#: Tables of at least this many positions are searched by scanning the table, layer by layer,
#: in parallel (:mod:`puzzlelib.search.layered`): the layer lists would not fit.
LISTS_MAX_RANKS = 1 << 26

#: The largest table of children (:func:`child_tables`), in entries: moves that change only
#: the first ``w`` cells get one when ``w!`` is at most this (a pancake flip of up to 10).
CHILD_TABLE_MAX = 1 << 22
#: All the tables of one puzzle together, in entries (4 bytes each): 64 MiB.
CHILD_TABLES_MAX = 1 << 24

#: How the moving pieces are ranked (``params.rkind``).
RANK_PERM, RANK_EVEN, RANK_MULTISET, RANK_NONE = 0, 1, 2, 3

PermParams = namedtuple(
    "PermParams",
    [
        "state_len",  # n (+ n orientations), + 1 heuristic byte when there is a heuristic
        "n_moves",
        "bound_step",  # 1
        "n",  # cells
        "m",  # cells some move changes (the first m of the state)
        "k",  # orientations per piece (1: none)
        "loc",  # 1: state[i] is where piece i is (location form); 0: the piece in cell i
        "dest",  # dest[j, c]: the cell move j carries the piece of cell c to
        "tadd",  # tadd[j, c, o]: orientation o of a piece arriving at cell c by move j, after
        "cyc",  # cell form: the cells of every move's cycles, one after another
        "cyc_len",  # the length of each cycle
        "move_cycles",  # move j's cycles: move_cycles[j] to move_cycles[j + 1]
        "swaps",  # cell form, every move its own inverse: swaps[j, t] = the t-th pair swapped
        "n_swaps",  # pairs per move
        "inv",  # inv[j]: the move undoing move j
        "goal",  # the goal's state bytes (the heuristic byte 0)
        "hpos",  # index of the heuristic byte
        "rkind",  # RANK_PERM, RANK_EVEN, RANK_MULTISET or RANK_NONE
        "cls",  # multiset: the class of each piece value
        "counts",  # multiset: pieces per class
        "radix",  # multiset
        "weights",  # multiset (multiset_weights)
        "odig",  # orientation digits in the rank
        "kpow",  # k ** odig
        "hfn",  # the heuristic: hfn(state, params) -> int
        "hdata",  # what the heuristic reads (its tables), int64
        "htab",  # uint8 tables for it (pattern databases)
        "top",  # top[j]: the last state index move j changes (see _rank_after_low)
        # the low form's tables of children (see _rank_from_low and child_tables)
        "kid_off",  # kid_off[j]: where move j's table starts in kid_delta, or -1 (none; until
        # scan_params, every move)
        "kid_delta",  # int32: a child's rank less its parent's, by the parent's r % w!
    ],
    defaults=[np.zeros(1, dtype=np.int32)],
)


# ---------------------------------------------------------------------------------------------
# the jitted functions
# ---------------------------------------------------------------------------------------------


@domain_fn
def _apply_loc(state, j, p):
    """Move ``j`` in place, location form: each moving piece goes where ``dest`` sends its
    cell."""
    for i in range(p.m):
        state[i] = p.dest[j, state[i]]


@domain_fn
def _apply_loc_twist(state, j, p):
    """:func:`_apply_loc` for pieces with orientations, turned by ``tadd`` where they
    arrive."""
    n = p.n
    for i in range(p.m):
        c = p.dest[j, state[i]]
        state[i] = c
        state[n + i] = p.tadd[j, c, state[n + i]]


@domain_fn
def _apply_cells(state, j, p):
    """Move ``j`` in place, cell form: cycle by cycle, with no scratch array."""
    n = p.n
    for c in range(p.move_cycles[j], p.move_cycles[j + 1]):
        last = p.cyc_len[c] - 1
        first = state[p.cyc[c, 0]]
        for t in range(last):
            state[p.cyc[c, t]] = state[p.cyc[c, t + 1]]
        state[p.cyc[c, last]] = first
        if p.k > 1:
            firsto = state[n + p.cyc[c, 0]]
            for t in range(last):
                dst = p.cyc[c, t]
                state[n + dst] = p.tadd[j, dst, state[n + p.cyc[c, t + 1]]]
            dst = p.cyc[c, last]
            state[n + dst] = p.tadd[j, dst, firsto]


@domain_fn
def _apply_swaps(state, j, p):
    """Move ``j`` in place, cell form, when every move only swaps pairs of cells (reversals:
    pancakes, TopSpin, the Rotation Puzzle)."""
    for t in range(p.n_swaps[j]):
        a = p.swaps[j, t, 0]
        b = p.swaps[j, t, 1]
        x = state[a]
        state[a] = state[b]
        state[b] = x


@domain_fn
def _new_h(state, p):
    """After a move: the heuristic's change, its byte updated (0 without a heuristic)."""
    if p.state_len == p.hpos:  # no heuristic, no byte for it
        return 0
    old = np.int64(state[p.hpos])
    h = np.int64(p.hfn(state, p))
    state[p.hpos] = h
    return h - old


# one step function per form, each small (a step choosing its form at run time was several
# times slower: benchmarks/RESULTS.md, "Permutation puzzles")
@domain_fn
def _step_loc(state, j, p):
    _apply_loc(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_loc_twist(state, j, p):
    _apply_loc_twist(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_cells(state, j, p):
    _apply_cells(state, j, p)
    return _new_h(state, p)


@domain_fn
def _step_swaps(state, j, p):
    _apply_swaps(state, j, p)
    return _new_h(state, p)


@domain_fn
def _inverse(j, p):
    return p.inv[j]


@domain_fn
def _is_goal(state, p):
    for i in range(p.hpos):
        if state[i] != p.goal[i]:
            return False
    return True


@domain_fn
def _heuristic(state, p):
    return np.int64(p.hfn(state, p))


@domain_fn
def no_heuristic(state, p):
    """0: uninformed search."""
    return 0


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


#: The functions of each form: location form, with and without orientations; cell form
#: (repeated labels, or no rank).
FNS_LOC = DomainFns(_step_loc, _inverse, _is_goal, _heuristic, _rank_loc, _unrank_loc,
                    _rank_after_loc)
FNS_LOC_TWIST = DomainFns(_step_loc_twist, _inverse, _is_goal, _heuristic, _rank_loc,
                          _unrank_loc, _rank_after_loc)
FNS_CELLS = DomainFns(_step_cells, _inverse, _is_goal, _heuristic, _rank_cells, _unrank_cells,
                      _rank_after_cells)
FNS_SWAPS = DomainFns(_step_swaps, _inverse, _is_goal, _heuristic, _rank_cells, _unrank_cells,
                      _rank_after_cells)
#: Distinct pieces without orientations whose table is scanned (``LISTS_MAX_RANKS`` ranks or
#: more): cell form, ranked by :func:`_rank_low`; moves as swaps or as cycles.
FNS_LOW_SWAPS = DomainFns(_step_swaps, _inverse, _is_goal, _heuristic, _rank_low, _unrank_low,
                          _rank_after_low, _rank_from_low)
FNS_LOW_CELLS = DomainFns(_step_cells, _inverse, _is_goal, _heuristic, _rank_low, _unrank_low,
                          _rank_after_low, _rank_from_low)


@domain_fn
def where(state, piece, p):
    """The cell (state index) where ``piece`` is, in either form."""
    if p.loc == 1:
        return np.int64(state[piece])
    x = 0
    while state[x] != piece:
        x += 1
    return x


@domain_fn
def pattern_max(state, p):
    """The largest of the pattern databases in ``p.htab`` (see :mod:`puzzlelib.pdb.permutation`):
    ``hdata`` holds, per database, its offset in ``htab``, its number of pieces ``q``, and the
    pieces; each looks up where its pieces are (and their orientations), ranked as a placement
    of ``q`` of the ``m`` moving cells."""
    n, m, k = p.n, p.m, p.k
    best = 0
    at = 0
    while at < p.hdata.shape[0]:
        off = p.hdata[at]
        q = p.hdata[at + 1]
        used = np.int64(0)
        r = np.int64(0)
        orank = np.int64(0)
        for t in range(q):
            piece = p.hdata[at + 2 + t]
            x = where(state, piece, p)
            r = r * (m - t) + x - _popcount(used & ((np.int64(1) << x) - 1))
            used |= np.int64(1) << x
            if k > 1:
                orank = orank * k + state[n + (piece if p.loc == 1 else x)]
        if k > 1:
            r = r * np.int64(k) ** q + orank
        v = p.htab[off + r]
        if v > best:
            best = v
        at += 2 + q
    return best


# ---------------------------------------------------------------------------------------------
# the Python side
# ---------------------------------------------------------------------------------------------


def _as_moves(moves, n, k):
    """``[(name, src, twist)]`` from a dict ``{name: src}`` or ``{name: (src, twist)}`` or a
    list of those pairs, checked."""
    items = list(moves.items()) if isinstance(moves, dict) else list(moves)
    if not items:
        raise PuzzleError("a permutation puzzle needs at least one move")
    out = []
    for item in items:
        try:
            name, spec = item
        except (TypeError, ValueError):
            raise PuzzleError(f"a move is (name, permutation), not {item!r}") from None
        if isinstance(spec, tuple) and len(spec) == 2 and not np.isscalar(spec[0]):
            src, twist = spec
        else:
            src, twist = spec, None
        src = _int_list(src, f"move {name!r}")
        if sorted(src) != list(range(n)):
            raise PuzzleError(f"move {name!r} is not a permutation of the {n} cells 0..{n - 1}: "
                              f"{src}")
        if twist is None:
            twist = [0] * n
        twist = _int_list(twist, f"move {name!r}'s twists")
        if len(twist) != n:
            raise PuzzleError(f"move {name!r} has {len(twist)} twists for {n} cells")
        if k == 1 and any(twist):
            raise PuzzleError(f"move {name!r} twists pieces, but the puzzle has no orientations "
                              f"(give orientations=k)")
        bad = [t for t in twist if not 0 <= t < k]
        if bad:
            raise PuzzleError(f"move {name!r} has twist {bad[0]}, which does not fit "
                              f"orientations modulo {k} (0..{k - 1})")
        out.append((str(name), np.array(src, dtype=np.int64), np.array(twist, dtype=np.int64)))
    names = [nm for nm, _, _ in out]
    if len(set(names)) != len(names):
        raise PuzzleError("two moves have the same name")
    return out


def _int_list(seq, what):
    try:
        vals = list(seq)
    except TypeError:
        raise PuzzleError(f"{what}: expected a list of integers, not {seq!r}") from None
    out = []
    for v in vals:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise PuzzleError(f"{what}: {v!r} is not an integer")
        out.append(int(v))
    return out


def compose(a, b, k=1):
    """The move ``a`` then ``b``, each ``(src, twist)``."""
    (sa, ta), (sb, tb) = a, b
    return sa[sb], (ta[sb] + tb) % k


def _same(a, b):
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def symmetry_group(generators, k=1):
    """Every symmetry made of ``generators`` (each ``(src, twist)``), by composing them until
    nothing new appears; the identity first."""
    n = len(generators[0][0])
    group = [(np.arange(n), np.zeros(n, dtype=np.int64))]
    seen = {(tuple(group[0][0]), tuple(group[0][1]))}
    i = 0
    while i < len(group):
        for g in generators:
            c = compose(group[i], g, k)
            key = (tuple(c[0]), tuple(c[1]))
            if key not in seen:
                if len(seen) > 100_000:
                    raise PuzzleError("the symmetries make a group of more than 100,000 elements")
                seen.add(key)
                group.append(c)
        i += 1
    return group


class PermutationPuzzle(Puzzle):
    """A permutation puzzle given by its goal and its moves (see the module).

    ``goal``: a label per cell (labels may repeat). ``moves``: ``{name: src}`` or
    ``{name: (src, twist)}`` (or a list of such pairs), ``src[i]`` the cell whose piece the
    move carries to cell ``i``. ``orientations``: ``k``, when pieces carry an orientation
    modulo ``k`` (the goal's are 0). ``symmetries``: moves of the whole puzzle (generators are
    enough) under which positions are the same, with ``anchor`` the cell whose piece is held
    still. ``heuristics``: ``{name: fn}``, numba functions ``fn(state, params) -> int`` of
    admissible lower bounds (see the module for the state's bytes). ``name``: how the puzzle
    is called in messages.

    >>> from puzzlelib import PermutationPuzzle, layers
    >>> flips = {f"flip{k}": list(range(k))[::-1] + list(range(k, 4)) for k in (2, 3, 4)}
    >>> layers(PermutationPuzzle([1, 2, 3, 4], flips), [1, 2, 3, 4]).counts
    [1, 3, 6, 11, 3]
    """

    name = "permutation"
    #: Pattern databases: :mod:`puzzlelib.pdb.permutation`.
    pdb_kind = "permutation"
    stable_types = True
    default_heuristic = "none"

    def __init__(self, goal, moves, orientations=1, symmetries=None, anchor=None,
                 heuristics=None, name=None):
        if name is not None:
            self.title = str(name)
        else:
            self.title = self.name
        labels = list(goal.split() if isinstance(goal, str) else goal)
        n = len(labels)
        if n < 2:
            raise PuzzleError("a permutation puzzle needs at least two cells")
        if n > 250:
            raise PuzzleError(f"{n} cells are too many (at most 250)")
        k = orientations
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= 255:
            raise PuzzleError(f"orientations must be a whole number 1..255, not {k!r}")
        self.k = int(k)
        self.n_cells = n
        self.goal_labels = [_label(x) for x in labels]
        moves = _as_moves(moves, n, self.k)
        self.given_moves = {nm: (src, tw) for nm, src, tw in moves}
        self.symmetric = symmetries is not None
        if symmetries is not None:
            moves = self._reduce(moves, symmetries, anchor)
        elif anchor is not None:
            raise PuzzleError("anchor goes with symmetries")
        self._setup(moves)
        self._heuristic_fns = dict(heuristics or {})
        for hname in self._heuristic_fns:
            if hname in ("none",):
                raise PuzzleError(f"heuristic name {hname!r} is taken")
        self.heuristics = ("none",) + tuple(self._heuristic_fns) + self._builtin_heuristics()
        self.heuristic = "none"

    # -- construction -----------------------------------------------------------------------
    def _reduce(self, moves, symmetries, anchor):
        n, k = self.n_cells, self.k
        gens = []
        for i, s in enumerate(symmetries):
            gens.append(_as_moves([(f"symmetry {i}", s)], n, k)[0][1:])
        group = symmetry_group(gens, k)
        if anchor is None or not isinstance(anchor, (int, np.integer)) or not 0 <= anchor < n:
            raise PuzzleError(f"anchor must be a cell 0..{n - 1}, not {anchor!r}")
        if self.goal_labels.count(self.goal_labels[anchor]) > 1:
            raise PuzzleError(f"the anchor's label {self.goal_labels[anchor]} must not repeat")
        self.anchor = int(anchor)
        # home[(cell, orientation)]: the symmetry taking a piece there to the anchor, untwisted
        self._home = {}
        for g in group:
            c = int(g[0][anchor])
            o = (-int(g[1][anchor])) % k
            self._home.setdefault((c, o), g)
        out = []
        for name, src, tw in moves:
            c = int(np.flatnonzero(src == anchor)[0])  # where the move carries the anchor
            g = self._home.get((c, int(tw[c])))
            if g is None:
                raise PuzzleError(f"no symmetry brings the anchor back after move {name!r}")
            red = compose((src, tw), g, k)
            if not any(_same(red, (s2, t2)) for _, s2, t2 in out):
                out.append((name, red[0], red[1]))
        return out

    def _setup(self, moves):
        n, k = self.n_cells, self.k
        # cells some move changes come first, in the order given
        moving = [i for i in range(n)
                  if any(src[i] != i or tw[i] for _, src, tw in moves)]
        fixed = [i for i in range(n) if i not in moving]
        self.order = np.array(moving + fixed, dtype=np.int64)  # state index -> cell
        where = np.empty(n, dtype=np.int64)
        where[self.order] = np.arange(n)
        m = len(moving)
        if m == 0:
            raise PuzzleError("no move changes anything")
        self.move_names = [nm for nm, _, _ in moves]
        n_moves = len(moves)
        if n_moves > 127:
            raise PuzzleError(f"{n_moves} moves are too many (at most 127)")
        srcs = np.empty((n_moves, n), dtype=np.int64)
        twists = np.zeros((n_moves, n), dtype=np.int64)
        for j, (_, src, tw) in enumerate(moves):
            srcs[j] = where[src[self.order]]  # in state indices
            twists[j] = tw[self.order]
        self.srcs, self.twists = srcs, twists
        inv = np.full(n_moves, -1, dtype=np.int64)
        ident = (np.arange(n), np.zeros(n, dtype=np.int64))
        for j in range(n_moves):
            for i in range(n_moves):
                if _same(compose((srcs[j], twists[j]), (srcs[i], twists[i]), k), ident):
                    inv[j] = i
                    break
            if inv[j] < 0:
                raise PuzzleError(f"move {self.move_names[j]!r} has no inverse among the moves: "
                                  f"add it")
        cycles = []
        starts = [0]
        for j in range(n_moves):
            done = np.zeros(n, dtype=bool)
            for i in range(n):
                if done[i] or (srcs[j, i] == i and twists[j, i] == 0):
                    continue
                cyc = [i]
                done[i] = True
                x = srcs[j, i]
                while x != i:
                    cyc.append(int(x))
                    done[x] = True
                    x = srcs[j, x]
                cycles.append(cyc)
            starts.append(len(cycles))
        width = max(len(c) for c in cycles)
        cyc = np.zeros((len(cycles), width), dtype=np.int64)
        cyc_len = np.zeros(len(cycles), dtype=np.int64)
        for c, cells in enumerate(cycles):
            cyc[c, :len(cells)] = cells
            cyc_len[c] = len(cells)
        # pieces: distinct labels are their goal index (in state order); repeated: classes
        glabels = [self.goal_labels[c] for c in self.order]
        self.distinct = len(set(glabels)) == n
        if self.distinct:
            pieces = list(range(n))
            self.piece_of = {lab: i for i, lab in enumerate(glabels)}
        else:
            moving_labels = set(glabels[:m])
            classes = sorted(set(glabels), key=lambda x: (x not in moving_labels, _sort_key(x)))
            self.piece_of = {lab: i for i, lab in enumerate(classes)}
            pieces = [self.piece_of[lab] for lab in glabels]
        self.label_of = {v: lab for lab, v in self.piece_of.items()}
        self.m = m
        hpos = n * (2 if k > 1 else 1)
        goal = np.zeros(hpos + 1, dtype=np.uint8)
        goal[:n] = pieces
        self.twist_invariant = k > 1 and all(int(tw.sum()) % k == 0 for tw in twists)
        # the hash
        counts = np.ones(1, dtype=np.int64)
        radix = np.ones(1, dtype=np.int64)
        weights = np.zeros((1, 1, 1), dtype=np.int64)
        cls = np.zeros(1, dtype=np.int64)
        even = all(perm_parity(s[:m], m) == 0 for s in srcs) if m <= MAX_RANK_N else False
        if self.distinct and m <= MAX_RANK_N:
            rkind = RANK_EVEN if even else RANK_PERM
            n_perm = math.factorial(m) // (2 if even else 1)
        elif not self.distinct:
            # the moving cells' classes are 0..L-1 (see above); fixed cells keep theirs
            cnt = [pieces[:m].count(c) for c in range(max(pieces[:m]) + 1)]
            try:
                radix, n_perm = multiset_radix(cnt)
                counts = np.array(cnt, dtype=np.int64)
                weights = multiset_weights(radix, counts)
                cls = np.arange(max(pieces) + 1, dtype=np.int64)
                rkind = RANK_MULTISET
            except PuzzleError:  # too many pieces or arrangements for 64 bits
                rkind, n_perm = RANK_NONE, None
        else:
            rkind, n_perm = RANK_NONE, None
        odig = 0
        if k > 1:
            odig = m - 1 if self.twist_invariant else m
        n_ranks = None
        if n_perm is not None:
            n_ranks = n_perm * k ** odig
            if n_ranks >= 1 << 62:
                rkind, n_ranks = RANK_NONE, None
        self._n_ranks = n_ranks
        # distinct ranked pieces are kept where they are (location form): a move is a lookup
        # per piece, and the first digit of the rank (where piece 0 is) tells which block of
        # ranks a move leads to, so the layers are shared among threads by those blocks. A
        # table too large for layer lists is scanned instead: without orientations, the pieces
        # are then kept by cell and ranked by _rank_low, which a move changing only the first
        # cells changes only in its low digits (a pancake flip's child is near its parent)
        low = (rkind == RANK_PERM and k == 1 and n_ranks is not None
               and n_ranks >= LISTS_MAX_RANKS)
        loc = 1 if rkind in (RANK_PERM, RANK_EVEN) and not low else 0
        top = np.array([max((i for i in range(n) if srcs[j, i] != i), default=0)
                        for j in range(n_moves)], dtype=np.int64)
        dest = np.empty((n_moves, n), dtype=np.uint8)
        for j in range(n_moves):
            dest[j, srcs[j]] = np.arange(n)
        tadd = ((np.arange(k)[None, None, :] + twists[:, :, None]) % k).astype(np.uint8)
        self.buckets = None
        self.layer_kernel = "lists"
        if n_ranks is not None and n_ranks >= LISTS_MAX_RANKS:
            self.layer_kernel = "scan-up"
        elif loc and m >= 3:
            self.buckets = (dest[:, :m].T.astype(np.int64).copy(), n_ranks // m)
        swapping = k == 1 and width == 2
        n_swaps = np.array([starts[j + 1] - starts[j] for j in range(n_moves)], dtype=np.int64)
        swaps = np.zeros((n_moves, max(1, int(n_swaps.max())), 2), dtype=np.int64)
        if swapping:
            for j in range(n_moves):
                swaps[j, :n_swaps[j]] = cyc[starts[j]:starts[j + 1], :2]
        self.params = PermParams(
            hpos, n_moves, 1, n, m, k, loc, dest, tadd, cyc, cyc_len,
            np.array(starts, dtype=np.int64), swaps, n_swaps, inv, goal, hpos, rkind, cls,
            counts, radix, weights, odig, k ** odig, no_heuristic, np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.uint8), top, np.full(n_moves, -1, dtype=np.int64))
        if low:
            self.fns = FNS_LOW_SWAPS if swapping else FNS_LOW_CELLS
        else:
            self.fns = (FNS_LOC_TWIST if loc and k > 1 else FNS_LOC if loc
                        else FNS_SWAPS if swapping else FNS_CELLS)

    def _builtin_heuristics(self):
        return ()

    def scan_params(self):
        """``params`` with the tables of children (:func:`child_tables`) where the functions
        use them (the low form), made at the first call and kept."""
        if self.fns.rank_from is None:
            return self.params
        tables = self.__dict__.get("_child_tables")
        if tables is None:
            tables = self._child_tables = child_tables(self.params)
        return self.params._replace(kid_off=tables[0], kid_delta=tables[1])

    # -- what the searches read -------------------------------------------------------------
    @property
    def n_ranks(self):
        return self._n_ranks

    @property
    def n_moves(self):
        return self.params.n_moves

    def with_params(self, **changes):
        """A copy of this puzzle with ``params`` fields changed."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.params = self.params._replace(**changes)
        return new

    def with_heuristic(self, name):
        if name in (None, "none"):
            if self.heuristic == "none":
                return self
            new = self.with_params(hfn=no_heuristic, state_len=self.params.hpos)
            new.heuristic = "none"
            return new
        if name == self.heuristic:
            return self
        fn = self._heuristic_fns.get(name)
        if fn is None:
            fn = self._builtin_heuristic(name)
        if fn is None:
            raise PuzzleError(f"unknown heuristic {name!r} for the {self.title} puzzle: use "
                              f"{', '.join(self.heuristics)}, or pattern databases (pdb)")
        new = self.with_params(hfn=fn, state_len=self.params.hpos + 1)
        new.heuristic = name
        return new

    def _builtin_heuristic(self, name):
        return None

    def with_tables(self, hdata, htab, name):
        """This puzzle guided by pattern databases (:func:`pattern_max` over ``hdata`` and
        ``htab``; see :mod:`puzzlelib.pdb.permutation`)."""
        new = self.with_params(hfn=pattern_max, hdata=np.asarray(hdata, dtype=np.int64),
                               htab=htab, state_len=self.params.hpos + 1)
        new.heuristic = name
        return new

    # -- positions --------------------------------------------------------------------------
    def _labels_and_twists(self, position, what):
        """(labels, orientations or None) of a position as written."""
        if isinstance(position, str):
            text = position.replace(",", " ")
            if "|" in text:
                a, b = text.split("|", 1)
                return a.split(), b.split()
            return text.split(), None
        if isinstance(position, dict):
            return list(position.get("pieces", [])), position.get("orientations")
        if (isinstance(position, (tuple, list)) and len(position) == 2
                and isinstance(position[0], (list, tuple, np.ndarray))):
            return list(position[0]), list(position[1])
        try:
            return list(position), None
        except TypeError:
            raise PuzzleError(f"{what}: a position is a list of labels") from None

    def encode(self, position, what="start"):
        """A position (a label per cell, as a list or text; with orientations,
        ``(labels, orientations)`` or text ``"labels | orientations"``) -> the kernels'
        state, checked; with symmetries, turned so the anchor is at home."""
        labels, twists = self._labels_and_twists(position, what)
        n, k = self.n_cells, self.k
        if len(labels) != n:
            raise PuzzleError(f"{what} has {len(labels)} labels, the {self.title} puzzle has "
                              f"{n} cells")
        labels = [_label(x) for x in labels]
        if sorted(labels, key=_sort_key) != sorted(self.goal_labels, key=_sort_key):
            missing = set(self.goal_labels) - set(labels)
            extra = set(labels) - set(self.goal_labels)
            detail = (f"label {sorted(extra, key=_sort_key)[0]!r} is not the puzzle's" if extra
                      else f"label {sorted(missing, key=_sort_key)[0]!r} is missing" if missing
                      else "a label appears more or fewer times than in the goal")
            raise PuzzleError(f"{what}: {detail}; the labels must be the goal's "
                              f"({' '.join(map(str, self.goal_labels))})")
        if twists is None:
            twists = [0] * n
        else:
            twists = _int_list(twists, f"{what}'s orientations")
            if k == 1 and any(twists):
                raise PuzzleError(f"{what}: the {self.title} puzzle has no orientations")
            if len(twists) != n:
                raise PuzzleError(f"{what} has {len(twists)} orientations for {n} cells")
            if any(not 0 <= t < k for t in twists):
                raise PuzzleError(f"{what}: orientations are 0..{k - 1}")
        cells = [self.piece_of[x] for x in labels]  # by cell, as given
        if self.symmetric:
            a = self.goal_labels[self.anchor]
            c = labels.index(a)
            g = self._home[(c, twists[c])] if (c, twists[c]) in self._home else None
            if g is None:
                raise PuzzleError(f"{what}: no symmetry brings the anchor home from cell {c}")
            src, tw = g
            cells = [cells[src[i]] for i in range(n)]
            twists = [(twists[src[i]] + tw[i]) % k for i in range(n)]
        st = np.zeros(self.params.state_len, dtype=np.uint8)
        st[:n] = [cells[c] for c in self.order]
        if k > 1:
            st[n:2 * n] = [twists[c] for c in self.order]
        for i in range(self.m, n):
            if st[i] != self.params.goal[i] or (k > 1 and st[n + i] != self.params.goal[n + i]):
                raise UnsolvableError(f"{what}: cell {int(self.order[i])} holds "
                                      f"{labels[int(self.order[i])]!r}, but no move changes it "
                                      f"and the goal has {self.goal_labels[int(self.order[i])]!r}")
        p = self.params
        if p.rkind == RANK_EVEN and perm_parity(st[:self.m].astype(np.int64), self.m) == 1:
            raise UnsolvableError(f"{what} is an odd permutation of the goal, and every move "
                                  f"is even: it cannot be solved")
        if self.twist_invariant and int(st[n:n + self.m].astype(np.int64).sum()) % k != 0:
            raise UnsolvableError(f"{what}: the orientations add up to "
                                  f"{int(st[n:2 * n].astype(np.int64).sum()) % k} modulo {k}; "
                                  f"every move keeps the sum, and the goal's is 0")
        if p.loc:  # where each piece is, and its orientation
            cells_form = st[:n].copy()
            st[cells_form] = np.arange(n)
            if k > 1:
                st[n + cells_form] = st[n:2 * n].copy()
        if p.state_len > p.hpos:
            st[p.hpos] = p.hfn(st, p)
        return st

    def decode(self, state):
        """The kernels' state -> the labels by cell (with orientations: ``[labels,
        orientations]``)."""
        n = self.n_cells
        if self.params.loc:  # back to the piece in each cell
            locs = np.asarray(state[:n])
            cells_form = np.empty(2 * n if self.k > 1 else n, dtype=np.uint8)
            cells_form[locs] = np.arange(n)
            if self.k > 1:
                cells_form[n + locs] = state[n:2 * n]
            state = cells_form
        labels = [None] * n
        twists = [0] * n
        for i in range(n):
            c = int(self.order[i])
            labels[c] = self.label_of[int(state[i])]
            if self.k > 1:
                twists[c] = int(state[n + i])
        return [labels, twists] if self.k > 1 else labels

    def default_start(self):
        """The goal (what :func:`~puzzlelib.layers` starts from when given no start)."""
        return self.decode(self.goal_state())

    def goal_state(self):
        p = self.params
        st = p.goal[:p.state_len].copy()
        if p.state_len > p.hpos:
            st[p.hpos] = p.hfn(st, p)
        return st

    def heuristic_value(self, state):
        return int(self.params.hfn(state, self.params))

    #: True when the moves are named by whole numbers (a pancake flip's size, a TopSpin
    #: place): solutions then list them as ints, and ints are read as those names.
    numbered_moves = False

    def moves_out(self, path):
        names = [self.move_names[int(j)] for j in path]
        return [int(x) for x in names] if self.numbered_moves else names

    def moves_in(self, state, moves):
        if isinstance(moves, str):
            moves = moves.split()
        out = []
        for i, mv in enumerate(moves):
            numeric = isinstance(mv, (int, np.integer)) and not isinstance(mv, bool)
            if numeric and not self.numbered_moves:
                if not 0 <= mv < self.n_moves:
                    raise PuzzleError(f"move {i}: {mv} is not a move number 0..{self.n_moves - 1}")
                out.append(int(mv))
                continue
            try:
                out.append(self.move_names.index(str(int(mv)) if numeric else str(mv).strip()))
            except ValueError:
                raise PuzzleError(f"move {i}: {mv!r} is not one of the {self.label} puzzle's "
                                  f"moves ({', '.join(self.move_names)})") from None
        return out

    def scrambled(self, moves, start=None):
        """The position ``moves`` (the names given to the constructor, as a list or text)
        make from ``start`` (by default the goal), as :meth:`decode` writes it; with
        symmetries, as the moves leave it, not turned home."""
        if isinstance(moves, str):
            moves = moves.split()
        if start is None:
            labels, twists = list(self.goal_labels), [0] * self.n_cells
        else:
            labels, twists = self._labels_and_twists(start, "start")
            labels = [_label(x) for x in labels]
            twists = [0] * self.n_cells if twists is None else _int_list(twists, "start")
        for i, mv in enumerate(moves):
            spec = self.given_moves.get(str(mv))
            if spec is None:
                raise PuzzleError(f"move {i}: {mv!r} is not one of "
                                  f"{', '.join(self.given_moves)}")
            src, tw = spec
            labels = [labels[c] for c in src]
            twists = [(twists[c] + int(t)) % self.k for c, t in zip(src, tw)]
        return [labels, twists] if self.k > 1 else labels

    # -- description ----------------------------------------------------------------------
    @property
    def label(self):
        return self.title

    def describe(self):
        d = {"puzzle": self.name, "cells": self.n_cells, "moves": list(self.move_names),
             "goal": list(self.goal_labels)}
        if self.title != self.name:
            d["name"] = self.title
        if self.k > 1:
            d["orientations"] = self.k
        return d

    def layers_extra(self):
        return {"n_ranks": self.n_ranks}

    def definition_digest(self):
        """A digest of what defines the puzzle's positions and moves (for cached databases)."""
        h = hashlib.sha256()
        for a in (self.srcs, self.twists, self.params.goal[:self.params.hpos], self.order):
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(str(self.k).encode())
        return h.hexdigest()[:16]

    def text(self, position):
        if self.k > 1 and isinstance(position, (list, tuple)) and len(position) == 2:
            return (" ".join(map(str, position[0])) + " | "
                    + " ".join(map(str, position[1])))
        return super().text(position)

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.n_cells, 1

    def move_mark(self, position, after, move):
        """The move itself: :meth:`draw` outlines what it turns."""
        return move

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """The cells in a row, each label shaded by its goal cell (orientations as small
        numbers); ``mark``: a move name whose changed cells are framed."""
        import matplotlib.pyplot as plt

        pos = self.decode(self.encode(position, what="position"))
        labels, twists = (pos if self.k > 1 else (pos, [0] * self.n_cells))
        cmap = plt.get_cmap("viridis")
        n = self.n_cells
        goal_index = {}
        for i, lab in enumerate(self.goal_labels):
            goal_index.setdefault(lab, i)
        changed = set()
        if mark is not None:
            j = self.moves_in(None, [mark])[0]
            changed = {int(self.order[i]) for i in range(n)
                       if self.srcs[j, i] != i or self.twists[j, i]}
        for c, lab in enumerate(labels):
            shade = goal_index[lab] / max(1, n - 1)
            ax.add_patch(plt.Rectangle((x0 + c, y0), 1, 1, facecolor=cmap(shade),
                                       edgecolor="#e8112d" if c in changed else "white",
                                       lw=2.4 if c in changed else 1))
            ax.text(x0 + c + 0.5, y0 + 0.5, str(lab), ha="center", va="center", fontsize=8,
                    color="white" if shade < 0.6 else "black")
            if self.k > 1 and twists[c]:
                ax.text(x0 + c + 0.9, y0 + 0.15, str(twists[c]), ha="right", va="top",
                        fontsize=6, color="white" if shade < 0.6 else "black")
        if title is not None:
            ax.text(x0 + n / 2, y0 - 0.25, title, ha="center", va="bottom", fontsize=9)


def _label(x):
    """A label as given: an int when it reads as one, else its text."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x)
    s = str(x).strip()
    try:
        return int(s)
    except ValueError:
        return s


def _sort_key(x):
    return (0, x, "") if isinstance(x, int) else (1, 0, str(x))
