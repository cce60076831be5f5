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

The package, one concern a module: :mod:`.encoding` (cell codes, :class:`BlockParams`),
:mod:`.moves` (the move kernels, candidate moves, move tables), :mod:`.packing` (compact keys),
:mod:`.images` and :mod:`.heuristic` (pattern-database images and lookup), :mod:`.words`
(positions as 64-bit words), :mod:`.parsing` (boards as text), :mod:`.drawing` (matplotlib) and
:mod:`.puzzle` (:class:`BlockPuzzle` and its bundles of domain functions).
"""

from .encoding import (B_TL, EMPTY, H_L, METRICS, ONE, PATH, SHAPES, STRAIGHT, UNIT, V_B,
                       V_T)
from .heuristic import set_heuristic
from .images import IMAGE_LENGTHS, image_symbols, write_image
from .packing import SYMBOLS, code_tables, key_bits, pack_cells, prefix_lengths, unpack_cells
from .parsing import cells_from_pieces, parse_board, parse_goal, pieces_of
from .puzzle import CLASSIC, FNS, FNS_PLAIN, FRONTIER, FRONTIER_PLAIN, BlockPuzzle
from .words import WORD_CELLS, WORDS, _gather3, word_params

__all__ = [
    "B_TL", "CLASSIC", "EMPTY", "FNS", "FNS_PLAIN", "FRONTIER", "FRONTIER_PLAIN", "H_L",
    "IMAGE_LENGTHS", "METRICS", "ONE", "PATH", "SHAPES", "STRAIGHT", "SYMBOLS", "UNIT", "V_B",
    "V_T", "WORDS", "WORD_CELLS", "BlockPuzzle", "_gather3", "cells_from_pieces", "code_tables",
    "image_symbols", "key_bits", "pack_cells", "parse_board", "parse_goal", "pieces_of",
    "prefix_lengths", "set_heuristic", "unpack_cells", "word_params", "write_image",
]
