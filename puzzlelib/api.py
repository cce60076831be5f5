"""The public API: solve a puzzle, or count the positions at every depth.

Everything here validates its input first (clear :class:`~puzzlelib.errors.PuzzleError` messages,
before any kernel runs), then calls the generic kernels in :mod:`puzzlelib.search` with the
domain's jitted functions, and times the search apart from JIT compilation.

>>> from puzzlelib import solve, layers
>>> sol = solve("8 6 7 2 5 4 3 0 1", size="3x3", method="idastar", all_solutions=True)
>>> sol.length, sol.solutions
(31, 40)
>>> lay = layers("1 2 3 4 5 6 7 8 0", size="3x3")
>>> lay.max_depth, len(lay.farthest)
(31, 2)
"""

import time
from dataclasses import asdict, dataclass, field

import numba
import numpy as np

from .core import memory
from .core.jit import call_direct
from .domains import sliding as _sliding
from .domains.rotation import OPERATIONS as _rotation_ops
from .domains.rotation import RotationPuzzle
from .domains.rotation import parse_grid as parse_rotation_grid
from .domains.sliding import SlidingPuzzle, parse_board, parse_size
from .core.errors import PuzzleError, SearchLimitError
from .search import astar as _astar_mod
from .search import bidirectional as _bidir_mod
from .search import idastar as _ida_mod
from .search import layered as _layered_mod

METHODS = ("bfs", "bidir", "iddfs", "idastar", "astar", "greedy")
#: Methods that can count every optimal solution (``all_solutions=True``).
COUNTING_METHODS = ("iddfs", "idastar")
#: At most this many farthest positions are returned (their count is always exact).
FARTHEST_LIMIT = 1000
#: Default cap on stored states for A*, greedy and bidirectional search (about 1.5 GiB at 4x4).
DEFAULT_MAX_STATES = 20_000_000
#: Default greatest bound for iterative deepening.
DEFAULT_MAX_BOUND = 400


@dataclass
class Solution:
    """What :func:`solve` found. ``moves`` are the blank's moves (u/d/l/r); ``length`` is -1
    when no solution was found within the limits."""

    size: str
    method: str
    start: list
    goal: list
    length: int
    moves: str
    nodes: int
    seconds: float
    compile_seconds: float
    solutions: int | None = None
    extra: dict = field(default_factory=dict)

    def boards(self):
        """Every board from the start to the goal."""
        rows, cols = parse_size(self.size)
        return SlidingPuzzle(rows, cols, goal=self.goal).apply_moves(self.start, self.moves)

    def tiles(self):
        """The solution as the labels of the tiles moved (document 000's notation)."""
        rows, cols = parse_size(self.size)
        return SlidingPuzzle(rows, cols, goal=self.goal).tiles_moved(self.start, self.moves)

    def to_dict(self):
        d = asdict(self)
        if self.solutions is None:
            del d["solutions"]
        extra = d.pop("extra")
        d.update(extra)
        return d


@dataclass
class Layers:
    """What :func:`layers` found: ``counts[d]`` positions at depth ``d`` from ``start``."""

    size: str
    start: list
    counts: list
    total: int
    max_depth: int
    farthest: list
    n_farthest: int
    seconds: float
    compile_seconds: float
    table: np.ndarray = field(repr=False, default=None)
    threads: int = 1
    hash: str = ""
    _puzzle: SlidingPuzzle = field(repr=False, default=None)

    def depth(self, board):
        """Depth of ``board`` (moves from ``start``), or -1 if it is not reachable."""
        arr = self._puzzle.parse(board, what="board")
        d = int(self.table[int(self._puzzle.fns.rank(self._puzzle.encode(arr), self._puzzle.params))])
        return -1 if d == _layered_mod.UNSEEN else d

    def path_to(self, board):
        """Blank moves of a shortest path from ``start`` to ``board``, read back from the table."""
        arr = self._puzzle.parse(board, what="board")
        r = int(self._puzzle.fns.rank(self._puzzle.encode(arr), self._puzzle.params))
        moves = _layered_mod._walk_down(self.table, r, self._puzzle.fns, self._puzzle.params)
        return "".join(self._puzzle.move_names[m] for m in moves)

    def to_dict(self):
        return {
            "size": self.size,
            "start": self.start,
            "counts": self.counts,
            "total": self.total,
            "max_depth": self.max_depth,
            "farthest": self.farthest,
            "n_farthest": self.n_farthest,
            "seconds": self.seconds,
            "compile_seconds": self.compile_seconds,
            "threads": self.threads,
            "hash": self.hash,
            "table_bytes": int(self.table.nbytes) if self.table is not None else 0,
        }


