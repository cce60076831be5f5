"""What :func:`~puzzlelib.solve`, :func:`~puzzlelib.layers` and :func:`~puzzlelib.solve_many`
will run, decided in one place: one planner per call (:func:`plan_solve`, :func:`plan_layers`,
:func:`plan_many`) returns a :class:`Plan`, and the API only executes it.

A plan names the kernel (the function of :mod:`puzzlelib.search` that runs, and its branch),
the table it keeps (``bytes``, ``packed``, ``keys``, ``states`` or ``none``), the heuristic and
what it is built from (which pattern databases, cached or to be built), the threads, the memory
it needs and how that was worked out, the backend (``cpu``, ``dask``, ``cuda``), the pruning
and move order of the deepening searches, and why. Making a plan checks everything the search
would check before it starts (the same one-line :class:`~puzzlelib.PuzzleError`), but builds no
database, allocates no table and compiles no kernel: ``solve(..., explain=True)`` and
``python -m puzzlelib solve ... --explain`` return or print it without searching.

>>> from puzzlelib import SlidingPuzzle, solve
>>> plan = solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1", method="bidir", explain=True)
>>> plan.kernel, plan.variant, plan.table, plan.memory_bytes
('puzzlelib.search.bidirectional.bidirectional', 'keys', 'keys', None)
"""

import importlib
from dataclasses import dataclass, field, replace

import numba
import numpy as np

from . import pdb as _pdb
from .core import memory
from .core.errors import PuzzleError
from .core.numbers import COUNT_LIMIT, DEPTH_LIMIT, check_number
from .core.numbers import check_threads as check_threads_count
from .domains.base import METHODS, Puzzle
from .search import gpu as _gpu
from .search import idastar as _ida
from .search import layered as _layered
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
#: Bidirectional search over two distance tables (one byte a position per side) when the
#: puzzle's perfect hash has at most this many positions and both fit in memory; else over
#: hash sets of whole states, which hold only what the search stores.
BIDIR_TABLE_MAX_RANKS = 1 << 24
#: How :func:`~puzzlelib.layers` may keep its distance table.
TABLES = ("auto", "bytes", "packed")
#: Where the breadth-first searches of :func:`~puzzlelib.layers` and pattern-database builds
#: run: this machine's cores, or an NVIDIA GPU through numba-cuda (the ``cuda`` extra).
BACKENDS = ("cpu", "cuda")
#: Packed searches of at least this many positions save their state unless told otherwise.
CHECKPOINT_MIN_RANKS = 1 << 30

_SEARCH = "puzzlelib.search."


