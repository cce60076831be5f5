"""Additive pattern databases for sliding-tile puzzles: built by our own BFS, cached on disk.

A pattern database for a group of tiles holds, for every placement of those tiles, the fewest
moves *of those tiles* that bring them home from there, wherever the other tiles are (see
:mod:`puzzlelib.pdb.space` for the abstract space and why its moves all cost 1). Over disjoint
groups the values add up to a lower bound on the moves left: an additive heuristic, much
stronger than Manhattan distance, which is the same idea with one tile per group.

Building one is a breadth-first search from the goal over the abstract space with the
library's layered BFS (table scan over a ``uint8`` distance table, one byte per abstract
state); the database keeps, per placement, the least distance over the blank's regions: one
byte per placement of ``n! / (n-k)!`` (57.7 MB for 7 tiles of the 15-puzzle, 519 MB for 8).

Databases are cached under ``<cache root>/pdb`` through :mod:`puzzlelib.core.store`: written
atomically, checked against a SHA-256 on every load, built again when the check fails.
"""

import math
from contextlib import nullcontext

import numpy as np
from numba import prange

from ..core import memory, store
from ..core.contract import UNSEEN
from ..core.errors import PuzzleError
from ..core.jit import jit
from ..core.progress import layer_bar
from ..core.stats import Stats
from ..core.timing import timed
from ..search.layered import layered_bfs
from ..search.workshare import start_threads
from ..domains.sliding import board_symmetries
from .space import PatternSpace, placement_rank, placement_unrank

FORMAT = "puzzlelib-pdb-2"

#: Named partitions of the 15- and 24-puzzle into disjoint groups, as goal *cells* for a goal
#: with the blank in cell 0 (Korf's ``0 1 2 ... 15``); for a goal with the blank in the last cell
#: (``1 ... 15 0``) the board is turned half a turn (cell ``c`` -> ``n - 1 - c``).
PARTITIONS = {
    "pdb555": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
    "pdb663": ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (1, 2, 3)),
    "pdb78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    # the 24-puzzle's partition of Korf and Felner (2002): the last three groups are quarter
    # turns of one another, so one breadth-first search builds all three (see _image_of)
    "pdb6666": ((1, 5, 6, 10, 11, 12), (2, 3, 4, 7, 8, 9), (13, 14, 18, 19, 23, 24),
                (15, 16, 17, 20, 21, 22)),
}
#: The board each partition divides (rows, columns).
PARTITION_BOARDS = {"pdb555": (4, 4), "pdb663": (4, 4), "pdb78": (4, 4), "pdb6666": (5, 5)}


def cache_dir():
    """Where pattern databases are cached."""
    return store.cache_root() / "pdb"


class PatternDatabase:
    """One group's database: ``table[placement rank]`` = fewest moves of the group's tiles.

    ``cells``: the goal cells of the group's tiles, in the order their positions are ranked;
    ``blank``: the goal cell of the blank. ``counts[d]``: abstract states (placement and blank
    region) at distance ``d``; ``build_seconds``: the time the build took, compilation apart
    (when it was built, possibly in an earlier process: see ``source``: ``"built"``,
    ``"cache"``, or ``"symmetry"`` when it was made from another group's database that a
    symmetry of the board maps onto this one); ``made_by``: how it was first made, kept in the
    cache (``"search"``, or ``"symmetry"``)."""

    def __init__(self, rows, cols, cells, blank, table, counts, build_seconds, source,
                 stats=None, made_by="search"):
        self.rows, self.cols = rows, cols
        self.cells = tuple(int(c) for c in cells)
        self.blank = int(blank)
        self.table = table
        self.counts = list(counts)
        self.build_seconds = float(build_seconds)
        self.source = source
        self.made_by = made_by
        #: What the build's search did (:class:`~puzzlelib.core.stats.Stats`; from the cache:
        #: as it was when built, compilation 0).
        self.stats = stats if stats is not None else Stats(stored=sum(self.counts),
                                                           seconds=self.build_seconds)

    @property
    def k(self):
        return len(self.cells)

    @property
    def name(self):
        return f"{self.rows}x{self.cols} cells {'-'.join(map(str, self.cells))} (blank {self.blank})"

    @property
    def n_entries(self):
        return int(self.table.shape[0])

    @property
    def n_states(self):
        """Abstract states reached by the build (placement and blank region)."""
        return int(sum(self.counts))

    def value(self, positions):
        """The database's value with the group's tiles on ``positions`` (in group order)."""
        pos = np.asarray(positions, dtype=np.int64)
        return int(self.table[placement_rank(pos, self.k, self.rows * self.cols)])

    def histogram(self):
        """How many placements have each value (index = value)."""
        vals = self.table[self.table != UNSEEN]
        return np.bincount(vals).tolist()

    def __repr__(self):
        return (f"PatternDatabase({self.name}, {self.n_entries:,} entries, "
                f"max {int(self.table[self.table != UNSEEN].max())})")


