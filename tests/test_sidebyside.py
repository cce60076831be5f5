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
    f.write("{side} " + os.environ["NUMBA_CACHE_DIR"] + "\\n")
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
    order = [line.split() for line in log.read_text().splitlines()]
    assert [side for side, _ in order] == ["before", "after", "after", "before", "before", "after"]
    assert len({cache for _, cache in order}) == 6  # a fresh numba cache for every process
    rows = list(csv.DictReader(open(out)))
    assert [(x["case"], x["threads"]) for x in rows] == [("bfs", "1"), ("bfs", "2")]
    assert float(rows[0]["seconds_ratio"]) == 0.5
    assert float(rows[1]["seconds_ratio"]) == 1.25
    assert float(rows[0]["python_ms_ratio"]) == 1.0
    assert "nodes_ratio" not in rows[0]  # counts are not times
    assert float(rows[0]["seconds_ratio_lo"]) == float(rows[0]["seconds_ratio_hi"]) == 0.5
    assert "seconds 2 -> 1 (0.500x, rounds 0.50-0.50)" in r.stdout


def test_warm_rounds_share_one_numba_cache_per_side(tmp_path):
    before = _tree(tmp_path, "before", 2.0, 4.0)
    after = _tree(tmp_path, "after", 1.0, 5.0)
    log = tmp_path / "order.log"
    r = subprocess.run(
        [sys.executable, "-m", "benchmarks.sidebyside", "--before", str(before),
         "--after", str(after), "--rounds", "2", "--warm", "fake"],
        cwd=ROOT, capture_output=True, text=True, env={**__import__("os").environ,
                                                       "ORDER_LOG": str(log)})
    assert r.returncode == 0, r.stderr
    order = [line.split() for line in log.read_text().splitlines()]
    # one unmeasured warm-up run of each side, then the rounds, each side on its own cache
    assert [side for side, _ in order] == ["before", "after", "before", "after", "after", "before"]
    caches = {side: {cache for s, cache in order if s == side} for side in ("before", "after")}
    assert len(caches["before"]) == len(caches["after"]) == 1
    assert caches["before"] != caches["after"]
    assert "warm-up: before" in r.stderr and "seconds 2 -> 1 (0.500x" in r.stdout


def test_a_tree_without_benchmarks_is_named(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "benchmarks.sidebyside", "--before", str(tmp_path), "8puzzle"],
        cwd=ROOT, capture_output=True, text=True)
    assert r.returncode != 0
    assert r.stderr.strip() == f"sidebyside: {tmp_path} has no benchmarks/ package"


# benchmarks/calls.py: the same two-tree alternation over whole solve calls, with stand-in
# puzzlelib packages of each API (0.1: solve(start, ...).seconds; 0.2: solve(puzzle, start,
# ...).stats.seconds and tune()), which log each call to check what was called in which order.

OLD_API = """
import os
__version__ = "0.1.0"
class _R:
    seconds = 0.001
def solve(start, method=None, all_solutions=False, threads=None):
    with open(os.environ["ORDER_LOG"], "a") as f:
        f.write(f"before {{method}} {{all_solutions}} {{threads}}\\n")
    return _R()
"""

NEW_API = """
import os, types
__version__ = "0.2.0"
def SlidingPuzzle(size):
    return size
def tune():
    with open(os.environ["ORDER_LOG"], "a") as f:
        f.write("after tune\\n")
def solve(puzzle, start, method=None, all_solutions=False, threads=None):
    assert puzzle == "3x3"
    with open(os.environ["ORDER_LOG"], "a") as f:
        f.write(f"after {{method}} {{all_solutions}} {{threads}}\\n")
    return types.SimpleNamespace(stats=types.SimpleNamespace(seconds=0.002))
"""


def _api_tree(tmp_path, side, text):
    (tmp_path / side / "puzzlelib").mkdir(parents=True)
    (tmp_path / side / "puzzlelib" / "__init__.py").write_text(textwrap.dedent(text.format()))
    return tmp_path / side


