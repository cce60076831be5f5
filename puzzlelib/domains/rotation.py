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
    one word per row: row ``x + i`` gets row ``x + h - 1 - i`` reversed (measured with the
    copy and the hash in the bidirectional search: 67 ns a move with cell pairs, 24 ns so;
    the words written whole are also read whole by the hash, where the pairs' byte writes
    stalled its word reads)."""
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
