"""Iterative deepening: IDDFS and IDA* in one kernel.

Depth-first search below a cost bound ``f = g + h <= bound``, repeated with a growing bound.
With ``h = 0`` it is plain iterative deepening (IDDFS); with an admissible ``h`` it is IDA*.
The search never applies the move that undoes the previous one, keeps only the current path
(an explicit stack, no recursion) and can keep going after the first solution to count every
optimal one.

The next bound is the smallest ``f`` that went over the current one, rounded up to a whole
number of ``params.bound_step`` steps: on sliding-tile boards every solution has the parity of the
blank's distance, so the bound starts with that parity and steps by 2 (document 000). Rounding
keeps the parity even when a heuristic's values do not have it (with indistinguishable tiles the
distance to the nearest home does not).

On puzzles where many move orders reach one position (block puzzles: pieces of one shape are
alike, and moves of distant pieces commute) the tree is far bigger than the space. A
*transposition table* (:func:`new_transpositions`, for the candidate-move loop) then records
each position a pass enters with its depth, and a pass that reaches a position again no less
deep skips it: its subtree, searched with at least as much room under the bound, held no
solution. The first solution is still optimal (counting all of them needs every path, so the
table is for single solutions only).
"""

import numba
import numpy as np
from numba import prange

from ..core.jit import jit, kernel
from ..core.contract import ILLEGAL, play
from ..core.hashset import find_hashed, grow_rows, hash_state, new_table, put
from .workshare import filled, new_counter, start_threads, take, total, workers

#: ``status`` values returned by the kernel.
FOUND, EXHAUSTED, NODE_LIMIT = 0, 1, 2
#: The parallel pass splits the tree into about one subtree per this many nodes of the pass
#: before it (the next pass is several times bigger), at least :data:`SPLIT_MIN_SUBTREES` and
#: at most :data:`SPLIT_SUBTREES` (when the bound allows). Each subtree costs a few
#: microseconds to set up, so a small pass is split into few (benchmarks/RESULTS.md, "Constants").
SPLIT_NODES_PER_SUBTREE = 1 << 10
SPLIT_MIN_SUBTREES = 16
SPLIT_SUBTREES = 256
#: ... and is used only for bounds at least this large (small ones finish in microseconds)...
SPLIT_MIN_BOUND = 12
#: ... and only after a pass that generated at least this many nodes: the next one is then
#: several times bigger, and worth sharing (the 8-puzzle's passes at bounds 29 and 31 are). The
#: price is paid on a busy machine, where a parallel region waits for every thread to be
#: scheduled; pass ``threads=1`` there (benchmarks/RESULTS.md, "Constants").
SPLIT_MIN_NODES = 1 << 11
#: :func:`_deepen_batch` hands a search over after a pass of at least this many nodes. Far
#: more than :data:`SPLIT_MIN_NODES`: a batch keeps all threads busy with whole searches, and
#: entering a parallel region costs tens of milliseconds on a busy machine, far more than the
#: passes of Korf's 100 with the 7-8 databases take (benchmarks/RESULTS.md, "Constants").
HAND_OVER_NODES = 1 << 20


