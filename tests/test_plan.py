"""The planner (puzzlelib/plan.py): the plan names the kernel that runs, ``explain=True`` searches
nothing, and ``--explain`` prints the plan."""

import json
import os
import subprocess
import sys
import time

import pytest

import puzzlelib
from puzzlelib import (CLASSIC, BlockPuzzle, PancakePuzzle, PuzzleError, SlidingPuzzle, TopSpin,
                       layers, solve, solve_many)
from puzzlelib.plan import Plan

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHT = "8 6 7 2 5 4 3 0 1"
#: Every kernel a plan may name (module, function).
KERNELS = [("layered", "layered_bfs"), ("bidirectional", "bidirectional"),
           ("idastar", "iterative_deepening"), ("idastar", "deepen_many"), ("astar", "astar"),
           ("wordbfs", "word_bfs"), ("wordbfs", "word_solve"), ("frontier", "frontier_bfs"),
           ("packed", "run_packed"), ("gpu", "bfs_bytes"), ("gpu", "bfs_packed"),
           ("distributed", "dask_bfs")]


def _module(name):
    return __import__(f"puzzlelib.search.{name}", fromlist=[name])


@pytest.fixture
def spies(monkeypatch):
    """Every kernel wrapped: ``calls`` lists the module-qualified name and keywords of each call
    made through the module (as the API makes them)."""
    calls = []
    for mod, fn in KERNELS:
        module = _module(mod)
        real = getattr(module, fn)

        def spy(*a, _real=real, _name=f"puzzlelib.search.{mod}.{fn}", **kw):
            calls.append((_name, kw))
            return _real(*a, **kw)

        monkeypatch.setattr(module, fn, spy)
    return calls


@pytest.fixture
def nothing_runs(monkeypatch):
    """Every kernel, database build and table allocation made to fail the test if called."""
    def refuse(*a, **kw):
        raise AssertionError("explain=True ran something")

    for mod, fn in KERNELS:
        monkeypatch.setattr(_module(mod), fn, refuse)
    monkeypatch.setattr(puzzlelib.pdb, "guide", refuse)
    monkeypatch.setattr(puzzlelib.pdb.sliding, "pattern_database", refuse)
    monkeypatch.setattr(puzzlelib.pdb.permutation, "pattern_database", refuse)
    monkeypatch.setattr(puzzlelib.pdb.blocks, "block_pdbs", refuse)
    monkeypatch.setattr(puzzlelib.api, "_typed", refuse)


def _ran(plan, calls):
    """The one kernel the search called (its keywords), checked to be the plan's."""
    assert [name for name, _ in calls] == [plan.kernel]
    return calls[0][1]


@pytest.mark.parametrize("method, kernel, variant, table", [
    ("bfs", "layered.layered_bfs", "lists", "bytes"),
    ("bidir", "bidirectional.bidirectional", "keys", "keys"),
    ("iddfs", "idastar.iterative_deepening", "cursor loop, one thread", "none"),
    ("idastar", "idastar.iterative_deepening", "cursor loop, one thread", "none"),
    ("astar", "astar.astar", "f = g + h", "states"),
])
def test_eight_puzzle_plans_name_the_kernel_that_runs(spies, method, kernel, variant, table):
    eight = SlidingPuzzle("3x3")
    plan = solve(eight, EIGHT, method=method, threads=1, explain=True)
    assert isinstance(plan, Plan) and plan.method == method
    assert (plan.kernel, plan.variant, plan.table) == ("puzzlelib.search." + kernel, variant,
                                                       table)
    assert spies == []  # nothing ran
    res = solve(eight, EIGHT, method=method, threads=1)
    kw = _ran(plan, spies)
    assert res.length == 31 and res.method == method and res.threads == plan.threads == 1
    if method == "bidir":
        assert kw["variant"] == plan.variant
    if method == "bfs":
        assert kw["kernel"] == plan.variant and plan.memory_bytes == eight.n_ranks == 181_440
    if method in ("iddfs", "idastar"):
        assert kw["cfns"] is not None and kw["parallel"] is False
        assert plan.prune == res.extra["prune"] == "cycles"


