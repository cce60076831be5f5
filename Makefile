# Two commands matter (see README.md):
#   make reproduce   execute every notebook in notebooks/, results in results/
#   make test        run the whole test suite
# Each creates .venv and installs the package from pyproject.toml first.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test reproduce reproduce-small notebooks bench venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# (one test process per core: most of the suite's time is numba compiling, on one core each)
test: $(STAMP)
	$(PY) -m pytest -n auto --dist worksteal

# Execute every notebook (full size) into results/.
reproduce: $(STAMP)
	$(PY) -m puzzlelib.reproduce

# The same at small size (what CI runs inside the test suite).
reproduce-small: $(STAMP)
	$(PY) -m puzzlelib.reproduce --small

# Execute every notebook and write it back into notebooks/ with its outputs (for committing).
notebooks: $(STAMP)
	$(PY) -m puzzlelib.reproduce --inplace

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) results .pytest_cache
