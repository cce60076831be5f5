"""The one entry for every puzzle: :func:`solve`, :func:`layers` and :func:`solve_many`.

Each takes a puzzle object (:class:`~puzzlelib.SlidingPuzzle`,
:class:`~puzzlelib.RotationPuzzle`, :class:`~puzzlelib.BlockPuzzle`, or any subclass of
:class:`~puzzlelib.domains.base.Puzzle`) and a start, checks everything before any kernel runs
(a :class:`~puzzlelib.PuzzleError` naming the problem), runs the search written once in
:mod:`puzzlelib.search`, and returns a :class:`~puzzlelib.Result` whose
:class:`~puzzlelib.Stats` mean the same for every method and puzzle.

**Threads.** ``threads=None`` (the default everywhere) uses all of numba's threads, which is
every core unless ``NUMBA_NUM_THREADS`` says otherwise; ``threads=1`` runs on one. Lengths,
solutions, counts, moves and node counts are the same whatever the number (a search that stops
at its first solution counts the nodes the one-thread search generates before it). On a
machine whose cores are busy with other work, each region shared among threads waits for all
of them: ``threads=1`` is then quicker for small searches.

**Timing.** ``stats.seconds`` is the search alone; ``stats.compile_seconds`` is what the call
spent compiling kernels or loading them from numba's cache (0 once they are loaded in this
process); the time to load or build pattern databases is ``extra["pdb_seconds"]``.

>>> from puzzlelib import SlidingPuzzle, solve, layers
>>> eight = SlidingPuzzle("3x3")
>>> sol = solve(eight, "8 6 7 2 5 4 3 0 1", method="idastar", all_solutions=True)
>>> sol.length, sol.solutions
(31, 40)
>>> lay = layers(eight, "1 2 3 4 5 6 7 8 0")
>>> lay.max_depth, lay.n_farthest
(31, 2)
"""

import time
from contextlib import contextmanager

import numba
import numpy as np

from . import pdb as _pdb
from .core import memory
from .core.errors import PuzzleError, SearchLimitError
from .core.progress import layer_bar, pass_bar
from .core.timing import timed
from .domains.base import METHODS, Puzzle
from .core.contract import UNSEEN
from .results import BEYOND_DEPTH, COMPLETE, NO_SOLUTION, SOLVED, Batch, Result, Stats
from .search import astar as _astar
from .search import bidirectional as _bidir
from .search import frontier as _frontier
from .search import wordbfs as _wordbfs
from .search import idastar as _ida
from .search import layered as _layered
from .search import gpu as _gpu
from .search import packed as _packed

#: Methods that can count every optimal solution (``all_solutions=True``).
COUNTING_METHODS = ("iddfs", "idastar")
#: How ``iddfs`` and ``idastar`` prune paths that repeat a position (``prune=``): ``"cycles"``
#: skips every string of moves that a smaller string replaces (the puzzle's
#: :meth:`~puzzlelib.domains.base.Puzzle.move_automaton`; sliding tiles: strings of up to 14
#: moves), ``"parent"`` only never undoes the last move (the classic search of the published
#: tables; a count there also depends on the order the moves are tried in, which decides how
#: much of the last pass comes before the first solution: ``order=``). Both find optimal solutions;
#: ``None`` is ``"cycles"`` where the puzzle has an automaton and one solution is sought, else
#: ``"parent"``.
PRUNING = ("cycles", "parent")
#: Methods guided by a heuristic.
INFORMED_METHODS = ("idastar", "astar", "greedy")
#: At most this many farthest positions are returned (their count is always exact).
FARTHEST_LIMIT = 1000
#: Bidirectional search over two distance tables (one byte a position per side) when the
#: puzzle's perfect hash has at most this many positions and both fit in memory; else over
#: hash sets of whole states, which hold only what the search stores.
BIDIR_TABLE_MAX_RANKS = 1 << 24
#: Tables of at least this many positions show a progress bar unless told otherwise.
PROGRESS_MIN_TABLE = 20_000_000
#: How :func:`layers` may keep its distance table.
TABLES = ("auto", "bytes", "packed")
#: Where the breadth-first searches of :func:`layers` and pattern-database builds run: this
#: machine's cores, or an NVIDIA GPU through numba-cuda (the ``cuda`` extra).
BACKENDS = ("cpu", "cuda")
#: Packed searches of at least this many positions save their state unless told otherwise.
CHECKPOINT_MIN_RANKS = 1 << 30


@contextmanager
def _on_threads(n):
    saved = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(saved)


# ---------------------------------------------------------------------------------------------
# arguments
# ---------------------------------------------------------------------------------------------


def _threads(threads, space):
    n = numba.get_num_threads() if threads is None else threads
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise PuzzleError(f"threads must be at least 1, not {threads}")
    n = min(int(n), numba.config.NUMBA_NUM_THREADS)
    return n if space.thread_safe else 1


_TYPED = set()