# ---------------------------------------------------------------------------------------------
# compilation, timed apart
# ---------------------------------------------------------------------------------------------

_COMPILE_SECONDS = {}


#: Methods that share one kernel share its compile time.
_KERNEL_OF = {"bfs": "layered", "layers": "layered", "layered": "layered", "iddfs": "deepening",
              "idastar": "deepening", "astar": "astar", "greedy": "astar", "bidir": "bidir_keys",
              "bidir_keys": "bidir_keys", "bidir_table": "bidir_table", "bidir_states": "bidir"}


#: A tiny board for each hash variant, to compile its kernels on (same numba types as any
#: other board with that hash).
_WARM_GOALS = {
    "distinct": (2, 2, [1, 2, 3, 0]),
    "multiset": (2, 2, [1, 1, 2, 0]),
    "multiset-long": (4, 5, [1] * 19 + [0]),
    "sparse": (2, 2, [1, 1, 2, 0]),
    "linear-conflict": (2, 2, [1, 2, 3, 0]),
    "pdb": (2, 2, [1, 2, 3, 0]),
}


def _variant(puz):
    return {_sliding.FNS: "distinct", _sliding.FNS_MULTISET: "multiset",
            _sliding.FNS_SPARSE: "sparse", _sliding.FNS_LC: "linear-conflict",
            _sliding.FNS_PDB: "pdb"}.get(puz.fns, "multiset-long")


def _warm(kind, parallel=False, puz=None):
    """Compile the kernels of ``kind`` once per process on a tiny board with the same hash as
    ``puz`` (default: distinct tiles), and return the seconds compilation took in this
    process."""
    kind = _KERNEL_OF[kind]
    variant = "distinct" if puz is None else _variant(puz)
    key = (kind, parallel, variant)
    if key in _COMPILE_SECONDS:
        return _COMPILE_SECONDS[key]
    t0 = time.perf_counter()
    rows, cols, goal = _WARM_GOALS[variant]
    if variant == "pdb":
        puz = SlidingPuzzle(rows, cols, goal=goal, groups=[[1], [2, 3]], pdb_cache=False)
    else:
        puz = SlidingPuzzle(rows, cols, goal=goal, hash="sparse" if variant == "sparse" else "perfect",
                            heuristic="linear-conflict" if variant == "linear-conflict" else "manhattan")
    start = puz.encode(puz.goal[::-1].copy())
    goal = puz.encode(puz.goal)
    if kind == "layered":
        r0 = int(puz.fns.rank(goal, puz.params))
        _layered_mod.layered_bfs(  # every layer through the parallel kernel
            puz.fns, puz.params, puz.n_ranks, [r0], buckets=puz.buckets, kernel="lists",
            min_parallel_layer=1, kfns=puz.lkfns,
        )
        dist, _ = _layered_mod.layered_bfs(  # and the one-thread kernel for small layers
            puz.fns, puz.params, puz.n_ranks, [r0], buckets=puz.buckets, kernel="lists",
            kfns=puz.lkfns,
        )
        _layered_mod._walk_down(dist, int(np.argmax(dist)), puz.fns, puz.params)
        _layered_mod._ranks_at_depth(dist, 1, 4)
        _layered_mod._count_reached(dist)
        if parallel:  # the table scan, for domains without buckets
            _layered_mod._layer_parallel(dist, 0, puz.fns, puz.params)
    elif kind == "deepening":
        if parallel:
            _ida_mod._split_pass(start, 0, 4, puz.dfs_fns, puz.params, True,
                                 np.empty(8, np.int64), _ida_mod.SPLIT_SUBTREES, puz.cfns)
        else:
            _ida_mod.iterative_deepening(start, puz.dfs_fns, puz.params, 0, True, 20,
                                         cfns=puz.cfns)
    elif kind in ("bidir", "bidir_table", "bidir_keys"):  # with the arguments solve() gives
        b0 = _blank_distance(puz, puz.goal[::-1]) % 2
        if kind == "bidir":
            _bidir_mod._bidirectional(start, goal, puz.fns, puz.params, 20, 1000, False, b0)
        elif kind == "bidir_table":
            _bidir_mod._bidirectional_table(start, goal, puz.fns, puz.params, puz.n_ranks, 20,
                                            1000, b0)
        else:
            _bidir_mod._bidirectional_keys(start, goal, puz.fns, puz.kfns, puz.params, 20, 1000,
                                           b0)
    elif kind == "astar":
        _astar_mod.astar(start, puz.fns, puz.params, 1, 1000)
    else:
        raise ValueError(kind)
    _COMPILE_SECONDS[key] = time.perf_counter() - t0
    return _COMPILE_SECONDS[key]


