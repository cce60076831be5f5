"""What every search returns: :class:`Result`, with one :class:`Stats` record, and
:class:`Batch` for many starts.

The same words mean the same thing for every method and every puzzle (see :class:`Stats`), so
that two searches can be compared by their numbers alone.
"""

from dataclasses import dataclass, field

from .core.contract import UNSEEN
from .core.stats import Stats
from .core.errors import PuzzleError
from .search.layered import path_to
from .search.packed import PackedTable


#: ``Result.status`` values.
SOLVED = "solved"
NO_SOLUTION = "no solution"  # the search ran out of positions: the goal cannot be reached
BEYOND_DEPTH = "not within max_depth"  # none of at most max_depth moves
COMPLETE = "complete"  # layers: every position reachable from the start counted


@dataclass
class Result:
    """What :func:`~puzzlelib.solve` or :func:`~puzzlelib.layers` found, for any puzzle.

    ``length``: moves of the solution found, -1 when there is none (``status`` says why), None
    for :func:`~puzzlelib.layers` (no path asked). ``moves``: the solution in the puzzle's own
    notation, replayable with :meth:`positions` (sliding tiles: the blank's moves as a string
    of ``u``, ``d``, ``l``, ``r``; the Rotation Puzzle: the turned rectangles' corners
    ``[row, col]``; block puzzles: ``[[r, c], [r1, c1]]``, a piece's top-left cell before and
    after). ``counts[d]``: positions at depth ``d`` from the start, where the method has layers
    (``layers``, ``bfs``). ``stats``: what the search did (:class:`Stats`). ``extra``: what only
    some methods or puzzles have (the heuristic, its value at the start, IDA*'s bounds, both
    sides' layers of bidirectional search, the time to get pattern databases...)."""

    puzzle: object = field(repr=False)
    method: str
    start: object
    length: object
    moves: object
    status: str
    stats: Stats
    threads: int = 1
    counts: list = None
    solutions: int = None
    farthest: list = None
    n_farthest: int = None
    extra: dict = field(default_factory=dict)
    table: object = field(default=None, repr=False)  # bytes, or a packed table
    _space: object = field(default=None, repr=False)

    @property
    def total(self):
        """Positions counted in all layers (``sum(counts)``)."""
        return None if self.counts is None else int(sum(self.counts))

    @property
    def max_depth(self):
        """The greatest depth of the layers (``len(counts) - 1``)."""
        return None if self.counts is None else len(self.counts) - 1

    def positions(self):
        """Every position from the start to the end of the solution, the start included."""
        if self.length is None or self.length < 0:
            return [self.start]
        return self.puzzle.replay(self.start, self.moves)

    def depth(self, position):
        """Moves from the start to ``position`` (-1 when it cannot be reached), read from the
        distance table of :func:`~puzzlelib.layers` (puzzles with a perfect hash)."""
        space, rank = self._rank_in_table(position)
        if isinstance(self.table, PackedTable):
            return self.table.depth(rank)
        d = int(self.table[rank])
        return -1 if d == UNSEEN else d

    def path_to(self, position):
        """A shortest solution from the start to ``position``, read back from the distance
        table, in the puzzle's notation (None when it cannot be reached)."""
        space, rank = self._rank_in_table(position)
        if isinstance(self.table, PackedTable):
            path = self.table.path(rank)
            return None if path is None else space.moves_out(path)
        if self.table[rank] == UNSEEN:
            return None
        return space.moves_out(path_to(self.table, rank, space.fns, space.params))

    def _rank_in_table(self, position):
        if self.table is None or self._space is None:
            raise PuzzleError("this result keeps no distance table: depth() and path_to() need "
                              "layers() on a puzzle with a perfect hash")
        space = self._space
        state = space.encode(position, what="position")
        return space, int(space.fns.rank(state, space.params))

    def to_dict(self):
        """Everything but the table, as plain JSON types."""
        out = {"puzzle": self.puzzle.describe(), "method": self.method, "start": self.start,
               "length": self.length, "moves": self.moves, "status": self.status,
               "threads": self.threads}
        for name in ("counts", "solutions", "farthest", "n_farthest"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        out["stats"] = self.stats.to_dict()
        out.update(self.extra)
        return out


@dataclass
class Batch:
    """What :func:`~puzzlelib.solve_many` found: one :class:`Result` per start, in order, and
    ``stats`` for the whole batch (``seconds``: its wall time). Where the starts are searched
    at once on several threads, a start's own ``stats.seconds`` is not measured (None)."""

    puzzle: object = field(repr=False)
    method: str
    results: list
    stats: Stats
    threads: int
    extra: dict = field(default_factory=dict)

    def __len__(self):
        return len(self.results)

    def __iter__(self):
        return iter(self.results)

    def __getitem__(self, i):
        return self.results[i]

    @property
    def lengths(self):
        return [r.length for r in self.results]

    @property
    def moves(self):
        return [r.moves for r in self.results]

    @property
    def generated(self):
        return [r.stats.generated for r in self.results]

    def to_dict(self):
        return {"puzzle": self.puzzle.describe(), "method": self.method, "threads": self.threads,
                "results": [{k: v for k, v in r.to_dict().items() if k != "puzzle"}
                            for r in self.results],
                "stats": self.stats.to_dict(), **self.extra}
