"""The Rotation Puzzle (AtCoder ABC336 F, source document 003).

An H x W grid (3 <= H, W <= 8) holds the numbers 1..HW. One operation turns one of the four
(H-1) x (W-1) sub-rectangles, whose top-left corner is (0, 0), (0, 1), (1, 0) or (1, 1), by 180
degrees. The goal is the sorted grid (1..HW in row-major order). Each operation is its own
inverse, and the number of positions (up to 64!) is far beyond any rank table, so this domain
is searched with whole states in hash sets (:mod:`puzzlelib.search.bidirectional`).

Encoding used by the kernels: a ``uint8`` state of H*W bytes, cell by cell, holding the numbers
minus one. Operation ``m`` is the sub-rectangle with corner ``(m // 2, m % 2)``; a 180-degree
turn swaps each of its cells with the cell at the same place counted from the far corner, so
it is stored as a list of cell pairs. On a grid 8 wide (the worst case, 8x8) each row is one
64-bit word instead, and the turn is done a row at a time (:func:`_turn_rows`).
"""

import sys
from collections import namedtuple

import numpy as np

from ..core.contract import DomainFns, domain_fn, no_rank, no_rank_after, no_unrank
from ..core.errors import PuzzleError
from .base import Puzzle

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


#: Row words hold their first cell in the low byte (what :func:`_turn_rows` assumes).
_LITTLE_ENDIAN = sys.byteorder == "little"
_LOW_BYTE = np.uint64(0xFF)
_HIGH_BYTE = np.uint64(0xFF00000000000000)


@domain_fn
def _reversed_bytes(v):
    """The eight bytes of ``v`` in reverse order (LLVM makes this one ``bswap``)."""
    return (((v & np.uint64(0xFF)) << np.uint64(56)) | ((v & np.uint64(0xFF00)) << np.uint64(40))
            | ((v & np.uint64(0xFF0000)) << np.uint64(24))
            | ((v & np.uint64(0xFF000000)) << np.uint64(8))
            | ((v >> np.uint64(8)) & np.uint64(0xFF000000))
            | ((v >> np.uint64(24)) & np.uint64(0xFF0000))
            | ((v >> np.uint64(40)) & np.uint64(0xFF00)) | (v >> np.uint64(56)))


@domain_fn
def _turned_row(src, dst, y):
    """Row word ``dst`` after the turn of 7 cells starting at column ``y`` (0 or 1): those
    cells get row ``src``'s 7 cells in reverse order, the cell outside keeps its value."""
    if y == 0:
        return (_reversed_bytes(src) >> np.uint64(8)) | (dst & _HIGH_BYTE)
    return (_reversed_bytes(src) << np.uint64(8)) | (dst & _LOW_BYTE)


@domain_fn
def _turn_rows(words, x, y, h):
    """The 180-degree turn of the ``h`` x 7 rectangle at (x, y) on a grid of 8 columns held as
    one word per row: row ``x + i`` gets row ``x + h - 1 - i`` reversed. The words written
    whole are also read whole by the hash, where the cell pairs' byte writes stalled its word
    reads (benchmarks/RESULTS.md, "Constants")."""
    a = x
    b = x + h - 1
    while a < b:
        wa = words[a]
        wb = words[b]
        words[a] = _turned_row(wb, wa, y)
        words[b] = _turned_row(wa, wb, y)
        a += 1
        b -= 1
    if a == b:
        words[a] = _turned_row(words[a], words[a], y)


@domain_fn
def _step(state, m, p):
    if p.cols == 8 and _LITTLE_ENDIAN:
        _turn_rows(state.view(np.uint64), m >> 1, m & 1, p.rows - 1)
        return 0
    for k in range(p.pairs.shape[1]):
        a = p.pairs[m, k, 0]
        b = p.pairs[m, k, 1]
        t = state[a]
        state[a] = state[b]
        state[b] = t
    return 0


@domain_fn
def _inverse(m, p):
    return m  # turning by 180 degrees twice changes nothing


@domain_fn
def _is_goal(state, p):
    for i in range(p.state_len):
        if state[i] != i:
            return False
    return True


@domain_fn
def _heuristic(state, p):
    return 0


FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, no_rank, no_unrank, no_rank_after)


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
        flat = list(np.asarray(grid, dtype=object).ravel())
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
    if not isinstance(text, str):
        raise PuzzleError(f"the contest's input is text, not {type(text).__name__}")
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


