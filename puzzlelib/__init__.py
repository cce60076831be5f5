"""puzzlelib: Numba-accelerated state-space search on combinatorial puzzles.

The public API is small:

- :func:`solve` solves a sliding-tile puzzle by BFS, bidirectional BFS, IDDFS, IDA*, A* or
  greedy search;
- :func:`solve_many` solves many boards by IDA*, one board per thread (Korf's 100);
- :func:`layers` counts the positions at every depth from a start (God's algorithm), with a
  minimal perfect hash chosen from the board (repeated labels included);
- :func:`rotation` answers the Rotation Puzzle (AtCoder ABC336 F) by bidirectional BFS;
- :func:`block_solve`, :func:`block_layers` and :func:`block_pdb` (:mod:`puzzlelib.blocks`)
  handle Hakoiri-musume type block puzzles under three move metrics, with pattern databases;
- :class:`SlidingPuzzle` is the domain (boards, moves, hash), for code that calls the kernels;
- :mod:`puzzlelib.teaching` holds plain-Python versions of each algorithm, for reading.

Command line: ``python -m puzzlelib --help``.
"""

from .api import (Batch, Layers, RotationResult, Solution, compile_seconds, layers, rotation,
                  solve, solve_many)
from .blocks import BlockLayers, BlockSolution, block_layers, block_pdb, block_solve
from .domains.blocks import BlockPuzzle
from .domains.rotation import RotationPuzzle
from .domains.sliding import SlidingPuzzle
from .core.errors import PuzzleError, SearchLimitError, UnsolvableError
from .tuning import tune


__all__ = [
    "Batch",
    "BlockLayers",
    "BlockPuzzle",
    "BlockSolution",
    "Layers",
    "PuzzleError",
    "RotationPuzzle",
    "RotationResult",
    "SearchLimitError",
    "SlidingPuzzle",
    "Solution",
    "UnsolvableError",
    "block_layers",
    "block_pdb",
    "block_solve",
    "compile_seconds",
    "layers",
    "rotation",
    "solve",
    "solve_many",
    "tune",
]
__version__ = "0.1.0"
