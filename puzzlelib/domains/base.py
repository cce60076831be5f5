"""What every puzzle gives the searches: :class:`Puzzle`.

A puzzle is two things. Its *jitted functions* (``fns``, ``params`` and the optional bundles of
:mod:`puzzlelib.core.contract`) are what the search kernels run. Its *Python side*, this class,
is what :func:`puzzlelib.solve`, :func:`puzzlelib.layers` and :func:`puzzlelib.solve_many`
need around them: reading a position written by a person (``encode``, with a clear error for a
bad one), writing it back (``decode``), the goal, the moves in the puzzle's own notation, and a
picture (``draw``). A new puzzle subclasses it, fills in those few methods, and every search
runs on it unchanged.

Which searches apply follows from what the puzzle offers, never from its name:

- ``bfs`` and ``layers`` keep a one-byte distance table when the puzzle has a perfect hash
  (``n_ranks``), else layers of whole states (frontier search);
- ``bidir`` needs a single goal position (``goal_state``);
- ``iddfs`` and ``idastar`` step in place with ``depth_first.fns``, or through a cursor when
  the puzzle has one (``depth_first.cursor``), or through candidate moves when it lists them
  (``frontier``);
- ``astar`` and ``greedy`` keep whole states;
- a heuristic is whatever the puzzle's ``with_heuristic`` gives (0 by default), and pattern
  databases come from :mod:`puzzlelib.pdb`.
"""

import numpy as np

from ..core.contract import ILLEGAL, DepthFirstFns
from ..core.errors import PuzzleError

#: Every search method, in the order the documentation lists them.
METHODS = ("bfs", "bidir", "iddfs", "idastar", "astar", "greedy")


