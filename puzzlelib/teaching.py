"""Plain-Python versions of each search, written to be read.

Boards are tuples of labels in row-major order (0 = blank). Nothing here is fast: these are the
versions a student follows line by line, and the notebooks time them beside the numba kernels of
:mod:`puzzlelib.search`, which compute the same things.
"""

from collections import deque

MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
OPPOSITE = {"u": "d", "d": "u", "l": "r", "r": "l"}


def neighbours(board, rows, cols):
    """Yield ``(move, next_board)`` for each way the blank can move."""
    b = board.index(0)
    r, c = divmod(b, cols)
    for move, (dr, dc) in MOVES.items():
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            t = nr * cols + nc
            cells = list(board)
            cells[b], cells[t] = cells[t], 0
            yield move, tuple(cells)


def _path(parent, board):
    """Follow parent links back to the start; return the moves in order."""
    moves = []
    while parent[board] is not None:
        board, move = parent[board]
        moves.append(move)
    return "".join(reversed(moves))


def bfs(start, goal, rows, cols):
    """Breadth-first search from ``start`` until ``goal`` is generated.

    Returns ``(moves, positions generated)``. Every position is stored with the position it was
    reached from, so the path can be read back from the goal."""
    start, goal = tuple(start), tuple(goal)
    parent = {start: None}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for move, nxt in neighbours(board, rows, cols):
            if nxt not in parent:
                parent[nxt] = (board, move)
                if nxt == goal:
                    return _path(parent, goal), len(parent)
                queue.append(nxt)
    return (None if start != goal else ""), len(parent)


def bidirectional_bfs(start, goal, rows, cols):
    """Breadth-first search from both ends at once, with one queue.

    Each stored position remembers which end reached it. When a position generated from one end
    is already known from the other, the two half-paths join. Returns
    ``(moves, positions generated)``."""
    start, goal = tuple(start), tuple(goal)
    if start == goal:
        return "", 1
    seen = {start: ("fore", None), goal: ("back", None)}
    queue = deque([start, goal])
    while queue:
        board = queue.popleft()
        side = seen[board][0]
        for move, nxt in neighbours(board, rows, cols):
            if nxt not in seen:
                seen[nxt] = (side, (board, move))
                queue.append(nxt)
            elif seen[nxt][0] != side:
                # the two searches meet between board and nxt
                fore, back = (board, nxt) if side == "fore" else (nxt, board)
                link = move if side == "fore" else OPPOSITE[move]
                return _half(seen, fore) + link + _half(seen, back, backwards=True), len(seen)
    return None, len(seen)


def _half(seen, board, backwards=False):
    moves = []
    while seen[board][1] is not None:
        board, move = seen[board][1]
        moves.append(OPPOSITE[move] if backwards else move)
    return "".join(moves) if backwards else "".join(reversed(moves))


def layers(start, rows, cols):
    """Count the positions at every depth from ``start`` (breadth-first, layer by layer).

    Returns ``(counts, farthest)``: ``counts[d]`` positions at depth ``d`` and the positions at
    the greatest depth."""
    start = tuple(start)
    seen = {start}
    layer = [start]
    counts = []
    while True:
        counts.append(len(layer))
        nxt_layer = []
        for board in layer:
            for _, nxt in neighbours(board, rows, cols):
                if nxt not in seen:
                    seen.add(nxt)
                    nxt_layer.append(nxt)
        if not nxt_layer:
            return counts, sorted(layer)
        layer = nxt_layer


def _blank_distance(a, b, cols):
    ra, ca = divmod(a.index(0), cols)
    rb, cb = divmod(b.index(0), cols)
    return abs(ra - rb) + abs(ca - cb)


def iddfs(start, goal, rows, cols, lower_bound=False):
    """Iterative deepening: depth-first search with a move limit that grows by 2.

    A move changes the parity of the blank's distance to its goal cell, so every solution has
    that parity and the limit can step by 2. A move that undoes the previous one is never
    tried. With ``lower_bound=True`` a branch is cut as soon as moves made + Manhattan distance
    exceeds the limit (the Manhattan distance is updated for the one tile that moved).

    Finishes the first limit that has solutions and returns
    ``(length, number of optimal solutions, first solution, nodes generated)``."""
    start, goal = list(start), tuple(goal)
    home = {tile: divmod(i, cols) for i, tile in enumerate(goal) if tile != 0}

    def dist(tile, cell):
        (r, c), (hr, hc) = divmod(cell, cols), home[tile]
        return abs(r - hr) + abs(c - hc)

    board = start
    h0 = sum(dist(t, i) for i, t in enumerate(board) if t != 0) if lower_bound else 0
    found = []
    nodes = 0

    def search(blank, depth, limit, h, last, path):
        nonlocal nodes
        if depth == limit:
            if tuple(board) == goal:
                found.append("".join(path))
            return
        r, c = divmod(blank, cols)
        for move, (dr, dc) in MOVES.items():
            if last is not None and move == OPPOSITE[last]:
                continue
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            t = nr * cols + nc
            tile = board[t]
            nh = h + dist(tile, blank) - dist(tile, t) if lower_bound else 0
            nodes += 1
            if depth + 1 + nh > limit:
                continue
            board[blank], board[t] = tile, 0
            path.append(move)
            search(t, depth + 1, limit, nh, move, path)
            path.pop()
            board[blank], board[t] = 0, tile

    limit = max(_blank_distance(tuple(start), goal, cols) % 2, h0)
    while not found:
        search(board.index(0), 0, limit, h0, None, [])
        if found:
            break
        limit += 2
    return limit, len(found), found[0], nodes


def manhattan(board, goal, cols):
    """Sum over the tiles of the rows plus columns between a tile and its goal cell."""
    home = {tile: divmod(i, cols) for i, tile in enumerate(goal) if tile != 0}
    total = 0
    for i, tile in enumerate(board):
        if tile != 0:
            r, c = divmod(i, cols)
            total += abs(r - home[tile][0]) + abs(c - home[tile][1])
    return total
