"""Permutation puzzles' kernel encoding: how the moving pieces are ranked, and
:class:`PermParams`, the numbers and tables every kernel of the package reads (see the
package's doc for the two forms of a state).
"""

from collections import namedtuple

import numpy as np

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
