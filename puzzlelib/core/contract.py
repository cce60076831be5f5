"""The contract between puzzle domains and search algorithms.

A *domain* (sliding tiles, rotation puzzle, block puzzles...) owns how a position is encoded,
which moves exist and how positions are hashed. The search kernels in :mod:`puzzlelib.search`
are written once and only ever call the domain's jitted functions, bundled in a
:class:`DomainFns`, together with the domain's ``params`` (a namedtuple of numbers and arrays):

``step(state, m, params) -> int``
    Apply move ``m`` (``0 <= m < params.n_moves``) to ``state`` (a ``uint8`` array of length
    ``params.state_len``) in place and return the change of the heuristic, or :data:`ILLEGAL`
    (leaving ``state`` untouched) when the move cannot be made here.
``inverse(m, params) -> int``
    The move that undoes ``m``: ``step(state, inverse(m, params), params)`` restores the state.
    (It depends on the move alone, not on the state; ``params`` is there for domains whose move
    numbers hold board coordinates, such as block puzzles.)
``is_goal(state, params) -> bool``
    Whether ``state`` is a goal position.
``heuristic(state, params) -> int``
    An admissible lower bound on the moves left (0 for uninformed search).
``rank(state, params) -> int`` and ``unrank(r, params, state)``
    A minimal perfect hash of the reachable positions onto ``0..n_ranks-1`` and its inverse
    (only needed by the table-based searches; a domain with none passes :func:`no_rank`,
    :func:`no_unrank` and :func:`no_rank_after`).
``rank_after(state, m, r, params) -> int``
    The rank of ``state`` just reached by move ``m`` from the position of rank ``r``. Equal to
    ``rank(state, params)``; a domain that can do better from the parent's rank (sliding tiles:
    a horizontal move only shifts the rank by a constant) makes breadth-first search faster.
``rank_from(r, m, params) -> int`` (optional)
    The rank of the child that move ``m`` makes from the position of rank ``r``, worked out
    from the rank alone, or -1 where the domain needs the position for this move (or the move
    is not legal there). The scan of a whole distance table (:mod:`puzzlelib.search.layered`)
    then makes a position only for the moves that return -1; its bottom-up layers look at the
    other children first. Permutation puzzles ranked from their first cell answer from a table
    for moves that change only the first few cells.
``children(r, params, out, k, memo) -> int`` (optional)
    The ranks of every child of the position of rank ``r``, written to ``out[k:]`` (room for
    ``n_moves``); returns the new count. ``memo`` is a few ``int64`` words (-1 at first) the
    domain may keep between calls on one thread (the scan calls it in increasing ``r``). The
    scan of a whole distance table then makes no position at all for its top-down layers: a
    domain that can find its moves and their ranks from the rank's digits (pattern databases
    of sliding tiles: the cells as bit masks) spares the search its ``n_moves`` calls of
    ``step``.

Every ``params`` namedtuple starts with three fields the kernels read:
``state_len`` (bytes per state), ``n_moves`` and ``bound_step`` (2 when every cycle of moves has
even length, as on sliding-tile boards, so iterative deepening can step its bound by 2; else 1).

A new puzzle therefore needs these few functions and no new search code.

Optionally a domain offers more to the frontier search (:mod:`puzzlelib.search.frontier`),
which stores whole states in hash sets, bundled in a :class:`FrontierFns` (its ``frontier``):

``pack(state, params, key)`` and ``unpack(key, params, state)``
    A compact *key*: ``pack`` writes ``params.key_len`` bytes that differ for different
    positions, ``unpack`` gives the whole state back (heuristic byte included). Block puzzles
    store a 6x7 position in 7 bytes instead of 43.
``candidates(state, params, out) -> int``
    Writes to ``out`` (room for ``n_moves``) the move numbers worth trying from ``state``, a
    superset of the legal ones, and returns how many. Block puzzles list the moves of the pieces
    next to an empty cell, a few dozen of several hundred move numbers.
``play(state, m, params) -> int`` (optional)
    ``step`` for a move that ``candidates`` listed, when ``candidates`` lists exactly the legal
    moves: it may skip the tests of legality (block puzzles: the path a piece takes, which the
    candidates' flood fill has found already). Without it the searches call ``step``.

Without them (:data:`PLAIN_FRONTIER`) a state is its own key and every move number is tried.

A domain whose moves all act around one *cursor* (the blank of a sliding-tile board: a move
swaps it with a neighbour, and which moves exist depends on the cursor alone) can also offer
depth-first search (:mod:`puzzlelib.search.idastar`) a tighter loop, bundled in a
:class:`CursorFns`; the search then keeps the cursor in a register, tries only legal moves and
looks at a child before making it, so a child pruned by its bound is never made nor undone
(the bundle is its ``depth_first.cursor``):

``cursor(state, params) -> int``
    The state's cursor (sliding tiles: the blank's cell).
``next_move(c, prev, i, params) -> int``
    The ``i``-th legal move at cursor ``c`` other than the inverse of ``prev`` (the move that
    led here, -1 at the root), or -1 after the last one.
``peek(state, c, m, params) -> (dh, c2)``
    The change of the heuristic that move ``m`` (a legal one: never :data:`ILLEGAL`) would
    make, and the cursor after it, leaving ``state`` untouched.
``apply(state, c, m, c2, params)`` and ``undo(state, c, m, c2, params)``
    Make move ``m`` (from cursor ``c`` to ``c2``), and take it back.

The other searches ignore it.

Depth-first search steps with a domain's :class:`DepthFirstFns`, its ``depth_first``: the
``fns`` it steps with (a ``step`` whose undo is cheap, which may differ from the ``fns`` of the
other searches: sliding tiles under pattern databases keep the lookups' state in the position)
and the domain's ``CursorFns``, if any. It runs one kernel
(:class:`puzzlelib.search.idastar.DepthFirst` holds its context), whose loop is compiled for
what it is given: the cursor where there is one, else the ``FrontierFns``' candidate moves,
else ``step`` and ``inverse`` alone.

A domain whose positions fit in 64 bits can also offer *keys*, bundled in a :class:`KeyFns`
(its ``keys``): bidirectional search (:mod:`puzzlelib.search.bidirectional`) then keeps each
side's positions as keys in a hash set and makes a child's key straight from its parent's, with
no state array and no rank; where the bundle also has ``rank_after``, layered BFS
(:mod:`puzzlelib.search.layered`) keeps its layer lists as keys too:

``key(state, params) -> int``
    A 64-bit integer that differs for different positions, never -1.
``key_step(k, m, params) -> int``
    The key of the position that move ``m`` makes from the position of key ``k``, or -1 when
    the move cannot be made there.
``unkey(k, params, state)``
    Writes the position of key ``k`` to ``state`` (the inverse of ``key``).
``rank_after(k, m, r, params) -> int`` (optional)
    The domain's ``rank`` of the position of key ``k``, made by move ``m`` from a position of
    rank ``r`` (as ``rank_after`` of :class:`DomainFns`, from a key), equal to the domain's
    ``fns.rank``. Without it layered BFS keeps states in its lists.

Positions that fit one 64-bit integer may also be searched as *words*, a :class:`WordFns` (the
domain's ``words``, with the params its ``word_params()`` gives): breadth-first search over
sorted arrays of words (:mod:`puzzlelib.search.wordbfs`), which block puzzles use.

In all, a domain offers these bundles, each read by the searches named:

=================  ========================  ====================================================
attribute          bundle                    read by
=================  ========================  ====================================================
``fns``            :class:`DomainFns`        every search
``depth_first``    :class:`DepthFirstFns`    IDDFS and IDA* (default: ``fns``, no cursor)
``frontier``       :class:`FrontierFns`      frontier BFS, A*, greedy, the sorted frontier, and
                                             depth-first search's candidate loop
``keys``           :class:`KeyFns`           bidirectional search; layered BFS's lists when the
                                             bundle has ``rank_after``
``words``          :class:`WordFns`          breadth-first search over words
=================  ========================  ====================================================

Each but ``fns`` may be None (``depth_first`` aside, which defaults as shown).

Compilation: numba specialises each kernel for the functions it is given. Domain functions
(:func:`domain_fn`) and kernels (:func:`puzzlelib.core.jit.kernel`) are both cached on disk,
so only the first process after a change of the package's source compiles them; a kernel given
functions from outside the package (a new domain of your own) is compiled once per process
instead. The API times compilation (or loading from the cache) apart, as ``compile_seconds``.
"""

