"""The plain-Python teaching versions compute what the kernels compute."""

from pathlib import Path

import pytest

from puzzlelib import SlidingPuzzle, layers, solve, teaching

from . import reference
from .conftest import random_board


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_teaching_agrees_with_kernels(rows, cols, rng):
    goal = tuple(range(1, rows * cols)) + (0,)
    puz = SlidingPuzzle(rows, cols)
    lay_plain = teaching.layers(teaching.SlidingTiles(rows, cols, goal, heuristic="none"))
    lay = layers(puz, goal)
    assert lay_plain.counts == lay.counts
    assert sorted(map(list, lay_plain.farthest)) == sorted(lay.farthest)
    for _ in range(3):
        start = random_board(rows, cols, rng, walk=30)
        want = solve(puz, start, method="idastar", all_solutions=True)
        blind = teaching.SlidingTiles(rows, cols, start, goal, heuristic="none")
        for search in (teaching.breadth_first, teaching.bidirectional):
            moves = search(blind).moves
            assert len(moves) == want.length and reference.replay(start, moves, cols) == list(goal)
        for h in ("none", "manhattan"):
            sol = teaching.idastar(teaching.SlidingTiles(rows, cols, start, goal, heuristic=h),
                                   all_solutions=True)
            assert (sol.length, sol.extra["solutions"]) == (want.length, want.solutions)
            assert reference.replay(start, sol.moves, cols) == list(goal)


# ---- the general searches against the kernels ------------------------------------------------

GOAL8 = (1, 2, 3, 4, 5, 6, 7, 8, 0)
START8 = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
EIGHT = SlidingPuzzle("3x3")
SEARCHES = {"breadth_first": teaching.breadth_first, "bidirectional": teaching.bidirectional,
            "iterative_deepening": teaching.iterative_deepening, "idastar": teaching.idastar,
            "astar": teaching.astar}


def test_every_2x3_position_is_solved_shortest_and_replays():
    """All 360 positions of the 2x3 board: every plain search finds a solution as long as the
    kernel's breadth-first distance, and it replays onto the goal through the kernel puzzle."""
    puz = SlidingPuzzle(2, 3)
    goal = (1, 2, 3, 4, 5, 0)
    lay = layers(puz, list(goal))
    boards = [tuple(reference.to_list(s)) for s in reference.distances(goal, 2, 3)]
    assert len(boards) == lay.total == 360
    for board in boards:
        want = lay.depth(list(board))
        for name, search in SEARCHES.items():
            sol = search(teaching.SlidingTiles(2, 3, board))
            assert sol.length == want, (name, board)
            assert puz.replay(list(board), sol.moves)[-1] == list(goal), (name, board)


@pytest.mark.parametrize("rows,cols,start", [
    (2, 3, (1, 2, 3, 4, 5, 0)),
    (2, 4, (1, 2, 3, 4, 5, 6, 7, 0)),
    (2, 4, (1, 1, 2, 2, 3, 3, 4, 0)),  # repeated labels: indistinguishable tiles
])
def test_layers_of_sliding_boards(rows, cols, start):
    lay = layers(SlidingPuzzle(rows, cols), list(start))
    plain = teaching.layers(teaching.SlidingTiles(rows, cols, start, heuristic="none"))
    assert plain.counts == lay.counts and plain.total == lay.total
    assert [list(b) for b in plain.farthest] == sorted(lay.farthest)
    assert plain.expanded == lay.total


@pytest.mark.heavy
def test_layers_of_the_rotation_puzzle():
    """Every one of the 3x3 Rotation Puzzle's 362,880 positions, counted in plain Python (over
    a minute)."""
    from puzzlelib import RotationPuzzle

    start = [[9, 4, 3], [2, 1, 8], [7, 6, 5]]
    assert (teaching.layers(teaching.RotationProblem(3, 3, start)).counts
            == layers(RotationPuzzle(3, 3), start).counts)


def test_layers_of_the_block_and_pancake_puzzles():
    from puzzlelib import BlockPuzzle, PancakePuzzle

    small = "AB.\nCDD\nCEF"
    for metric in ("unit", "straight", "path"):
        plain = teaching.layers(teaching.BlockProblem(small, metric, goal=False))
        assert plain.counts == layers(BlockPuzzle(small, metric=metric, goal=False)).counts
    pancakes = PancakePuzzle(6)
    plain = teaching.layers(teaching.PuzzleProblem(pancakes, "3 1 5 2 6 4"))
    assert plain.counts == layers(pancakes, "3 1 5 2 6 4").counts


