"""The command line: JSON keys, plain output, and one-line errors with a non-zero exit."""

import json
import subprocess
import sys

import pytest

from puzzlelib.cli import CLI_PUZZLES, LAYERS_FIELDS, SOLVE_FIELDS, main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:  # (what argparse refuses)
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json(capsys):
    code, out, err = run(capsys, "solve", "--size", "3x3", "--start", "8 6 7 2 5 4 3 0 1",
                         "--method", "idastar", "--all", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["length"] == 31 and len(d["moves"]) == 31 and set(d["moves"]) <= set("udlr")
    assert d["solutions"] == 40
    assert d["seconds"] >= 0 and d["compile_seconds"] >= 0
    # the fields of every puzzle, what IDA* reports, and the stats record
    assert list(d)[:len(SOLVE_FIELDS)] == list(SOLVE_FIELDS)
    assert {"iterations", "initial_bound", "heuristic", "initial_h"} <= set(d)
    assert d["definition"] == {"size": "3x3", "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0],
                               "hash": "perfect"}
    assert set(d["stats"]) == {"generated", "expanded", "stored", "memory_bytes", "seconds",
                               "compile_seconds"}
    assert d["stats"]["generated"] == 103884


@pytest.mark.parametrize("method", ["bfs", "bidir", "iddfs", "astar", "greedy"])
def test_every_method_json(capsys, method):
    code, out, _ = run(capsys, "solve", "--start", "1 2 3 4 0 6 7 5 8", "--method", method, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["length"] == 2 and d["moves"] == "dr" and d["method"] == method
    own = {"bfs": "counts", "bidir": "forward_counts", "iddfs": "iterations",
           "astar": "initial_h", "greedy": "initial_h"}[method]
    assert d[own] is not None and d["stats"]["generated"] >= 2


def test_goal_option(capsys):
    code, out, _ = run(capsys, "solve", "--start", "1 0 2 3", "--size", "2x2",
                       "--goal", "0 1 2 3", "--json")
    d = json.loads(out)
    assert code == 0 and d["moves"] == "l" and d["definition"]["goal"] == [0, 1, 2, 3]


def test_layers_json(capsys):
    code, out, _ = run(capsys, "layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["total"] == 181440 and d["max_depth"] == 31 and len(d["counts"]) == 32
    assert sorted(d["farthest"]) == [[6, 4, 7, 8, 5, 0, 3, 2, 1], [8, 6, 7, 2, 5, 4, 3, 0, 1]]
    assert d["seconds"] >= 0 and d["compile_seconds"] >= 0


def test_layers_json_document_001_problem_1(capsys):
    """The issue's command: indistinguishable pieces on 4x4, the same JSON keys."""
    code, out, _ = run(capsys, "layers", "--size", "4x4", "--start",
                       "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0", "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["total"], d["max_depth"], d["n_farthest"]) == (5_765_760, 58, 1)
    assert d["farthest"] == [[0, 6, 6, 5, 6, 6, 6, 6, 6, 6, 6, 6, 4, 2, 3, 1]]
    assert d["counts"][-3:] == [22, 3, 1] and "multiset" in d["hash"]


def test_layers_threads_and_hash_options(capsys):
    start = "1 1 2 2 1 3 3 2 3 3 3 0"
    outs = []
    for extra in (["--threads", "1"], ["--threads", "2"], ["--hash", "sparse"]):
        code, out, _ = run(capsys, "layers", "--size", "3x4", "--start", start, "--json", *extra)
        assert code == 0
        outs.append(json.loads(out))
    assert outs[0]["counts"] == outs[1]["counts"] == outs[2]["counts"]
    assert outs[0]["threads"] == 1 and outs[2]["table_bytes"] == 4 ** 12


def test_plain_output(capsys):
    code, out, _ = run(capsys, "solve", "--start", "1 2 3 4 5 6 0 7 8", "--method", "bfs")
    assert code == 0 and "2 moves" in out and "blank moves: rr" in out and "tiles moved: 7 8" in out
    code, out, _ = run(capsys, "layers", "--size", "2x2", "--start", "1 2 3 0")
    assert code == 0 and "total: 12" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["solve", "--start", "1 2 3"], "expected 9 labels"),
        (["solve", "--start", "1 2 3 4 5 6 8 7 0"], "unsolvable"),
        (["solve", "--start", "1 1 3 4 5 6 7 8 0"], "tile 1 appears 2 times"),
        (["solve", "--start", "1 2 3 4 5 6 7 8 0", "--size", "9x9"], "board size 9x9"),
        (["solve", "--start", "1 2 3 4 5 6 7 8 0", "--method", "bfs", "--all"], "iddfs or idastar"),
        (["solve", "--start", "1 2 3 4 5 6 7 8 0", "--method", "nope"], "invalid choice"),
        (["layers", "--size", "4x4", "--start", " ".join(map(str, list(range(1, 16)) + [0]))],
         "TiB of memory"),
        (["solve"], "required"),
        # the forms that take any puzzle
        (["solve", "--puzzle", "cube", "--start", "1"], "invalid choice"),
        (["solve", "--puzzle", "rotation", "--start", "1 2 3"], "needs --size"),
        (["solve", "--puzzle", "rotation", "--size", "3x3", "--start", "1 2 3"],
         "expected 9 values"),
        (["solve", "--puzzle", "blocks"], "--board FILE or --start"),
        (["solve", "--puzzle", "blocks", "--start", "AB/C"], "row 2 has 1 cells"),
        (["solve", "--board", "x.txt", "--start", "1 2 3 0", "--size", "2x2"],
         "--board applies to the blocks puzzle, not the sliding puzzle"),
        (["layers", "--puzzle", "rotation", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 9",
          "--hash", "sparse"], "--hash applies to the sliding puzzle, not the rotation"),
        (["solve", "--start", "1 2 3 4 5 6 7 8 0", "--metric", "unit"],
         "--metric applies to the blocks and pocket-cube puzzles"),
        (["layers", "--puzzle", "pocket-cube", "--metric", "unit"], "not a pocket-cube metric"),
        (["solve", "--puzzle", "blocks", "--start", "ABBC/ABBC/DEEF/DGHF/I..J", "--size", "4x5"],
         "--size applies to"),
        (["solve", "--puzzle", "topspin", "--start", "1 2 3"], "needs --size N,K"),
        (["solve", "--start", "8 6 7 2 5 4 3 0 1", "--max-depth", "-3"],
         "--max-depth: the value must be a whole number from 0 to 100,000"),
    ],
)
def test_errors_are_one_line_and_exit_nonzero(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_limit_exit_code(capsys):
    code, _, err = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--method", "astar",
                       "--max-states", "100")
    assert code == 3 and "stopped" in err


def test_python_dash_m_entry_point():
    """The real `python -m puzzlelib` in a subprocess: JSON on stdout, errors on stderr."""
    ok = subprocess.run([sys.executable, "-m", "puzzlelib", "solve", "--size", "2x2", "--start",
                         "1 2 0 3", "--method", "astar", "--json"],
                        capture_output=True, text=True, timeout=600)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["length"] == 1
    bad = subprocess.run([sys.executable, "-m", "puzzlelib", "solve", "--start", "0 0"],
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("puzzlelib: error:") and "Traceback" not in bad.stderr


def test_threads_option(capsys):
    """The node counts do not depend on the threads, counting all solutions or not."""
    outs = []
    for threads in ("1", "2"):
        for extra in ([], ["--all"]):
            code, out, _ = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--method",
                               "idastar", "--threads", threads, "--json", *extra)
            assert code == 0
            outs.append(json.loads(out))
    one, one_all, two, two_all = outs
    assert (two_all["length"], two_all["solutions"], two_all["stats"]["generated"],
            two_all["threads"]) == (31, 40, 103884, 2)
    assert one_all["stats"] == {**two_all["stats"], "seconds": one_all["stats"]["seconds"],
                                "compile_seconds": one_all["stats"]["compile_seconds"]}
    assert one_all["threads"] == 1
    assert (one["moves"], one["stats"]["generated"]) == (two["moves"], two["stats"]["generated"])
    code, _, err = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--threads", "-1")
    assert code == 2 and "--threads: the value must be a whole number, at least 0" in err


def test_progress_goes_to_stderr_and_json_stays_clean(capsys):
    code, out, err = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--method", "idastar",
                         "--progress", "--json")
    assert code == 0 and json.loads(out)["length"] == 31
    assert "bound" in err