class RotationPuzzle(Puzzle):
    """The H x W Rotation Puzzle (3 <= H, W <= 8); goal: the sorted grid (1..HW row by row).

    Positions are grids of the numbers 1..HW: a list of rows, a flat sequence, or the numbers
    as text row by row. A solution's ``moves`` are the turned rectangles' top-left corners
    ``[row, col]`` (one of ``[0, 0]``, ``[0, 1]``, ``[1, 0]``, ``[1, 1]``), in order. No
    heuristic is known: ``bidir`` (the default), ``bfs``, ``iddfs`` and the others search
    blind; ``max_depth`` defaults to the contest's 20 (a longer answer is reported as -1).
    """

    name = "rotation"
    fns = FNS
    default_method = "bidir"
    default_max_depth = 20
    stable_types = True

    def __init__(self, rows, cols=None):
        if cols is None and isinstance(rows, str):
            parts = rows.lower().replace("×", "x").split("x")
            if len(parts) != 2 or not all(t.strip().isdigit() for t in parts):
                raise PuzzleError(f"grid size {rows!r} is not of the form HxW, e.g. 3x3")
            rows, cols = (int(t) for t in parts)
        for side, name in ((rows, "H"), (cols, "W")):
            if not isinstance(side, (int, np.integer)) or not MIN_SIDE <= side <= MAX_SIDE:
                raise PuzzleError(f"{name} = {side!r} is out of range: H and W must be 3 to 8")
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

    label = size

    def describe(self):
        return {"puzzle": self.name, "size": self.size}

    def encode(self, position, what="start"):
        """A grid of 1..HW (rows, flat, or text) -> the kernels' state (the numbers minus
        one), checked."""
        if isinstance(position, str):
            position = position.replace(",", " ").split()
        try:
            nested = len(position) == self.rows and all(
                isinstance(r, (list, tuple, np.ndarray)) for r in position)
        except TypeError:
            raise PuzzleError(f"{what}: a grid is a list of rows or of numbers") from None
        if nested:
            rows, cols, values = parse_grid(position)
        else:
            rows, cols, values = parse_grid(position, self.rows, self.cols)
        if (rows, cols) != (self.rows, self.cols):
            raise PuzzleError(f"{what} is {rows}x{cols}, the puzzle is {self.size}")
        return np.asarray(values, dtype=np.int64).astype(np.uint8) - np.uint8(1)

    def decode(self, state):
        """The kernels' state -> the grid as a flat list of 1..HW."""
        return [int(x) + 1 for x in state]

    def goal_state(self):
        return np.arange(self.n_cells, dtype=np.uint8)

    def moves_out(self, path):
        return [list(OPERATIONS[int(m)]) for m in path]

    def moves_in(self, state, moves):
        out = []
        for k, op in enumerate(moves):
            if isinstance(op, (int, np.integer)) and 0 <= op < 4:
                out.append(int(op))
                continue
            try:
                out.append(OPERATIONS.index(tuple(int(v) for v in op)))
            except (TypeError, ValueError):
                raise PuzzleError(f"move {k}: {op!r} is not a corner [row, col] of "
                                  f"{[list(o) for o in OPERATIONS]}") from None
        return out

    def as_permutation(self):
        """The same puzzle defined generically, as a :class:`~.permutation.PermutationPuzzle`
        of its four turns (moves named ``"0,0"``, ``"0,1"``, ``"1,0"``, ``"1,1"``): the same
        positions and answers, without this module's hand-made kernels."""
        from .permutation.puzzle import PermutationPuzzle

        moves = {}
        for m, (x, y) in enumerate(OPERATIONS):
            src = list(range(self.n_cells))
            for a, b in self.params.pairs[m]:
                src[a], src[b] = int(b), int(a)
            moves[f"{x},{y}"] = src
        return PermutationPuzzle(list(range(1, self.n_cells + 1)), moves,
                                 name=f"{self.size} rotation (generic)")

    def apply(self, values, operations):
        """Every grid from ``values`` along ``operations`` (corners or move numbers), as flat
        lists, the first included."""
        return self.replay(values, operations)

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.cols, self.rows

    def move_mark(self, position, after, move):
        """The move itself: :meth:`draw` outlines what it turns."""
        return move

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """Draw a grid on matplotlib axes ``ax``, one cell a unit, its top-left corner at
        ``(x0, y0)``, y growing downwards, each number shaded by its value; ``mark``: the corner
        ``[row, col]`` of a rectangle to frame (the one the next operation turns)."""
        import matplotlib.pyplot as plt

        values = self.decode(self.encode(position, what="position"))
        cmap = plt.get_cmap("viridis")
        n = self.n_cells
        for i, v in enumerate(values):
            r, c = divmod(i, self.cols)
            shade = (v - 1) / (n - 1)
            ax.add_patch(plt.Rectangle((x0 + c, y0 + r), 1, 1, facecolor=cmap(shade),
                                       edgecolor="white", lw=1))
            ax.text(x0 + c + 0.5, y0 + r + 0.5, str(v), ha="center", va="center",
                    fontsize=8 if n <= 30 else 6, color="white" if shade < 0.6 else "black")
        if mark is not None:
            x, y = mark
            ax.add_patch(plt.Rectangle((x0 + y, y0 + x), self.cols - 1, self.rows - 1,
                                       fill=False, edgecolor="#e8112d", lw=2.4))
        if title is not None:
            ax.text(x0 + self.cols / 2, y0 - 0.25, title, ha="center", va="bottom", fontsize=9)
