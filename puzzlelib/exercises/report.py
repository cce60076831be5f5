"""What a check returns: a :class:`Report` per exercise, and :class:`Reports` for a file.

Both print as plain text (``print(report)``) and show as HTML in Jupyter.
"""

import html
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
    :data:`~puzzlelib.exercises.grader.EXERCISES`."""

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
