"""Block puzzles' text: boards drawn as text read into pieces (checked: shapes, overlaps,
size) and cell codes, a goal read from ``"R,C"``, and cell codes written back as text.
"""

import numpy as np

from ...core.errors import PuzzleError
from ...core.numbers import whole_numbers
from .encoding import (ANCHOR, B_BL, B_BR, B_TL, B_TR, H_L, H_R, MAX_COLS, MAX_ROWS, ONE,
                       SHAPE_OF_ANCHOR, SHAPES, V_B, V_T)

def _read_lines(text):
    if not isinstance(text, str):
        try:
            text = "\n".join("".join(row) for row in text)
        except TypeError:
            raise PuzzleError("a board is text, one line per row, or a list of rows of "
                              "characters") from None
    lines = [ln.replace(" ", "").replace("\t", "") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        raise PuzzleError("the board is empty: expected one line per row, '.' for empty cells")
    return lines


def parse_board(text):
    """Read a board drawn as text. Returns ``(rows, cols, pieces)`` with pieces a sorted list of
    ``(shape, row, col)`` (top-left cell). Raises :class:`PuzzleError` naming the problem."""
    lines = _read_lines(text)
    rows, cols = len(lines), len(lines[0])
    for i, ln in enumerate(lines):
        if len(ln) != cols:
            raise PuzzleError(f"row {i + 1} has {len(ln)} cells, row 1 has {cols}: rows must be equal")
    _check_size(rows, cols)
    cells = {}
    for i, ln in enumerate(lines):
        for j, ch in enumerate(ln):
            if ch != ".":
                cells.setdefault(ch, []).append((i, j))
    pieces = []
    for ch, where in cells.items():
        r0 = min(r for r, _ in where)
        r1 = max(r for r, _ in where)
        c0 = min(c for _, c in where)
        c1 = max(c for _, c in where)
        h, w = r1 - r0 + 1, c1 - c0 + 1
        if not _connected(where):
            raise PuzzleError(
                f"piece {ch!r} is disconnected (cells {_cells_text(where)}): draw each piece "
                "with its own letter"
            )
        if len(where) != h * w or (h, w) not in ANCHOR:
            raise PuzzleError(
                f"piece {ch!r} (cells {_cells_text(where)}) is not one of the shapes "
                "1x1, 1x2, 2x1, 2x2"
            )
        pieces.append((f"{h}x{w}", r0, c0))
    if rows * cols - sum(SHAPES[s][0] * SHAPES[s][1] for s, _, _ in pieces) < 1:
        raise PuzzleError("the board has no empty cell: nothing can move")
    return rows, cols, sorted(pieces, key=lambda t: (t[1], t[2]))


def _connected(where):
    todo = [where[0]]
    seen = {where[0]}
    rest = set(where)
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in rest and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(where)


def _cells_text(where):
    return " ".join(f"({r},{c})" for r, c in sorted(where))


def _check_size(rows, cols):
    if not (1 <= rows <= MAX_ROWS and 1 <= cols <= MAX_COLS):
        raise PuzzleError(
            f"a {rows}x{cols} board (rows x columns) is too large: at most {MAX_ROWS} rows and "
            f"{MAX_COLS} columns"
        )


def cells_from_pieces(rows, cols, pieces):
    """Cell codes (``uint8``, row-major) of a list of ``(shape, row, col)`` pieces, checking that
    every shape is known, every piece lies on the board and no two overlap."""
    _check_size(rows, cols)
    cells = np.zeros(rows * cols, dtype=np.uint8)
    owner = {}
    for k, (shape, r, c) in enumerate(pieces):
        if shape not in SHAPES:
            raise PuzzleError(f"unknown piece shape {shape!r}: the shapes are 1x1, 1x2, 2x1, 2x2")
        h, w = SHAPES[shape]
        if r < 0 or c < 0 or r + h > rows or c + w > cols:
            raise PuzzleError(f"a {shape} piece at row {r}, column {c} does not fit on the "
                              f"{rows}x{cols} board")
        codes = _codes(h, w)
        for i in range(h):
            for j in range(w):
                x = (r + i) * cols + (c + j)
                if x in owner:
                    o = pieces[owner[x]]
                    raise PuzzleError(
                        f"pieces overlap at row {r + i}, column {c + j}: a {o[0]} at "
                        f"({o[1]},{o[2]}) and a {shape} at ({r},{c})"
                    )
                owner[x] = k
                cells[x] = codes[i][j]
    if len(owner) == rows * cols:
        raise PuzzleError("the board has no empty cell: nothing can move")
    return cells


def _codes(h, w):
    return {
        (1, 1): [[ONE]],
        (1, 2): [[H_L, H_R]],
        (2, 1): [[V_T], [V_B]],
        (2, 2): [[B_TL, B_TR], [B_BL, B_BR]],
    }[(h, w)]


def pieces_of(cells, cols):
    """``(shape, row, col)`` of every piece of a cell-code array (top-left cells, row-major)."""
    out = []
    for x, v in enumerate(np.asarray(cells)[: len(cells)]):
        v = int(v)
        if v in SHAPE_OF_ANCHOR:
            h, w = SHAPE_OF_ANCHOR[v]
            out.append((f"{h}x{w}", x // cols, x % cols))
    return out


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#$%&*+=?@~"


def render(cells, rows, cols):
    """The board as text, one letter per piece in reading order (the daughter is always ``D``
    when there is one 2x2 piece, so it stands out), ``.`` for empty cells."""
    cells = np.asarray(cells)[: rows * cols]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    letters = iter(ch for ch in _LETTERS if ch != "D")
    n_big = int(np.sum(cells == B_TL))
    for shape, r, c in pieces_of(cells, cols):
        h, w = SHAPES[shape]
        ch = "D" if (shape == "2x2" and n_big == 1) else next(letters)
        for i in range(h):
            for j in range(w):
                grid[r + i][c + j] = ch
    return "\n".join("".join(row) for row in grid)


def parse_goal(goal, rows, cols):
    """``(row, col)`` of the daughter's goal (top-left cell) from a tuple or ``"R,C"``; the
    default (None) is the bottom rows, centred, which needs an even width."""
    if goal is None:
        if cols % 2:
            raise PuzzleError(
                f"the board is {cols} columns wide (odd), so the daughter cannot be centred: "
                "give the goal as ROW,COL"
            )
        return rows - 2, cols // 2 - 1
    if isinstance(goal, str):
        parts = goal.replace(" ", "").split(",")
        if len(parts) != 2 or not all(t.lstrip("-").isdigit() for t in parts):
            raise PuzzleError(f"goal {goal!r} is not ROW,COL (two integers counted from 0)")
        goal = (int(parts[0]), int(parts[1]))
    pair = whole_numbers(goal, "goal")
    if len(pair) != 2:
        raise PuzzleError(f"goal {goal!r} is not ROW,COL (two integers counted from 0)")
    r, c = pair
    if not (0 <= r <= rows - 2 and 0 <= c <= cols - 2):
        raise PuzzleError(
            f"goal ({r},{c}) puts the 2x2 piece off the {rows}x{cols} board: its top-left cell "
            f"must be in rows 0..{rows - 2}, columns 0..{cols - 2}"
        )
    return r, c
