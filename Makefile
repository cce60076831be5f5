# Two commands matter (see README.md):
#   make reproduce   execute every notebook in notebooks/, results in results/
#   make test        run the whole test suite
# and make docs builds the documentation site into docs/_build/html (warnings are errors).
# Each creates .venv and installs the package from pyproject.toml first.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test reproduce reproduce-small notebooks bench docs venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# (one test process per core: most of the suite's time is numba compiling, on one core each)
test: $(STAMP)
	$(PY) -m pytest -n auto --dist worksteal

# Execute every notebook (full size) into results/; first compile (or load) the kernels of the
# README's examples and the first lesson into the package's cache, on every core.
reproduce: $(STAMP)
	$(PY) -m puzzlelib warm
	$(PY) -m puzzlelib.reproduce

# The same at small size (what CI runs inside the test suite).
reproduce-small: $(STAMP)
	$(PY) -m puzzlelib.reproduce --small

# Execute every notebook and write it back into notebooks/ with its outputs (for committing).
notebooks: $(STAMP)
	$(PY) -m puzzlelib warm
	$(PY) -m puzzlelib.reproduce --inplace

bench: $(STAMP)
	$(PY) -m benchmarks

# The site: API reference from the docstrings, the contract, the notebooks as saved (none is
# run), docs/scale.md. tests/test_docs_site.py builds it too.
docs: $(STAMP)
	$(PY) -m sphinx -b html -W --keep-going -q docs docs/_build/html

clean:
	rm -rf $(VENV) results .pytest_cache docs/_build docs/notebooks
