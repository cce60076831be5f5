"""The block puzzle: :class:`BlockPuzzle` (a board, its pieces, a metric and a goal; its
positions, moves and drawing for the API), the bundles of domain functions its searches are
given, and :data:`CLASSIC`, the classic start.
"""

import copy

import numpy as np

from ...core.contract import (ILLEGAL, DomainFns, FrontierFns, no_rank, no_rank_after,
                              no_unrank)
from ..base import Puzzle
from ...core.errors import PuzzleError
from .drawing import draw_board
from .encoding import MV_CELL, MV_COL, MV_DC, MV_DR, MV_KIND, MV_ROW, METRICS, PATH, SHAPES, \
    STRAIGHT, UNIT, BlockParams
from .heuristic import _no_pdb_fields, set_heuristic
from .moves import (_candidates, _heuristic, _inverse, _is_goal, _play, _play_plain, _step,
                    _step_plain, _tables)
from .packing import _pack, _unpack, code_tables, key_bits, prefix_lengths
from .parsing import cells_from_pieces, parse_board, parse_goal, render
from .words import WORD_CELLS, WORDS, word_params

#: The domain's functions, for every puzzle.
FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, no_rank, no_unrank, no_rank_after)
#: The same for puzzles without pattern databases (``p.n_pdbs == 0``), faster: moves leave the
#: heuristic byte alone (the searches of :class:`BlockPuzzle` without a heuristic, and the
#: pattern-database builds, which search relaxed puzzles).
FNS_PLAIN = DomainFns(_step_plain, _inverse, _is_goal, _heuristic, no_rank, no_unrank,
                      no_rank_after)
#: Compact keys and candidate moves for the frontier search, for every puzzle (FRONTIER) and
#: for puzzles without pattern databases (FRONTIER_PLAIN, faster).
FRONTIER = FrontierFns(_pack, _unpack, _candidates, _play)
FRONTIER_PLAIN = FrontierFns(_pack, _unpack, _candidates, _play_plain)


#: The classic Hakoiri-musume start (5 rows x 4 columns): the daughter must reach the bottom
#: centre (row 3, column 1).
CLASSIC = "ABBC\nABBC\nDEEF\nDGHF\nI..J"


