"""Helpers the benchmark suites share."""

import csv


def write_csv(path, header, rows):
    """Write ``rows`` under ``header``; ``None`` becomes an empty cell."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(["" if x is None else x for x in r])
