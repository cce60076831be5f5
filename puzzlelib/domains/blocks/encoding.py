"""Block puzzles' kernel encoding: the cell codes (which part of which shape covers a cell),
the shapes, the move metrics and the board's size limits, the columns of the move table and of
the pattern databases' table, and :class:`BlockParams`, the numbers and arrays every kernel of
the package reads (see the package's doc for the encoding and the move numbers).
"""

from collections import namedtuple

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
