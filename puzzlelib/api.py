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
from . import plan as _plan
from .core import limits as _limits
from .core.errors import PuzzleError, SearchLimitError
from .core.progress import layer_bar, pass_bar
from .core.timing import timed
from .domains.base import Puzzle
from .core.contract import UNSEEN
from .plan import (BACKENDS, BIDIR_TABLE_MAX_RANKS, CHECKPOINT_MIN_RANKS,  # noqa: F401
                   COUNTING_METHODS, INFORMED_METHODS, PRUNING, TABLES, Plan)
from .results import BEYOND_DEPTH, COMPLETE, NO_SOLUTION, SOLVED, Batch, Result, Stats
from .search import astar as _astar
from .search import bidirectional as _bidir
from .search import idastar as _ida
from .search import layered as _layered
from .search import gpu as _gpu
from .search import packed as _packed

#: At most this many farthest positions are returned (their count is always exact).
FARTHEST_LIMIT = 1000
#: Tables of at least this many positions show a progress bar unless told otherwise.
PROGRESS_MIN_TABLE = 20_000_000

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


def _space_for(plan, puzzle, progress, cache, timer):
    """The puzzle with the heuristic the plan names (its pattern databases loaded or built
    now), and what to report of it."""
    run = plan.run
    if run["space"] is not None:
        return run["space"], dict(run["hinfo"])
    with timer.phase() as ph:
        space, info = _pdb.guide(puzzle, run["hinfo"]["spec"], reflect=run["hinfo"]["reflect"],
                                 progress=progress, cache=cache, backend=plan.backend)
    info["pdb_seconds"] = ph.seconds
    return space, info


# ---------------------------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------------------------


def solve(puzzle, start=None, method=None, heuristic=None, *, pdb=None, reflect=None,
          all_solutions=False, threads=None, max_depth=None, max_states=None, node_limit=0,
          transpositions=None, progress=None, cache=True, backend="cpu", prune=None, order=None,
          max_memory=None, time_limit=None, explain=False):
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
    Every search, pattern-database builds included, stops by itself: ``max_memory`` (bytes, or
    a string such as ``"8G"``; default what this process may really use) caps the memory the
    process holds, ``time_limit`` (seconds; default none) the time; passing either raises
    :class:`~puzzlelib.SearchLimitError` within about a second, saying how far the search got,
    and Ctrl-C raises ``KeyboardInterrupt`` as quickly (see :mod:`puzzlelib.core.limits`).

    ``threads``: see the module. ``progress``: ``True`` shows a bar, ``False`` none, a callable
    is called after each layer or pass; ``None`` shows bars for pattern-database builds and
    tables of :data:`PROGRESS_MIN_TABLE` positions or more. ``backend="cuda"`` builds
    sliding-tile pattern databases that are not cached yet on the GPU (the search itself runs
    on the CPU).

    ``explain=True`` returns the :class:`~puzzlelib.plan.Plan` of the call instead of searching
    (which kernel, table, heuristic, threads and memory; see :mod:`puzzlelib.plan`): every
    check is made, nothing is built or run."""
    puzzle, start = _puzzle_and_start(puzzle, start)
    guard = _limits.watch(max_memory, time_limit)  # (checks both before anything runs)
    plan = _plan.plan_solve(puzzle, start, method, heuristic, pdb=pdb, reflect=reflect,
                            all_solutions=all_solutions, threads=threads, max_depth=max_depth,
                            max_states=max_states, node_limit=node_limit,
                            transpositions=transpositions, cache=cache, backend=backend,
                            prune=prune, order=order)
    if explain:
        return plan
    guard.args = guard.args[:2] + (f"{plan.method} on {puzzle.label}",)
    with guard:
        return _run_solve(plan, puzzle, start, progress, cache)


def _run_solve(plan, puzzle, start, progress, cache):
    """Execute a plan of :func:`solve`."""
    run, method = plan.run, plan.method
    state = run["state"]
    skip = puzzle.move_automaton() if run["skip"] else None
    with timed() as timer:
        space, extra = _space_for(plan, puzzle, progress, cache, timer)
        _typed(space, timer)
        if space is not puzzle:  # a heuristic's space may hold more in its state
            state = space.encode(start)
        if method in INFORMED_METHODS:
            extra["initial_h"] = space.heuristic_value(state)
        if plan.backend != "cpu":
            extra["backend"] = plan.backend
        if plan.prune is not None:
            extra["prune"] = plan.prune
        if plan.order is not None:
            extra["order"] = plan.order
        max_depth = space.default_max_depth if run["max_depth"] is None else run["max_depth"]
        max_states = (space.default_max_states if run["max_states"] is None
                      else run["max_states"])
        runner = _SOLVERS[plan.kernel.rpartition(".")[2]]
        out = runner(plan, space, state, timer, max_depth=max_depth, max_states=max_states,
                     progress=progress, skip=skip)
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


def _auto_progress(progress, size):
    return bool(progress) if progress is not None else (size or 0) >= PROGRESS_MIN_TABLE


def _ranked_keys(space):
    """The puzzle's keys where they give its rank (layered BFS's lists of keys), else None."""
    keys = space.keys
    return keys if keys is not None and keys.rank_after is not None else None


def _solve_table(plan, space, state, timer, max_depth, progress, **_):
    """``bfs`` over a distance table indexed by rank, stopped at the goal's layer."""
    n, threads = plan.run["n"], plan.threads
    rg = int(space.fns.rank(space.goal_state(), space.params))
    params = space.scan_params()  # (with tables that only a scan of the table uses)
    with layer_bar(_auto_progress(progress, n), n, f"{space.label} bfs", progress) as update, \
            _on_threads(threads), timer.phase() as ph:
        res = plan.function()(
            space.fns, params, n, [int(space.fns.rank(state, space.params))],
            stop_rank=rg, progress=update, buckets=space.buckets, kfns=_ranked_keys(space),
            max_depth=max_depth, kernel=plan.run["layer_kernel"])
        reached = res.dist[rg] != UNSEEN
        path = _layered.path_to(res.dist, rg, space.fns, space.params) if reached else None
    return _Out(SOLVED if reached else (BEYOND_DEPTH if res.stopped else NO_SOLUTION), path,
                res.generated, res.expanded, sum(res.counts), res.peak_bytes, threads,
                counts=res.counts, seconds=ph.seconds)