@kernel
def _dfs_bounded(state, h0, g0, last, bound, fns, p, count_all, path, node_budget, ffns=None,
                 cfns=None, tt=None, skip=None, order=None):
    """One depth-first pass below ``bound`` from a state ``g0`` moves deep, reached by move
    ``last`` (-1 at the root). ``state`` is restored on return.

    Without ``ffns`` every move number is tried and a move is undone by its inverse (the
    sliding-tile hot loop). With a domain's :class:`~puzzlelib.core.contract.FrontierFns` (block
    puzzles: hundreds of move numbers, a few dozen worth trying, and a heuristic looked up in
    pattern databases) see :func:`_dfs_bounded_candidates`; with its
    :class:`~puzzlelib.core.contract.CursorFns` (sliding tiles), :func:`_dfs_bounded_cursor`.

    ``tt``: a transposition table (:func:`new_transpositions`; with ``ffns`` only).

    ``skip``: an automaton over the moves (``skip[q, m]``: the state after move ``m`` in state
    ``q``, -1 for a move not to make; :mod:`puzzlelib.domains.cycles`) that then replaces the
    test against the last move's inverse, and ``last`` is its state here (0 at the start).

    ``order``: the move numbers in the order they are tried (default: by number); only without
    ``ffns`` and ``cfns``.

    Returns (solutions found, nodes generated, smallest f over the bound, first solution length
    counted from this state, nodes expanded). The first solution's moves are left in ``path``.
    A node is expanded when its moves are tried: this state, and every node entered below it.
    """
    if cfns is not None:
        return _dfs_bounded_cursor(state, h0, g0, last, bound, fns, p, count_all, path,
                                   node_budget, cfns, skip)
    if ffns is not None:
        return _dfs_bounded_candidates(state, h0, g0, last, bound, fns, p, count_all, path,
                                       node_budget, ffns, tt)
    n_moves = p.n_moves
    bound -= g0  # from here on, depths count from this state
    max_depth = bound
    next_move = np.zeros(max_depth + 1, dtype=np.int64)
    hs = np.empty(max_depth + 1, dtype=np.int64)
    moves = np.empty(max_depth + 1, dtype=np.int64)
    qs = np.empty(max_depth + 1 if skip is not None else 0, dtype=np.int64)
    hs[0] = h0
    if skip is not None:
        qs[0] = last
    solutions = 0
    first_len = -1
    nodes = 0
    over = np.int64(1) << 62
    if bound == 0:
        # only this state lies within the bound; its children would have f > bound
        if h0 == 0 and fns.is_goal(state, p):
            return 1, 0, over, 0, 0
        return 0, 0, np.int64(g0 + 1), -1, 0
    expanded = 1
    depth = 0
    while depth >= 0:
        i = next_move[depth]
        if i == n_moves:
            # all moves tried here: go back up, undoing the move that led here
            depth -= 1
            if depth >= 0:
                fns.step(state, fns.inverse(moves[depth], p), p)
            continue
        next_move[depth] = i + 1
        m = i
        if order is not None:
            m = order[i]
        q = 0
        if skip is not None:
            q = skip[qs[depth], m]
            if q < 0:
                continue  # a string of moves that a smaller one replaces
        else:
            prev = moves[depth - 1] if depth > 0 else last
            if prev >= 0 and m == fns.inverse(prev, p):
                continue  # never undo the last move
        dh = fns.step(state, m, p)
        if dh == ILLEGAL:
            continue
        nodes += 1
        g = depth + 1
        h = hs[depth] + dh
        f = g + h
        if f > bound:
            if f + g0 < over:
                over = f + g0
            fns.step(state, fns.inverse(m, p), p)
            continue
        moves[depth] = m
        if g == bound:
            if h == 0 and fns.is_goal(state, p):
                solutions += 1
                if first_len < 0:
                    first_len = g
                    path[:g] = moves[:g]
                if not count_all:
                    # restore the state before returning
                    for k in range(g - 1, -1, -1):
                        fns.step(state, fns.inverse(moves[k], p), p)
                    return solutions, nodes, over, first_len, expanded
            elif bound + 1 + g0 < over:
                over = bound + 1 + g0  # children would have g > bound
            fns.step(state, fns.inverse(m, p), p)
            continue
        if node_budget > 0 and nodes >= node_budget:
            for k in range(g - 1, -1, -1):
                fns.step(state, fns.inverse(moves[k], p), p)
            return solutions, -nodes, over, first_len, expanded
        depth += 1
        expanded += 1
        next_move[depth] = 0
        hs[depth] = h
        if skip is not None:
            qs[depth] = q
    return solutions, nodes, over, first_len, expanded


@kernel
def _dfs_bounded_candidates(state, h0, g0, last, bound, fns, p, count_all, path, node_budget,
                            ffns, tt=None):
    """:func:`_dfs_bounded` for a domain with :class:`~puzzlelib.core.contract.FrontierFns`: each
    state's candidate moves are listed once when it is entered, and a child is made on a copy
    of its parent (one row per depth) instead of in place, so nothing is ever undone. Undoing a
    block-puzzle move would look the pattern databases up again; a copy is a few dozen bytes.
    Same results as :func:`_dfs_bounded`; the children are tried in the candidates' order.

    With a transposition table ``tt`` (one call is one pass: the table's pass number is
    advanced), a child this pass has entered before at no greater depth is not entered again
    (see :func:`_seen_before`); the first solution found is still a shortest one."""
    L = p.state_len
    if tt is not None:
        tt[4][1] += 1  # a new pass: what earlier passes recorded no longer prunes
        _seen_before(tt, state, g0)
    bound -= g0
    max_depth = bound
    if bound == 0:
        if h0 == 0 and fns.is_goal(state, p):
            return 1, 0, np.int64(1) << 62, 0, 0
        return 0, 0, np.int64(g0 + 1), -1, 0
    rows = np.empty((max_depth + 1, L), dtype=np.uint8)
    cand = np.empty((max_depth + 1, p.n_moves), dtype=np.int64)
    n_cand = np.zeros(max_depth + 1, dtype=np.int64)
    next_i = np.zeros(max_depth + 1, dtype=np.int64)
    hs = np.empty(max_depth + 1, dtype=np.int64)
    moves = np.empty(max_depth + 1, dtype=np.int64)
    for j in range(L):
        rows[0, j] = state[j]
    hs[0] = h0
    n_cand[0] = ffns.candidates(rows[0], p, cand[0])
    solutions = 0
    first_len = -1
    nodes = 0
    expanded = 1
    over = np.int64(1) << 62
    depth = 0
    while depth >= 0:
        i = next_i[depth]
        if i == n_cand[depth]:
            depth -= 1  # nothing to undo: the parent's row is untouched
            continue
        next_i[depth] = i + 1
        m = cand[depth, i]
        prev = moves[depth - 1] if depth > 0 else last
        if prev >= 0 and m == fns.inverse(prev, p):
            continue  # never undo the last move
        child = rows[depth + 1]  # (depth < bound: a state at the bound is never entered)
        for j in range(L):
            child[j] = rows[depth, j]
        dh = play(fns, ffns, child, m, p)
        if dh == ILLEGAL:
            continue
        nodes += 1
        g = depth + 1
        h = hs[depth] + dh
        f = g + h
        if f > bound:
            if f + g0 < over:
                over = f + g0
            continue
        moves[depth] = m
        if g == bound:
            if h == 0 and fns.is_goal(child, p):
                solutions += 1
                if first_len < 0:
                    first_len = g
                    path[:g] = moves[:g]
                if not count_all:
                    return solutions, nodes, over, first_len, expanded
            elif bound + 1 + g0 < over:
                over = bound + 1 + g0  # children would have g > bound
            continue
        if node_budget > 0 and nodes >= node_budget:
            return solutions, -nodes, over, first_len, expanded
        if tt is not None and not count_all and _seen_before(tt, child, g + g0):
            continue  # entered before in this pass, no deeper: nothing new below it
        depth += 1
        expanded += 1
        next_i[depth] = 0
        hs[depth] = h
        n_cand[depth] = ffns.candidates(rows[depth], p, cand[depth])
    return solutions, nodes, over, first_len, expanded


