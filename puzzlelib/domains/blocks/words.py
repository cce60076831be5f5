"""Block puzzles as 64-bit words: a position of a board of up to 21 cells in one integer
(three bits a cell), its children worked out on bit masks with a few shifts, for the word
search of :mod:`puzzlelib.search.wordbfs`.
"""

from collections import namedtuple

import numpy as np

from ...core.contract import WordFns, domain_fn
from ...core.hashing import lowest_bit
from .encoding import B_BL, B_BR, B_TL, B_TR, EMPTY, H_L, H_R, ONE, PATH, UNIT, V_B, V_T

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


# inlined into the search's loop, where LLVM left a call per position (benchmarks/RESULTS.md,
# "The depth-first loop's frame")
@domain_fn(inline=True)
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