def _solve_layers_of_states(plan, space, state, timer, max_depth, max_states, progress, **_):
    """``bfs`` towards many goals: layers of whole states (or words), all kept for the path."""
    words = space.word_params() if plan.run["words"] else None
    with layer_bar(bool(progress), None, f"{space.label} bfs", progress) as update, \
            timer.phase() as ph:
        try:
            if words is not None:
                res = plan.function()(space.words, words, state, len(state), progress=update,
                                      max_states=max_states, max_depth=max_depth)
            else:
                res = plan.function()(space.fns, space.params, state, stop_at_goal=True,
                                      ffns=space.frontier, progress=update, max_states=max_states,
                                      max_depth=max_depth)
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
    """``(variant, n_ranks)`` of bidirectional search on ``space`` (:mod:`puzzlelib.plan`
    decides)."""
    return _plan.bidir_variant(space)[:2]


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


def _solve_bidir(plan, space, state, timer, max_depth, max_states, **_):
    """``bidir``, and ``bfs`` with one goal and no perfect hash (its forward side alone)."""
    variant, goal = plan.run["variant"], space.goal_state()
    if variant == "one-way":
        with timer.phase() as ph:
            res = plan.function()(state, goal, space.fns, space.params, max_depth, max_states,
                                  variant="one-way", direct=space.stable_types)
        return _bidir_out(res, "bfs", max_states, ph.seconds, counts=True)
    # every path has the residue's parity (sliding tiles) and none is shorter than the
    # heuristic: the layers that cannot meet skip their lookups
    bound0 = space.residue(state)
    with timer.phase() as ph:
        res = plan.function()(state, goal, space.fns, space.params, max_depth, max_states,
                              variant=variant, kfns=space.keys, n_ranks=plan.run["n"],
                              bound0=bound0, direct=space.stable_types)
    return _bidir_out(res, "bidirectional search", max_states, ph.seconds)