@dataclass(frozen=True)
class Plan:
    """What one call will run. ``call``: ``solve``, ``layers`` or ``solve_many``; ``kernel``:
    the module-qualified function that runs, ``variant`` its branch; ``table``: ``bytes``,
    ``packed``, ``keys``, ``states`` or ``none``; ``heuristic`` and ``databases`` (each
    ``{"name", "entries", "source"}``, ``source`` ``"memory"``, ``"cache"`` or ``"build"``);
    ``memory_bytes`` (None: it grows with what the search stores) and ``memory_how``;
    ``backend``: ``cpu``, ``dask`` or ``cuda``; ``why``: the reasons, one line each. ``run``
    holds what the API needs to execute it (not shown)."""

    call: str
    method: str
    puzzle: str
    kernel: str
    variant: str = ""
    table: str = "none"
    heuristic: str = "none"
    databases: tuple = ()
    threads: int = 1
    memory_bytes: int = None
    memory_how: str = ""
    backend: str = "cpu"
    prune: str = None
    order: str = None
    why: tuple = ()
    run: dict = field(default_factory=dict, repr=False, compare=False)

    def function(self):
        """The kernel itself (looked up now: what runs is what the plan names)."""
        module, _, name = self.kernel.rpartition(".")
        return getattr(importlib.import_module(module), name)

    def to_dict(self):
        """The plan as plain JSON values (``run`` left out)."""
        return {"call": self.call, "method": self.method, "puzzle": self.puzzle,
                "kernel": self.kernel, "variant": self.variant, "table": self.table,
                "heuristic": self.heuristic, "databases": [dict(d) for d in self.databases],
                "threads": self.threads, "memory_bytes": self.memory_bytes,
                "memory_how": self.memory_how, "backend": self.backend, "prune": self.prune,
                "order": self.order, "why": list(self.why)}

    def __str__(self):
        what = self.call if self.method == self.call else f"{self.call} {self.method}"
        run = (f"{what}, {self.puzzle}; table {self.table}; heuristic {self.heuristic}; "
               f"{self.threads} thread{'s' if self.threads > 1 else ''}; backend {self.backend}")
        if self.prune is not None:
            run += f"; prune {self.prune}" + (f", order {self.order}" if self.order else "")
        rows = [("kernel", self.kernel + (f" ({self.variant})" if self.variant else "")),
                ("plan", run)]
        source = {"memory": "loaded", "cache": "cached", "build": "to build"}
        rows += [("databases" if i == 0 else "", f"{d['name']}"
                  + (f", {d['entries']:,} entries" if d["entries"] else "")
                  + f" ({source[d['source']]})") for i, d in enumerate(self.databases)]
        mem = ("grows" if self.memory_bytes is None
               else f"{self.memory_bytes:,} bytes ({memory.human(self.memory_bytes)})")
        rows.append(("memory", f"{mem}: {self.memory_how}" if self.memory_how else mem))
        rows += [("why" if i == 0 else "", w) for i, w in enumerate(self.why)]
        return "\n".join(f"{k:<10} {v}".rstrip() for k, v in rows)


# ---------------------------------------------------------------------------------------------
# checks shared by the planners
# ---------------------------------------------------------------------------------------------


def check_threads(threads, space):
    """The threads a search of ``space`` runs on (``None``: numba's); more than numba's
    threads (the cores, unless ``NUMBA_NUM_THREADS`` says fewer): a warning and that many
    (:func:`puzzlelib.core.numbers.check_threads`)."""
    most = numba.config.NUMBA_NUM_THREADS
    n = numba.get_num_threads() if threads is None else check_threads_count(threads, most=most)
    return min(n, most) if space.thread_safe else 1


def check_limit(value, name, least=0, most=COUNT_LIMIT):
    """A limit given to a search (None: the search's own), checked
    (:func:`puzzlelib.core.numbers.check_number`)."""
    if value is None:
        return None
    return check_number(value, name, least=least, most=most)


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


def _skip_for(puzzle, method, prune, all_solutions=False, transpositions=None):
    """Whether a depth-first search skips strings with the puzzle's move automaton (made when
    the search runs: a puzzle whose class defines :meth:`~puzzlelib.domains.base.Puzzle.
    move_automaton` has one), the name of its pruning (None for methods that do not prune so),
    and why; see :data:`PRUNING`."""
    if prune is not None and prune not in PRUNING:
        raise PuzzleError(f"unknown prune {prune!r}: use {' or '.join(PRUNING)}")
    if method not in COUNTING_METHODS:
        if prune is not None:
            raise PuzzleError(f"prune applies to iddfs and idastar, not {method}")
        return False, None, None
    if prune == "parent":
        return False, "parent", "prune parent asked for: only the move back is skipped"
    why = None
    if all_solutions:
        why = "counting all optimal solutions needs every path"
    elif puzzle.frontier is not None or transpositions:
        why = f"the {puzzle.name} puzzle's search lists candidate moves"
    if why is None:
        if type(puzzle).move_automaton is not Puzzle.move_automaton:
            return True, "cycles", ("the puzzle's move automaton skips strings a shorter one "
                                    "replaces")
        why = f"the {puzzle.name} puzzle has no move automaton"
    if prune == "cycles":
        raise PuzzleError(f"prune cycles does not apply here: {why}; use prune parent")
    return False, "parent", f"prune parent: {why}"


