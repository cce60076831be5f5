"""Fuzzed input (Hypothesis): every parser and entry, given anything, answers or raises a
one-line :class:`~puzzlelib.PuzzleError` (the command line: status 2 and one line on stderr,
never a traceback); small valid random instances give the plain-Python searches' answers.

The examples are drawn by the fixed profile registered in ``tests/conftest.py`` (derandomized,
a bounded number of examples, no deadline), so every run tries the same inputs.
"""

import contextlib
import io
import sys

import hypothesis.strategies as st
import pytest
from hypothesis import event, given, settings

from puzzlelib import (CLASSIC, BlockPuzzle, PancakePuzzle, PermutationPuzzle, PocketCube,
                       PuzzleError, RotationPuzzle, SlidingPuzzle, TopSpin, layers, solve,
                       solve_many, teaching)
from puzzlelib.cli import main
from puzzlelib.core.numbers import check_number
from puzzlelib.domains.rotation import parse_contest_input

#: Characters malformed positions, sizes and goals are made of.
JUNK = " 0123456789-,x/.;:+eE_abRUF'2\n\t"
junk = st.text(alphabet=JUNK, max_size=30)
numbers_as_text = st.lists(st.integers(-3, 40), max_size=12).map(lambda xs: " ".join(map(str, xs)))
anything = st.one_of(junk, numbers_as_text, st.none(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=True), st.booleans(),
                     st.lists(st.integers(-3, 12), max_size=10),
                     st.lists(st.lists(st.integers(-1, 10), max_size=4), max_size=4))


def refused_in_one_line(call):
    """``call()``'s value, or the :class:`PuzzleError` it raised, checked to be one line; any
    other exception fails the test."""
    try:
        return call()
    except PuzzleError as e:
        message = str(e)
        assert message and "\n" not in message, repr(message)
        return e


# ---------------------------------------------------------------------------------------------
# parsers: positions, sizes, goals, metrics, boards, definitions, the contest's input
# ---------------------------------------------------------------------------------------------

PUZZLES = [SlidingPuzzle("2x3"), SlidingPuzzle("3x3"), RotationPuzzle(3, 3), PancakePuzzle(6),
           TopSpin("8,4"), PocketCube(), BlockPuzzle(CLASSIC)]


@given(st.sampled_from(PUZZLES), st.one_of(anything, st.text(max_size=20)))
def test_positions(puzzle, position):
    state = refused_in_one_line(lambda: puzzle.encode(position))
    if not isinstance(state, PuzzleError):  # read: written back, it reads the same
        assert (puzzle.encode(puzzle.decode(state)) == state).all()


@given(st.one_of(anything, st.tuples(st.integers(-3, 30), st.integers(-3, 30))))
def test_sizes(size):
    for make in (SlidingPuzzle, PancakePuzzle, TopSpin, lambda s: RotationPuzzle(*s)
                 if isinstance(s, tuple) else RotationPuzzle(s, s), PocketCube):
        refused_in_one_line(lambda: make(size))


@given(st.one_of(anything, st.text(max_size=12)))
def test_goals(goal):
    refused_in_one_line(lambda: SlidingPuzzle("2x3", goal=goal))
    refused_in_one_line(lambda: BlockPuzzle(CLASSIC, goal=goal))


@given(st.one_of(st.sampled_from(["unit", "straight", "path", "htm", "qtm", "UNIT", ""]),
                 anything))
def test_metrics(metric):
    refused_in_one_line(lambda: BlockPuzzle(CLASSIC, metric=metric))
    refused_in_one_line(lambda: PocketCube(metric))


boards = st.lists(st.text(alphabet="AAB.C.D .", min_size=1, max_size=4), min_size=1,
                  max_size=3).map("\n".join)


@given(st.one_of(boards, st.text(alphabet="AB.\n x#", max_size=40), anything),
       st.sampled_from(["unit", "straight", "path"]))
def test_block_boards(board, metric):
    """Any text as a board file; a board read is counted alike by ``layers`` and the
    plain-Python breadth-first search."""
    puzzle = refused_in_one_line(lambda: BlockPuzzle(board, metric=metric, goal=False))
    if isinstance(puzzle, PuzzleError):
        return
    plain = teaching.layers(teaching.BlockProblem(board, metric, goal=False))
    assert layers(puzzle, threads=1).counts == plain.counts


