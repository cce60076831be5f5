"""Grading a student's file: :func:`check_file`, and ``python -m puzzlelib check FILE.py``.

The file is imported (its top-level code within the time limit too), and each exercise whose
first function name (``bfs``, ``bidirectional``, ``iddfs``, ``astar``, ``idastar``,
``heuristic``, ``rank``) the file defines is graded. Exit status: 0 when every exercise found
passes, 1 when one fails, 2 (one line on stderr) when the file cannot be imported or defines
none of the names.
"""

import importlib.util
import json
import sys
from pathlib import Path

from ..core.errors import PuzzleError
from .grader import EXERCISES, TIME_LIMIT, check
from .report import Reports
from .worker import describe, run_limited


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
    :class:`~puzzlelib.exercises.report.Reports`. Raises :class:`ExerciseFileError` when the
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