def _heuristic(puzzle, method, heuristic, pdb, reflect, cache, backend):
    """``(space or None, name, databases, info)``: the space the search runs on where making
    it builds nothing (None: the pattern databases are loaded or built when the search runs),
    the heuristic's name, the databases, and what the result reports of them."""
    if method not in INFORMED_METHODS:
        if heuristic not in (None, "none") or pdb is not None or reflect is not None:
            raise PuzzleError(f"method {method} uses no heuristic; heuristics apply to "
                              f"{', '.join(INFORMED_METHODS)}")
        # iterative deepening without one is IDDFS; breadth-first searches keep the puzzle's
        # own lower bound, which only lets bidirectional search skip lookups that cannot meet
        name = "none" if method == "iddfs" else puzzle.default_heuristic
        return puzzle.with_heuristic(name), "none", (), {}
    if pdb is None and not _pdb.is_database(puzzle, heuristic):
        if reflect is not None:
            raise PuzzleError("reflect applies to pattern databases")
        name = puzzle.default_heuristic if heuristic is None else heuristic
        return puzzle.with_heuristic(name), name, (), {"heuristic": name}
    spec = heuristic if pdb is None else pdb
    dbs, info = _pdb.plan(puzzle, spec, reflect=reflect, cache=cache, backend=backend)
    return None, info["heuristic"], tuple(dbs), {"spec": spec, "reflect": reflect}


def _db_bytes(dbs):
    return sum(d["entries"] or 0 for d in dbs)


def _db_why(dbs, backend):
    todo = [d for d in dbs if d["source"] == "build"]
    if not dbs:
        return []
    if not todo:
        return ["pattern databases: every one loaded or in the cache"]
    where = "on the GPU" if backend == "cuda" else "on this machine's cores"
    return [f"pattern databases: {len(todo)} of {len(dbs)} not cached, built {where} first"]


# ---------------------------------------------------------------------------------------------
# solve
# ---------------------------------------------------------------------------------------------


def plan_solve(puzzle, start, method=None, heuristic=None, *, pdb=None, reflect=None,
               all_solutions=False, threads=None, max_depth=None, max_states=None, node_limit=0,
               transpositions=None, cache=True, backend="cpu", prune=None, order=None,
               call="solve"):
    """The :class:`Plan` of ``solve(puzzle, start, ...)`` (the arguments as :func:`~puzzlelib.
    solve` takes them, the puzzle and the start already resolved); raises the
    :class:`~puzzlelib.PuzzleError` the search would raise before starting."""
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
    max_states = check_limit(max_states, "max_states", 1)
    max_depth = check_limit(max_depth, "max_depth", most=DEPTH_LIMIT)
    node_limit = check_limit(node_limit, "node_limit")
    transpositions = check_limit(transpositions, "transpositions")
    n_threads = check_threads(threads, puzzle)
    why = []
    order_moves = None
    if order is not None:
        if method not in COUNTING_METHODS:
            raise PuzzleError(f"order applies to iddfs and idastar, not {method}")
        order_moves = puzzle.move_order(order)
        if threads is None:
            n_threads = 1
            why.append(f"order {order}: one thread (passes shared among threads take the moves "
                       f"by number)")
        elif n_threads > 1:
            raise PuzzleError("order needs one thread (threads=1): passes shared among threads "
                              "take the moves by number")
    state = puzzle.encode(start)  # the start is checked before any database is built
    skip, pruning, prune_why = _skip_for(puzzle, method, prune, all_solutions, transpositions)
    space, hname, dbs, hinfo = _heuristic(puzzle, method, heuristic, pdb, reflect, cache,
                                          backend)
    sp = puzzle if space is None else space  # (a database's space keeps the puzzle's structure)
    run = dict(state=state, space=space, hinfo=hinfo, skip=skip, order=order_moves,
               max_depth=max_depth, max_states=max_states, node_limit=node_limit,
               transpositions=transpositions, all_solutions=all_solutions, prune=pruning,
               order_name=order)
    depth = sp.default_max_depth if max_depth is None else max_depth
    states = sp.default_max_states if max_states is None else max_states
    kw = dict(call=call, method=method, puzzle=puzzle.label, heuristic=hname, databases=dbs,
              backend=backend, prune=pruning, order=order, run=run)
    if backend == "cuda":
        why.append("backend cuda: pattern databases not cached are built on the GPU; the search "
                   "runs on the CPU")
    if method == "bfs":
        plan = _plan_bfs(sp, n_threads, states, kw)
    elif method == "bidir":
        plan = _plan_bidir(sp, method, states, kw)
    elif method in COUNTING_METHODS:
        plan = _plan_deepening(sp, space is None, method, all_solutions, n_threads, depth,
                               transpositions, order_moves, dbs, kw)
        if prune_why:
            plan = replace(plan, why=plan.why + (prune_why,))
    else:
        plan = Plan(kernel=_SEARCH + "astar.astar",
                    variant="f = g + h" if method == "astar" else "f = h (greedy)",
                    table="states", memory_how=f"a hash set and a heap of the positions stored "
                    f"(at most {states:,})" + (" and the pattern databases" if dbs else ""),
                    why=(f"{method}: best-first over whole states, one thread",
                         *_db_why(dbs, backend)), **kw)
    return replace(plan, why=tuple(why) + plan.why)


