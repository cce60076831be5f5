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

**One search, one record, one kernel.** What a search is asked is one :class:`DepthFirst`
record (a namedtuple: the domain's ``fns`` and ``p``, ``count_all``, and the ``ffns``, ``cfns``,
``tt``, ``skip`` and ``order`` it may use, ``None`` where not), and every pass, whatever it
uses, is one call of one kernel, ``_dfs_bounded(ctx, state, h0, g0, last, bound, path,
budget) -> Pass``: one loop over an explicit :class:`Stack`. Where the loops of a domain's
kinds differ (the plain loop steps in place and undoes by the inverse move; the candidates loop
lists each level's candidate moves and makes a child on a copy of its parent's row; the cursor
loop looks at a child before making it), a small step function is chosen by numba from the
record's type when it compiles the kernel, as are the options (an automaton, a move order, a
transposition table): no flag is tested per node. The passes of one search run in one call
(``_deepen_passes(ctx, state, h0, bound, path, limits, nodes, expanded) -> Deepened``), shared
among threads (``_split_pass``), or one search per thread (``_deepen_batch``); results are
namedtuples read by name.
"""

import time
from collections import namedtuple

import numba
import numpy as np
from numba import prange, types
from numba.core.errors import TypingError
from numba.core.typing.typeof import typeof
from numba.core.datamodel import models, register_default
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic, typeof_impl

from ..core.jit import jit, kernel, overload, ready
from ..core.limits import RUNNING, STOP_MASK, check, note, report, stop_reason
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
#: ... and, unless the shared pass is compiled already for the search's types (in this process,
#: or saved in the cache), only once this process's searches have spent this many seconds in
#: passes they could have shared, or would with the next pass (guessed from the last one's
#: time and its growth over the one before): :func:`_split_pass` and the kernels under it
#: take about as long to compile as the rest of a depth-first search's kernels together (tens
#: of seconds), which a search of a second would wait for and gain little from; a long search
#: loses at most these seconds' worth of the other threads (``split_after`` given: at once).
SPLIT_AFTER_SECONDS = 5.0
_unshared = [0.0]  # the seconds this process's searches spent in passes they could have shared
#: :func:`_deepen_batch` hands a search over after a pass of at least this many nodes. Far
#: more than :data:`SPLIT_MIN_NODES`: a batch keeps all threads busy with whole searches, and
#: entering a parallel region costs tens of milliseconds on a busy machine, far more than the
#: passes of Korf's 100 with the 7-8 databases take (benchmarks/RESULTS.md, "Constants").
HAND_OVER_NODES = 1 << 20


#: The search a depth-first pass makes, the one record every kernel here is given (numba compiles
#: them for its fields' types): the domain's ``fns`` and ``p``, ``count_all`` (go on after the
#: first solution, counting every one), and what the search may use beyond ``step``, each ``None``
#: when not used: ``ffns`` (:class:`~puzzlelib.core.contract.FrontierFns`: the candidates loop),
#: ``cfns`` (:class:`~puzzlelib.core.contract.CursorFns`: the cursor loop), ``tt`` (a
#: :class:`Transpositions` table, with ``ffns`` and one solution), ``skip`` (an automaton of move
#: strings not to play) and ``order`` (the move numbers in the order they are tried; plain loop).
DepthFirst = namedtuple("DepthFirst", ["fns", "p", "count_all", "ffns", "cfns", "tt", "skip",
                                       "order"], defaults=(False, None, None, None, None, None))

#: What one pass found: the solutions, the nodes generated (negative: stopped by its budget),
#: the smallest ``f`` over the bound (``1 << 62``: none), the first solution's length from the
#: pass's start (-1: none) and the nodes expanded.
Pass = namedtuple("Pass", ["solutions", "nodes", "over", "length", "expanded"])

#: A pass's own arrays: the ``frame``, one row of :func:`_width` ``int64`` slots per depth
#: (the index of the next move to try, ``h``, the move made, the cursor with ``cfns``, the
#: automaton's state with ``skip``: :data:`NEXT` ... :data:`Q`), and for ``ffns`` each level's
#: state, candidate moves and their number (else None). One array for the slots, not one per
#: slot: the loop then keeps one address in a register where it kept four or five, and a level's
#: slots share a cache line (benchmarks/RESULTS.md, "The depth-first loop's frame").
Stack = namedtuple("Stack", ["frame", "rows", "cand", "n_cand"])
NEXT, H, MOVE, CURSOR, Q = range(5)

#: A transposition table (:func:`new_transpositions`): a hash set of positions (``slots``,
#: ``pool``), each one's ``depths`` and ``passes`` (the pass that recorded it), the number of
#: positions ``stored`` and the ``current`` pass (one-entry arrays, so that kernels advance them).
Transpositions = namedtuple("Transpositions", ["slots", "pool", "depths", "passes", "stored",
                                               "current"])

NOTHING_OVER = np.int64(1) << 62

# The type of a DepthFirst record. numba's dispatcher types an argument of numbers, arrays and
# tuples of them (``params``) from a fingerprint in a few microseconds, but a tuple holding
# functions (a DepthFirst record) the slow way, field by field, and then hashes its type (a
# hash of every type nested in it): more than some small searches take. So a record's type is
# worked out from its fields' fingerprints, and it keeps its hash.
try:
    from numba._dispatcher import compute_fingerprint
except ImportError:  # (another numba: the slow way)
    def compute_fingerprint(val):
        raise NotImplementedError
_FIELD_TYPES = {}  # a field's fingerprint -> its type
_RECORD_TYPES = {}  # the ids of the fields' types -> (those types, the record's type)


class DepthFirstType(types.NamedTuple):
    """numba's type of a :class:`DepthFirst` record: a namedtuple's, whose hash is kept."""

    def __hash__(self):
        hit = _RECORD_TYPES.get(tuple(map(id, self.types)))
        if hit is None or hit[1] is not self:
            return super().__hash__()
        return hit[2]


register_default(DepthFirstType)(models.TupleModel)


def _record_type(fields):
    """The :class:`DepthFirstType` of fields of these numba types."""
    key = tuple(map(id, fields))
    hit = _RECORD_TYPES.get(key)
    if hit is None:
        ty = DepthFirstType(fields, DepthFirst)
        hit = (fields, ty, hash(ty.key))  # (the fields kept: their ids stay theirs)
        if len(_RECORD_TYPES) < 4096:
            _RECORD_TYPES[key] = hit
    return hit[1]


def _typeof_field(val, c):
    try:
        key = compute_fingerprint(val)
    except (NotImplementedError, TypeError, ValueError):
        return typeof(val, c.purpose)  # bundles of functions: cached by their own typeof
    ty = _FIELD_TYPES.get(key)
    if ty is None:
        ty = typeof(val, c.purpose)
        if len(_FIELD_TYPES) < 4096:
            _FIELD_TYPES[key] = ty
    return ty


@typeof_impl.register(DepthFirst)
def _typeof_depth_first(val, c):
    return _record_type(tuple(_typeof_field(x, c) for x in val))


@intrinsic
def depth_first(typingctx, fns, p, count_all, ffns, cfns, tt, skip, order):
    """A :class:`DepthFirst` record made in compiled code (of the same type as one passed in)."""
    given = (fns, p, count_all, ffns, cfns, tt, skip, order)
    fields = tuple(types.unliteral(t) for t in given)

    def codegen(context, builder, sig, args):
        values = [context.cast(builder, v, t, f) for v, t, f in zip(args, given, fields)]
        out = context.make_tuple(builder, sig.return_type, values)
        return impl_ret_borrowed(context, builder, sig.return_type, out)
    return _record_type(fields)(*given), codegen



@kernel
def _dfs_bounded(ctx, state, h0, g0, last, bound, path, budget):
    """One depth-first pass of the search ``ctx`` (a :class:`DepthFirst`) below ``bound``, from
    a state ``g0`` moves deep, reached by move ``last`` (-1 at the root; with ``skip``, the
    automaton's state, 0 at the start), stopping after ``budget`` nodes (0: never). ``state`` is
    restored on return. Returns a :class:`Pass`; the first solution's moves are left in
    ``path``. A node is expanded when its moves are tried: this state, and every node entered
    below it.

    One loop for every kind of search; where they differ, a small function is chosen by
    ``ctx``'s type (:func:`_per_kind`). The plain loop tries every move number (or ``order``)
    and undoes a move by its inverse. The candidates loop lists each state's candidate moves
    once when it is entered, and makes a child on a copy of its parent (one row per depth), so
    nothing is undone (undoing a block-puzzle move would look the pattern databases up again);
    with a transposition table a child this pass has entered before at no greater depth is not
    entered again (:func:`_seen_before`). The cursor loop keeps the cursor (the blank) in a
    register, lists only legal moves and looks at a child (``peek``) before it is made, so one
    pruned by the bound costs no move and no undo. All search the same tree with the same node
    counts; the candidates loop tries the children in the candidates' order.

    The stack is indexed with unsigned integers: numba makes a signed index that might be
    negative count from the array's end, a few instructions per access."""
    fns, p = ctx.fns, ctx.p
    _enter_pass(ctx, state, g0)
    bound -= g0  # from here on, depths count from this state
    over = NOTHING_OVER
    if bound == 0:
        # only this state lies within the bound; its children would have f > bound
        if h0 == 0 and fns.is_goal(state, p):
            return Pass(1, 0, over, 0, 0)
        return Pass(0, 0, np.int64(g0 + 1), -1, 0)
    st = _new_stack(ctx, state, h0, last, bound)
    c = _root_cursor(ctx, state)
    prev = last  # the last move; with ``skip``, the automaton's state
    solutions = nodes = 0
    look = STOP_MASK + 1
    first_len = -1
    expanded = 1
    depth = 0
    while depth >= 0:
        d = np.uint64(depth)
        i = _get(ctx, st, d, NEXT)
        m = _nth_move(ctx, st, d, c, prev, i)
        if m < 0:
            # all moves tried here: go back up, undoing the move that led here
            depth -= 1
            if depth >= 0:
                c = _back_up(ctx, state, st, np.uint64(depth), c)
                prev = _prev_at(ctx, st, depth, last)
                # the stop word (puzzlelib.core.limits), looked at when going back up once
                # STOP_MASK + 1 more nodes have been expanded: a test here costs less than on
                # the way down, where the budget's test vanishes when there is none
                # (benchmarks/RESULTS.md, "What the limits cost the depth-first loop")
                if expanded >= look:
                    if stop_reason() != RUNNING:  # stopped from outside: as a budget spent
                        _unwind(ctx, state, st, depth, c)
                        return Pass(solutions, -max(nodes, 1), over, first_len, expanded)
                    look = expanded + STOP_MASK + 1
            continue
        _put(ctx, st, d, NEXT, i + 1)
        q = _follows(ctx, prev, m)
        if q < 0:
            continue  # the last move's inverse, or a string of moves a smaller one replaces
        dh, c2 = _look(ctx, state, st, d, c, m)
        if _may_be_illegal(ctx) and dh == ILLEGAL:
            continue
        nodes += 1
        g = depth + 1
        h = _get(ctx, st, d, H) + dh
        f = g + h
        if f > bound:
            if f + g0 < over:
                over = f + g0
            _take_back(ctx, state, c, m, c2)
            continue
        if g == bound:
            if _at_goal(ctx, state, st, d, c, m, c2, h):
                solutions += 1
                if first_len < 0:
                    first_len = g
                    _put(ctx, st, d, MOVE, m)
                    for j in range(g):
                        path[j] = _get(ctx, st, j, MOVE)
                if not ctx.count_all:
                    _unwind(ctx, state, st, depth, c)
                    return Pass(solutions, nodes, over, first_len, expanded)
            elif bound + 1 + g0 < over:
                over = bound + 1 + g0  # children would have g > bound
            continue
        if budget > 0 and nodes >= budget:
            _take_back(ctx, state, c, m, c2)
            _unwind(ctx, state, st, depth, c)
            return Pass(solutions, -nodes, over, first_len, expanded)
        if _seen(ctx, state, st, d, g + g0):
            _take_back(ctx, state, c, m, c2)
            continue  # entered before in this pass, no deeper: nothing new below it
        _put(ctx, st, d, MOVE, m)
        c = _descend(ctx, state, st, d, c, m, c2)
        depth += 1
        expanded += 1
        _enter(ctx, st, np.uint64(depth), h, q)
        prev = q
    return Pass(solutions, nodes, over, first_len, expanded)


# --- The steps in which the kinds of depth-first loop differ ----------------------------------
#
# Each is written once per kind (or option) and chosen by numba from the type of the
# DepthFirst record when it compiles the kernel: no flag is tested per node. None allocates, so
# they are compiled without reference counting (every call would otherwise count every array
# of the record in and out).

def _given(ctx, field):
    """Whether the :class:`DepthFirst` type ``ctx`` has ``field`` (not ``None``)."""
    return not isinstance(ctx.types[ctx.fields.index(field)], types.NoneType)


def _kind(ctx):
    if _given(ctx, "cfns"):
        return "cursor"
    return "candidates" if _given(ctx, "ffns") else "plain"


def _per_kind(plain, candidates, cursor):
    """A function of a :class:`DepthFirst` record (its first argument) that numba compiles as
    ``plain``, ``candidates`` or ``cursor``, by the kind of loop the record asks for."""
    def step(*args):
        raise NotImplementedError("only called from compiled code")

    impls = {"plain": plain, "candidates": candidates, "cursor": cursor}
    overload(step, jit_options={"_nrt": False}, strict=False)(
        lambda ctx, *args: impls[_kind(ctx)])
    return step


def _nothing(*args):
    pass


def _same_cursor(ctx, state, st, d, c, *args):
    return c


def _nth_move_plain(ctx, st, d, c, prev, i):
    if i == ctx.p.n_moves:
        return -1
    return _ordered(ctx.order, i)


def _nth_move_candidates(ctx, st, d, c, prev, i):
    return -1 if i == st.n_cand[d] else st.cand[d, i]


def _nth_move_cursor(ctx, st, d, c, prev, i):
    # with an automaton every legal move is listed (prev -1): the automaton refuses some
    return ctx.cfns.next_move(c, _prev_unless_skip(ctx.skip, prev), i, ctx.p)


#: The move tried ``i``-th (``-1`` after the last), given the cursor ``c`` and the last move.
_nth_move = _per_kind(_nth_move_plain, _nth_move_candidates, _nth_move_cursor)


def _ordered(order, i):
    """``order[i]``, or ``i`` without an order."""


@overload(_ordered, jit_options={"_nrt": False})
def _ordered_impl(order, i):
    if isinstance(order, types.NoneType):
        return lambda order, i: i
    return lambda order, i: order[i]


def _prev_unless_skip(skip, prev):
    """``prev``, or -1 with an automaton."""


@overload(_prev_unless_skip, jit_options={"_nrt": False})
def _prev_unless_skip_impl(skip, prev):
    if isinstance(skip, types.NoneType):
        return lambda skip, prev: prev
    return lambda skip, prev: -1


def _back_up_plain(ctx, state, st, d, c):
    ctx.fns.step(state, ctx.fns.inverse(_get(ctx, st, d, MOVE), ctx.p), ctx.p)
    return c


def _back_up_cursor(ctx, state, st, d, c):
    pc = _get(ctx, st, d, CURSOR)
    ctx.cfns.undo(state, pc, _get(ctx, st, d, MOVE), c, ctx.p)
    return pc


#: Undo the move made at depth ``d`` (the state is its child); returns the cursor at ``d``.
_back_up = _per_kind(_back_up_plain, _same_cursor, _back_up_cursor)


def _look_plain(ctx, state, st, d, c, m):
    return ctx.fns.step(state, m, ctx.p), c


def _look_candidates(ctx, state, st, d, c, m):
    child = st.rows[d + np.uint64(1)]  # (depth < bound: a state at the bound is never entered)
    for j in range(child.shape[0]):
        child[j] = st.rows[d, j]
    return play(ctx.fns, ctx.ffns, child, m, ctx.p), c


def _look_cursor(ctx, state, st, d, c, m):
    return ctx.cfns.peek(state, c, m, ctx.p)


#: The change of ``h`` that move ``m`` makes (or ILLEGAL) and the cursor after it. The plain
#: loop makes the child in ``state``, the candidates loop in the next row; the cursor loop
#: makes nothing.
_look = _per_kind(_look_plain, _look_candidates, _look_cursor)


def _take_back_plain(ctx, state, c, m, c2):
    ctx.fns.step(state, ctx.fns.inverse(m, ctx.p), ctx.p)


#: Whether :func:`_look` may answer ILLEGAL: not in the cursor loop, whose ``next_move`` lists
#: legal moves only (a constant, so the test is compiled away there).
_may_be_illegal = _per_kind(lambda ctx: True, lambda ctx: True, lambda ctx: False)


#: Leave the child that :func:`_look` made: the plain loop undoes its move.
_take_back = _per_kind(_take_back_plain, _nothing, _nothing)


def _at_goal_plain(ctx, state, st, d, c, m, c2, h):
    goal = h == 0 and ctx.fns.is_goal(state, ctx.p)
    ctx.fns.step(state, ctx.fns.inverse(m, ctx.p), ctx.p)
    return goal


def _at_goal_candidates(ctx, state, st, d, c, m, c2, h):
    return h == 0 and ctx.fns.is_goal(st.rows[d + np.uint64(1)], ctx.p)


def _at_goal_cursor(ctx, state, st, d, c, m, c2, h):
    if h != 0:
        return False  # the child is made only when it may be the goal
    ctx.cfns.apply(state, c, m, c2, ctx.p)
    goal = ctx.fns.is_goal(state, ctx.p)
    ctx.cfns.undo(state, c, m, c2, ctx.p)
    return goal


#: Whether the child :func:`_look` found (``h`` from the goal) is a goal; ``state`` is left at
#: its parent.
_at_goal = _per_kind(_at_goal_plain, _at_goal_candidates, _at_goal_cursor)


def _unwind_plain(ctx, state, st, depth, c):
    for k in range(depth - 1, -1, -1):
        ctx.fns.step(state, ctx.fns.inverse(_get(ctx, st, k, MOVE), ctx.p), ctx.p)


def _unwind_cursor(ctx, state, st, depth, c):
    for k in range(depth - 1, -1, -1):
        pc = _get(ctx, st, k, CURSOR)
        ctx.cfns.undo(state, pc, _get(ctx, st, k, MOVE), c, ctx.p)
        c = pc


#: Take back the moves that led ``depth`` deep (the cursor now at ``c``), before returning.
_unwind = _per_kind(_unwind_plain, _nothing, _unwind_cursor)


def _descend_cursor(ctx, state, st, d, c, m, c2):
    ctx.cfns.apply(state, c, m, c2, ctx.p)
    _put(ctx, st, d + np.uint64(1), CURSOR, c2)
    return c2


#: Make the child :func:`_look` found the current state (the cursor loop makes its move);
#: returns its cursor.
_descend = _per_kind(_same_cursor, _same_cursor, _descend_cursor)


def _root_cursor_cursor(ctx, state):
    return np.int64(ctx.cfns.cursor(state, ctx.p))


_root_cursor = _per_kind(lambda ctx, state: 0, lambda ctx, state: 0, _root_cursor_cursor)


def _list_candidates(ctx, st, d):
    st.n_cand[d] = ctx.ffns.candidates(st.rows[d], ctx.p, st.cand[d])


#: What a level needs when it is entered: the candidates loop lists its candidate moves.
_list_moves = _per_kind(_nothing, _list_candidates, _nothing)


def _follows(ctx, prev, m):
    """Whether move ``m`` may follow ``prev`` (see :func:`_prev_at`): -1 if not, else what
    ``prev`` is after it (``m``, or the automaton's state). Never the last move's inverse (the
    cursor loop's ``next_move`` lists none)."""


@overload(_follows, jit_options={"_nrt": False})
def _follows_impl(ctx, prev, m):
    if _given(ctx, "skip"):
        return lambda ctx, prev, m: ctx.skip[np.uint64(prev), np.uint64(m)]
    if _kind(ctx) == "cursor":
        return lambda ctx, prev, m: m

    def not_undoing(ctx, prev, m):
        return -1 if prev >= 0 and m == ctx.fns.inverse(prev, ctx.p) else m
    return not_undoing


def _prev_at(ctx, st, depth, last):
    """What the search keeps of the path to ``depth`` (reached by move ``last`` from the
    start): the last move (-1: none), or with ``skip`` the automaton's state."""


@overload(_prev_at, jit_options={"_nrt": False})
def _prev_at_impl(ctx, st, depth, last):
    if _given(ctx, "skip"):
        return lambda ctx, st, depth, last: _get(ctx, st, depth, Q)
    return lambda ctx, st, depth, last: _get(ctx, st, depth - 1, MOVE) if depth > 0 else last


def _root_last(ctx):
    """``last`` at the start of a search: -1 (no move), or the automaton's first state."""


@overload(_root_last, jit_options={"_nrt": False})
def _root_last_impl(ctx):
    if _given(ctx, "skip"):
        return lambda ctx: 0
    return lambda ctx: -1


def _enter(ctx, st, d, h, q):
    """Level ``d`` entered with ``h`` and the automaton's state ``q``."""


@overload(_enter, jit_options={"_nrt": False})
def _enter_impl(ctx, st, d, h, q):
    if _given(ctx, "skip"):
        def enter(ctx, st, d, h, q):
            _put(ctx, st, d, NEXT, 0)
            _put(ctx, st, d, H, h)
            _put(ctx, st, d, Q, q)
            _list_moves(ctx, st, d)
        return enter

    def enter_plain(ctx, st, d, h, q):
        _put(ctx, st, d, NEXT, 0)
        _put(ctx, st, d, H, h)
        _list_moves(ctx, st, d)
    return enter_plain


def _enter_pass(ctx, state, g0):
    """A new pass from ``state``, ``g0`` moves deep: with a transposition table, what earlier
    passes recorded no longer prunes, and ``state`` is recorded."""


@overload(_enter_pass, jit_options={"_nrt": False})
def _enter_pass_impl(ctx, state, g0):
    if not _given(ctx, "tt"):
        return lambda ctx, state, g0: None

    def enter_pass(ctx, state, g0):
        ctx.tt.current[0] += 1
        _seen_before(ctx.tt, state, g0)
    return enter_pass


def _seen(ctx, state, st, d, g):
    """Whether the child just looked at, ``g`` moves deep, was entered before in this pass at
    no greater depth (with a transposition table and one solution; else False)."""


@overload(_seen, jit_options={"_nrt": False})
def _seen_impl(ctx, state, st, d, g):
    if not _given(ctx, "tt"):
        return lambda ctx, state, st, d, g: False
    if _kind(ctx) != "candidates":
        raise TypingError("a transposition table needs candidate moves (ffns)")
    return lambda ctx, state, st, d, g: (not ctx.count_all and _seen_before(
        ctx.tt, st.rows[d + np.uint64(1)], g))


@kernel
def _new_stack(ctx, state, h0, last, bound):
    """The :class:`Stack` of a pass below ``bound``, its root (``state``) entered."""
    levels = bound + 1
    rows, cand, n_cand = _candidate_arrays(ctx.ffns, levels, ctx.p)
    st = Stack(np.empty(_width(ctx) * levels, dtype=np.int64), rows, cand, n_cand)
    _keep_root(ctx, st, state)
    _enter(ctx, st, np.uint64(0), h0, last)
    return st


def _width(ctx):
    """The slots of a :class:`Stack`'s level: :data:`Q` too with ``skip``."""


@overload(_width, jit_options={"_nrt": False})
def _width_impl(ctx):
    w = Q + 1 if _given(ctx, "skip") else Q
    return lambda ctx: w


@jit(_nrt=False)
def _get(ctx, st, d, k):
    """Slot ``k`` of level ``d`` of the :class:`Stack` ``st``."""
    return st.frame[np.uint64(_width(ctx)) * np.uint64(d) + np.uint64(k)]


@jit(_nrt=False)
def _put(ctx, st, d, k, value):
    """Set slot ``k`` of level ``d`` of the :class:`Stack` ``st``."""
    st.frame[np.uint64(_width(ctx)) * np.uint64(d) + np.uint64(k)] = value


def _candidate_arrays(ffns, levels, p):
    """The candidates loop's arrays (each level's state, candidate moves and their number), or
    three Nones without ``ffns``."""


@overload(_candidate_arrays)
def _candidate_arrays_impl(ffns, levels, p):
    if isinstance(ffns, types.NoneType):
        return lambda ffns, levels, p: (None, None, None)
    return lambda ffns, levels, p: (np.empty((levels, p.state_len), dtype=np.uint8),
                                    np.empty((levels, p.n_moves), dtype=np.int64),
                                    np.zeros(levels, dtype=np.int64))


def _keep_root_row(ctx, st, state):
    for j in range(state.shape[0]):
        st.rows[0, j] = state[j]


def _keep_root_cursor(ctx, st, state):
    _put(ctx, st, 0, CURSOR, _root_cursor(ctx, state))


#: What a pass keeps of its root: the candidates loop its state, the cursor loop its cursor.
_keep_root = _per_kind(_nothing, _keep_root_row, _keep_root_cursor)


#: Rows a transposition table starts with; :func:`iterative_deepening` gives the next pass one
#: four times bigger whenever a pass fills it, up to the number of positions asked for.
FIRST_TRANSPOSITIONS = 1 << 16


@jit
def new_transpositions(state_len, rows):
    """An empty :class:`Transpositions` table with room for ``rows`` positions (it never grows
    during a pass: once full, new positions are searched without being recorded)."""
    slots, pool = new_table(state_len, rows)
    return Transpositions(slots, pool, np.empty(rows, dtype=np.int32),
                          np.empty(rows, dtype=np.int32), np.zeros(1, dtype=np.int64),
                          np.zeros(1, dtype=np.int64))


@jit
def _seen_before(tt, state, g):
    """Whether the current pass has entered ``state`` before at depth ``g`` or less. If not,
    it is recorded at ``g`` (when the table has room). A position entered again no less deep
    needs no second search: the first one had at least as much room under the bound, and a
    pass stops at its first solution, so that search found none."""
    h = hash_state(state)
    idx = find_hashed(tt.slots, tt.pool, state, h)
    if idx >= 0:
        if tt.passes[idx] == tt.current[0] and tt.depths[idx] <= g:
            return True
        tt.passes[idx] = tt.current[0]
        tt.depths[idx] = g
        return False
    n = tt.stored[0]
    if n < tt.pool.shape[0]:
        put(tt.slots, tt.pool, n, state, h)
        tt.depths[n] = g
        tt.passes[n] = tt.current[0]
        tt.stored[0] = n + 1
    return False


@kernel
def _root_frontier(ctx, start, h0, bound, want, record):
    """Expand from ``start`` breadth-first (the plain loop's steps of ``ctx``), with the
    depth-first pass's pruning and node count, until there are ``want`` subtree roots or one
    more level would reach ``bound``. Roots stay in the order the depth-first pass would visit
    them.

    Returns (states, h, last moves, move prefixes, depth, nodes generated, smallest f over,
    nodes expanded, and those nodes: their move prefixes (row ``t``'s first ``lens[t]``
    entries), and which moves each one's children were generated by). ``record=False``: the
    expanded nodes are counted, not recorded (a pass counting every solution needs no more).
    With ``skip`` (see :class:`DepthFirst`) the "last moves" are the automaton's states."""
    fns, p = ctx.fns, ctx.p
    plain = depth_first(fns, p, ctx.count_all, None, None, None, ctx.skip, None)
    L = p.state_len
    cur_s = np.empty((1, L), dtype=np.uint8)
    cur_s[0] = start
    cur_h = np.full(1, h0, dtype=np.int64)
    cur_last = np.full(1, _root_last(ctx), dtype=np.int64)
    cur_pre = np.empty((1, 0), dtype=np.int64)
    k = 0
    nodes = 0
    over = NOTHING_OVER
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
                q = _follows(plain, cur_last[i], m)
                if q < 0:
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
            return np.int64(made.sum()) if pre[x] < target[x] else -1
    return np.int64(made[: target[n] + 1].sum())


@kernel
def _split_pass(ctx, start, h0, bound, path, want):
    """The depth-first pass of ``ctx`` (no ``ffns``, ``tt`` nor ``order``) below ``bound``, its
    subtrees (about ``want`` of them: see :func:`split_subtrees`) shared among threads
    (:func:`_subtrees`). Returns a :class:`Pass`.

    Same results as :func:`_dfs_bounded` from the start, node counts included, whatever the
    threads: the first solution is the one in the earliest subtree, which is the one the serial
    pass finds first, and then the nodes counted are those the serial pass generates before it
    (the subtrees before that one, that one up to its solution, and the nodes of the shared
    top levels that come before it in depth-first order); work the threads did past it is not
    counted."""
    count_all = ctx.count_all
    roots, hs, lasts, prefixes, k, nodes0, over0, n_exp, exp_pre, exp_len, exp_gen = (
        _root_frontier(ctx, start, h0, bound, want, not count_all))
    sols, nodes, overs, lens, expanded, paths = _subtrees(
        ctx.fns, ctx.p, count_all, ctx.cfns, ctx.skip, roots, hs, lasts, k, bound)
    n = roots.shape[0]
    over = over0
    for i in range(n):
        over = min(over, overs[i])
    length = -1
    for i in range(n):
        if sols[i] > 0:
            path[:k] = prefixes[i, :k]
            path[k:k + lens[i]] = paths[i, :lens[i]]
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
    return Pass(n_sols, generated, over, length, n_expanded)


@kernel(parallel=True)
def _subtrees(fns, p, count_all, cfns, skip, roots, hs, lasts, k, bound):
    """The passes below ``bound`` from the subtree roots of :func:`_split_pass` (``k`` moves
    deep, each with its ``h`` and last move), shared among threads (``prange``). Returns each
    one's solutions, nodes, smallest ``f`` over, first solution's length, nodes expanded, and
    its first solution's moves (a row of ``paths``)."""
    n = roots.shape[0]
    sols = filled(n, 0)
    nodes = filled(n, 0)
    expanded = filled(n, 0)
    overs = filled(n, NOTHING_OVER)
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
            if i >= n or stop_reason() != RUNNING:
                break
            if not count_all and found_at[0] < i:
                continue
            st = roots[i].copy()
            sols[i], nodes[i], overs[i], lens[i], expanded[i] = _dfs_bounded(
                _threaded(fns, p, count_all, cfns, skip), st, hs[i], k, lasts[i], bound,
                paths[i], 0)
            if sols[i] > 0 and i < found_at[0]:
                found_at[0] = i
    return sols, nodes, overs, lens, expanded, paths


@kernel
def _threaded(fns, p, count_all, cfns, skip):
    """The :class:`DepthFirst` record (no ``ffns``, ``tt`` nor ``order``) inside a parallel
    loop: numba's parallel loops take no record of functions and arrays (nor one taken apart
    in the same kernel), so the parallel kernels take its fields and make it again in it."""
    return depth_first(fns, p, count_all, None, cfns, None, skip, None)


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


#: When :func:`_deepen_passes` stops: past ``max_bound``, after ``node_limit`` nodes (0: never),
#: after ``max_passes`` passes, or after a pass of at least ``split_after`` nodes (< 0: never)
#: when the next bound is ``split_min_bound`` or more.
Limits = namedtuple("Limits", ["max_bound", "node_limit", "split_after", "split_min_bound",
                               "max_passes"])

#: What :func:`_deepen_passes` found: its ``status``, the ``solutions``, every pass's ``nodes``
#: (those counted before included), the first solution's ``length``, the bound of the last pass
#: made (``done``), the next ``bound``, the nodes of the ``last`` pass, the ``passes`` made, the
#: nodes ``expanded`` and whether the space below the bound was ``exhausted``.
Deepened = namedtuple("Deepened", ["status", "solutions", "nodes", "length", "done", "bound",
                                   "last", "passes", "expanded", "exhausted"])


@kernel
def _deepen_passes(ctx, state, h0, bound, path, limits, nodes, expanded):
    """Depth-first passes of ``ctx`` from ``bound`` on, all in one call, until a solution, the
    space exhausted, or a limit of ``limits`` (a :class:`Limits`; ``nodes`` and ``expanded``
    were counted before). Stops with status :data:`MORE` after ``max_passes`` passes, or after
    a pass of at least ``split_after`` nodes when the next bound is ``split_min_bound`` or
    more: the caller then shares the next pass among threads, or reports progress. Returns a
    :class:`Deepened`."""
    step = ctx.p.bound_step
    last = _root_last(ctx)
    passes = 0
    done = bound
    n = np.int64(0)
    while bound <= limits.max_bound:
        budget = limits.node_limit - nodes if limits.node_limit > 0 else 0
        r = _dfs_bounded(ctx, state, h0, 0, last, bound, path, budget)
        n = r.nodes
        passes += 1
        done = bound
        expanded += r.expanded
        if n < 0:
            return Deepened(NODE_LIMIT, 0, nodes - n, -1, done, bound, -n, passes, expanded,
                            False)
        nodes += n
        report(bound, nodes)
        if r.solutions > 0:
            return Deepened(FOUND, r.solutions, nodes, r.length, done, bound, n, passes,
                            expanded, False)
        if r.over >= NOTHING_OVER:
            # nothing over the bound: the space below it is exhausted
            return Deepened(EXHAUSTED, 0, nodes, -1, done, bound, n, passes, expanded, True)
        bound = next_bound(bound, r.over, step)
        if bound <= limits.max_bound and (passes >= limits.max_passes or (
                0 <= limits.split_after <= n and bound >= limits.split_min_bound)):
            return Deepened(MORE, 0, nodes, -1, done, bound, n, passes, expanded, False)
    return Deepened(EXHAUSTED, 0, nodes, -1, done, bound, n, passes, expanded, False)


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
                 last, exhausted, *, stored, memory_bytes):
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
    return int(tt.stored[0]), sum(int(a.nbytes) for a in tt)


