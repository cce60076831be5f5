"""Puzzles written as :class:`~puzzlelib.teaching.problem.Problem` s, in plain Python.

Each writes its moves the way the matching kernel puzzle does, so a plain solution replays
through it: ``SlidingPuzzle(...).replay(start, moves)``, ``RotationPuzzle(...)``,
``BlockPuzzle(...)``. :class:`PuzzleProblem` wraps any :class:`puzzlelib.Puzzle` instead.
"""

from operator import itemgetter

import numpy as np

from ..domains.blocks import SHAPES, parse_board, parse_goal
from .problem import Problem

# ---------------------------------------------------------------------------------------------
# Sliding tiles
# ---------------------------------------------------------------------------------------------

#: The blank's moves, in the order they are tried: up, down, left, right.
MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
OPPOSITE = {"u": "d", "d": "u", "l": "r", "r": "l"}


def neighbours(board, rows, cols):
    """Yield ``(move, next_board)`` for each way the blank can move."""
    b = board.index(0)
    r, c = divmod(b, cols)
    for move, (dr, dc) in MOVES.items():
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            t = nr * cols + nc
            cells = list(board)
            cells[b], cells[t] = cells[t], 0
            yield move, tuple(cells)


def board_of(position):
    """A board given as a sequence or as text (``"1 2 3 0"``) -> a tuple of ints."""
    if isinstance(position, str):
        position = position.replace(",", " ").split()
    return tuple(int(x) for x in position)


def manhattan_table(goal, rows, cols):
    """``table[label][cell]``: rows plus columns from ``cell`` to the nearest goal cell of
    ``label`` (0 for the blank, which is not counted)."""
    table = {}
    for label in set(goal):
        homes = [divmod(i, cols) for i, t in enumerate(goal) if t == label]
        table[label] = [0 if label == 0 else
                        min(abs(r - hr) + abs(c - hc) for hr, hc in homes)
                        for r, c in (divmod(cell, cols) for cell in range(rows * cols))]
    return table


class SlidingTiles(Problem):
    """A ``rows x cols`` sliding-tile board. States are tuples of labels in row-major order,
    0 for the blank; labels may repeat (such tiles are indistinguishable). Actions are the
    blank's moves ``"u"``, ``"d"``, ``"l"``, ``"r"``; a solution is written as one string.

    ``goal``: default ``1 .. n-1`` then the blank. ``heuristic``: ``"manhattan"`` (each tile's
    rows plus columns to its nearest goal cell), ``"none"``, or a function of a board."""

    bound_step = 2  # a move changes the parity of the blank's distance to its goal cell

    def __init__(self, rows, cols, start, goal=None, heuristic="manhattan"):
        goal = tuple(range(1, rows * cols)) + (0,) if goal is None else board_of(goal)
        super().__init__(board_of(start), goal)
        self.rows, self.cols = rows, cols
        if heuristic == "manhattan":
            table = manhattan_table(goal, rows, cols)
            self.h = lambda board: sum(table[t][i] for i, t in enumerate(board))
        elif callable(heuristic):
            self.h = heuristic
        elif heuristic not in (None, "none"):
            raise ValueError(f"unknown heuristic {heuristic!r}: 'manhattan', 'none' or a function")

    def successors(self, state):
        return neighbours(state, self.rows, self.cols)

    def actions(self, state):
        return [move for move, _ in neighbours(state, self.rows, self.cols)]

    def result(self, state, action):
        b = state.index(0)
        dr, dc = MOVES[action]
        t = b + dr * self.cols + dc
        cells = list(state)
        cells[b], cells[t] = cells[t], 0
        return tuple(cells)

    def inverse(self, action):
        return OPPOSITE[action]

    def residue(self, state):
        (r, c), (gr, gc) = divmod(state.index(0), self.cols), divmod(self.goal.index(0), self.cols)
        return (abs(r - gr) + abs(c - gc)) % 2

    def notation(self, actions):
        return "".join(actions)


