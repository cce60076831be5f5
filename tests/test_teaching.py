"""The plain-Python teaching versions compute what the kernels compute."""

import pytest

from puzzlelib import SlidingPuzzle, layers, solve, teaching

from . import reference
from .conftest import random_board


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_teaching_agrees_with_kernels(rows, cols, rng):
    goal = tuple(range(1, rows * cols)) + (0,)
    puz = SlidingPuzzle(rows, cols)
    counts, far = teaching.layers(goal, rows, cols)
    lay = layers(puz, goal)
    assert counts == lay.counts and sorted(map(list, far)) == sorted(lay.farthest)
    for _ in range(3):
        start = random_board(rows, cols, rng, walk=30)
        want = solve(puz, start, method="idastar", all_solutions=True)
        moves, _ = teaching.bfs(start, goal, rows, cols)
        assert len(moves) == want.length and reference.replay(start, moves, cols) == list(goal)
        moves, _ = teaching.bidirectional_bfs(start, goal, rows, cols)
        assert len(moves) == want.length and reference.replay(start, moves, cols) == list(goal)
        for lb in (False, True):
            length, count, first, _ = teaching.iddfs(start, goal, rows, cols, lower_bound=lb)
            assert (length, count) == (want.length, want.solutions)
            assert reference.replay(start, first, cols) == list(goal)