def test_threads_in_the_plan_are_those_the_search_uses(spies):
    eight = SlidingPuzzle("3x3")
    plan = solve(eight, EIGHT, method="idastar", threads=2, explain=True)
    res = solve(eight, EIGHT, method="idastar", threads=2)
    assert _ran(plan, spies)["parallel"] is (plan.threads > 1)
    assert res.threads == plan.threads
    plan = solve(eight, EIGHT, method="idastar", threads=1, prune="parent", order="ulrd",
                 explain=True)
    assert (plan.threads, plan.prune, plan.order) == (1, "parent", "ulrd")
    assert "plain loop" in plan.variant  # a move order lists moves by number: no cursor


def test_bidir_plans_tables_or_states_as_the_memory_allows(spies, monkeypatch):
    multi = SlidingPuzzle(5, 4, goal=[1] * 10 + [2] * 9 + [0])  # 20 cells: no 64-bit keys
    start = "1 1 1 1 1 1 0 1 1 1 1 2 2 2 2 2 2 2 2 2"
    plan = solve(multi, start, method="bidir", explain=True)
    assert (plan.variant, plan.table, plan.memory_bytes) == ("table", "bytes", 2 * 1_847_560)
    res = solve(multi, start, method="bidir")
    assert _ran(plan, spies)["variant"] == "table"
    spies.clear()
    monkeypatch.setattr(puzzlelib.plan, "BIDIR_TABLE_MAX_RANKS", 1_000_000)  # too many for tables
    plan2 = solve(multi, start, method="bidir", explain=True)
    assert (plan2.variant, plan2.table, plan2.memory_bytes) == ("states", "states", None)
    assert solve(multi, start, method="bidir").length == res.length
    assert _ran(plan2, spies)["variant"] == "states"


def test_fifteen_puzzle_astar_with_databases_names_and_builds_them(spies, tmp_path,
                                                                   monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    monkeypatch.setattr(puzzlelib.pdb.sliding, "_MEMORY", {})  # (none built by other tests)
    fifteen = SlidingPuzzle("4x4")
    start = "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12"
    plan = solve(fifteen, start, method="astar", heuristic="pdb555", explain=True)
    assert plan.kernel == "puzzlelib.search.astar.astar" and plan.heuristic == "pdb555"
    assert [d["source"] for d in plan.databases] == ["build"] * 3
    assert [d["entries"] for d in plan.databases] == [16 * 15 * 14 * 13 * 12] * 3
    assert "not cached" in str(plan) and str(plan).count("(to build)") == 3
    assert not any(tmp_path.rglob("*.pdb"))  # explaining built nothing
    res = solve(fifteen, start, method="astar", heuristic="pdb555", progress=False)
    _ran(plan, [c for c in spies if c[0] != "puzzlelib.search.layered.layered_bfs"])
    assert res.length == 9 and res.extra["heuristic"] == "pdb555"
    again = solve(fifteen, start, method="astar", heuristic="pdb555", explain=True)
    assert [d["source"] for d in again.databases] == ["memory"] * 3


def test_layers_plans_packed_when_bytes_do_not_fit(spies, monkeypatch):
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    plan = layers(puz, start, explain=True)
    assert (plan.kernel, plan.table) == ("puzzlelib.search.layered.layered_bfs", "bytes")
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(3 << 19))  # 80% of 1.5 MiB: bytes do not fit
    plan = layers(puz, start, threads=1, explain=True)
    assert (plan.kernel, plan.table, plan.variant) == (
        "puzzlelib.search.packed.run_packed", "packed", "nothing saved")
    assert plan.memory_bytes == puzzlelib.search.packed.packed_bytes(1_814_400)
    assert any("does not fit" in w for w in plan.why)
    res = layers(puz, start, threads=1)
    _ran(plan, spies)
    assert res.extra["table"] == "packed" and res.total == 1_814_400


def test_pancake_with_the_gap_heuristic(spies):
    pancake = PancakePuzzle(8)
    plan = solve(pancake, "3 1 5 2 8 6 4 7", threads=1, explain=True)
    assert (plan.method, plan.heuristic, plan.prune) == ("idastar", "gap", "parent")
    assert plan.kernel == "puzzlelib.search.idastar.iterative_deepening"
    res = solve(pancake, "3 1 5 2 8 6 4 7", threads=1)
    _ran(plan, spies)
    assert res.moves == [3, 5, 8, 7, 2, 5, 6, 4] and res.extra["heuristic"] == "gap"