def _table_size(space, what):
    """The distance table's size, checked against the memory available; None without a
    perfect hash."""
    n = space.n_ranks
    if n is not None:
        memory.check_fits(n, f"the {what} distance table ({n:,} positions, one byte each)")
    return n


def _plan_bfs(space, n_threads, max_states, kw):
    goal = space.goal_state()
    n = _table_size(space, space.label) if goal is not None else None
    if n is not None:
        variant = _layered.choose_kernel(n, space.buckets)
        kw["run"].update(n=n, layer_kernel=variant)
        return Plan(kernel=_SEARCH + "layered.layered_bfs", variant=variant, table="bytes",
                    threads=n_threads, memory_bytes=n,
                    memory_how=f"the distance table, {n:,} positions at one byte each (the "
                               f"layer lists come on top)",
                    why=("one goal and a perfect hash: a distance table indexed by rank, "
                         "stopped at the goal's layer",), **kw)
    if goal is not None:
        kw["run"].update(variant="one-way")
        return Plan(kernel=_SEARCH + "bidirectional.bidirectional", variant="one-way",
                    table="states", memory_how=f"hash sets of the positions stored (at most "
                                               f"{max_states:,})",
                    why=("one goal, no perfect hash: the forward side of bidirectional search "
                         "over hash sets of whole states",), **kw)
    words = space.word_params()
    kw["run"].update(words=words is not None)
    if words is not None:
        return Plan(kernel=_SEARCH + "wordbfs.word_solve", variant="64-bit words",
                    table="keys", memory_how=f"every position seen, one word each (at most "
                                             f"{max_states:,})",
                    why=("many goals: layers kept for the path; a position fits a 64-bit "
                         "word",), **kw)
    return Plan(kernel=_SEARCH + "frontier.frontier_bfs", variant="stop at a goal",
                table="states", memory_how=f"layers of whole states, all kept for the path (at "
                                           f"most {max_states:,})",
                why=("many goals and no perfect hash: layers of whole states",), **kw)


