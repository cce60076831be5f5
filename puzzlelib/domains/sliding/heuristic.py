"""Sliding-tile puzzles' heuristics beyond Manhattan distance: linear conflict (its steps and
table of a line's conflicts) and additive pattern databases (the states that carry each tile's
cell and each group's value, and the steps that keep them up, for every search and for
depth-first search).
"""

import numpy as np

from ...core.contract import ILLEGAL, domain_fn
from ...core.hashing import _popcount
from .moves import _heuristic


@domain_fn
def _line_key(state, first, stride, length, w):
    """The key of one line in ``lc_table``: the sum of its tiles' shares ``w[label, cell]``.
    (Arrays come one by one: handing ``params`` to a helper that is not inlined costs more than
    the work.)"""
    key = 0
    for i in range(length):
        c = first + i * stride
        key += w[state[c], c]
    return key


@domain_fn
def _step_lc(state, m, p):
    """A move, returning the change of Manhattan distance plus linear conflict. A vertical move
    changes one tile's row, so only the two rows' conflicts can change (the tile keeps its
    place among its column's tiles); a horizontal move, likewise, only two columns'."""
    b = state[p.n_cells]
    t = p.nbr[b, m]
    if t < 0:
        return ILLEGAL
    tile = state[t]
    if m < 2:  # vertical: rows b // cols and t // cols change
        o = 0
        kb = _line_key(state, b - b % p.cols, 1, p.cols, p.lc_w[0])
        kt = _line_key(state, t - t % p.cols, 1, p.cols, p.lc_w[0])
    else:  # horizontal: columns b % cols and t % cols
        o = 1
        kb = _line_key(state, b % p.cols, p.cols, p.rows, p.lc_w[1])
        kt = _line_key(state, t % p.cols, p.cols, p.rows, p.lc_w[1])
    w = p.lc_w[o]
    table = p.lc_table[o]
    before = table[kb] + table[kt]
    # the tile leaves cell t for cell b, the blank the other way: update both keys
    kb += w[tile, b] - w[0, b]
    kt += w[0, t] - w[tile, t]
    after = table[kb] + table[kt]
    state[b] = tile
    state[t] = 0
    state[p.n_cells] = t
    return p.h[tile, b] - p.h[tile, t] + np.int64(after) - np.int64(before)


@domain_fn
def _heuristic_lc(state, p):
    total = _heuristic(state, p)
    for r in range(p.rows):
        total += p.lc_table[0, _line_key(state, r * p.cols, 1, p.cols, p.lc_w[0])]
    for c in range(p.cols):
        total += p.lc_table[1, _line_key(state, c, p.cols, p.rows, p.lc_w[1])]
    return total


# ``pinfo``, the pattern databases' numbers in one int64 array: a head of these entries, the
# last six of which say where a part starts (see SlidingPuzzle.with_pdbs). One array, because
# a call that is not inlined copies every array it is given (params: some 265 words); the step
# below is a few lines that LLVM inlines, and the move it calls gets this and the tables.
(Q_N, Q_GROUPS, Q_REFLECT, Q_KMAX,  # n cells, groups, reflect (0/1), the largest group
 Q_GROUP, Q_RLABEL, Q_RCELL,  # [label]: its group or -1; [label]: the mirrored tile; [cell]
 Q_GSIZE, Q_TOFFSET, Q_GTILES) = range(10)  # [g]: size; [g]: table start; [g * kmax + i]
Q_HEAD = 10