def test_block_puzzle_plans(spies):
    classic = BlockPuzzle(CLASSIC, metric="path")
    plan = solve(classic, explain=True)
    assert (plan.kernel, plan.table) == ("puzzlelib.search.wordbfs.word_solve", "keys")
    assert solve(classic).length == 81
    _ran(plan, spies)
    spies.clear()
    plan = layers(classic, explain=True)
    assert (plan.kernel, plan.threads) == ("puzzlelib.search.wordbfs.word_bfs", 1)
    assert layers(classic).total == 25955
    _ran(plan, spies)
    spies.clear()
    plan = solve(classic, method="idastar", heuristic="8-1-2-f", explain=True)
    assert plan.kernel == "puzzlelib.search.idastar.iterative_deepening"
    assert plan.variant.startswith("candidate moves") and plan.threads == 1
    assert [d["name"] for d in plan.databases] == ["8-1-2-f"]


def test_solve_many_plans_a_batch_or_each_start(spies):
    fifteen = SlidingPuzzle("4x4")
    starts = ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15"]
    plan = solve_many(fifteen, starts, threads=1, explain=True)
    assert plan.call == "solve_many" and plan.kernel == "puzzlelib.search.idastar.deepen_many"
    batch = solve_many(fifteen, starts, threads=1)
    _ran(plan, spies)
    assert [r.length for r in batch] == [1, 3]
    spies.clear()
    plan = solve_many(fifteen, starts, method="astar", explain=True)
    assert plan.kernel == "puzzlelib.search.astar.astar"
    assert plan.why[0].startswith("each start solved in turn")
    solve_many(fifteen, starts, method="astar")
    assert [n for n, _ in spies] == [plan.kernel] * 2


def test_explain_searches_nothing(nothing_runs, tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(1 << 40))  # (the 2x7 board's packed table)
    monkeypatch.setattr(puzzlelib.pdb.permutation, "_MEMORY", {})  # (none built by other tests)
    monkeypatch.setattr(puzzlelib.domains.cycles, "_MADE", {})  # (nor the move automaton)
    t0 = time.perf_counter()
    plans = [
        solve(SlidingPuzzle("3x3"), EIGHT, method=m, explain=True)
        for m in ("bfs", "bidir", "iddfs", "idastar", "astar", "greedy")
    ] + [
        solve(SlidingPuzzle("4x4"), "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
              heuristic="pdb78", explain=True),
        solve(SlidingPuzzle("5x5"), " ".join(map(str, range(1, 25))) + " 0",
              heuristic="pdb6666", explain=True),
        layers(SlidingPuzzle("4x4"), "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0", explain=True),
        layers(SlidingPuzzle("2x7"), " ".join(map(str, range(1, 14))) + " 0",
               table="packed", explain=True),
        solve_many(SlidingPuzzle("4x4"), ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"],
                   explain=True),
        solve(TopSpin("8,4"), "4 3 2 1 8 7 6 5", heuristic="pdb", cache=False, explain=True),
    ]
    assert time.perf_counter() - t0 < 20
    assert not any(tmp_path.rglob("*"))  # no database, no saved layers
    pdb78 = plans[6]
    assert pdb78.memory_bytes > 16 * 15 * 14 * 13 * 12 * 11 * 10 * 9  # the 8-tile database
    two_by_seven = plans[9]
    assert two_by_seven.memory_bytes == puzzlelib.search.packed.packed_bytes(
        43_589_145_600) and two_by_seven.variant == "every layer saved"
    topspin = plans[-1]
    assert topspin.databases and all(d["source"] == "build" for d in topspin.databases)
    assert topspin.databases[0]["name"].startswith("pieces ")
    for plan in plans:
        d = plan.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert str(plan).splitlines()[0].split()[:2] == ["kernel", plan.kernel]


