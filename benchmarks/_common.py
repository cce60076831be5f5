"""Helpers the benchmark suites share."""

import csv
import os
import statistics
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def write_csv(path, header, rows):
    """Write ``rows`` under ``header``; ``None`` becomes an empty cell."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(["" if x is None else x for x in r])


def data_rows(name):
    """The rows of ``data/<name>`` (a CSV file), as dicts."""
    with open(DATA / name) as f:
        return list(csv.DictReader(f))


def trees_compared(before):
    """``{"ours": this checkout}``, and ``"before"``: the tree ``before`` where given."""
    trees = {"ours": str(Path(__file__).resolve().parent.parent)}
    if before:
        trees["before"] = os.path.abspath(before)
    return trees


def run_in_tree(tree, args, numba_cache):
    """The standard output of ``python ARGS`` in a fresh process that imports ``tree``'s
    package, with its own numba cache."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=numba_cache)
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, check=True,
                          capture_output=True, text=True).stdout


def spread(times, digits=3):
    """The median of ``times`` and their range as words: ``(median, "runs a-b")``."""
    return statistics.median(times), f"runs {min(times):.{digits}f}-{max(times):.{digits}f}"
