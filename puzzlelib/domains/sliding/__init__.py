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

The package, one concern a module: :mod:`.encoding` (:class:`SlidingParams`, names and limits),
:mod:`.moves` (the plain step, the cursor loop, the board's geometry), :mod:`.heuristic` (linear
conflict, pattern databases), :mod:`.hashing` (ranks and 64-bit keys), :mod:`.parsing` (sizes,
boards, parity), :mod:`.drawing` (matplotlib) and :mod:`.puzzle` (:class:`SlidingPuzzle` and its
bundles of domain functions).
"""

from ...core.contract import ILLEGAL
from .hashing import KEYS_MULTISET, KEYS_RANKED, _rank_multiset, _rank_multiset_long
from .heuristic import _fill_pdb, _heuristic_pdb
from .moves import _step, board_symmetries, grid_neighbours
from .parsing import parity_class, parse_size, tiles_to_blank_moves
from .puzzle import FNS, FNS_MULTISET, FNS_MULTISET_LONG, FNS_PDB_DFS, SlidingPuzzle

__all__ = [
    "FNS", "FNS_MULTISET", "FNS_MULTISET_LONG", "FNS_PDB_DFS", "ILLEGAL", "KEYS_MULTISET",
    "KEYS_RANKED", "SlidingPuzzle", "_fill_pdb", "_heuristic_pdb", "_rank_multiset",
    "_rank_multiset_long", "_step", "board_symmetries", "grid_neighbours", "parity_class",
    "parse_size", "tiles_to_blank_moves",
]