def bidir_variant(space):
    """``(variant, n_ranks, why)`` of bidirectional search on ``space``."""
    if space.keys is not None:
        return "keys", None, "the puzzle's positions fit 64-bit keys: hash sets of keys"
    try:
        n = space.n_ranks
    except PuzzleError:  # too many positions to rank in 64 bits
        n = None
    if n is not None and n <= BIDIR_TABLE_MAX_RANKS:
        try:
            memory.check_fits(2 * n, "the two distance tables of bidirectional search")
            return "table", n, (f"a perfect hash of {n:,} positions (at most "
                                f"{BIDIR_TABLE_MAX_RANKS:,}): two distance tables, which fit")
        except PuzzleError:
            return "states", None, "the two distance tables do not fit: hash sets of states"
    why = ("no perfect hash" if n is None else
           f"{n:,} positions, more than {BIDIR_TABLE_MAX_RANKS:,} for tables")
    return "states", None, f"{why}: hash sets of whole states"


def _needs_goal(space, method):
    goal = space.goal_state()
    if goal is None:
        raise PuzzleError(f"method {method} needs a single goal position, and the "
                          f"{space.name} puzzle has many: use bfs, iddfs, idastar or astar")
    return goal


def _plan_bidir(space, method, max_states, kw):
    _needs_goal(space, method)
    variant, n, why = bidir_variant(space)
    kw["run"].update(variant=variant, n=n)
    if variant == "table":
        mem, how = 2 * n, f"two distance tables of {n:,} positions, one byte each"
    else:
        mem, how = None, f"hash sets of the positions stored (at most {max_states:,})"
    return Plan(kernel=_SEARCH + "bidirectional.bidirectional", variant=variant,
                table={"table": "bytes"}.get(variant, variant), memory_bytes=mem,
                memory_how=how, why=(why,), **kw)


def _plan_deepening(space, guided_later, method, all_solutions, threads, depth, transpositions,
                    order, dbs, kw):
    if transpositions is None:
        transpositions = 0 if all_solutions else space.default_transpositions
    if transpositions and (space.frontier is None or all_solutions):
        raise PuzzleError("a transposition table needs a puzzle that lists its candidate moves "
                          "(block puzzles) and one solution, not all of them")
    parallel = threads > 1 and space.frontier is None
    # a pattern database's space steps without the cursor (its lookups need the whole state)
    cursor = not guided_later and space.depth_first.cursor is not None and order is None
    kw["run"].update(parallel=parallel, cursor=cursor, transpositions=transpositions,
                     n_threads=threads)
    loop = ("candidate moves" if space.frontier is not None else
            "cursor loop" if cursor else "plain loop")
    variant = loop + (", passes shared among threads" if parallel else ", one thread")
    why = []
    if space.frontier is not None:
        why.append(f"the {space.name} puzzle lists its candidate moves: one thread")
    elif threads == 1:
        why.append("one thread asked for (or the only one)")
    else:
        why.append(f"big passes' subtrees shared among {threads} threads (once the shared "
                   f"pass is compiled, or the process has searched, or is about to, "
                   f"{_ida.SPLIT_AFTER_SECONDS:g} s without it)")
    if transpositions:
        why.append(f"a transposition table of up to {transpositions:,} positions a pass")
    mem = (8 * (depth + 1) + _ida.stack_bytes(space.params, depth, space.frontier is not None)
           + _db_bytes(dbs))
    how = f"the path and a pass's stack to depth {depth}"
    memory.check_fits(mem - _db_bytes(dbs), f"a depth-first search to depth {depth:,}")
    if transpositions:
        how += " (the transposition table comes on top)"
    if dbs:
        how += ", and the pattern databases at one byte an entry"
    return Plan(kernel=_SEARCH + "idastar.iterative_deepening", variant=variant, table="none",
                threads=threads if parallel else 1, memory_bytes=mem, memory_how=how,
                why=(*why, *_db_why(dbs, kw["backend"])), **kw)


# ---------------------------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------------------------