#: Rows a transposition table starts with; :func:`iterative_deepening` gives the next pass one
#: four times bigger whenever a pass fills it, up to the number of positions asked for.
FIRST_TRANSPOSITIONS = 1 << 16


@jit
def new_transpositions(state_len, rows):
    """An empty transposition table with room for ``rows`` positions (it never grows during a
    pass: once full, new positions are searched without being recorded). A tuple: hash set
    (slots, pool of states), each position's depth and pass, and ``info`` = [positions
    stored, current pass]."""
    slots, pool = new_table(state_len, rows)
    depths = np.empty(rows, dtype=np.int32)
    passes = np.empty(rows, dtype=np.int32)
    info = np.zeros(2, dtype=np.int64)
    return slots, pool, depths, passes, info


@jit
def _seen_before(tt, state, g):
    """Whether the current pass has entered ``state`` before at depth ``g`` or less. If not,
    it is recorded at ``g`` (when the table has room). A position entered again no less deep
    needs no second search: the first one had at least as much room under the bound, and a
    pass stops at its first solution, so that search found none."""
    slots, pool, depths, passes, info = tt
    h = hash_state(state)
    idx = find_hashed(slots, pool, state, h)
    if idx >= 0:
        if passes[idx] == info[1] and depths[idx] <= g:
            return True
        passes[idx] = info[1]
        depths[idx] = g
        return False
    n = info[0]
    if n < pool.shape[0]:
        put(slots, pool, n, state, h)
        depths[n] = g
        passes[n] = info[1]
        info[0] = n + 1
    return False


@kernel
def _dfs_bounded_cursor(state, h0, g0, last, bound, fns, p, count_all, path, node_budget, cfns,
                        skip=None):
    """:func:`_dfs_bounded` for a domain with :class:`~puzzlelib.core.contract.CursorFns`: the cursor
    (the blank) stays in a register, only legal moves are listed, and a child is looked at
    (``peek``) before it is made, so one pruned by the bound costs no move and no undo, and a
    child at the bound is made only when it may be the goal. Same tree, same order, same
    results as :func:`_dfs_bounded`, and faster (benchmarks/RESULTS.md, "Constants").

    The stack's arrays are indexed with unsigned integers, as are the tables of the sliding
    board's cursor functions: numba makes a signed index that might be negative count from the
    array's end, a few instructions per access and a dozen accesses per node."""
    bound -= g0
    max_depth = bound
    over = np.int64(1) << 62
    if bound == 0:
        if h0 == 0 and fns.is_goal(state, p):
            return 1, 0, over, 0, 0
        return 0, 0, np.int64(g0 + 1), -1, 0
    next_i = np.zeros(max_depth + 1, dtype=np.int64)
    hs = np.empty(max_depth + 1, dtype=np.int64)
    moves = np.empty(max_depth + 1, dtype=np.int64)
    cursors = np.empty(max_depth + 1, dtype=np.int64)
    qs = np.empty(max_depth + 1 if skip is not None else 0, dtype=np.int64)
    hs[0] = h0
    c = np.int64(cfns.cursor(state, p))
    cursors[0] = c
    prev = last
    if skip is not None:
        qs[0] = last
        prev = -1  # every legal move is listed; the automaton refuses some
    solutions = 0
    first_len = -1
    nodes = 0
    expanded = 1
    depth = 0
    while depth >= 0:
        i = next_i[np.uint64(depth)]
        m = cfns.next_move(c, prev, i, p)
        if m < 0:
            # all moves tried here: go back up, undoing the move that led here
            depth -= 1
            if depth >= 0:
                pc = cursors[np.uint64(depth)]
                cfns.undo(state, pc, moves[np.uint64(depth)], c, p)
                c = pc
                if skip is None:
                    prev = moves[np.uint64(depth - 1)] if depth > 0 else last
            continue
        next_i[np.uint64(depth)] = i + 1
        q = 0
        if skip is not None:
            q = skip[np.uint64(qs[np.uint64(depth)]), np.uint64(m)]
            if q < 0:
                continue
        g = depth + 1
        dh, c2 = cfns.peek(state, c, m, p)
        nodes += 1
        h = hs[np.uint64(depth)] + dh
        f = g + h
        if f > bound:
            if f + g0 < over:
                over = f + g0
            continue
        if g == bound:
            if h == 0:
                cfns.apply(state, c, m, c2, p)
                goal = fns.is_goal(state, p)
                cfns.undo(state, c, m, c2, p)
                if goal:
                    solutions += 1
                    moves[np.uint64(depth)] = m
                    if first_len < 0:
                        first_len = g
                        path[:g] = moves[:g]
                    if not count_all:
                        _undo_path(state, cursors, moves, depth, c, cfns, p)
                        return solutions, nodes, over, first_len, expanded
                    continue
            if bound + 1 + g0 < over:
                over = bound + 1 + g0  # children would have g > bound
            continue
        if node_budget > 0 and nodes >= node_budget:
            _undo_path(state, cursors, moves, depth, c, cfns, p)
            return solutions, -nodes, over, first_len, expanded
        cfns.apply(state, c, m, c2, p)
        moves[depth] = m
        depth += 1
        expanded += 1
        next_i[depth] = 0
        hs[depth] = h
        cursors[depth] = c2
        c = c2
        if skip is not None:
            qs[depth] = q
        else:
            prev = m
    return solutions, nodes, over, first_len, expanded