def test_rotation_block_and_pancake_solutions_replay_through_the_kernels():
    from puzzlelib import BlockPuzzle, PancakePuzzle, RotationPuzzle

    rot = RotationPuzzle(3, 3)
    start = [[9, 4, 3], [2, 1, 8], [7, 6, 5]]
    for search in SEARCHES.values():
        sol = search(teaching.RotationProblem(3, 3, start))
        assert sol.length == 2 and rot.replay(start, sol.moves)[-1] == list(range(1, 10))
    board = "aDD\nbDD\n...\nc.d"
    for metric in ("unit", "straight", "path"):
        want = solve(BlockPuzzle(board, metric=metric, goal=(2, 0)), board, method="bfs")
        problem = teaching.BlockProblem(board, metric, goal=(2, 0))
        for name in ("breadth_first", "iterative_deepening", "astar"):
            sol = SEARCHES[name](problem)
            assert sol.length == want.length, (metric, name)
            last = BlockPuzzle(board, metric=metric, goal=(2, 0)).replay(board, sol.moves)[-1]
            assert problem.is_goal(teaching.BlockProblem(last, metric, goal=(2, 0)).initial)
    pancakes = PancakePuzzle(6)
    want = solve(pancakes, "3 1 5 2 6 4", method="bfs")
    for search in SEARCHES.values():
        sol = search(teaching.PuzzleProblem(pancakes, "3 1 5 2 6 4"))
        assert sol.length == want.length
        assert pancakes.replay("3 1 5 2 6 4", sol.moves)[-1] == [1, 2, 3, 4, 5, 6]
    sol = teaching.idastar(teaching.PuzzleProblem(pancakes, "3 1 5 2 6 4", heuristic="gap"))
    assert sol.length == want.length


def test_deepening_counts_match_the_kernels(rng):
    """Same move order (u, d, l, r), same pruning, same definitions: the plain passes generate
    and expand exactly what the kernel's do, first solution included; the passes and their
    first bound are the kernel's."""
    for walk in (14, 17, 20):
        start = tuple(random_board(3, 3, rng, walk=walk))
        for method, search, h in (("iddfs", teaching.iterative_deepening, "none"),
                                  ("idastar", teaching.idastar, "manhattan")):
            want = solve(EIGHT, list(start), method=method, threads=1)
            sol = search(teaching.SlidingTiles(3, 3, start, heuristic=h))
            assert (sol.length, sol.generated, sol.expanded) == (
                want.length, want.stats.generated, want.stats.expanded), (method, start)
            assert sol.moves == want.moves
            assert len(sol.extra["passes"]) == want.extra["iterations"]
            assert sol.extra["passes"][0][0] == want.extra["initial_bound"]
            assert sum(n for _, n in sol.extra["passes"]) == sol.generated


def test_bidirectional_stores_what_the_kernel_stores():
    """The plain bidirectional search deepens the same side as the kernel each round and
    stops at the same meeting: on all 360 2x3 positions the same moves, positions stored and
    layer sizes per side; on document 003's samples too (4x6, answer -1: the counts of
    positions generated and expanded as well, since no meeting stops a layer early)."""
    import pandas as pd

    from puzzlelib import RotationPuzzle
    from puzzlelib.domains.rotation import parse_contest_input

    def same(plain, kernel):
        assert plain.moves == kernel.moves and plain.length == kernel.length
        assert plain.stored == kernel.stats.stored
        assert plain.extra["forward_counts"] == list(kernel.extra["forward_counts"])
        assert plain.extra["backward_counts"] == list(kernel.extra["backward_counts"])

    puz = SlidingPuzzle(2, 3)
    for start in reference.distances((1, 2, 3, 4, 5, 0), 2, 3):
        board = list(reference.to_list(start))
        same(teaching.bidirectional(teaching.SlidingTiles(2, 3, board)),
             solve(puz, board, method="bidir"))
    samples = pd.read_csv(Path(__file__).parents[1] / "data" / "instances_003_rotation.csv")
    for s in samples.itertuples():
        text = f"{s.H} {s.W}\n" + "".join(row.strip() + "\n" for row in s.grid.split("/"))
        rows, cols, values = parse_contest_input(text)
        kernel = solve(RotationPuzzle(rows, cols), values)  # max_depth 20: the puzzle's default
        plain = teaching.bidirectional(teaching.RotationProblem(rows, cols, values), max_depth=20)
        same(plain, kernel)
        assert plain.length == s.answer
        if plain.length == -1:
            assert (plain.generated, plain.expanded) == (kernel.stats.generated,
                                                         kernel.stats.expanded)
    # a limit the answer does not fit in: no solution, each side stopped at its depth
    start = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    for depth in (0, 9, 30):
        plain = teaching.bidirectional(teaching.SlidingTiles(3, 3, start), max_depth=depth)
        kernel = solve(EIGHT, list(start), method="bidir", max_depth=depth)
        assert plain.moves is None and kernel.length == -1
        assert plain.stored == kernel.stats.stored
        assert len(plain.extra["forward_counts"]) + len(plain.extra["backward_counts"]) - 2 == depth


