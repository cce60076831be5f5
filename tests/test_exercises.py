"""puzzlelib.exercises: the reference answers pass every exercise, typical wrong answers fail
with feedback that names the problem, and ``python -m puzzlelib check FILE.py`` prints the
table or JSON and exits 0, 1 or 2."""

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from puzzlelib import exercises
from puzzlelib.cli import main
from puzzlelib.exercises import EXERCISES, check, check_file
from puzzlelib.exercises.watched import Watched
from puzzlelib.exercises.grading import run_limited
from puzzlelib.teaching import SlidingTiles

from .exercises import reference, wrong

REFERENCE = Path(reference.__file__)
#: The wrong answers' time limit: enough for their first wrong instance, short for the loops.
QUICK = 4


def _functions(name, module=reference):
    return [getattr(module, n) for n in EXERCISES[name].names]


@pytest.mark.parametrize("name", list(EXERCISES))
def test_the_reference_answers_pass(name):
    report = check(name, *_functions(name))
    assert report.passed, str(report)
    assert report.score == 1
    assert report.feedback and report.seconds > 0


WRONG = [
    ("bfs", [wrong.bfs_depth_first], "but the shortest solution has"),
    ("bfs", [wrong.bfs_no_seen_set], "a second time: breadth-first search expands each "
                                     "position once"),
    ("bfs", [wrong.bfs_backwards_path], "not at the goal"),
    ("bfs", [wrong.bfs_raises], "raised TypeError: cannot unpack non-iterable NoneType "
                                "object (line "),
    ("bfs", [wrong.bfs_loops], "did not return within the time limit (4 s"),
    ("bidirectional", [wrong.bidirectional_only_forward], "bidirectional search should hold "
                                                          "at most a third"),
    ("bidirectional", [wrong.bidirectional_goal_side_not_undone], "returned"),
    ("bidirectional", [wrong.bidirectional_raises], "raised TypeError: 'method' object is "
                                                    "not subscriptable (line "),
    ("iddfs", [wrong.iddfs_no_deepening], "but the shortest solution has"),
    ("iddfs", [wrong.iddfs_breadth_first], "memory linear in the depth"),
    ("iddfs", [wrong.iddfs_limit_never_raised], "did not return within the time limit"),
    ("iddfs", [wrong.iddfs_raises], "raised AttributeError: 'SlidingTiles' object has no "
                                    "attribute 'depth_limit' (line "),
    ("astar", [wrong.astar_by_h_alone], "A* expands no position with f >"),
    ("astar", [wrong.astar_ignoring_h], "A* expands no position with f >"),
    ("astar", [wrong.astar_raises], "raised KeyError"),
    ("idastar", [wrong.idastar_one_pass], "but the shortest solution has"),
    ("idastar", [wrong.idastar_first_bound_only], "returned None, but the goal is"),
    ("idastar", [wrong.idastar_bound_kept], "did not return within the time limit"),
    ("idastar", [wrong.idastar_raises], "raised TypeError"),
    ("heuristic", [wrong.heuristic_counts_the_blank],
     "not admissible: heuristic(1 2 3 4 5 0 7 8 6) = 2, but it is 1 move from the goal"),
    ("heuristic", [wrong.heuristic_twice_manhattan], "not admissible"),
    ("heuristic", [wrong.heuristic_jumps], "not consistent"),
    ("heuristic", [wrong.heuristic_raises], "raised ValueError"),
    ("rank", [wrong.rank_collides, reference.unrank], "two permutations share a rank"),
    ("rank", [wrong.rank_digits_base_n, reference.unrank], "outside 0..1"),
    ("rank", [reference.rank, wrong.unrank_reversed],
     "unrank(rank(0 1), 2) = unrank(0, 2) = (1 0), not (0 1)"),
    ("rank", [wrong.rank_raises, reference.unrank], "raised ValueError"),
]


@pytest.mark.parametrize("name, functions, says", WRONG,
                         ids=["-".join(g.__name__ for g in f) for _, f, _ in WRONG])
def test_wrong_answers_fail_naming_the_problem(name, functions, says):
    report = check(name, *functions, time_limit=QUICK)
    assert not report.passed
    assert report.score < 1
    assert says in report.feedback[0], str(report)


def test_every_exercise_has_three_wrong_answers():
    for name in EXERCISES:
        assert sum(n == name for n, _, _ in WRONG) >= 3, name


def test_feedback_names_the_instance_what_came_back_and_the_right_length():
    first = check("bfs", wrong.bfs_depth_first, time_limit=QUICK).feedback[0]
    assert first.startswith("2x3 board, start 0 2 5 1 3 4: returned ")
    assert first.endswith("legal and reaching the goal, but the shortest solution has 9")


def test_an_exception_shows_the_students_line():
    first = check("bfs", wrong.bfs_raises).feedback[0]
    lines, at = inspect.getsourcelines(wrong.bfs_raises)
    line = at + next(i for i, text in enumerate(lines) if "= parent[state]" in text)
    assert f"(line {line} of wrong.py: state, action = parent[state])" in first


def test_not_written_yet_is_a_friendly_message():
    report = check("bfs", wrong.bfs_not_yet)
    assert not report.passed and report.score == 0
    assert report.feedback[0] == ("bfs is not written yet (it raises NotImplementedError): "
                                  "write it, then check again")