def compile_seconds(method):
    """Seconds spent compiling ``method``'s kernels in this process (compiling them now if
    needed), for the 8-puzzle's kind of board (``bidir``: the kernel over 64-bit keys, for
    boards of at most 15 cells; ``bidir_table``: the one over distance tables, for larger
    boards with a small perfect hash; ``bidir_states``: the one over whole states)."""
    return _warm(method)


# ---------------------------------------------------------------------------------------------
# progress
# ---------------------------------------------------------------------------------------------


def _progress_bar(total, enabled, desc):
    """A tqdm bar over positions (depth in the description), or None."""
    if not enabled:
        return None, None
    from tqdm.auto import tqdm

    # redrawn at most once a second: a notebook keeps every redraw in its saved output
    bar = tqdm(total=total, unit="pos", unit_scale=True, desc=desc, leave=False, mininterval=1.0)

    def update(depth, count, so_far):
        bar.set_description(f"{desc}: depth {depth}", refresh=False)
        bar.update(count)

    return bar, update


def _deepening_progress(progress, desc):
    """``(bar, report)`` for iterative deepening, which calls ``report(bound, nodes so far)``
    after each pass: a callable ``progress`` is that report itself (no bar); a true one gives
    a tqdm bar of nodes with the last bound done; else ``(None, None)``."""
    if callable(progress):
        return None, progress
    if not progress:
        return None, None
    from tqdm.auto import tqdm

    bar = tqdm(desc=desc, unit=" nodes", unit_scale=True, leave=False, mininterval=1.0)

    def report(bound, so_far):
        bar.update(so_far - bar.n)
        bar.set_description(f"{desc}: bound {bound} done", refresh=False)

    return bar, report


def _auto_progress(progress, n):
    return n >= 20_000_000 if progress is None else bool(progress)


# ---------------------------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------------------------


def _table_for(puz):
    n = puz.n_ranks
    memory.check_fits(n, f"the {puz.size} distance table ({n:,} positions, one byte each)")
    return n


