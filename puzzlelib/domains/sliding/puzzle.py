"""The sliding-tile puzzle: :class:`SlidingPuzzle` (a board size, a goal, a heuristic and a
hash; its positions, moves, pattern databases and drawing for the API) and the bundles of domain
functions it chooses among.
"""

from collections import Counter

import numpy as np

from .. import cycles
from ...core.contract import DepthFirstFns, DomainFns
from ...core.errors import PuzzleError, UnsolvableError
from ...core.hashing import (FACTORIALS, MULTISET_FAST_CLASSES, MULTISET_FAST_N, check_rank_size,
                             multiset_radix, multiset_tables, multiset_weights)
from ..base import Puzzle
from .drawing import draw_board
from .encoding import HASHES, HEURISTICS, MAX_SPARSE_BITS, MOVE_NAMES, SlidingParams
from .hashing import (KEYS, KEYS_MULTISET, KEYS_RANKED, KEY_MAX_CELLS, MULTISET_KEY_MAX_CELLS,
                      _rank, _rank_after, _rank_after_multiset, _rank_after_multiset_long,
                      _rank_after_sparse, _rank_multiset, _rank_multiset_long, _rank_sparse,
                      _unrank, _unrank_multiset, _unrank_sparse)
from .heuristic import (Q_HEAD, _fill_pdb, _heuristic_lc, _heuristic_pdb, _step_lc, _step_pdb,
                        _step_pdb_dfs, line_conflict_table)
from .moves import CURSOR, _heuristic, _inverse, _is_goal, _step, cursor_tables, grid_neighbours
from .parsing import (_duplicates, _goal_class, _tile_parity, default_goal, parity_class,
                      parse_board, parse_size)

FNS = DomainFns(_step, _inverse, _is_goal, _heuristic, _rank, _unrank, _rank_after)
#: Distinct tiles with Manhattan distance plus linear conflict.
FNS_LC = DomainFns(_step_lc, _inverse, _is_goal, _heuristic_lc, _rank, _unrank, _rank_after)
#: Distinct tiles with additive pattern databases: for the searches that step states (IDA*,
#: A*, bidirectional); the rank table's unrank does not fill in the extra bytes.
FNS_PDB = DomainFns(_step_pdb, _inverse, _is_goal, _heuristic_pdb, _rank, _unrank, _rank_after)
#: Pattern databases, for depth-first search (IDA*): :func:`_step_pdb_dfs`.
FNS_PDB_DFS = DomainFns(_step_pdb_dfs, _inverse, _is_goal, _heuristic_pdb, _rank, _unrank,
                        _rank_after)
#: The sparse direct index (``hash="sparse"``): no ranking, a much larger table.
FNS_SPARSE = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_sparse, _unrank_sparse, _rank_after_sparse
)
FNS_MULTISET = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_multiset, _unrank_multiset, _rank_after_multiset
)
#: Repeated labels on more than 16 cells, or in more than 8 classes: the long multiset rank.
FNS_MULTISET_LONG = DomainFns(
    _step, _inverse, _is_goal, _heuristic, _rank_multiset_long, _unrank_multiset,
    _rank_after_multiset_long,
)


#: The kernels' tables of each board shape, goal, heuristic and hash made so far in this process
#: (at most 64): the kernels only read them, and making them costs more Python time than the
#: search of many an 8-puzzle. Pattern databases are added to a copy.
_PARAMS = {}


def _size_of(rows, cols):
    if cols is None:
        return parse_size(rows)
    return parse_size((rows, cols))