@st.composite
def definitions(draw):
    """A permutation puzzle's goal and moves: often well formed, sometimes not."""
    n = draw(st.integers(1, 5))
    labels = draw(st.lists(st.sampled_from("abcd"), min_size=n, max_size=n))
    perm = st.permutations(range(n)).map(list)
    bad = st.lists(st.integers(-1, n + 1), max_size=n + 1)
    moves = draw(st.dictionaries(st.sampled_from(["p", "q", "r"]),
                                 st.one_of(perm, perm, bad), max_size=3))
    return labels, moves


@given(definitions(), st.one_of(st.integers(1, 3), anything))
def test_permutation_puzzle_definitions(definition, orientations):
    labels, moves = definition
    refused_in_one_line(lambda: PermutationPuzzle(labels, moves, orientations=orientations))
    puzzle = refused_in_one_line(lambda: PermutationPuzzle(labels, moves))
    if isinstance(puzzle, PuzzleError):
        return
    # a puzzle made: its layers from the goal are the plain-Python search's
    plain = teaching.layers(teaching.PuzzleProblem(puzzle, labels))
    assert layers(puzzle, labels, threads=1).counts == plain.counts


@given(st.one_of(st.text(alphabet="0123456789-,flcbx ", max_size=16),
                 st.tuples(*[st.integers(-1, 10**20)] * 3, st.sampled_from("flcbz")).map(
                     lambda t: "-".join(map(str, t)))),
       st.sampled_from(["astar", "idastar"]))
def test_block_pattern_database_names(name, method):
    """A pattern database's name (``ONES-H-V-MAP``, several joined by commas), planned."""
    refused_in_one_line(lambda: solve(BlockPuzzle(CLASSIC), method=method, heuristic=name,
                                      explain=True))


@given(st.one_of(anything, st.lists(st.lists(st.integers(-2, 12), max_size=5), max_size=3)),
       st.one_of(st.text(alphabet="pdb:0123456789,/ x", max_size=14), st.just("pdb:1,2/3,4")))
def test_pattern_database_groups(groups, spec):
    """Groups of tiles (``pdb=``) and of pieces (``"pdb:1,2/3,4"``), planned."""
    refused_in_one_line(lambda: solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 0 7 8",
                                      method="idastar", pdb=groups, explain=True))
    refused_in_one_line(lambda: solve(PancakePuzzle(6), "2 1 3 4 5 6", method="idastar",
                                      heuristic=spec, explain=True))


@given(st.one_of(st.text(alphabet=JUNK, max_size=60),
                 st.lists(numbers_as_text, min_size=1, max_size=5).map("\n".join)))
def test_contest_input(text):
    got = refused_in_one_line(lambda: parse_contest_input(text))
    if not isinstance(got, PuzzleError):
        rows, cols, values = got
        refused_in_one_line(lambda: RotationPuzzle(rows, cols).encode(values))


# ---------------------------------------------------------------------------------------------
# the entries' numbers and options
# ---------------------------------------------------------------------------------------------

limits = st.fixed_dictionaries({}, optional={
    k: anything for k in ("max_depth", "max_states", "node_limit", "threads", "transpositions")})


@given(st.sampled_from([None, "bfs", "bidir", "iddfs", "idastar", "astar", "greedy", "dfs", 3]),
       st.sampled_from([None, "manhattan", "linear-conflict", "pdb555", "gap", "none", 0]),
       limits)
def test_solve_options(method, heuristic, kw):
    """Any method, heuristic and limits: a plan, or one line (nothing is searched)."""
    refused_in_one_line(lambda: solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 0 7 8", method,
                                      heuristic, explain=True, **kw))


@given(st.fixed_dictionaries({}, optional={
    "max_depth": anything, "max_states": anything, "farthest_limit": anything,
    "threads": anything, "table": st.sampled_from(["auto", "bytes", "packed", "x", None])}))
