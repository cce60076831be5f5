"""Additive pattern databases for sliding-tile puzzles: built by our own BFS, cached on disk.

A pattern database for a group of tiles holds, for every placement of those tiles, the fewest
moves *of those tiles* that bring them home from there, wherever the other tiles are (see
:mod:`puzzlelib.domains.pattern` for the abstract space and why its moves all cost 1). Over
disjoint groups the values add up to a lower bound on the moves left: an additive heuristic,
much stronger than Manhattan distance, which is the same idea with one tile per group.

Building one is a breadth-first search from the goal over the abstract space with the
library's layered BFS (table scan over a ``uint8`` distance table, one byte per abstract
state); the database keeps, per placement, the least distance over the blank's regions: one
byte per placement of ``n! / (n-k)!`` (57.7 MB for 7 tiles of the 15-puzzle, 519 MB for 8).

Databases are cached in ``$PUZZLELIB_CACHE`` (default ``$XDG_CACHE_HOME/puzzlelib`` or
``~/.cache/puzzlelib``), under ``pdb/``: written atomically (a temporary file renamed into
place), with a SHA-256 checksum checked on every load; a file that fails the check is rebuilt.
"""

import hashlib
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from numba import prange

from ..core.jit import jit
from ..core import memory
from ..core.contract import UNSEEN
from .space import TABLE_CELLS, PatternSpace
from ..core.errors import PuzzleError
from ..search.layered import layered_bfs
from ..search.workshare import start_threads

FORMAT = "puzzlelib-pdb-1"

#: Named partitions of the 15-puzzle into disjoint groups, as goal *cells* for a goal with the
#: blank in cell 0 (Korf's ``0 1 2 ... 15``); for a goal with the blank in cell 15 (``1 ... 15 0``)
#: the board is turned half a turn (cell ``c`` -> ``15 - c``).
PARTITIONS = {
    "pdb555": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
    "pdb663": ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (1, 2, 3)),
    "pdb78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
}


def cache_dir():
    """Where pattern databases are cached."""
    root = os.environ.get("PUZZLELIB_CACHE")
    if root:
        return Path(root) / "pdb"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "puzzlelib" / "pdb"


class PatternDatabase:
    """One group's database: ``table[placement rank]`` = fewest moves of the group's tiles.

    ``cells``: the goal cells of the group's tiles, in the order their positions are ranked;
    ``blank``: the goal cell of the blank. ``counts[d]``: abstract states (placement and blank
    region) at distance ``d``; ``build_seconds``: the time the build took (when it was built,
    possibly in an earlier process: see ``source``, ``"built"`` or ``"cache"``)."""

    def __init__(self, rows, cols, cells, blank, table, counts, build_seconds, source):
        self.rows, self.cols = rows, cols
        self.cells = tuple(int(c) for c in cells)
        self.blank = int(blank)
        self.table = table
        self.counts = list(counts)
        self.build_seconds = float(build_seconds)
        self.source = source

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
        from .space import placement_rank

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


def _save(path, db):
    data = np.ascontiguousarray(db.table).tobytes()
    header = {
        "format": FORMAT, "rows": db.rows, "cols": db.cols, "cells": list(db.cells),
        "blank": db.blank, "entries": db.n_entries, "counts": db.counts,
        "build_seconds": db.build_seconds, "sha256": hashlib.sha256(data).hexdigest(),
    }
    write_atomic(path, header, data)