@kernel
def _undo_path(state, cursors, moves, depth, c, cfns, p):
    """Take back the moves that led ``depth`` deep (the cursor now at ``c``)."""
    for k in range(depth - 1, -1, -1):
        cfns.undo(state, cursors[k], moves[k], c, p)
        c = cursors[k]


@kernel
def _root_frontier(start, h0, bound, fns, p, want, record=True, skip=None):
    """Expand from ``start`` breadth-first, with the depth-first pass's pruning and node count,
    until there are ``want`` subtree roots or one more level would reach ``bound``. Roots stay in
    the order the depth-first pass would visit them.

    Returns (states, h, last moves, move prefixes, depth, nodes generated, smallest f over,
    nodes expanded, and those nodes: their move prefixes (row ``t``'s first ``lens[t]``
    entries), and which moves each one's children were generated by). ``record=False``: the
    expanded nodes are counted, not recorded (a pass counting every solution needs no more).
    With ``skip`` (see :func:`_dfs_bounded`) the "last moves" are the automaton's states."""
    L = p.state_len
    cur_s = np.empty((1, L), dtype=np.uint8)
    cur_s[0] = start
    cur_h = np.full(1, h0, dtype=np.int64)
    cur_last = np.full(1, 0 if skip is not None else -1, dtype=np.int64)
    cur_pre = np.empty((1, 0), dtype=np.int64)
    k = 0
    nodes = 0
    over = np.int64(1) << 62
    buf = np.empty(L, dtype=np.uint8)
    rows = 16 if record else 0
    exp_pre = np.zeros((rows, max(1, bound)), dtype=np.int64)
    exp_len = np.zeros(rows, dtype=np.int64)
    exp_gen = np.zeros((rows, p.n_moves), dtype=np.uint8)
    n_exp = 0
    while 0 < cur_s.shape[0] < want and k < bound - 1:
        while record and n_exp + cur_s.shape[0] > exp_len.shape[0]:
            exp_pre = grow_rows(exp_pre, 2 * exp_len.shape[0])
            exp_len = grow_rows(exp_len, 2 * exp_len.shape[0])
            exp_gen = grow_rows(exp_gen, 2 * exp_gen.shape[0])
            exp_gen[n_exp:] = 0
        cap = cur_s.shape[0] * p.n_moves
        nx_s = np.empty((cap, L), dtype=np.uint8)
        nx_h = np.empty(cap, dtype=np.int64)
        nx_last = np.empty(cap, dtype=np.int64)
        nx_pre = np.empty((cap, k + 1), dtype=np.int64)
        c = 0
        for i in range(cur_s.shape[0]):
            buf[:] = cur_s[i]
            if record:
                exp_pre[n_exp, :k] = cur_pre[i]
                exp_len[n_exp] = k
            for m in range(p.n_moves):
                q = m
                if skip is not None:
                    q = skip[cur_last[i], m]
                    if q < 0:
                        continue
                elif cur_last[i] >= 0 and m == fns.inverse(cur_last[i], p):
                    continue
                dh = fns.step(buf, m, p)
                if dh == ILLEGAL:
                    continue
                nodes += 1
                if record:
                    exp_gen[n_exp, m] = 1
                h = cur_h[i] + dh
                f = k + 1 + h
                if f > bound:
                    over = min(over, f)
                else:
                    nx_s[c] = buf
                    nx_h[c] = h
                    nx_last[c] = q
                    nx_pre[c, :k] = cur_pre[i]
                    nx_pre[c, k] = m
                    c += 1
                fns.step(buf, fns.inverse(m, p), p)
            n_exp += 1
        cur_s, cur_h, cur_last, cur_pre = nx_s[:c], nx_h[:c], nx_last[:c], nx_pre[:c]
        k += 1
    return (cur_s, cur_h, cur_last, cur_pre, k, nodes, over, n_exp, exp_pre[:n_exp],
            exp_len[:n_exp], exp_gen[:n_exp])