from collections import namedtuple

from numba import types
from numba.extending import overload, typeof_impl

from .jit import domain_fn

#: Returned by ``step`` for a move that cannot be made from the current state.
ILLEGAL = -(1 << 40)

#: Distance-table entry for a position not reached yet (so depths go up to 254).
UNSEEN = 255

#: What every domain gives every search: ``step``, ``inverse``, ``is_goal``, ``heuristic``,
#: ``rank``, ``unrank``, ``rank_after``, and optionally ``rank_from`` and ``children`` (see
#: above).
DomainFns = namedtuple(
    "DomainFns",
    ["step", "inverse", "is_goal", "heuristic", "rank", "unrank", "rank_after", "rank_from",
     "children"],
    defaults=[None, None],
)


@domain_fn
def no_rank(state, params):
    """For domains with no perfect hash (they are searched on whole states)."""
    raise ValueError("this puzzle has no rank function: search it with whole states")


@domain_fn
def no_unrank(r, params, state):
    raise ValueError("this puzzle has no rank function: search it with whole states")


@domain_fn
def no_rank_after(state, m, r, params):
    raise ValueError("this puzzle has no rank function: search it with whole states")


#: What a domain may add for the frontier search: ``pack``, ``unpack``, ``candidates``, and
#: optionally ``play`` (see above).
FrontierFns = namedtuple("FrontierFns", ["pack", "unpack", "candidates", "play"],
                         defaults=[None])


