"""Every notebook executes top to bottom (small mode), through the reproduce command."""

import pytest

from puzzlelib import reproduce

BOOKS = reproduce.notebooks()


def test_there_are_notebooks():
    assert any(b.name.startswith("01_") for b in BOOKS)


@pytest.mark.parametrize("book", BOOKS, ids=[b.stem for b in BOOKS])
def test_notebook_executes_small(book, tmp_path):
    out = reproduce.run_notebook(book, tmp_path, small=True, timeout=900)
    assert out.exists()
    assert any((tmp_path / book.stem).glob("*.png")), "the notebook saved no figure"
    assert any((tmp_path / book.stem).glob("*.csv")), "the notebook saved no table"


def test_failure_names_notebook_and_cell(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("raise ValueError('boom')")]
    path = tmp_path / "99_broken.ipynb"
    nbformat.write(nb, path)
    seen = []
    with pytest.raises(reproduce.NotebookFailed, match=r"99_broken.ipynb: cell 1 failed(.|\n)*boom"):
        reproduce.run_notebook(path, tmp_path / "out", on_cell=lambda i, n: seen.append((i, n)))
    assert seen == [(0, 2), (1, 2)]  # the progress shown: each code cell as it starts
