"""Pattern databases, for every puzzle that has them: built by the library's own searches,
cached on disk.

A pattern database maps each position of an *abstraction* of the puzzle (some pieces kept,
the rest forgotten or split) to its exact distance there, found by a breadth-first search
backwards from the abstract goals; since every real move is an abstract move, that distance is
a lower bound, a heuristic for :func:`~puzzlelib.solve`'s ``idastar``, ``astar`` and
``greedy``.

- :mod:`.sliding`: additive databases of disjoint tile groups on sliding-tile boards (the
  15-puzzle's partitions ``pdb555``, ``pdb663``, ``pdb78``, or any groups), over the abstract
  space of :mod:`.space`;
- :mod:`.blocks`: document 004's relaxed databases of block puzzles (``16-10-0-l`` and the
  like), with the saved state of a long build and its resumption;
- :mod:`.permutation`: databases over groups of pieces of any permutation puzzle (pancakes,
  TopSpin, the Pocket Cube, your own), combined by their maximum.

All keep their files through :mod:`puzzlelib.core.store` (atomic writes, checksums) under
``<cache root>/pdb``. A puzzle joins by having a module here with the four functions below
(``is_name``, ``plan``, ``guide``, ``databases``) and an entry in :data:`KINDS`, under its name
or its ``pdb_kind`` (every :class:`~puzzlelib.PermutationPuzzle` has ``"permutation"``).
"""

from ..core.errors import PuzzleError
from ..core.limits import watch
from . import blocks, permutation, sliding

#: The module of each kind of puzzle's databases, by the puzzle's ``pdb_kind`` or name.
KINDS = {"sliding": sliding, "blocks": blocks, "permutation": permutation}


def _kind(puzzle):
    return KINDS.get(getattr(puzzle, "pdb_kind", None) or puzzle.name)


def _module(puzzle):
    mod = _kind(puzzle)
    if mod is None:
        raise PuzzleError(f"the {puzzle.name} puzzle has no pattern databases")
    return mod


def is_database(puzzle, heuristic):
    """Whether ``heuristic`` names pattern databases of ``puzzle``."""
    mod = _kind(puzzle)
    return mod is not None and heuristic is not None and mod.is_name(puzzle, heuristic)


def _backend(puzzle, mod, backend):
    """The keyword a module's builder takes for ``backend`` (none for the CPU)."""
    if backend == "cpu":
        return {}
    if backend != "cuda":
        raise PuzzleError(f"unknown backend {backend!r}: use one of cpu, cuda")
    if mod is not sliding:
        raise PuzzleError(f"pattern databases of the {puzzle.name} puzzle are built on the CPU; "
                          f"backend 'cuda' builds sliding-tile databases")
    return {"backend": backend}


def guide(puzzle, spec, reflect=None, progress=None, cache=True, backend="cpu"):
    """``(space, info)``: ``puzzle`` with the heuristic the databases ``spec`` give (loaded
    from the cache, or built on ``backend``), and what to report of them (``heuristic``,
    ...)."""
    mod = _module(puzzle)
    return mod.guide(puzzle, spec, reflect=reflect, progress=progress, cache=cache,
                     **_backend(puzzle, mod, backend))


def plan(puzzle, spec, reflect=None, cache=True, backend="cpu"):
    """What :func:`guide` would load or build, without loading or building anything:
    ``(databases, info)``, one ``{"name", "entries", "source", "build_bytes"}`` per database
    (``source``: ``"memory"``, ``"cache"`` or ``"build"``), and what :func:`guide` reports;
    the same checks, the same errors (the planner of :mod:`puzzlelib.plan` calls it)."""
    mod = _module(puzzle)
    _backend(puzzle, mod, backend)
    return mod.plan(puzzle, spec, reflect=reflect, cache=cache)


def databases(puzzle, spec, progress=None, cache=True, backend="cpu", *, max_memory=None,
              time_limit=None):
    """The pattern databases ``spec`` names for ``puzzle`` (sliding tiles: a partition such as
    ``"pdb78"`` or groups of tile labels; block puzzles: names such as ``"16-10-0-l"``, several
    in a list or joined by commas), from this process's memory, the disk cache, or built (and
    cached unless ``cache`` is false). ``progress``: ``True`` for a bar, or a callable
    ``progress(depth, layer_count, total)``. ``backend``: ``"cpu"``, or ``"cuda"`` (sliding
    tiles: built on an NVIDIA GPU, :mod:`puzzlelib.search.gpu`). A build stops by itself as a
    search does: ``max_memory``, ``time_limit`` and Ctrl-C as :func:`~puzzlelib.solve` takes
    them (a block database's saved state resumes the build)."""
    mod = _module(puzzle)
    named = spec if isinstance(spec, str) else ",".join(map(str, spec))
    with watch(max_memory, time_limit, f"pattern databases {named} of {puzzle.label}"):
        return mod.databases(puzzle, spec, progress=progress, cache=cache,
                             **_backend(puzzle, mod, backend))