def play(fns, ffns, state, m, params):
    """Make move ``m``, one that ``ffns.candidates`` listed: ``ffns.play`` where the domain
    offers it, else ``fns.step`` (chosen when compiling). Returns what ``step`` would."""


@overload(play, jit_options={"_nrt": False})
def _choose_play(fns, ffns, state, m, params):
    if isinstance(ffns[3], types.NoneType):
        return lambda fns, ffns, state, m, params: fns.step(state, m, params)
    return lambda fns, ffns, state, m, params: ffns.play(state, m, params)


@domain_fn
def copy_pack(state, params, key):
    """A state is its own key."""
    for i in range(state.shape[0]):
        key[i] = state[i]


@domain_fn
def copy_unpack(key, params, state):
    for i in range(state.shape[0]):
        state[i] = key[i]


@domain_fn
def all_moves(state, params, out):
    """Every move number is a candidate."""
    for m in range(params.n_moves):
        out[m] = m
    return params.n_moves


#: For domains with nothing more to offer the frontier search.
PLAIN_FRONTIER = FrontierFns(copy_pack, copy_unpack, all_moves)

#: Positions that fit one 64-bit integer (a *word*): ``word(state, params)`` gives it,
#: ``unword(word, params, state)`` writes the state back, ``children(word, params, out)`` writes
#: the words of every position one move away and returns how many, ``is_goal(word, params)``
#: (:mod:`puzzlelib.search.wordbfs`).
WordFns = namedtuple("WordFns", ["word", "unword", "children", "is_goal"])

#: What a domain whose moves act around one cursor may add for depth-first search:
#: ``cursor``, ``next_move``, ``peek``, ``apply`` and ``undo`` (see above).
CursorFns = namedtuple("CursorFns", ["cursor", "next_move", "peek", "apply", "undo"])

#: What depth-first search steps with: ``fns`` (a :class:`DomainFns`) and optionally
#: ``cursor`` (a :class:`CursorFns`; see above).
DepthFirstFns = namedtuple("DepthFirstFns", ["fns", "cursor"], defaults=[None])

#: What a domain whose positions fit 64 bits may add for bidirectional search: ``key``,
#: ``key_step``, ``unkey``, and optionally ``rank_after`` (see above).
KeyFns = namedtuple("KeyFns", ["key", "key_step", "unkey", "rank_after"], defaults=[None])


# Typing a bundle of jitted functions costs numba a tenth of a millisecond or so on every call
# of a kernel that takes one (each function's type is built anew: the dispatcher's fast path
# only knows arrays and numbers), a fifth of the 8-puzzle's IDA* when it was called once per
# bound (benchmarks/RESULTS.md, "Constants"). The bundles are few and live as long as their modules, so each one's numba type
# is worked out once.
_BUNDLE_TYPES = {}


def _typeof_bundle(val, c):
    key = id(val)
    hit = _BUNDLE_TYPES.get(key)
    if hit is None or hit[0] is not val:
        hit = (val, typeof_impl.dispatch(tuple)(val, c))  # numba's own namedtuple typing
        if len(_BUNDLE_TYPES) < 4096:  # (the value is kept, so its id is never reused)
            _BUNDLE_TYPES[key] = hit
    return hit[1]


typeof_impl.register(DomainFns)(_typeof_bundle)
typeof_impl.register(FrontierFns)(_typeof_bundle)
typeof_impl.register(CursorFns)(_typeof_bundle)
typeof_impl.register(KeyFns)(_typeof_bundle)
