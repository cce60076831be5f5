"""Exercises for students: write a search (or a heuristic, or a permutation hash) in plain
Python, and have it graded.

A student writes plain functions against the :class:`~puzzlelib.teaching.problem.Problem`
protocol (``initial``, ``goal``, ``actions``, ``result``, ``is_goal``, ``h``, ``inverse``):

=================  ===========================================================================
``bfs``            ``bfs(problem)``: a shortest solution's actions, or None
``bidirectional``  ``bidirectional(problem)``: the same, storing far fewer positions
``iddfs``          ``iddfs(problem)``: the same, with memory linear in the depth
``astar``          ``astar(problem)``: the same, guided by ``problem.h``
``idastar``        ``idastar(problem)``: the same
``heuristic``      ``heuristic(state)``: an admissible, consistent bound for the 8-puzzle
``rank``           ``rank(perm)`` and ``unrank(r, n)``: permutations of ``0..n-1`` <-> ``0..n!-1``
=================  ===========================================================================

:func:`check` grades functions (``check("bfs", bfs)`` -> a :class:`Report` with ``passed``,
``score`` and ``feedback``); :func:`check_file` grades every exercise a file defines, as
``python -m puzzlelib check FILE.py [--json]`` does (:mod:`~puzzlelib.exercises.api`). What
each check measures: :mod:`~puzzlelib.exercises.searches`,
:mod:`~puzzlelib.exercises.heuristic`, :mod:`~puzzlelib.exercises.ranking`; how a search is
watched: :mod:`~puzzlelib.exercises.watched`; the instances and their lengths from the
kernels: :mod:`~puzzlelib.exercises.instances`; reports, time limits and exceptions:
:mod:`~puzzlelib.exercises.grading`.
"""

from .api import EXERCISES, TIME_LIMIT, Exercise, ExerciseFileError, check, check_file, command
from .grading import Report, Reports

__all__ = ["EXERCISES", "TIME_LIMIT", "Exercise", "ExerciseFileError", "Report", "Reports",
           "check", "check_file", "command"]