def test_errors_are_the_same_when_explaining(monkeypatch):
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(1 << 19))
    for explain in (False, True):
        with pytest.raises(PuzzleError, match=r"needs 1\.7 MiB of memory, packed 664\.5 KiB"):
            layers(SlidingPuzzle("2x5"), "1 2 3 4 5 6 7 8 9 0", explain=explain)
        with pytest.raises(PuzzleError, match="method bfs uses no heuristic"):
            solve(SlidingPuzzle("3x3"), EIGHT, method="bfs", heuristic="manhattan",
                  explain=explain)
        with pytest.raises(PuzzleError, match="pdb78 is a partition of the 4x4 board"):
            solve(SlidingPuzzle("3x3"), EIGHT, heuristic="pdb78", explain=explain)


def test_cuda_backend_chosen_or_refused(spies):
    pz = SlidingPuzzle("2x3")
    plan = layers(pz, "1 2 0 4 5 3", backend="cuda", explain=True)
    assert (plan.backend, plan.kernel, plan.table) == ("cuda", "puzzlelib.search.gpu.bfs_bytes",
                                                       "bytes")
    plan = layers(pz, "1 2 0 4 5 3", backend="cuda", table="packed", explain=True)
    assert plan.kernel == "puzzlelib.search.gpu.bfs_packed"
    res = layers(pz, "1 2 0 4 5 3", backend="cuda", table="packed")
    _ran(plan, spies)
    assert res.extra["backend"] == "cuda" and res.total == 360
    with pytest.raises(PuzzleError, match="backend 'cuda' needs a perfect hash"):
        layers(BlockPuzzle(CLASSIC), backend="cuda", explain=True)
    with pytest.raises(PuzzleError, match="method idastar without a pattern database runs on"):
        solve(SlidingPuzzle("3x3"), EIGHT, backend="cuda", explain=True)


class _FakeClient:
    """What the planner asks of a Dask client: its workers (through worker_addresses)."""


def test_dask_backend_chosen_or_refused(monkeypatch):
    from puzzlelib.search import distributed

    monkeypatch.setattr(distributed, "worker_addresses",
                        lambda client: [("tcp://a", 1 << 30), ("tcp://b", 1 << 30)])
    monkeypatch.setattr(distributed, "worker_threads", lambda client: 2)
    plan = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", client=_FakeClient(),
                  explain=True)
    assert (plan.backend, plan.kernel, plan.threads) == (
        "dask", "puzzlelib.search.distributed.dask_bfs", 2)
    assert plan.table == "packed" and plan.memory_bytes == 68_040
    monkeypatch.setattr(distributed, "worker_addresses",
                        lambda client: [("tcp://a", 50_000), ("tcp://b", 50_000)])
    with pytest.raises(PuzzleError, match="each of the 2 workers' parts"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", client=_FakeClient(), explain=True)
    with pytest.raises(PuzzleError, match="keeps packed parts"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", client=_FakeClient(),
               table="bytes", explain=True)


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "puzzlelib", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)


def test_cli_explain():
    out = _cli("solve", "--start", EIGHT, "--method", "bidir", "--explain", "--json")
    assert out.returncode == 0, out.stderr
    plan = json.loads(out.stdout)["plan"]
    assert set(plan) >= {"method", "kernel", "variant", "table", "heuristic", "databases",
                         "threads", "memory_bytes", "memory_how", "backend", "prune", "why"}
    assert (plan["kernel"], plan["table"]) == ("puzzlelib.search.bidirectional.bidirectional",
                                               "keys")
    out = _cli("layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0", "--explain")
    assert out.returncode == 0 and out.stdout.splitlines()[0].split()[:2] == [
        "kernel", "puzzlelib.search.layered.layered_bfs"]
    assert "depth  positions" not in out.stdout  # no search
    board = os.path.join(ROOT, "data", "blocks", "classic_4x5.txt")
    out = _cli("blocks", "solve", "--board", board, "--method", "astar", "--pdb", "8-1-2-f",
               "--explain", "--json")
    plan = json.loads(out.stdout)["plan"]
    assert plan["kernel"] == "puzzlelib.search.astar.astar" and plan["heuristic"] == "8-1-2-f"
    out = _cli("blocks", "layers", "--board", board, "--explain")
    assert out.returncode == 0 and "wordbfs.word_bfs" in out.stdout
    out = _cli("solve", "--start", EIGHT, "--method", "bfs", "--heuristic", "gap", "--explain")
    assert out.returncode == 2 and out.stderr.startswith("puzzlelib: error: method bfs uses")