def test_bad_threads_is_one_line_before_any_progress(capsys):
    code, out, err = run(capsys, "layers", "--size", "2x6", "--start",
                         "1 2 3 4 5 6 7 8 9 10 11 0", "--threads", "-1", "--json")
    assert code == 2 and out == ""
    assert err == ("puzzlelib layers: error: argument --threads: the value must be a whole "
                   "number, at least 0, not '-1'\n")


def test_every_puzzle_through_solve_and_layers(capsys, tmp_path):
    """``--puzzle`` picks the puzzle; the JSON carries the same stats record for each."""
    code, out, _ = run(capsys, "solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                       "9 4 3 2 1 8 7 6 5", "--json")
    d = json.loads(out)
    assert code == 0 and d["length"] == 2 and d["moves"] == [[0, 0], [1, 1]]
    assert d["puzzle"] == "rotation" and d["definition"] == {"size": "3x3"}
    code, out, _ = run(capsys, "solve", "--puzzle", "blocks", "--start",
                       "ABBC/ABBC/DEEF/DGHF/I..J", "--metric", "path", "--json")
    d = json.loads(out)
    assert code == 0 and d["length"] == 81 and d["counts"][-1] >= 1
    board = tmp_path / "classic.txt"
    board.write_text("ABBC\nABBC\nDEEF\nDGHF\nI..J\n")
    code, out, _ = run(capsys, "layers", "--puzzle", "blocks", "--board", str(board), "--json")
    d = json.loads(out)
    assert code == 0 and d["total"] == 25955 and d["stats"]["expanded"] == 25955
    code, out, _ = run(capsys, "layers", "--puzzle", "rotation", "--size", "3x3", "--start",
                       "1 2 3 4 5 6 7 8 9", "--json")
    d = json.loads(out)
    assert code == 0 and d["max_depth"] == len(d["counts"]) - 1 and d["n_farthest"] >= 1
    code, out, _ = run(capsys, "solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                       "9 4 3 2 1 8 7 6 5")
    assert code == 0 and out.startswith("bidir: 2 moves") and "moves: [[0, 0], [1, 1]]" in out
    code, out, _ = run(capsys, "layers", "--json", "--size", "3x3", "--start",
                       "1 2 3 4 5 6 7 8 0")
    d = json.loads(out)
    assert d["stats"]["generated"] == 302401 and d["stats"]["stored"] == d["total"] == 181440


def test_a_reader_that_stops_early_gets_no_traceback():
    """``python -m puzzlelib ... | head`` when head has gone: exit quietly, no BrokenPipeError."""
    proc = subprocess.Popen([sys.executable, "-m", "puzzlelib", "layers", "--size", "2x3",
                             "--start", "1 2 3 4 5 0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # nobody reads: the first write fails with EPIPE
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize("argv", [
    ["--size", "2x3", "--start", "1 2 3 4 0 5"],
    ["--puzzle", "rotation", "--size", "3x3", "--start", "9 4 3 2 1 8 7 6 5"],
    ["--puzzle", "blocks", "--start", "ABBC/ABBC/DEEF/DGHF/I..J", "--metric", "unit"],
    ["--puzzle", "pancake", "--start", "3 1 2"],
    ["--puzzle", "topspin", "--size", "6,4", "--start", "4 3 2 1 5 6"],
    ["--puzzle", "pocket-cube", "--start", "R U"],
])
def test_every_puzzle_gives_one_json_shape(capsys, argv):
    """``solve`` and ``layers``: the same fields, in the same order, whatever the puzzle; then
    what the method reports, and ``stats`` last."""
    code, out, _ = run(capsys, "solve", *argv, "--json")
    d = json.loads(out)
    assert code == 0 and list(d)[:len(SOLVE_FIELDS)] == list(SOLVE_FIELDS), list(d)
    assert list(d)[-1] == "stats" and d["length"] == len(d["moves"]) >= 1
    assert d["puzzle"] in CLI_PUZZLES and "puzzle" not in d["definition"]
    code, out, _ = run(capsys, "layers", *argv, "--json")
    d = json.loads(out)
    assert code == 0 and list(d)[:len(LAYERS_FIELDS)] == list(LAYERS_FIELDS), list(d)
    assert list(d)[-1] == "stats" and d["total"] == sum(d["counts"]) == d["stats"]["expanded"]


def test_no_solution_within_max_depth_exits_3_but_the_contest_form_answers(capsys, monkeypatch):
    code, out, err = run(capsys, "solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                         "9 4 3 2 1 8 7 6 5", "--max-depth", "1", "--json")
    assert code == 3 and out == "" and "not within max_depth" in err
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("3 3\n9 4 3\n2 1 8\n7 6 5\n"))
    code, out, _ = run(capsys, "rotation", "--max-ops", "1")
    assert code == 0 and out == "-1\n"
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("3 3\n9 4 3\n2 1 8\n7 6 5\n"))
    code, out, _ = run(capsys, "rotation", "--max-ops", "1", "--json")
    d = json.loads(out)
    assert code == 0 and (d["length"], d["moves"], d["status"]) == (-1, [], "not within max_depth")
