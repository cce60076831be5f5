"""Block puzzles' moves: the kernels that test and make a move (unit, straight and path
metrics, and the pair moves of relaxed puzzles), the candidate moves of the frontier search
(only a piece next to an empty cell can move), and the move and probe tables they read, built
once per board shape.
"""

from functools import lru_cache

import numpy as np

from ...core.contract import ILLEGAL, domain_fn
from ...core.jit import jit
from .encoding import (B_BL, B_BR, B_TL, B_TR, DC, DR, EMPTY, H_L, H_R, MV_CELL, MV_COL, MV_DC,
                       MV_DR, MV_INV, MV_KIND, MV_ROW, ONE, PATH, V_B, V_T)
from .heuristic import _pdb_heuristic

# Kernel helpers take the few arrays and numbers they need, not ``params``: a call passing a
# namedtuple of many arrays copies all of it (benchmarks/RESULTS.md, "Constants").


@domain_fn
def _fits(state, r, c, h, w, r0, c0, rows, cols):
    """Can a h x w piece standing at (r0, c0) be at (r, c)? Each cell must be empty or its own."""
    if r < 0 or c < 0 or r + h > rows or c + w > cols:
        return False
    for i in range(r, r + h):
        for j in range(c, c + w):
            if state[i * cols + j] != EMPTY:
                if not (r0 <= i < r0 + h and c0 <= j < c0 + w):
                    return False
    return True


@domain_fn
def _path_exists(state, r0, c0, h, w, dr, dc, rows, cols, reach, seen, queue, off8, off):
    """Path metric: can the piece get from (r0, c0) to (r0 + dr, c0 + dc) by unit steps?
    A breadth-first search over its places within ``reach``, in scratch arrays."""
    if not _fits(state, r0 + dr, c0 + dc, h, w, r0, c0, rows, cols):
        return False
    if dr == 0 or dc == 0:  # in a straight line: a slide, if nothing is in the way
        if abs(dr) + abs(dc) == 1 or _swept_empty(state, r0, c0, h, w, dr, dc, cols):
            return True
    e = reach
    side = 2 * e + 1
    for t in range(side * side):
        seen[off8 + t] = 0
    seen[off8 + e * side + e] = 1
    queue[off] = e * side + e
    head, tail = 0, 1
    target = (e + dr) * side + (e + dc)
    while head < tail:
        q = queue[off + head]
        head += 1
        qr = q // side
        qc = q - qr * side
        for d in range(4):
            nr = qr + (1 if d == 1 else (-1 if d == 0 else 0))
            nc = qc + (1 if d == 3 else (-1 if d == 2 else 0))
            if nr < 0 or nc < 0 or nr >= side or nc >= side:
                continue
            t = nr * side + nc
            if seen[off8 + t]:
                continue
            if _fits(state, r0 + nr - e, c0 + nc - e, h, w, r0, c0, rows, cols):
                if t == target:
                    return True
                seen[off8 + t] = 1
                queue[off + tail] = t
                tail += 1
    return False


@domain_fn
def _swept_empty(state, r, c, h, w, dr, dc, cols):
    """Straight slide: is every cell swept on the way (outside the piece) empty?"""
    r1 = r + dr
    c1 = c + dc
    for i in range(min(r, r1), max(r, r1) + h):
        for j in range(min(c, c1), max(c, c1) + w):
            if state[i * cols + j] != EMPTY and not (r <= i < r + h and c <= j < c + w):
                return False
    return True


@domain_fn
def _move(state, r, c, h, w, dr, dc, pair, cols):
    for i in range(r, r + h):
        for j in range(c, c + w):
            state[i * cols + j] = EMPTY
    r1 = r + dr
    c1 = c + dc
    if pair or (h == 1 and w == 1):
        for i in range(r1, r1 + h):
            for j in range(c1, c1 + w):
                state[i * cols + j] = ONE
    elif h == 1:
        state[r1 * cols + c1] = H_L
        state[r1 * cols + c1 + 1] = H_R
    elif w == 1:
        state[r1 * cols + c1] = V_T
        state[(r1 + 1) * cols + c1] = V_B
    else:
        state[r1 * cols + c1] = B_TL
        state[r1 * cols + c1 + 1] = B_TR
        state[(r1 + 1) * cols + c1] = B_BL
        state[(r1 + 1) * cols + c1 + 1] = B_BR