def _solve_deepening(plan, space, state, timer, max_depth, progress, skip, **_):
    run, method = plan.run, plan.method
    node_limit, transpositions = run["node_limit"], run["transpositions"]
    all_solutions, parallel = run["all_solutions"], run["parallel"]
    bound0 = space.residue(state)
    with pass_bar(progress, method) as report, _on_threads(run["n_threads"]), \
            timer.phase() as ph:
        res = plan.function()(
            state, space.depth_first.fns, space.params, bound0, all_solutions, max_depth,
            node_limit, parallel=parallel, progress=report, ffns=space.frontier,
            cfns=space.depth_first.cursor if run["cursor"] else None, transpositions=transpositions,
            skip=skip, order=run["order"])
    if res.status == _ida.NODE_LIMIT:
        raise SearchLimitError(f"{method} stopped at its node limit ({node_limit:,} nodes, "
                               f"bound {res.last_bound})")
    status = SOLVED if res.status == _ida.FOUND else (
        NO_SOLUTION if res.space_exhausted else BEYOND_DEPTH)
    extra = {"iterations": res.iterations, "initial_bound": res.first_bound}
    if transpositions:
        extra["transpositions"] = transpositions
    return _Out(status, res.path if res.status == _ida.FOUND else None, res.generated,
                res.expanded, res.stored, res.memory_bytes, plan.threads,
                solutions=res.solutions if all_solutions else None, extra=extra,
                seconds=ph.seconds)


def _solve_astar(plan, space, state, timer, max_states, **_):
    method = plan.method
    with timer.phase() as ph:
        res = plan.function()(state, space.fns, space.params, 1 if method == "astar" else 0,
                              max_states, ffns=space.frontier)
    if res.status == _astar.STATE_LIMIT:
        raise SearchLimitError(f"{method} stopped at {max_states:,} stored states "
                               f"({res.memory_bytes / 2**20:.0f} MiB) without reaching the goal; "
                               f"raise max_states")
    found = res.status == _astar.FOUND
    return _Out(SOLVED if found else NO_SOLUTION, res.path if found else None, res.generated,
                res.expanded, res.stored, res.memory_bytes, seconds=ph.seconds)


#: Who executes a plan of :func:`solve`, by the name of its kernel.
_SOLVERS = {"layered_bfs": _solve_table, "word_solve": _solve_layers_of_states,
            "frontier_bfs": _solve_layers_of_states, "bidirectional": _solve_bidir,
            "iterative_deepening": _solve_deepening, "astar": _solve_astar}


# ---------------------------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------------------------