class SlidingPuzzle(Puzzle):
    """A sliding-tile puzzle: ``SlidingPuzzle("3x3")`` or ``SlidingPuzzle(3, 3)``, sides 2 to 12,
    at most 25 cells, with a goal (default: tiles ``1..n-1`` in order, then the blank). Equal
    labels are indistinguishable tiles (the goal must hold the same labels as every start).

    Positions are written as space-separated labels row by row (or a sequence of ints), ``0``
    for the blank. Moves are named by the direction the *blank* travels: ``u``, ``d``, ``l``,
    ``r`` (a solution's ``moves`` is a string of them).

    Heuristics (:meth:`with_heuristic`, or ``heuristic=`` of :func:`~puzzlelib.solve`):
    ``"manhattan"`` (each tile's distance to the nearest goal cell holding its label; the
    default), ``"linear-conflict"`` (Manhattan plus 2 for each tile that must leave its goal
    row or column to let another tile of that line past it; distinct tiles), ``"none"``; and
    additive pattern databases (:mod:`puzzlelib.pdb.sliding`): the 15-puzzle's ``"pdb555"``,
    ``"pdb663"`` and ``"pdb78"``, or ``pdb=`` groups of tile labels on any board.

    ``hash``: ``"perfect"`` (the minimal perfect hash: ``n!/2`` positions with distinct tiles,
    ``n!/prod(multiplicity!)`` with repeated labels) or ``"sparse"`` (a direct index of a few
    bits a cell: no ranking work, a far larger table; for comparing the two).
    """

    name = "sliding"
    move_names = MOVE_NAMES
    heuristics = ("manhattan", "linear-conflict", "none")
    default_heuristic = "manhattan"
    default_max_depth = 400
    default_max_states = 20_000_000
    #: Every call with the same bundle of functions passes ``params`` of the same numba types
    #: (tests/test_bidir_table.py checks it), so kernels may be called without typing them.
    stable_types = True

    def __init__(self, rows, cols=None, goal=None, heuristic="manhattan", hash="perfect"):
        self.rows, self.cols = _size_of(rows, cols)
        self.n_cells = self.rows * self.cols
        if goal is None:
            self.goal = default_goal(self.rows, self.cols)
        else:
            self.goal = parse_board(goal, self.rows, self.cols, what="goal")
        self.distinct = not _duplicates(self.goal)
        self._goal_labels = sorted(self.goal.tolist())
        if heuristic not in self.heuristics:
            raise PuzzleError(f"unknown heuristic {heuristic!r}: use one of "
                              f"{', '.join(HEURISTICS)}")
        if heuristic not in ("manhattan", "none") and not self.distinct:
            raise PuzzleError(
                f"heuristic {heuristic} needs distinct tiles; boards with repeated labels use "
                f"'manhattan' (distance to the nearest home) or 'none'"
            )
        self.heuristic = heuristic
        #: The pattern databases' groups of tile labels, and whether the mirrored lookup is
        #: added (see :meth:`with_pdbs`).
        self.groups = None
        self.reflect = False
        if hash not in HASHES:
            raise PuzzleError(f"unknown hash {hash!r}: use 'perfect' or 'sparse'")
        self.hash = hash
        key = (self.rows, self.cols, self.goal.tobytes(), heuristic, hash)
        self.params = _PARAMS.get(key)
        if self.params is None:
            self.params = self._make_params()
            if len(_PARAMS) >= 64:
                _PARAMS.pop(next(iter(_PARAMS)))  # the oldest
            _PARAMS[key] = self.params
        if heuristic == "linear-conflict":
            self.fns = FNS_LC
        elif hash == "sparse":
            self.fns = FNS_SPARSE
        elif self.distinct:
            self.fns = FNS
        elif self._fast_multiset(self.params.class_count):
            self.fns = FNS_MULTISET
        else:
            self.fns = FNS_MULTISET_LONG
        #: What depth-first search steps with: its states are its own; the tighter loop of a
        #: cursor for Manhattan distance (or none). With linear conflict or pattern databases,
        #: the general loop (its step's work is the cost).
        self.depth_first = DepthFirstFns(
            self.fns, CURSOR if heuristic in ("manhattan", "none") else None)
        #: 64-bit keys for bidirectional search, on boards of at most 15 cells (16 for repeated
        #: labels), with the rank of ``fns`` where layered BFS's lists can use it.
        if self.fns is FNS_MULTISET and self.n_cells <= MULTISET_KEY_MAX_CELLS:
            self.keys = KEYS_MULTISET
        elif self.n_cells > KEY_MAX_CELLS:
            self.keys = None
        else:
            self.keys = KEYS_RANKED if self.fns.rank is _rank else KEYS

    # -- construction ---------------------------------------------------------------------
    def _coords(self, cell):
        return divmod(cell, self.cols)

    def _make_params(self):
        n, rows, cols = self.n_cells, self.rows, self.cols
        nbr = grid_neighbours(rows, cols)
        h = np.zeros((n, n), dtype=np.int64)
        if self.heuristic in ("manhattan", "linear-conflict"):
            for label in range(1, n):
                homes = [self._coords(g) for g in np.flatnonzero(self.goal == label)]
                for c in range(n):
                    r, q = self._coords(c)
                    h[label, c] = min((abs(r - hr) + abs(q - hq) for hr, hq in homes), default=0)
        tile_parity = np.zeros(n, dtype=np.int64)
        block = 0  # 0: the board is too large to rank in 64 bits (n_ranks says so)
        cls = np.zeros(n, dtype=np.int64)
        labels = sorted(set(int(x) for x in self.goal) - {0})
        class_label = np.array(labels, dtype=np.uint8)
        class_count = np.array([int((self.goal == v).sum()) for v in labels], dtype=np.int64)
        radix = np.ones(len(labels), dtype=np.int64)
        weights = np.zeros((1, 1, 1), dtype=np.int64)
        mshift = np.zeros(n, dtype=np.int64)
        mupdate = np.zeros(n, dtype=np.uint64)
        mweights = np.zeros(1, dtype=np.int64)
        self._multiset_size = None
        if self.distinct:
            bg = int(np.flatnonzero(self.goal == 0)[0])
            tp_goal = _tile_parity(self.goal)
            for b in range(n):
                tile_parity[b] = (tp_goal + (cols - 1) * (b // cols - bg // cols)) & 1
            if n - 1 <= 20:
                block = int(FACTORIALS[n - 1] // 2)
        else:
            for c, v in enumerate(labels):
                cls[v] = c
            radix, self._multiset_size = multiset_radix(class_count)
            weights = multiset_weights(radix, class_count)
            if self._fast_multiset(class_count):
                mshift, mupdate, mweights = multiset_tables(cls, class_count, ignore=0)
            if self._multiset_size * n < 1 << 63:
                block = self._multiset_size
        all_labels = sorted(set(int(x) for x in self.goal))  # the blank (0) first
        scode = np.zeros(n, dtype=np.int64)
        for code, v in enumerate(all_labels):
            scode[v] = code
        slabel = np.array(all_labels, dtype=np.uint8)
        sbits = max(1, (len(all_labels) - 1).bit_length())
        lc_w = np.zeros((2, 1, 1), dtype=np.int64)
        lc_table = np.zeros((2, 1), dtype=np.uint8)
        if self.heuristic == "linear-conflict":
            # code of a tile along a line: its goal place there if the line is its goal row
            # (column), else the line's length; a line's key: sum code * (length + 1) ** place
            lc_w = np.zeros((2, n, n), dtype=np.int64)
            home = {int(v): divmod(c, cols) for c, v in enumerate(self.goal) if v}
            for v in range(n):
                for c in range(n):
                    r, q = divmod(c, cols)
                    hr, hq = home.get(v, (-1, -1))
                    lc_w[0, v, c] = (hq if hr == r else cols) * (cols + 1) ** q
                    lc_w[1, v, c] = (hr if hq == q else rows) * (rows + 1) ** r
            tabs = [line_conflict_table(cols), line_conflict_table(rows)]
            lc_table = np.zeros((2, max(len(t) for t in tabs)), dtype=np.uint8)
            for o, t in enumerate(tabs):
                lc_table[o, : len(t)] = t
        none = np.zeros(1, dtype=np.int64)
        return SlidingParams(
            n + 1, 4, 2, rows, cols, n, nbr, h, self.goal.copy(), tile_parity, np.int64(block),
            cls, class_label, class_count, radix, weights, mshift, mupdate, mweights,
            scode, slabel, np.int64(sbits), lc_w, lc_table,
            np.int64(0), np.int64(0), none, np.zeros(1, dtype=np.uint8),
            *cursor_tables(nbr, h),
        )


    def with_heuristic(self, name):
        """This puzzle (same size, goal and hash) with heuristic ``name``."""
        if name is None:
            name = self.default_heuristic
        if name == self.heuristic and self.groups is None:
            return self
        if name not in self.heuristics:
            raise PuzzleError(f"unknown heuristic {name!r} for sliding tiles: use "
                              f"{', '.join(self.heuristics)}, or a pattern database (pdb555, "
                              f"pdb663, pdb78 on 4x4, pdb6666 on 5x5, or pdb= groups of "
                              f"tiles)")
        return SlidingPuzzle(self.rows, self.cols, goal=self.goal, heuristic=name,
                             hash=self.hash)

    def move_automaton(self):
        """Strings of up to :data:`~puzzlelib.domains.cycles.DEFAULT_MAX_LEN` blank moves that a
        smaller string replaces on any board (:mod:`puzzlelib.domains.cycles`)."""
        return cycles.cached_automaton()

    def rooted(self, start):
        """The puzzle whose goal is ``start`` itself (any labels): :func:`~puzzlelib.layers`
        counts the positions reachable from there."""
        arr = parse_board(start, self.rows, self.cols, what="start")
        return SlidingPuzzle(self.rows, self.cols, goal=arr, heuristic="none", hash=self.hash)

    # -- pattern databases ------------------------------------------------------------------
    def pattern_groups(self, groups, reflect=None):
        """Check pattern-database ``groups`` (lists of tile labels, disjoint) for this goal;
        returns ``(label groups, cell groups, blank's goal cell, reflect)``, ``reflect``
        resolved: by default the mirrored lookup is added where the board is square and the
        goal's blank lies on the main diagonal (it needs both)."""
        if self.hash != "perfect":
            raise PuzzleError("pattern databases go with the perfect hash, not a sparse index")
        if not self.distinct:
            raise PuzzleError("pattern databases need distinct tiles")
        cell_of = {int(v): c for c, v in enumerate(self.goal)}
        if not groups:
            raise PuzzleError("pattern databases need groups: lists of tile labels")
        label_groups, seen = [], set()
        for grp in groups:
            try:
                grp = [int(x) for x in grp]
            except (TypeError, ValueError):
                raise PuzzleError(f"pattern group {grp!r} is not a list of tile labels") from None
            bad = [x for x in grp if x not in cell_of or x == 0]
            if bad or not grp:
                raise PuzzleError(f"pattern groups: {bad or 'an empty group'} are not tiles of "
                                  f"this board")
            if seen & set(grp) or len(set(grp)) != len(grp):
                raise PuzzleError("pattern groups must be disjoint, each tile at most once")
            seen |= set(grp)
            label_groups.append(grp)
        blank = cell_of[0]
        mirrorable = self.rows == self.cols and blank // self.cols == blank % self.cols
        if reflect is None:
            reflect = mirrorable
        elif reflect and not mirrorable:
            raise PuzzleError(
                "reflect needs a square board whose goal has the blank on the main diagonal")
        return label_groups, [[cell_of[x] for x in g] for g in label_groups], blank, bool(reflect)

    def with_pdbs(self, groups, tables, reflect=None):
        """This puzzle guided by additive pattern databases: ``groups`` of tile labels (see
        :meth:`pattern_groups`) and each group's table (``uint8``, indexed by the rank of its
        tiles' cells, :func:`puzzlelib.pdb.space.placement_rank`); ``tables`` may also be the
        groups' tables already joined one after the other."""
        label_groups, _, _, reflect = self.pattern_groups(groups, reflect)
        n, goal = self.n_cells, self.goal
        cell_of = {int(v): c for c, v in enumerate(goal)}
        rcell = np.arange(n, dtype=np.int64)
        if reflect:
            rcell = np.array([(c % self.cols) * self.cols + c // self.cols for c in range(n)],
                             dtype=np.int64)
        rlabel = np.array([int(goal[rcell[cell_of[v]]]) if v in cell_of else 0
                           for v in range(n)], dtype=np.int64)
        G = len(label_groups)
        kmax = max(len(g) for g in label_groups)
        group = np.full(n, -1, dtype=np.int64)
        gtiles = np.zeros((G, kmax), dtype=np.int64)
        sizes = []
        for g, grp in enumerate(label_groups):
            entries = 1
            for i, v in enumerate(grp):
                group[v] = g
                gtiles[g, i] = v
                entries *= n - i
            sizes.append(entries)
        if isinstance(tables, np.ndarray):
            joined = tables
        else:
            if [len(t) for t in tables] != sizes:
                raise PuzzleError(f"pattern tables of {[len(t) for t in tables]} entries do "
                                  f"not fit groups of {sizes} placements")
            joined = np.concatenate(tables)
        if joined.dtype != np.uint8 or len(joined) != sum(sizes):
            raise PuzzleError(f"joined pattern tables must be {sum(sizes):,} bytes (uint8)")
        toffset = np.cumsum([0] + sizes[:-1])
        parts = [group, rlabel, rcell, np.array([len(g) for g in label_groups]), toffset, gtiles]
        starts = np.cumsum([Q_HEAD] + [a.size for a in parts[:-1]])
        head = [n, G, int(reflect), kmax, *starts]
        pinfo = np.concatenate([np.array(head)] + [np.ravel(a) for a in parts]).astype(np.int64)
        out = SlidingPuzzle(self.rows, self.cols, goal=goal, heuristic="none", hash=self.hash)
        out.heuristic = "pdb"
        out.groups = label_groups
        out.reflect = reflect
        out.fns = FNS_PDB
        out.depth_first = DepthFirstFns(FNS_PDB_DFS)
        out.keys = KEYS if n <= KEY_MAX_CELLS else None  # (without the rank: it is not fns')
        out.params = out.params._replace(
            # the board, each tile's cell, the groups' values, plain then reflected, the last
            # move with the two values it replaced (see _step_pdb_dfs), and the two sums
            state_len=2 * n + 1 + 2 * G + 5, n_groups=np.int64(G),
            reflect=np.int64(int(reflect)), pinfo=pinfo, tables=joined,
        )
        return out

    @staticmethod
    def _fast_multiset(class_count):
        # one byte of the word per class, and a spare one for the blank
        return len(class_count) < MULTISET_FAST_CLASSES and sum(class_count) <= MULTISET_FAST_N

    @property
    def state_len(self):
        return int(self.params.state_len)

    @property
    def size(self):
        return f"{self.rows}x{self.cols}"

    label = size

    def describe(self):
        return {"puzzle": self.name, "size": self.size, "goal": [int(x) for x in self.goal],
                "hash": self.hash}

    def layers_extra(self):
        return {"hash": self.hash_name}

    # -- positions ------------------------------------------------------------------------
    def parse(self, board, what="start"):
        """Check ``board`` against this puzzle (length, labels, blank, the goal's tiles,
        solvable) and return it as a ``uint8`` array."""
        arr = parse_board(board, self.rows, self.cols, what=what)
        if sorted(arr.tolist()) != self._goal_labels:
            want, have = Counter(self.goal.tolist()), Counter(arr.tolist())
            dup = _duplicates(arr)
            if dup and self.distinct:
                tile, count = next(iter(dup.items()))
                raise PuzzleError(
                    f"{what}: tile {tile} appears {count} times; tiles must be distinct "
                    f"(give a goal with the same repeated labels to use indistinguishable tiles)"
                )
            missing = sorted((want - have).elements())
            extra = sorted((have - want).elements())
            raise PuzzleError(
                f"{what} and goal do not hold the same tiles: missing {missing}, extra {extra}"
            )
        if self.distinct and parity_class(arr, self.cols) != _goal_class(self.goal.tobytes(),
                                                                         self.cols):
            raise UnsolvableError(
                f"{what} is unsolvable: it lies in the other parity class from the goal "
                f"(tile-permutation parity plus (cols-1) x blank row differs), so no sequence of "
                f"moves reaches the goal"
            )
        return arr

    def encode(self, position, what="start"):
        """A board (checked: :meth:`parse`) -> the kernels' state: the labels, then the blank's
        cell (with pattern databases: each tile's cell and each group's value too)."""
        return self.state_of(self.parse(position, what=what))

    def state_of(self, arr):
        """The kernels' state of a board already checked (a ``uint8`` array)."""
        state = np.empty(self.state_len, dtype=np.uint8)
        state[: self.n_cells] = arr
        state[self.n_cells] = int(np.flatnonzero(arr == 0)[0])
        if self.fns is FNS_PDB:
            _fill_pdb(state, self.params)
        return state

    def decode(self, state):
        """The kernels' state -> the board as a list of ints."""
        return [int(x) for x in state[: self.n_cells]]

    def goal_state(self):
        return self.state_of(self.goal)

    def residue(self, state):
        """Every solution's length has the parity of the blank's distance to its goal cell."""
        b = int(state[self.n_cells])
        bg = int(np.flatnonzero(self.goal == 0)[0])
        return (abs(b // self.cols - bg // self.cols) + abs(b % self.cols - bg % self.cols)) % 2

    def start_h(self, state):
        return int(self.fns.heuristic(state, self.params))

    # -- hashing ---------------------------------------------------------------------------
    @property
    def n_ranks(self):
        """Size of the rank table (the positions reachable from the goal)."""
        if self.hash == "sparse":
            bits = int(self.params.sbits) * self.n_cells
            if bits > MAX_SPARSE_BITS:
                raise PuzzleError(
                    f"the sparse index of this board needs 2**{bits} entries "
                    f"({int(self.params.sbits)} bits for each of {self.n_cells} cells); at most "
                    f"2**{MAX_SPARSE_BITS}: use the perfect hash"
                )
            return 1 << bits
        if self.distinct:
            check_rank_size(self.n_cells - 1)
        elif int(self.params.block) == 0:
            raise PuzzleError(
                f"{self.n_cells * self._multiset_size:,} positions are too many for the 64-bit "
                f"multiset hash"
            )
        return self.n_cells * int(self.params.block)

    @property
    def buckets(self):
        """``(bucket_next, block)`` for the parallel layered BFS: ranks come in blocks of
        ``block``, one per blank cell, and move ``m`` takes the blank from cell ``b`` to
        ``nbr[b, m]``."""
        if self.hash == "sparse":
            return None  # the blank's cell is not a block of the sparse index
        return self.params.nbr, int(self.params.block)

    @property
    def hash_name(self):
        """Which hash this board uses."""
        if self.hash == "sparse":
            return f"sparse direct index, {int(self.params.sbits)} bits a cell"
        if self.distinct:
            return "permutation rank of the reachable half, n!/2"
        return "multiset-permutation rank, n!/prod(multiplicity!)"

    # -- moves ------------------------------------------------------------------------------
    def moves_out(self, path):
        return "".join(MOVE_NAMES[int(m)] for m in path)

    def move_order(self, order):
        """``order``: the letters ``u``, ``d``, ``l``, ``r`` once each (``"ulrd"``: up, left,
        right, down, the order of Korf's programs) -> their move numbers."""
        if not isinstance(order, str) or sorted(order) != sorted(MOVE_NAMES):
            raise PuzzleError(f"order must name the blank's four moves once each, as a string of "
                              f"u, d, l, r such as 'ulrd', not {order!r}")
        return np.array([MOVE_NAMES.index(ch) for ch in order], dtype=np.int64)

    def moves_in(self, state, moves):
        """A string of ``u``, ``d``, ``l``, ``r`` -> move numbers, each legal in turn."""
        out = []
        b = int(state[self.n_cells])
        for k, ch in enumerate(moves):
            if ch not in MOVE_NAMES:
                raise PuzzleError(f"move {k}: {ch!r} is not one of u, d, l, r")
            m = MOVE_NAMES.index(ch)
            t = int(self.params.nbr[b, m])
            if t < 0:
                raise PuzzleError(f"move {k}: the blank cannot move {ch!r} from cell {b}")
            out.append(m)
            b = t
        return out

    def apply_moves(self, board, moves):
        """Replay blank moves (a string of u/d/l/r) from ``board``; return every board on the way
        (the first is ``board`` itself). Raises :class:`PuzzleError` on an impossible move."""
        cur = [int(x) for x in np.asarray(board).ravel()] if not isinstance(board, str) else [
            int(x) for x in board.replace(",", " ").split()]
        out = [list(cur)]
        b = cur.index(0)
        for m in self.moves_in(np.array(cur + [b], dtype=np.uint8), moves):
            t = int(self.params.nbr[b, m])
            cur[b], cur[t] = cur[t], 0
            b = t
            out.append(list(cur))
        return out

    def replay(self, start, moves):
        return self.apply_moves(self.parse(start, what="start"), moves)

    def tiles_moved(self, board, moves):
        """Convert blank moves to the labels of the tiles moved (document 000's notation)."""
        boards = self.apply_moves(board, moves)
        # the tile moved lands where the blank was
        return [after[before.index(0)] for before, after in zip(boards, boards[1:])]

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.cols, self.rows

    def text(self, position):
        """A board as one line: its rows joined by `` / ``."""
        board = [int(x) for x in parse_board(position, self.rows, self.cols, what="position")]
        return " / ".join(" ".join(map(str, board[i:i + self.cols]))
                          for i in range(0, len(board), self.cols))

    def move_mark(self, position, after, move):
        """The tile that slides: the one that lands on the blank's cell."""
        return after[list(position).index(0)]

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None, colours="goal"):
        """Draw a board on matplotlib axes ``ax``, one cell a unit, its top-left corner at
        ``(x0, y0)``, y growing downwards; ``mark``: a tile label to outline. ``colours``:
        ``"goal"``, a tile green where the goal holds its label and orange elsewhere;
        ``"labels"``, one colour per label (indistinguishable tiles look alike)."""
        import matplotlib.pyplot as plt
        if colours not in ("goal", "labels"):
            raise PuzzleError(f"colours must be 'goal' or 'labels', not {colours!r}")
        board = position if isinstance(position, list) else self.decode(
            self.state_of(parse_board(position, self.rows, self.cols, what="position")))
        draw_board(ax, board, self.goal, self.cols, x0, y0, title, mark, colours)
