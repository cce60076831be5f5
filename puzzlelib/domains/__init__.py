"""Puzzle domains: each owns its positions, moves, hash and drawing (see :mod:`.base`).

- :mod:`.sliding`: sliding-tile puzzles (the 8-puzzle, the 15-puzzle, rectangles, repeated
  labels);
- :mod:`.rotation`: the Rotation Puzzle (AtCoder ABC336 F);
- :mod:`.blocks`: Hakoiri-musume type block puzzles, under three move metrics;
- :mod:`.permutation`: any permutation puzzle from its moves, and on it :mod:`.pancake`
  (pancake stacks), :mod:`.topspin` (TopSpin) and :mod:`.cube` (the 2x2x2 Pocket Cube).
"""

from .base import METHODS, Puzzle
from .blocks.puzzle import CLASSIC, BlockPuzzle
from .cube import PocketCube
from .pancake import PancakePuzzle
from .permutation.puzzle import PermutationPuzzle
from .rotation import RotationPuzzle
from .sliding.puzzle import SlidingPuzzle
from .topspin import TopSpin

#: Every puzzle by the name the command line knows it by (``--puzzle NAME``).
PUZZLES = {cls.name: cls for cls in (SlidingPuzzle, RotationPuzzle, BlockPuzzle,
                                     PancakePuzzle, TopSpin, PocketCube)}

__all__ = ["CLASSIC", "METHODS", "PUZZLES", "BlockPuzzle", "PancakePuzzle",
           "PermutationPuzzle", "PocketCube", "Puzzle", "RotationPuzzle", "SlidingPuzzle",
           "TopSpin"]
