"""The public API for block puzzles (Hakoiri-musume type, source document 004).

>>> from puzzlelib.blocks import CLASSIC, block_layers, block_solve
>>> block_layers(CLASSIC, metric="path").total
25955
>>> block_solve(CLASSIC, metric="path").length
81

Boards are text (one line per row, a letter per piece, ``.`` empty; see
:mod:`puzzlelib.domains.blocks`). ``metric`` is ``unit``, ``straight`` (the default: the one
document 004's relaxation rule implies) or ``path``. Searches report ``seconds`` (the search
alone) apart from ``compile_seconds`` (numba compiling the kernels, once per process).
"""

import time
from dataclasses import asdict, dataclass, field


import numpy as np

from .pdb import blocks as _bpdb
from .api import _deepening_progress, _progress_bar
from .core.contract import ILLEGAL
from .domains.blocks import FRONTIER, FNS, MV_INV, BlockPuzzle, render
from .core.errors import PuzzleError, SearchLimitError
from .search import astar as _astar_mod
from .search import idastar as _ida_mod
from .search.frontier import frontier_bfs

#: The classic Hakoiri-musume start (5 rows x 4 columns): the daughter must reach the bottom
#: centre (row 3, column 1).
CLASSIC = "ABBC\nABBC\nDEEF\nDGHF\nI..J"
METHODS = ("bfs", "astar", "idastar")
DEFAULT_MAX_STATES = 50_000_000
DEFAULT_MAX_BOUND = 254
#: Positions IDA*'s transposition table may record in one pass (it starts small and grows
#: as passes fill it): at most about 75 bytes each on a 7x8 board.
DEFAULT_TRANSPOSITIONS = 1 << 22


def _progress(progress, desc):
    """A per-layer progress callback: None, a callable, or True for the library's tqdm bar
    (positions so far, the depth in its description)."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    return _progress_bar(None, True, desc)[1]


_COMPILED = {}


def _warm(kind):
    """Compile the kernels ``kind`` needs on a tiny board; return the seconds it took (0 when
    already done in this process)."""
    if kind in _COMPILED:
        return 0.0
    t0 = time.perf_counter()
    tiny = BlockPuzzle("DD.\nDDa", metric="straight", goal=(0, 1))
    if kind == "bfs":
        frontier_bfs(FNS, tiny.params, tiny.encode(), stop_at_goal=True, ffns=FRONTIER)
        frontier_bfs(FNS, tiny.params, tiny.encode(), ffns=FRONTIER)
    elif kind == "astar":
        _astar_mod.astar(tiny.encode(), FNS, tiny.params, 1, 100, ffns=FRONTIER)
    else:
        for table in (0, 16):  # plain, and with a transposition table
            _ida_mod.iterative_deepening(tiny.encode(), FNS, tiny.params, 0, False, 4,
                                         ffns=FRONTIER, transpositions=table)
    _COMPILED[kind] = time.perf_counter() - t0
    return _COMPILED[kind]


@dataclass
class BlockLayers:
    """Positions per depth from a start (``counts[d]``), and the farthest ones as text."""

    size: str
    metric: str
    counts: list
    total: int
    max_depth: int
    farthest: list
    n_farthest: int
    seconds: float
    compile_seconds: float
    memory_bytes: int

    def to_dict(self):
        return asdict(self)


def block_layers(board, metric="straight", progress=None, farthest_limit=1000):
    """Breadth-first search from ``board`` to exhaustion (frontier search: three layers held at
    a time): positions per depth, and the positions at the greatest depth."""
    puz = BlockPuzzle(board, metric=metric, goal=False)
    comp = _warm("bfs")
    res = frontier_bfs(FNS, puz.params, puz.encode(), progress=_progress(progress, "layers"),
                       ffns=FRONTIER)
    counts = [int(c) for c in res.counts]
    far = [render(s, puz.rows, puz.cols) for s in res.last[:farthest_limit]]
    return BlockLayers(puz.size, metric, counts, int(sum(counts)), len(counts) - 1, far,
                       int(len(res.last)), res.seconds, comp, int(res.peak_bytes))


@dataclass
class BlockSolution:
    """An optimal solution (``length`` moves, or -1 when the goal cannot be reached). ``moves``
    lists each move as the moving piece's top-left cell before and after: ``[[r, c], [r1, c1]]``."""

    size: str
    metric: str
    method: str
    goal: list
    start: str
    length: int
    moves: list
    nodes: int
    seconds: float
    compile_seconds: float
    extra: dict = field(default_factory=dict)

    def boards(self):
        """Every board from the start to the goal, as text."""
        puz = BlockPuzzle(self.start, metric=self.metric, goal=tuple(self.goal))
        return [puz.render(s) for s in puz.replay(self.moves)]

    def to_dict(self):
        d = asdict(self)
        d.update(d.pop("extra"))
        return d


