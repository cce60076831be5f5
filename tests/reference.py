"""Slow, independent reference implementations the kernels are checked against.

Nothing here imports puzzlelib: boards are strings of one character per cell ('0' = blank,
labels written in base 36), neighbours come from coordinates, and search is a plain dict BFS.
"""

from collections import deque

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def to_str(board):
    return "".join(DIGITS[int(x)] for x in board)


def to_list(s):
    return [DIGITS.index(ch) for ch in s]


def moves_from(s, rows, cols):
    """Every board one slide away from ``s``."""
    b = s.index("0")
    r, c = b // cols, b % cols
    out = []
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < rows and 0 <= nc < cols:
            t = nr * cols + nc
            cells = list(s)
            cells[b], cells[t] = cells[t], cells[b]
            out.append("".join(cells))
    return out


def distances(start, rows, cols):
    """Depth of every board reachable from ``start`` (a dict)."""
    s = to_str(start)
    dist = {s: 0}
    queue = deque([s])
    while queue:
        cur = queue.popleft()
        for nxt in moves_from(cur, rows, cols):
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist


def layer_counts(start, rows, cols):
    dist = distances(start, rows, cols)
    counts = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        counts[d] += 1
    return counts


def farthest(start, rows, cols):
    dist = distances(start, rows, cols)
    m = max(dist.values())
    return sorted(to_list(s) for s, d in dist.items() if d == m)


def count_shortest_paths(start, goal, rows, cols):
    """Number of distinct shortest move sequences from ``start`` to ``goal`` (dynamic
    programming over the BFS layers)."""
    dist = distances(start, rows, cols)
    g = to_str(goal)
    if g not in dist:
        return 0
    ways = {to_str(start): 1}
    for s in sorted(dist, key=dist.get):
        for nxt in moves_from(s, rows, cols):
            if dist.get(nxt) == dist[s] + 1:
                ways[nxt] = ways.get(nxt, 0) + ways.get(s, 0)
    return ways[g]


def replay(start, moves, cols):
    """Apply blank moves u/d/l/r; return the final board as a list (or raise on a bad move)."""
    cells = list(start)
    b = cells.index(0)
    rows = len(cells) // cols
    for ch in moves:
        r, c = divmod(b, cols)
        dr, dc = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}[ch]
        nr, nc = r + dr, c + dc
        assert 0 <= nr < rows and 0 <= nc < cols, f"illegal move {ch} from cell {b}"
        t = nr * cols + nc
        cells[b], cells[t] = cells[t], 0
        b = t
    return cells