@jit(parallel=True)
def _least_per_placement(dist, per):
    """``out[c] = min(dist[c * per : (c + 1) * per])``: the least over the blank's regions."""
    n = dist.shape[0] // per
    out = np.empty(n, dtype=np.uint8)
    for c in prange(n):
        best = np.uint8(UNSEEN)
        base = c * per
        for j in range(per):
            v = dist[base + j]
            if v < best:
                best = v
        out[c] = best
    return out


def _file_for(rows, cols, cells, blank):
    return cache_dir() / f"{rows}x{cols}_b{blank}_c{'-'.join(map(str, cells))}.pdb"


def _header(rows, cols, cells, blank):
    return {"format": FORMAT, "rows": rows, "cols": cols, "cells": list(cells), "blank": blank}


def _save(path, db):
    store.write(path, dict(_header(db.rows, db.cols, db.cells, db.blank), counts=db.counts,
                           build_seconds=db.build_seconds, made_by=db.made_by,
                           stats=dict(db.stats.to_dict(), compile_seconds=0.0)), [db.table])


def _load(path, rows, cols, cells, blank, quiet=False):
    """The database in ``path``, or None (with a warning, unless ``quiet``) when it is missing,
    for another pattern, truncated or corrupt."""
    got = store.read(path, _header(rows, cols, cells, blank), "pattern database", quiet=quiet)
    if got is None:
        return None
    header, (table,) = got
    if table.dtype != np.uint8 or table.shape != (PatternSpace(rows, cols, len(cells)).n_placements,):
        return None
    return PatternDatabase(rows, cols, cells, blank, table, header["counts"],
                           header["build_seconds"], "cache",
                           Stats.from_dict(header.get("stats", {})),
                           header.get("made_by", "search"))


_MEMORY = {}


def pattern_database(rows, cols, cells, blank, progress=None, cache=True, backend="cpu"):
    """The pattern database of the tiles whose goal cells are ``cells`` (the blank's goal cell:
    ``blank``) on a ``rows x cols`` board: from this process's memory, else from the disk
    cache, else built (and then cached, unless ``cache`` is false).

    ``progress``: ``True`` for a progress bar (depth, abstract states so far), a callable
    ``progress(depth, layer_count, total)``, or ``None``/``False``. ``backend``: where a build
    runs, ``"cpu"`` or ``"cuda"`` (an NVIDIA GPU: :mod:`puzzlelib.search.gpu`); the tables
    are the same."""
    cells = tuple(int(c) for c in cells)
    n = rows * cols
    if len(set(cells)) != len(cells) or any(not 0 <= c < n for c in cells) or blank in cells:
        raise PuzzleError(f"pattern cells {cells} must be distinct cells of the board, not the "
                          f"blank's ({blank})")
    key = (rows, cols, cells, int(blank))
    if key in _MEMORY:
        return _MEMORY[key]
    path = _file_for(*key)
    db = _load(path, *key) if cache else None
    if db is None:
        with store.locked(path, "the pattern database") if cache else nullcontext():
            db = _load(path, *key, quiet=True) if cache else None  # another process's
            if db is None:
                db = _image_of(*key, cache)
                if db is None:
                    db = build(rows, cols, cells, blank, progress=progress, backend=backend)
                if cache:
                    _save(path, db)
    _MEMORY[key] = db
    return db


def _region(space, cells, blank):
    """The mask of the cells the blank can reach at the start of a build."""
    st = space.state(cells, blank)
    return int.from_bytes(bytes(st[space.k + 1: space.k + 5]), "little")


def _sources(rows, cols, cells, blank, cache):
    """Databases of the group whose goal cells are ``cells`` (in any order): from this
    process's memory, or from the disk cache (in that order or sorted, with ``blank``)."""
    want = set(cells)
    for key, db in list(_MEMORY.items()):
        if key[:2] == (rows, cols) and set(key[2]) == want:
            yield db
    if cache:
        for order in dict.fromkeys([tuple(sorted(cells)), tuple(cells)]):
            key = (rows, cols, order, int(blank))
            if key not in _MEMORY and _file_for(*key).exists():
                db = _load(_file_for(*key), *key)
                if db is not None:
                    _MEMORY[key] = db
                    yield db


