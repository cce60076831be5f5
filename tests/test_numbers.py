"""Numbers a person types: every numeric option of the API and the command line is checked by
one helper (:mod:`puzzlelib.core.numbers`) before anything is allocated."""

import warnings

import numba
import numpy as np
import pytest

from puzzlelib import PuzzleError, RotationPuzzle, SlidingPuzzle, layers, solve, solve_many
from puzzlelib.cli import main
from puzzlelib.core.numbers import (COUNT_LIMIT, DEPTH_LIMIT, check_number, check_threads,
                                    cores)

EIGHT = "8 6 7 2 5 4 3 0 1"


@pytest.mark.parametrize("given,kw,expected", [
    (5, {}, 5), (np.int16(7), {}, 7), ("12", {}, 12), (" 1_000 ", {}, 1000),
    ("2.5", {"whole": False}, 2.5), (3, {"whole": False}, 3), (0, {"least": 0}, 0),
    (DEPTH_LIMIT, {"most": DEPTH_LIMIT}, DEPTH_LIMIT), (10**30, {"most": None}, 10**30),
])
def test_accepted_numbers(given, kw, expected):
    got = check_number(given, "n", **kw)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("given,kw", [
    (-1, {}), ("abc", {}), ("", {}), (None, {}), (True, {}), (2.5, {}), ("2.5", {}),
    (float("nan"), {"whole": False}), (float("inf"), {"whole": False}), ("inf", {"whole": False}),
    (COUNT_LIMIT + 1, {}), (10**22, {"most": DEPTH_LIMIT}), ([3], {}), ("0x10", {}),
    (0, {"least": 1}),
])
def test_refused_numbers_are_one_line_naming_the_option(given, kw):
    with pytest.raises(PuzzleError) as e:
        check_number(given, "max_depth", **kw)
    msg = str(e.value)
    assert msg.startswith("max_depth must be ") and "\n" not in msg and len(msg) < 160


def test_more_threads_than_cores_is_a_warning_and_the_cores():
    with pytest.warns(UserWarning, match=f"more than the {cores()} cores here"):
        assert check_threads(cores() + 1) == cores()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_threads(1) == 1
    with pytest.raises(PuzzleError, match="threads must be a whole number, at least 1"):
        check_threads(0)


@pytest.mark.parametrize("kw", [
    {"max_depth": 10**22}, {"max_depth": -1}, {"max_depth": 2.0}, {"max_states": 0},
    {"max_states": 2**64}, {"node_limit": -5}, {"threads": "many"}, {"threads": -3},
    {"transpositions": 10**40},
])
def test_the_api_refuses_absurd_numbers_in_one_line(kw):
    with pytest.raises(PuzzleError) as e:
        solve(SlidingPuzzle("3x3"), EIGHT, method="idastar", explain=True, **kw)
    assert "\n" not in str(e.value)


def test_layers_and_solve_many_check_their_numbers_too():
    for kw in ({"max_depth": 10**9}, {"farthest_limit": -1}, {"threads": 0}):
        with pytest.raises(PuzzleError):
            layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", explain=True, **kw)
    with pytest.raises(PuzzleError, match="max_depth must be"):
        solve_many(SlidingPuzzle("3x3"), [EIGHT], max_depth=10**12, explain=True)


def test_the_greatest_depth_accepted_plans_and_runs():
    """A depth at the bound is a plain search (its arrays fit): the answer is found."""
    plan = solve(SlidingPuzzle("3x3"), EIGHT, method="idastar", max_depth=DEPTH_LIMIT,
                 explain=True)
    assert plan.memory_bytes < 64 << 20
    res = solve(RotationPuzzle(3, 3), [[9, 4, 3], [2, 1, 8], [7, 6, 5]], max_depth=DEPTH_LIMIT)
    assert res.length == 2


def test_too_many_threads_through_the_api_warns_and_uses_the_cores():
    with pytest.warns(UserWarning, match="threads=100,000 is more than"):
        plan = solve(SlidingPuzzle("3x3"), EIGHT, method="idastar", threads=100_000,
                     explain=True)
    assert plan.threads == numba.config.NUMBA_NUM_THREADS


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["solve", "--start", EIGHT, "--max-depth", "9999999999999999999999"],
    ["solve", "--start", EIGHT, "--max-depth", "-1"],
    ["solve", "--start", EIGHT, "--max-depth", "ten"],
    ["solve", "--start", EIGHT, "--max-states", "0"],
    ["solve", "--start", EIGHT, "--transpositions", "1e99"],
    ["solve", "--start", EIGHT, "--threads", "2.5"],
    ["layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--max-depth", "1" + "0" * 40],
    ["layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--threads", "-4"],
    ["layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--dask", "x"],
    ["blocks", "solve", "--board", "-", "--max-states", "-1"],
    ["rotation", "--max-ops", "100001"],
    ["check", "answers.py", "--time-limit", "nan"],
])
def test_the_command_line_refuses_absurd_numbers_with_status_2_and_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error:" in err and "Traceback" not in err


def test_the_command_line_warns_in_one_line_for_too_many_threads(capsys):
    code, out, err = run(capsys, "solve", "--start", EIGHT, "--threads", "100000",
                         "--explain")
    assert code == 0 and "plan" in out
    n = numba.config.NUMBA_NUM_THREADS  # the cores, unless NUMBA_NUM_THREADS says fewer
    assert err == f"puzzlelib: warning: threads=100,000 is more than the {n} cores here: {n} used\n"