@kernel
def _generated_before(pre, n, made, target):
    """How many of the children ``made`` (a flag per move) by the node of move prefix
    ``pre[:n]`` the depth-first pass generates before it reaches ``target`` (a longer prefix):
    all of them when the node comes before ``target`` in depth-first order (children in
    move-number order: the order of move prefixes), those up to ``target``'s next move when it
    is ``target``'s ancestor, none when it comes after."""
    for x in range(n):
        if pre[x] != target[x]:
            return made.sum() if pre[x] < target[x] else -1
    return made[: target[n] + 1].sum()


@kernel(parallel=True)
def _split_pass(start, h0, bound, fns, p, count_all, path, want, cfns=None, skip=None):
    """The depth-first pass below ``bound``, its subtrees (about ``want`` of them: see
    :func:`split_subtrees`) shared among threads (``prange``).

    Same results as :func:`_dfs_bounded` from the start, node counts included, whatever the
    threads: the first solution is the one in the earliest subtree, which is the one the serial
    pass finds first, and then the nodes counted are those the serial pass generates before it
    (the subtrees before that one, that one up to its solution, and the nodes of the shared
    top levels that come before it in depth-first order); work the threads did past it is not
    counted."""
    roots, hs, lasts, prefixes, k, nodes0, over0, n_exp, exp_pre, exp_len, exp_gen = (
        _root_frontier(start, h0, bound, fns, p, want, not count_all, skip))
    n = roots.shape[0]
    sols = filled(n, 0)
    nodes = filled(n, 0)
    expanded = filled(n, 0)
    overs = filled(n, np.int64(1) << 62)
    lens = filled(n, -1)
    paths = np.empty((n, bound + 1), dtype=np.int64)
    # first solution only: a subtree after one that has found a solution cannot change the
    # answer (the earliest subtree's solution is returned), so it is skipped. found_at may lag
    # behind (threads race on it), which only skips less.
    found_at = filled(1, n)
    counter = new_counter()
    for _ in prange(workers(n)):  # each thread takes the next subtree when it comes free
        while True:
            i = take(counter)
            if i >= n:
                break
            if not count_all and found_at[0] < i:
                continue
            st = roots[i].copy()
            sols[i], nodes[i], overs[i], lens[i], expanded[i] = _dfs_bounded(
                st, hs[i], k, lasts[i], bound, fns, p, count_all, paths[i], 0, None, cfns, None,
                skip)
            if sols[i] > 0 and i < found_at[0]:
                found_at[0] = i
    over = over0
    for i in range(n):
        over = min(over, overs[i])
    length = -1
    for i in range(n):
        if sols[i] > 0:
            for j in range(k):  # (loops: slice copies are parallel regions here)
                path[j] = prefixes[i, j]
            for j in range(lens[i]):
                path[k + j] = paths[i, j]
            length = k + lens[i]
            break
    n_sols = total(sols)
    generated = nodes0 + total(nodes)
    n_expanded = n_exp + total(expanded)
    if not count_all and n_sols > 0:
        n_sols = 1
        first = 0
        while sols[first] == 0:
            first += 1
        generated = total(nodes[: first + 1])
        n_expanded = total(expanded[: first + 1])
        for t in range(exp_len.shape[0]):
            g = _generated_before(exp_pre[t], exp_len[t], exp_gen[t], prefixes[first])
            if g >= 0:
                generated += g
                n_expanded += 1
    return n_sols, generated, over, length, n_expanded


