"""Hakoiri-musume type sliding-block puzzles (source document 004).

A board of up to 8 rows x 9 columns holds pieces of four shapes, 1x1, 1x2 (horizontal), 2x1
(vertical) and 2x2 (the "daughter"), and at least one empty cell. Pieces of one shape are
indistinguishable. The goal is the daughter (a 2x2 piece) with its top-left cell at a given
place; everything else may be anywhere, so there are many goal positions.

Text format: one line per row, each piece drawn with its own letter (any character but ``.``),
``.`` for an empty cell; spaces are ignored::

    ABBC
    ABBC
    DEEF
    DGHF
    I..J

Three move metrics:

``unit``
    one piece moves one cell;
``straight``
    one piece slides any distance in one direction (document 004's relaxation rule implies
    this one: two halves that slide "the same distance in the same direction" are one move);
``path``
    one piece moves along any sequence of unit steps (the usual count for the classic puzzle).

Kernel encoding (``uint8`` state, ``rows * cols + 1`` bytes): one code per cell, saying which
part of which shape covers it (:data:`EMPTY`, :data:`ONE`, the two halves of a 1x2 or 2x1, the
four quarters of a 2x2), then one byte holding the heuristic value of the position (0 without a
pattern database). Because pieces of one shape carry no name, equal positions have equal bytes:
the encoding is canonical, and a hash set of whole states needs no perfect hash.

Moves: ``m = (kind * n_cells + cell) * n_actions + action``. ``cell`` is the top-left cell of
the piece that moves. ``kind`` 0 moves a piece; kinds 1 and 2 exist only in *relaxed* puzzles
(pattern databases): two adjacent 1x1 pieces, side by side (1) or one above the other (2),
moving together like the size-2 piece they were split from, which counts as one move.
``action`` is a direction and distance (unit: 4 directions; straight: 4 directions x distances
1..``reach``) or, for the path metric, a displacement ``(dr, dc)`` with ``|dr|, |dc| <= reach``.
``reach`` is the number of empty cells (capped by the board): a piece can only enter a new row or
column through a cell that was empty, so it never gets further than that in one move.
"""

import copy
import heapq
from collections import namedtuple
from functools import lru_cache

import numpy as np



from ..core.jit import jit
from ..core.contract import (ILLEGAL, DomainFns, FrontierFns, WordFns, domain_fn, no_rank,
                             no_rank_after, no_unrank)

from ..core.errors import PuzzleError
from .base import Puzzle
from ..core.hashing import lowest_bit
from ..core.hashset import find, new_table

EMPTY, ONE, H_L, H_R, V_T, V_B, B_TL, B_TR, B_BL, B_BR = range(10)
#: Shape name -> (height, width) and the code of its top-left cell.
SHAPES = {"1x1": (1, 1), "1x2": (1, 2), "2x1": (2, 1), "2x2": (2, 2)}
ANCHOR = {(1, 1): ONE, (1, 2): H_L, (2, 1): V_T, (2, 2): B_TL}
SHAPE_OF_ANCHOR = {v: k for k, v in ANCHOR.items()}
METRICS = ("unit", "straight", "path")
UNIT, STRAIGHT, PATH = 0, 1, 2
MAX_ROWS, MAX_COLS = 8, 9
#: Directions: up, down, left, right (so ``d ^ 1`` is the opposite one).
DR = (-1, 1, 0, 0)
DC = (0, 0, -1, 1)
#: Columns of the move table ``params.mv``.
MV_KIND, MV_CELL, MV_ROW, MV_COL, MV_DR, MV_DC, MV_INV = range(7)
#: Columns of ``params.pdb_info`` (one row per pattern database).
PI_KEEP_H, PI_KEEP_V, PI_MODE, PI_CELL_BYTES = range(4)

BlockParams = namedtuple(
    "BlockParams",
    [
        "state_len",  # n_cells + 1
        "n_moves",
        "bound_step",  # 1
        "rows",
        "cols",
        "n_cells",
        "metric",  # UNIT, STRAIGHT or PATH
        "n_kinds",  # 1, or 3 in a relaxed puzzle (pair moves)
        "n_actions",
        "reach",  # the farthest a piece can get in one move
        "goal",  # the goal cell of the daughter's top-left corner, or -1 (no goal)
        "mv",  # mv[m] = kind, cell, row, col, dr, dc, inverse move
        "probe",  # probe[m, shape]: a cell that must be empty for move m of that shape, or -1
        # pattern-database heuristic (n_pdbs = 0: none); see puzzlelib.pdb.blocks
        "n_pdbs",
        "image_len",  # bytes of an image row (1 + n_cells + 2 * regions)
        "pdb_info",  # pdb_info[i] = 1x2 pieces kept whole, 2x1 pieces kept whole, map mode
        "region_of",  # region_of[i, cell] for the line and cell maps
        "pdb_slots",
        "pdb_pool",
        "pdb_values",
        "scratch",  # int64 scratch: piece cells (2 n), subsets (2 n), flood queue
        "scratch8",  # uint8 scratch: relaxed cells (n), image, flood marks
        # the compact key of a position (see "Compact keys" below)
        "key_len",  # bytes of a key (the cells' code, then the heuristic byte if any)
        "code_enc",  # code_enc[cell code]: (bits << 8) | length for a piece's first cell, else 0
        "code_dec",  # code_dec[next 4 bits of a key]: (first cell code << 8) | length
        "marks",  # uint8 scratch for listing candidate moves (zero between calls)
        "marked",  # int64 scratch: what was marked
    ],
)
# Kernel helpers take the few arrays and numbers they need, not ``params``: a call passing a
# namedtuple of many arrays copies all of it (benchmarks/RESULTS.md, "Constants").


@domain_fn
def _fits(state, r, c, h, w, r0, c0, rows, cols):
    """Can a h x w piece standing at (r0, c0) be at (r, c)? Each cell must be empty or its own."""
    if r < 0 or c < 0 or r + h > rows or c + w > cols:
        return False
    for i in range(r, r + h):
        for j in range(c, c + w):
            if state[i * cols + j] != EMPTY:
                if not (r0 <= i < r0 + h and c0 <= j < c0 + w):
                    return False
    return True


@domain_fn
def _path_exists(state, r0, c0, h, w, dr, dc, rows, cols, reach, seen, queue, off8, off):
    """Path metric: can the piece get from (r0, c0) to (r0 + dr, c0 + dc) by unit steps?
    A breadth-first search over its places within ``reach``, in scratch arrays."""
    if not _fits(state, r0 + dr, c0 + dc, h, w, r0, c0, rows, cols):
        return False
    if dr == 0 or dc == 0:  # in a straight line: a slide, if nothing is in the way
        if abs(dr) + abs(dc) == 1 or _swept_empty(state, r0, c0, h, w, dr, dc, cols):
            return True
    e = reach
    side = 2 * e + 1
    for t in range(side * side):
        seen[off8 + t] = 0
    seen[off8 + e * side + e] = 1
    queue[off] = e * side + e
    head, tail = 0, 1
    target = (e + dr) * side + (e + dc)
    while head < tail:
        q = queue[off + head]
        head += 1
        qr = q // side
        qc = q - qr * side
        for d in range(4):
            nr = qr + (1 if d == 1 else (-1 if d == 0 else 0))
            nc = qc + (1 if d == 3 else (-1 if d == 2 else 0))
            if nr < 0 or nc < 0 or nr >= side or nc >= side:
                continue
            t = nr * side + nc
            if seen[off8 + t]:
                continue
            if _fits(state, r0 + nr - e, c0 + nc - e, h, w, r0, c0, rows, cols):
                if t == target:
                    return True
                seen[off8 + t] = 1
                queue[off + tail] = t
                tail += 1
    return False


@domain_fn
def _swept_empty(state, r, c, h, w, dr, dc, cols):
    """Straight slide: is every cell swept on the way (outside the piece) empty?"""
    r1 = r + dr
    c1 = c + dc
    for i in range(min(r, r1), max(r, r1) + h):
        for j in range(min(c, c1), max(c, c1) + w):
            if state[i * cols + j] != EMPTY and not (r <= i < r + h and c <= j < c + w):
                return False
    return True