def layers(puzzle, start=None, *, threads=None, progress=None, farthest_limit=FARTHEST_LIMIT,
           max_depth=None, max_states=None, table="auto", checkpoint=None, client=None,
           backend="cpu", max_memory=None, time_limit=None, explain=False):
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
    the positions so far and the time left), ``max_memory`` and ``time_limit`` as for
    :func:`solve` (a saved packed search resumes after a stop). ``explain=True`` returns the
    :class:`~puzzlelib.plan.Plan` of the call instead of searching, as :func:`solve` does."""
    puzzle, start = _puzzle_and_start(puzzle, start)
    guard = _limits.watch(max_memory, time_limit, f"layers of {puzzle.label}")
    plan = _plan.plan_layers(puzzle, start, threads=threads, max_depth=max_depth,
                             max_states=max_states, farthest_limit=farthest_limit, table=table,
                             checkpoint=checkpoint, client=client, backend=backend)
    if explain:
        return plan
    with guard:
        return _run_layers(plan, puzzle, progress)


def _run_layers(plan, puzzle, progress):
    """Execute a plan of :func:`layers`."""
    run = plan.run
    space, state, n = run["space"], run["state"], run["n"]
    farthest_limit, max_depth = run["farthest_limit"], run["max_depth"]
    with timed() as timer:
        _typed(space, timer)
        if plan.backend == "cuda":
            with timer.compiling():  # the GPU's start, and numba-cuda compiling its kernels
                device = _gpu.warm(space.fns, space.params, packed=plan.table == "packed")
        with timer.phase() as ph:
            if plan.backend == "cuda":
                found = _gpu_layers(plan, space, state, n, progress, farthest_limit, max_depth,
                                    device)
            elif plan.backend == "dask":
                with timer.compiling():
                    _warm_workers(run["client"], space)
                found = _dask_layers(plan, space, state, n, run["client"], progress,
                                     farthest_limit, max_depth, run["checkpoint"])
            elif plan.table == "packed":
                found = _packed_layers(plan, space, state, n, progress, farthest_limit,
                                       max_depth, run["checkpoint"])
            else:
                found = _layers_search(plan, space, state, n, progress, farthest_limit,
                                       max_depth, run["max_states"])
            out, counts, farthest, n_far, tab, stopped = found
    stats = Stats(out.generated, out.expanded, out.stored, out.memory_bytes, ph.seconds,
                  timer.compile_seconds)
    extra = space.layers_extra()
    extra.update(out.extra)
    return Result(puzzle=puzzle, method="layers", start=space.decode(state), length=None,
                  moves=None, status=BEYOND_DEPTH if stopped else COMPLETE, stats=stats,
                  threads=out.threads, counts=counts, farthest=farthest, n_farthest=int(n_far),
                  extra=extra, table=tab, _space=space if tab is not None else None)


def _gpu_layers(plan, space, state, n, progress, farthest_limit, max_depth, device):
    kind = plan.table
    r0 = int(space.fns.rank(state, space.params))
    with layer_bar(_auto_progress(progress, n), n,
                   f"{space.label} layers (GPU{', packed' if kind == 'packed' else ''})",
                   progress) as update:
        tab, counts, tally, stopped = plan.function()(space.fns, space.params, n, [r0], progress=update,
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


def _warm_workers(client, space):
    from .search.distributed import warm_workers

    warm_workers(client, space)


def _dask_layers(plan, space, state, n, client, progress, farthest_limit, max_depth,
                 checkpoint):
    from .search.distributed import worker_addresses

    r0 = int(space.fns.rank(state, space.params))
    key, _ = _checkpoint_file(space, r0, n)
    with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers (dask)",
                   progress) as update:
        counts, ranks, n_far, tally, stopped = plan.function()(
            client, space, n, [r0], progress=update, max_depth=max_depth,
            farthest_limit=farthest_limit, n_parts=plan.threads, checkpoint=checkpoint, key=key)
    workers = len(worker_addresses(client))
    out = _Out(COMPLETE, None, tally[0], tally[1], sum(counts), _packed.packed_bytes(n), workers,
               extra={"table": "dask", "workers": workers, "parts": plan.threads,
                      "bytes_sent": int(tally[2]), "workers_lost": int(tally[3])})
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


def _packed_layers(plan, space, state, n, progress, farthest_limit, max_depth, checkpoint):
    """``checkpoint``: as the plan resolved it (``True``: the cache's folder for this start)."""
    n_threads = plan.threads
    r0 = int(space.fns.rank(state, space.params))
    key, default_file = _checkpoint_file(space, r0, n)
    if checkpoint is True:
        checkpoint = default_file
    elif checkpoint is False:
        checkpoint = None
    with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers (packed)",
                   progress) as update, _on_threads(n_threads):
        tab, counts, tally, stopped, resumed = plan.function()(
            space.fns, space.params, n, [r0], key, progress=update, max_depth=max_depth,
            checkpoint=checkpoint)
    ranks, n_far = _packed.front_ranks(tab.words, tab.front, len(counts) - 1, farthest_limit)
    out = _Out(COMPLETE, None, tally[0], tally[1], sum(counts), tab.nbytes, n_threads)
    out.extra = {"table": "packed"}
    if resumed is not None:
        out.extra["resumed_at_depth"] = resumed
    return out, counts, _decoded(space, ranks), n_far, tab, stopped


