"""Plain-Python versions of each search, written to be read.

Nothing here is fast: these are the versions a student follows line by line, and the
notebooks time them beside the numba kernels of :mod:`puzzlelib.search`, which compute the
same things.

- :mod:`~puzzlelib.teaching.problem`: the :class:`Problem` protocol every search works on;
- :mod:`~puzzlelib.teaching.problems`: sliding tiles, the Rotation Puzzle, block puzzles, and
  any :class:`puzzlelib.Puzzle` (:class:`PuzzleProblem`);
- :mod:`~puzzlelib.teaching.search`: breadth-first, bidirectional, iterative deepening, A*,
  IDA* and layers, each returning a :class:`Solution` (layers: :class:`Layers`) and taking a
  ``watch`` function that sees each :class:`Step`;
- :mod:`~puzzlelib.teaching.pdb`: sliding-tile pattern databases;
- :mod:`~puzzlelib.teaching.heuristics`: :func:`check_heuristic`, to try a heuristic of your
  own.
"""

from .heuristics import HeuristicReport, InadmissibleHeuristic, check_heuristic
from .pdb import PatternTable, additive_heuristic, lookup, pattern_table
from .problem import Problem
from .problems import (MOVES, OPPOSITE, BlockProblem, PuzzleProblem, RotationProblem,
                       SlidingTiles, block_successors, neighbours)
from .search import (Layers, Solution, Step, astar, bidirectional, breadth_first, deepening,
                     idastar, iterative_deepening, layers)

__all__ = [
    "MOVES", "OPPOSITE", "BlockProblem", "HeuristicReport", "InadmissibleHeuristic", "Layers",
    "PatternTable", "Problem", "PuzzleProblem", "RotationProblem", "SlidingTiles", "Solution",
    "Step", "additive_heuristic", "astar", "bidirectional", "block_successors", "breadth_first",
    "check_heuristic", "deepening", "idastar", "iterative_deepening", "layers", "lookup",
    "neighbours", "pattern_table",
]