class BlockPuzzle(Puzzle):
    """A sliding-block board (its size and the pieces it holds) with a move metric and a goal.

    ``board`` is the board as text (see the package's doc; it is also the default start) or a
    list of ``(shape, row, col)`` pieces with ``rows`` and ``cols``. Every start must hold the
    same pieces on a board of the same size. ``metric``: ``"unit"`` (one piece one cell),
    ``"straight"`` (one piece any distance in a line; the default, the one document 004's
    relaxation implies) or ``"path"`` (one piece along any path). ``goal`` is the daughter's
    top-left cell (``(r, c)`` or ``"r,c"``), None for the default (the bottom rows, centred),
    or ``False`` for no goal (counting positions only). ``relax`` (used by pattern databases):
    let two adjacent 1x1 pieces move together as one.

    A solution's ``moves`` lists each move as the moving piece's top-left cell before and
    after: ``[[r, c], [r1, c1]]``. Heuristics are pattern databases named as in document 004
    (``ONES-H-V-MAP``, e.g. ``36-0-0-f``; several joined by commas take the maximum; see
    :mod:`puzzlelib.pdb.blocks`).
    """

    name = "blocks"
    fns = FNS_PLAIN  # (with pattern databases: FNS and FRONTIER, see with_pdb_fields)
    frontier = FRONTIER_PLAIN
    words = WORDS
    methods = ("bfs", "iddfs", "idastar", "astar", "greedy")
    default_method = "bfs"
    # the heuristic works in scratch arrays of params: one search at a time per params
    thread_safe = False
    # many move orders reach one position (pieces of a shape are alike, distant moves commute)
    default_transpositions = 1 << 22
    default_max_states = 50_000_000

    def __init__(self, board, metric="straight", goal=None, rows=None, cols=None, relax=False):
        if isinstance(board, str) or (rows is None and not isinstance(board, np.ndarray)):
            rows, cols, pieces = parse_board(board)
        else:
            pieces = list(board)
        self.rows, self.cols = int(rows), int(cols)
        self.n_cells = self.rows * self.cols
        self.start_cells = cells_from_pieces(self.rows, self.cols, pieces)
        if metric not in METRICS:
            raise PuzzleError(f"unknown metric {metric!r}: choose unit, straight or path")
        self.metric = metric
        self.counts = {s: sum(1 for p in pieces if p[0] == s) for s in SHAPES}
        self.n_empty = self.n_cells - sum(
            SHAPES[s][0] * SHAPES[s][1] * k for s, k in self.counts.items())
        if goal is False:
            self.goal = None
        else:
            if self.counts["2x2"] == 0:
                raise PuzzleError("the board has no 2x2 piece, so no goal can be set "
                                  "(use goal=False to count positions only)")
            self.goal = parse_goal(goal, self.rows, self.cols)
        self.relax = bool(relax)
        #: The pattern databases' names (see :meth:`with_pdb_fields`), or empty.
        self.pdb_names = []
        self.heuristic = "none"
        self.params = self._params()

    def _params(self, pdb_fields=None):
        m = {"unit": UNIT, "straight": STRAIGHT, "path": PATH}[self.metric]
        reach = 1 if m == UNIT else max(1, min(self.n_empty, max(self.rows, self.cols) - 1))
        n_kinds = 3 if self.relax else 1
        mv, n_actions, probe = _tables(self.rows, self.cols, m, reach, n_kinds)
        goal = -1 if self.goal is None else self.goal[0] * self.cols + self.goal[1]
        if pdb_fields is None:
            pdb_fields = _no_pdb_fields(self.n_cells)
        image_len = pdb_fields[1]
        side = 2 * reach + 1
        scratch = np.zeros(4 * self.n_cells + side * side, dtype=np.int64)
        scratch8 = np.zeros(self.n_cells + image_len + side * side, dtype=np.uint8)
        return BlockParams(
            self.n_cells + 1, mv.shape[0], 1, self.rows, self.cols, self.n_cells, m, n_kinds,
            n_actions, reach, goal, mv, probe, *pdb_fields, scratch, scratch8,
            (self.key_bits + 7) // 8 + (pdb_fields[0] > 0), *code_tables(self.key_lengths),
            np.zeros(4 * n_kinds * self.n_cells, dtype=np.uint8),
            np.zeros(4 * n_kinds * self.n_cells, dtype=np.int64),
        )

    def word_params(self):
        """Boards of up to :data:`WORD_CELLS` cells without pattern databases or relaxed moves
        are searched as words by :func:`~puzzlelib.layers`."""
        if self.n_cells > WORD_CELLS or self.relax or self.params.n_pdbs > 0:
            return None
        if getattr(self, "_word_params", None) is None:
            m = {"unit": UNIT, "straight": STRAIGHT, "path": PATH}[self.metric]
            self._word_params = word_params(self.rows, self.cols, m, self.params.goal)
        return self._word_params

    def word_moves(self, words):
        """The move numbers that take each position of ``words`` (a path of words, one move
        apart) to the next: the field that empties is the piece's top-left cell before, the
        one that fills it after."""
        if getattr(self, "_move_of", None) is None:
            mv = self.params.mv
            self._move_of = {(int(mv[m, MV_CELL]), int(mv[m, MV_DR]), int(mv[m, MV_DC])): m
                             for m in range(mv.shape[0]) if mv[m, MV_KIND] == 0}
        out = []
        for a, b in zip(words[:-1], words[1:]):
            a, b = int(a), int(b)
            changed = [i for i in range(self.n_cells) if (a >> (3 * i)) & 7 != (b >> (3 * i)) & 7]
            src = next(i for i in changed if (a >> (3 * i)) & 7)
            dst = next(i for i in changed if (b >> (3 * i)) & 7)
            (r0, c0), (r1, c1) = divmod(src, self.cols), divmod(dst, self.cols)
            out.append(self._move_of[(src, r1 - r0, c1 - c0)])
        return out

    @property
    def symbol_counts(self):
        """How many empty cells and pieces of each shape (1x1, 1x2, 2x1, 2x2) the board has:
        the same in every position."""
        return (self.n_empty, *(self.counts[s] for s in SHAPES))

    @property
    def key_lengths(self):
        """Bits of the key's code for each symbol (see :mod:`.packing`)."""
        return prefix_lengths(self.symbol_counts)

    @property
    def key_bits(self):
        """Bits of a position's key (every position of this board has the same)."""
        return key_bits(self.symbol_counts, self.key_lengths)

    def key(self, state):
        """The compact key of a state, as bytes."""
        out = np.zeros(self.params.key_len, dtype=np.uint8)
        _pack(np.asarray(state, dtype=np.uint8), self.params, out)
        return out

    def from_key(self, key):
        """The state whose key is ``key``."""
        s = np.zeros(self.n_cells + 1, dtype=np.uint8)
        _unpack(np.asarray(key, dtype=np.uint8), self.params, s)
        return s

    def with_pdb_fields(self, fields, names=()):
        """A copy of this puzzle whose heuristic reads the pattern-database ``fields`` (the
        ``params`` fields :func:`puzzlelib.pdb.blocks.heuristic_fields` makes), with scratch
        arrays of its own."""
        out = copy.copy(self)
        out.params = self._params(fields)
        pdb = out.params.n_pdbs > 0
        out.fns, out.frontier = (FNS, FRONTIER) if pdb else (FNS_PLAIN, FRONTIER_PLAIN)
        out.pdb_names = list(names)
        out.heuristic = ",".join(names) if names else "pdb"
        return out

    def rooted(self, start):
        """The same pieces with no goal: :func:`~puzzlelib.layers` counts every position
        reachable from ``start``."""
        self.encode(start)
        return BlockPuzzle(start, metric=self.metric, goal=False)

    @property
    def size(self):
        return f"{self.rows}x{self.cols}"

    @property
    def label(self):
        return f"{self.size} blocks"

    def describe(self):
        return {"puzzle": self.name, "size": self.size, "metric": self.metric,
                "goal": None if self.goal is None else list(self.goal),
                "board": self.render()}

    # -- positions ------------------------------------------------------------------------
    def default_start(self):
        return self.render()

    def encode(self, position=None, what="start"):
        """A board as text (checked: this puzzle's size and pieces) -> the kernels' state
        (cells plus the heuristic byte); None: this puzzle's own board."""
        if position is None:
            cells = self.start_cells
        elif isinstance(position, np.ndarray) and position.dtype == np.uint8:
            cells = position[: self.n_cells]
        else:
            rows, cols, pieces = parse_board(position)
            if (rows, cols) != (self.rows, self.cols):
                raise PuzzleError(f"{what} is {rows}x{cols}, the puzzle's board is {self.size}")
            counts = {s: sum(1 for p in pieces if p[0] == s) for s in SHAPES}
            if counts != self.counts:
                have = ", ".join(f"{k} {s}" for s, k in counts.items() if k)
                want = ", ".join(f"{k} {s}" for s, k in self.counts.items() if k)
                raise PuzzleError(f"{what} holds {have}; the puzzle's pieces are {want}")
            cells = cells_from_pieces(rows, cols, pieces)
        s = np.zeros(self.n_cells + 1, dtype=np.uint8)
        s[: self.n_cells] = cells
        set_heuristic(s, self.params)
        return s

    def decode(self, state):
        return render(state, self.rows, self.cols)

    def render(self, state=None):
        return render(self.start_cells if state is None else state, self.rows, self.cols)

    # -- moves ------------------------------------------------------------------------------
    def describe_move(self, m):
        """``((row, col), (row, col))``: the moving piece's top-left cell before and after."""
        row = self.params.mv[m]
        r, c = int(row[MV_ROW]), int(row[MV_COL])
        return (r, c), (r + int(row[MV_DR]), c + int(row[MV_DC]))

    def moves_out(self, path):
        out = []
        for m in path:
            before, after = self.describe_move(int(m))
            out.append([list(before), list(after)])
        return out

    def move_number(self, state, before, after):
        """The move that takes the piece at ``before`` (its top-left cell) to ``after``, if it is
        legal in ``state`` under this metric; raises :class:`PuzzleError` otherwise."""
        try:
            (r, c), (r1, c1) = before, after
        except (TypeError, ValueError):
            raise PuzzleError(f"a move is [[row, col], [row, col]], not {[before, after]!r}"
                              ) from None
        mv = self.params.mv
        hits = np.nonzero((mv[:, MV_KIND] == 0) & (mv[:, MV_ROW] == r) & (mv[:, MV_COL] == c)
                          & (mv[:, MV_DR] == r1 - r) & (mv[:, MV_DC] == c1 - c))[0]
        for m in hits:
            if _step(state.copy(), int(m), self.params) != ILLEGAL:
                return int(m)
        raise PuzzleError(f"no piece can move from {tuple(before)} to {tuple(after)} here under "
                          f"the {self.metric} metric")

    def moves_in(self, state, moves):
        out = []
        for k, mv in enumerate(moves):
            try:
                before, after = mv
            except (TypeError, ValueError):
                raise PuzzleError(f"move {k}: {mv!r} is not [[row, col], [row, col]]") from None
            m = self.move_number(state, tuple(before), tuple(after))
            _step(state, m, self.params)
            out.append(m)
        return out

    def replay_states(self, moves, state=None):
        """The kernels' states from ``state`` (default: the board) along ``moves``
        (``[[r, c], [r1, c1]]`` each), the first included."""
        s = (self.encode() if state is None else state).copy()
        out = [s.copy()]
        for m in self.moves_in(s.copy(), moves):
            _step(s, m, self.params)
            out.append(s.copy())
        return out

    def is_goal(self, state):
        return bool(_is_goal(state, self.params))

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.cols, self.rows

    def move_mark(self, position, after, move):
        """The piece that moves: its top-left cell before the move."""
        return tuple(move[0])

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """Draw a board (text) on matplotlib axes ``ax``, one cell a unit, its top-left corner at
        ``(x0, y0)``, y growing downwards: the daughter red, the goal's place outlined;
        ``mark``: a piece's top-left cell ``(r, c)`` to outline."""
        cells = self.encode(position, what="position")[: self.n_cells]
        draw_board(ax, cells, self.rows, self.cols, self.goal, x0, y0, title, mark)
