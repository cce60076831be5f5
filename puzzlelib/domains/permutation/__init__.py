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

The package, one concern a module: :mod:`.encoding` (:class:`PermParams`, rank kinds, limits),
:mod:`.moves` (a move in either form), :mod:`.heuristic` (the heuristic functions, pattern
databases), :mod:`.hashing` (ranks, the low form, tables of children), :mod:`.parsing` (moves
and labels as given, symmetry groups) and :mod:`.puzzle` (:class:`PermutationPuzzle` and its
bundles of domain functions).
"""

from .encoding import RANK_NONE
from .hashing import (_mod_factorial, _rank_after_cells, _rank_after_low, _rank_cells,
                      _rank_from_low, _rank_low, _unrank_cells, _unrank_low, reverse)
from .heuristic import _heuristic, no_heuristic
from .moves import _inverse, _is_goal
from .parsing import _label, compose
from .puzzle import FNS_LOW_CELLS, FNS_LOW_SWAPS, PermutationPuzzle

__all__ = [
    "FNS_LOW_CELLS", "FNS_LOW_SWAPS", "RANK_NONE", "PermutationPuzzle", "_heuristic",
    "_inverse", "_is_goal", "_label", "_mod_factorial", "_rank_after_cells", "_rank_after_low",
    "_rank_cells", "_rank_from_low", "_rank_low", "_unrank_cells", "_unrank_low", "compose",
    "no_heuristic", "reverse",
]