def layers(start, size="3x3", progress=None, farthest_limit=FARTHEST_LIMIT, threads=None,
           hash="perfect"):
    """Breadth-first search over every position reachable from ``start`` (God's algorithm).

    Labels may repeat (indistinguishable tiles): the board picks its minimal perfect hash,
    ``n!/2`` positions for distinct tiles, ``n!/prod(multiplicity!)`` otherwise.
    Returns a :class:`Layers`: positions per depth, the greatest depth and the positions there
    (at most ``farthest_limit`` of them; ``n_farthest`` is the exact count), and the distance
    table, which answers ``depth(board)`` and ``path_to(board)`` afterwards.
    ``progress``: show a bar per depth (``None``: only for tables of 20 million or more).
    ``threads``: how many threads expand each layer (``None``: all of numba's threads); the
    counts are exact whatever the number.
    ``hash``: ``"perfect"`` (default) or ``"sparse"``, a direct index with a few bits a cell:
    no ranking work but a far larger table, searched on one thread (for comparison).
    """
    rows, cols = parse_size(size)
    start_arr = parse_board(start, rows, cols, what="start")
    puz = SlidingPuzzle(rows, cols, goal=start_arr, heuristic="none", hash=hash)
    n = _table_for(puz)
    n_threads = _threads(threads)  # (checked before anything is compiled or shown)
    comp = _warm("layered", puz=puz)
    bar, update = _progress_bar(n, _auto_progress(progress, n), f"{puz.size} layers")
    saved = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    try:
        t0 = time.perf_counter()
        r0 = int(puz.fns.rank(puz.encode(start_arr), puz.params))
        dist, counts = _layered_mod.layered_bfs(
            puz.fns, puz.params, n, [r0], progress=update, buckets=puz.buckets, kernel="lists",
            kfns=puz.lkfns,
        )
    finally:
        numba.set_num_threads(saved)
    max_depth = len(counts) - 1
    ranks, n_far = _layered_mod._ranks_at_depth(dist, max_depth, farthest_limit)
    state = np.empty(puz.state_len, dtype=np.uint8)
    farthest = []
    for r in ranks:
        puz.fns.unrank(int(r), puz.params, state)
        farthest.append(puz.decode(state))
    seconds = time.perf_counter() - t0
    if bar is not None:
        bar.refresh()  # the last depth or bound, whatever the interval
        bar.close()
    return Layers(
        size=puz.size,
        start=[int(x) for x in start_arr],
        counts=counts,
        total=int(sum(counts)),
        max_depth=max_depth,
        farthest=farthest,
        n_farthest=int(n_far),
        seconds=seconds,
        compile_seconds=comp,
        table=dist,
        threads=n_threads,
        hash=puz.hash_name,
        _puzzle=puz,
    )


# ---------------------------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------------------------

#: Bidirectional search runs over 64-bit keys on boards of at most 15 cells
#: (:func:`~puzzlelib.search.bidirectional._bidirectional_keys`). On larger boards it runs over
#: two distance tables (one byte a position per side, see
#: :func:`~puzzlelib.search.bidirectional._bidirectional_table`) when the board's perfect hash
#: has at most this many positions, else over hash sets of whole states. 2**24 positions are
#: two tables of 16 MiB: filling them costs a few milliseconds, less than a hash-set search
#: that goes a fair way, and nothing near the memory of a machine. Above it the tables'
#: set-up would outweigh short searches and their memory would grow without bound (4x4 with
#: distinct tiles: 10**13 positions), while the hash sets only hold what the search stores.
BIDIR_TABLE_MAX_RANKS = 1 << 24

#: Bidirectional search runs over 64-bit keys on boards of at most this many cells (all that
#: have keys; on the 8-puzzle's start 0.5 ms against 0.8 ms over distance tables).
BIDIR_KEY_MAX_CELLS = _sliding.KEY_MAX_CELLS


def _layer_sizes(ends):
    """Positions per depth from a bidirectional side's layer ends (``ends[k]``: positions of
    depth ``<= k``), as a list (a short array: plain Python is quicker than ``np.diff`` here)."""
    e = ends.tolist()
    return e[:1] + [b - a for a, b in zip(e, e[1:])]


def _bidir_table_ranks(puz):
    """``puz.n_ranks`` when bidirectional search should use two distance tables: the board has
    a perfect hash (not one too large for 64 bits), at most :data:`BIDIR_TABLE_MAX_RANKS`
    positions and both tables fit in the memory available (:mod:`puzzlelib.memory`). Else
    None: search on whole states, as for puzzles without a perfect hash."""
    if puz.hash != "perfect":
        return None
    try:
        n = puz.n_ranks
    except PuzzleError:  # too many positions to rank in 64 bits
        return None
    if n > BIDIR_TABLE_MAX_RANKS:
        return None
    try:
        memory.check_fits(2 * n, f"the two {puz.size} distance tables of bidirectional search")
    except PuzzleError:
        return None
    return n



