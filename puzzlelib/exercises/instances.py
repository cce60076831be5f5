"""The instances the searches are graded on, with their right answers from the kernels.

Each :class:`Instance` is a start on a small puzzle: the 8-puzzle (its usual goal, and the
blank first), the 2x3 board, and the 3x3 Rotation Puzzle, whose 1,440 positions and four
self-undoing moves catch a search written for sliding tiles alone. Among them: a start that
is already the goal, starts 1 to 31 moves away, and starts from which the goal cannot be
reached. The shortest length of each is read from the kernels: the distance table of
:func:`puzzlelib.layers` from the goal (moves can be undone, so a position's depth there is
its distance to the goal), or :func:`puzzlelib.solve` on the Rotation Puzzle.
"""

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from ..api import layers, solve
from ..core.errors import UnsolvableError
from ..domains import RotationPuzzle, SlidingPuzzle
from ..teaching.problems import RotationProblem, SlidingTiles, neighbours

EIGHT_GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
BLANK_FIRST = (0, 1, 2, 3, 4, 5, 6, 7, 8)
SIX_GOAL = (1, 2, 3, 4, 5, 0)
FARTHEST = "8 6 7 2 5 4 3 0 1"  # 31 moves from the goal, the most there are

#: Starts by puzzle and how far they lie from the goal (a rough guide: the lengths graded
#: against are the kernels'); None: the goal cannot be reached.
STARTS = {
    "8-puzzle": {
        0: "1 2 3 4 5 6 7 8 0", 1: "1 2 3 4 5 0 7 8 6", 2: "1 2 3 4 0 5 7 8 6",
        3: "1 0 3 4 2 6 7 5 8", 5: "1 2 3 0 8 5 4 7 6", 6: "1 2 3 7 0 5 8 4 6",
        8: "1 3 0 4 2 8 7 6 5", 10: "0 4 1 5 3 2 7 8 6", 12: "8 1 2 5 0 3 4 7 6",
        14: "8 4 5 1 0 2 7 6 3", 16: "6 2 3 1 0 8 4 5 7", 18: "7 4 3 5 2 6 8 1 0",
        20: "5 7 2 6 4 3 0 1 8", 22: "4 3 1 6 5 8 0 2 7", 24: "6 3 1 4 8 7 5 2 0",
        26: "4 7 0 6 5 8 2 3 1", 28: "3 2 5 6 7 1 0 8 4", 31: FARTHEST,
        None: "2 1 3 4 5 6 7 8 0",
    },
    "8-puzzle, blank first": {7: "4 3 2 6 1 5 7 0 8", 13: "6 0 2 4 3 5 1 7 8",
                              19: "6 3 5 1 8 7 4 0 2", 25: "8 0 3 2 1 6 7 4 5"},
    "2x3 board": {5: "4 1 2 5 0 3", 9: "0 2 5 1 3 4", 13: "2 1 3 5 0 4", 21: "4 5 0 1 2 3",
                  None: "2 1 3 4 5 0"},
    "Rotation Puzzle 3x3": {2: "5 4 3 8 7 6 1 2 9", 4: "1 2 7 4 3 6 5 8 9",
                            6: "7 2 5 8 9 4 3 6 1", 8: "9 6 3 4 7 8 5 2 1",
                            11: "3 6 9 2 5 8 1 4 7", None: "2 1 3 4 5 6 7 8 9"},
}

_SLIDING = {"8-puzzle": (3, 3, EIGHT_GOAL), "8-puzzle, blank first": (3, 3, BLANK_FIRST),
            "2x3 board": (2, 3, SIX_GOAL)}


def board(text):
    return tuple(int(x) for x in text.split())


@dataclass(frozen=True)
class Instance:
    """One start: ``puzzle`` (a key of :data:`STARTS`), ``start`` (a tuple) and ``length``,
    the shortest solution's moves from the kernels (None: no solution)."""

    puzzle: str
    start: tuple
    length: object

    @property
    def label(self):
        return f"{self.puzzle}, start {' '.join(map(str, self.start))}"

    @property
    def sliding(self):
        return self.puzzle in _SLIDING

    def problem(self):
        """A fresh plain problem for this start (sliding tiles with Manhattan distance as
        ``h``; the Rotation Puzzle has none)."""
        if self.sliding:
            rows, cols, goal = _SLIDING[self.puzzle]
            return SlidingTiles(rows, cols, self.start, goal, heuristic="manhattan")
        return RotationProblem(3, 3, self.start)

    def depths(self):
        """The kernels' distance table from this start (sliding tiles): a
        :class:`puzzlelib.Result` whose ``depth(position)`` is a position's distance from
        the start and ``counts[d]`` the positions at distance ``d``."""
        rows, cols, goal = _SLIDING[self.puzzle]
        return _table(rows, cols, goal, self.start)


@lru_cache(maxsize=64)
def _table(rows, cols, goal, start):
    return layers(SlidingPuzzle(rows, cols, goal=list(goal)), list(start), progress=False)


def kernel_length(puzzle, start):
    """The fewest moves from ``start`` to the goal, from the kernels (None: unreachable)."""
    if puzzle in _SLIDING:
        rows, cols, goal = _SLIDING[puzzle]
        try:
            return _table(rows, cols, goal, goal).depth(list(start))
        except UnsolvableError:
            return None
    res = solve(RotationPuzzle(3, 3), list(start), progress=False)
    return None if res.length < 0 else res.length


@lru_cache(maxsize=None)
def instances(puzzle, *depths):
    """The starts of ``puzzle`` at these rough ``depths`` (keys of :data:`STARTS`), as
    :class:`Instance` s with the kernels' lengths."""
    out = []
    for d in depths:
        start = board(STARTS[puzzle][d])
        out.append(Instance(puzzle, start, kernel_length(puzzle, start)))
    return tuple(out)


@lru_cache(maxsize=1)
def eight_puzzle_positions():
    """Every position of the 8-puzzle that reaches the goal, with its distance to the goal
    and its neighbours: ``(positions, distance, neighbours)``, positions in breadth-first
    order from the goal (nearest first). The per-depth counts are checked against the
    kernels' table."""
    dist = {EIGHT_GOAL: 0}
    order = [EIGHT_GOAL]
    adjacent = {}
    queue = deque([EIGHT_GOAL])
    while queue:
        a = queue.popleft()
        adjacent[a] = [b for _, b in neighbours(a, 3, 3)]
        for b in adjacent[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                order.append(b)
                queue.append(b)
    counts = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        counts[d] += 1
    kernel = _table(3, 3, EIGHT_GOAL, EIGHT_GOAL)
    if counts != list(kernel.counts):
        raise AssertionError("the 8-puzzle's positions per depth differ from the kernel's")
    return order, dist, adjacent