def _layers_search(plan, space, state, n, progress, farthest_limit, max_depth, max_states):
    n_threads = plan.threads
    if n is not None:
        with layer_bar(_auto_progress(progress, n), n, f"{space.label} layers",
                       progress) as update, _on_threads(n_threads):
            params = space.scan_params()  # (with tables that only a scan of the table uses)
            res = plan.function()(
                space.fns, params, n, [int(space.fns.rank(state, space.params))],
                progress=update, buckets=space.buckets, kernel=plan.run["layer_kernel"],
                kfns=_ranked_keys(space),
                max_depth=max_depth)
        counts, table = res.counts, res.dist
        ranks, n_far = _layered.ranks_at_depth(table, len(counts) - 1, farthest_limit)
        farthest = _decoded(space, ranks)
        out = _Out(COMPLETE, None, res.generated, res.expanded, sum(counts),
                   res.peak_bytes, n_threads, extra={"table": "bytes"})
    else:
        table = None
        words = space.word_params() if plan.run["words"] else None
        with layer_bar(bool(progress), None, f"{space.label} layers", progress) as update:
            try:
                if words is not None:
                    res = plan.function()(space.words, words, state, len(state),
                                          progress=update, max_states=max_states,
                                          max_depth=max_depth)
                else:
                    res = plan.function()(space.fns, space.params, state,
                                                 ffns=space.frontier, progress=update,
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
               max_memory=None, time_limit=None, explain=False, **limits):
    """Solve many starts on one puzzle; returns a :class:`~puzzlelib.Batch` of one
    :class:`~puzzlelib.Result` per start, in order.

    With ``iddfs`` or ``idastar`` on a puzzle that steps in place (sliding tiles), the starts
    are searched at once, each thread taking the next start as it comes free (the right way to
    use several cores on many small searches, such as Korf's 100 with pattern databases); a
    start whose passes grow big is put aside and finished afterwards with its passes shared
    among the threads. Otherwise each start is solved in turn by :func:`solve`, with the same
    options (``backend`` too: where pattern databases not cached yet are built). Every start is
    checked before anything runs. ``prune``, ``max_memory``: as :func:`solve`'s;
    ``time_limit``: for all the starts together. ``explain=True`` returns the :class:`~puzzlelib.plan.Plan` instead of
    searching (for starts solved in turn: the first start's)."""
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"the first argument must be a puzzle, not {type(puzzle).__name__}")
    if starts is None:
        raise PuzzleError("no starts given")
    try:
        starts = list(starts)
    except TypeError:
        raise PuzzleError(f"starts are a list of positions, not {type(starts).__name__}") from None
    if not starts:
        raise PuzzleError("no starts given")
    for i, s in enumerate(starts):
        puzzle.encode(s, what=f"start {i}")
    guard = _limits.watch(max_memory, time_limit, f"{method} on {len(starts)} starts")
    plan = _plan.plan_many(puzzle, starts, method, heuristic, pdb=pdb, reflect=reflect,
                           threads=threads, max_depth=max_depth, cache=cache, backend=backend,
                           prune=prune, **limits)
    if explain:
        return plan
    with guard:
        return _solve_each(plan, puzzle, starts, method, heuristic, pdb, reflect, threads,
                           max_depth, progress, cache, backend, prune, limits)


def _solve_each(plan, puzzle, starts, method, heuristic, pdb, reflect, threads, max_depth,
                progress, cache, backend, prune, limits):
    if not plan.run["batch"]:
        t0 = time.perf_counter()
        results = [solve(puzzle, s, method, heuristic, pdb=pdb, reflect=reflect, threads=threads,
                         max_depth=max_depth, progress=progress, cache=cache, backend=backend,
                         prune=prune, **limits)
                   for s in starts]
        total = sum((r.stats for r in results), Stats())
        total.seconds = time.perf_counter() - t0 - total.compile_seconds
        return Batch(puzzle, method, results, total, results[0].threads)
    return _run_many(plan, puzzle, starts, progress, cache)


def _run_many(plan, puzzle, starts, progress, cache):
    """Execute a plan of :func:`solve_many` that searches every start at once."""
    run, method, n_threads = plan.run, plan.method, plan.threads
    skip = puzzle.move_automaton() if run["skip"] else None
    with timed() as timer:
        space, extra = _space_for(plan, puzzle, progress, cache, timer)
        _typed(space, timer)
        max_depth = space.default_max_depth if run["max_depth"] is None else run["max_depth"]
        states = np.stack([space.encode(s) for s in starts])
        residues = [space.residue(s) for s in states]
        h0 = [space.heuristic_value(s) for s in states]
        with timer.phase() as ph:
            res = plan.function()(states, residues, space.depth_first.fns, space.params,
                                  max_depth, n_threads, space.depth_first.cursor, skip=skip)
        extra["prune"] = plan.prune
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
