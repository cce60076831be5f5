"""Sliding-tile puzzles' kernel encoding: the names of the blank's moves, the board's size
limits, the hashes and heuristics offered, and :class:`SlidingParams`, the numbers and tables
every kernel of the package reads (see the package's doc for the state and the hashes).
"""

from collections import namedtuple

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
