"""The Rotation Puzzle (AtCoder ABC336 F, source document 003).

An H x W grid (3 <= H, W <= 8) holds the numbers 1..HW. One operation turns one of the four
(H-1) x (W-1) sub-rectangles, whose top-left corner is (0, 0), (0, 1), (1, 0) or (1, 1), by 180
degrees. The goal is the sorted grid (1..HW in row-major order). Each operation is its own
inverse, and the number of positions (up to 64!) is far beyond any rank table, so this domain
is searched with whole states in hash sets (:mod:`puzzlelib.search.bidirectional`).

Encoding used by the kernels: a ``uint8`` state of H*W bytes, cell by cell, holding the numbers
minus one. Operation ``m`` is the sub-rectangle with corner ``(m // 2, m % 2)``; a 180-degree
turn swaps each of its cells with the cell at the same place counted from the far corner, so
it is stored as a list of cell pairs.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..domain import DomainFns
from ..errors import PuzzleError

MIN_SIDE, MAX_SIDE = 3, 8
#: The operations, in move-number order, as the (row, column) of the turned rectangle's corner.
OPERATIONS = ((0, 0), (0, 1), (1, 0), (1, 1))

RotationParams = namedtuple(
    "RotationParams",
    [
        "state_len",  # rows * cols
        "n_moves",  # 4
        "bound_step",  # 1
        "rows",
        "cols",
        "pairs",  # pairs[m, k] = (cell a, cell b) swapped by operation m
    ],
)


@njit(cache=True)
def _step(state, m, p):
    for k in range(p.pairs.shape[1]):
        a = p.pairs[m, k, 0]
        b = p.pairs[m, k, 1]
        t = state[a]
        state[a] = state[b]
        state[b] = t
    return 0


@njit(cache=True)
def _inverse(m, p):
    return m  # turning by 180 degrees twice changes nothing


@njit(cache=True)
def _is_goal(state, p):
    for i in range(p.state_len):
        if state[i] != i:
            return False
    return True


@njit(cache=True)
def _heuristic(state, p):
    return 0


@njit(cache=True)
def _no_rank(state, p):
    raise ValueError("the rotation puzzle has no rank function: search it with whole states")


@njit(cache=True)
def _no_unrank(r, p, state):
    raise ValueError("the rotation puzzle has no rank function: search it with whole states")


@njit(cache=True)
def _no_rank_after(state, m, r, p):
    raise ValueError("the rotation puzzle has no rank function: search it with whole states")


FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, _no_rank, _no_unrank, _no_rank_after)


def parse_grid(grid, rows=None, cols=None):
    """Check a grid (a list of rows, or a flat sequence with ``rows`` and ``cols``) and return
    ``(rows, cols, values)`` with ``values`` a flat list of ints. Raises :class:`PuzzleError`
    naming the problem."""
    if rows is None:
        grid = [list(r) for r in grid]
        rows = len(grid)
        if rows == 0:
            raise PuzzleError("the grid has no rows")
        cols = len(grid[0])
        for i, r in enumerate(grid):
            if len(r) != cols:
                raise PuzzleError(f"row {i + 1} has {len(r)} values, expected {cols}")
        flat = [v for r in grid for v in r]
    else:
        flat = list(np.asarray(grid).ravel())
    for side, name in ((rows, "H"), (cols, "W")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise PuzzleError(f"{name} = {side} is out of range: H and W must be 3 to 8")
    if len(flat) != rows * cols:
        raise PuzzleError(f"expected {rows * cols} values for a {rows}x{cols} grid, got {len(flat)}")
    values = []
    for v in flat:
        try:
            iv = int(v)
        except (TypeError, ValueError):
            raise PuzzleError(f"value {v!r} is not an integer") from None
        if iv != v and not isinstance(v, str):
            raise PuzzleError(f"value {v!r} is not an integer")
        values.append(iv)
    n = rows * cols
    seen = set()
    for v in values:
        if not 1 <= v <= n:
            raise PuzzleError(f"value {v} is out of range 1..{n} for a {rows}x{cols} grid")
        if v in seen:
            raise PuzzleError(f"value {v} appears more than once: the grid must hold 1..{n} once each")
        seen.add(v)
    return rows, cols, values


def parse_contest_input(text):
    """The contest's input format: ``H W`` on the first line, then H rows of W numbers.
    Returns ``(rows, cols, values)``."""
    lines = [ln.split() for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        raise PuzzleError("empty input: expected 'H W' and then H rows")
    head = lines[0]
    if len(head) != 2 or not all(t.lstrip("-").isdigit() for t in head):
        raise PuzzleError(f"first line {' '.join(head)!r} is not 'H W'")
    rows, cols = int(head[0]), int(head[1])
    for side, name in ((rows, "H"), (cols, "W")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise PuzzleError(f"{name} = {side} is out of range: H and W must be 3 to 8")
    body = lines[1:]
    if len(body) != rows:
        raise PuzzleError(f"expected {rows} rows after 'H W', got {len(body)}")
    grid = []
    for i, row in enumerate(body):
        if len(row) != cols:
            raise PuzzleError(f"row {i + 1} has {len(row)} values, expected {cols}")
        vals = []
        for tok in row:
            if not tok.lstrip("-").isdigit():
                raise PuzzleError(f"row {i + 1}: {tok!r} is not an integer")
            vals.append(int(tok))
        grid.append(vals)
    return parse_grid(grid)


class RotationPuzzle:
    """The H x W Rotation Puzzle; goal: the sorted grid."""

    name = "rotation"
    fns = FNS

    def __init__(self, rows, cols):
        for side, name in ((rows, "H"), (cols, "W")):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise PuzzleError(f"{name} = {side} is out of range: H and W must be 3 to 8")
        self.rows, self.cols = int(rows), int(cols)
        self.n_cells = self.rows * self.cols
        self.params = RotationParams(self.n_cells, 4, 1, self.rows, self.cols, self._pairs())

    def _pairs(self):
        h, w = self.rows - 1, self.cols - 1
        size = h * w
        pairs = np.empty((4, size // 2, 2), dtype=np.int64)
        for m, (x, y) in enumerate(OPERATIONS):
            cells = [(x + i) * self.cols + (y + j) for i in range(h) for j in range(w)]
            for k in range(size // 2):
                pairs[m, k] = (cells[k], cells[size - 1 - k])
        return pairs

    @property
    def size(self):
        return f"{self.rows}x{self.cols}"

    def encode(self, values):
        """Numbers 1..HW (row-major) -> kernel state."""
        return np.asarray(values, dtype=np.int64).astype(np.uint8) - np.uint8(1)

    def decode(self, state):
        return [int(x) + 1 for x in state]

    def goal_state(self):
        return np.arange(self.n_cells, dtype=np.uint8)

    def apply(self, values, operations):
        """Replay operations (move numbers or (x, y) corners); return every grid on the way as
        flat lists (the first is ``values`` itself)."""
        state = self.encode(values)
        out = [self.decode(state)]
        for op in operations:
            m = OPERATIONS.index(tuple(op)) if not isinstance(op, (int, np.integer)) else int(op)
            _step(state, m, self.params)
            out.append(self.decode(state))
        return out