def _typed(space, timer):
    """Work out the numba types of what the kernels receive from ``space``, once per kind of
    arguments in a process, as compilation: the first time, numba takes milliseconds to type a
    new kind of ``params``, which would otherwise count as search."""
    key = (type(space.params), type(space)) + tuple(
        id(a) for a in space.kernel_arguments()[1:])
    if key not in _TYPED:
        with timer.compiling():
            for a in space.kernel_arguments():
                numba.typeof(a)
        _TYPED.add(key)


def _puzzle_and_start(puzzle, start, what="start"):
    """The puzzle and the start (the puzzle's own where it has one and none is given)."""
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"the first argument must be a puzzle (SlidingPuzzle, "
                          f"RotationPuzzle, BlockPuzzle...), not {type(puzzle).__name__}")
    if start is None:
        start = puzzle.default_start()
        if start is None:
            raise PuzzleError(f"give a {what}: the {puzzle.name} puzzle has none of its own")
    return puzzle, start


def _check_backend(backend):
    if backend not in BACKENDS:
        raise PuzzleError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    return backend


def _check_pdb_backend(backend, puzzle, method, heuristic, pdb):
    """``solve``'s backend builds pattern databases: refuse one with nothing to build."""
    if _check_backend(backend) == "cuda" and not (
            method in INFORMED_METHODS and (pdb is not None or _pdb.is_database(puzzle, heuristic))):
        raise PuzzleError(f"backend 'cuda' builds pattern databases and runs layers; method "
                          f"{method} without a pattern database runs on the CPU: drop backend")


def _check_limit(value, name, least=0):
    if value is None:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
        raise PuzzleError(f"{name} must be a whole number, at least {least}, not {value!r}")
    return int(value)


def _space_for(puzzle, method, heuristic, pdb, reflect, progress, cache, timer, backend="cpu"):
    """The puzzle with the heuristic ``method`` searches with, and what to report of it."""
    informed = method in INFORMED_METHODS
    if not informed:
        if heuristic not in (None, "none") or pdb is not None or reflect is not None:
            raise PuzzleError(f"method {method} uses no heuristic; heuristics apply to "
                              f"{', '.join(INFORMED_METHODS)}")
        # iterative deepening without one is IDDFS; breadth-first searches keep the puzzle's
        # own lower bound, which only lets bidirectional search skip lookups that cannot meet
        return puzzle.with_heuristic("none" if method == "iddfs" else puzzle.default_heuristic), {}
    if pdb is None and not _pdb.is_database(puzzle, heuristic):
        if reflect is not None:
            raise PuzzleError("reflect applies to pattern databases")
        name = puzzle.default_heuristic if heuristic is None else heuristic
        return puzzle.with_heuristic(name), {"heuristic": name}
    with timer.phase() as ph:
        space, info = _pdb.guide(puzzle, heuristic if pdb is None else pdb, reflect=reflect,
                                 progress=progress, cache=cache, backend=backend)
    info["pdb_seconds"] = ph.seconds
    return space, info


# ---------------------------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------------------------