@domain_fn
def _group_value(state, g, f, q, tables):
    """Group ``g``'s database value: its tiles' cells (read from the state, or from the board
    mirrored in its diagonal when ``f`` is 1), ranked as a placement (see
    puzzlelib.pdb.space). Its indices, and those of the step's other helpers, are unsigned:
    numba tests every signed index for a negative (from-the-end) one, and on this path those
    tests took a large share of the time (benchmarks/RESULTS.md, "The 24-puzzle")."""
    U = np.uint64
    n = q[Q_N]
    tiles = U(q[Q_GTILES] + g * q[Q_KMAX])  # gtiles[g, i]: the i-th tile of group g
    rlabel = U(q[Q_RLABEL])
    rcell = U(q[Q_RCELL])
    at = U(n + 1)
    used = np.int64(0)
    r = np.int64(0)
    for i in range(q[U(q[Q_GSIZE] + g)]):
        label = U(q[tiles + U(i)])
        if f:
            x = q[rcell + U(state[at + U(q[rlabel + label])])]
        else:
            x = np.int64(state[at + label])
        r = r * (n - i) + x - _popcount(used & ((np.int64(1) << x) - 1))
        used |= np.int64(1) << x
    return tables[U(q[U(q[Q_TOFFSET] + g)] + r)]


@domain_fn
def _pdb_sums(state, at, n_groups):
    """The groups' values summed, and the reflected groups' values summed, in one loop (two
    loops, one per sum, were slower (benchmarks/RESULTS.md, "Constants"))."""
    total = np.int64(0)
    other = np.int64(0)
    i = np.uint64(at)  # unsigned indices: see _group_value
    for _ in range(n_groups):
        total += np.int64(state[i])
        other += np.int64(state[i + np.uint64(n_groups)])
        i += np.uint64(1)
    return total, other


@domain_fn
def _pdb_total(state, at, n_groups, reflect):
    total, other = _pdb_sums(state, at, n_groups)
    if reflect and other > total:
        return other
    return total


@domain_fn
def _fill_pdb(state, p):
    """Fill in a state's extra bytes (each tile's cell, each group's value) from its board."""
    n = p.n_cells
    for c in range(n):
        state[n + 1 + state[c]] = c
    at = 2 * n + 1
    q, ng = p.pinfo, p.n_groups
    for g in range(ng):
        state[at + g] = _group_value(state, g, 0, q, p.tables)
        state[at + ng + g] = _group_value(state, g, 1, q, p.tables) if p.reflect else 0
    sv = at + 2 * ng
    state[sv] = NO_MOVE
    state[sv + 1] = 0
    state[sv + 2] = 0
    total, other = _pdb_sums(state, at, ng)
    state[sv + 3] = total  # the sums, kept up by the steps
    state[sv + 4] = other


#: The last-move byte of a PDB state that no :func:`_step_pdb_dfs` made.
NO_MOVE = 255


@domain_fn
def _slide(state, t, n):
    """Slide the tile at cell ``t`` into the blank (a PDB state: the tiles' cells too). Returns
    the tile."""
    U = np.uint64  # unsigned indices: see _group_value
    b = state[U(n)]
    tile = state[U(t)]
    state[b] = tile
    state[U(t)] = 0
    state[U(n)] = t
    state[U(n + 1 + tile)] = b
    state[U(n + 1)] = t  # the blank's own cell, so that equal boards are equal states
    return tile


@domain_fn
def _step_pdb(state, m, p):
    """Move, and look up the moved tile's group values again (plain and reflected). The bytes
    after the values are left alone, so equal boards stay equal states (A* keys its sets by
    whole states)."""
    t = p.nbr[state[p.n_cells], m]
    if t < 0:
        return ILLEGAL
    return _move_pdb(state, t, p.pinfo, p.tables)


@domain_fn
def _move_pdb(state, t, q, tables):
    U = np.uint64  # unsigned indices: see _group_value
    n = q[Q_N]
    ng = q[Q_GROUPS]
    reflect = q[Q_REFLECT]
    at = 2 * n + 1
    sums = U(at + 2 * ng + 3)
    sp = np.int64(state[sums])
    sm = np.int64(state[sums + U(1)])
    old = sm if reflect and sm > sp else sp
    tile = _slide(state, t, n)
    g = q[U(q[Q_GROUP] + tile)]
    if g >= 0:
        v = _group_value(state, g, 0, q, tables)
        sp += v - np.int64(state[U(at + g)])
        state[U(at + g)] = v
    if reflect:
        g = q[U(q[Q_GROUP] + q[U(q[Q_RLABEL] + tile)])]
        if g >= 0:
            v = _group_value(state, g, 1, q, tables)
            sm += v - np.int64(state[U(at + ng + g)])
            state[U(at + ng + g)] = v
    state[sums] = sp
    state[sums + U(1)] = sm
    return (sm if reflect and sm > sp else sp) - old


