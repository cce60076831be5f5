"""Pattern databases for sliding tiles, built in plain Python.

A pattern database looks at a few tiles only (the *pattern*); the other tiles are alike, so
a position of the small *abstract* puzzle is the cells of the pattern's tiles and the blank's
cell. Its value is the fewest moves *of the pattern's tiles* that bring them home, wherever
the other tiles go: a move of another tile is free. Over patterns with no tile in common the
values add up to a lower bound on the moves left (an *additive* heuristic): no move is counted
twice, since each moves one tile. This is what :mod:`puzzlelib.pdb.sliding`'s tables hold.

The table is built backwards from the goal by a breadth-first search in which free moves go to
the front of the queue and paid ones to the back (a "0-1" BFS): every position comes out of
the queue at its fewest paid moves. Moves can be undone, so moves from the goal count the
same as moves to it.
"""

from collections import deque
from dataclasses import dataclass

from .problems import board_of


@dataclass
class PatternTable:
    """``values[cells]``: the fewest pattern-tile moves home with the pattern's ``tiles`` on
    ``cells`` (in the order of ``tiles``); ``states``: abstract positions the build reached
    (pattern cells and blank cell)."""

    tiles: tuple
    values: dict
    states: int


def pattern_table(rows, cols, tiles, goal=None):
    """Build the pattern database of ``tiles`` (labels) for ``goal`` (default ``1 .. n-1`` then
    the blank) on a ``rows x cols`` board."""
    goal = tuple(range(1, rows * cols)) + (0,) if goal is None else board_of(goal)
    near = [[(r + dr) * cols + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
             if 0 <= r + dr < rows and 0 <= c + dc < cols]
            for r, c in (divmod(cell, cols) for cell in range(rows * cols))]
    home = (tuple(goal.index(t) for t in tiles), goal.index(0))
    cost = {home: 0}
    queue = deque([home])
    while queue:
        state = queue.popleft()
        cells, blank = state
        for t in near[blank]:
            if t in cells:  # a pattern tile slides into the blank's cell: one move
                nxt = (tuple(blank if x == t else x for x in cells), t)
                c = cost[state] + 1
            else:  # another tile slides: free
                nxt = (cells, t)
                c = cost[state]
            if c < cost.get(nxt, c + 1):
                cost[nxt] = c
                if c == cost[state]:
                    queue.appendleft(nxt)
                else:
                    queue.append(nxt)
    values = {}
    for (cells, _), c in cost.items():  # the least over the blank's cells
        values[cells] = min(c, values.get(cells, c))
    return PatternTable(tuple(tiles), values, len(cost))


def lookup(table, board):
    """The table's value for ``board`` (its pattern tiles' cells)."""
    return table.values[tuple(board.index(t) for t in table.tiles)]


def additive_heuristic(tables):
    """The sum of the tables' values: a heuristic for
    ``SlidingTiles(..., heuristic=additive_heuristic(tables))`` (the patterns must share no
    tile)."""
    tables = list(tables)

    def h(board):
        return sum(lookup(t, board) for t in tables)

    return h
