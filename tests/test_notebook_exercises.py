"""Notebook 08, the exercises: run top to bottom with the teacher's reference answers
(``tests/exercises/reference.py``) written into its blanks, every exercise passes in its last
cell, and the solutions shown are the student's own. (Left blank, as committed, it runs without
an error and says "not written yet": ``test_notebooks.py``.)"""

import ast
import inspect
import re

import nbformat

from puzzlelib import reproduce
from puzzlelib.exercises import EXERCISES
from puzzlelib.exercises.searches import SEARCHES

from .exercises import reference
from .test_notebooks import BOOKS

NAME = "08_exercises"
SOURCE = inspect.getsource(reference)


def answers(names):
    """The reference answers ``names`` as one cell's source: reference.py's imports, then the
    functions and what they use of the file (helpers, constants), in the file's order."""
    tree = ast.parse(SOURCE)
    defined = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined[node.name] = node
        elif isinstance(node, ast.Assign):
            defined.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
    wanted, todo = [], list(names)
    while todo:
        node = defined[todo.pop()]
        if any(node is w for w in wanted):
            continue
        wanted.append(node)
        todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in defined]
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    parts = [n for n in tree.body if any(n is w for w in wanted)]
    return "\n\n\n".join(["\n".join(ast.get_source_segment(SOURCE, n) for n in imports)]
                          + [ast.get_source_segment(SOURCE, n) for n in parts])


def student_cells(nb):
    """The cells the student writes in (tagged ``exercise``): index -> the exercise's name."""
    out = {}
    for i, cell in enumerate(nb.cells):
        if "exercise" in cell.metadata.get("tags", []):
            names = {n.name for n in ast.parse(cell.source).body
                     if isinstance(n, ast.FunctionDef)}
            [exercise] = [e for e, spec in EXERCISES.items() if set(spec.names) == names]
            out[i] = exercise
    return out


def test_every_exercise_has_a_blank_a_check_and_hints():
    nb = nbformat.read(BOOKS[NAME], as_version=4)
    cells = student_cells(nb)
    assert sorted(cells.values()) == sorted(EXERCISES)
    for i, exercise in cells.items():
        assert nb.cells[i].source.count("raise NotImplementedError") == len(
            EXERCISES[exercise].names)
        if exercise in SEARCHES:  # the lesson says on how many starts the grader runs it
            lesson = next(c.source for c in reversed(nb.cells[:i]) if c.cell_type == "markdown")
            starts = sum(len(depths) for _, *depths in SEARCHES[exercise].starts)
            assert f"on {starts} starts" in lesson, exercise
        assert f'check("{exercise}", ' in nb.cells[i + 1].source
        hints = nb.cells[i + 2]
        assert hints.cell_type == "markdown"
        assert 1 <= hints.source.count("<details><summary>Hint") <= 3
    last = nb.cells[-1]
    assert last.cell_type == "code" and "for name, exercise in EXERCISES.items()" in last.source


def _grades(cell):
    """The last cell's table: exercise -> "yes" or "no"."""
    html = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)
    return dict(re.findall(r"<tr><td>(\w+)</td><td>(yes|no)</td>", html))


def _text(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")


def test_the_reference_answers_pass_every_exercise_in_the_notebook(tmp_path):
    nb = nbformat.read(BOOKS[NAME], as_version=4)
    for i, exercise in student_cells(nb).items():
        nb.cells[i].source = answers(EXERCISES[exercise].names)
        nb.cells[i].outputs = []
    path = tmp_path / f"{NAME}.ipynb"
    nbformat.write(nb, path)
    ran = nbformat.read(reproduce.run_notebook(path, tmp_path / "out", small=True, timeout=600),
                        as_version=4)
    errors = [o for c in ran.cells if c.cell_type == "code" for o in c.outputs
              if o.get("output_type") == "error"]
    assert not errors
    assert _grades(ran.cells[-1]) == {name: "yes" for name in EXERCISES}
    assert f"{len(EXERCISES)} of {len(EXERCISES)} exercises passed" in _text(ran.cells[-1])
    shown = "".join(_text(c) for c in ran.cells if c.cell_type == "code")
    assert "your bfs: 12 moves" in shown  # the student's solution played, not the kernel's
    assert "A* with yours: 20 moves" in shown
    assert "not written yet" not in str([c.outputs for c in ran.cells if c.cell_type == "code"])
