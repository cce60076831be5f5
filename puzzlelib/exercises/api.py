"""The exercises, and grading them: :func:`check` grades a student's functions by the
exercise's name; :func:`check_file` grades every exercise a file defines, and :func:`command`
is ``python -m puzzlelib check FILE.py [--json] [--time-limit S]``.

The file is imported (its top-level code within the time limit too), and each exercise whose
first function name (``bfs``, ``bidirectional``, ``iddfs``, ``astar``, ``idastar``,
``heuristic``, ``rank``) the file defines is graded. Exit status: 0 when every exercise found
passes, 1 when one fails, 2 (one line on stderr) when the file cannot be imported or defines
none of the names.
"""

import importlib.util
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import PuzzleError
from .grading import NotWritten, Report, Reports, Trial, describe, run_limited
from .heuristic import grade_heuristic
from .ranking import grade_rank
from .searches import grade_search

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


#: The exercises by name, in the order a file's are graded and reported.
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
    :class:`~puzzlelib.exercises.grading.Report` (``passed``, ``score`` 0..1, ``feedback``).

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
    if not trial.timed_out:  # (a time-out's line states the limit)
        lines.append(f"time limit {trial.limit_text()} for all the runs together; they took "
                     f"{trial.used:.1f} s")
    return Report(name, score == 1 and not trial.timed_out, score, lines,
                  time.perf_counter() - t0)


class ExerciseFileError(PuzzleError):
    """A student's file that cannot be imported, or defines none of the exercises."""


def _import(path, time_limit):
    path = Path(path)
    if not path.is_file():
        raise ExerciseFileError(f"cannot import {path}: no such file")
    name = f"puzzlelib_exercise_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ExerciseFileError(f"cannot import {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses and pickling look their module up there)
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)  # the student's own helper modules beside the file
    try:
        out = run_limited(lambda: spec.loader.exec_module(module), time_limit)
    finally:
        sys.path.remove(folder)
    if out.timed_out:
        raise ExerciseFileError(f"cannot import {path}: it runs longer than {time_limit:g} s")
    if out.error is not None:
        error = out.error
        if isinstance(error, SyntaxError):
            raise ExerciseFileError(f"cannot import {path}: SyntaxError: {error.msg} (line "
                                    f"{error.lineno})")
        raise ExerciseFileError(f"cannot import {path}: {describe(error, {str(path)})}")
    return module


def _defined(module, name):
    """The function ``name`` written in ``module`` (not imported into it), or None."""
    f = getattr(module, name, None)
    if callable(f) and getattr(f, "__module__", None) == module.__name__:
        return f
    return None


def check_file(path, time_limit=None):
    """Grade every exercise ``path`` (a ``.py`` file) defines: a
    :class:`~puzzlelib.exercises.grading.Reports`. Raises :class:`ExerciseFileError` when the
    file cannot be imported or defines none of the exercises' names."""
    limit = TIME_LIMIT if time_limit is None else float(time_limit)
    module = _import(path, limit)
    reports = Reports()
    for name, exercise in EXERCISES.items():
        functions = [_defined(module, n) for n in exercise.names]
        if functions[0] is None:
            continue
        reports.append(check(name, *[f for f in functions if f is not None],
                             time_limit=limit))
    if not reports:
        names = ", ".join(n for e in EXERCISES.values() for n in e.names)
        raise ExerciseFileError(f"{path} defines none of the exercises' functions: {names}")
    return reports


def command(path, as_json=False, time_limit=None):
    """``python -m puzzlelib check FILE.py [--json] [--time-limit S]``: print the table (or
    the JSON object) and return the exit status."""
    try:
        reports = check_file(path, time_limit)
    except ExerciseFileError as e:
        sys.stderr.write(f"puzzlelib: error: {e}\n")
        return 2
    print(json.dumps(reports.to_dict()) if as_json else reports)
    return 0 if reports.passed else 1