def solve(puzzle, start=None, method=None, heuristic=None, *, pdb=None, reflect=None,
          all_solutions=False, threads=None, max_depth=None, max_states=None, node_limit=0,
          transpositions=None, progress=None, cache=True, backend="cpu", prune=None, order=None):
    """Solve ``start`` on ``puzzle`` (a shortest solution, except with ``greedy``).

    ``start``: a position as the puzzle reads it (a block puzzle may leave it out: its own
    board). ``method``: ``bfs``, ``bidir``, ``iddfs``, ``idastar``, ``astar`` or ``greedy``
    (default: the puzzle's own, :attr:`~puzzlelib.domains.base.Puzzle.default_method`).
    ``heuristic`` (``idastar``, ``astar``, ``greedy``): a name the puzzle knows, a pattern
    database's name, or ``pdb=`` a database given otherwise (sliding tiles: groups of tile
    labels; block puzzles: names); ``reflect`` (sliding tiles' databases) adds the lookup
    mirrored in the main diagonal. Databases come from the cache, or are built (``cache=False``
    neither reads nor writes it). ``all_solutions`` (``iddfs``, ``idastar``): count every
    optimal solution. ``prune`` (``iddfs``, ``idastar``): see :data:`PRUNING`. ``order``
    (sliding tiles' ``iddfs`` and ``idastar``, one thread): the order the blank's moves are tried
    in, such as ``"ulrd"`` (default ``"udlr"``); with ``prune="parent"`` and ``"ulrd"`` the
    node counts are those Korf's programs published (the start not counted).

    Limits: ``max_depth`` (moves; default the puzzle's own) caps the deepening searches'
    bound and both sides of bidirectional search together; ``max_states`` the states stored
    by ``bfs``, ``bidir``, ``astar`` and ``greedy``; ``node_limit`` (0: none) the nodes of the
    deepening searches; ``transpositions`` the positions IDA* records per pass (0: none).
    A search that finds no solution returns ``length`` -1 and says why in ``status``; one
    stopped by ``max_states`` or ``node_limit`` raises :class:`~puzzlelib.SearchLimitError`.

    ``threads``: see the module. ``progress``: ``True`` shows a bar, ``False`` none, a callable
    is called after each layer or pass; ``None`` shows bars for pattern-database builds and
    tables of :data:`PROGRESS_MIN_TABLE` positions or more. ``backend="cuda"`` builds
    sliding-tile pattern databases that are not cached yet on the GPU (the search itself runs
    on the CPU)."""
    puzzle, start = _puzzle_and_start(puzzle, start)
    method = puzzle.default_method if method is None else method
    if method not in METHODS:
        raise PuzzleError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if method not in puzzle.methods:
        raise PuzzleError(f"method {method} does not apply to the {puzzle.name} puzzle: use one "
                          f"of {', '.join(puzzle.methods)}")
    if all_solutions and method not in COUNTING_METHODS:
        raise PuzzleError(f"counting all optimal solutions needs method iddfs or idastar, "
                          f"not {method}")
    _check_pdb_backend(backend, puzzle, method, heuristic, pdb)
    max_states = _check_limit(max_states, "max_states", 1)
    max_depth = _check_limit(max_depth, "max_depth")
    node_limit = _check_limit(node_limit, "node_limit")
    transpositions = _check_limit(transpositions, "transpositions")
    n_threads = _threads(threads, puzzle)
    order_moves = None
    if order is not None:
        if method not in COUNTING_METHODS:
            raise PuzzleError(f"order applies to iddfs and idastar, not {method}")
        order_moves = puzzle.move_order(order)
        if threads is None:
            n_threads = 1
        elif n_threads > 1:
            raise PuzzleError("order needs one thread (threads=1): passes shared among threads "
                              "take the moves by number")
    state = puzzle.encode(start)  # the start is checked before any database is built
    skip, pruning = _skip_for(puzzle, method, prune, all_solutions, transpositions)
    with timed() as timer:
        space, extra = _space_for(puzzle, method, heuristic, pdb, reflect, progress, cache, timer,
                                  backend)
        _typed(space, timer)
        if space is not puzzle:  # a heuristic's space may hold more in its state
            state = space.encode(start)
        if method in INFORMED_METHODS:
            extra["initial_h"] = space.heuristic_value(state)
        if backend != "cpu":
            extra["backend"] = backend
        if pruning is not None:
            extra["prune"] = pruning
        if order is not None:
            extra["order"] = order
        if max_depth is None:
            max_depth = space.default_max_depth
        run = {"bfs": _solve_bfs, "bidir": _solve_bidir, "iddfs": _solve_deepening,
               "idastar": _solve_deepening, "astar": _solve_astar, "greedy": _solve_astar}[method]
        out = run(space, state, timer, method=method, all_solutions=all_solutions,
                  threads=n_threads, max_depth=max_depth, node_limit=node_limit,
                  max_states=space.default_max_states if max_states is None else max_states,
                  transpositions=transpositions, progress=progress, skip=skip,
                  order=order_moves)
        moves = space.moves_out(out.path) if out.path is not None else None
        status = out.status
    stats = Stats(out.generated, out.expanded, out.stored, out.memory_bytes, out.seconds,
                  timer.compile_seconds)
    extra.update(out.extra)
    return Result(
        puzzle=puzzle, method=method, start=space.decode(state), status=status, stats=stats,
        length=len(out.path) if out.path is not None else -1, moves=moves,
        threads=out.threads, counts=out.counts, solutions=out.solutions, extra=extra,
    )


def _skip_for(puzzle, method, prune, all_solutions=False, transpositions=None):
    """The move automaton a depth-first search skips strings with (or None), and the name of
    its pruning (None for methods that do not prune so); see :data:`PRUNING`."""
    if prune is not None and prune not in PRUNING:
        raise PuzzleError(f"unknown prune {prune!r}: use {' or '.join(PRUNING)}")
    if method not in COUNTING_METHODS:
        if prune is not None:
            raise PuzzleError(f"prune applies to iddfs and idastar, not {method}")
        return None, None
    if prune == "parent":
        return None, "parent"
    why = None
    if all_solutions:
        why = "counting all optimal solutions needs every path"
    elif puzzle.ffns is not None or transpositions:
        why = f"the {puzzle.name} puzzle's search lists candidate moves"
    if why is None:
        table = puzzle.move_automaton()
        if table is not None:
            return table, "cycles"
        why = f"the {puzzle.name} puzzle has no move automaton"
    if prune == "cycles":
        raise PuzzleError(f"prune cycles does not apply here: {why}; use prune parent")
    return None, "parent"


class _Out:
    """What one method's run found, before it becomes a :class:`Result`; ``seconds``: the
    search's own time (compilation apart)."""

    def __init__(self, status, path, generated, expanded, stored, memory_bytes, threads=1,
                 counts=None, solutions=None, extra=None, seconds=0.0):
        self.status, self.path, self.seconds = status, path, seconds
        self.generated, self.expanded = int(generated), int(expanded)
        self.stored, self.memory_bytes = int(stored), int(memory_bytes)
        self.threads, self.counts, self.solutions = threads, counts, solutions
        self.extra = extra or {}


def _needs_goal(space, method):
    goal = space.goal_state()
    if goal is None:
        raise PuzzleError(f"method {method} needs a single goal position, and the "
                          f"{space.name} puzzle has many: use bfs, iddfs, idastar or astar")
    return goal