def solve(
    start,
    size="3x3",
    goal=None,
    method="idastar",
    all_solutions=False,
    max_states=DEFAULT_MAX_STATES,
    max_bound=DEFAULT_MAX_BOUND,
    node_limit=0,
    progress=None,
    threads=1,
    heuristic="manhattan",
    groups=None,
    reflect=None,
):
    """Solve a sliding-tile puzzle optimally (or greedily with ``method="greedy"``).

    ``method``: ``bfs`` (layered BFS over the rank table, path read back from it), ``bidir``
    (bidirectional BFS), ``iddfs`` (iterative deepening, bound stepped by 2), ``idastar``
    (IDA*), ``astar`` (A*) or ``greedy`` (best-first on the heuristic alone: fast, not optimal).
    ``heuristic`` (for ``idastar``, ``astar`` and ``greedy``): ``manhattan`` (default),
    ``linear-conflict``, or the additive pattern databases ``pdb555``, ``pdb663``, ``pdb78`` of
    the 15-puzzle (or ``groups``, lists of tile labels, on any board); ``reflect`` adds the
    mirrored lookup (default: where the board allows it). Databases are built on first use
    (``pdb78``: minutes) and cached on disk; the time it took to get them is reported apart as
    ``pdb_seconds``, like ``compile_seconds``.
    ``all_solutions``: with ``iddfs`` or ``idastar``, count every optimal solution.
    ``progress``: show a bar (depth per layer for ``bfs`` on large tables, bound per pass for
    ``iddfs``/``idastar``); ``None`` shows it only for tables of 20 million positions or more.
    ``max_states`` caps the states stored by ``astar``, ``greedy`` and ``bidir``; ``max_bound``
    and ``node_limit`` cap iterative deepening. Reaching a cap raises
    :class:`~puzzlelib.errors.SearchLimitError`.
    ``threads``: with more than one (``None``: all of numba's threads), iterative deepening
    shares each pass's subtrees among them: about 2x on 2 cores, identical results (node counts
    too when counting all solutions), but its parallel kernel costs a few seconds more to
    compile, once per process, which only long searches repay.
    """
    if method not in METHODS:
        raise PuzzleError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if all_solutions and method not in COUNTING_METHODS:
        raise PuzzleError(
            f"counting all optimal solutions needs method iddfs or idastar, not {method}"
        )
    rows, cols = parse_size(size)
    if groups is not None and heuristic == "manhattan":
        heuristic = "pdb"
    informed = ("idastar", "astar", "greedy")
    if method not in informed and (heuristic != "manhattan" or reflect is not None):
        raise PuzzleError(
            f"method {method} uses no heuristic; heuristics apply to {', '.join(informed)}"
        )
    if method == "iddfs":
        heuristic = "none"
    if heuristic.startswith("pdb"):  # the start is checked before its databases are built
        SlidingPuzzle(rows, cols, goal=goal, heuristic="none").parse(start, what="start")
    t_pdb = time.perf_counter()
    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic=heuristic, groups=groups,
                        reflect=reflect, pdb_progress=True if progress is None else progress)
    pdb_seconds = time.perf_counter() - t_pdb
    start_arr = puz.parse(start, what="start")
    s = puz.encode(start_arr)
    g = puz.encode(puz.goal)
    extra = {}
    solutions = None
    if method == "bfs":
        n = _table_for(puz)
        comp = _warm("layered", puz=puz)
        bar, update = _progress_bar(n, _auto_progress(progress, n), f"{puz.size} bfs")
        t0 = time.perf_counter()
        rs = int(puz.fns.rank(s, puz.params))
        rg = int(puz.fns.rank(g, puz.params))
        dist, counts = _layered_mod.layered_bfs(
            puz.fns, puz.params, n, [rs], stop_rank=rg, progress=update, buckets=puz.buckets,
            kfns=puz.lkfns,
        )
        path = _layered_mod._walk_down(dist, rg, puz.fns, puz.params)
        nodes = int(_layered_mod._count_reached(dist))
        seconds = time.perf_counter() - t0
        if bar is not None:
            bar.refresh()  # the last depth or bound, whatever the interval
            bar.close()
        extra["counts"] = counts
    elif method == "bidir":
        keys = puz.kfns is not None and puz.n_cells <= BIDIR_KEY_MAX_CELLS
        n_table = None if keys else _bidir_table_ranks(puz)
        # every path has the parity of the blank's distance, and none is shorter than the
        # Manhattan distance: the layers that cannot meet skip their lookups
        bound0 = _blank_distance(puz, start_arr) % 2
        max_bound, max_states = int(max_bound), int(max_states)
        # the kernels are called without typing their arguments again (call_direct): for one
        # bundle of domain functions, the arguments' types are the same on every call
        # (tests/test_bidir_table.py checks it on every kind of board)
        direct = (id(puz.fns), id(puz.kfns), type(puz.params))
        if keys:  # positions as 64-bit keys
            comp = _warm("bidir_keys", puz=puz)
            t0 = time.perf_counter()
            status, path, ends_f, ends_b, used = call_direct(
                _bidir_mod._bidirectional_keys, direct,
                s, g, puz.fns, puz.kfns, puz.params, max_bound, max_states, bound0,
            )
        elif n_table is not None:
            comp = _warm("bidir_table", puz=puz)
            t0 = time.perf_counter()
            status, path, ends_f, ends_b, used = call_direct(
                _bidir_mod._bidirectional_table, direct,
                s, g, puz.fns, puz.params, int(n_table), max_bound, max_states, bound0,
            )
        else:
            comp = _warm("bidir_states", puz=puz)
            t0 = time.perf_counter()
            status, path, ends_f, ends_b, used = call_direct(
                _bidir_mod._bidirectional, direct,
                s, g, puz.fns, puz.params, max_bound, max_states, False, bound0,
            )
        seconds = time.perf_counter() - t0
        if status == _bidir_mod.STATE_LIMIT:
            raise SearchLimitError(
                f"bidirectional search stopped at {max_states:,} stored states "
                f"({used / 2**20:.0f} MiB) without meeting; raise max_states"
            )
        nodes = int(ends_f[-1] + ends_b[-1])
        extra["forward_counts"] = _layer_sizes(ends_f)
        extra["backward_counts"] = _layer_sizes(ends_b)
        extra["memory_bytes"] = int(used)
        if status != _bidir_mod.FOUND:
            path = None
    elif method in ("iddfs", "idastar"):
        n_threads = _threads(threads)
        parallel = n_threads > 1
        comp = _warm(method, parallel, puz=puz)
        # every solution has the parity of the blank's distance to its goal cell
        bound0 = _blank_distance(puz, start_arr) % 2
        bar, report = _deepening_progress(progress, method)
        saved = numba.get_num_threads()
        numba.set_num_threads(n_threads)
        try:
            t0 = time.perf_counter()
            status, length, sols, nodes, path, iterations, first = _ida_mod.iterative_deepening(
                s, puz.dfs_fns, puz.params, bound0, all_solutions, max_bound, node_limit,
                parallel=parallel, progress=report, cfns=puz.cfns,
            )
            seconds = time.perf_counter() - t0
        finally:
            numba.set_num_threads(saved)
            if bar is not None:
                bar.refresh()  # the last depth or bound, whatever the interval
                bar.close()
        if status == _ida_mod.NODE_LIMIT:
            raise SearchLimitError(f"{method} stopped at its node limit ({node_limit:,} nodes)")
        if status != _ida_mod.FOUND:
            raise SearchLimitError(f"{method} found no solution within bound {max_bound}")
        extra["iterations"] = int(iterations)
        extra["threads"] = n_threads
        extra["initial_bound"] = int(first)
        if all_solutions:
            solutions = int(sols)
    else:  # astar, greedy
        comp = _warm(method, puz=puz)
        t0 = time.perf_counter()
        status, path, stored, expanded, used = _astar_mod.astar(
            s, puz.fns, puz.params, 1 if method == "astar" else 0, max_states
        )
        seconds = time.perf_counter() - t0
        if status == _astar_mod.STATE_LIMIT:
            raise SearchLimitError(
                f"{method} stopped at {max_states:,} stored states "
                f"({used / 2**20:.0f} MiB) without reaching the goal; raise max_states"
            )
        nodes = int(stored)
        extra["expanded"] = int(expanded)
        extra["memory_bytes"] = int(used)
        if status != _astar_mod.FOUND:
            path = None
    if method in informed:
        extra["heuristic"] = puz.heuristic if groups is None else "pdb"
        extra["initial_h"] = int(puz.start_h(s))
        if puz.pdbs:
            extra["reflect"] = puz.reflect
            extra["pdb_seconds"] = pdb_seconds
    if path is None:
        length, moves = -1, ""
    else:
        length = int(len(path))
        moves = "".join([puz.move_names[m] for m in path.tolist()])
    return Solution(
        size=puz.size,
        method=method,
        start=[int(x) for x in start_arr],
        goal=[int(x) for x in puz.goal],
        length=length,
        moves=moves,
        nodes=int(nodes),
        seconds=seconds,
        compile_seconds=comp,
        solutions=solutions,
        extra=extra,
    )