@jit(inline="always")
def _blocked(state, m, mv, probe):
    """The quick tests that reject most move numbers: is there no piece of the right kind at
    the move's cell, or is the first cell it would enter off the board or taken? (True: the
    move is surely illegal; False: :func:`_apply` decides.)"""
    kind = mv[m, MV_KIND]
    code = state[mv[m, MV_CELL]]
    if kind == 0:
        if code != ONE and code != H_L and code != V_T and code != B_TL:
            return True
        shape = np.int64(code) >> 1  # 1x1, 1x2, 2x1, 2x2 -> 0, 1, 2, 3
    elif code != ONE:
        return True
    else:
        shape = kind  # a pair of 1x1 pieces moves like a 1x2 (kind 1) or a 2x1 (kind 2)
    first = probe[m, shape]
    return first < 0 or state[first] != EMPTY


@jit(inline="always")
def _make(state, m, p):
    """Make move ``m`` if it is legal; return whether it was. :func:`_apply` is given the
    arrays and numbers it needs, not params: a call passing params copies all of it (about a
    kilobyte) on every move (benchmarks/RESULTS.md, "Constants")."""
    cell = p.mv[m, MV_CELL]
    return _apply(state, p.mv[m, MV_KIND], cell, state[cell], p.mv[m, MV_ROW], p.mv[m, MV_COL],
                  p.mv[m, MV_DR], p.mv[m, MV_DC], p.rows, p.cols, p.metric, p.reach,
                  p.scratch8, p.scratch, p.n_cells + p.image_len, 4 * p.n_cells)


# Two step functions, chosen by the bundle: FNS_PLAIN's, for puzzles without pattern databases,
# is small enough for LLVM to inline into the search kernels, which a call passing params (to
# work out the heuristic) prevents; FNS's serves every puzzle.
@domain_fn
def _step_plain(state, m, p):
    """A move on a puzzle without pattern databases (``p.n_pdbs == 0``)."""
    if _blocked(state, m, p.mv, p.probe) or not _make(state, m, p):
        return ILLEGAL
    return 0


@domain_fn
def _step(state, m, p):
    """A move; with pattern databases, the heuristic byte is worked out again."""
    if _blocked(state, m, p.mv, p.probe):
        return ILLEGAL
    return _finish(state, m, p)


@jit
def _finish(state, m, p):
    if not _make(state, m, p):
        return ILLEGAL
    return 0 if p.n_pdbs == 0 else _rescore(state, p)


@jit
def _rescore(state, p):
    """The heuristic byte worked out for a position just moved into; returns its change."""
    old = np.int64(state[p.n_cells])
    new = _pdb_heuristic(state, p)
    state[p.n_cells] = new
    return new - old


@domain_fn
def _play_plain(state, m, p):
    """A move that :func:`_candidates` listed, on a puzzle without pattern databases: the
    candidates are exactly the legal moves, so nothing is tested (under the path metric, the
    path the piece takes, which their flood fill found already, is not looked for again)."""
    kind = p.mv[m, MV_KIND]
    h, w = _shape(state, kind, p.mv[m, MV_CELL])
    _move(state, p.mv[m, MV_ROW], p.mv[m, MV_COL], h, w, p.mv[m, MV_DR], p.mv[m, MV_DC],
          kind != 0, p.cols)
    return 0


@domain_fn
def _play(state, m, p):
    """:func:`_play_plain` on any puzzle (with pattern databases, the heuristic byte worked
    out)."""
    _play_plain(state, m, p)
    return 0 if p.n_pdbs == 0 else _rescore(state, p)


@domain_fn
def _apply(state, kind, cell, code, r, c, dr, dc, rows, cols, metric, reach, scratch8, scratch,
           off8, off):
    """Make the move if it is legal; return whether it was."""
    if kind == 0:
        h = 2 if code >= V_T else 1
        w = 2 if (code == H_L or code == B_TL) else 1
    elif kind == 1:  # two 1x1 pieces side by side, moving together
        if c + 1 >= cols or state[cell + 1] != ONE:
            return False
        h, w = 1, 2
    else:  # two 1x1 pieces one above the other
        if r + 1 >= rows or state[cell + cols] != ONE:
            return False
        h, w = 2, 1
    r1 = r + dr
    c1 = c + dc
    if r1 < 0 or c1 < 0 or r1 + h > rows or c1 + w > cols:
        return False
    if metric == PATH:
        if not _path_exists(state, r, c, h, w, dr, dc, rows, cols, reach, scratch8, scratch,
                            off8, off):
            return False
    else:
        # quick test: the first cell entered must be empty (rejects most moves)
        if dr > 0:
            first = (r + h) * cols + c
        elif dr < 0:
            first = (r - 1) * cols + c
        elif dc > 0:
            first = r * cols + c + w
        else:
            first = r * cols + c - 1
        if state[first] != EMPTY:
            return False
        if (dr > 1 or dr < -1 or dc > 1 or dc < -1 or h > 1 and dr == 0 or w > 1 and dc == 0) \
                and not _swept_empty(state, r, c, h, w, dr, dc, cols):
            return False
    _move(state, r, c, h, w, dr, dc, kind != 0, cols)
    return True