@domain_fn
def _move(state, r, c, h, w, dr, dc, pair, cols):
    for i in range(r, r + h):
        for j in range(c, c + w):
            state[i * cols + j] = EMPTY
    r1 = r + dr
    c1 = c + dc
    if pair or (h == 1 and w == 1):
        for i in range(r1, r1 + h):
            for j in range(c1, c1 + w):
                state[i * cols + j] = ONE
    elif h == 1:
        state[r1 * cols + c1] = H_L
        state[r1 * cols + c1 + 1] = H_R
    elif w == 1:
        state[r1 * cols + c1] = V_T
        state[(r1 + 1) * cols + c1] = V_B
    else:
        state[r1 * cols + c1] = B_TL
        state[r1 * cols + c1 + 1] = B_TR
        state[(r1 + 1) * cols + c1] = B_BL
        state[(r1 + 1) * cols + c1 + 1] = B_BR


@jit(inline="always")
def _blocked(state, m, mv, probe):
    """The quick tests that reject most move numbers: is there no piece of the right kind at
    the move's cell, or is the first cell it would enter off the board or taken? (True: the
    move is surely illegal; False: :func:`_apply` decides.)"""
    kind = mv[m, MV_KIND]
    code = state[mv[m, MV_CELL]]
    if kind == 0:
        if code != ONE and code != H_L and code != V_T and code != B_TL:
            return True
        shape = np.int64(code) >> 1  # 1x1, 1x2, 2x1, 2x2 -> 0, 1, 2, 3
    elif code != ONE:
        return True
    else:
        shape = kind  # a pair of 1x1 pieces moves like a 1x2 (kind 1) or a 2x1 (kind 2)
    first = probe[m, shape]
    return first < 0 or state[first] != EMPTY


@jit(inline="always")
def _make(state, m, p):
    """Make move ``m`` if it is legal; return whether it was. :func:`_apply` is given the
    arrays and numbers it needs, not params: a call passing params copies all of it (about a
    kilobyte) on every move (benchmarks/RESULTS.md, "Constants")."""
    cell = p.mv[m, MV_CELL]
    return _apply(state, p.mv[m, MV_KIND], cell, state[cell], p.mv[m, MV_ROW], p.mv[m, MV_COL],
                  p.mv[m, MV_DR], p.mv[m, MV_DC], p.rows, p.cols, p.metric, p.reach,
                  p.scratch8, p.scratch, p.n_cells + p.image_len, 4 * p.n_cells)


# Two step functions, chosen by the bundle: FNS_PLAIN's, for puzzles without pattern databases,
# is small enough for LLVM to inline into the search kernels, which a call passing params (to
# work out the heuristic) prevents; FNS's serves every puzzle.
@domain_fn
def _step_plain(state, m, p):
    """A move on a puzzle without pattern databases (``p.n_pdbs == 0``)."""
    if _blocked(state, m, p.mv, p.probe) or not _make(state, m, p):
        return ILLEGAL
    return 0


@domain_fn
def _step(state, m, p):
    """A move; with pattern databases, the heuristic byte is worked out again."""
    if _blocked(state, m, p.mv, p.probe):
        return ILLEGAL
    return _finish(state, m, p)


@jit
def _finish(state, m, p):
    if not _make(state, m, p):
        return ILLEGAL
    return 0 if p.n_pdbs == 0 else _rescore(state, p)


@jit
def _rescore(state, p):
    """The heuristic byte worked out for a position just moved into; returns its change."""
    old = np.int64(state[p.n_cells])
    new = _pdb_heuristic(state, p)
    state[p.n_cells] = new
    return new - old


@domain_fn
def _play_plain(state, m, p):
    """A move that :func:`_candidates` listed, on a puzzle without pattern databases: the
    candidates are exactly the legal moves, so nothing is tested (under the path metric, the
    path the piece takes, which their flood fill found already, is not looked for again)."""
    kind = p.mv[m, MV_KIND]
    h, w = _shape(state, kind, p.mv[m, MV_CELL])
    _move(state, p.mv[m, MV_ROW], p.mv[m, MV_COL], h, w, p.mv[m, MV_DR], p.mv[m, MV_DC],
          kind != 0, p.cols)
    return 0


@domain_fn
def _play(state, m, p):
    """:func:`_play_plain` on any puzzle (with pattern databases, the heuristic byte worked
    out)."""
    _play_plain(state, m, p)
    return 0 if p.n_pdbs == 0 else _rescore(state, p)


@domain_fn
def _apply(state, kind, cell, code, r, c, dr, dc, rows, cols, metric, reach, scratch8, scratch,
           off8, off):
    """Make the move if it is legal; return whether it was."""
    if kind == 0:
        h = 2 if code >= V_T else 1
        w = 2 if (code == H_L or code == B_TL) else 1
    elif kind == 1:  # two 1x1 pieces side by side, moving together
        if c + 1 >= cols or state[cell + 1] != ONE:
            return False
        h, w = 1, 2
    else:  # two 1x1 pieces one above the other
        if r + 1 >= rows or state[cell + cols] != ONE:
            return False
        h, w = 2, 1
    r1 = r + dr
    c1 = c + dc
    if r1 < 0 or c1 < 0 or r1 + h > rows or c1 + w > cols:
        return False
    if metric == PATH:
        if not _path_exists(state, r, c, h, w, dr, dc, rows, cols, reach, scratch8, scratch,
                            off8, off):
            return False
    else:
        # quick test: the first cell entered must be empty (rejects most moves)
        if dr > 0:
            first = (r + h) * cols + c
        elif dr < 0:
            first = (r - 1) * cols + c
        elif dc > 0:
            first = r * cols + c + w
        else:
            first = r * cols + c - 1
        if state[first] != EMPTY:
            return False
        if (dr > 1 or dr < -1 or dc > 1 or dc < -1 or h > 1 and dr == 0 or w > 1 and dc == 0) \
                and not _swept_empty(state, r, c, h, w, dr, dc, cols):
            return False
    _move(state, r, c, h, w, dr, dc, kind != 0, cols)
    return True


@domain_fn
def _inverse(m, p):
    return p.mv[m, MV_INV]


@domain_fn
def _is_goal(state, p):
    return p.goal >= 0 and state[p.goal] == B_TL


@domain_fn
def _heuristic(state, p):
    if p.n_pdbs == 0:
        return 0
    return np.int64(state[p.n_cells])


# ---------------------------------------------------------------------------------------------
# Candidate moves: only a piece next to an empty cell can move.
# ---------------------------------------------------------------------------------------------


@domain_fn
def _mark(marks, marked, c, i):
    if marks[i] == 0:
        marks[i] = 1
        marked[c] = i
        return c + 1
    return c


@domain_fn
def _shape(state, kind, cell):
    """(height, width) of the piece with its top-left cell at ``cell`` (kind 0), or of a pair
    of 1x1 pieces side by side (kind 1) or one above the other (kind 2)."""
    if kind == 0:
        code = state[cell]
        return (2 if code >= V_T else 1), (2 if (code == H_L or code == B_TL) else 1)
    if kind == 1:
        return 1, 2
    return 2, 1


@domain_fn
def _slides(state, go, kind, r0, c0, rows, cols, reach, first, out, k):
    """Unit and straight metrics: the moves of one piece (top-left cell (r0, c0)) in direction
    ``go``, one per distance ``1..reach`` up to the first whose entered cells are not all
    empty (``first`` is the move number of distance 1), written to ``out[k:]``; returns the new
    count. Exactly the moves ``_step`` accepts."""
    h, w = _shape(state, kind, r0 * cols + c0)
    for dd in range(1, reach + 1):
        # the two cells entered at this distance (the second only for a 2-wide front)
        if go == 0 or go == 1:
            x = r0 - dd if go == 0 else r0 + h - 1 + dd
            if x < 0 or x >= rows:
                break
            y = x * cols + c0
            y2 = y + 1 if w == 2 else y
        else:
            x = c0 - dd if go == 2 else c0 + w - 1 + dd
            if x < 0 or x >= cols:
                break
            y = r0 * cols + x
            y2 = y + cols if h == 2 else y
        if state[y] != EMPTY or state[y2] != EMPTY:
            break
        out[k] = first + dd - 1
        k += 1
    return k


@domain_fn
def _free_or_own(state, i, j, r0, c0, h, w, cols):
    """Is cell (i, j) empty, or one of the piece's own (standing at (r0, c0))?"""
    return state[i * cols + j] == EMPTY or (r0 <= i < r0 + h and c0 <= j < c0 + w)


