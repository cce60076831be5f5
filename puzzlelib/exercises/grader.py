"""The exercises, and :func:`check`: grade a student's functions by the exercise's name."""

import time
from dataclasses import dataclass

from .heuristic import grade_heuristic
from .ranking import grade_rank
from .report import Report
from .searches import grade_search
from .worker import NotWritten, Trial

#: Seconds an exercise's runs may take in all before the function counts as looping.
TIME_LIMIT = 30.0


@dataclass(frozen=True)
class Exercise:
    """``names``: the functions the student writes (found by these names in a file; the first
    one makes the exercise); ``signature``: how they are called; ``grade(name, functions,
    trial)``: ``(score, feedback lines)``."""

    name: str
    names: tuple
    signature: str
    grade: object


EXERCISES = {e.name: e for e in [
    Exercise("bfs", ("bfs",), "bfs(problem) -> a shortest solution's actions, or None",
             grade_search),
    Exercise("bidirectional", ("bidirectional",),
             "bidirectional(problem) -> a shortest solution's actions, or None", grade_search),
    Exercise("iddfs", ("iddfs",), "iddfs(problem) -> a shortest solution's actions",
             grade_search),
    Exercise("astar", ("astar",), "astar(problem) -> a shortest solution's actions, with "
                                  "problem.h", grade_search),
    Exercise("idastar", ("idastar",), "idastar(problem) -> a shortest solution's actions, "
                                      "with problem.h", grade_search),
    Exercise("heuristic", ("heuristic",), "heuristic(state) -> a lower bound on the 8-puzzle's "
                                          "moves left", grade_heuristic),
    Exercise("rank", ("rank", "unrank"), "rank(perm) -> 0..n!-1 and unrank(r, n) -> perm",
             grade_rank),
]}


def check(name, *functions, time_limit=None):
    """Grade ``functions`` as the exercise ``name`` (a key of :data:`EXERCISES`): returns a
    :class:`~puzzlelib.exercises.report.Report` (``passed``, ``score`` 0..1, ``feedback``).

    ``check("bfs", bfs)``, ``check("heuristic", h)``, ``check("rank", rank, unrank)``; the
    first function may come first instead, named by its ``__name__``: ``check(bfs)``. A
    function that raises or runs past ``time_limit`` seconds (:data:`TIME_LIMIT` for all of
    the exercise's runs together) fails the exercise; one that raises NotImplementedError is
    reported as not written yet."""
    if callable(name):
        name, functions = name.__name__, (name,) + functions
    if name not in EXERCISES:
        raise ValueError(f"unknown exercise {name!r}: one of {', '.join(EXERCISES)}")
    exercise = EXERCISES[name]
    if not functions or not all(callable(f) for f in functions):
        raise TypeError(f"check({name!r}, ...) needs the function(s) {exercise.signature}")
    limit = TIME_LIMIT if time_limit is None else float(time_limit)
    t0 = time.perf_counter()
    trial = Trial(name, functions, limit)
    try:
        score, lines = exercise.grade(name, functions, trial)
    except NotWritten:
        return Report(name, False, 0.0, [f"{name} is not written yet (it raises "
                                         f"NotImplementedError): write it, then check again"],
                      time.perf_counter() - t0)
    return Report(name, score == 1 and not trial.timed_out, score, lines,
                  time.perf_counter() - t0)