def split_subtrees(last_pass_nodes):
    """How many subtrees a shared pass is split into, after a pass of ``last_pass_nodes``."""
    return min(SPLIT_SUBTREES, max(SPLIT_MIN_SUBTREES, last_pass_nodes // SPLIT_NODES_PER_SUBTREE))


@jit
def first_bound(bound0, h0, step):
    """``bound0`` raised to at least ``h0`` in whole steps (keeping the solutions' parity)."""
    if h0 > bound0:
        bound0 += (h0 - bound0 + step - 1) // step * step
    return bound0


@jit
def next_bound(bound, over, step):
    """The bound after a pass whose smallest ``f`` over ``bound`` was ``over``: at least one
    step more, in whole steps."""
    return bound + max(1, (over - bound + step - 1) // step) * step


#: ``status`` of :func:`_deepen_passes` when it stopped before the next pass (see there).
MORE = 3


@kernel
def _deepen_passes(state, h0, bound, max_bound, fns, p, count_all, path, node_limit, nodes,
                   expanded, split_after, split_min_bound, max_passes, ffns=None, cfns=None,
                   tt=None, skip=None, order=None):
    """Depth-first passes from ``bound`` on, all in one call, until a solution, the space
    exhausted, ``max_bound`` passed or ``node_limit`` nodes (``0``: none; ``nodes`` and
    ``expanded`` were counted before). Stops with status :data:`MORE` after ``max_passes``
    passes, or after a pass of at least ``split_after`` nodes (``< 0``: never) when the next
    bound is ``split_min_bound`` or more: the caller then shares the next pass among threads,
    or reports progress.

    Returns (status, solutions, nodes, first solution's length, bound of the last pass made,
    the next bound, nodes of the last pass, passes made, nodes expanded, whether the space
    below the bound was exhausted)."""
    step = p.bound_step
    passes = 0
    done = bound
    n = np.int64(0)
    while bound <= max_bound:
        budget = node_limit - nodes if node_limit > 0 else 0
        sols, n, over, length, e = _dfs_bounded(state, h0, 0, 0 if skip is not None else -1,
                                                bound, fns, p, count_all, path, budget, ffns,
                                                cfns, tt, skip, order)
        passes += 1
        done = bound
        expanded += e
        if n < 0:
            return NODE_LIMIT, 0, nodes - n, -1, done, bound, -n, passes, expanded, False
        nodes += n
        if sols > 0:
            return FOUND, sols, nodes, length, done, bound, n, passes, expanded, False
        if over >= np.int64(1) << 62:
            # nothing over the bound: the space below it is exhausted
            return EXHAUSTED, 0, nodes, -1, done, bound, n, passes, expanded, True
        bound = next_bound(bound, over, step)
        if bound <= max_bound and (passes >= max_passes or (
                0 <= split_after <= n and bound >= split_min_bound)):
            return MORE, 0, nodes, -1, done, bound, n, passes, expanded, False
    return EXHAUSTED, 0, nodes, -1, done, bound, n, passes, expanded, False


class DeepeningResult:
    """What :func:`iterative_deepening` found: ``status`` (:data:`FOUND`, :data:`EXHAUSTED` or
    :data:`NODE_LIMIT`), the first solution's ``length`` and ``path`` (move numbers), the
    ``solutions`` counted (all of them with ``count_all``, else 1), the nodes ``generated`` and
    ``expanded`` by every pass, the passes made (``iterations``), the first and the last
    bound, whether the space below the last bound was exhausted (no solution at any depth:
    ``space_exhausted``), the most positions held at once (``stored``: the deepest path, and
    the transposition table's entries) and the bytes of the search's own arrays
    (``memory_bytes``)."""

    __slots__ = ("status", "length", "path", "solutions", "generated", "expanded", "iterations",
                 "first_bound", "last_bound", "space_exhausted", "stored", "memory_bytes")

    def __init__(self, status, length, path, solutions, generated, expanded, iterations, first,
                 last, exhausted, stored, memory_bytes):
        self.status, self.length, self.path = int(status), int(length), path
        self.solutions, self.generated, self.expanded = int(solutions), int(generated), int(
            expanded)
        self.iterations, self.first_bound, self.last_bound = int(iterations), int(first), int(
            last)
        self.space_exhausted = bool(exhausted)
        self.stored, self.memory_bytes = int(stored), int(memory_bytes)


def stack_bytes(p, bound, candidates):
    """Bytes of a depth-first pass's own arrays below ``bound``: four ``int64`` entries a level
    (a candidate-move pass: also a state and the candidate moves of each level)."""
    levels = bound + 1
    out = 4 * 8 * levels
    if candidates:
        out += levels * (int(p.state_len) + 8 * int(p.n_moves) + 8)
    return out


def _tt_size(tt):
    if tt is None:
        return 0, 0
    return int(tt[4][0]), sum(int(a.nbytes) for a in tt)


def iterative_deepening(start, fns, p, bound0, count_all, max_bound, node_limit=0,
                        parallel=False, progress=None, ffns=None, cfns=None, resume=None,
                        transpositions=0, split_after=None, first_transpositions=None,
                        skip=None, order=None):
    """Deepen from ``bound0`` until a solution or ``max_bound``. ``bound0`` must have the residue
    (mod ``bound_step``) of every solution length; it is raised to the heuristic's value in
    whole steps. ``parallel``: share each pass's subtrees among numba's threads (ignored with a
    node limit, and for a pass that follows one of fewer than ``split_after`` nodes, default
    :data:`SPLIT_MIN_NODES`). ``progress(bound, nodes so far)`` is called after each pass.
    ``ffns``: the domain's :class:`~puzzlelib.core.contract.FrontierFns`, if it has any worth
    using (candidate moves; the passes then run on one thread). ``cfns``: the domain's
    :class:`~puzzlelib.core.contract.CursorFns`, if it has them (a tighter loop, same results).
    ``resume``: ``(nodes, last pass's nodes, expanded)`` of passes already made below
    ``bound0`` (by :func:`_deepen_batch`, which hands a search over when its passes grow big),
    counted in. ``transpositions``: with ``ffns``, record up to this many positions per pass in
    a transposition table (see the module's notes; 0: none). The table starts small
    (``first_transpositions`` rows, default :data:`FIRST_TRANSPOSITIONS`) and each pass that
    fills it gives the next a bigger one; the passes then run one per call. ``skip``: an
    automaton of move strings not to play (:func:`_dfs_bounded`; not with ``count_all``, which
    needs every path, nor with ``ffns``). ``order``: the move numbers in the order each node tries
    them (an array; default by number), on one thread and without ``ffns`` (``cfns`` is then
    not used).

    The passes on one thread run in one call of :func:`_deepen_passes` when nobody watches
    (each call of a kernel costs the typing of its arguments, a large share of a small
    search's passes).

    Returns a :class:`DeepeningResult`."""
    if skip is not None and (count_all or ffns is not None):
        raise ValueError("skipping move strings needs one solution (counting all of them needs "
                         "every path) and no candidate moves (ffns)")
    if order is not None:
        if parallel or ffns is not None:
            raise ValueError("a move order needs one thread and no candidate moves (ffns)")
        order = np.ascontiguousarray(order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(int(p.n_moves))):
            raise ValueError(f"the move order must hold each of the {int(p.n_moves)} moves once")
        cfns = None  # the cursor loop lists moves by number
    if parallel:
        start_threads()
    split_after = SPLIT_MIN_NODES if split_after is None else int(split_after)
    tt = None
    if transpositions:
        if ffns is None or count_all:
            raise ValueError("a transposition table needs candidate moves (ffns) and one "
                             "solution (it would lose the count of all of them)")
        rows0 = FIRST_TRANSPOSITIONS if first_transpositions is None else first_transpositions
        tt = new_transpositions(p.state_len, min(int(rows0), int(transpositions)))
    state = start.copy()
    h0 = int(fns.heuristic(state, p))
    step = int(p.bound_step)
    bound = int(first_bound(bound0, h0, step))
    first = bound
    path = np.empty(max_bound + 1, dtype=np.int64)
    nodes = expanded = 0
    iterations = 0
    last = 0  # nodes of the last pass
    done = bound
    held = 0  # the most transposition-table entries and bytes
    tt_bytes = 0
    if resume is not None:
        nodes, last, expanded = int(resume[0]), int(resume[1]), int(resume[2])
    can_split = parallel and ffns is None and node_limit == 0

    def result(status, length, sols, exhausted):
        deepest = min(done, max_bound)
        return DeepeningResult(
            status, length, path[:max(length, 0)].copy(), sols, nodes, expanded, iterations,
            first, done, exhausted, deepest + 1 + held,
            path.nbytes + stack_bytes(p, deepest, ffns is not None) + tt_bytes)

    while bound <= max_bound:
        if can_split and bound >= SPLIT_MIN_BOUND and last >= split_after:
            iterations += 1
            sols, n, over, length, e = _split_pass(state, h0, bound, fns, p, count_all, path,
                                                   split_subtrees(last), cfns, skip)
            nodes += int(n)
            expanded += int(e)
            last = int(n)
            done = bound
            if progress is not None:
                progress(bound, nodes)
            if sols > 0:
                return result(FOUND, int(length), int(sols), False)
            if over >= np.int64(1) << 62:
                return result(EXHAUSTED, -1, 0, True)  # nothing over the bound
            bound = int(next_bound(bound, int(over), step))
            continue
        status, sols, nodes, length, done, bound, last, passes, expanded, exhausted = (
            _deepen_passes(
                state, h0, bound, max_bound, fns, p, count_all, path, node_limit, nodes,
                expanded, split_after if can_split else -1, SPLIT_MIN_BOUND,
                1 if progress is not None or tt is not None else max_bound + 1, ffns, cfns, tt,
                skip, order,
            ))
        entries, nbytes = _tt_size(tt)
        held, tt_bytes = max(held, entries), max(tt_bytes, nbytes)
        if tt is not None and tt[4][0] == tt[1].shape[0] < transpositions:
            rows = min(4 * tt[1].shape[0], int(transpositions))  # the last pass filled it
            tt = new_transpositions(p.state_len, rows)
        nodes, last, bound, expanded = int(nodes), int(last), int(bound), int(expanded)
        done = int(done)
        iterations += int(passes)
        if status == NODE_LIMIT:  # (a pass cut short is not reported)
            return result(NODE_LIMIT, -1, 0, False)
        if progress is not None:
            progress(done, nodes)
        if status == FOUND:
            return result(FOUND, int(length), int(sols), False)
        if status == EXHAUSTED:
            return result(EXHAUSTED, -1, 0, bool(exhausted))
    return result(EXHAUSTED, -1, 0, False)


#: ``lengths`` entry of a start that :func:`_deepen_batch` handed over (see ``hand_over``).
HANDED_OVER = -2


@kernel(parallel=True)
def _deepen_batch(starts, bound0s, fns, p, max_bound, lengths, nodes, expanded, paths,
                  hand_over, bounds, lasts, cfns=None, skip=None):
    """Iterative deepening on many starts at once, each thread taking the next start as it
    comes free: for many small searches (Korf's 100 with a pattern database: some thousands of
    nodes each), where sharing one search's subtrees would cost more in parallel regions than
    it saves. Each row of ``lengths``, ``nodes``, ``expanded`` and ``paths`` gets what
    :func:`iterative_deepening` would find for that start (first solution; -1 when none
    within ``max_bound``).

    ``hand_over > 0``: a search whose pass (without a solution) generated at least
    ``hand_over`` nodes stops there, with ``lengths`` :data:`HANDED_OVER`, its next bound in
    ``bounds``, its nodes so far in ``nodes`` and ``expanded`` and its last pass's in
    ``lasts``: the next pass is several times bigger, and one big search left to the end would
    keep one thread busy alone (:func:`deepen_many` finishes it with all threads on its
    subtrees)."""
    step = p.bound_step
    n = starts.shape[0]
    counter = new_counter()
    for _ in prange(workers(n)):  # each thread takes the next start when it comes free
        while True:
            i = take(counter)
            if i >= n:
                break
            _deepen_one(starts[i].copy(), bound0s[i], fns, p, max_bound, lengths, nodes,
                        expanded, paths, hand_over, bounds, lasts, i, step, cfns, skip)


@kernel
def _deepen_one(state, bound0, fns, p, max_bound, lengths, nodes, expanded, paths, hand_over,
                bounds, lasts, i, step, cfns, skip):
    """Start ``i`` of :func:`_deepen_batch`."""
    h0 = fns.heuristic(state, p)
    bound = first_bound(bound0, h0, step)
    status, _, total, length, _, bound, last, _, e, _ = _deepen_passes(
        state, h0, bound, max_bound, fns, p, False, paths[i], 0, 0, 0,
        hand_over if hand_over > 0 else -1, 0, max_bound + 1, None, cfns, None, skip,
    )
    lengths[i] = length if status == FOUND else (HANDED_OVER if status == MORE else -1)
    bounds[i] = bound
    lasts[i] = last
    nodes[i] = total
    expanded[i] = e


class BatchResult:
    """What :func:`deepen_many` found, one entry per start: ``lengths`` (-1: none within the
    bound), nodes ``generated`` and ``expanded``, and the solutions' moves (row ``i`` of
    ``paths``, its first ``lengths[i]`` entries)."""

    __slots__ = ("lengths", "generated", "expanded", "paths")

    def __init__(self, lengths, generated, expanded, paths):
        self.lengths, self.generated, self.expanded, self.paths = (lengths, generated, expanded,
                                                                   paths)


def deepen_many(starts, bound0s, fns, p, max_bound, threads, cfns=None, hand_over=None,
                skip=None):
    """Solve many starts on ``threads`` threads: :func:`_deepen_batch`, each thread taking the
    next start as it comes free; then, when there are several threads, every search it handed
    over (a pass of ``hand_over`` nodes or more; ``None``: :data:`HAND_OVER_NODES`, ``0``:
    never) finished one at a time by :func:`iterative_deepening` with each pass's subtrees
    shared among the threads. Returns a :class:`BatchResult`, as one search per start would
    find it, node counts included, whatever the threads. ``skip``: see
    :func:`iterative_deepening`."""
    n = len(starts)
    starts = np.ascontiguousarray(starts)
    lengths = np.full(n, -1, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)
    expanded = np.zeros(n, dtype=np.int64)
    paths = np.zeros((n, max_bound + 1), dtype=np.int64)
    bounds = np.zeros(n, dtype=np.int64)
    lasts = np.zeros(n, dtype=np.int64)
    if hand_over is None:
        hand_over = HAND_OVER_NODES
    saved = start_threads()
    numba.set_num_threads(threads)
    try:
        _deepen_batch(starts, np.asarray(bound0s, dtype=np.int64), fns, p, max_bound, lengths,
                      nodes, expanded, paths, hand_over if threads > 1 else 0, bounds, lasts,
                      cfns, skip)
        for i in np.flatnonzero(lengths == HANDED_OVER):
            res = iterative_deepening(
                starts[i], fns, p, int(bounds[i]), False, max_bound, parallel=True, cfns=cfns,
                resume=(nodes[i], lasts[i], expanded[i]), skip=skip,
            )
            lengths[i] = res.length if res.status == FOUND else -1
            nodes[i] = res.generated
            expanded[i] = res.expanded
            paths[i, : len(res.path)] = res.path
    finally:
        numba.set_num_threads(saved)
    return BatchResult(lengths, nodes, expanded, paths)