def plan_layers(puzzle, start, *, threads=None, max_depth=None, max_states=None,
                farthest_limit=None, table="auto", checkpoint=None, client=None,
                backend="cpu"):
    """The :class:`Plan` of ``layers(puzzle, start, ...)`` (the puzzle and the start already
    resolved); raises the :class:`~puzzlelib.PuzzleError` the search would raise before
    starting."""
    if table not in TABLES:
        raise PuzzleError(f"unknown table {table!r}: use one of {', '.join(TABLES)}")
    max_depth = check_limit(max_depth, "max_depth", most=DEPTH_LIMIT)
    max_states = check_limit(max_states, "max_states", 1)
    farthest_limit = check_limit(farthest_limit, "farthest_limit")
    space = puzzle.rooted(start)
    n_threads = check_threads(threads, space)
    state = space.encode(start)
    why = []
    workers = None
    if _check_backend(backend) == "cuda":
        if client is not None:
            raise PuzzleError("backend 'cuda' runs on this machine's GPU and client on a Dask "
                              "cluster: choose one")
        if checkpoint is not None and checkpoint is not False:
            raise PuzzleError("a search on the GPU saves no state: drop checkpoint, or use "
                              "backend 'cpu'")
        n, kind, w = _gpu_table(space, table)
    elif client is not None:
        n, workers, w = _dask_table(space, client, table,
                                    checkpoint is not None and checkpoint is not False)
        kind = "dask"
    else:
        n, kind, w = _layers_table(space, table)
    why.append(w)
    if checkpoint is not None and checkpoint is not False and kind not in ("packed", "dask"):
        uses = {"bytes": "keeps a byte table", None: "keeps no table"}[kind]
        raise PuzzleError(f"only packed tables save their state, and this search {uses}: drop "
                          f"checkpoint, or ask for table='packed'")
    run = dict(space=space, state=state, n=n, kind=kind, max_depth=max_depth,
               max_states=max_states, farthest_limit=farthest_limit, client=client)
    kw = dict(call="layers", method="layers", puzzle=space.label, run=run)
    if backend == "cuda":
        mem = n if kind == "bytes" else _gpu.packed_gpu_bytes(n)
        return Plan(kernel=_SEARCH + ("gpu.bfs_packed" if kind == "packed" else "gpu.bfs_bytes"),
                    variant="one launch a layer", table=kind, backend="cuda", memory_bytes=mem,
                    memory_how=f"the {kind} table of {n:,} positions on the GPU, copied back",
                    why=tuple(why), **kw)
    if kind == "dask":
        if checkpoint is True:
            raise PuzzleError("a search on a Dask cluster saves its layers in a folder every "
                              "worker reaches: give its path as checkpoint")
        saves = checkpoint is not None and checkpoint is not False
        run["checkpoint"] = checkpoint if saves else None
        return Plan(kernel=_SEARCH + "distributed.dask_bfs",
                    variant=(f"the ranks split into {workers} packed parts"
                             + (", every layer saved" if saves else ", nothing saved")),
                    table="packed", backend="dask", threads=workers,
                    memory_bytes=_packed.packed_bytes(n),
                    memory_how=f"{n:,} positions: two bits of depth modulo 3 and one bit of "
                               f"layer each, split among the workers",
                    why=tuple(why), **kw)
    if kind == "packed":
        if checkpoint is None:  # automatic: for long searches only
            saves = n >= CHECKPOINT_MIN_RANKS
            if saves:
                why.append(f"{n:,} positions (2**30 or more): every layer saved in the cache")
        else:
            saves = checkpoint is not False
        run["checkpoint"] = (True if checkpoint is None and saves else
                             None if checkpoint is None else checkpoint)
        return Plan(kernel=_SEARCH + "packed.run_packed",
                    variant="every layer saved" if saves else "nothing saved", table="packed",
                    threads=n_threads, memory_bytes=_packed.packed_bytes(n),
                    memory_how=f"{n:,} positions: two bits of depth modulo 3 and one bit of "
                               f"layer each", why=tuple(why), **kw)
    if kind == "bytes":
        variant = space.layer_kernel
        if variant == "auto":
            variant = _layered.choose_kernel(n, space.buckets)
        run["layer_kernel"] = variant
        return Plan(kernel=_SEARCH + "layered.layered_bfs", variant=variant, table="bytes",
                    threads=n_threads, memory_bytes=n,
                    memory_how=f"the distance table, {n:,} positions at one byte each (the "
                               f"layer lists come on top)", why=tuple(why), **kw)
    words = space.word_params()
    run["words"] = words is not None
    cap = "" if max_states is None else f" (at most {max_states:,})"
    if words is not None:
        return Plan(kernel=_SEARCH + "wordbfs.word_bfs", variant="64-bit words", table="keys",
                    memory_how=f"every position seen, one word each{cap}",
                    why=(*why, "a position fits a 64-bit word: every position seen kept as "
                               "one"), **kw)
    return Plan(kernel=_SEARCH + "frontier.frontier_bfs", variant="three layers kept",
                table="states", memory_how=f"three layers of whole states{cap}",
                why=(*why, "layers of whole states, three kept"), **kw)