def _table_size(space, what):
    """The distance table's size, checked against the memory available; None without a
    perfect hash."""
    n = space.n_ranks
    if n is not None:
        memory.check_fits(n, f"the {what} distance table ({n:,} positions, one byte each)")
    return n


def _auto_progress(progress, size):
    return bool(progress) if progress is not None else (size or 0) >= PROGRESS_MIN_TABLE


def _solve_bfs(space, state, timer, threads, max_depth, max_states, progress, **_):
    goal = space.goal_state()
    n = _table_size(space, space.label) if goal is not None else None
    if n is not None:  # a distance table indexed by rank
        rg = int(space.fns.rank(goal, space.params))
        params = space.scan_params()  # (with tables that only a scan of the table uses)
        with layer_bar(_auto_progress(progress, n), n, f"{space.label} bfs", progress) as update, \
                _on_threads(threads), timer.phase() as ph:
            res = _layered.layered_bfs(
                space.fns, params, n, [int(space.fns.rank(state, space.params))],
                stop_rank=rg, progress=update, buckets=space.buckets, kfns=space.lkfns,
                max_depth=max_depth)
            reached = res.dist[rg] != UNSEEN
            path = _layered.path_to(res.dist, rg, space.fns, space.params) if reached else None
        return _Out(SOLVED if reached else (BEYOND_DEPTH if res.stopped else NO_SOLUTION), path,
                    res.generated, res.expanded, sum(res.counts), res.peak_bytes, threads,
                    counts=res.counts, seconds=ph.seconds)
    if goal is not None:  # one goal, no perfect hash: the forward side of bidirectional search
        with timer.phase() as ph:
            res = _bidir.bidirectional(state, goal, space.fns, space.params, max_depth,
                                       max_states, variant="one-way", direct=space.stable_types)
        return _bidir_out(res, "bfs", max_states, ph.seconds, counts=True)
    words = space.word_params()
    with layer_bar(bool(progress), None, f"{space.label} bfs", progress) as update, \
            timer.phase() as ph:
        try:  # many goals: layers of whole states (or words), all kept for the path
            if words is not None:
                res = _wordbfs.word_solve(space.wfns, words, state, len(state),
                                          progress=update, max_states=max_states,
                                          max_depth=max_depth)
            else:
                res = _frontier.frontier_bfs(space.fns, space.params, state, stop_at_goal=True,
                                             ffns=space.ffns, progress=update,
                                             max_states=max_states, max_depth=max_depth)
        except MemoryError as e:
            raise SearchLimitError(f"{e}; raise max_states, or use astar or idastar with a "
                                   f"heuristic") from None
    found = res.goal_depth is not None
    if found and words is not None:
        moves = np.asarray(space.word_moves(res.path), dtype=np.int64)
    else:
        moves = np.asarray(res.moves, dtype=np.int64) if found else None
    return _Out(SOLVED if found else (BEYOND_DEPTH if res.stopped else NO_SOLUTION),
                moves, res.generated, res.expanded, res.peak_states, res.peak_bytes,
                counts=[int(c) for c in res.counts], seconds=ph.seconds)


def _bidir_variant(space):
    if space.kfns is not None:
        return "keys", None
    try:
        n = space.n_ranks
    except PuzzleError:  # too many positions to rank in 64 bits
        n = None
    if n is not None and n <= BIDIR_TABLE_MAX_RANKS:
        try:
            memory.check_fits(2 * n, "the two distance tables of bidirectional search")
            return "table", n
        except PuzzleError:
            pass
    return "states", None


def _bidir_out(res, method, max_states, seconds, counts=False):
    if res.status == _bidir.STATE_LIMIT:
        raise SearchLimitError(f"{method} stopped at {max_states:,} stored states "
                               f"({res.memory_bytes / 2**20:.0f} MiB) without an answer; raise "
                               f"max_states")
    status = {_bidir.FOUND: SOLVED, _bidir.NOT_WITHIN_DEPTH: BEYOND_DEPTH,
              _bidir.EXHAUSTED: NO_SOLUTION}[res.status]
    extra = {} if counts else {"forward_counts": res.forward_counts,
                               "backward_counts": res.backward_counts}
    return _Out(status, res.path if res.status == _bidir.FOUND else None, res.generated,
                res.expanded, res.stored, res.memory_bytes,
                counts=res.forward_counts if counts else None, extra=extra, seconds=seconds)


def _solve_bidir(space, state, timer, max_depth, max_states, **_):
    goal = _needs_goal(space, "bidir")
    variant, n = _bidir_variant(space)
    # every path has the residue's parity (sliding tiles) and none is shorter than the
    # heuristic: the layers that cannot meet skip their lookups
    bound0 = space.residue(state)
    with timer.phase() as ph:
        res = _bidir.bidirectional(state, goal, space.fns, space.params, max_depth, max_states,
                                   variant=variant, kfns=space.kfns, n_ranks=n, bound0=bound0,
                                   direct=space.stable_types)
    return _bidir_out(res, "bidirectional search", max_states, ph.seconds)