@domain_fn
def _inverse(m, p):
    return p.mv[m, MV_INV]


@domain_fn
def _is_goal(state, p):
    return p.goal >= 0 and state[p.goal] == B_TL


@domain_fn
def _heuristic(state, p):
    if p.n_pdbs == 0:
        return 0
    return np.int64(state[p.n_cells])


# ---------------------------------------------------------------------------------------------
# Candidate moves: only a piece next to an empty cell can move.
# ---------------------------------------------------------------------------------------------


@domain_fn
def _mark(marks, marked, c, i):
    if marks[i] == 0:
        marks[i] = 1
        marked[c] = i
        return c + 1
    return c


@domain_fn
def _shape(state, kind, cell):
    """(height, width) of the piece with its top-left cell at ``cell`` (kind 0), or of a pair
    of 1x1 pieces side by side (kind 1) or one above the other (kind 2)."""
    if kind == 0:
        code = state[cell]
        return (2 if code >= V_T else 1), (2 if (code == H_L or code == B_TL) else 1)
    if kind == 1:
        return 1, 2
    return 2, 1


@domain_fn
def _slides(state, go, kind, r0, c0, rows, cols, reach, first, out, k):
    """Unit and straight metrics: the moves of one piece (top-left cell (r0, c0)) in direction
    ``go``, one per distance ``1..reach`` up to the first whose entered cells are not all
    empty (``first`` is the move number of distance 1), written to ``out[k:]``; returns the new
    count. Exactly the moves ``_step`` accepts."""
    h, w = _shape(state, kind, r0 * cols + c0)
    for dd in range(1, reach + 1):
        # the two cells entered at this distance (the second only for a 2-wide front)
        if go == 0 or go == 1:
            x = r0 - dd if go == 0 else r0 + h - 1 + dd
            if x < 0 or x >= rows:
                break
            y = x * cols + c0
            y2 = y + 1 if w == 2 else y
        else:
            x = c0 - dd if go == 2 else c0 + w - 1 + dd
            if x < 0 or x >= cols:
                break
            y = r0 * cols + x
            y2 = y + cols if h == 2 else y
        if state[y] != EMPTY or state[y2] != EMPTY:
            break
        out[k] = first + dd - 1
        k += 1
    return k


@domain_fn
def _free_or_own(state, i, j, r0, c0, h, w, cols):
    """Is cell (i, j) empty, or one of the piece's own (standing at (r0, c0))?"""
    return state[i * cols + j] == EMPTY or (r0 <= i < r0 + h and c0 <= j < c0 + w)


