"""Pattern databases for permutation puzzles (:class:`~puzzlelib.PermutationPuzzle` and the
puzzles built on it), over a group of pieces: built by our own BFS, cached on disk.

The abstraction keeps ``q`` chosen pieces (distinct labels) and forgets the others: an
abstract state is where those pieces are among the ``m`` cells that moves change (and their
orientations). Every real move is a move of the abstract space, so a breadth-first search
from the goal's pattern gives, for every placement, a lower bound on the moves left. A move
moves many pieces at once, so databases of several groups are combined by their maximum, not
their sum.

The abstract space is a puzzle domain of its own (step, rank, unrank: a placement of ``q`` of
``m`` cells, ``m! / (m - q)!`` of them, times ``k ** q`` orientations), searched by the
library's layered BFS: by layer lists shared among threads by where the first piece is, or,
for large tables of puzzles with many moves, by scanning the table. The table is the
database. Files are kept under ``<cache root>/pdb`` through :mod:`puzzlelib.core.store`, named
by the puzzle's definition (:meth:`~puzzlelib.PermutationPuzzle.definition_digest`) and the
pieces.
"""

import math
from collections import namedtuple
from contextlib import nullcontext

import numpy as np

from ..core import memory, store
from ..core.contract import UNSEEN, DomainFns, domain_fn
from ..core.errors import PuzzleError
from ..core.hashing import divmod_fast
from ..core.progress import layer_bar
from ..core.stats import Stats
from ..core.timing import timed
from ..domains.permutation import _inverse, _is_goal, _label, no_heuristic
from ..search.layered import layered_bfs
from .space import placement_rank

FORMAT = "puzzlelib-permutation-pdb-1"
#: ``heuristic="pdb"`` takes groups of as many pieces as keep each table at most this big.
DEFAULT_ENTRIES = 1 << 22
#: The most cells a placement is ranked over (a 64-bit mask of the cells taken).
MAX_CELLS = 63
#: Builds whose layer lists could need more rows than this scan the table instead.
LIST_ROWS = 1 << 27

PatParams = namedtuple(
    "PatParams",
    [
        "state_len",  # q, or 2 q with orientations
        "n_moves",
        "bound_step",  # 1
        "q",  # pieces kept
        "m",  # cells moves change
        "k",  # orientations
        "dest",  # the puzzle's: dest[j, c], the cell move j sends the piece of cell c to
        "tadd",  # the puzzle's: tadd[j, c, o], the orientation after arriving at c by move j
        "inv",
        "goal",  # the goal pattern's state
        "hpos",  # state_len: the goal test reads the whole state
        "kq",  # k ** q
    ],
)


@domain_fn
def _step(state, j, p):
    q = p.q
    for t in range(q):
        c = p.dest[j, state[t]]
        state[t] = c
        if p.k > 1:
            state[q + t] = p.tadd[j, c, state[q + t]]
    return 0


@domain_fn
def _rank(state, p):
    """The placement's rank (as :func:`puzzlelib.domains.permutation.heuristic.pattern_max` reads it),
    then the orientations."""
    r = placement_rank(state, p.q, p.m)
    if p.k > 1:
        o = np.int64(0)
        for t in range(p.q):
            o = o * p.k + state[p.q + t]
        r = r * p.kq + o
    return r


@domain_fn
def _unrank(r, p, state):
    q = p.q
    if p.k > 1:
        r, o = divmod_fast(r, p.kq)
        for t in range(q - 1, -1, -1):
            o, d = divmod_fast(o, np.int64(p.k))
            state[q + t] = d
    for t in range(q - 1, -1, -1):  # the digits, last first
        r, d = divmod_fast(r, np.int64(p.m - t))
        state[t] = d
    used = np.int64(0)
    for t in range(q):  # digit d: the d-th cell not taken yet
        d = np.int64(state[t])
        x = 0
        while True:
            if not (used >> x) & 1:
                if d == 0:
                    break
                d -= 1
            x += 1
        state[t] = x
        used |= np.int64(1) << x


@domain_fn
def _rank_after(state, j, r, p):
    return _rank(state, p)


# (the puzzle's own inverse and goal test serve: the goal pattern is ``goal[:hpos]``)
FNS = DomainFns(_step, _inverse, _is_goal, no_heuristic, _rank, _unrank, _rank_after)


def cache_dir():
    return store.cache_root() / "pdb"