class Puzzle:
    """The Python side of a puzzle domain (see the module). Subclasses set ``name``, ``fns``
    and ``params`` and implement :meth:`encode`, :meth:`decode`, :meth:`goal_state`,
    :meth:`describe`, :meth:`moves_out`, :meth:`moves_in` and :meth:`draw`."""

    #: The name the command line knows it by (``--puzzle NAME``).
    name = "puzzle"
    #: The methods :func:`~puzzlelib.solve` accepts for it.
    methods = METHODS
    default_method = "idastar"
    #: Named heuristics :meth:`with_heuristic` knows (pattern databases apart).
    heuristics = ("none",)
    default_heuristic = "none"
    #: The heuristic of this instance.
    heuristic = "none"
    #: False when the jitted functions work in scratch arrays of ``params``: the searches then
    #: run on one thread.
    thread_safe = True
    #: Positions a transposition table of IDA* records per pass by default (0: none). Worth it
    #: where many move orders reach one position.
    default_transpositions = 0
    #: The limits :func:`~puzzlelib.solve` applies unless told otherwise.
    default_max_depth = 254
    default_max_states = 20_000_000
    #: True when every call with the same bundle of functions passes ``params`` of the same
    #: numba types: kernels may then be called without typing their arguments again.
    stable_types = False

    # The jitted functions, one bundle per kind of search that needs more than ``fns`` (see
    # puzzlelib.core.contract, where each bundle is described with the searches reading it).
    #: Every search's :class:`~puzzlelib.core.contract.DomainFns`.
    fns = None
    params = None
    #: Compact keys and candidate moves (:class:`~puzzlelib.core.contract.FrontierFns`) for
    #: the searches over whole states (frontier BFS, A*, the sorted frontier) and the candidate
    #: loop of depth-first search, or None.
    frontier = None
    #: 64-bit keys (:class:`~puzzlelib.core.contract.KeyFns`) for bidirectional search, and for
    #: layered BFS's lists when they carry ``rank_after`` (equal to ``fns.rank``), or None.
    keys = None
    #: Positions as 64-bit words (:class:`~puzzlelib.core.contract.WordFns`), for the
    #: puzzles whose :meth:`word_params` are not None.
    words = None
    buckets = None
    #: How :func:`~puzzlelib.layers` keeps its layers (:func:`puzzlelib.search.layered.layered_bfs`):
    #: ``"lists"`` of positions, or ``"scan"``/``"scan-up"`` of the table (tables too big for
    #: the lists).
    layer_kernel = "lists"

    _depth_first = None

    @property
    def depth_first(self):
        """What depth-first search steps with (:class:`~puzzlelib.core.contract.DepthFirstFns`):
        by default ``fns`` and no cursor."""
        return DepthFirstFns(self.fns) if self._depth_first is None else self._depth_first

    @depth_first.setter
    def depth_first(self, bundle):
        self._depth_first = bundle

    def move_automaton(self):
        """An automaton of move strings depth-first search need not play, because a smaller
        string reaches the same position (``int32`` table ``T[q, m]``: the state after move
        ``m`` in state ``q``, -1 for a move not to make; see :mod:`puzzlelib.domains.cycles`),
        or None: the search then only never undoes its last move."""
        return None

    @property
    def n_ranks(self):
        """The size of the perfect hash's range, or None when there is none."""
        return None

    def word_params(self):
        """The params of :attr:`words` when this puzzle's positions fit a 64-bit word and
        :func:`~puzzlelib.layers` and breadth-first :func:`~puzzlelib.solve` may search them as
        words (:mod:`puzzlelib.search.wordbfs`), else None."""
        return None

    def word_moves(self, words):
        """The move numbers along a path of words (positions one move apart), for
        :func:`~puzzlelib.solve`'s breadth-first search over words."""
        raise NotImplementedError

    def scan_params(self):
        """``params`` for a scan of the whole distance table (:func:`~puzzlelib.layers` when
        the layers are not kept as lists): a domain may add tables there that only such a scan
        pays back (the same numba type as ``params``)."""
        return self.params

    def kernel_arguments(self):
        """The objects the kernels receive from this puzzle (``params`` and the bundles of
        functions): their numba types are worked out once before a search is timed."""
        return tuple(a for a in (self.params, self.fns, *self.depth_first, self.frontier,
                                 self.keys) if a is not None)

    # -- positions ------------------------------------------------------------------------
    def encode(self, position, what="start"):
        """A position as a person writes it -> the kernels' state (``uint8``), checked: raises
        :class:`~puzzlelib.PuzzleError` naming what is wrong (``what`` names the position)."""
        raise NotImplementedError

    def decode(self, state):
        """The kernels' state -> the position as :meth:`encode` reads it (plain Python)."""
        raise NotImplementedError

    def goal_state(self):
        """The goal's state when there is exactly one goal position, else None."""
        return None

    def default_start(self):
        """The start when none is given (a block puzzle's own board); None: one is needed."""
        return None

    def residue(self, state):
        """Every solution from ``state`` has a length ``residue + k * params.bound_step``
        (sliding tiles: the parity of the blank's distance to its goal cell). 0 by default."""
        return 0

    def rooted(self, start):
        """The puzzle :func:`~puzzlelib.layers` searches from ``start`` (by default this
        one)."""
        return self

    # -- heuristics -----------------------------------------------------------------------
    def with_heuristic(self, name):
        """This puzzle with heuristic ``name`` (one of :attr:`heuristics`)."""
        if name in (None, "none", self.heuristic):
            return self
        raise PuzzleError(f"unknown heuristic {name!r} for the {self.name} puzzle: use "
                          f"{', '.join(self.heuristics)}")

    def heuristic_value(self, state):
        return int(self.fns.heuristic(state, self.params))

    # -- moves ------------------------------------------------------------------------------
    def moves_out(self, path):
        """Move numbers of a path -> the moves in the puzzle's notation (JSON types)."""
        raise NotImplementedError

    def moves_in(self, state, moves):
        """The puzzle's notation -> move numbers, each checked legal from ``state`` on."""
        raise NotImplementedError

    def move_order(self, order):
        """The move numbers in the order ``order`` names them (the order depth-first search
        tries them in; see :func:`puzzlelib.solve`)."""
        raise PuzzleError(f"order applies to sliding tiles (the blank's moves u, d, l, r), not "
                          f"the {self.name} puzzle")

    def replay(self, start, moves):
        """Every position from ``start`` along ``moves`` (the puzzle's notation), the start
        included; raises :class:`~puzzlelib.PuzzleError` at an impossible move."""
        state = self.encode(start)
        out = [self.decode(state)]
        for m in self.moves_in(state.copy(), moves):
            self.fns.step(state, m, self.params)
            out.append(self.decode(state))
        return out

    def neighbours(self, position):
        """``(move, position)`` for every legal move from ``position``, in the puzzle's
        notation: a plain-Python view of the jitted ``step``, for teaching and tests."""
        state = self.encode(position, what="position")
        out = []
        for m in range(int(self.params.n_moves)):
            child = state.copy()
            if self.fns.step(child, m, self.params) != ILLEGAL:
                out.append((self.moves_out(np.array([m]))[0], self.decode(child)))
        return out

    # -- description and drawing ------------------------------------------------------------
    @property
    def label(self):
        """A short name for messages and progress bars (sliding tiles: ``3x3``)."""
        return self.name

    def describe(self):
        """The puzzle as JSON types: its name and whatever defines it (size, goal...)."""
        return {"puzzle": self.name}

    def text(self, position):
        """``position`` as one line of text (a sequence: its entries joined by spaces)."""
        if isinstance(position, (list, tuple)):
            return " ".join(str(x) for x in position)
        return str(position)

    def layers_extra(self):
        """What :func:`~puzzlelib.layers` reports besides the counts (sliding tiles: the
        hash)."""
        return {}

    @property
    def footprint(self):
        """``(width, height)`` of a drawn position, in the units :meth:`draw` uses."""
        raise NotImplementedError

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """Draw ``position`` on matplotlib axes ``ax`` with its top-left corner at ``(x0, y0)``
        (y grows downwards; one cell a unit), with ``title`` above it; ``mark``: something to
        point out, as the puzzle understands it (a tile, a rectangle, a piece)."""
        raise NotImplementedError

    def move_mark(self, position, after, move):
        """What :meth:`draw` should outline on ``position`` to show ``move`` (in the puzzle's
        notation) about to be made, ``after`` being the position it leads to; None: nothing.
        Animations of a solution use it."""
        return None

    def __repr__(self):
        inside = ", ".join(f"{k}={v!r}" for k, v in self.describe().items() if k != "puzzle")
        return f"{type(self).__name__}({inside})"