@domain_fn
def _step_pdb_dfs(state, m, p):
    """:func:`_step_pdb` for depth-first search: same boards, same values. A state it makes
    keeps, after its groups' values, the move that made it and the two values that move
    replaced; a step that takes that move back (the search's undo, most often of a child its
    bound prunes) puts them back instead of looking them up again: half the lookups per node,
    and on a big database each costs a cache miss (benchmarks/RESULTS.md, "Constants").
    Whatever the steps, the kept values are those of the board the kept move's inverse leads
    to, so they are right to put back. Its states are for depth-first search only: equal boards
    may differ in those bytes."""
    t = p.nbr[state[np.uint64(p.n_cells)], np.uint64(m)]  # unsigned: see _group_value
    if t < 0:
        return ILLEGAL
    return _move_pdb_dfs(state, m, t, p.pinfo, p.tables)


@domain_fn
def _move_pdb_dfs(state, m, t, q, tables):
    U = np.uint64  # unsigned indices: see _group_value
    n = q[Q_N]
    ng = q[Q_GROUPS]
    reflect = q[Q_REFLECT]
    at = 2 * n + 1
    sv = U(at + 2 * ng)
    sp = np.int64(state[sv + U(3)])
    sm = np.int64(state[sv + U(4)])
    old = sm if reflect and sm > sp else sp
    tile = _slide(state, t, n)
    g = q[U(q[Q_GROUP] + tile)]
    g2 = q[U(q[Q_GROUP] + q[U(q[Q_RLABEL] + tile)])] if reflect else -1
    if state[sv] == (m ^ 1):  # the move that made this state, taken back
        if g >= 0:
            sp += np.int64(state[sv + U(1)]) - np.int64(state[U(at + g)])
            state[U(at + g)] = state[sv + U(1)]
        if g2 >= 0:
            sm += np.int64(state[sv + U(2)]) - np.int64(state[U(at + ng + g2)])
            state[U(at + ng + g2)] = state[sv + U(2)]
        state[sv] = NO_MOVE
    else:
        state[sv] = m
        if g >= 0:
            v = _group_value(state, g, 0, q, tables)
            state[sv + U(1)] = state[U(at + g)]
            sp += v - np.int64(state[U(at + g)])
            state[U(at + g)] = v
        if g2 >= 0:
            v = _group_value(state, g2, 1, q, tables)
            state[sv + U(2)] = state[U(at + ng + g2)]
            sm += v - np.int64(state[U(at + ng + g2)])
            state[U(at + ng + g2)] = v
    state[sv + U(3)] = sp
    state[sv + U(4)] = sm
    return (sm if reflect and sm > sp else sp) - old


@domain_fn
def _heuristic_pdb(state, p):
    return _pdb_total(state, 2 * p.n_cells + 1, p.n_groups, p.reflect)


def line_conflict_table(length):
    """Linear conflict of a line of ``length`` cells for every key ``sum(code[i] * (length +
    1) ** i)``, where ``code[i]`` is the goal place along the line of the tile in cell ``i`` if
    the line is its goal line, else ``length``: 2 x (such tiles - the longest run of them
    already in goal order), the extra moves to let them pass each other."""
    size = (length + 1) ** length
    out = np.zeros(size, dtype=np.uint8)
    for key in range(size):
        codes, k = [], key
        for _ in range(length):
            k, c = divmod(k, length + 1)
            if c < length:
                codes.append(c)
        best = [1] * len(codes)  # longest increasing run ending at each tile
        for i in range(len(codes)):
            for j in range(i):
                if codes[j] < codes[i] and best[j] + 1 > best[i]:
                    best[i] = best[j] + 1
        out[key] = 2 * (len(codes) - max(best, default=0))
    return out
