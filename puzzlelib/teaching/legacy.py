"""The sliding-tile functions of earlier versions, kept with their names and return values:
each is now a short call of the general search of :mod:`puzzlelib.teaching.search` on a
:class:`~puzzlelib.teaching.problems.SlidingTiles`."""

from . import search
from .problem import Problem
from .problems import SlidingTiles


def bfs(start, goal, rows, cols):
    """Breadth-first search from ``start`` until ``goal`` is generated: ``(moves, positions
    stored)``."""
    sol = search.breadth_first(SlidingTiles(rows, cols, start, goal, heuristic="none"))
    return sol.moves, sol.stored


def bidirectional_bfs(start, goal, rows, cols):
    """Breadth-first search from both ends: ``(moves, positions stored)``."""
    sol = search.bidirectional(SlidingTiles(rows, cols, start, goal, heuristic="none"))
    return sol.moves, sol.stored


def layers(start, rows=None, cols=None):
    """``layers(problem)``: :func:`puzzlelib.teaching.search.layers`. ``layers(start, rows,
    cols)``: the same on a sliding-tile board, as ``(counts, farthest)``."""
    if isinstance(start, Problem):
        return search.layers(start)
    lay = search.layers(SlidingTiles(rows, cols, start, heuristic="none"))
    return lay.counts, lay.farthest


def iddfs(start, goal, rows, cols, lower_bound=False):
    """Iterative deepening (with ``lower_bound=True``: IDA* with the Manhattan distance),
    finishing the first pass that has solutions: ``(length, number of shortest solutions,
    first solution, positions generated)``."""
    problem = SlidingTiles(rows, cols, start, goal,
                           heuristic="manhattan" if lower_bound else "none")
    sol = search.idastar(problem, all_solutions=True)
    return sol.length, sol.extra["solutions"], sol.moves, sol.generated


def manhattan(board, goal, cols):
    """Sum over the tiles of the rows plus columns between a tile and its goal cell."""
    rows = len(goal) // cols
    return SlidingTiles(rows, cols, board, goal).h(tuple(board))