class PermutationPDB:
    """One group's database: ``table[rank]`` = the fewest moves that bring the group's pieces
    home (255 where no position of the puzzle has that pattern). ``pieces``: the pieces'
    labels; ``counts[d]``: patterns at distance ``d``; ``source``: ``"built"`` or
    ``"cache"``."""

    def __init__(self, pieces, table, counts, build_seconds, source, stats=None):
        self.pieces = list(pieces)
        self.table = table
        self.counts = list(counts)
        self.build_seconds = float(build_seconds)
        self.source = source
        self.stats = stats if stats is not None else Stats(stored=sum(self.counts),
                                                           seconds=self.build_seconds)

    @property
    def name(self):
        return ",".join(map(str, self.pieces))

    @property
    def max_value(self):
        return len(self.counts) - 1

    def histogram(self):
        """How many patterns have each value (index = value)."""
        return np.bincount(self.table[self.table != UNSEEN]).tolist()

    def __repr__(self):
        return (f"PermutationPDB(pieces {self.name}, {self.table.shape[0]:,} entries, "
                f"max {self.max_value})")


def _space(puzzle, idx):
    """The abstract space's params for pieces ``idx`` (piece numbers)."""
    p = puzzle.params
    q, m, k = len(idx), p.m, p.k
    goal = np.zeros(2 * q if k > 1 else q, dtype=np.uint8)
    goal[:q] = idx  # piece i's goal cell is cell i
    return PatParams(len(goal), p.n_moves, 1, q, m, k, p.dest, p.tadd, p.inv, goal, len(goal),
                     k ** q)


def n_entries(puzzle, q):
    p = puzzle.params
    return math.perm(p.m, q) * p.k ** q


def piece_numbers(puzzle, labels):
    """The piece numbers of ``labels`` (one group), checked."""
    if not puzzle.distinct:
        raise PuzzleError(f"pattern databases need distinct pieces; the {puzzle.label} puzzle "
                          f"has repeated labels")
    if puzzle.params.m > MAX_CELLS:
        raise PuzzleError(f"pattern databases rank at most {MAX_CELLS} moving cells; the "
                          f"{puzzle.label} puzzle has {puzzle.params.m}")
    out = []
    for lab in labels:
        key = _label(lab)
        if key not in puzzle.piece_of:
            raise PuzzleError(f"pattern piece {lab!r} is not a piece of the {puzzle.label} "
                              f"puzzle")
        i = puzzle.piece_of[key]
        if i >= puzzle.params.m:
            raise PuzzleError(f"pattern piece {lab!r} never moves: leave it out")
        out.append(i)
    if not out:
        raise PuzzleError("a pattern database needs at least one piece")
    if len(set(out)) != len(out):
        raise PuzzleError(f"a pattern database's pieces must differ: {list(labels)}")
    return out


def default_groups(puzzle, entries=DEFAULT_ENTRIES):
    """The groups ``heuristic="pdb"`` uses: as many pieces as keep a table at most ``entries``
    big (the moving pieces in the order of the goal), the first ones and the last ones (one
    group when they would overlap)."""
    m = puzzle.params.m
    q = 1
    while q < m - 1 and n_entries(puzzle, q + 1) <= entries:
        q += 1
    pieces = [puzzle.label_of[i] for i in range(m)]
    if 2 * q > m:
        return [pieces[:q]]
    return [pieces[:q], pieces[m - q:]]


def parse_spec(puzzle, spec):
    """Groups of piece labels from ``"pdb"``, ``"pdb:1,2,3/4,5,6"`` or a list of groups."""
    if isinstance(spec, str):
        if spec == "pdb":
            return default_groups(puzzle)
        if spec.startswith("pdb:"):
            groups = [[t for t in g.replace(" ", "").split(",") if t]
                      for g in spec[4:].split("/")]
            if not any(groups):
                raise PuzzleError(f"{spec!r} names no pieces: write pdb:1,2,3/4,5,6")
            return groups
        raise PuzzleError(f"unknown pattern database {spec!r}: use pdb or pdb:1,2,3/4,5,6")
    try:
        return [list(g) for g in spec]
    except TypeError:
        raise PuzzleError(f"pattern databases are groups of pieces, not {spec!r}") from None


def _file_for(puzzle, idx):
    return cache_dir() / f"perm_{puzzle.definition_digest()}_{'-'.join(map(str, idx))}.pdb"


def _header(puzzle, idx):
    return {"format": FORMAT, "definition": puzzle.definition_digest(), "pieces": list(idx)}


def _load(path, puzzle, labels, idx, quiet=False):
    """The database of pieces ``labels`` (numbers ``idx``) in ``path``, or None (with a
    warning, unless ``quiet``, when the file is there but unusable)."""
    got = store.read(path, _header(puzzle, idx), "pattern database", quiet=quiet)
    if got is None:
        return None
    header, (table,) = got
    if table.dtype != np.uint8 or table.shape != (n_entries(puzzle, len(idx)),):
        return None
    return PermutationPDB(labels, table, header["counts"], header["build_seconds"], "cache",
                          Stats.from_dict(header.get("stats", {})))


_MEMORY = {}