@domain_fn
def _reachable_moves(state, i, kind, r0, c0, rows, cols, reach, na, seen, queue, off8, off, out,
                     k):
    """Path metric: the moves of piece ``i`` (``kind * n_cells + cell``, as in the move
    numbers; its top-left cell at (r0, c0)) to every place it reaches by unit steps, written to
    ``out[k:]`` in increasing action order; returns the new count. One breadth-first search
    over the piece's places within ``reach`` (the window of :func:`_path_exists`, so exactly
    the moves ``_step`` accepts) instead of one search per displacement. A step from a place
    the piece fits in only needs the cells it enters to be free (empty or its own). Places
    are queued as ``row << 5 | col`` in the window (no division; the window is at most 17
    wide)."""
    h, w = _shape(state, kind, r0 * cols + c0)
    e = reach
    side = 2 * e + 1
    for t in range(side * side):
        seen[off8 + t] = 0
    seen[off8 + e * side + e] = 1
    queue[off] = (e << 5) | e
    head, tail = 0, 1
    while head < tail:
        q = queue[off + head]
        head += 1
        qr = q >> 5
        qc = q & 31
        r = r0 + qr - e  # the place on the board
        c = c0 + qc - e
        s = qr * side + qc
        for d in range(4):
            if d == 0:  # up: the row above must be free
                if qr == 0 or r == 0 or seen[off8 + s - side]:
                    continue
                ok = _free_or_own(state, r - 1, c, r0, c0, h, w, cols) and (
                    w == 1 or _free_or_own(state, r - 1, c + 1, r0, c0, h, w, cols))
                t = s - side
                nq = q - 32
            elif d == 1:  # down
                if qr == side - 1 or r + h == rows or seen[off8 + s + side]:
                    continue
                ok = _free_or_own(state, r + h, c, r0, c0, h, w, cols) and (
                    w == 1 or _free_or_own(state, r + h, c + 1, r0, c0, h, w, cols))
                t = s + side
                nq = q + 32
            elif d == 2:  # left
                if qc == 0 or c == 0 or seen[off8 + s - 1]:
                    continue
                ok = _free_or_own(state, r, c - 1, r0, c0, h, w, cols) and (
                    h == 1 or _free_or_own(state, r + 1, c - 1, r0, c0, h, w, cols))
                t = s - 1
                nq = q - 1
            else:  # right
                if qc == side - 1 or c + w == cols or seen[off8 + s + 1]:
                    continue
                ok = _free_or_own(state, r, c + w, r0, c0, h, w, cols) and (
                    h == 1 or _free_or_own(state, r + 1, c + w, r0, c0, h, w, cols))
                t = s + 1
                nq = q + 1
            if ok:
                seen[off8 + t] = 1
                queue[off + tail] = nq
                tail += 1
    # the places reached, in increasing order (the order of the actions, path_offsets): an
    # insertion sort of the few queued (row << 5 | col sorts like row * side + col)
    for a in range(1, tail):
        t = queue[off + a]
        b = a
        while b > 1 and queue[off + b - 1] > t:
            queue[off + b] = queue[off + b - 1]
            b -= 1
        queue[off + b] = t
    centre = e * side + e
    for a in range(1, tail):
        q = queue[off + a]
        t = (q >> 5) * side + (q & 31)
        out[k] = i * na + (t if t < centre else t - 1)
        k += 1
    return k


@domain_fn
def _candidates(state, p, out):
    """The move numbers worth trying, written to ``out``; returns how many. Any move first
    takes the piece (or pair of 1x1 pieces, in a relaxed puzzle) one cell into an empty cell
    next to it, so only those pieces are looked at. The list is exactly the legal moves, each
    once, in the order the search tried them in when it was a superset (so searches return
    the same paths): under the unit and straight metrics, for each direction a piece can go,
    the distances up to the first blocked one; under the path metric, for each piece, the
    places one flood fill reaches, in increasing move numbers (one search per piece instead of
    one per displacement (benchmarks/RESULTS.md, "Constants"))."""
    return _candidate_moves(state, out, p.n_cells, p.rows, p.cols, p.marks, p.marked, p.n_kinds,
                            p.metric, p.mv, p.n_actions, p.reach, p.scratch8, p.scratch,
                            p.image_len)


@domain_fn
def _candidate_moves(state, out, n, rows, cols, marks, marked, n_kinds, metric, mv, na, reach,
                     scratch8, scratch, image_len):
    """:func:`_candidates` given the arrays and numbers it needs rather than ``params`` (a
    call passing params copies all of it)."""
    c = 0
    for e in range(n):
        if state[e] != EMPTY:
            continue
        r = e // cols
        col = e - r * cols
        for d in range(4):  # the piece at x, seen from e in direction d, moves the other way
            if d == 0:
                if r == 0:
                    continue
                x = e - cols
            elif d == 1:
                if r == rows - 1:
                    continue
                x = e + cols
            elif d == 2:
                if col == 0:
                    continue
                x = e - 1
            else:
                if col == cols - 1:
                    continue
                x = e + 1
            v = state[x]
            if v == EMPTY:
                continue
            if v == H_R or v == B_TR:
                head = x - 1
            elif v == V_B or v == B_BL:
                head = x - cols
            elif v == B_BR:
                head = x - cols - 1
            else:
                head = x
            go = d ^ 1
            c = _mark(marks, marked, c, 4 * head + go)
            if n_kinds > 1 and v == ONE:  # pairs of 1x1 pieces holding x
                xc = x % cols
                if xc + 1 < cols and state[x + 1] == ONE:
                    c = _mark(marks, marked, c, 4 * (n + x) + go)
                if xc > 0 and state[x - 1] == ONE:
                    c = _mark(marks, marked, c, 4 * (n + x - 1) + go)
                if x + cols < n and state[x + cols] == ONE:
                    c = _mark(marks, marked, c, 4 * (2 * n + x) + go)
                if x >= cols and state[x - cols] == ONE:
                    c = _mark(marks, marked, c, 4 * (2 * n + x - cols) + go)
    k = 0
    if metric == PATH:  # each piece once: the displacements one flood fill reaches
        for t in range(c):
            marks[marked[t]] = 0
        for t in range(c):
            i = marked[t] >> 2
            if marks[4 * i] == 0:
                marks[4 * i] = 1
                m = i * na  # the piece's first move: its kind, row and column in the table
                k = _reachable_moves(state, i, mv[m, MV_KIND], mv[m, MV_ROW], mv[m, MV_COL], rows,
                                     cols, reach, na, scratch8, scratch, n + image_len, 4 * n,
                                     out, k)
        for t in range(c):
            marks[4 * (marked[t] >> 2)] = 0
        return k
    # actions: direction-major, distances 1..reach
    for t in range(c):
        i = marked[t]
        marks[i] = 0
        first = (i >> 2) * na + (i & 3) * reach
        k = _slides(state, i & 3, mv[first, MV_KIND], mv[first, MV_ROW], mv[first, MV_COL],
                    rows, cols, reach, first, out, k)
    return k


# ---------------------------------------------------------------------------------------------
# Compact keys: a position in a few bytes, for the hash sets of the searches.
# ---------------------------------------------------------------------------------------------
#
# Read the cells in row-major order, skipping those covered by a piece already read: each cell
# left is empty or the top-left cell of a piece. A position is therefore a sequence of symbols,
# one per piece or empty cell, out of five (empty, 1x1, 1x2, 2x1, 2x2), and decoding gives the
# position back: it fills each piece's other cells and goes on to the next cell not filled.
# Each symbol is written with a prefix code. For a board's keys the code is Huffman's for how
# many pieces of each shape (and empty cells) the board has, which no move changes, so every
# position of the board has a key of the same length: 26 bits for the classic 4x5, 51 for the
# 6x7 start in data/blocks (7 bytes, against 43 bytes of cell codes), 64 for the 7x8 start.
# Every board up to 8 x 9 fits 128 bits (at most 117, for 18 empty cells, 18 1x1, nine 1x2 and
# nine 2x1 pieces: checked over every mix of shapes). Bits go into the key from the lowest bit
# of its first byte up.

#: The first cell of each symbol: empty, 1x1, 1x2, 2x1, 2x2.
SYMBOLS = (EMPTY, ONE, H_L, V_T, B_TL)
COVERED = 255  # a cell not decoded yet


def prefix_lengths(weights):
    """Huffman code lengths of the five symbols, given how often each occurs (at most 4 bits;
    a symbol that never occurs still gets a code)."""
    heap = [(int(w), i, [i]) for i, w in enumerate(weights)]
    heapq.heapify(heap)
    lengths = [0] * len(weights)
    tie = len(weights)
    while len(heap) > 1:
        w1, _, a = heapq.heappop(heap)
        w2, _, b = heapq.heappop(heap)
        for i in a + b:
            lengths[i] += 1
        heapq.heappush(heap, (w1 + w2, tie, a + b))
        tie += 1
    return lengths


