"""The command line: JSON keys, plain output, and one-line errors with a non-zero exit."""

import json
import subprocess
import sys

import pytest

from puzzlelib.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json(capsys):
    code, out, err = run(capsys, "solve", "--size", "3x3", "--start", "8 6 7 2 5 4 3 0 1",
                         "--method", "idastar", "--all", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["length"] == 31 and len(d["moves"]) == 31 and set(d["moves"]) <= set("udlr")
    assert d["solutions"] == 40
    assert d["nodes"] > 0 and d["seconds"] >= 0 and d["compile_seconds"] >= 0


@pytest.mark.parametrize("method", ["bfs", "bidir", "iddfs", "astar", "greedy"])
def test_every_method_json(capsys, method):
    code, out, _ = run(capsys, "solve", "--start", "1 2 3 4 0 6 7 5 8", "--method", method, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["length"] == 2 and d["moves"] == "dr" and d["method"] == method


def test_goal_option(capsys):
    code, out, _ = run(capsys, "solve", "--start", "1 0 2 3", "--size", "2x2",
                       "--goal", "0 1 2 3", "--json")
    assert code == 0 and json.loads(out)["moves"] == "l"


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
    ],
)
def test_errors_are_one_line_and_exit_nonzero(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code != 0
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


def test_threads_option(capsys, monkeypatch):
    from puzzlelib.search import idastar

    monkeypatch.setattr(idastar, "SPLIT_MIN_NODES", 0)  # every pass in parallel
    code, out, _ = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--method", "idastar",
                       "--all", "--threads", "2", "--json")
    assert code == 0
    d = json.loads(out)
    assert (d["length"], d["solutions"], d["nodes"], d["threads"]) == (31, 40, 103884, 2)
    code, _, err = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--threads", "-1")
    assert code == 2 and "threads must be at least 1" in err


def test_progress_goes_to_stderr_and_json_stays_clean(capsys):
    code, out, err = run(capsys, "solve", "--start", "8 6 7 2 5 4 3 0 1", "--method", "idastar",
                         "--progress", "--json")
    assert code == 0 and json.loads(out)["length"] == 31
    assert "bound" in err


def test_bad_threads_is_one_line_before_any_progress(capsys):
    code, out, err = run(capsys, "layers", "--size", "2x6", "--start",
                         "1 2 3 4 5 6 7 8 9 10 11 0", "--threads", "-1", "--json")
    assert code == 2 and out == ""
    assert err == "puzzlelib: error: threads must be at least 1, not -1\n"
