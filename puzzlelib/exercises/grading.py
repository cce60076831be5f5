"""The grading core: what a check returns (:class:`Report`, :class:`Reports` for a file), and
running a student's function without letting it stop the grader (a time limit, and what an
exception says).

Reports print as plain text (``print(report)``) and show as HTML in Jupyter.

:func:`run_limited` runs a function in a worker thread and waits at most the time left. A
function still running then is stopped by raising :class:`TimeUp` inside its thread (between
two of its Python instructions); it and :class:`Stop` are subclasses of ``BaseException``, so
a student's ``except Exception`` does not swallow them. :func:`describe` turns an exception
into one line with its type, message and the student's own line (the last frame of the
traceback in one of the student's files).
"""

import ctypes
import html
import os
import threading
import time
import traceback
from dataclasses import dataclass, field


@dataclass
class Report:
    """One exercise graded. ``passed``: every check passed; ``score``: the share of checks
    passed, 0 to 1; ``feedback``: lines for the student, the first one the most telling (the
    first failing instance, or what passed); ``seconds``: the grading's time."""

    name: str
    passed: bool
    score: float
    feedback: list = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self):
        return {"name": self.name, "passed": self.passed, "score": round(self.score, 4),
                "feedback": list(self.feedback)}

    def __str__(self):
        head = f"{self.name}: {'passed' if self.passed else 'not passed'} (score {self.score:.2f})"
        return "\n".join([head] + [f"  {line}" for line in self.feedback])

    def _repr_html_(self):
        colour = "#1a7f37" if self.passed else "#cf222e"
        verdict = "passed" if self.passed else "not passed"
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.feedback)
        return (f"<div><b>{html.escape(self.name)}</b>: <span style='color:{colour}'>"
                f"<b>{verdict}</b></span> (score {self.score:.2f})<ul>{items}</ul></div>")


class Reports(list):
    """The reports of every exercise found in a file, in the order of
    :data:`~puzzlelib.exercises.api.EXERCISES`."""

    @property
    def passed(self):
        return all(r.passed for r in self)

    def to_dict(self):
        return {"exercises": [r.to_dict() for r in self]}

    def rows(self):
        return [(r.name, "yes" if r.passed else "no", f"{r.score:.2f}",
                 r.feedback[0] if r.feedback else "") for r in self]

    def __str__(self):
        rows = [("exercise", "passed", "score", "feedback")] + self.rows()
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths))
                         + "  " + row[3] for row in rows)

    def _repr_html_(self):
        head = "".join(f"<th>{h}</th>" for h in ("exercise", "passed", "score", "feedback"))
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row in self.rows())
        return f"<table><tr>{head}</tr>{body}</table>"


class TimeUp(BaseException):
    """Raised inside a student's function that ran past its time limit."""


class Stop(BaseException):
    """Raised by the grader's instrumented problem to stop a student's search at once (a
    rule broken, or too many positions generated); ``reason`` says which."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    """What one call did: ``value`` (when it returned), ``error`` (the exception it raised),
    ``timed_out``, and its ``seconds``."""

    value: object = None
    error: BaseException = None
    timed_out: bool = False
    seconds: float = 0.0

    @property
    def returned(self):
        return self.error is None and not self.timed_out


def _raise_in(thread, exc_type):
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                               ctypes.py_object(exc_type))


def run_limited(fn, seconds):
    """Call ``fn()`` in a worker thread; give up after ``seconds``. Never raises: returns an
    :class:`Outcome`. A function that swallows :class:`TimeUp` is asked again for a second,
    then left to itself (its thread is a daemon)."""
    box = {}

    def target():
        try:
            try:
                box["value"] = fn()
            except BaseException as e:  # noqa: B902 - everything the student's code raises
                box["error"] = e
            box["done"] = True
        except TimeUp:  # one that came as fn returned
            box["done"] = True

    t0 = time.perf_counter()
    thread = threading.Thread(target=target, name="puzzlelib-exercise", daemon=True)
    thread.start()
    thread.join(max(0.0, seconds))
    timed_out = thread.is_alive()
    if timed_out:
        for _ in range(20):
            if box.get("done"):
                break
            _raise_in(thread, TimeUp)
            thread.join(0.05)
            if not thread.is_alive():
                break
    seconds = time.perf_counter() - t0
    error = box.get("error")
    if (timed_out and "value" not in box) or isinstance(error, TimeUp):
        return Outcome(timed_out=True, seconds=seconds)
    return Outcome(box.get("value"), error, False, seconds)


def student_frame(exc, files):
    """The last frame of ``exc``'s traceback in one of ``files`` (a
    :class:`traceback.FrameSummary`), or None."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in files]
    return frames[-1] if frames else None


def describe(exc, files):
    """``"KeyError: 'x' (line 12 of answers.py: parent[state])"``: the exception's type,
    message and the student's line."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frame = student_frame(exc, files)
    if frame is not None:
        where = f"line {frame.lineno} of {os.path.basename(frame.filename)}"
        text += f" ({where}: {frame.line})" if frame.line else f" ({where})"
    return text


def source_files(functions):
    """The files the student's functions were written in (their code objects' files)."""
    out = set()
    for f in functions:
        code = getattr(f, "__code__", None) or getattr(getattr(f, "__call__", None), "__code__",
                                                       None)
        if code is not None:
            out.add(code.co_filename)
    return out


class NotWritten(Exception):
    """A student's function raised NotImplementedError: not written yet."""


class Trial:
    """One exercise's runs of a student's functions: ``time_limit`` seconds for all of them
    together (the grader's own work between them not counted), and the student's files."""

    def __init__(self, name, functions, time_limit):
        self.name = name
        self.time_limit = time_limit
        self.used = 0.0
        self.files = source_files(functions)
        self.timed_out = False

    def run(self, fn):
        """``fn()`` within the time left: an :class:`Outcome`. Raises :class:`NotWritten`
        when the student's code raised NotImplementedError."""
        out = run_limited(fn, self.time_limit - self.used)
        self.used += out.seconds
        self.timed_out = self.timed_out or out.timed_out
        if isinstance(out.error, NotImplementedError) and student_frame(out.error, self.files):
            raise NotWritten(self.name)
        return out

    def problem_line(self, out, label):
        """The feedback line for a run on ``label`` (what it ran on) that timed out, raised,
        or was stopped; None for one that returned."""
        if out.timed_out:
            return (f"did not return within the time limit ({self.limit_text()} for the whole "
                    f"exercise) on the {label}: does it loop?")
        if isinstance(out.error, Stop):
            return f"{label}: {out.error.reason}"
        if out.error is not None:
            return f"raised {describe(out.error, self.files)} on the {label}"
        return None

    def limit_text(self):
        return f"{self.time_limit:g} s"
