"""puzzlelib: Numba-accelerated state-space search on combinatorial puzzles.

One entry for every puzzle:

- :func:`solve` finds a shortest solution (``bfs``, ``bidir``, ``iddfs``, ``idastar``,
  ``astar``; ``greedy`` for a quick one) of a start on a puzzle;
- :func:`layers` counts the positions at every depth from a start (God's algorithm);
- :func:`solve_many` solves many starts, sharing the cores among them;
- :func:`pattern_databases` loads or builds a puzzle's pattern databases.

Puzzles: :class:`SlidingPuzzle` (any labels, repeated ones included), :class:`RotationPuzzle`,
:class:`BlockPuzzle`, :class:`PancakePuzzle`, :class:`TopSpin`, :class:`PocketCube`; any
permutation puzzle from its moves with :class:`PermutationPuzzle`; any other puzzle subclasses
:class:`Puzzle`. Every search returns a
:class:`Result` with one :class:`Stats` record (:class:`Batch` for many starts). Bad input
raises :class:`PuzzleError` with a message naming the problem.

>>> from puzzlelib import SlidingPuzzle, solve
>>> solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 0 7 8", method="bfs").moves
'rr'

Command line: ``python -m puzzlelib --help``. Plain-Python versions of each algorithm, to
read: :mod:`puzzlelib.teaching`.
"""

import sys as _sys

if _sys.argv[:1] == ["-m"]:
    # `python -m puzzlelib ...` (or one of its modules) is starting, and Python sets argv[0] to
    # "-m" while it imports the package: a Ctrl-C then (before the command line catches it)
    # prints one line too, not the import's traceback; Python then ends by the signal (130).
    def _interrupted(kind, value, tb, _before=_sys.excepthook):
        if issubclass(kind, KeyboardInterrupt):
            _sys.stderr.write("puzzlelib: interrupted\n")
        else:
            _before(kind, value, tb)

    _sys.excepthook = _interrupted

from .api import layers, solve, solve_many
from .core.errors import PuzzleError, SearchLimitError, UnsolvableError
from .domains import (CLASSIC, BlockPuzzle, PancakePuzzle, PermutationPuzzle, PocketCube, Puzzle,
                      RotationPuzzle, SlidingPuzzle, TopSpin)
from .instances import random_instances, random_walks
from .pdb import databases as pattern_databases
from .results import Batch, Result, Stats
from .tuning import tune

__all__ = [
    "CLASSIC",
    "Batch",
    "BlockPuzzle",
    "PancakePuzzle",
    "PermutationPuzzle",
    "PocketCube",
    "Puzzle",
    "PuzzleError",
    "Result",
    "RotationPuzzle",
    "SearchLimitError",
    "SlidingPuzzle",
    "Stats",
    "TopSpin",
    "UnsolvableError",
    "layers",
    "pattern_databases",
    "random_instances",
    "random_walks",
    "solve",
    "solve_many",
    "tune",
]
__version__ = "1.0.0"