def code_tables(lengths, merge=()):
    """The kernel's tables of a prefix code with the given lengths per symbol (canonical code):
    ``enc[cell code]`` = ``(bits << 8) | length`` for the first cell of a piece (0 for the other
    cells, which the key skips) and ``dec[next 4 bits]`` = ``(cell code << 8) | length``.
    ``merge``: pairs ``(a, b)`` of cell codes; code ``a`` is written as ``b`` (for the maps of
    pattern databases, which forget some pieces)."""
    order = sorted(range(len(SYMBOLS)), key=lambda i: (lengths[i], i))
    enc = np.zeros(10, dtype=np.int64)
    dec = np.zeros(16, dtype=np.int64)
    code, prev = 0, lengths[order[0]]
    for i in order:
        code <<= lengths[i] - prev
        prev = lengths[i]
        # canonical codes are read first bit first; the key holds the first bit lowest
        bits = int(format(code, f"0{prev}b")[::-1], 2)
        enc[SYMBOLS[i]] = (bits << 8) | prev
        for v in range(16):
            if v & ((1 << prev) - 1) == bits:
                dec[v] = (SYMBOLS[i] << 8) | prev
        code += 1
    for a, b in merge:
        enc[a] = enc[b]
    return enc, dec


def key_bits(counts, lengths):
    """Bits of a key: ``counts`` and ``lengths`` per symbol."""
    return sum(int(k) * int(b) for k, b in zip(counts, lengths))


@domain_fn
def pack_cells(cells, n, enc, key, off, key_len):
    """Write the key of ``cells[:n]`` to ``key[off:off + key_len]`` (zero-padded)."""
    acc = 0
    nb = 0
    k = off
    for x in range(n):
        e = enc[cells[x]]  # 0 for a covered cell: adds nothing (no branch to mispredict)
        acc |= (e >> 8) << nb
        nb += e & 255
        if nb >= 32:
            for _ in range(4):
                key[k] = acc & 255
                acc >>= 8
                k += 1
            nb -= 32
    while nb > 0:
        key[k] = acc & 255
        acc >>= 8
        k += 1
        nb -= 8
    while k < off + key_len:
        key[k] = 0
        k += 1


@domain_fn
def unpack_cells(key, key_len, n, cols, dec, cells):
    """The cell codes (``cells[:n]``) of the key ``key[:key_len]``."""
    for x in range(n):
        cells[x] = COVERED
    acc = 0
    nb = 0
    k = 0
    for x in range(n):
        if cells[x] != COVERED:
            continue
        while nb < 4:
            if k < key_len:
                acc |= np.int64(key[k]) << nb
            k += 1
            nb += 8
        d = dec[acc & 15]
        code = d >> 8
        ln = d & 255
        acc >>= ln
        nb -= ln
        cells[x] = code
        if code == H_L:
            cells[x + 1] = H_R
        elif code == V_T:
            cells[x + cols] = V_B
        elif code == B_TL:
            cells[x + 1] = B_TR
            cells[x + cols] = B_BL
            cells[x + cols + 1] = B_BR


@domain_fn
def _pack(state, p, key):
    # with a heuristic, its byte ends the key (cheaper to keep than to look up again)
    if p.n_pdbs > 0:
        pack_cells(state, p.n_cells, p.code_enc, key, 0, p.key_len - 1)
        key[p.key_len - 1] = state[p.n_cells]
    else:
        pack_cells(state, p.n_cells, p.code_enc, key, 0, p.key_len)


@domain_fn
def _unpack(key, p, state):
    if p.n_pdbs > 0:
        unpack_cells(key, p.key_len - 1, p.n_cells, p.cols, p.code_dec, state)
        state[p.n_cells] = key[p.key_len - 1]
    else:
        unpack_cells(key, p.key_len, p.n_cells, p.cols, p.code_dec, state)
        state[p.n_cells] = 0


# ---------------------------------------------------------------------------------------------
# Pattern-database heuristic: relax (split pieces), map by g, look the image up.
# ---------------------------------------------------------------------------------------------

#: The code of an image's cells (one for every board and map): 1 bit for a 1x1 piece (the
#: commonest symbol in a relaxed position, and what the maps turn forgotten pieces into), 3 bits
#: for the others. One table per map mode: full keeps every cell; blank writes an empty cell as a
#: 1x1; line and cell write each cell of a 1x2 or 2x1 piece as a 1x1 (the pieces are counted
#: per region instead).
IMAGE_LENGTHS = (3, 1, 3, 3, 3)
IMAGE_ENC = np.stack([
    code_tables(IMAGE_LENGTHS)[0],
    code_tables(IMAGE_LENGTHS, merge=((EMPTY, ONE),))[0],
    code_tables(IMAGE_LENGTHS, merge=tuple((c, ONE) for c in (H_L, H_R, V_T, V_B)))[0],
])


def image_symbols(counts, mode):
    """How many of each symbol (empty, 1x1, 1x2, 2x1, 2x2) an image under map ``mode`` holds,
    given the relaxed puzzle's ``counts`` of them."""
    e, one, h, v, b = counts
    if mode == 1:
        return (0, one + e, h, v, b)
    if mode == 2:
        return (e, one + 2 * h + 2 * v, 0, 0, b)
    return (e, one, h, v, b)


@domain_fn
def write_image(relaxed, i, mode, region_of, n, out, off, cell_bytes):
    """The image under PDB ``i``'s map g of a relaxed position (``n`` cell codes), written to
    ``out[off:]`` (which must be zero beyond the cells): the PDB's number, the key of the cells
    as the map keeps them (``cell_bytes`` bytes, :data:`IMAGE_ENC`), then for the line and cell
    maps one byte per region: its kept 1x2 pieces in the low four bits, its 2x1 pieces in the
    high four (a region of at most 9 cells never holds more than 9).

    ``mode``: 0 full (every cell), 1 blank (empties not recorded), 2 line or cell (size-2
    pieces only as counts per region of ``region_of``)."""
    out[off] = i
    pack_cells(relaxed, n, IMAGE_ENC[mode], out, off + 1, cell_bytes)
    if mode == 2:
        base = off + 1 + cell_bytes
        for x in range(n):
            v = relaxed[x]
            if v == H_L:
                out[base + region_of[x]] += 1
            elif v == V_T:
                out[base + region_of[x]] += 16


@domain_fn
def _first_subset(idx, off, k):
    for t in range(k):
        idx[off + t] = t


@domain_fn
def _next_subset(idx, off, k, n):
    """Advance ``idx[off:off+k]`` (a sorted k-subset of 0..n-1) to the next one; False after
    the last."""
    i = k - 1
    while i >= 0 and idx[off + i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[off + i] += 1
    for j in range(i + 1, k):
        idx[off + j] = idx[off + j - 1] + 1
    return True


@jit
def _pdb_value(state, i, p, nh, nv):
    """PDB ``i``'s value of ``state``: relax it (split the 1x2 and 2x1 pieces the PDB does not
    keep) and look up its image. A PDB that keeps only some pieces of a shape (3 of ten 1x2
    pieces, say) may keep any of them: a solution moves every piece, so keeping any chosen ones
    whole and splitting the rest turns it into a relaxed solution no longer than itself. Each
    choice's value is therefore a lower bound, and so is the greatest of them, which is what
    this returns (255, no relaxed goal reachable, for a position no choice can solve).
    ``scratch[:nh]`` and ``scratch[n:n+nv]`` hold the top-left cells of the 1x2 and 2x1
    pieces."""
    n = p.n_cells
    kh = min(p.pdb_info[i, PI_KEEP_H], nh)
    kv = min(p.pdb_info[i, PI_KEEP_V], nv)
    mode = p.pdb_info[i, PI_MODE]
    idx = p.scratch  # [2n, 3n): the kept 1x2 pieces; [3n, 4n): the kept 2x1 pieces
    buf = p.scratch8  # [0, n): relaxed cells; [n, n + image_len): the image
    img_len = p.image_len
    best = 0
    _first_subset(idx, 2 * n, kh)
    while True:
        _first_subset(idx, 3 * n, kv)
        while True:
            for x in range(n):
                v = state[x]
                buf[x] = ONE if (H_L <= v <= V_B) else v
            for t in range(kh):
                x = idx[idx[2 * n + t]]
                buf[x] = H_L
                buf[x + 1] = H_R
            for t in range(kv):
                x = idx[n + idx[3 * n + t]]
                buf[x] = V_T
                buf[x + p.cols] = V_B
            for x in range(img_len):
                buf[n + x] = 0
            write_image(buf, i, mode, p.region_of[i], n, buf, n, p.pdb_info[i, PI_CELL_BYTES])
            j = find(p.pdb_slots, p.pdb_pool, buf[n: n + img_len])
            val = 255 if j < 0 else np.int64(p.pdb_values[j])  # 255: no goal even relaxed
            if val == 255:
                return val  # this choice cannot reach a goal: nor can the position
            if val > best:
                best = val
            if not _next_subset(idx, 3 * n, kv, nv):
                break
        if not _next_subset(idx, 2 * n, kh, nh):
            break
    return best


@jit
def _pdb_heuristic(state, p):
    """The largest value over the PDBs (each a lower bound, so their maximum is one).

    Works in scratch arrays held by ``params`` (no allocation per call), so one ``params`` must
    not be used by two threads at once; the API runs block-puzzle searches on one thread."""
    n = p.n_cells
    nh = 0
    nv = 0
    for x in range(n):
        if state[x] == H_L:
            p.scratch[nh] = x
            nh += 1
        elif state[x] == V_T:
            p.scratch[n + nv] = x
            nv += 1
    best = 0
    for i in range(p.n_pdbs):
        val = _pdb_value(state, i, p, nh, nv)
        if val > best:
            best = val
    return best


@jit
def set_heuristic(state, p):
    """Store the heuristic value of a freshly built state in its last byte."""
    state[p.n_cells] = _pdb_heuristic(state, p) if p.n_pdbs > 0 else 0


#: The domain's functions, for every puzzle.
FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, no_rank, no_unrank, no_rank_after)
#: The same for puzzles without pattern databases (``p.n_pdbs == 0``), faster: moves leave the
#: heuristic byte alone (the searches of :class:`BlockPuzzle` without a heuristic, and the
#: pattern-database builds, which search relaxed puzzles).
FNS_PLAIN = DomainFns(_step_plain, _inverse, _is_goal, _heuristic, no_rank, no_unrank,
                      no_rank_after)