def test_layers_options(kw):
    refused_in_one_line(lambda: layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", explain=True, **kw))


@given(st.lists(st.one_of(st.just("1 2 3 4 5 0"), junk), max_size=3),
       st.fixed_dictionaries({}, optional={"max_depth": anything, "threads": anything}))
def test_solve_many_options(starts, kw):
    refused_in_one_line(lambda: solve_many(SlidingPuzzle("2x3"), starts, explain=True, **kw))


@given(anything, st.integers(-5, 5), st.one_of(st.none(), st.integers(-5, 10**6)),
       st.booleans())
def test_the_number_check(value, least, most, whole):
    got = refused_in_one_line(lambda: check_number(value, "n", least=least, most=most,
                                                   whole=whole))
    if not isinstance(got, PuzzleError):
        assert got >= least and (most is None or got <= most)
        assert isinstance(got, int) if whole else isinstance(got, (int, float))


# ---------------------------------------------------------------------------------------------
# the command line, in this process
# ---------------------------------------------------------------------------------------------

NUMBERS = ["0", "1", "2", "3", "-1", "1.5", "abc", "", "99999999999999999999999", "100000",
           "100001", "1e3", " 7 ", "0x10"]
OPTIONS = {
    "--puzzle": ["sliding", "rotation", "blocks", "pancake", "topspin", "pocket-cube", "cube"],
    "--size": ["2x2", "2x3", "3x2", "3x3", "0x0", "9x9", "-2x3", "abc", "", "5", "6", "6,2",
               "8,4", "3,9", "2x2x2", "1e9", "99999999999999999999"],
    "--start": ["1 2 3 0", "2 3 1 0", "1 2 3 4 5 0", "4 1 2 5 0 3", "1 1 2 2 3 0",
                "1 2 3 4 5 6 0 7 8", "9 4 3 2 1 8 7 6 5", "3 1 5 2 4", "2 1 3 4 5 6 7 8",
                "R U F2", "AA.B/CC.B", "BB/../A.", "1 2 3 4 5 6 7 8 9", "", "x y", "-1 0 1",
                "0 0 0 0"],
    "--goal": ["1 2 3 4 5 0", "0 1 2 3 4 5", "1,0", "9,9", "x"],
    "--metric": ["htm", "qtm", "unit", "straight", "path", "bogus"],
    "--method": ["bfs", "bidir", "iddfs", "idastar", "astar", "greedy", "dfs"],
    "--heuristic": ["manhattan", "linear-conflict", "gap", "pdb", "pdb:1,2/3", "none", "bogus",
                    "1-0-0-f"],
    "--max-depth": NUMBERS, "--max-states": NUMBERS, "--threads": NUMBERS,
    "--transpositions": NUMBERS,
    "--prune": ["cycles", "parent", "x"], "--order": ["udlr", "ulrd", "uu", "xyz"],
    "--table": ["auto", "bytes", "packed", "x"], "--hash": ["perfect", "sparse", "x"],
    "--dask": ["0", "-1", "x"], "--checkpoint": ["none"], "--backend": ["cpu", "gpu"],
}
FLAGS = ["--all", "--json", "--explain", "--no-reflect", "--bogus"]
#: Well-formed starts of each puzzle, which the drawn options then change or spoil.
BASES = [
    ["--size", "2x3", "--start", "4 1 2 5 0 3"],
    ["--start", "1 2 3 4 5 6 0 7 8"],
    ["--size", "2x3", "--start", "1 1 2 2 3 0"],
    ["--puzzle", "rotation", "--size", "3x3", "--start", "9 4 3 2 1 8 7 6 5"],
    ["--puzzle", "pancake", "--start", "3 1 5 2 4"],
    ["--puzzle", "topspin", "--size", "6,3", "--start", "3 2 1 4 5 6"],
    ["--puzzle", "pocket-cube", "--start", "R U", "--max-depth", "3"],
    ["--puzzle", "blocks", "--start", "AA.B/CC.B", "--metric", "unit"],
]


@st.composite
def command_lines(draw):
    """``solve`` or ``layers`` of a well-formed start, with up to three options drawn (a
    later one replaces what a start gave) and up to two flags: some run, most are refused."""
    argv = [draw(st.sampled_from(["solve", "layers"])), *draw(st.sampled_from(BASES))]
    for opt in draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=3, unique=True)):
        argv += [opt, draw(st.sampled_from(OPTIONS[opt]))]
    return argv + draw(st.lists(st.sampled_from(FLAGS), max_size=2, unique=True))