# ---------------------------------------------------------------------------------------------
# The Rotation Puzzle
# ---------------------------------------------------------------------------------------------

#: The turned rectangle's top-left corner, for each action (in the kernel puzzle's order).
CORNERS = ((0, 0), (0, 1), (1, 0), (1, 1))


class RotationProblem(Problem):
    """The H x W Rotation Puzzle: a move turns one of the four (H-1) x (W-1) sub-rectangles by
    180 degrees; the goal is ``1 .. HW`` in reading order. States are tuples of the numbers,
    row by row; an action is the turned rectangle's top-left corner ``(row, col)``, written
    ``[row, col]`` as :class:`puzzlelib.RotationPuzzle` writes it."""

    def __init__(self, rows, cols, start):
        start = [x for row in start for x in row] if isinstance(start[0], (list, tuple)) else start
        super().__init__(board_of(start), tuple(range(1, rows * cols + 1)))
        self.rows, self.cols = rows, cols
        h, w = rows - 1, cols - 1
        # the cells of each rectangle in reading order: turning it by 180 degrees reverses them
        self.cells = {(x, y): [(x + i) * cols + y + j for i in range(h) for j in range(w)]
                      for x, y in CORNERS}
        # each turn as a list: cell i of the turned grid takes the number in cell source[i];
        # itemgetter(*source) then makes the turned grid in one call
        self.turns = {}
        for corner, cells in self.cells.items():
            source = list(range(rows * cols))
            for a, b in zip(cells, reversed(cells)):
                source[a] = b
            self.turns[corner] = itemgetter(*source)

    def actions(self, state):
        return list(CORNERS)

    def result(self, state, action):
        return self.turns[action](state)

    def inverse(self, action):
        return action  # two half turns change nothing

    def notation(self, actions):
        return [list(a) for a in actions]


# ---------------------------------------------------------------------------------------------
# Block (Hakoiri) puzzles
# ---------------------------------------------------------------------------------------------

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def block_successors(pieces, rows, cols, metric):
    """Yield ``(((r, c), (r1, c1)), next_pieces)`` for every move of a block board.

    ``pieces``: a sorted tuple of ``(height, width, row, col)`` (top-left cells); pieces of
    one shape are alike, so this tuple is the same for positions that look the same. A move
    takes one piece from ``(r, c)`` to ``(r1, c1)``: one cell (``"unit"``), any distance in a
    straight line (``"straight"``) or anywhere it can get by unit steps (``"path"``)."""
    for piece in pieces:
        h, w, r, c = piece
        # the cells of every other piece
        taken = {(pr + i, pc + j) for ph, pw, pr, pc in pieces if (pr, pc) != (r, c)
                 for i in range(ph) for j in range(pw)}

        def fits(a, b):  # can the piece stand with its top-left cell at (a, b)?
            return (0 <= a and 0 <= b and a + h <= rows and b + w <= cols
                    and all((a + i, b + j) not in taken for i in range(h) for j in range(w)))

        if metric == "path":  # breadth-first over the places the piece can step to
            places = [(r, c)]
            for a, b in places:
                for da, db in STEPS:
                    t = (a + da, b + db)
                    if t not in places and fits(*t):
                        places.append(t)
            targets = places[1:]
        else:
            targets = []
            for da, db in STEPS:
                k = 1
                while fits(r + k * da, c + k * db):
                    targets.append((r + k * da, c + k * db))
                    if metric == "unit":
                        break
                    k += 1
        for r1, c1 in targets:
            moved = [p for p in pieces if p != piece] + [(h, w, r1, c1)]
            yield ((r, c), (r1, c1)), tuple(sorted(moved))