def _solve_deepening(space, state, timer, method, all_solutions, threads, max_depth, node_limit,
                     transpositions, progress, skip=None, order=None, **_):
    if transpositions is None:
        transpositions = 0 if all_solutions else space.default_transpositions
    if transpositions and (space.ffns is None or all_solutions):
        raise PuzzleError("a transposition table needs a puzzle that lists its candidate moves "
                          "(block puzzles) and one solution, not all of them")
    parallel = threads > 1 and space.ffns is None
    bound0 = space.residue(state)
    with pass_bar(progress, method) as report, _on_threads(threads), timer.phase() as ph:
        res = _ida.iterative_deepening(
            state, space.dfs_fns, space.params, bound0, all_solutions, max_depth,
            node_limit, parallel=parallel, progress=report, ffns=space.ffns, cfns=space.cfns,
            transpositions=transpositions, skip=skip, order=order)
    if res.status == _ida.NODE_LIMIT:
        raise SearchLimitError(f"{method} stopped at its node limit ({node_limit:,} nodes, "
                               f"bound {res.last_bound})")
    status = SOLVED if res.status == _ida.FOUND else (
        NO_SOLUTION if res.space_exhausted else BEYOND_DEPTH)
    extra = {"iterations": res.iterations, "initial_bound": res.first_bound}
    if transpositions:
        extra["transpositions"] = transpositions
    return _Out(status, res.path if res.status == _ida.FOUND else None, res.generated,
                res.expanded, res.stored, res.memory_bytes, threads if parallel else 1,
                solutions=res.solutions if all_solutions else None, extra=extra,
                seconds=ph.seconds)


def _solve_astar(space, state, timer, method, max_states, **_):
    with timer.phase() as ph:
        res = _astar.astar(state, space.fns, space.params, 1 if method == "astar" else 0,
                           max_states, ffns=space.ffns)
    if res.status == _astar.STATE_LIMIT:
        raise SearchLimitError(f"{method} stopped at {max_states:,} stored states "
                               f"({res.memory_bytes / 2**20:.0f} MiB) without reaching the goal; "
                               f"raise max_states")
    found = res.status == _astar.FOUND
    return _Out(SOLVED if found else NO_SOLUTION, res.path if found else None, res.generated,
                res.expanded, res.stored, res.memory_bytes, seconds=ph.seconds)


# ---------------------------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------------------------


def layers(puzzle, start=None, *, threads=None, progress=None, farthest_limit=FARTHEST_LIMIT,
           max_depth=None, max_states=None, table="auto", checkpoint=None, client=None,
           backend="cpu"):
    """Breadth-first search over every position reachable from ``start`` (God's algorithm):
    ``counts[d]`` positions at depth ``d``, the greatest depth, and the positions there (at
    most ``farthest_limit`` of them; ``n_farthest`` is the exact count).

    On a puzzle with a perfect hash the search keeps a distance table, checked against the
    memory available before it starts; the result then answers ``depth(position)`` and
    ``path_to(position)``. ``table``: ``"bytes"`` (one byte a position), ``"packed"`` (the
    depth modulo 3 in two bits and one bit for the current layer: 3/8 of a byte a position,
    see :mod:`puzzlelib.search.packed`), or ``"auto"`` (bytes when they fit, else packed).
    A packed search saves every layer as it is made in the folder ``checkpoint`` (its ranks,
    about 7 bits a position over the whole search; the disk's free space is checked before
    the search starts), and a later call with the same folder resumes after the last layer
    saved (:class:`puzzlelib.search.packed.LayerLog`); ``True`` picks a folder in the
    package's cache for this puzzle and start, ``None`` (the default) does so for tables of
    :data:`CHECKPOINT_MIN_RANKS` positions or more, ``False`` saves nothing.
    ``client``: a ``dask.distributed.Client``; the table is then split among its workers, one
    part of the ranks each (:mod:`puzzlelib.search.distributed`), and the result keeps none.
    ``backend="cuda"``: the table is made on an NVIDIA GPU (:mod:`puzzlelib.search.gpu`; the
    ``cuda`` extra), ``"auto"`` choosing bytes when they fit the GPU's free memory, and copied
    back, so the result answers as the CPU's does; the GPU's name is ``extra["device"]``.
    Other puzzles are searched layer by layer on whole states, keeping three layers, or, where
    a position fits a 64-bit word (block puzzles of up to 21 cells), every position seen
    (:mod:`puzzlelib.search.wordbfs`); ``max_states`` caps the positions held, ``max_depth``
    stops early. The start's own labels or pieces
    define the positions (sliding tiles with repeated labels included); the puzzle's goal
    plays no part. ``threads`` and ``progress`` as for :func:`solve` (a bar shows the depth,
    the positions so far and the time left)."""
    puzzle, start = _puzzle_and_start(puzzle, start)
    if table not in TABLES:
        raise PuzzleError(f"unknown table {table!r}: use one of {', '.join(TABLES)}")
    space = puzzle.rooted(start)
    max_depth = _check_limit(max_depth, "max_depth")
    max_states = _check_limit(max_states, "max_states", 1)
    farthest_limit = _check_limit(farthest_limit, "farthest_limit")
    n_threads = _threads(threads, space)
    state = space.encode(start)
    if _check_backend(backend) == "cuda":
        if client is not None:
            raise PuzzleError("backend 'cuda' runs on this machine's GPU and client on a Dask "
                              "cluster: choose one")
        if checkpoint is not None and checkpoint is not False:
            raise PuzzleError("a search on the GPU saves no state: drop checkpoint, or use "
                              "backend 'cpu'")
        n, kind = _gpu_table(space, table)
    elif client is not None:
        n, kind = _dask_table(space, client, table), "dask"
    else:
        n, kind = _layers_table(space, table)
    if checkpoint is not None and checkpoint is not False and kind != "packed":
        uses = {"dask": "is split among Dask workers", "bytes": "keeps a byte table",
                None: "keeps no table"}[kind]
        raise PuzzleError(f"only packed tables save their state, and this search {uses}: drop "
                          f"checkpoint, or ask for table='packed'")
    with timed() as timer:
        _typed(space, timer)
        if backend == "cuda":
            with timer.compiling():  # the GPU's start, and numba-cuda compiling its kernels
                device = _gpu.warm(space.fns, space.params, packed=kind == "packed")
        with timer.phase() as ph:
            if backend == "cuda":
                found = _gpu_layers(space, state, n, kind, progress, farthest_limit, max_depth,
                                    device)
            elif kind == "dask":
                with timer.compiling():
                    _warm_workers(client, space)
                found = _dask_layers(space, state, n, client, progress, farthest_limit,
                                     max_depth)
            elif kind == "packed":
                found = _packed_layers(space, state, n, n_threads, progress, farthest_limit,
                                       max_depth, checkpoint)
            else:
                found = _layers_search(space, state, n, n_threads, progress, farthest_limit,
                                       max_depth, max_states)
            out, counts, farthest, n_far, tab, stopped = found
    stats = Stats(out.generated, out.expanded, out.stored, out.memory_bytes, ph.seconds,
                  timer.compile_seconds)
    extra = space.layers_extra()
    extra.update(out.extra)
    return Result(puzzle=puzzle, method="layers", start=space.decode(state), length=None,
                  moves=None, status=BEYOND_DEPTH if stopped else COMPLETE, stats=stats,
                  threads=out.threads, counts=counts, farthest=farthest, n_farthest=int(n_far),
                  extra=extra, table=tab, _space=space if tab is not None else None)