def _pdb_names(pdb):
    if pdb is None:
        return []
    if isinstance(pdb, str):
        return [t for t in pdb.replace(" ", "").split(",") if t]
    return list(pdb)


def block_solve(board, goal=None, metric="straight", method="bfs", pdb=None, progress=None,
                max_states=DEFAULT_MAX_STATES, max_bound=DEFAULT_MAX_BOUND, pdb_cache=True,
                node_limit=0, transpositions=DEFAULT_TRANSPOSITIONS):
    """An optimal solution of ``board`` (the daughter to ``goal``) under ``metric``.

    ``method``: ``bfs`` (frontier search, all layers kept for the path), ``astar`` or
    ``idastar``; ``pdb``: a database name such as ``36-0-0-f`` or several (a list, or names
    joined by commas; the heuristic is their maximum), for A* and IDA* (0 without one).
    ``node_limit`` (IDA*; 0: none): stop with :class:`SearchLimitError` after that many nodes
    (a ``progress`` callable has seen every finished pass by then). ``transpositions`` (IDA*):
    the most positions its transposition table records in a pass, so that a position reached
    again by another order of the same moves is not searched twice (0: plain IDA*, which on
    the larger boards searches the same positions over and over; see
    :mod:`puzzlelib.search.idastar`)."""
    if method not in METHODS:
        raise PuzzleError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    names = _pdb_names(pdb)
    if names and method == "bfs":
        raise PuzzleError("a pattern database guides A* or IDA*, not breadth-first search")
    if not isinstance(transpositions, (int, np.integer)) or transpositions < 0:
        raise PuzzleError(f"transpositions must be a whole number of positions, 0 or more, "
                          f"not {transpositions!r}")
    puz = BlockPuzzle(board, metric=metric, goal=goal)
    extra = {}
    if names:
        t0 = time.perf_counter()
        dbs = [_bpdb.block_pdb(puz, nm, progress=_progress(progress, f"PDB {nm}"),
                               cache=pdb_cache) for nm in names]
        puz.with_heuristic(_bpdb.heuristic_fields(dbs, puz.rows, puz.cols))
        extra["pdb"] = names
        extra["pdb_seconds"] = time.perf_counter() - t0
        extra["patterns"] = [db.patterns for db in dbs]
    s = puz.encode()
    if names:
        extra["initial_h"] = int(s[-1])
    comp = _warm(method)
    moves = None
    if method == "bfs":
        try:
            res = frontier_bfs(FNS, puz.params, s, stop_at_goal=True, ffns=FRONTIER,
                               progress=_progress(progress, "bfs"), max_states=max_states)
        except MemoryError as e:
            raise SearchLimitError(f"{e}; raise max_states, or use astar/idastar with a PDB") from None
        seconds = res.seconds
        nodes = res.total
        moves = res.moves
        extra["counts"] = [int(c) for c in res.counts]
        extra["memory_bytes"] = int(res.peak_bytes)
    elif method == "astar":
        t0 = time.perf_counter()
        status, path, stored, expanded, used = _astar_mod.astar(s, FNS, puz.params, 1, max_states,
                                                                ffns=FRONTIER)
        seconds = time.perf_counter() - t0
        if status == _astar_mod.STATE_LIMIT:
            raise SearchLimitError(f"A* stopped at {max_states:,} stored states "
                                   f"({used / 2**20:.0f} MiB); raise max_states")
        nodes = int(expanded)
        extra["stored"] = int(stored)
        extra["memory_bytes"] = int(used)
        moves = [int(m) for m in path] if status == _astar_mod.FOUND else None
    else:
        if callable(progress):  # called as for the layers: (bound, nodes of the pass, in all)
            bar, done = None, [0]

            def report(bound, so_far):
                progress(bound, so_far - done[0], so_far)
                done[0] = so_far
        else:
            bar, report = _deepening_progress(progress, "IDA*")
        try:
            t0 = time.perf_counter()
            status, length, _, nodes, path, iterations, first = _ida_mod.iterative_deepening(
                s, FNS, puz.params, 0, False, max_bound, node_limit, progress=report,
                ffns=FRONTIER, transpositions=int(transpositions))
            seconds = time.perf_counter() - t0
        finally:
            if bar is not None:
                bar.refresh()
                bar.close()
        if status == _ida_mod.NODE_LIMIT:
            raise SearchLimitError(f"IDA* stopped at its node limit ({node_limit:,} nodes, "
                                   f"{nodes:,} generated, bound {first + iterations - 1})")
        nodes = int(nodes)
        extra["iterations"] = int(iterations)
        extra["transpositions"] = int(transpositions)
        moves = [int(m) for m in path] if status == _ida_mod.FOUND else None
    out = []
    if moves is not None:
        t = s.copy()
        for m in moves:
            before, after = puz.describe_move(m)
            out.append([list(before), list(after)])
            puz.fns.step(t, m, puz.params)
        if not puz.is_goal(t):  # a defect, never a user error
            raise RuntimeError("internal error: the solution found does not reach the goal")
    return BlockSolution(puz.size, metric, method, list(puz.goal), puz.render(),
                         len(out) if moves is not None else -1, out, nodes, seconds, comp, extra)