def _depth_first(fns, p, count_all, ffns, cfns, skip, order, parallel, transpositions,
                 first_transpositions):
    """The :class:`DepthFirst` record of :func:`iterative_deepening`'s search, its arguments
    checked (a transposition table of ``first_transpositions`` rows at most)."""
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
    tt = None
    if transpositions:
        if ffns is None or count_all:
            raise ValueError("a transposition table needs candidate moves (ffns) and one "
                             "solution (it would lose the count of all of them)")
        rows0 = FIRST_TRANSPOSITIONS if first_transpositions is None else first_transpositions
        tt = new_transpositions(p.state_len, min(int(rows0), int(transpositions)))
    return DepthFirst(fns, p, bool(count_all), ffns, cfns, tt, skip, order)


def iterative_deepening(start, fns, p, bound0, count_all, max_bound, node_limit=0, *,
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
    automaton of move strings not to play (:class:`DepthFirst`; not with ``count_all``, which
    needs every path, nor with ``ffns``). ``order``: the move numbers in the order each node tries
    them (an array; default by number), on one thread and without ``ffns`` (``cfns`` is then
    not used).

    The passes on one thread run in one call of :func:`_deepen_passes` when nobody watches
    (each call of a kernel costs the typing of its arguments, a large share of a small
    search's passes).

    Returns a :class:`DeepeningResult`."""
    ctx = _depth_first(fns, p, count_all, ffns, cfns, skip, order, parallel, transpositions,
                       first_transpositions)
    if parallel:
        start_threads()
    eager = split_after is not None  # (a caller that names it wants passes shared at once)
    split_after = SPLIT_MIN_NODES if split_after is None else int(split_after)
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
    one_pass = progress is not None or ctx.tt is not None

    def result(status, length, sols, exhausted):
        deepest = min(done, max_bound)
        return DeepeningResult(
            status, length, path[:max(length, 0)].copy(), sols, nodes, expanded, iterations,
            first, done, exhausted, stored=deepest + 1 + held,
            memory_bytes=path.nbytes + stack_bytes(p, deepest, ffns is not None) + tt_bytes)

    compiled = None  # whether the shared pass is ready for this search's types (asked once)
    coming = 0.0  # the next pass's seconds on one thread, guessed (see SPLIT_AFTER_SECONDS)
    while bound <= max_bound:
        share = can_split and bound >= SPLIT_MIN_BOUND and last >= split_after
        waiting = False
        if share and not (eager or _unshared[0] + coming >= SPLIT_AFTER_SECONDS
                          or _split_pass.overloads):
            # (once it is compiled for some search, a process shares every search's passes:
            # asking numba for the types costs a short search some percent)
            if compiled is None:
                compiled = ready(_split_pass, (ctx, state, h0, bound, path, split_subtrees(last)))
            waiting = not compiled
        if share and not waiting:
            iterations += 1
            r = _split_pass(ctx, state, h0, bound, path, split_subtrees(last))
            check()
            nodes += int(r.nodes)
            expanded += int(r.expanded)
            last = int(r.nodes)
            done = bound
            note(depth=bound, positions=nodes)  # (a stop's message: how far it got)
            if progress is not None:
                progress(bound, nodes)
            if r.solutions > 0:
                return result(FOUND, int(r.length), int(r.solutions), False)
            if r.over >= NOTHING_OVER:
                return result(EXHAUSTED, -1, 0, True)  # nothing over the bound
            bound = int(next_bound(bound, int(r.over), step))
            continue
        limits = Limits(max_bound, node_limit, split_after if can_split else -1,
                        SPLIT_MIN_BOUND, 1 if one_pass or waiting else max_bound + 1)
        t0 = time.perf_counter()
        r = _deepen_passes(ctx, state, h0, bound, path, limits, nodes, expanded)
        if waiting:
            took = time.perf_counter() - t0
            _unshared[0] += took
            coming = took * max(1.0, int(r.last) / max(last, 1))
        check()
        note(depth=int(r.done), positions=int(r.nodes))
        entries, nbytes = _tt_size(ctx.tt)
        held, tt_bytes = max(held, entries), max(tt_bytes, nbytes)
        tt = ctx.tt
        if tt is not None and tt.stored[0] == tt.pool.shape[0] < transpositions:
            rows = min(4 * tt.pool.shape[0], int(transpositions))  # the last pass filled it
            ctx = ctx._replace(tt=new_transpositions(p.state_len, rows))
        nodes, last, bound, expanded = int(r.nodes), int(r.last), int(r.bound), int(r.expanded)
        done = int(r.done)
        iterations += int(r.passes)
        if r.status == NODE_LIMIT:  # (a pass cut short is not reported)
            return result(NODE_LIMIT, -1, 0, False)
        if progress is not None:
            progress(done, nodes)
        if r.status == FOUND:
            return result(FOUND, int(r.length), int(r.solutions), False)
        if r.status == EXHAUSTED:
            return result(EXHAUSTED, -1, 0, bool(r.exhausted))
    return result(EXHAUSTED, -1, 0, False)


#: ``lengths`` entry of a start that :func:`_deepen_batch` handed over (see ``hand_over``).
HANDED_OVER = -2


#: The rows :func:`_deepen_batch` fills, one per start.
BatchRows = namedtuple("BatchRows", ["lengths", "nodes", "expanded", "paths", "bounds", "lasts"])


@kernel(parallel=True)
def _deepen_batch(fns, p, cfns, skip, starts, bound0s, max_bound, hand_over, out):
    """Iterative deepening (:class:`DepthFirst` of these fields, one solution; see
    :func:`_threaded`) on many starts at once, each
    thread taking the next start as it comes free: for many small searches (Korf's 100 with a
    pattern database: some thousands of nodes each), where sharing one search's subtrees would
    cost more in parallel regions than it saves. Each row of ``out`` (a :class:`BatchRows`):
    ``lengths``, ``nodes``, ``expanded`` and ``paths`` gets what :func:`iterative_deepening`
    would find for that start (first solution; -1 when none within ``max_bound``).

    ``hand_over > 0``: a search whose pass (without a solution) generated at least
    ``hand_over`` nodes stops there, with ``lengths`` :data:`HANDED_OVER`, its next bound in
    ``bounds``, its nodes so far in ``nodes`` and ``expanded`` and its last pass's in
    ``lasts``: the next pass is several times bigger, and one big search left to the end would
    keep one thread busy alone (:func:`deepen_many` finishes it with all threads on its
    subtrees)."""
    n = starts.shape[0]
    counter = new_counter()
    for _ in prange(workers(n)):  # each thread takes the next start when it comes free
        while True:
            i = take(counter)
            if i >= n or stop_reason() != RUNNING:
                break
            _deepen_one(_threaded(fns, p, False, cfns, skip), starts[i].copy(), bound0s[i],
                        max_bound, hand_over, out, i)


@kernel
def _deepen_one(ctx, state, bound0, max_bound, hand_over, out, i):
    """Start ``i`` of :func:`_deepen_batch`."""
    h0 = ctx.fns.heuristic(state, ctx.p)
    bound = first_bound(bound0, h0, ctx.p.bound_step)
    limits = Limits(max_bound, 0, hand_over if hand_over > 0 else -1, 0, max_bound + 1)
    r = _deepen_passes(ctx, state, h0, bound, out.paths[i], limits, 0, 0)
    out.lengths[i] = r.length if r.status == FOUND else (
        HANDED_OVER if r.status == MORE else -1)
    out.bounds[i] = r.bound
    out.lasts[i] = r.last
    out.nodes[i] = r.nodes
    out.expanded[i] = r.expanded


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
    out = BatchRows(np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64),
                    np.zeros(n, dtype=np.int64), np.zeros((n, max_bound + 1), dtype=np.int64),
                    np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
    lengths, nodes, expanded, paths, bounds, lasts = out
    if hand_over is None:
        hand_over = HAND_OVER_NODES
    saved = start_threads()
    numba.set_num_threads(threads)
    try:
        _deepen_batch(fns, p, cfns, skip, starts, np.asarray(bound0s, dtype=np.int64),
                      max_bound, hand_over if threads > 1 else 0, out)
        check()
        for i in np.flatnonzero(lengths == HANDED_OVER):
            res = iterative_deepening(
                starts[i], fns, p, int(bounds[i]), False, max_bound, parallel=True, cfns=cfns,
                resume=(nodes[i], lasts[i], expanded[i]), skip=skip,
                split_after=SPLIT_MIN_NODES,  # (a big search: its passes shared at once)
            )
            lengths[i] = res.length if res.status == FOUND else -1
            nodes[i] = res.generated
            expanded[i] = res.expanded
            paths[i, : len(res.path)] = res.path
    finally:
        numba.set_num_threads(saved)
    return BatchResult(lengths, nodes, expanded, paths)
