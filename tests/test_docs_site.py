"""The documentation site (``make docs``) builds with warnings as errors, and holds the API
reference, the contract, every notebook rendered from its saved outputs, and docs/scale.md."""

import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*.ipynb"))
TOOLS = ("sphinx", "myst_nb", "furo")


def test_the_test_extra_brings_the_doc_tools():
    """``make test`` installs the ``test`` extra: it has every tool the site needs."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0] for r in extras["test"]}
    assert set(extras["docs"]) <= set(extras["test"])
    assert {"sphinx", "myst-nb", "furo"} <= names


def _build(out):
    for tool in TOOLS:
        pytest.importorskip(tool, reason=f"{tool} is not installed (pip install -e '.[docs]')")
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
                          "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    assert time.perf_counter() - t0 < 300
    return out / "html"


def test_the_site_builds_with_every_part(tmp_path):
    """One build (``-W``: any warning fails it), then each part of the site. One test, so that
    pytest-xdist's workers never build it twice."""
    site = _build(tmp_path)
    _index_links_every_part(site)
    _api_reference_comes_from_the_docstrings(site)
    _contract_page(site)
    _every_notebook_is_rendered_from_its_saved_outputs(site)
    _scale_notes_are_a_page(site)


def _page(site, name):
    path = site / name
    assert path.is_file(), f"the site has no {name}"
    return path.read_text(encoding="utf-8")


def _index_links_every_part(site):
    index = _page(site, "index.html")
    for target in ("api/index.html", "contract.html", "notebooks.html", "scale.html"):
        assert f'href="{target}' in index, target
    assert "puzzlelib-search" in index  # how to install it


def _api_reference_comes_from_the_docstrings(site):
    top = _page(site, "api/puzzlelib.html")
    for name in ("solve", "layers", "solve_many", "pattern_databases", "Result", "Stats",
                 "PuzzleError", "SearchLimitError"):
        assert f'id="puzzlelib.{name}"' in top, name
    puzzles = _page(site, "api/puzzles.html")
    for name in ("Puzzle", "SlidingPuzzle", "RotationPuzzle", "BlockPuzzle", "PermutationPuzzle",
                 "PancakePuzzle", "TopSpin", "PocketCube"):
        assert f'id="puzzlelib.{name}"' in puzzles, name
    assert 'id="puzzlelib.pdb.databases"' in _page(site, "api/pdb.html")
    assert 'id="puzzlelib.teaching.search.idastar"' in _page(site, "api/teaching.html")
    assert 'id="puzzlelib.search.layered.layered_bfs"' in _page(site, "api/search.html")


def _contract_page(site):
    contract = _page(site, "contract.html")
    for name in ("DomainFns", "FrontierFns", "CursorFns", "KeyFns", "WordFns", "ILLEGAL"):
        assert f'id="puzzlelib.core.contract.{name}"' in contract, name
    assert "rank_after" in contract


def _every_notebook_is_rendered_from_its_saved_outputs(site):
    listing = _page(site, "notebooks.html")
    assert NOTEBOOKS, "no notebooks found"
    for name in NOTEBOOKS:
        assert f"notebooks/{name}.html" in listing, name
        page = _page(site, f"notebooks/{name}.html")
        assert 'class="cell_output' in page, f"{name}: no saved output shown"
        assert "<img" in page, f"{name}: no figure shown"
        # the widgets need a kernel: their plain-text line, no script from elsewhere
        assert "jupyter-widgets" not in page and "require.min.js" not in page, name


def _scale_notes_are_a_page(site):
    assert "Tables beyond memory" in _page(site, "scale.html")


def test_the_site_pages_hold_no_dated_measurements():
    """Dated figures live in benchmarks/RESULTS.md, not in the site's prose."""
    pages = [p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".rst")
             and "_build" not in p.parts and "notebooks" not in p.parts]
    assert any(p.name == "scale.md" for p in pages)
    dated = [f"{p.relative_to(ROOT)}:{i}" for p in pages
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"20\d\d-\d\d-\d\d", line)]
    assert not dated, f"dated notes (they belong in benchmarks/RESULTS.md): {dated}"