def _layers_table(space, table):
    """``(n_ranks, "bytes" | "packed")`` for :func:`layers`, the memory checked; ``(None,
    None)`` for a puzzle without a perfect hash."""
    n = space.n_ranks
    if n is None:
        if table == "packed":
            raise PuzzleError(f"a packed table needs a perfect hash, and the {space.name} "
                              f"puzzle has none: use table='auto'")
        return None, None
    as_bytes = f"the {space.label} distance table ({n:,} positions, one byte each)"
    packed = _packed.packed_bytes(n)
    as_packed = f"the {space.label} packed table ({n:,} positions, 3 bits each)"
    if table == "bytes" or (table == "auto" and memory.fits(n)):
        memory.check_fits(n, as_bytes)
        return n, "bytes"
    if table == "auto" and not memory.fits(packed):
        raise PuzzleError(
            f"{as_bytes} needs {memory.human(n)} of memory, packed {memory.human(packed)}, but "
            f"only {memory.human(memory.available_bytes())} is available; choose a smaller "
            f"board or a search that does not need the full table (idastar, astar, bidir)")
    memory.check_fits(packed, as_packed)
    return n, "packed"


def _gpu_table(space, table):
    """``(n_ranks, "bytes" | "packed")`` for :func:`layers` on the GPU, the GPU's memory and
    this machine's (the table is copied back) checked."""
    n = space.n_ranks
    if n is None:
        raise PuzzleError(f"backend 'cuda' needs a perfect hash, and the {space.name} puzzle "
                          f"has none: use backend 'cpu'")
    held = _gpu.functions_in(space.params)
    if held:
        raise PuzzleError(f"backend 'cuda' cannot run the {space.name} puzzle: its functions "
                          f"call {', '.join(held)}, held in their parameters, which a GPU "
                          f"kernel cannot; use backend 'cpu'")
    _gpu.require()
    as_bytes = f"the {space.label} distance table ({n:,} positions, one byte each)"
    as_packed = f"the {space.label} packed table ({n:,} positions)"
    gpu_packed = _gpu.packed_gpu_bytes(n)
    if table == "bytes" or (table == "auto" and n <= _gpu.GPU_SHARE * _gpu.free_bytes()
                            and memory.fits(n)):
        _gpu.check_gpu_fits(n, as_bytes)
        memory.check_fits(n, f"{as_bytes}, copied back from the GPU,")
        return n, "bytes"
    _gpu.check_gpu_fits(gpu_packed, as_packed)
    memory.check_fits(_packed.packed_bytes(n), f"{as_packed}, copied back from the GPU,")
    return n, "packed"