def write_atomic(path, header, data):
    """Write a JSON header line and raw bytes to ``path`` atomically (a temporary file in the
    same folder, synced, then renamed over it: readers see the old file or the whole new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(header).encode() + b"\n")
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_file(path, what="pattern database"):
    """``(header, data)`` of a file written by :func:`write_atomic`, or None when it is missing
    or unreadable (with a warning: it will be rebuilt)."""
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline())
            data = f.read()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        warnings.warn(f"{what} {path} unreadable ({exc}); rebuilding it")
        return None
    return header, data


def _load(path, rows, cols, cells, blank):
    """The database in ``path``, or None (with a warning) when it is missing, for another
    pattern, truncated or corrupt."""
    got = read_file(path)
    if got is None:
        return None
    header, data = got
    ok = (
        header.get("format") == FORMAT and header.get("rows") == rows
        and header.get("cols") == cols and header.get("cells") == list(cells)
        and header.get("blank") == blank and header.get("entries") == len(data)
        and header.get("sha256") == hashlib.sha256(data).hexdigest()
    )
    if not ok:
        warnings.warn(f"pattern database {path} failed its checksum or header check; rebuilding it")
        return None
    table = np.frombuffer(data, dtype=np.uint8).copy()
    return PatternDatabase(rows, cols, cells, blank, table, header["counts"],
                           header["build_seconds"], "cache")


_MEMORY = {}


def pattern_database(rows, cols, cells, blank, progress=None, cache=True):
    """The pattern database of the tiles whose goal cells are ``cells`` (the blank's goal cell:
    ``blank``) on a ``rows x cols`` board: from this process's memory, else from the disk
    cache, else built (and then cached, unless ``cache`` is false).

    ``progress``: ``True`` for a progress bar (depth, abstract states so far), a callable
    ``progress(depth, layer_count, total)``, or ``None``/``False``."""
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
        db = build(rows, cols, cells, blank, progress=progress)
        if cache:
            _save(path, db)
    _MEMORY[key] = db
    return db


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


def _compile_builder(fns_table):
    """Compile the builder's kernels for this kind of space on a tiny one, so that a build's
    recorded time is the search alone."""
    tiny = PatternSpace(2, 2, 1) if fns_table else PatternSpace(3, 6, 1)
    start = tiny.state([0], tiny.n_cells - 1)
    dist, _ = layered_bfs(tiny.fns, tiny.params, tiny.n_ranks,
                          [int(tiny.fns.rank(start, tiny.params))], kernel="scan")
    start_threads()
    _least_per_placement(dist, tiny.n_cells - tiny.k)


def build(rows, cols, cells, blank, progress=None):
    """Build a pattern database (no cache): breadth-first from the goal over the abstract
    space, then the least distance over the blank's regions for each placement."""
    space = PatternSpace(rows, cols, len(cells))
    _compile_builder(space.n_cells <= TABLE_CELLS)
    n_ranks = space.n_ranks
    memory.check_fits(
        n_ranks + space.n_placements,
        f"the pattern database of {len(cells)} tiles on {rows}x{cols} "
        f"({n_ranks:,} abstract states, {space.n_placements:,} placements)",
    )
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(desc=f"PDB {len(cells)} tiles", unit=" states", unit_scale=True,
                   leave=False, mininterval=1.0)

        def progress(depth, count, total):
            bar.update(total - bar.n)
            bar.set_description(f"PDB {len(cells)} tiles: depth {depth}", refresh=False)
    elif not progress:
        progress = None
    t0 = time.perf_counter()
    start = space.state(cells, blank)
    r0 = int(space.fns.rank(start, space.params))
    try:
        dist, counts = layered_bfs(space.fns, space.params, n_ranks, [r0], progress=progress,
                                   kernel="scan")
    finally:
        if bar is not None:
            bar.refresh()
            bar.close()
    start_threads()
    table = _least_per_placement(dist, space.n_cells - space.k)
    del dist
    seconds = time.perf_counter() - t0
    return PatternDatabase(rows, cols, cells, blank, table, counts, seconds, "built")


def partition_cells(name, rows, cols, goal):
    """The goal cells of each group of the named partition, for ``goal`` (a board)."""
    if name not in PARTITIONS:
        raise PuzzleError(f"unknown pattern database {name!r}: use one of {', '.join(PARTITIONS)}")
    if (rows, cols) != (4, 4):
        raise PuzzleError(f"{name} is a partition of the 4x4 board, not {rows}x{cols}")
    blank = int(np.flatnonzero(np.asarray(goal) == 0)[0])
    if blank == 0:
        return [tuple(g) for g in PARTITIONS[name]]
    if blank == 15:
        return [tuple(15 - c for c in g) for g in PARTITIONS[name]]
    raise PuzzleError(
        f"{name} is defined for goals with the blank in the top-left or bottom-right corner; "
        f"this goal has it in cell {blank} (give groups of tiles instead)"
    )