@dataclass
class Batch:
    """What :func:`solve_many` found: per start, the optimal ``lengths``, the blank ``moves``
    and the ``nodes`` generated; ``seconds`` is the wall time of the whole batch."""

    size: str
    goal: list
    heuristic: str
    starts: list
    lengths: list
    moves: list
    nodes: list
    seconds: float
    compile_seconds: float
    pdb_seconds: float
    threads: int

    def to_dict(self):
        return asdict(self)


def solve_many(starts, size="4x4", goal=None, heuristic="manhattan", groups=None, reflect=None,
               threads=None, max_bound=DEFAULT_MAX_BOUND, progress=None):
    """Solve many boards optimally by IDA*, one board per thread at a time, each thread taking
    the next board as it comes free (the right way to use several cores on many small
    searches, such as Korf's 100 with a pattern database, where sharing one search's subtrees
    among threads costs more than it saves). A board whose passes grow big (a pass of
    :data:`~puzzlelib.search.idastar.HAND_OVER_NODES` nodes or more) is put aside and finished
    afterwards with each pass's subtrees shared among the threads, so that a big search left
    to the end never keeps one thread busy alone.

    Same heuristics as :func:`solve`; ``threads``: ``None`` for all of numba's threads. Every
    start is validated first (a bad one raises :class:`PuzzleError` naming it)."""
    rows, cols = parse_size(size)
    n_threads = _threads(threads)
    if groups is not None and heuristic == "manhattan":
        heuristic = "pdb"
    plain = SlidingPuzzle(rows, cols, goal=goal, heuristic="none")
    for i, b in enumerate(starts):  # every start checked before any database is built
        plain.parse(b, what=f"start {i}")
    t_pdb = time.perf_counter()
    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic=heuristic, groups=groups,
                        reflect=reflect, pdb_progress=True if progress is None else progress)
    pdb_seconds = time.perf_counter() - t_pdb
    boards = [puz.parse(b, what=f"start {i}") for i, b in enumerate(starts)]
    if not boards:
        raise PuzzleError("no starts given")
    states = np.stack([puz.encode(b) for b in boards])
    bound0s = [_blank_distance(puz, b) % 2 for b in boards]
    key = ("batch", _variant(puz))
    if key not in _COMPILE_SECONDS:
        t0 = time.perf_counter()
        _ida_mod.deepen_many(states[:1], bound0s[:1], puz.dfs_fns, puz.params, 0, 1, puz.cfns)
        _COMPILE_SECONDS[key] = time.perf_counter() - t0
    # a big search is handed over to passes shared among the threads: compiled apart too
    compile_seconds = _COMPILE_SECONDS[key] + (
        _warm("idastar", True, puz=puz) if n_threads > 1 else 0.0)
    t0 = time.perf_counter()
    lengths, nodes, paths = _ida_mod.deepen_many(states, bound0s, puz.dfs_fns, puz.params,
                                                 max_bound, n_threads, puz.cfns)
    seconds = time.perf_counter() - t0
    if (lengths < 0).any():
        bad = int(np.flatnonzero(lengths < 0)[0])
        raise SearchLimitError(f"start {bad}: no solution within bound {max_bound}")
    moves = ["".join(puz.move_names[int(m)] for m in paths[i, : lengths[i]])
             for i in range(len(boards))]
    return Batch(
        size=puz.size, goal=[int(x) for x in puz.goal], heuristic=puz.heuristic,
        starts=[[int(x) for x in b] for b in boards], lengths=lengths.tolist(), moves=moves,
        nodes=nodes.tolist(), seconds=seconds, compile_seconds=compile_seconds,
        pdb_seconds=pdb_seconds, threads=n_threads,
    )


