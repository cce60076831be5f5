"""Plain-Python block puzzles, written independently of the kernels, to check them against.

A position is a frozenset of pieces ``(h, w, r, c)`` (shapes are indistinguishable, so a set of
placements is canonical). Moves come from :func:`puzzlelib.teaching.block_successors`, plain
Python written from the metric's definition.
"""

from collections import deque

import numpy as np

from puzzlelib.teaching import block_successors

SHAPE_HW = {"1x1": (1, 1), "1x2": (1, 2), "2x1": (2, 1), "2x2": (2, 2)}


def parse(text):
    rows = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    cells = {}
    for r, ln in enumerate(rows):
        for c, ch in enumerate(ln):
            if ch != ".":
                cells.setdefault(ch, []).append((r, c))
    pieces = []
    for where in cells.values():
        r0 = min(r for r, _ in where)
        c0 = min(c for _, c in where)
        h = max(r for r, _ in where) - r0 + 1
        w = max(c for _, c in where) - c0 + 1
        pieces.append((h, w, r0, c0))
    return len(rows), len(rows[0]), frozenset(pieces)


def neighbours(pos, rows, cols, metric):
    """Every position one move away (the teaching package's plain-Python moves)."""
    return {frozenset(t) for _, t in block_successors(tuple(sorted(pos)), rows, cols, metric)}


def layers(text, metric):
    rows, cols, start = parse(text)
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        for t in neighbours(s, rows, cols, metric):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    counts = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        counts[d] += 1
    return counts


def goal_distance(text, metric, goal):
    """Fewest moves until the 2x2 piece's top-left cell is at ``goal``, by plain BFS."""
    rows, cols, start = parse(text)
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        if (2, 2, goal[0], goal[1]) in s:
            return dist[s]
        for t in neighbours(s, rows, cols, metric):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return -1


def random_board(rng, max_cells=None, min_fill=0.2):
    """A random filling of a random board up to 8 x 9 (of at most ``max_cells`` cells when
    given), often with many empty cells so that pieces reach far and round corners, as
    ``(rows, cols, pieces)``; None if it came out empty or full."""
    while True:
        rows, cols = int(rng.integers(2, 9)), int(rng.integers(2, 10))
        if max_cells is None or rows * cols <= max_cells:
            break
    full = np.zeros(rows * cols, dtype=bool)
    pieces = []
    fill = rng.uniform(min_fill, 1.0)
    for x in rng.permutation(rows * cols):
        r, c = divmod(int(x), cols)
        if rng.uniform() > fill:
            continue
        shape = ("1x1", "1x2", "2x1", "2x2")[int(rng.integers(4))]
        h, w = int(shape[0]), int(shape[2])
        where = [i * cols + j for i in range(r, r + h) for j in range(c, c + w)]
        if r + h <= rows and c + w <= cols and not full[where].any():
            full[where] = True
            pieces.append((shape, r, c))
    if not pieces or full.all():
        return None
    return rows, cols, pieces