#: Compact keys and candidate moves for the frontier search, for every puzzle (FRONTIER) and
#: for puzzles without pattern databases (FRONTIER_PLAIN, faster).
FRONTIER = FrontierFns(_pack, _unpack, _candidates, _play)
FRONTIER_PLAIN = FrontierFns(_pack, _unpack, _candidates, _play_plain)


# ---------------------------------------------------------------------------------------------
# Words: a position of a board of up to 21 cells in one 64-bit integer
# ---------------------------------------------------------------------------------------------
#
# Cell i owns bits 3i..3i+2 of the word: 0 where no piece has its top-left cell, else the
# piece's shape (1x1 -> 1, 1x2 -> 2, 2x1 -> 3, 2x2 -> 4: one more than its place in
# WORD_SHAPES). Shapes of one kind are alike, so the word is canonical. Its three bit planes
# (bits 0, 1, 2 of every field) give the top-left cells of each shape as four masks over the
# cells, and the moves are worked out on those masks with a few shifts: a piece may go where
# every cell it would cover is empty or its own. A move changes two fields of the word, so a
# child is its parent with two fields flipped.

#: Cells a word can hold (3 bits each, 63 bits in all).
WORD_CELLS = 21
#: (height, width) of the shapes whose fields hold 1, 2, 3 and 4.
WORD_SHAPES = ((1, 1), (1, 2), (2, 1), (2, 2))

WordParams = namedtuple(
    "WordParams",
    [
        "n_cells",
        "cols",
        "metric",  # UNIT, STRAIGHT or PATH
        "full",  # mask of all cells
        "not_first",  # cells not in column 0
        "not_last",  # cells not in the last column
        "fits",  # fits[s]: the cells where a piece of shape s may have its top-left cell
        "own",  # own[s]: the cells of a piece of shape s with its top-left cell at cell 0
        "max_children",  # an upper bound on the children of one position
        "goal",  # the cell where the 2x2 piece's top-left cell must be, or -1 (no goal)
    ],
)


@domain_fn
def _gather3(x):
    """Bits 0, 3, 6, ..., 60 of ``x`` moved to bits 0..20 (one bit plane of a word, as a mask
    over the cells)."""
    x &= 0x1249249249249249
    x = (x | (x >> 2)) & 0x10C30C30C30C30C3
    x = (x | (x >> 4)) & 0x100F00F00F00F00F
    x = (x | (x >> 8)) & 0x1F0000FF0000FF
    x = (x | (x >> 16)) & 0x1F00000000FFFF
    return (x | (x >> 32)) & 0x1FFFFF


@domain_fn
def _word(state, p):
    """The word of a state (cell codes)."""
    w = np.int64(0)
    for i in range(p.n_cells):
        c = state[i]
        v = 1 if c == ONE else 2 if c == H_L else 3 if c == V_T else 4 if c == B_TL else 0
        w |= np.int64(v) << (3 * i)
    return w


@domain_fn
def _unword(w, p, state):
    """The state (cell codes, heuristic byte 0) of a word."""
    cols = p.cols
    for i in range(p.n_cells + 1):
        state[i] = EMPTY
    for i in range(p.n_cells):
        v = (w >> (3 * i)) & 7
        if v == 1:
            state[i] = ONE
        elif v == 2:
            state[i] = H_L
            state[i + 1] = H_R
        elif v == 3:
            state[i] = V_T
            state[i + cols] = V_B
        elif v == 4:
            state[i] = B_TL
            state[i + 1] = B_TR
            state[i + cols] = B_BL
            state[i + cols + 1] = B_BR


@domain_fn
def _steps_from(empty, h, wd, cols, not_first, not_last, fits):
    """For one shape (``h`` x ``wd``): the top-left cells from which a piece of it can step
    up, down, left and right (every cell it would enter empty), as four masks."""
    if wd == 1:
        up = empty << cols
        down = empty >> (h * cols)
    else:
        up = (empty << cols) & (empty << (cols - 1))
        down = (empty >> (h * cols)) & (empty >> (h * cols + 1))
    if h == 1:
        left = (empty << 1) & not_first
        right = empty >> wd
    else:
        left = (empty << 1) & (empty >> (cols - 1)) & not_first
        right = (empty >> wd) & (empty >> (wd + cols))
    # the cell entered on the right must be in the piece's row
    right &= not_last if wd == 1 else not_last & (not_last >> 1)
    return up & fits, down & fits, left & fits, right & fits


@domain_fn
def _word_children(w, p, out):
    """The words of every position one move away from ``w``, written to ``out``; returns how
    many. Each position once (pieces of a shape are alike, so two moves never give the same
    position), under the puzzle's metric."""
    b0 = w & 0x1249249249249249
    b1 = (w >> 1) & 0x1249249249249249
    b2 = (w >> 2) & 0x1249249249249249
    cols = p.cols
    not_first = p.not_first
    not_last = p.not_last
    a1 = _gather3(b0 & ~b1)
    a12 = _gather3(b1 & ~b0)
    a21 = _gather3(b0 & b1)
    a22 = _gather3(b2)
    occupied = (a1 | a12 | (a12 << 1) | a21 | (a21 << cols) | a22 | (a22 << 1) | (a22 << cols)
                | (a22 << (cols + 1)))
    empty = p.full & ~occupied
    k = 0
    for s in range(4):
        anchors = a1 if s == 0 else a12 if s == 1 else a21 if s == 2 else a22
        if anchors == 0:
            continue
        h = 1 if s < 2 else 2
        wd = 2 if s == 1 or s == 3 else 1
        fits = p.fits[s]
        up, down, left, right = _steps_from(empty, h, wd, cols, not_first, not_last, fits)
        v = np.int64(s + 1)
        if p.metric == PATH:
            movers = anchors & (up | down | left | right)
            while movers != 0:
                bit = movers & -movers
                movers ^= bit
                a = lowest_bit(bit)
                free = empty | (p.own[s] << a)
                fit = free & fits
                if wd == 2:
                    fit &= free >> 1
                if h == 2:
                    fit &= free >> cols
                if wd == 2 and h == 2:
                    fit &= free >> (cols + 1)
                reach = bit
                while True:
                    grown = (reach | ((reach << 1) & not_first) | ((reach >> 1) & not_last)
                             | (reach << cols) | (reach >> cols)) & fit
                    if grown == reach:
                        break
                    reach = grown
                dest = reach & ~bit
                base = w ^ (v << (3 * a))
                while dest != 0:
                    db = dest & -dest
                    dest ^= db
                    out[k] = base ^ (v << (3 * lowest_bit(db)))
                    k += 1
            continue
        for d in range(4):
            can = up if d == 0 else down if d == 1 else left if d == 2 else right
            movers = anchors & can
            while movers != 0:
                bit = movers & -movers
                movers ^= bit
                a = lowest_bit(bit)
                base = w ^ (v << (3 * a))
                x = bit
                while True:
                    if d == 0:
                        x = x >> cols
                    elif d == 1:
                        x = x << cols
                    elif d == 2:
                        x = x >> 1
                    else:
                        x = x << 1
                    out[k] = base ^ (v << (3 * lowest_bit(x)))
                    k += 1
                    if p.metric == UNIT or x & can == 0:
                        break
    return k


