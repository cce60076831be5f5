"""Helpers the benchmark suites share."""

import csv
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