def test_breadth_first_depth_limit_and_greedy_best_first():
    start = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
    for limit, found in ((30, False), (31, True)):
        sol = teaching.breadth_first(teaching.SlidingTiles(3, 3, start), max_depth=limit)
        assert (sol.moves is not None) == found
    greedy = teaching.astar(teaching.SlidingTiles(3, 3, start), greedy=True)
    optimal = teaching.astar(teaching.SlidingTiles(3, 3, start))
    assert optimal.length == 31 and greedy.length > 31 and greedy.expanded < optimal.expanded
    assert EIGHT.replay(list(start), greedy.moves)[-1] == list(GOAL8)


def test_pattern_tables_equal_the_kernels_every_entry():
    from puzzlelib.pdb.sliding import pattern_database

    for rows, cols, tiles in ((2, 3, (1, 2)), (2, 3, (3, 4, 5)), (3, 3, (1, 2, 3)), (3, 3, (7, 8))):
        goal = tuple(range(1, rows * cols)) + (0,)
        plain = teaching.pattern_table(rows, cols, tiles)
        cells = [goal.index(t) for t in tiles]
        db = pattern_database(rows, cols, cells, goal.index(0), cache=False)
        assert len(plain.values) == db.n_entries
        assert all(db.value(place) == v for place, v in plain.values.items())
    # disjoint patterns add up to a lower bound: IDA* stays optimal
    h = teaching.additive_heuristic([teaching.pattern_table(3, 3, (1, 2, 3, 4)),
                                     teaching.pattern_table(3, 3, (5, 6, 7, 8))])
    assert h(GOAL8) == 0
    sol = teaching.idastar(teaching.SlidingTiles(3, 3, START8, heuristic=h))
    assert sol.length == 31 and h(START8) >= teaching.SlidingTiles(3, 3, START8).h(START8)


def test_check_heuristic_finds_admissible_and_overestimating_ones():
    manhattan = teaching.SlidingTiles(3, 3, GOAL8).h
    good = teaching.check_heuristic(manhattan)
    assert good.positions == 181440 and good.admissible and good.consistent
    good.raise_if_not_admissible()
    assert all(a == b for _, _, a, b in good.runs) and "admissible: yes" in str(good)
    bad = teaching.check_heuristic(lambda board: 2 * manhattan(board))
    assert not bad.admissible and not bad.consistent
    board, h, d = bad.overestimate
    lay = layers(EIGHT, list(GOAL8))
    assert h == 2 * manhattan(board) and d == lay.depth(list(board)) < h
    with pytest.raises(teaching.InadmissibleHeuristic) as err:
        bad.raise_if_not_admissible()
    assert " ".join(map(str, board)) in str(err.value) and "\n" not in str(err.value)
    assert "<table>" in bad._repr_html_()


def test_watch_sees_each_expansion_and_can_stop_the_search():
    problem = teaching.SlidingTiles(3, 3, START8)
    children = tuple(b for _, b in teaching.neighbours(START8, 3, 3))
    steps = []
    sol = teaching.breadth_first(problem, watch=lambda s: steps.append(s) or len(steps) == 3)
    assert sol.moves is None and sol.expanded == 3 and [s.n for s in steps] == [0, 1, 2]
    first = steps[0]
    assert (first.state, first.g, first.h, first.bound, first.side) == (
        START8, 0, None, None, None)
    assert first.frontier == children and first.seen == 1 + len(children)
    assert steps[1].state == children[0] and steps[1].frontier[: len(children) - 1] == children[1:]

    steps = []
    teaching.astar(problem, watch=lambda s: steps.append(s) or len(steps) == 2)
    f = {b: 1 + problem.h(b) for b in children}
    assert steps[0].state == START8 and steps[0].h == problem.h(START8) == 21
    assert steps[0].frontier == tuple(sorted(children, key=lambda b: (f[b], children.index(b))))
    assert steps[1].state == steps[0].frontier[0]

    steps = []
    sol = teaching.idastar(problem, watch=lambda s: steps.append(s) or len(steps) == 3)
    assert sol.moves is None and [s.bound for s in steps] == [21] * 3
    assert steps[0].frontier == (START8,) and steps[1].frontier == (START8, steps[1].state)
    assert all(len(s.frontier) == s.g + 1 and s.frontier[-1] == s.state for s in steps)

    steps = []
    teaching.bidirectional(problem, watch=lambda s: steps.append(s) or len(steps) == 2)
    assert [(s.state, s.side) for s in steps] == [(START8, "forward"), (GOAL8, "backward")]