def pattern_database(puzzle, labels, progress=None, cache=True):
    """The database of the pieces ``labels`` of ``puzzle``: from this process's memory, else
    the disk cache, else built (and cached unless ``cache`` is false). ``progress``: ``True``
    for a bar, or a callable ``progress(depth, layer_count, total)``."""
    idx = piece_numbers(puzzle, labels)
    key = (puzzle.definition_digest(), tuple(idx))
    if key in _MEMORY:
        return _MEMORY[key]
    path = _file_for(puzzle, idx)
    db = _load(path, puzzle, labels, idx) if cache else None
    if db is None:
        with store.locked(path, "the pattern database") if cache else nullcontext():
            db = _load(path, puzzle, labels, idx, quiet=True) if cache else None  # another's
            if db is None:
                db = build(puzzle, labels, progress=progress)
                if cache:
                    store.write(path, dict(_header(puzzle, idx), counts=db.counts,
                                           build_seconds=db.build_seconds,
                                           stats=dict(db.stats.to_dict(), compile_seconds=0.0)),
                                [db.table])
    _MEMORY[key] = db
    return db


def build(puzzle, labels, progress=None):
    """Build the database of pieces ``labels`` (no cache): breadth-first from the goal's
    pattern. ``build_seconds`` leave out compiling."""
    idx = piece_numbers(puzzle, labels)
    params = _space(puzzle, idx)
    size = n_entries(puzzle, len(idx))
    memory.check_fits(size, f"the pattern database of pieces {', '.join(map(str, labels))} "
                            f"({size:,} entries, one byte each)")
    m = params.m
    if size * params.n_moves <= LIST_ROWS and m >= 2:
        buckets = (np.ascontiguousarray(params.dest[:, :m].T.astype(np.int64)), size // m)
        kernel = "lists"
    else:
        buckets, kernel = None, "scan"
    r0 = int(FNS.rank(params.goal, params))
    with timed() as timer, timer.phase() as ph, layer_bar(
            progress is True, size, f"PDB {len(idx)} pieces", progress) as update:
        res = layered_bfs(FNS, params, size, [r0], progress=update, buckets=buckets,
                          kernel=kernel)
    stats = Stats(res.generated, res.expanded, sum(res.counts), res.peak_bytes, ph.seconds,
                  timer.compile_seconds)
    return PermutationPDB(labels, res.dist, res.counts, ph.seconds, "built", stats)


# ---------------------------------------------------------------------------------------------
# for the API (see puzzlelib.pdb)
# ---------------------------------------------------------------------------------------------


def is_name(puzzle, heuristic):
    return isinstance(heuristic, str) and (heuristic == "pdb" or heuristic.startswith("pdb:"))


def databases(puzzle, spec, progress=None, cache=True):
    """One database per group of ``spec`` (``"pdb"``, ``"pdb:1,2,3/4,5,6"``, or groups of
    piece labels)."""
    groups = parse_spec(puzzle, spec)
    for g in groups:  # every group checked before any is built
        piece_numbers(puzzle, g)
    return [pattern_database(puzzle, g, progress=progress, cache=cache) for g in groups]


def plan(puzzle, spec, reflect=None, cache=True):
    """What :func:`guide` would load or build, without either: ``(databases, info)``, one
    ``{"name", "entries", "source"}`` per database, and what :func:`guide` reports. The same
    checks as :func:`guide`, the same errors."""
    if reflect is not None:
        raise PuzzleError("reflect applies to sliding tiles' pattern databases")
    out = []
    for g in parse_spec(puzzle, spec):
        idx = piece_numbers(puzzle, g)
        key = (puzzle.definition_digest(), tuple(idx))
        size = n_entries(puzzle, len(idx))
        source = ("memory" if key in _MEMORY else
                  "cache" if cache and _file_for(puzzle, idx).exists() else "build")
        out.append({"name": "pieces " + ",".join(str(_label(x)) for x in g), "entries": size,
                    "source": source, "build_bytes": size})
    return out, {"heuristic": spec if isinstance(spec, str) else "pdb"}


def guide(puzzle, spec, reflect=None, progress=None, cache=True):
    """``puzzle`` guided by the maximum of the databases ``spec`` (built with a progress bar
    unless ``progress`` is False), and what to report."""
    if reflect is not None:
        raise PuzzleError("reflect applies to sliding tiles' pattern databases")
    dbs = databases(puzzle, spec, progress=True if progress is None else progress,
                    cache=cache)
    hdata = []
    off = 0
    for db in dbs:
        idx = piece_numbers(puzzle, db.pieces)
        hdata += [off, len(idx)] + idx
        off += db.table.shape[0]
    htab = np.concatenate([db.table for db in dbs]) if len(dbs) > 1 else dbs[0].table
    name = spec if isinstance(spec, str) else "pdb"
    space = puzzle.with_tables(hdata, htab, name)
    space.pdbs = dbs
    return space, {"heuristic": name,
                   "pdb_groups": [[_label(x) for x in db.pieces] for db in dbs]}