def _gpu_layers(space, state, n, kind, progress, farthest_limit, max_depth, device):
    r0 = int(space.fns.rank(state, space.params))
    with layer_bar(_auto_progress(progress, n), n,
                   f"{space.label} layers (GPU{', packed' if kind == 'packed' else ''})",
                   progress) as update:
        run = _gpu.bfs_packed if kind == "packed" else _gpu.bfs_bytes
        tab, counts, tally, stopped = run(space.fns, space.params, n, [r0], progress=update,
                                          max_depth=max_depth)
    if kind == "packed":
        ranks, n_far = _packed.front_ranks(tab.words, tab.front, len(counts) - 1, farthest_limit)
        nbytes = _gpu.packed_gpu_bytes(n)
    else:
        ranks, n_far = _layered.ranks_at_depth(tab, len(counts) - 1, farthest_limit)
        nbytes = n
    out = _Out(COMPLETE, None, tally[0], tally[1], sum(counts), nbytes, 1,
               extra={"table": kind, "backend": "cuda", "device": device})
    return out, counts, _decoded(space, ranks), n_far, tab, stopped


def _dask_table(space, client, table):
    """The rank space's size for a search on ``client``'s workers, each part's table checked
    against its worker's memory limit."""
    from .search.distributed import part_bounds, worker_addresses

    n = space.n_ranks
    if n is None:
        raise PuzzleError(f"a search on a Dask cluster needs a perfect hash, and the "
                          f"{space.name} puzzle has none")
    if table == "packed":
        raise PuzzleError("a search on a Dask cluster keeps one byte a position in each "
                          "worker's part: use table='auto' or 'bytes'")
    workers = worker_addresses(client)
    if not workers:
        raise PuzzleError("the Dask cluster has no workers")
    part = int(np.diff(part_bounds(n, len(workers))).max())
    limit = min((m for _, m in workers if m > 0), default=0)
    if limit and part > memory.SHARE * limit:
        raise PuzzleError(
            f"each of the {len(workers)} workers' parts of the {space.label} table needs "
            f"{memory.human(part)}, but a table may use {memory.human(memory.SHARE * limit)} "
            f"({memory.SHARE:.0%} of a worker's limit of {memory.human(limit)}); add workers "
            f"or memory")
    return n


def _warm_workers(client, space):
    from .search.distributed import warm_workers

    warm_workers(client, space)


def _dask_layers(space, state, n, client, progress, farthest_limit, max_depth):
    from .search.distributed import dask_bfs, worker_addresses

    with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers (dask)",
                   progress) as update:
        counts, ranks, n_far, tally, stopped = dask_bfs(
            client, space, n, [int(space.fns.rank(state, space.params))], progress=update,
            max_depth=max_depth, farthest_limit=farthest_limit)
    workers = len(worker_addresses(client))
    out = _Out(COMPLETE, None, tally[0], tally[1], sum(counts), n, workers,
               extra={"table": "dask", "workers": workers, "bytes_sent": int(tally[2])})
    return out, counts, _decoded(space, ranks), n_far, None, stopped


def _decoded(space, ranks):
    buf = np.empty(space.params.state_len, dtype=np.uint8)
    out = []
    for r in ranks:
        space.fns.unrank(int(r), space.params, buf)
        out.append(space.decode(buf))
    return out


def _checkpoint_file(space, start_rank, n):
    """The file a packed search of ``space`` from ``start_rank`` saves its state to."""
    import hashlib
    import json

    from .core.store import cache_root

    key = json.dumps([space.describe(), int(start_rank), int(n)], sort_keys=True, default=str)
    return key, cache_root() / "layers" / (hashlib.sha256(key.encode()).hexdigest()[:20]
                                           + ".state")


def _packed_layers(space, state, n, n_threads, progress, farthest_limit, max_depth, checkpoint):
    r0 = int(space.fns.rank(state, space.params))
    key, default_file = _checkpoint_file(space, r0, n)
    if checkpoint is None:  # automatic: for long searches only
        checkpoint = default_file if n >= CHECKPOINT_MIN_RANKS else None
    elif checkpoint is True:
        checkpoint = default_file
    elif checkpoint is False:
        checkpoint = None
    with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers (packed)",
                   progress) as update, _on_threads(n_threads):
        tab, counts, tally, stopped, resumed = _packed.run_packed(
            space.fns, space.params, n, [r0], key, progress=update, max_depth=max_depth,
            checkpoint=checkpoint)
    ranks, n_far = _packed.front_ranks(tab.words, tab.front, len(counts) - 1, farthest_limit)
    out = _Out(COMPLETE, None, tally[0], tally[1], sum(counts), tab.nbytes, n_threads)
    out.extra = {"table": "packed"}
    if resumed is not None:
        out.extra["resumed_at_depth"] = resumed
    return out, counts, _decoded(space, ranks), n_far, tab, stopped