def block_pdb(board, name, goal=None, metric="straight", progress=None, cache=True):
    """Pattern database ``name`` (e.g. ``16-10-0-l``) for ``board``'s pieces, goal and metric
    (see :mod:`puzzlelib.blockpdb`): from memory, the disk cache, or built."""
    puz = BlockPuzzle(board, metric=metric, goal=goal)
    return _bpdb.block_pdb(puz, name, progress=_progress(progress, f"PDB {name}"), cache=cache)


def block_pdbs(board, names, goal=None, metric="straight", progress=None, cache=True):
    """The pattern databases ``names`` for ``board`` (a list, in that order), like
    :func:`block_pdb`; those to be built that relax the board alike, such as ``16-10-0-l``,
    ``16-10-0-c`` and ``16-10-0-b``, are built by one search, mapped three ways."""
    puz = BlockPuzzle(board, metric=metric, goal=goal)
    return _bpdb.block_pdbs(puz, list(names), progress=_progress(progress, "PDBs"), cache=cache)


__all__ = ["CLASSIC", "METHODS", "BlockLayers", "BlockSolution", "block_layers", "block_pdb",
           "block_pdbs", "block_solve", "random_instances", "random_walk_starts"]


def random_walk_starts(board, n, walk, goal=None, metric="straight", seed=0, rng=None):
    """``n`` boards reached from ``board`` by ``walk`` random moves each (never straight back
    unless it is the only move), from a fixed ``seed``: their distance to ``board`` is at most
    ``walk``. Returns the boards as text."""
    puz = BlockPuzzle(board, metric=metric, goal=False)
    rng = np.random.default_rng(seed) if rng is None else rng
    p = puz.params
    out = []
    for _ in range(n):
        s = puz.encode()
        back = -1
        for _ in range(walk):
            legal = []
            for m in range(p.n_moves):
                t = s.copy()
                if m != back and FNS.step(t, m, p) != ILLEGAL:
                    legal.append(m)
            if not legal:  # a dead end: the only move is back
                legal = [back]
            m = int(rng.choice(legal))
            FNS.step(s, m, p)
            back = int(p.mv[m, MV_INV])
        out.append(puz.render(s))
    return out


def random_instances(board, n, near=(15, 40), walk=10, goal=None, metric="straight", seed=0,
                     pdb="36-0-0-f"):
    """Random instances in the spirit of document 004's last experiment, built so that plain
    BFS can still solve them: a position ``k`` moves from the goal on an optimal solution of
    ``board`` (``k`` drawn uniformly from ``near``), then ``walk`` random moves from it.
    (Random walks from a goal position hardly move the daughter at all: after 1,000 moves most
    were still within 10 moves of the goal.) Returns the boards as text."""
    sol = block_solve(board, goal=goal, metric=metric, method="astar", pdb=pdb)
    path = sol.boards()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(near[0], near[1] + 1))
        out += random_walk_starts(path[max(0, len(path) - 1 - k)], 1, walk, metric=metric, rng=rng)
    return out
