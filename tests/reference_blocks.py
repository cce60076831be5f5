"""Plain-Python block puzzles, written independently of the kernels, to check them against.

A position is a frozenset of pieces ``(h, w, r, c)`` (shapes are indistinguishable, so a set of
placements is canonical). Moves come from :func:`puzzlelib.teaching.block_successors`, plain
Python written from the metric's definition.
"""

from collections import deque

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
