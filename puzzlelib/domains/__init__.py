"""Puzzle domains: each owns its positions, moves, hash and drawing (see :mod:`.base`).

- :mod:`.sliding`: sliding-tile puzzles (the 8-puzzle, the 15-puzzle, rectangles, repeated
  labels);
- :mod:`.rotation`: the Rotation Puzzle (AtCoder ABC336 F);
- :mod:`.blocks`: Hakoiri-musume type block puzzles, under three move metrics.
"""

from .base import METHODS, Puzzle
from .blocks import CLASSIC, BlockPuzzle
from .rotation import RotationPuzzle
from .sliding import SlidingPuzzle

#: Every puzzle by the name the command line knows it by (``--puzzle NAME``).
PUZZLES = {cls.name: cls for cls in (SlidingPuzzle, RotationPuzzle, BlockPuzzle)}

__all__ = ["CLASSIC", "METHODS", "PUZZLES", "BlockPuzzle", "Puzzle", "RotationPuzzle",
           "SlidingPuzzle"]
