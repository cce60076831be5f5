"""Numbers a person types: one check for every numeric option of the API and the command line.

:func:`check_number` takes what was given (an ``int``, a NumPy integer, a ``float`` where
fractions are allowed, or the text of a command-line option), and returns it as an ``int`` or
a ``float`` within its bounds, or raises a one-line :class:`~puzzlelib.PuzzleError` naming the
option, the bounds and what was given. It runs before anything is allocated: a depth, a count
or a limit is never handed to a kernel or to NumPy unchecked (numba's integers are 64-bit, and
an array sized by an absurd depth fails with a traceback far from the cause).

:func:`check_threads` is the one policy for thread and worker counts: more than the machine's
cores is a warning and the cores' count (a notebook written on a bigger machine still runs).

>>> check_number("12", "--max-depth", least=0, most=DEPTH_LIMIT)
12
>>> check_number(10**22, "max_depth", least=0, most=DEPTH_LIMIT)
Traceback (most recent call last):
...
puzzlelib.core.errors.PuzzleError: max_depth must be a whole number from 0 to 100,000, not 10000000000000000000000
"""

import math
import numbers
import os
import sys
import warnings

import numpy as np

from .errors import PuzzleError

#: The greatest search depth (moves) accepted: far beyond any shortest solution a search here
#: can reach, and small enough that a depth-first search's arrays for it are a few megabytes.
DEPTH_LIMIT = 100_000
#: The greatest count accepted where no smaller bound applies (numba's integers are 64-bit).
COUNT_LIMIT = 2**63 - 1
_SHOWN = 40  # characters of a rejected value shown in the message


def _shown(value):
    integer = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    text = str(int(value)) if integer else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


def _bounds(least, most, whole):
    kind = "a whole number" if whole else "a number"
    def fmt(v):
        return "2**63 - 1" if v == COUNT_LIMIT else f"{v:,}" if whole else f"{v:g}"

    if least is not None and most is not None:
        return f"{kind} from {fmt(least)} to {fmt(most)}"
    if least is not None:
        return f"{kind}, at least {fmt(least)}"
    if most is not None:
        return f"{kind}, at most {fmt(most)}"
    return kind


def check_number(value, name, *, least=0, most=COUNT_LIMIT, whole=True):
    """``value`` as an ``int`` (``whole``) or a ``float``, within ``least`` and ``most`` (either
    may be None: unbounded), or a one-line :class:`~puzzlelib.PuzzleError` naming ``name``.

    Accepted: ``int`` and NumPy integers (``bool`` is not a number here); with ``whole=False``
    also finite ``float``\\ s; and text (a command line's), read as such a number. Everything
    else (fractions where whole numbers are asked for, NaN, infinities, ``None``) is refused."""
    number = value
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            number = int(text)
        except ValueError:
            try:
                number = float(text) if not whole else None
            except ValueError:
                number = None
    if isinstance(number, bool) or not isinstance(number, numbers.Real):
        number = None
    elif isinstance(number, numbers.Integral):
        number = int(number)
    elif whole or not math.isfinite(float(number)):
        number = None
    else:
        number = float(number)
    if (number is None or (least is not None and number < least)
            or (most is not None and number > most)):
        raise PuzzleError(f"{name} must be {_bounds(least, most, whole)}, not {_shown(value)}")
    return number


def whole_numbers(values, what):
    """``values`` (a sequence of whole numbers, rows of them, or an array) as a flat list of
    ``int``, or a one-line :class:`~puzzlelib.PuzzleError` naming ``what``. Numbers written as
    text and floats without a fraction are read as whole numbers."""
    flat = np.asarray(values, dtype=object).ravel()  # (rows of unequal lengths: lists inside)
    out = []
    for x in flat:
        if isinstance(x, str) and x.strip().lstrip("-").isdigit():
            x = int(x)
        if isinstance(x, numbers.Real) and not isinstance(x, bool) and (
                isinstance(x, numbers.Integral) or float(x).is_integer()):
            out.append(int(x))
        else:
            raise PuzzleError(f"{what}: {_shown(x)} is not a whole number")
    return out


def cores():
    """The cores this process may run on (its CPU affinity where the system says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _caller_level():
    """The ``stacklevel`` of a warning that names the first caller outside this package."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("puzzlelib."):
        level, frame = level + 1, frame.f_back
    return level


def check_threads(value, name="threads", most=None):
    """A count of threads or workers: a whole number of at least 1 (a one-line
    :class:`~puzzlelib.PuzzleError` otherwise); above ``most`` (default: :func:`cores`) a
    ``UserWarning`` and ``most`` itself."""
    n = check_number(value, name, least=1, most=None)
    most = cores() if most is None else most
    if n > most:
        warnings.warn(f"{name}={n:,} is more than the {most} cores here: {most} used",
                      stacklevel=_caller_level())
        return most
    return n
