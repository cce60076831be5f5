"""benchmarks/sidebyside.py: rounds alternate, rows match by label, ratios are after / before.

Two stand-in trees whose ``benchmarks`` suite writes a known CSV (and records the order it was
run in), so the comparison's arithmetic and its ordering are checked without timing anything.
"""

import csv
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SUITE = """
import csv, os, sys
args = sys.argv[1:]
out = args[args.index("--csv") + 1]
with open(os.environ["ORDER_LOG"], "a") as f:
    f.write("{side}\\n")
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "threads", "seconds", "nodes", "python_ms"])
    w.writerow(["bfs", 1, {t1}, 100, 50])
    w.writerow(["bfs", 2, {t2}, 100, 50])
"""


def _tree(tmp_path, side, t1, t2):
    tree = tmp_path / side
    (tree / "benchmarks").mkdir(parents=True)
    (tree / "benchmarks" / "__init__.py").write_text("")
    (tree / "benchmarks" / "__main__.py").write_text(
        textwrap.dedent(SUITE.format(side=side, t1=t1, t2=t2)))
    return tree


def test_rounds_alternate_and_ratios_are_after_over_before(tmp_path):
    before = _tree(tmp_path, "before", 2.0, 4.0)
    after = _tree(tmp_path, "after", 1.0, 5.0)
    log = tmp_path / "order.log"
    out = tmp_path / "cmp.csv"
    r = subprocess.run(
        [sys.executable, "-m", "benchmarks.sidebyside", "--before", str(before),
         "--after", str(after), "--rounds", "3", "--csv", str(out), "fake"],
        cwd=ROOT, capture_output=True, text=True, env={**__import__("os").environ,
                                                       "ORDER_LOG": str(log)})
    assert r.returncode == 0, r.stderr
    assert log.read_text().split() == ["before", "after", "after", "before", "before", "after"]
    rows = list(csv.DictReader(open(out)))
    assert [(x["case"], x["threads"]) for x in rows] == [("bfs", "1"), ("bfs", "2")]
    assert float(rows[0]["seconds_ratio"]) == 0.5
    assert float(rows[1]["seconds_ratio"]) == 1.25
    assert float(rows[0]["python_ms_ratio"]) == 1.0
    assert "nodes_ratio" not in rows[0]  # counts are not times
    assert "seconds 2 -> 1 (0.500x)" in r.stdout


def test_a_tree_without_benchmarks_is_named(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "benchmarks.sidebyside", "--before", str(tmp_path), "8puzzle"],
        cwd=ROOT, capture_output=True, text=True)
    assert r.returncode != 0
    assert r.stderr.strip() == f"sidebyside: {tmp_path} has no benchmarks/ package"
