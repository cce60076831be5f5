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


def pattern_distances(rows, cols, cells, blank):
    """Pattern database by a plain 0-1 BFS over (pattern tiles' cells, blank's cell): moving a
    pattern tile costs 1, moving any other tile costs 0; the goal has pattern tile ``i`` on
    ``cells[i]`` and the blank on ``blank``. Returns {placement tuple: least distance over the
    blank's cells}."""
    start = (tuple(cells), blank)
    dist = {start: 0}
    dq = deque([start])
    while dq:
        state = dq.popleft()
        d = dist[state]
        pos, b = state
        r, c = b // cols, b % cols
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            t = nr * cols + nc
            if t in pos:  # a pattern tile slides into the blank: cost 1
                new = (tuple(b if x == t else x for x in pos), t)
                cost = 1
            else:  # another tile slides: free
                new = (pos, t)
                cost = 0
            if new not in dist or dist[new] > d + cost:
                dist[new] = d + cost
                if cost:
                    dq.append(new)
                else:
                    dq.appendleft(new)
    best = {}
    for (pos, _), d in dist.items():
        if pos not in best or d < best[pos]:
            best[pos] = d
    return best


def linear_conflict(board, goal, rows, cols):
    """Manhattan distance plus linear conflict, straight from the definition: in each row
    (column), among the tiles whose goal row (column) it is, every tile outside a longest
    run already in goal order must step out and back: 2 moves each."""
    where = {v: divmod(i, cols) for i, v in enumerate(goal)}
    total = 0
    for i, v in enumerate(board):
        if v:
            r, c = divmod(i, cols)
            total += abs(r - where[v][0]) + abs(c - where[v][1])

    def extra(order):
        # longest strictly increasing subsequence by brute force over subsets
        best = 0
        n = len(order)
        for mask in range(1 << n):
            sub = [order[i] for i in range(n) if mask >> i & 1]
            if all(a < b for a, b in zip(sub, sub[1:])):
                best = max(best, len(sub))
        return 2 * (n - best)

    for r in range(rows):
        line = [board[r * cols + c] for c in range(cols)]
        total += extra([where[v][1] for v in line if v and where[v][0] == r])
    for c in range(cols):
        line = [board[r * cols + c] for r in range(rows)]
        total += extra([where[v][0] for v in line if v and where[v][1] == c])
    return total


def degree(s, cols):
    """Legal moves from board ``s`` (a string): the blank's neighbours."""
    rows = len(s) // cols
    r, c = divmod(s.index("0"), cols)
    return (r > 0) + (r < rows - 1) + (c > 0) + (c < cols - 1)


def table_bfs_stats(start, rows, cols):
    """``(generated, expanded)`` of a breadth-first search from ``start`` to exhaustion that
    never tries the move straight back to a position's parent: every position is expanded, and
    generates a child per legal move but the one back (the start has no move back)."""
    dist = distances(start, rows, cols)
    total = sum(degree(s, cols) for s in dist)
    return total - (len(dist) - 1), len(dist)


def deepening_stats(start, goal, rows, cols, heuristic=None, skip=None):
    """``(length, generated, expanded)`` of iterative deepening from ``start`` with
    ``heuristic(board)`` as the lower bound (None: 0), the bound stepped by 2, never undoing the
    last move, stopping at the first solution, children in the move order u, d, l, r: a
    recursive version, to check the kernel's counts against. ``skip``: a set of move strings
    (tuples of move numbers) never to end a path with, instead of the last move's inverse."""
    h = heuristic or (lambda s: 0)
    s, g = to_str(start), to_str(goal)
    b0 = s.index("0")
    bg = g.index("0")
    bound = (abs(b0 // cols - bg // cols) + abs(b0 % cols - bg % cols)) % 2
    while h(s) > bound:
        bound += 2
    gen = exp = 0

    longest = max(map(len, skip)) if skip else 0

    def children(board, back, path):
        b = board.index("0")
        r, c = divmod(b, cols)
        for m, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            if skip is None and m == back:
                continue
            if skip is not None and any(path[len(path) - k:] + (m,) in skip
                                        for k in range(min(len(path), longest - 1) + 1)):
                continue
            t = nr * cols + nc
            cells = list(board)
            cells[b], cells[t] = cells[t], cells[b]
            yield m, "".join(cells)

    def dfs(board, g_, back, bound, path):
        nonlocal gen, exp
        if g_ == bound:
            return board == g
        exp += 1
        for m, child in children(board, back, path):
            gen += 1
            if g_ + 1 + h(child) > bound:
                continue
            if dfs(child, g_ + 1, m ^ 1, bound, path + (m,)):
                return True
        return False

    while bound <= 80:
        if dfs(s, 0, -1, bound, ()) if bound > 0 else s == g:
            return bound, gen, exp
        bound += 2
    return -1, gen, exp


def manhattan_to(goal, cols):
    """Manhattan distance to ``goal`` (distinct tiles), as a function of a board string."""
    where = {ch: divmod(i, cols) for i, ch in enumerate(to_str(goal))}

    def h(s):
        total = 0
        for i, ch in enumerate(s):
            if ch != "0":
                r, c = divmod(i, cols)
                total += abs(r - where[ch][0]) + abs(c - where[ch][1])
        return total

    return h