def test_the_report_shows_in_a_notebook_and_as_text():
    report = check(reference.rank, reference.unrank)  # the name read from the function
    assert report.name == "rank" and report.passed
    assert str(report).startswith("rank: passed (score 1.00)\n  a bijection")
    assert "passed" in report._repr_html_()
    assert report.to_dict() == {"name": "rank", "passed": True, "score": 1.0,
                                "feedback": report.feedback}


def test_unknown_exercise_and_missing_unrank():
    with pytest.raises(ValueError, match="unknown exercise 'dfs'"):
        check("dfs", reference.bfs)
    report = check("rank", reference.rank)
    assert not report.passed and report.score == 0.5
    assert "unrank(r, n) not found" in report.feedback[0]


def test_the_watched_problem_counts_expansions_and_positions_held():
    problem = Watched(SlidingTiles(3, 3, "1 2 3 4 5 6 0 7 8"))
    assert reference.bfs(problem) == ["r", "r"]
    assert problem.expansions[(1, 2, 3, 4, 5, 6, 0, 7, 8)] == 1
    assert problem.peak >= 3 and problem.live == 1  # the start, which the problem keeps


def test_a_loop_is_stopped_at_the_time_limit():
    def spin():
        while True:
            pass
    out = run_limited(spin, 0.2)
    assert out.timed_out and out.seconds < 3


# --- files and the command line ----------------------------------------------------------------


RANK_ONLY = '''
import math

def rank(perm):
    n = len(perm)
    return sum(sum(1 for q in perm[i + 1:] if q < p) * math.factorial(n - 1 - i)
               for i, p in enumerate(perm))

def unrank(r, n):
    left, out = list(range(n)), []
    for i in range(n):
        d, r = divmod(r, math.factorial(n - 1 - i))
        out.append(left.pop(d))
    return tuple(out)
'''


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_check_file_grades_the_names_it_finds(tmp_path):
    path = _write(tmp_path, "mine.py", RANK_ONLY + "\nfrom math import factorial as bfs\n")
    reports = check_file(path)
    assert [r.name for r in reports] == ["rank"]  # an imported bfs is not the student's
    assert reports.passed
    assert str(reports).splitlines()[0].split() == ["exercise", "passed", "score", "feedback"]


def test_the_command_prints_the_table_and_json(tmp_path, capsys):
    path = _write(tmp_path, "mine.py", RANK_ONLY)
    assert main(["check", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["rank", "yes", "1.00"]
    assert main(["check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"exercises": [{"name": "rank", "passed": True, "score": 1.0,
                                  "feedback": out["exercises"][0]["feedback"]}]}


@pytest.mark.parametrize("text, says", [
    ("def bfs(problem)\n    return None\n", "cannot import {path}: SyntaxError"),
    ("import no_such_module_anywhere\n", "cannot import {path}: ModuleNotFoundError"),
    ("def dfs(problem):\n    return None\n", "{path} defines none of the exercises' functions"),
])
def test_a_file_that_cannot_be_graded_exits_2_with_one_line(tmp_path, capsys, text, says):
    path = _write(tmp_path, "broken.py", text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("puzzlelib: error: ")
    assert says.format(path=path) in err


def test_a_file_that_loops_on_import_exits_2(tmp_path, capsys):
    path = _write(tmp_path, "spins.py", "while True:\n    pass\n")
    assert main(["check", str(path), "--time-limit", "0.5"]) == 2
    assert capsys.readouterr().err == (f"puzzlelib: error: cannot import {path}: it runs longer "
                                       f"than 0.5 s\n")


def test_answers_of_the_wrong_kind_are_named():
    report = check("heuristic", lambda state: None)
    assert report.feedback[0] == ("8-puzzle's positions: heuristic(1 2 3 4 5 6 7 8 0) returned "
                                  "None: a number expected")
    report = check("bfs", lambda problem: 42)
    assert "returned 42, not a list of actions" in report.feedback[0]
    report = check("rank", lambda perm: 0.5, reference.unrank)
    assert report.feedback[0] == "rank(0) returned 0.5: an integer expected"


def test_a_search_through_successors_is_watched_too():
    def bfs(problem):  # problem.successors(state) instead of actions and result
        parent = {problem.initial: None}
        frontier = [problem.initial]
        for state in frontier:
            if problem.is_goal(state):
                return reference.walk_back(parent, state)
            for action, child in problem.successors(state):
                if child not in parent:
                    parent[child] = (state, action)
                    frontier.append(child)
        return None

    assert check("bfs", bfs).passed
    assert check("iddfs", bfs).feedback[0].startswith("2x3 board, start 0 2 5 1 3 4: held up to ")


def test_the_exit_status_from_a_process(tmp_path):
    path = _write(tmp_path, "wrong_rank.py", RANK_ONLY.replace("left.pop(d)", "left.pop(0)"))
    out = subprocess.run([sys.executable, "-m", "puzzlelib", "check", str(path), "--json"],
                         capture_output=True, text=True, timeout=600,
                         cwd=Path(exercises.__file__).parents[2])
    assert out.returncode == 1, out.stderr
    got = json.loads(out.stdout)["exercises"][0]
    assert got["name"] == "rank" and got["passed"] is False and got["score"] < 1
    assert got["feedback"][0] == "unrank(rank(1 0), 2) = unrank(1, 2) = (0 1), not (1 0)"