def _threads(threads):
    n = numba.get_num_threads() if threads is None else int(threads)
    if n < 1:
        raise PuzzleError(f"threads must be at least 1, not {threads}")
    return min(n, numba.config.NUMBA_NUM_THREADS)


def _blank_distance(puz, board):
    b = int(np.flatnonzero(np.asarray(board) == 0)[0])
    bg = int(np.flatnonzero(puz.goal == 0)[0])
    return abs(b // puz.cols - bg // puz.cols) + abs(b % puz.cols - bg % puz.cols)


# ---------------------------------------------------------------------------------------------
# the Rotation Puzzle (document 003)
# ---------------------------------------------------------------------------------------------

#: The contest's limit: answers above it are reported as -1.
ROTATION_MAX_OPS = 20
ROTATION_METHODS = ("bidir", "bfs")


@dataclass
class RotationResult:
    """What :func:`rotation` found. ``length`` is -1 when the sorted grid is more than
    ``max_ops`` operations away (or cannot be reached at all); ``operations`` are the corners
    ``(x, y)`` of the turned sub-rectangles, in order."""

    rows: int
    cols: int
    grid: list
    method: str
    max_ops: int
    length: int
    operations: list
    forward_counts: list
    backward_counts: list
    states: int
    memory_bytes: int
    seconds: float
    compile_seconds: float

    def grids(self):
        """Every grid from the start to the sorted one (flat lists)."""
        return RotationPuzzle(self.rows, self.cols).apply(self.grid, self.operations)

    def to_dict(self):
        return asdict(self)


_ROTATION_COMPILE = {}


def _warm_rotation():
    if "bidir" not in _ROTATION_COMPILE:
        t0 = time.perf_counter()
        puz = RotationPuzzle(3, 3)
        g = puz.goal_state()
        s = g.copy()
        puz.fns.step(s, 0, puz.params)
        _bidir_mod._bidirectional(s, g, puz.fns, puz.params, 4, 1000, False)
        _ROTATION_COMPILE["bidir"] = time.perf_counter() - t0
    return _ROTATION_COMPILE["bidir"]


def rotation(grid, rows=None, cols=None, max_ops=ROTATION_MAX_OPS, method="bidir",
             max_states=DEFAULT_MAX_STATES):
    """Fewest operations that sort a Rotation Puzzle grid (AtCoder ABC336 F), or -1 if more
    than ``max_ops`` are needed.

    ``grid``: a list of rows, or a flat sequence with ``rows`` and ``cols``.
    ``method``: ``bidir`` (bidirectional BFS, up to ``max_ops`` levels in all, always
    expanding the smaller frontier) or ``bfs`` (one-directional BFS from the start, the
    baseline). Both store whole states, so a hash collision can never give a wrong answer.
    ``max_states`` caps the stored states (:class:`~puzzlelib.errors.SearchLimitError`).
    """
    if method not in ROTATION_METHODS:
        raise PuzzleError(f"unknown method {method!r}: use bidir or bfs")
    if int(max_ops) < 0:
        raise PuzzleError(f"max_ops must be at least 0, not {max_ops}")
    rows, cols, values = parse_rotation_grid(grid, rows, cols)
    puz = RotationPuzzle(rows, cols)
    comp = _warm_rotation()
    s = puz.encode(values)
    g = puz.goal_state()
    t0 = time.perf_counter()
    status, path, ends_f, ends_b, used = _bidir_mod._bidirectional(
        s, g, puz.fns, puz.params, int(max_ops), int(max_states), method == "bfs"
    )
    seconds = time.perf_counter() - t0
    if status == _bidir_mod.STATE_LIMIT:
        raise SearchLimitError(
            f"{method} stopped at {max_states:,} stored states ({used / 2**20:.0f} MiB) "
            f"before settling the answer; raise max_states"
        )
    found = status == _bidir_mod.FOUND
    ops = [list(_rotation_ops[int(m)]) for m in path] if found else []
    return RotationResult(
        rows=rows,
        cols=cols,
        grid=values,
        method=method,
        max_ops=int(max_ops),
        length=len(ops) if found else -1,
        operations=ops,
        forward_counts=_layer_sizes(ends_f),
        backward_counts=_layer_sizes(ends_b),
        states=int(ends_f[-1] + ends_b[-1]),
        memory_bytes=int(used),
        seconds=seconds,
        compile_seconds=comp,
    )
