"""``python -m puzzlelib warm``: its lists name real commands, its groups run in one process or
in several, a failure or a Ctrl-C ends it in one line."""

import json
import signal
import subprocess
import sys
import time

import pytest

from puzzlelib import warm
from puzzlelib.cli import _parser, main
from puzzlelib.domains import METHODS, PUZZLES

SMALL = [("two by two", [["layers", "--size", "2x2", "--start", "1 2 3 0"]]),
         ("the contest", [(["rotation"], "3 3\n1 2 3\n4 5 6\n7 8 9\n")]),
         ("blocks", [["blocks", "layers", "--board", "{classic}"]])]
BROKEN = ("a bad start", [["layers", "--size", "2x2", "--start", "1 2 0 3 4"]])


def test_every_listed_command_parses_and_all_of_them_cover_every_command_and_puzzle():
    parser = _parser()
    runs = warm.commands(every=True)
    parsed = [parser.parse_args([*argv, "--json"]) for argv, _ in runs if isinstance(argv, list)]
    assert {a.command for a in parsed} == {"solve", "layers", "blocks", "rotation"}
    puzzles = {a.puzzle for a in parsed if a.command in ("solve", "layers")}
    assert puzzles | {"blocks"} == set(PUZZLES)
    sliding = {a.method for a in parsed if a.command == "solve" and a.puzzle == "sliding"}
    assert set(METHODS) <= sliding | {None}
    for argv, _ in runs:  # the API calls the command line cannot make: functions of warm
        if isinstance(argv, str):
            assert callable(getattr(warm, argv))
    assert warm.groups() == warm.FIRST and len(warm.groups(every=True)) > len(warm.FIRST)
    # groups pass to the compiling processes as JSON and come back the same
    assert [warm.commands_of(json.loads(json.dumps(g))) for g in warm.groups(True)] == \
        [warm.commands_of(g) for g in warm.groups(True)]


def test_the_readme_examples_are_among_the_first_answers():
    # the README's command lines that answer in seconds (not those that build pattern
    # databases for minutes, or need a cluster, a GPU or a big table) are warmed by `warm`
    first = {" ".join(argv) for argv, _ in warm.commands() if isinstance(argv, list)}
    for must in ("solve --size 3x3 --start 8 6 7 2 5 4 3 0 1 --method iddfs --all",
                 "layers --size 3x3 --start 1 2 3 4 5 6 7 8 0",
                 "layers --puzzle pocket-cube --metric qtm",
                 "solve --puzzle rotation --size 3x3 --start 9 4 3 2 1 8 7 6 5"):
        assert must in first
    assert ["rotation"] in [argv for argv, stdin in warm.commands() if stdin]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_warm_runs_its_groups_in_one_process_or_several(capsys, monkeypatch, jobs):
    monkeypatch.setattr(warm, "FIRST", SMALL)
    assert main(["warm", "--jobs", jobs]) == 0
    out = capsys.readouterr()
    assert out.out == ""
    assert f"first answers' kernels (3 groups, {jobs} process" in out.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_command_ends_warm_in_one_line(capsys, monkeypatch, jobs):
    monkeypatch.setattr(warm, "FIRST", [BROKEN, *SMALL])
    assert main(["warm", "--quiet", "--jobs", jobs]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "warm: layers --size 2x2" in err and "start" in err, err


def test_more_jobs_than_cores_is_a_warning(capsys, monkeypatch):
    monkeypatch.setattr(warm, "FIRST", SMALL[:1])
    assert main(["warm", "--quiet", "--jobs", "100000"]) == 0
    assert "more than the" in capsys.readouterr().err
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit) as e:
            main(["warm", "--jobs", bad])
        assert e.value.code == 2


def test_ctrl_c_stops_warm_and_its_processes(tmp_path):
    import psutil

    env = {**__import__("os").environ, "PUZZLELIB_CACHE": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    p = subprocess.Popen([sys.executable, "-m", "puzzlelib", "warm", "--jobs", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    children = []
    while time.monotonic() < deadline and len(children) < 2:
        time.sleep(0.5)
        children = psutil.Process(p.pid).children(recursive=True)
    time.sleep(2)  # (compiling by now)
    p.send_signal(signal.SIGINT)  # the parent alone: it must stop its processes itself
    t0 = time.monotonic()
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - t0 < 5
    assert p.returncode == 130 and out == "", err[-3000:]
    lines = [line for line in err.replace("\r", "\n").splitlines()
             if line.strip() and not line.startswith("compiling")]  # (the bar's)
    assert len(lines) == 1 and lines[0].startswith("puzzlelib: interrupted: warm ran"), err
    gone, alive = psutil.wait_procs(children, timeout=5)
    assert len(children) == 2 and not alive
