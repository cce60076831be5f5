"""Sliding-tile puzzles' text and checks: a board size ``"RxC"``, a board of space-separated
labels, the default goal, the parity no move changes, and the moved tiles' notation turned back
into the blank's moves.
"""

from collections import Counter
from functools import lru_cache

import numpy as np

from ...core.errors import PuzzleError
from ...core.numbers import whole_numbers
from .encoding import MAX_CELLS, MAX_SIDE, MIN_SIDE


def parse_size(text):
    """``"3x3"`` -> ``(3, 3)``; sides from 2 to 12, at most 25 cells."""
    if isinstance(text, (tuple, list)):
        sides = whole_numbers(text, "board size")
        if len(sides) != 2:
            raise PuzzleError(f"board size {text!r} is not (ROWS, COLS)")
        rows, cols = sides
    else:
        parts = str(text).lower().replace("×", "x").split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise PuzzleError(f"board size {text!r} is not of the form ROWSxCOLS, e.g. 3x3")
        rows, cols = int(parts[0]), int(parts[1])
    for side in (rows, cols):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise PuzzleError(
                f"board size {rows}x{cols} is not supported: each side must be "
                f"{MIN_SIDE} to {MAX_SIDE}"
            )
    if rows * cols > MAX_CELLS:
        raise PuzzleError(
            f"board size {rows}x{cols} is not supported: at most {MAX_CELLS} cells (5x5)"
        )
    return int(rows), int(cols)


def parse_board(board, rows, cols, what="board"):
    """Check a board (a string of space-separated labels, or a sequence of ints) and return it as
    a ``uint8`` array. Raises :class:`PuzzleError` naming the problem."""
    n = rows * cols
    if isinstance(board, str):
        tokens = board.replace(",", " ").split()
        labels = []
        for tok in tokens:
            try:
                labels.append(int(tok))
            except ValueError:
                raise PuzzleError(f"{what}: label {tok!r} is not an integer") from None
    else:
        labels = whole_numbers(board, what)
    if len(labels) != n:
        raise PuzzleError(
            f"{what}: expected {n} labels for a {rows}x{cols} board, got {len(labels)}"
        )
    for x in labels:
        if not 0 <= x < n:
            raise PuzzleError(
                f"{what}: label {x} is out of range 0..{n - 1} for a {rows}x{cols} board"
            )
    blanks = labels.count(0)
    if blanks == 0:
        raise PuzzleError(f"{what}: no blank (0) on the board; exactly one is needed")
    if blanks > 1:
        raise PuzzleError(f"{what}: {blanks} blanks (0) on the board; exactly one is needed")
    return np.array(labels, dtype=np.uint8)


def default_goal(rows, cols):
    """Tiles ``1..n-1`` in order, then the blank."""
    n = rows * cols
    return np.array(list(range(1, n)) + [0], dtype=np.uint8)


def _duplicates(labels):
    return {int(k): v for k, v in Counter(int(x) for x in labels).items() if k != 0 and v > 1}


def _tile_parity(board):
    """Parity of the tiles' permutation read row by row, the blank left out."""
    tiles = [int(x) for x in board if x != 0]
    inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    return inv & 1


def parity_class(board, cols):
    """The invariant no move changes (distinct tiles): tile-permutation parity plus
    ``(cols-1) * blank_row``, mod 2. A vertical move makes one tile jump over ``cols-1`` others."""
    b = int(np.flatnonzero(np.asarray(board) == 0)[0])
    return (_tile_parity(board) + (cols - 1) * (b // cols)) & 1


@lru_cache(maxsize=64)
def _goal_class(goal_bytes, cols):
    """:func:`parity_class` of a goal, worked out once per goal and width."""
    return parity_class(np.frombuffer(goal_bytes, dtype=np.uint8), cols)


def tiles_to_blank_moves(board, tiles, cols):
    """Convert a sequence of moved tile labels back to blank moves u/d/l/r."""
    cur = [int(x) for x in board]
    moves = []
    for k, tile in enumerate(tiles):
        b = cur.index(0)
        cells = [i for i, x in enumerate(cur) if x == tile]
        step = None
        for t in cells:
            d = t - b
            if d == -cols:
                step = "u"
            elif d == cols:
                step = "d"
            elif d == -1 and b % cols != 0:
                step = "l"
            elif d == 1 and t % cols != 0:
                step = "r"
            if step:
                break
        if step is None:
            raise PuzzleError(f"move {k}: tile {tile} is not next to the blank")
        moves.append(step)
        cur[b], cur[t] = cur[t], 0
    return "".join(moves)