def _layers_search(space, state, n, n_threads, progress, farthest_limit, max_depth, max_states):
    if n is not None:
        with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers",
                       progress) as update, _on_threads(n_threads):
            params = space.scan_params()  # (with tables that only a scan of the table uses)
            res = _layered.layered_bfs(
                space.fns, params, n, [int(space.fns.rank(state, space.params))],
                progress=update, buckets=space.buckets, kernel=space.layer_kernel,
                kfns=space.lkfns,
                max_depth=max_depth)
        counts, table = res.counts, res.dist
        ranks, n_far = _layered.ranks_at_depth(table, len(counts) - 1, farthest_limit)
        farthest = _decoded(space, ranks)
        out = _Out(COMPLETE, None, res.generated, res.expanded, sum(counts),
                   res.peak_bytes, n_threads, extra={"table": "bytes"})
    else:
        n_threads = 1
        table = None
        words = space.word_params()
        with layer_bar(bool(progress), None, f"{space.label} layers", progress) as update:
            try:
                if words is not None:
                    res = _wordbfs.word_bfs(space.wfns, words, state, len(state),
                                            progress=update, max_states=max_states,
                                            max_depth=max_depth)
                else:
                    res = _frontier.frontier_bfs(space.fns, space.params, state,
                                                 ffns=space.ffns, progress=update,
                                                 max_states=max_states, max_depth=max_depth)
            except MemoryError as e:
                raise SearchLimitError(f"{e}; raise max_states") from None
        counts = [int(c) for c in res.counts]
        farthest = [space.decode(s) for s in res.last[:farthest_limit]]
        n_far = len(res.last)
        out = _Out(COMPLETE, None, res.generated, res.expanded, res.peak_states,
                   res.peak_bytes)
    return out, counts, farthest, n_far, table, res.stopped


# ---------------------------------------------------------------------------------------------
# solve_many
# ---------------------------------------------------------------------------------------------


def solve_many(puzzle, starts=None, method="idastar", heuristic=None, *, pdb=None, reflect=None,
               threads=None, max_depth=None, progress=None, cache=True, backend="cpu", prune=None,
               **limits):
    """Solve many starts on one puzzle; returns a :class:`~puzzlelib.Batch` of one
    :class:`~puzzlelib.Result` per start, in order.

    With ``iddfs`` or ``idastar`` on a puzzle that steps in place (sliding tiles), the starts
    are searched at once, each thread taking the next start as it comes free (the right way to
    use several cores on many small searches, such as Korf's 100 with pattern databases); a
    start whose passes grow big is put aside and finished afterwards with its passes shared
    among the threads. Otherwise each start is solved in turn by :func:`solve`, with the same
    options (``backend`` too: where pattern databases not cached yet are built). Every start is
    checked before anything runs. ``prune``: as :func:`solve`'s."""
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"the first argument must be a puzzle, not {type(puzzle).__name__}")
    if starts is None:
        raise PuzzleError("no starts given")
    starts = list(starts)
    if not starts:
        raise PuzzleError("no starts given")
    for i, s in enumerate(starts):
        puzzle.encode(s, what=f"start {i}")
    batchable = method in COUNTING_METHODS and puzzle.ffns is None and puzzle.thread_safe
    if not batchable or limits.get("all_solutions") or limits.get("node_limit"):
        t0 = time.perf_counter()
        results = [solve(puzzle, s, method, heuristic, pdb=pdb, reflect=reflect, threads=threads,
                         max_depth=max_depth, progress=progress, cache=cache, backend=backend,
                         prune=prune, **limits)
                   for s in starts]
        total = sum((r.stats for r in results), Stats())
        total.seconds = time.perf_counter() - t0 - total.compile_seconds
        return Batch(puzzle, method, results, total, results[0].threads)
    if limits:
        raise PuzzleError(f"solve_many with {method} takes no {', '.join(sorted(limits))}")
    _check_pdb_backend(backend, puzzle, method, heuristic, pdb)
    n_threads = _threads(threads, puzzle)
    max_depth = _check_limit(max_depth, "max_depth")
    skip, pruning = _skip_for(puzzle, method, prune)
    with timed() as timer:
        space, extra = _space_for(puzzle, method, heuristic, pdb, reflect, progress, cache, timer,
                                  backend)
        _typed(space, timer)
        if max_depth is None:
            max_depth = space.default_max_depth
        states = np.stack([space.encode(s) for s in starts])
        residues = [space.residue(s) for s in states]
        h0 = [space.heuristic_value(s) for s in states]
        with timer.phase() as ph:
            res = _ida.deepen_many(states, residues, space.dfs_fns, space.params, max_depth,
                                   n_threads, space.cfns, skip=skip)
        extra["prune"] = pruning
    results = []
    for i, s in enumerate(states):
        length = int(res.lengths[i])
        path = res.paths[i, :length] if length >= 0 else None
        e = dict(extra)
        if method in INFORMED_METHODS:
            e["initial_h"] = h0[i]
        results.append(Result(
            puzzle=puzzle, method=method, start=space.decode(s), length=length,
            moves=space.moves_out(path) if path is not None else None,
            status=SOLVED if length >= 0 else BEYOND_DEPTH, threads=n_threads, extra=e,
            stats=Stats(int(res.generated[i]), int(res.expanded[i]), length + 1 if length >= 0
                        else max_depth + 1, 0, None, 0.0)))
    total = Stats(int(res.generated.sum()), int(res.expanded.sum()),
                  max(r.stats.stored for r in results), 0, ph.seconds, timer.compile_seconds)
    return Batch(puzzle, method, results, total, n_threads, extra)