@domain_fn
def _reachable_moves(state, i, kind, r0, c0, rows, cols, reach, na, seen, queue, off8, off, out,
                     k):
    """Path metric: the moves of piece ``i`` (``kind * n_cells + cell``, as in the move
    numbers; its top-left cell at (r0, c0)) to every place it reaches by unit steps, written to
    ``out[k:]`` in increasing action order; returns the new count. One breadth-first search
    over the piece's places within ``reach`` (the window of :func:`_path_exists`, so exactly
    the moves ``_step`` accepts) instead of one search per displacement. A step from a place
    the piece fits in only needs the cells it enters to be free (empty or its own). Places
    are queued as ``row << 5 | col`` in the window (no division; the window is at most 17
    wide)."""
    h, w = _shape(state, kind, r0 * cols + c0)
    e = reach
    side = 2 * e + 1
    for t in range(side * side):
        seen[off8 + t] = 0
    seen[off8 + e * side + e] = 1
    queue[off] = (e << 5) | e
    head, tail = 0, 1
    while head < tail:
        q = queue[off + head]
        head += 1
        qr = q >> 5
        qc = q & 31
        r = r0 + qr - e  # the place on the board
        c = c0 + qc - e
        s = qr * side + qc
        for d in range(4):
            if d == 0:  # up: the row above must be free
                if qr == 0 or r == 0 or seen[off8 + s - side]:
                    continue
                ok = _free_or_own(state, r - 1, c, r0, c0, h, w, cols) and (
                    w == 1 or _free_or_own(state, r - 1, c + 1, r0, c0, h, w, cols))
                t = s - side
                nq = q - 32
            elif d == 1:  # down
                if qr == side - 1 or r + h == rows or seen[off8 + s + side]:
                    continue
                ok = _free_or_own(state, r + h, c, r0, c0, h, w, cols) and (
                    w == 1 or _free_or_own(state, r + h, c + 1, r0, c0, h, w, cols))
                t = s + side
                nq = q + 32
            elif d == 2:  # left
                if qc == 0 or c == 0 or seen[off8 + s - 1]:
                    continue
                ok = _free_or_own(state, r, c - 1, r0, c0, h, w, cols) and (
                    h == 1 or _free_or_own(state, r + 1, c - 1, r0, c0, h, w, cols))
                t = s - 1
                nq = q - 1
            else:  # right
                if qc == side - 1 or c + w == cols or seen[off8 + s + 1]:
                    continue
                ok = _free_or_own(state, r, c + w, r0, c0, h, w, cols) and (
                    h == 1 or _free_or_own(state, r + 1, c + w, r0, c0, h, w, cols))
                t = s + 1
                nq = q + 1
            if ok:
                seen[off8 + t] = 1
                queue[off + tail] = nq
                tail += 1
    # the places reached, in increasing order (the order of the actions, path_offsets): an
    # insertion sort of the few queued (row << 5 | col sorts like row * side + col)
    for a in range(1, tail):
        t = queue[off + a]
        b = a
        while b > 1 and queue[off + b - 1] > t:
            queue[off + b] = queue[off + b - 1]
            b -= 1
        queue[off + b] = t
    centre = e * side + e
    for a in range(1, tail):
        q = queue[off + a]
        t = (q >> 5) * side + (q & 31)
        out[k] = i * na + (t if t < centre else t - 1)
        k += 1
    return k


@domain_fn
def _candidates(state, p, out):
    """The move numbers worth trying, written to ``out``; returns how many. Any move first
    takes the piece (or pair of 1x1 pieces, in a relaxed puzzle) one cell into an empty cell
    next to it, so only those pieces are looked at. The list is exactly the legal moves, each
    once, in the order the search tried them in when it was a superset (so searches return
    the same paths): under the unit and straight metrics, for each direction a piece can go,
    the distances up to the first blocked one; under the path metric, for each piece, the
    places one flood fill reaches, in increasing move numbers (one search per piece instead of
    one per displacement (benchmarks/RESULTS.md, "Constants"))."""
    return _candidate_moves(state, out, p.n_cells, p.rows, p.cols, p.marks, p.marked, p.n_kinds,
                            p.metric, p.mv, p.n_actions, p.reach, p.scratch8, p.scratch,
                            p.image_len)


@domain_fn
def _candidate_moves(state, out, n, rows, cols, marks, marked, n_kinds, metric, mv, na, reach,
                     scratch8, scratch, image_len):
    """:func:`_candidates` given the arrays and numbers it needs rather than ``params`` (a
    call passing params copies all of it)."""
    c = 0
    for e in range(n):
        if state[e] != EMPTY:
            continue
        r = e // cols
        col = e - r * cols
        for d in range(4):  # the piece at x, seen from e in direction d, moves the other way
            if d == 0:
                if r == 0:
                    continue
                x = e - cols
            elif d == 1:
                if r == rows - 1:
                    continue
                x = e + cols
            elif d == 2:
                if col == 0:
                    continue
                x = e - 1
            else:
                if col == cols - 1:
                    continue
                x = e + 1
            v = state[x]
            if v == EMPTY:
                continue
            if v == H_R or v == B_TR:
                head = x - 1
            elif v == V_B or v == B_BL:
                head = x - cols
            elif v == B_BR:
                head = x - cols - 1
            else:
                head = x
            go = d ^ 1
            c = _mark(marks, marked, c, 4 * head + go)
            if n_kinds > 1 and v == ONE:  # pairs of 1x1 pieces holding x
                xc = x % cols
                if xc + 1 < cols and state[x + 1] == ONE:
                    c = _mark(marks, marked, c, 4 * (n + x) + go)
                if xc > 0 and state[x - 1] == ONE:
                    c = _mark(marks, marked, c, 4 * (n + x - 1) + go)
                if x + cols < n and state[x + cols] == ONE:
                    c = _mark(marks, marked, c, 4 * (2 * n + x) + go)
                if x >= cols and state[x - cols] == ONE:
                    c = _mark(marks, marked, c, 4 * (2 * n + x - cols) + go)
    k = 0
    if metric == PATH:  # each piece once: the displacements one flood fill reaches
        for t in range(c):
            marks[marked[t]] = 0
        for t in range(c):
            i = marked[t] >> 2
            if marks[4 * i] == 0:
                marks[4 * i] = 1
                m = i * na  # the piece's first move: its kind, row and column in the table
                k = _reachable_moves(state, i, mv[m, MV_KIND], mv[m, MV_ROW], mv[m, MV_COL], rows,
                                     cols, reach, na, scratch8, scratch, n + image_len, 4 * n,
                                     out, k)
        for t in range(c):
            marks[4 * (marked[t] >> 2)] = 0
        return k
    # actions: direction-major, distances 1..reach
    for t in range(c):
        i = marked[t]
        marks[i] = 0
        first = (i >> 2) * na + (i & 3) * reach
        k = _slides(state, i & 3, mv[first, MV_KIND], mv[first, MV_ROW], mv[first, MV_COL],
                    rows, cols, reach, first, out, k)
    return k