def test_calls_alternate_trees_and_call_each_api(tmp_path, monkeypatch):
    before = _api_tree(tmp_path, "before", OLD_API)
    after = _api_tree(tmp_path, "after", NEW_API)
    log, out = tmp_path / "order.log", tmp_path / "calls.csv"
    monkeypatch.setenv("ORDER_LOG", str(log))
    res = subprocess.run(
        [sys.executable, "-m", "benchmarks.calls", "--before", str(before), "--after", str(after),
         "--rounds", "2", "--cases", "idastar:1:2,bidir:all:1", "--tune", "--csv", str(out)],
        cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    calls = log.read_text().split("\n")[:-1]
    # round 1: before then after (tuned first); round 2: after then before; a warm-up call
    # before each case's timed calls; iddfs and idastar count every solution
    one_old = ["before idastar True 1"] * 3 + ["before bidir False None"] * 2
    one_new = ["after tune"] + [c.replace("before", "after") for c in one_old]
    assert calls == one_old + one_new + one_new + one_old
    rows = list(csv.DictReader(out.open()))
    assert [(r["round"], r["side"], r["case"]) for r in rows] == [
        ("1", "before", "idastar:1:2"), ("1", "before", "bidir:all:1"),
        ("1", "after", "idastar:1:2"), ("1", "after", "bidir:all:1"),
        ("2", "after", "idastar:1:2"), ("2", "after", "bidir:all:1"),
        ("2", "before", "idastar:1:2"), ("2", "before", "bidir:all:1")]
    assert {r["search_ms"] for r in rows if r["side"] == "before"} == {"1.0"}
    assert {r["search_ms"] for r in rows if r["side"] == "after"} == {"2.0"}
    assert "idastar:1:2: wall" in res.stdout and "search 1 -> 2 ms (2.000x)" in res.stdout


def test_database_build_rounds_compare_trees_and_their_tables(tmp_path):
    """``benchmarks korf --build-rounds``: each tree builds the partition's databases in a fresh
    process, in alternating order, and every table's digest must agree (here one tree twice)."""
    out = tmp_path / "builds.csv"
    res = subprocess.run([sys.executable, "-m", "benchmarks", "korf", "--build-rounds", "2",
                          "--pdb", "pdb555", "--before", str(ROOT), "--csv", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader(out.open()))
    assert [(r["round"], r["code"]) for r in rows[::3]] == [("1", "ours"), ("1", "before"),
                                                           ("2", "before"), ("2", "ours")]
    for g in "123":
        assert len({r["sha256_16"] for r in rows if r["group"] == g}) == 1
    assert {r["abstract_states"] for r in rows} == {"874080"}
    assert "tables equal in every run" in res.stdout


def test_time_columns_are_told_from_counts_and_rates():
    import sys as _sys
    _sys.path.insert(0, str(ROOT))
    from benchmarks.sidebyside import _is_time

    times = ["seconds", "kernel_ms", "compile_s", "build_seconds", "search_s_median",
             "wall_s_median", "median_s", "min_s"]
    others = ["positions", "nodes", "M_nodes_per_s", "threads", "s", "case"]
    assert [c for c in times + others if _is_time(c)] == times


def test_inprocess_copies_a_tree_under_its_own_name(tmp_path):
    """benchmarks/inprocess.py: the copy imports itself by its new name, the names it gives
    process-wide things (its stop word's symbols) are its own, and the rest is the tree's."""
    from benchmarks import inprocess

    tree = tmp_path / "tree"
    pkg = tree / "puzzlelib"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .core import x\n")
    (pkg / "core" / "__init__.py").write_text(
        'NAME = "puzzlelib_stop_reason"\nx = "puzzlelib.search." + "puzzlelib_x"\n'
        "# see puzzlelib.core and my_puzzlelib.core\n")
    (pkg / "core" / "__pycache__").mkdir()
    assert inprocess._copy(tree, "pl_before", tmp_path / "work") == "pl_before"
    text = (tmp_path / "work" / "pl_before" / "core" / "__init__.py").read_text()
    assert text == ('NAME = "pl_before_stop_reason"\nx = "pl_before.search." + "pl_before_x"\n'
                    "# see pl_before.core and my_puzzlelib.core\n")
    assert not (tmp_path / "work" / "pl_before" / "core" / "__pycache__").exists()


def test_inprocess_pairs_alternate_and_ratios_are_after_over_before(monkeypatch):
    from benchmarks import inprocess

    clock = [0.0]  # a clock the calls move on: 60 ms a call before, 120 after
    monkeypatch.setattr(inprocess.time, "perf_counter", lambda: clock[0])
    calls = []

    def call(side, seconds):
        calls.append(side)
        clock[0] += seconds

    tb, ta, ratios, reps = inprocess.compare(lambda: call("b", 0.06), lambda: call("a", 0.12), 4)
    import pytest

    assert reps == 1 and ratios == pytest.approx([2.0] * 4)
    assert tb == pytest.approx([0.06] * 4) and ta == pytest.approx([0.12] * 4)
    assert "".join(calls) == "b" + "ba" + "ab" + "ba" + "ab"  # (a first, untimed call)


def test_inprocess_refuses_unknown_workloads(capsys):
    import pytest

    from benchmarks import inprocess

    with pytest.raises(SystemExit) as e:
        inprocess.main(["--before", ".", "no-such-thing"])
    assert e.value.code == 2 and "unknown workload 'no-such-thing'" in capsys.readouterr().err