@jit(parallel=True)
def _image_table(src, n, k, full, inv, src_index):
    """The table of a group that a board symmetry makes of another group's: the entry of a
    placement (tile ``j`` on ``cells[j]``) is the source's entry for source tile
    ``src_index[j]`` on ``inv[cells[j]]`` (``inv``: the symmetry's inverse)."""
    m = src.shape[0]
    out = np.empty(m, dtype=np.uint8)
    chunk = 1 << 16
    for c in prange((m + chunk - 1) // chunk):
        cells = np.empty(k, dtype=np.int64)
        seen = np.empty(k, dtype=np.int64)
        for r in range(c * chunk, min(m, (c + 1) * chunk)):
            placement_unrank(r, k, n, full, cells)
            for j in range(k):
                seen[src_index[j]] = inv[cells[j]]
            out[r] = src[placement_rank(seen, k, n)]
    return out


def _image_of(rows, cols, cells, blank, cache):
    """The database of ``cells`` made from another group's, where a symmetry of the board
    takes that group's tiles onto these and the blank's region at the goal onto this one's
    (their abstract spaces are then the same, cell for cell); None where no such database is
    in memory or in the cache."""
    space = PatternSpace(rows, cols, len(cells))
    region = _region(space, cells, blank)
    for sigma in board_symmetries(rows, cols):
        inv = np.argsort(sigma)
        src_cells = [int(inv[c]) for c in cells]
        for src in _sources(rows, cols, src_cells, blank, cache):
            seen = _region(space, src.cells, src.blank)
            if sum(1 << int(sigma[x]) for x in range(space.n_cells) if seen >> x & 1) != region:
                continue
            index = {c: i for i, c in enumerate(src.cells)}
            src_index = np.array([index[c] for c in src_cells], dtype=np.int64)
            memory.check_fits(space.n_placements, f"the pattern database of {len(cells)} tiles "
                              f"on {rows}x{cols} ({space.n_placements:,} placements)")
            with timed() as timer, timer.phase() as ph:
                table = _image_table(src.table, np.int64(space.n_cells), np.int64(space.k),
                                     np.int64((1 << space.n_cells) - 1), inv, src_index)
            stats = Stats(0, 0, src.n_states, table.nbytes, ph.seconds, timer.compile_seconds)
            return PatternDatabase(rows, cols, cells, blank, table, src.counts, ph.seconds,
                                   "symmetry", stats, made_by="symmetry")
    return None


_JOINED = {}


def joined_tables(dbs):
    """The databases' tables one after the other (the layout the search reads), made once per
    set of databases in a process: for 7-8 that is 550 MiB, which one ``solve`` per board would
    otherwise copy every time."""
    key = tuple(id(db) for db in dbs)
    if key not in _JOINED:
        _JOINED.clear()  # keep one set: they are big
        _JOINED[key] = (dbs, np.concatenate([db.table for db in dbs]))
    return _JOINED[key][1]


def build(rows, cols, cells, blank, progress=None, backend="cpu"):
    """Build a pattern database (no cache): breadth-first from the goal over the abstract
    space, then the least distance over the blank's regions for each placement, on this
    machine's cores (``backend="cpu"``) or an NVIDIA GPU (``"cuda"``). Its ``build_seconds``
    leave out the compilation of the kernels (and the GPU's start)."""
    space = PatternSpace(rows, cols, len(cells))
    n_ranks = space.n_ranks
    what = (f"the pattern database of {len(cells)} tiles on {rows}x{cols} "
            f"({n_ranks:,} abstract states, {space.n_placements:,} placements)")
    per = space.n_cells - space.k
    start = space.state(cells, blank)
    r0 = int(space.fns.rank(start, space.params))
    if backend == "cuda":
        from ..search import gpu

        gpu.check_gpu_fits(n_ranks + space.n_placements, what)
        memory.check_fits(space.n_placements, what)
    else:
        memory.check_fits(n_ranks + space.n_placements, what)
    with timed() as timer:
        if backend == "cuda":
            with timer.compiling():  # the GPU's start, and numba-cuda compiling its kernels
                gpu.warm(space.fns, space.params, least=True)
        with timer.phase() as ph, layer_bar(progress is True, None, f"PDB {len(cells)} tiles",
                                            progress) as update:
            if backend == "cuda":
                dist, counts, tally, _ = gpu.bfs_bytes(space.fns, space.params, n_ranks, [r0],
                                                       progress=update, bottom_up=False,
                                                       keep=True, what=what)
                table = gpu.least_per_block(dist, per)
                del dist
                generated, expanded, peak = tally[0], tally[1], n_ranks
            else:
                res = layered_bfs(space.fns, space.params, n_ranks, [r0], progress=update,
                                  kernel="scan")
                start_threads()
                table = _least_per_placement(res.dist, per)
                del res.dist
                counts, generated, expanded, peak = (res.counts, res.generated, res.expanded,
                                                     res.peak_bytes)
    stats = Stats(generated, expanded, sum(counts), peak + table.nbytes, ph.seconds,
                  timer.compile_seconds)
    return PatternDatabase(rows, cols, cells, blank, table, counts, ph.seconds, "built", stats)


def partition_cells(name, rows, cols, goal):
    """The goal cells of each group of the named partition, for ``goal`` (a board)."""
    if name not in PARTITIONS:
        raise PuzzleError(f"unknown pattern database {name!r}: use one of {', '.join(PARTITIONS)}")
    board = PARTITION_BOARDS[name]
    if (rows, cols) != board:
        raise PuzzleError(f"{name} is a partition of the {board[0]}x{board[1]} board, not "
                          f"{rows}x{cols}")
    blank = int(np.flatnonzero(np.asarray(goal) == 0)[0])
    last = rows * cols - 1
    if blank == 0:
        return [tuple(g) for g in PARTITIONS[name]]
    if blank == last:
        return [tuple(last - c for c in g) for g in PARTITIONS[name]]
    raise PuzzleError(
        f"{name} is defined for goals with the blank in the top-left or bottom-right corner; "
        f"this goal has it in cell {blank} (give groups of tiles instead)"
    )


# ---------------------------------------------------------------------------------------------
# for the API (see puzzlelib.pdb)
# ---------------------------------------------------------------------------------------------


def is_name(puzzle, heuristic):
    """Whether ``heuristic`` names additive databases (a partition of :data:`PARTITIONS`)."""
    return isinstance(heuristic, str) and heuristic in PARTITIONS


def _label_groups(puzzle, spec):
    """Groups of tile labels from a partition's name or the groups themselves."""
    if isinstance(spec, str):
        cells = partition_cells(spec, puzzle.rows, puzzle.cols, puzzle.goal)
        return [[int(puzzle.goal[c]) for c in grp] for grp in cells]
    try:
        return [list(g) for g in spec]
    except TypeError:
        raise PuzzleError(f"pattern databases for sliding tiles are named ({', '.join(PARTITIONS)}) "
                          f"or given as groups of tile labels, not {spec!r}") from None


def databases(puzzle, spec, progress=None, cache=True, backend="cpu"):
    """The databases of ``spec`` (a partition's name or groups of tile labels) for ``puzzle``'s
    goal, one per group."""
    _, cell_groups, blank, _ = puzzle.pattern_groups(_label_groups(puzzle, spec), False)
    return [pattern_database(puzzle.rows, puzzle.cols, cells, blank, progress=progress,
                             cache=cache, backend=backend) for cells in cell_groups]


def plan(puzzle, spec, reflect=None, cache=True):
    """What :func:`guide` would load or build, without either: ``(databases, info)``, one
    ``{"name", "entries", "source"}`` per database (``source``: ``"memory"``, ``"cache"`` or
    ``"build"``; ``build_bytes``: what a build holds) and what :func:`guide` reports. The same
    checks as :func:`guide`, the same errors."""
    groups, cell_groups, blank, reflect = puzzle.pattern_groups(_label_groups(puzzle, spec),
                                                                reflect)
    out = []
    n = puzzle.rows * puzzle.cols
    for labels, cells in zip(groups, cell_groups):
        key = (puzzle.rows, puzzle.cols, tuple(int(c) for c in cells), int(blank))
        placements = math.perm(n, len(cells))  # (as PatternSpace counts them, unbuilt)
        source = ("memory" if key in _MEMORY else
                  "cache" if cache and _file_for(*key).exists() else "build")
        out.append({"name": f"tiles {'-'.join(map(str, labels))}", "entries": placements,
                    "source": source, "build_bytes": placements * (n - len(cells) + 1)})
    return out, {"heuristic": spec if isinstance(spec, str) else "pdb", "reflect": reflect}


def guide(puzzle, spec, reflect=None, progress=None, cache=True, backend="cpu"):
    """``puzzle`` guided by the additive databases ``spec`` (built with a progress bar unless
    ``progress`` is False), and what to report: the heuristic's name and ``reflect``."""
    groups, cell_groups, blank, reflect = puzzle.pattern_groups(_label_groups(puzzle, spec),
                                                                reflect)
    dbs = [pattern_database(puzzle.rows, puzzle.cols, cells, blank,
                            progress=True if progress is None else progress, cache=cache,
                            backend=backend)
           for cells in cell_groups]
    space = puzzle.with_pdbs(groups, joined_tables(dbs), reflect)
    space.pdbs = dbs
    return space, {"heuristic": spec if isinstance(spec, str) else "pdb", "reflect": reflect}