def run_cli(argv, stdin=""):
    """``(status, stdout, stderr)`` of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as e:
                status = e.code
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def check_status(status, out, err):
    """Status 0 with output (stderr may carry progress bars), or 2 (refused before anything
    ran: one error line, after any one-line warnings) or 3 (a limit reached: the last line
    says so); never a traceback."""
    event(f"status {status}")
    assert "Traceback" not in err
    lines = err.splitlines()
    if status == 0:
        assert out
    elif status == 2:
        assert out == "" and lines and "error:" in lines[-1], err
        assert all(ln.startswith("puzzlelib") for ln in lines[:-1]), err
        assert all("warning:" in ln for ln in lines[:-1]), err
    else:
        assert status == 3 and lines and lines[-1].startswith("puzzlelib: stopped:"), (status, err)


@given(command_lines())
@settings(max_examples=80)
def test_command_lines(argv):
    check_status(*run_cli(argv))


@given(st.lists(st.one_of(st.sampled_from(["solve", "layers", "blocks", "rotation", "warm", "-h"
                                           "--size", "--start", "--threads", "--", "-"]),
                          st.text(max_size=8)), max_size=6))
def test_any_words_on_the_command_line(argv):
    if argv[:1] == ["warm"]:  # (it compiles every kernel: not what this test is about)
        argv = argv[1:]
    check_status(*run_cli(argv))


@given(st.sampled_from(["solve", "layers"]), boards, st.sampled_from(["unit", "straight", "path"]),
       st.lists(st.sampled_from(["--json", "--explain", "--goal", "0,0", "--max-states", "5"]),
                max_size=3))
def test_block_board_files_on_the_command_line(command, board, metric, extra):
    check_status(*run_cli(["blocks", command, "--board", "-", "--metric", metric, *extra],
                          stdin=board))


@given(st.one_of(st.text(alphabet=JUNK, max_size=40),
                 st.lists(numbers_as_text, min_size=1, max_size=4).map("\n".join)),
       st.sampled_from([[], ["--max-ops", "3"], ["--max-ops", "-3"], ["--method", "bfs"]]))
def test_the_contest_command(text, extra):
    check_status(*run_cli(["rotation", *extra], stdin=text))


# ---------------------------------------------------------------------------------------------
# small valid random instances: the plain-Python searches' answers
# ---------------------------------------------------------------------------------------------


def walked(puzzle, position, choices):
    """The end of a walk from ``position`` taking, at each step, the legal move ``choices[i]``
    picks (modulo the number of legal moves)."""
    for c in choices:
        nbrs = puzzle.neighbours(position)
        position = nbrs[c % len(nbrs)][1]
    return position


walks = st.lists(st.integers(0, 7), max_size=25)


@given(walks, st.sampled_from(["bfs", "bidir", "iddfs", "idastar", "astar"]))
@settings(max_examples=25)
def test_random_2x3_boards_match_plain_breadth_first(walk, method):
    puzzle = SlidingPuzzle("2x3")
    start = walked(puzzle, [1, 2, 3, 4, 5, 0], walk)
    plain = teaching.breadth_first(teaching.SlidingTiles(2, 3, start, heuristic="none"))
    assert solve(puzzle, start, method=method, threads=1).length == plain.length


@given(st.lists(st.integers(0, 3), max_size=4), st.sampled_from(["bidir", "bfs"]))
@settings(max_examples=15)
def test_random_rotation_scrambles_match_plain_bidirectional(walk, method):
    puzzle = RotationPuzzle(3, 3)
    start = walked(puzzle, [[1, 2, 3], [4, 5, 6], [7, 8, 9]], walk)
    plain = teaching.bidirectional(teaching.RotationProblem(3, 3, start))
    assert solve(puzzle, start, method=method).length == plain.length


@given(st.permutations(range(1, 6)), st.sampled_from(["idastar", "bfs", "astar"]))
@settings(max_examples=20)
def test_random_pancake_stacks_match_plain_breadth_first(stack, method):
    puzzle = PancakePuzzle(5)
    start = " ".join(map(str, stack))
    plain = teaching.breadth_first(teaching.PuzzleProblem(puzzle, start))
    assert solve(puzzle, start, method=method, threads=1).length == plain.length