def _layers_table(space, table):
    """``(n_ranks, "bytes" | "packed", why)`` for :func:`~puzzlelib.layers`, the memory
    checked; ``(None, None, why)`` for a puzzle without a perfect hash."""
    n = space.n_ranks
    if n is None:
        if table == "packed":
            raise PuzzleError(f"a packed table needs a perfect hash, and the {space.name} "
                              f"puzzle has none: use table='auto'")
        return None, None, f"the {space.name} puzzle has no perfect hash: no table"
    as_bytes = f"the {space.label} distance table ({n:,} positions, one byte each)"
    packed = _packed.packed_bytes(n)
    as_packed = f"the {space.label} packed table ({n:,} positions, 3 bits each)"
    if table == "bytes" or (table == "auto" and memory.fits(n)):
        memory.check_fits(n, as_bytes)
        return n, "bytes", ("table='bytes' asked for" if table == "bytes" else
                            f"one byte a position fits in memory ({memory.human(n)})")
    if table == "auto" and not memory.fits(packed):
        raise PuzzleError(
            f"{as_bytes} needs {memory.human(n)} of memory, packed {memory.human(packed)}, but "
            f"only {memory.human(memory.available_bytes())} is available; choose a smaller "
            f"board or a search that does not need the full table (idastar, astar, bidir)")
    memory.check_fits(packed, as_packed)
    return n, "packed", ("table='packed' asked for" if table == "packed" else
                         f"one byte a position ({memory.human(n)}) does not fit in "
                         f"{memory.SHARE:.0%} of the {memory.human(memory.available_bytes())} "
                         f"available: packed ({memory.human(packed)})")


def _gpu_table(space, table):
    """``(n_ranks, "bytes" | "packed", why)`` for :func:`~puzzlelib.layers` on the GPU, the
    GPU's memory and this machine's (the table is copied back) checked."""
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
        return n, "bytes", ("table='bytes' asked for" if table == "bytes" else
                            "one byte a position fits the GPU's free memory and this machine's")
    _gpu.check_gpu_fits(gpu_packed, as_packed)
    memory.check_fits(_packed.packed_bytes(n), f"{as_packed}, copied back from the GPU,")
    return n, "packed", ("table='packed' asked for" if table == "packed" else
                         "one byte a position does not fit the GPU or this machine: packed")