def word_params(rows, cols, metric, goal=-1):
    """The :class:`WordParams` of a ``rows`` x ``cols`` board (at most :data:`WORD_CELLS`
    cells) under ``metric`` (UNIT, STRAIGHT or PATH), with the 2x2 piece's goal cell (-1:
    none)."""
    n = rows * cols
    if n > WORD_CELLS:
        raise ValueError(f"a word holds at most {WORD_CELLS} cells, not {n}")
    cell = lambda r, c: 1 << (r * cols + c)  # noqa: E731
    every = [(r, c) for r in range(rows) for c in range(cols)]
    fits = tuple(sum(cell(r, c) for r, c in every if r + h <= rows and c + w <= cols)
                 for h, w in WORD_SHAPES)
    own = tuple(sum(1 << (i * cols + j) for i in range(h) for j in range(w))
                for h, w in WORD_SHAPES)
    full = (1 << n) - 1
    not_first = sum(cell(r, c) for r, c in every if c > 0)
    not_last = sum(cell(r, c) for r, c in every if c < cols - 1)
    return WordParams(n, cols, metric, full, not_first, not_last, fits, own, 4 * n * n,
                      int(goal))


@domain_fn
def _word_is_goal(w, p):
    return p.goal >= 0 and ((w >> (3 * p.goal)) & 7) == 4


#: Positions as words, for :func:`puzzlelib.search.wordbfs.word_bfs` (boards of up to
#: :data:`WORD_CELLS` cells, no pattern databases).
WORDS = WordFns(_word, _unword, _word_children, _word_is_goal)

# ---------------------------------------------------------------------------------------------
# Python side: parsing, validation, the puzzle object
# ---------------------------------------------------------------------------------------------


