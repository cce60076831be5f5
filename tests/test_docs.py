"""The README and the docstrings: their examples run, the README stays a user's page, and the
package's comments hold no dated measurements (those live in benchmarks/RESULTS.md)."""

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "puzzlelib"
README = ROOT / "README.md"


def test_readme_examples_run():
    failed, attempted = doctest.testfile(str(README), module_relative=False)
    assert attempted >= 15 and failed == 0


MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in PACKAGE.rglob("*.py") if p.name != "__main__.py"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module)
    assert failed == 0


def test_some_docstrings_have_examples():
    finder = doctest.DocTestFinder()
    with_examples = [name for name in MODULES
                     if any(t.examples for t in finder.find(importlib.import_module(name)))]
    assert {"puzzlelib", "puzzlelib.api", "puzzlelib.instances"} <= set(with_examples)


def test_readme_is_a_page_for_users():
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    assert "../" not in text, "the README points outside the repository"
    assert not re.search(r"20\d\d-\d\d-\d\d", text), "dated measurements go to RESULTS.md"
    for heading in ("## Install", "## Command line", "## Notebooks", "## Algorithms",
                    "## Headline results", "## Layout"):
        assert heading in text


def test_the_layout_names_every_module():
    """A newcomer finds the file that owns a change from the README's layout section: every
    module of the package is named there."""
    text = README.read_text()
    layout = text[text.index("## Layout"):]
    missing = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if p.name not in ("__init__.py", "__main__.py") and p.name not in layout]
    assert not missing, f"modules the README's layout does not name: {missing}"


def test_no_dated_notes_in_docstrings_or_comments():
    dated = [f"{p.relative_to(ROOT)}:{i}" for p in PACKAGE.rglob("*.py")
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"20\d\d-\d\d-\d\d", line)]
    assert not dated, f"dated notes (they belong in benchmarks/RESULTS.md): {dated}"


def test_results_and_changelog_exist_and_are_linked():
    text = README.read_text()
    assert (ROOT / "benchmarks" / "RESULTS.md").exists() and "benchmarks/RESULTS.md" in text
    assert (ROOT / "CHANGELOG.md").exists() and "CHANGELOG.md" in text