def _dask_table(space, client, table, saves=False):
    """``(n_ranks, parts, why)`` for a search on ``client``'s workers (one packed part a
    thread), each worker's parts checked against its memory limit."""
    from .search.distributed import worker_addresses, worker_bytes, worker_threads

    n = space.n_ranks
    if n is None:
        raise PuzzleError(f"a search on a Dask cluster needs a perfect hash, and the "
                          f"{space.name} puzzle has none")
    if table == "bytes":
        raise PuzzleError("a search on a Dask cluster keeps packed parts (3 bits a position): "
                          "use table='auto' or 'packed'")
    workers = worker_addresses(client)
    if not workers:
        raise PuzzleError("the Dask cluster has no workers")
    n_parts = max(worker_threads(client), 1)
    per_worker = -(-n_parts // len(workers))
    # a part's packed table, its fixed buffers and the batches on their way to it (and the
    # scratch of a layer file when its layers are saved): puzzlelib.search.distributed
    part = worker_bytes(n, n_parts, space.params.n_moves, saves)
    need = per_worker * part
    limit = min((m for _, m in workers if m > 0), default=0)
    if limit and need > memory.SHARE * limit:
        raise PuzzleError(
            f"each of the {len(workers)} workers' parts of the {space.label} table needs "
            f"{memory.human(need)}, but a table may use {memory.human(memory.SHARE * limit)} "
            f"({memory.SHARE:.0%} of a worker's limit of {memory.human(limit)}); add workers "
            f"or memory")
    return n, n_parts, (f"client given: the table split into {n_parts} packed parts on "
                        f"{len(workers)} Dask workers, at most {memory.human(need)} each")


# ---------------------------------------------------------------------------------------------
# solve_many
# ---------------------------------------------------------------------------------------------


def plan_many(puzzle, starts, method="idastar", heuristic=None, *, pdb=None, reflect=None,
              threads=None, max_depth=None, cache=True, backend="cpu", prune=None, **limits):
    """The :class:`Plan` of ``solve_many(puzzle, starts, ...)`` (the starts already checked):
    either every start searched at once (``run["batch"]``), or each solved in turn by
    :func:`~puzzlelib.solve` (the plan of the first start's)."""
    batchable = method in COUNTING_METHODS and puzzle.frontier is None and puzzle.thread_safe
    if not batchable or limits.get("all_solutions") or limits.get("node_limit"):
        plan = plan_solve(puzzle, starts[0], method, heuristic, pdb=pdb, reflect=reflect,
                          threads=threads, max_depth=max_depth, cache=cache, backend=backend,
                          prune=prune, call="solve_many", **limits)
        why = ("each start solved in turn by solve" + (
            "" if batchable else f": {method} on the {puzzle.name} puzzle does not batch"),)
        return replace(plan, why=why + plan.why, run=dict(plan.run, batch=False))
    if limits:
        raise PuzzleError(f"solve_many with {method} takes no {', '.join(sorted(limits))}")
    _check_pdb_backend(backend, puzzle, method, heuristic, pdb)
    n_threads = check_threads(threads, puzzle)
    max_depth = check_limit(max_depth, "max_depth", most=DEPTH_LIMIT)
    skip, pruning, prune_why = _skip_for(puzzle, method, prune)
    space, hname, dbs, hinfo = _heuristic(puzzle, method, heuristic, pdb, reflect, cache,
                                          backend)
    sp = puzzle if space is None else space
    depth = sp.default_max_depth if max_depth is None else max_depth
    run = dict(batch=True, space=space, hinfo=hinfo, skip=skip, max_depth=max_depth,
               prune=pruning)
    mem = len(starts) * 8 * (depth + 1) + _db_bytes(dbs)
    memory.check_fits(mem - _db_bytes(dbs), f"the paths of {len(starts):,} starts to depth "
                                             f"{depth:,}")
    why = [f"{len(starts)} starts searched at once, each thread taking the next as it comes "
           f"free" + ("; a start whose passes grow big finished afterwards with its passes "
                      "shared among the threads" if n_threads > 1 else "")]
    if prune_why:
        why.append(prune_why)
    return Plan(call="solve_many", method=method, puzzle=puzzle.label,
                kernel=_SEARCH + "idastar.deepen_many", variant="one start a thread",
                table="none", heuristic=hname, databases=dbs, threads=n_threads,
                memory_bytes=mem, memory_how=f"a path to depth {depth} per start"
                + (", and the pattern databases at one byte an entry" if dbs else ""),
                backend=backend, prune=pruning, why=(*why, *_db_why(dbs, backend)), run=run)