class BlockProblem(Problem):
    """A block puzzle board (text, as :class:`puzzlelib.BlockPuzzle` reads it) under a move
    ``metric`` (``"unit"``, ``"straight"`` or ``"path"``). The goal: a 2x2 piece with its
    top-left cell at ``goal`` (``(row, col)``; None: the bottom rows, centred; False: no goal,
    for counting positions). Many positions are goals, so :attr:`goal` is None. States: see
    :func:`block_successors`; an action ``((r, c), (r1, c1))`` is written
    ``[[r, c], [r1, c1]]``."""

    def __init__(self, board, metric="straight", goal=None):
        self.rows, self.cols, pieces = parse_board(board)
        start = tuple(sorted(SHAPES[s] + (r, c) for s, r, c in pieces))
        super().__init__(start, None)
        self.metric = metric
        self.place = None if goal is False else parse_goal(goal, self.rows, self.cols)

    def successors(self, state):
        return block_successors(state, self.rows, self.cols, self.metric)

    def actions(self, state):
        return [action for action, _ in self.successors(state)]

    def result(self, state, action):
        (r, c), (r1, c1) = action
        h, w = next((h, w) for h, w, pr, pc in state if (pr, pc) == (r, c))
        return tuple(sorted([p for p in state if p[2:] != (r, c)] + [(h, w, r1, c1)]))

    def is_goal(self, state):
        return self.place is not None and (2, 2) + tuple(self.place) in state

    def inverse(self, action):
        return action[1], action[0]

    def notation(self, actions):
        return [[list(a), list(b)] for a, b in actions]

    def text(self, state):
        """The position drawn as text (one letter per piece, ``.`` for empty cells)."""
        grid = [["."] * self.cols for _ in range(self.rows)]
        for k, (h, w, r, c) in enumerate(state):
            for i in range(h):
                for j in range(w):
                    grid[r + i][c + j] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[k % 26]
        return "\n".join("".join(row) for row in grid)


# ---------------------------------------------------------------------------------------------
# Any kernel puzzle
# ---------------------------------------------------------------------------------------------


def _frozen(x):
    """Lists inside lists -> tuples inside tuples (hashable)."""
    return tuple(_frozen(v) for v in x) if isinstance(x, (list, tuple)) else x


def _thawed(x):
    return [_thawed(v) for v in x] if isinstance(x, tuple) else x


class PuzzleProblem(Problem):
    """Any :class:`puzzlelib.Puzzle` (pancakes, TopSpin, the Pocket Cube, ...) as a problem,
    through its plain-Python view :meth:`~puzzlelib.Puzzle.neighbours`. States and actions are
    the puzzle's positions and moves with lists turned into tuples. ``goal``: a goal position,
    or None for the puzzle's own goal test. ``heuristic``: one the puzzle knows by name."""

    def __init__(self, puzzle, start, goal=None, heuristic=None):
        self.puzzle = puzzle if heuristic is None else puzzle.with_heuristic(heuristic)
        p = self.puzzle
        start = p.decode(p.encode(start))
        if goal is None and p.goal_state() is not None:
            goal = p.decode(p.goal_state())
        super().__init__(_frozen(start), None if goal is None else _frozen(goal))
        names = [_frozen(p.moves_out(np.array([m]))[0]) for m in range(int(p.params.n_moves))]
        self._inverse = {names[m]: names[int(p.fns.inverse(m, p.params))]
                         for m in range(len(names))}
        self.bound_step = int(p.params.bound_step)

    def successors(self, state):
        for move, position in self.puzzle.neighbours(_thawed(state)):
            yield _frozen(move), _frozen(position)

    def actions(self, state):
        return [action for action, _ in self.successors(state)]

    def result(self, state, action):
        return dict(self.successors(state))[action]

    def is_goal(self, state):
        if self.goal is not None:
            return state == self.goal
        p = self.puzzle
        return bool(p.fns.is_goal(p.encode(_thawed(state)), p.params))

    def h(self, state):
        if self.puzzle.heuristic == "none":
            return 0
        return self.puzzle.heuristic_value(self.puzzle.encode(_thawed(state)))

    def inverse(self, action):
        return self._inverse.get(action)

    def residue(self, state):
        return int(self.puzzle.residue(self.puzzle.encode(_thawed(state))))

    def notation(self, actions):
        return [_thawed(a) for a in actions]