def _read_lines(text):
    if not isinstance(text, str):
        text = "\n".join("".join(row) for row in text)
    lines = [ln.replace(" ", "").replace("\t", "") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        raise PuzzleError("the board is empty: expected one line per row, '.' for empty cells")
    return lines


def parse_board(text):
    """Read a board drawn as text. Returns ``(rows, cols, pieces)`` with pieces a sorted list of
    ``(shape, row, col)`` (top-left cell). Raises :class:`PuzzleError` naming the problem."""
    lines = _read_lines(text)
    rows, cols = len(lines), len(lines[0])
    for i, ln in enumerate(lines):
        if len(ln) != cols:
            raise PuzzleError(f"row {i + 1} has {len(ln)} cells, row 1 has {cols}: rows must be equal")
    _check_size(rows, cols)
    cells = {}
    for i, ln in enumerate(lines):
        for j, ch in enumerate(ln):
            if ch != ".":
                cells.setdefault(ch, []).append((i, j))
    pieces = []
    for ch, where in cells.items():
        r0 = min(r for r, _ in where)
        r1 = max(r for r, _ in where)
        c0 = min(c for _, c in where)
        c1 = max(c for _, c in where)
        h, w = r1 - r0 + 1, c1 - c0 + 1
        if not _connected(where):
            raise PuzzleError(
                f"piece {ch!r} is disconnected (cells {_cells_text(where)}): draw each piece "
                "with its own letter"
            )
        if len(where) != h * w or (h, w) not in ANCHOR:
            raise PuzzleError(
                f"piece {ch!r} (cells {_cells_text(where)}) is not one of the shapes "
                "1x1, 1x2, 2x1, 2x2"
            )
        pieces.append((f"{h}x{w}", r0, c0))
    if rows * cols - sum(SHAPES[s][0] * SHAPES[s][1] for s, _, _ in pieces) < 1:
        raise PuzzleError("the board has no empty cell: nothing can move")
    return rows, cols, sorted(pieces, key=lambda t: (t[1], t[2]))


def _connected(where):
    todo = [where[0]]
    seen = {where[0]}
    rest = set(where)
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in rest and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(where)


def _cells_text(where):
    return " ".join(f"({r},{c})" for r, c in sorted(where))


def _check_size(rows, cols):
    if not (1 <= rows <= MAX_ROWS and 1 <= cols <= MAX_COLS):
        raise PuzzleError(
            f"a {rows}x{cols} board (rows x columns) is too large: at most {MAX_ROWS} rows and "
            f"{MAX_COLS} columns"
        )


def cells_from_pieces(rows, cols, pieces):
    """Cell codes (``uint8``, row-major) of a list of ``(shape, row, col)`` pieces, checking that
    every shape is known, every piece lies on the board and no two overlap."""
    _check_size(rows, cols)
    cells = np.zeros(rows * cols, dtype=np.uint8)
    owner = {}
    for k, (shape, r, c) in enumerate(pieces):
        if shape not in SHAPES:
            raise PuzzleError(f"unknown piece shape {shape!r}: the shapes are 1x1, 1x2, 2x1, 2x2")
        h, w = SHAPES[shape]
        if r < 0 or c < 0 or r + h > rows or c + w > cols:
            raise PuzzleError(f"a {shape} piece at row {r}, column {c} does not fit on the "
                              f"{rows}x{cols} board")
        codes = _codes(h, w)
        for i in range(h):
            for j in range(w):
                x = (r + i) * cols + (c + j)
                if x in owner:
                    o = pieces[owner[x]]
                    raise PuzzleError(
                        f"pieces overlap at row {r + i}, column {c + j}: a {o[0]} at "
                        f"({o[1]},{o[2]}) and a {shape} at ({r},{c})"
                    )
                owner[x] = k
                cells[x] = codes[i][j]
    if len(owner) == rows * cols:
        raise PuzzleError("the board has no empty cell: nothing can move")
    return cells


def _codes(h, w):
    return {
        (1, 1): [[ONE]],
        (1, 2): [[H_L, H_R]],
        (2, 1): [[V_T], [V_B]],
        (2, 2): [[B_TL, B_TR], [B_BL, B_BR]],
    }[(h, w)]


def pieces_of(cells, cols):
    """``(shape, row, col)`` of every piece of a cell-code array (top-left cells, row-major)."""
    out = []
    for x, v in enumerate(np.asarray(cells)[: len(cells)]):
        v = int(v)
        if v in SHAPE_OF_ANCHOR:
            h, w = SHAPE_OF_ANCHOR[v]
            out.append((f"{h}x{w}", x // cols, x % cols))
    return out


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#$%&*+=?@~"


def render(cells, rows, cols):
    """The board as text, one letter per piece in reading order (the daughter is always ``D``
    when there is one 2x2 piece, so it stands out), ``.`` for empty cells."""
    cells = np.asarray(cells)[: rows * cols]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    letters = iter(ch for ch in _LETTERS if ch != "D")
    n_big = int(np.sum(cells == B_TL))
    for shape, r, c in pieces_of(cells, cols):
        h, w = SHAPES[shape]
        ch = "D" if (shape == "2x2" and n_big == 1) else next(letters)
        for i in range(h):
            for j in range(w):
                grid[r + i][c + j] = ch
    return "\n".join("".join(row) for row in grid)


def path_offsets(reach):
    """Displacements of the path metric, listed so that ``offs[-1 - a] == -offs[a]``."""
    return np.array(
        [(dr, dc) for dr in range(-reach, reach + 1) for dc in range(-reach, reach + 1)
         if (dr, dc) != (0, 0)],
        dtype=np.int64,
    ).reshape(-1, 2)


def parse_goal(goal, rows, cols):
    """``(row, col)`` of the daughter's goal (top-left cell) from a tuple or ``"R,C"``; the
    default (None) is the bottom rows, centred, which needs an even width."""
    if goal is None:
        if cols % 2:
            raise PuzzleError(
                f"the board is {cols} columns wide (odd), so the daughter cannot be centred: "
                "give the goal as ROW,COL"
            )
        return rows - 2, cols // 2 - 1
    if isinstance(goal, str):
        parts = goal.replace(" ", "").split(",")
        if len(parts) != 2 or not all(t.lstrip("-").isdigit() for t in parts):
            raise PuzzleError(f"goal {goal!r} is not ROW,COL (two integers counted from 0)")
        goal = (int(parts[0]), int(parts[1]))
    r, c = (int(v) for v in goal)
    if not (0 <= r <= rows - 2 and 0 <= c <= cols - 2):
        raise PuzzleError(
            f"goal ({r},{c}) puts the 2x2 piece off the {rows}x{cols} board: its top-left cell "
            f"must be in rows 0..{rows - 2}, columns 0..{cols - 2}"
        )
    return r, c


#: The classic Hakoiri-musume start (5 rows x 4 columns): the daughter must reach the bottom
#: centre (row 3, column 1).
CLASSIC = "ABBC\nABBC\nDEEF\nDGHF\nI..J"


class BlockPuzzle(Puzzle):
    """A sliding-block board (its size and the pieces it holds) with a move metric and a goal.

    ``board`` is the board as text (see the module's doc; it is also the default start) or a
    list of ``(shape, row, col)`` pieces with ``rows`` and ``cols``. Every start must hold the
    same pieces on a board of the same size. ``metric``: ``"unit"`` (one piece one cell),
    ``"straight"`` (one piece any distance in a line; the default, the one document 004's
    relaxation implies) or ``"path"`` (one piece along any path). ``goal`` is the daughter's
    top-left cell (``(r, c)`` or ``"r,c"``), None for the default (the bottom rows, centred),
    or ``False`` for no goal (counting positions only). ``relax`` (used by pattern databases):
    let two adjacent 1x1 pieces move together as one.

    A solution's ``moves`` lists each move as the moving piece's top-left cell before and
    after: ``[[r, c], [r1, c1]]``. Heuristics are pattern databases named as in document 004
    (``ONES-H-V-MAP``, e.g. ``36-0-0-f``; several joined by commas take the maximum; see
    :mod:`puzzlelib.pdb.blocks`).
    """

    name = "blocks"
    fns = FNS_PLAIN  # (with pattern databases: FNS and FRONTIER, see with_pdb_fields)
    ffns = FRONTIER_PLAIN
    wfns = WORDS
    methods = ("bfs", "iddfs", "idastar", "astar", "greedy")
    default_method = "bfs"
    # the heuristic works in scratch arrays of params: one search at a time per params
    thread_safe = False
    # many move orders reach one position (pieces of a shape are alike, distant moves commute)
    default_transpositions = 1 << 22
    default_max_states = 50_000_000

    def __init__(self, board, metric="straight", goal=None, rows=None, cols=None, relax=False):
        if isinstance(board, str) or (rows is None and not isinstance(board, np.ndarray)):
            rows, cols, pieces = parse_board(board)
        else:
            pieces = list(board)
        self.rows, self.cols = int(rows), int(cols)
        self.n_cells = self.rows * self.cols
        self.start_cells = cells_from_pieces(self.rows, self.cols, pieces)
        if metric not in METRICS:
            raise PuzzleError(f"unknown metric {metric!r}: choose unit, straight or path")
        self.metric = metric
        self.counts = {s: sum(1 for p in pieces if p[0] == s) for s in SHAPES}
        self.n_empty = self.n_cells - sum(
            SHAPES[s][0] * SHAPES[s][1] * k for s, k in self.counts.items())
        if goal is False:
            self.goal = None
        else:
            if self.counts["2x2"] == 0:
                raise PuzzleError("the board has no 2x2 piece, so no goal can be set "
                                  "(use goal=False to count positions only)")
            self.goal = parse_goal(goal, self.rows, self.cols)
        self.relax = bool(relax)
        #: The pattern databases' names (see :meth:`with_pdb_fields`), or empty.
        self.pdb_names = []
        self.heuristic = "none"
        self.params = self._params()

    def _params(self, pdb_fields=None):
        m = {"unit": UNIT, "straight": STRAIGHT, "path": PATH}[self.metric]
        reach = 1 if m == UNIT else max(1, min(self.n_empty, max(self.rows, self.cols) - 1))
        n_kinds = 3 if self.relax else 1
        mv, n_actions, probe = _tables(self.rows, self.cols, m, reach, n_kinds)
        goal = -1 if self.goal is None else self.goal[0] * self.cols + self.goal[1]
        if pdb_fields is None:
            pdb_fields = _no_pdb_fields(self.n_cells)
        image_len = pdb_fields[1]
        side = 2 * reach + 1
        scratch = np.zeros(4 * self.n_cells + side * side, dtype=np.int64)
        scratch8 = np.zeros(self.n_cells + image_len + side * side, dtype=np.uint8)
        return BlockParams(
            self.n_cells + 1, mv.shape[0], 1, self.rows, self.cols, self.n_cells, m, n_kinds,
            n_actions, reach, goal, mv, probe, *pdb_fields, scratch, scratch8,
            (self.key_bits + 7) // 8 + (pdb_fields[0] > 0), *code_tables(self.key_lengths),
            np.zeros(4 * n_kinds * self.n_cells, dtype=np.uint8),
            np.zeros(4 * n_kinds * self.n_cells, dtype=np.int64),
        )

    def word_params(self):
        """Boards of up to :data:`WORD_CELLS` cells without pattern databases or relaxed moves
        are searched as words by :func:`~puzzlelib.layers`."""
        if self.n_cells > WORD_CELLS or self.relax or self.params.n_pdbs > 0:
            return None
        if getattr(self, "_word_params", None) is None:
            m = {"unit": UNIT, "straight": STRAIGHT, "path": PATH}[self.metric]
            self._word_params = word_params(self.rows, self.cols, m, self.params.goal)
        return self._word_params

    def word_moves(self, words):
        """The move numbers that take each position of ``words`` (a path of words, one move
        apart) to the next: the field that empties is the piece's top-left cell before, the
        one that fills it after."""
        if getattr(self, "_move_of", None) is None:
            mv = self.params.mv
            self._move_of = {(int(mv[m, MV_CELL]), int(mv[m, MV_DR]), int(mv[m, MV_DC])): m
                             for m in range(mv.shape[0]) if mv[m, MV_KIND] == 0}
        out = []
        for a, b in zip(words[:-1], words[1:]):
            a, b = int(a), int(b)
            changed = [i for i in range(self.n_cells) if (a >> (3 * i)) & 7 != (b >> (3 * i)) & 7]
            src = next(i for i in changed if (a >> (3 * i)) & 7)
            dst = next(i for i in changed if (b >> (3 * i)) & 7)
            (r0, c0), (r1, c1) = divmod(src, self.cols), divmod(dst, self.cols)
            out.append(self._move_of[(src, r1 - r0, c1 - c0)])
        return out

    @property
    def symbol_counts(self):
        """How many empty cells and pieces of each shape (1x1, 1x2, 2x1, 2x2) the board has:
        the same in every position."""
        return (self.n_empty, *(self.counts[s] for s in SHAPES))

    @property
    def key_lengths(self):
        """Bits of the key's code for each symbol (see "Compact keys" in the module)."""
        return prefix_lengths(self.symbol_counts)

    @property
    def key_bits(self):
        """Bits of a position's key (every position of this board has the same)."""
        return key_bits(self.symbol_counts, self.key_lengths)

    def key(self, state):
        """The compact key of a state, as bytes."""
        out = np.zeros(self.params.key_len, dtype=np.uint8)
        _pack(np.asarray(state, dtype=np.uint8), self.params, out)
        return out

    def from_key(self, key):
        """The state whose key is ``key``."""
        s = np.zeros(self.n_cells + 1, dtype=np.uint8)
        _unpack(np.asarray(key, dtype=np.uint8), self.params, s)
        return s

    def with_pdb_fields(self, fields, names=()):
        """A copy of this puzzle whose heuristic reads the pattern-database ``fields`` (the
        ``params`` fields :func:`puzzlelib.pdb.blocks.heuristic_fields` makes), with scratch
        arrays of its own."""
        out = copy.copy(self)
        out.params = self._params(fields)
        pdb = out.params.n_pdbs > 0
        out.fns, out.ffns = (FNS, FRONTIER) if pdb else (FNS_PLAIN, FRONTIER_PLAIN)
        out.pdb_names = list(names)
        out.heuristic = ",".join(names) if names else "pdb"
        return out

    def rooted(self, start):
        """The same pieces with no goal: :func:`~puzzlelib.layers` counts every position
        reachable from ``start``."""
        self.encode(start)
        return BlockPuzzle(start, metric=self.metric, goal=False)

    @property
    def size(self):
        return f"{self.rows}x{self.cols}"

    @property
    def label(self):
        return f"{self.size} blocks"

    def describe(self):
        return {"puzzle": self.name, "size": self.size, "metric": self.metric,
                "goal": None if self.goal is None else list(self.goal),
                "board": self.render()}

    # -- positions ------------------------------------------------------------------------
    def default_start(self):
        return self.render()

    def encode(self, position=None, what="start"):
        """A board as text (checked: this puzzle's size and pieces) -> the kernels' state
        (cells plus the heuristic byte); None: this puzzle's own board."""
        if position is None:
            cells = self.start_cells
        elif isinstance(position, np.ndarray) and position.dtype == np.uint8:
            cells = position[: self.n_cells]
        else:
            rows, cols, pieces = parse_board(position)
            if (rows, cols) != (self.rows, self.cols):
                raise PuzzleError(f"{what} is {rows}x{cols}, the puzzle's board is {self.size}")
            counts = {s: sum(1 for p in pieces if p[0] == s) for s in SHAPES}
            if counts != self.counts:
                have = ", ".join(f"{k} {s}" for s, k in counts.items() if k)
                want = ", ".join(f"{k} {s}" for s, k in self.counts.items() if k)
                raise PuzzleError(f"{what} holds {have}; the puzzle's pieces are {want}")
            cells = cells_from_pieces(rows, cols, pieces)
        s = np.zeros(self.n_cells + 1, dtype=np.uint8)
        s[: self.n_cells] = cells
        set_heuristic(s, self.params)
        return s

    def decode(self, state):
        return render(state, self.rows, self.cols)

    def render(self, state=None):
        return render(self.start_cells if state is None else state, self.rows, self.cols)

    # -- moves ------------------------------------------------------------------------------
    def describe_move(self, m):
        """``((row, col), (row, col))``: the moving piece's top-left cell before and after."""
        row = self.params.mv[m]
        r, c = int(row[MV_ROW]), int(row[MV_COL])
        return (r, c), (r + int(row[MV_DR]), c + int(row[MV_DC]))

    def moves_out(self, path):
        out = []
        for m in path:
            before, after = self.describe_move(int(m))
            out.append([list(before), list(after)])
        return out

    def move_number(self, state, before, after):
        """The move that takes the piece at ``before`` (its top-left cell) to ``after``, if it is
        legal in ``state`` under this metric; raises :class:`PuzzleError` otherwise."""
        try:
            (r, c), (r1, c1) = before, after
        except (TypeError, ValueError):
            raise PuzzleError(f"a move is [[row, col], [row, col]], not {[before, after]!r}"
                              ) from None
        mv = self.params.mv
        hits = np.nonzero((mv[:, MV_KIND] == 0) & (mv[:, MV_ROW] == r) & (mv[:, MV_COL] == c)
                          & (mv[:, MV_DR] == r1 - r) & (mv[:, MV_DC] == c1 - c))[0]
        for m in hits:
            if _step(state.copy(), int(m), self.params) != ILLEGAL:
                return int(m)
        raise PuzzleError(f"no piece can move from {tuple(before)} to {tuple(after)} here under "
                          f"the {self.metric} metric")

    def moves_in(self, state, moves):
        out = []
        for k, mv in enumerate(moves):
            try:
                before, after = mv
            except (TypeError, ValueError):
                raise PuzzleError(f"move {k}: {mv!r} is not [[row, col], [row, col]]") from None
            m = self.move_number(state, tuple(before), tuple(after))
            _step(state, m, self.params)
            out.append(m)
        return out

    def replay_states(self, moves, state=None):
        """The kernels' states from ``state`` (default: the board) along ``moves``
        (``[[r, c], [r1, c1]]`` each), the first included."""
        s = (self.encode() if state is None else state).copy()
        out = [s.copy()]
        for m in self.moves_in(s.copy(), moves):
            _step(s, m, self.params)
            out.append(s.copy())
        return out

    def is_goal(self, state):
        return bool(_is_goal(state, self.params))

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.cols, self.rows

    def move_mark(self, position, after, move):
        """The piece that moves: its top-left cell before the move."""
        return tuple(move[0])

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """Draw a board (text) on matplotlib axes ``ax``, one cell a unit, its top-left corner at
        ``(x0, y0)``, y growing downwards: the daughter red, the goal's place outlined;
        ``mark``: a piece's top-left cell ``(r, c)`` to outline."""
        import matplotlib.pyplot as plt

        cells = self.encode(position, what="position")[: self.n_cells]
        ax.add_patch(plt.Rectangle((x0, y0), self.cols, self.rows, facecolor="#f7f7f7",
                                   edgecolor="#333", lw=1.2))
        if self.goal is not None:
            gr, gc = self.goal
            ax.add_patch(plt.Rectangle((x0 + gc, y0 + gr), 2, 2, fill=False, edgecolor="#c0392b",
                                       lw=1.0, ls="--"))
        for shape, r, c in pieces_of(cells, self.cols):
            h, w = SHAPES[shape]
            ax.add_patch(plt.Rectangle((x0 + c + 0.06, y0 + r + 0.06), w - 0.12, h - 0.12,
                                       facecolor=_COLOURS[(h, w)], edgecolor="#333", lw=0.6))
            if mark is not None and tuple(mark) == (r, c):
                ax.add_patch(plt.Rectangle((x0 + c + 0.02, y0 + r + 0.02), w - 0.04, h - 0.04,
                                           fill=False, edgecolor="#1f4e79", lw=2.4))
        if title is not None:
            ax.text(x0 + self.cols / 2, y0 - 0.3, title, ha="center", va="bottom", fontsize=8)


_COLOURS = {(1, 1): "#8fbbd9", (1, 2): "#f4c36b", (2, 1): "#9fd39b", (2, 2): "#e4572e"}


@lru_cache(maxsize=64)
def _tables(rows, cols, metric, reach, n_kinds):
    """The move and probe tables of a board shape, built once per process (a Python loop over
    every move number; a search builds several puzzles of one shape)."""
    mv, n_actions = move_table(rows, cols, metric, reach, n_kinds)
    return mv, n_actions, probe_table(mv, rows, cols, metric)


def move_table(rows, cols, metric, reach, n_kinds):
    """The move table ``mv`` (one row per move number: kind, cell, row, col, dr, dc, inverse)
    and the number of actions per (kind, cell). Actions are the four directions times the
    distances 1..reach (unit and straight metrics) or the displacements of
    :func:`path_offsets` (path metric)."""
    if metric == PATH:
        acts = [tuple(o) for o in path_offsets(reach)]
    else:
        acts = [(DR[d] * k, DC[d] * k) for d in range(4) for k in range(1, reach + 1)]
    n = rows * cols
    index = {}
    rows_out = []
    for kind in range(n_kinds):
        for cell in range(n):
            r, c = divmod(cell, cols)
            for dr, dc in acts:
                index[(kind, r, c, dr, dc)] = len(rows_out)
                rows_out.append([kind, cell, r, c, dr, dc, -1])
    for m, (kind, cell, r, c, dr, dc, _) in enumerate(rows_out):
        # the inverse moves the piece back from where it went; a move whose target is off
        # the board is never legal, so its (unused) inverse is itself
        rows_out[m][MV_INV] = index.get((kind, r + dr, c + dc, -dr, -dc), m)
    return np.array(rows_out, dtype=np.int64).reshape(-1, 7), len(acts)


def probe_table(mv, rows, cols, metric):
    """``probe[m, shape]``: for move ``m`` made by a piece of that shape (1x1, 1x2, 2x1, 2x2),
    a cell that must be empty for it to be legal, or -1 when the piece would leave the board.
    Straight and unit moves: the first cell the piece enters. Path moves: a cell of the target
    place outside the piece's old place."""
    probe = np.full((mv.shape[0], 4), -1, dtype=np.int64)
    for m in range(mv.shape[0]):
        r, c, dr, dc = (int(v) for v in mv[m, MV_ROW:MV_DC + 1])
        for s, (h, w) in enumerate(((1, 1), (1, 2), (2, 1), (2, 2))):
            r1, c1 = r + dr, c + dc
            if r1 < 0 or c1 < 0 or r1 + h > rows or c1 + w > cols:
                continue
            if metric == PATH:
                cells = [(i, j) for i in range(r1, r1 + h) for j in range(c1, c1 + w)
                         if not (r <= i < r + h and c <= j < c + w)]
                fr, fc = cells[0]
            elif dr > 0:
                fr, fc = r + h, c
            elif dr < 0:
                fr, fc = r - 1, c
            elif dc > 0:
                fr, fc = r, c + w
            else:
                fr, fc = r, c - 1
            probe[m, s] = fr * cols + fc
    return probe


def _no_pdb_fields(n_cells):
    slots, pool = new_table(1, 1)
    return (0, 1, np.zeros((1, 4), dtype=np.int64), np.zeros((1, n_cells), dtype=np.int64),
            slots, pool, np.zeros(1, dtype=np.uint8))