def path_offsets(reach):
    """Displacements of the path metric, listed so that ``offs[-1 - a] == -offs[a]``."""
    return np.array(
        [(dr, dc) for dr in range(-reach, reach + 1) for dc in range(-reach, reach + 1)
         if (dr, dc) != (0, 0)],
        dtype=np.int64,
    ).reshape(-1, 2)


@lru_cache(maxsize=64)
def _tables(rows, cols, metric, reach, n_kinds):
    """The move and probe tables of a board shape, built once per process (a Python loop over
    every move number; a search builds several puzzles of one shape)."""
    mv, n_actions = move_table(rows, cols, metric, reach, n_kinds)
    return mv, n_actions, probe_table(mv, rows, cols, metric)


def move_table(rows, cols, metric, reach, n_kinds):
    """The move table ``mv`` (one row per move number: kind, cell, row, col, dr, dc, inverse)
    and the number of actions per (kind, cell). Actions are the four directions times the
    distances 1..reach (unit and straight metrics) or the displacements of
    :func:`path_offsets` (path metric)."""
    if metric == PATH:
        acts = [tuple(o) for o in path_offsets(reach)]
    else:
        acts = [(DR[d] * k, DC[d] * k) for d in range(4) for k in range(1, reach + 1)]
    n = rows * cols
    index = {}
    rows_out = []
    for kind in range(n_kinds):
        for cell in range(n):
            r, c = divmod(cell, cols)
            for dr, dc in acts:
                index[(kind, r, c, dr, dc)] = len(rows_out)
                rows_out.append([kind, cell, r, c, dr, dc, -1])
    for m, (kind, cell, r, c, dr, dc, _) in enumerate(rows_out):
        # the inverse moves the piece back from where it went; a move whose target is off
        # the board is never legal, so its (unused) inverse is itself
        rows_out[m][MV_INV] = index.get((kind, r + dr, c + dc, -dr, -dc), m)
    return np.array(rows_out, dtype=np.int64).reshape(-1, 7), len(acts)


def probe_table(mv, rows, cols, metric):
    """``probe[m, shape]``: for move ``m`` made by a piece of that shape (1x1, 1x2, 2x1, 2x2),
    a cell that must be empty for it to be legal, or -1 when the piece would leave the board.
    Straight and unit moves: the first cell the piece enters. Path moves: a cell of the target
    place outside the piece's old place."""
    probe = np.full((mv.shape[0], 4), -1, dtype=np.int64)
    for m in range(mv.shape[0]):
        r, c, dr, dc = (int(v) for v in mv[m, MV_ROW:MV_DC + 1])
        for s, (h, w) in enumerate(((1, 1), (1, 2), (2, 1), (2, 2))):
            r1, c1 = r + dr, c + dc
            if r1 < 0 or c1 < 0 or r1 + h > rows or c1 + w > cols:
                continue
            if metric == PATH:
                cells = [(i, j) for i in range(r1, r1 + h) for j in range(c1, c1 + w)
                         if not (r <= i < r + h and c <= j < c + w)]
                fr, fc = cells[0]
            elif dr > 0:
                fr, fc = r + h, c
            elif dr < 0:
                fr, fc = r - 1, c
            elif dc > 0:
                fr, fc = r, c + w
            else:
                fr, fc = r, c - 1
            probe[m, s] = fr * cols + fc
    return probe
