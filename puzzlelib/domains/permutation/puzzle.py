"""The permutation puzzle: :class:`PermutationPuzzle` (cells, moves, orientations and
symmetries; its positions, moves, heuristics and drawing for the API) and the bundles of domain
functions of each form.
"""

import hashlib
import math

import numpy as np

from ...core.contract import DomainFns
from ...core.errors import PuzzleError, UnsolvableError
from ...core.hashing import MAX_RANK_N, multiset_radix, multiset_weights, perm_parity
from ..base import Puzzle
from .encoding import RANK_EVEN, RANK_MULTISET, RANK_NONE, RANK_PERM, PermParams
from .hashing import (_rank_after_cells, _rank_after_loc, _rank_after_low, _rank_cells,
                      _rank_from_low, _rank_loc, _rank_low, _unrank_cells, _unrank_loc,
                      _unrank_low, child_tables)
from .heuristic import _heuristic, no_heuristic, pattern_max
from .moves import _inverse, _is_goal, _step_cells, _step_loc, _step_loc_twist, _step_swaps
from .parsing import _as_moves, _int_list, _label, _same, _sort_key, compose, symmetry_group

#: Tables of at least this many positions are searched by scanning the table, layer by layer,
#: in parallel (:mod:`puzzlelib.search.layered`): the layer lists would not fit.
LISTS_MAX_RANKS = 1 << 26


#: The functions of each form: location form, with and without orientations; cell form
#: (repeated labels, or no rank).
FNS_LOC = DomainFns(_step_loc, _inverse, _is_goal, _heuristic, _rank_loc, _unrank_loc,
                    _rank_after_loc)
FNS_LOC_TWIST = DomainFns(_step_loc_twist, _inverse, _is_goal, _heuristic, _rank_loc,
                          _unrank_loc, _rank_after_loc)
FNS_CELLS = DomainFns(_step_cells, _inverse, _is_goal, _heuristic, _rank_cells, _unrank_cells,
                      _rank_after_cells)
FNS_SWAPS = DomainFns(_step_swaps, _inverse, _is_goal, _heuristic, _rank_cells, _unrank_cells,
                      _rank_after_cells)
#: Distinct pieces without orientations whose table is scanned (``LISTS_MAX_RANKS`` ranks or
#: more): cell form, ranked by :func:`_rank_low`; moves as swaps or as cycles.
FNS_LOW_SWAPS = DomainFns(_step_swaps, _inverse, _is_goal, _heuristic, _rank_low, _unrank_low,
                          _rank_after_low, _rank_from_low)
FNS_LOW_CELLS = DomainFns(_step_cells, _inverse, _is_goal, _heuristic, _rank_low, _unrank_low,
                          _rank_after_low, _rank_from_low)


class PermutationPuzzle(Puzzle):
    """A permutation puzzle given by its goal and its moves (see the package).

    ``goal``: a label per cell (labels may repeat). ``moves``: ``{name: src}`` or
    ``{name: (src, twist)}`` (or a list of such pairs), ``src[i]`` the cell whose piece the
    move carries to cell ``i``. ``orientations``: ``k``, when pieces carry an orientation
    modulo ``k`` (the goal's are 0). ``symmetries``: moves of the whole puzzle (generators are
    enough) under which positions are the same, with ``anchor`` the cell whose piece is held
    still. ``heuristics``: ``{name: fn}``, numba functions ``fn(state, params) -> int`` of
    admissible lower bounds (see the package for the state's bytes). ``name``: how the puzzle
    is called in messages.

    >>> from puzzlelib import PermutationPuzzle, layers
    >>> flips = {f"flip{k}": list(range(k))[::-1] + list(range(k, 4)) for k in (2, 3, 4)}
    >>> layers(PermutationPuzzle([1, 2, 3, 4], flips), [1, 2, 3, 4]).counts
    [1, 3, 6, 11, 3]
    """

    name = "permutation"
    #: Pattern databases: :mod:`puzzlelib.pdb.permutation`.
    pdb_kind = "permutation"
    stable_types = True
    default_heuristic = "none"

    def __init__(self, goal, moves, orientations=1, symmetries=None, anchor=None,
                 heuristics=None, name=None):
        if name is not None:
            self.title = str(name)
        else:
            self.title = self.name
        try:
            labels = list(goal.split() if isinstance(goal, str) else goal)
        except TypeError:
            raise PuzzleError(f"a goal is labels separated by spaces or a list of labels, not "
                              f"{type(goal).__name__}") from None
        n = len(labels)
        if n < 2:
            raise PuzzleError("a permutation puzzle needs at least two cells")
        if n > 250:
            raise PuzzleError(f"{n} cells are too many (at most 250)")
        k = orientations
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= 255:
            raise PuzzleError(f"orientations must be a whole number 1..255, not {k!r}")
        self.k = int(k)
        self.n_cells = n
        self.goal_labels = [_label(x) for x in labels]
        moves = _as_moves(moves, n, self.k)
        self.given_moves = {nm: (src, tw) for nm, src, tw in moves}
        self.symmetric = symmetries is not None
        if symmetries is not None:
            moves = self._reduce(moves, symmetries, anchor)
        elif anchor is not None:
            raise PuzzleError("anchor goes with symmetries")
        self._setup(moves)
        self._heuristic_fns = dict(heuristics or {})
        for hname in self._heuristic_fns:
            if hname in ("none",):
                raise PuzzleError(f"heuristic name {hname!r} is taken")
        self.heuristics = ("none",) + tuple(self._heuristic_fns) + self._builtin_heuristics()
        self.heuristic = "none"

    # -- construction -----------------------------------------------------------------------
    def _reduce(self, moves, symmetries, anchor):
        n, k = self.n_cells, self.k
        gens = []
        for i, s in enumerate(symmetries):
            gens.append(_as_moves([(f"symmetry {i}", s)], n, k)[0][1:])
        group = symmetry_group(gens, k)
        if anchor is None or not isinstance(anchor, (int, np.integer)) or not 0 <= anchor < n:
            raise PuzzleError(f"anchor must be a cell 0..{n - 1}, not {anchor!r}")
        if self.goal_labels.count(self.goal_labels[anchor]) > 1:
            raise PuzzleError(f"the anchor's label {self.goal_labels[anchor]} must not repeat")
        self.anchor = int(anchor)
        # home[(cell, orientation)]: the symmetry taking a piece there to the anchor, untwisted
        self._home = {}
        for g in group:
            c = int(g[0][anchor])
            o = (-int(g[1][anchor])) % k
            self._home.setdefault((c, o), g)
        out = []
        for name, src, tw in moves:
            c = int(np.flatnonzero(src == anchor)[0])  # where the move carries the anchor
            g = self._home.get((c, int(tw[c])))
            if g is None:
                raise PuzzleError(f"no symmetry brings the anchor back after move {name!r}")
            red = compose((src, tw), g, k)
            if not any(_same(red, (s2, t2)) for _, s2, t2 in out):
                out.append((name, red[0], red[1]))
        return out

    def _setup(self, moves):
        n, k = self.n_cells, self.k
        # cells some move changes come first, in the order given
        moving = [i for i in range(n)
                  if any(src[i] != i or tw[i] for _, src, tw in moves)]
        fixed = [i for i in range(n) if i not in moving]
        self.order = np.array(moving + fixed, dtype=np.int64)  # state index -> cell
        where = np.empty(n, dtype=np.int64)
        where[self.order] = np.arange(n)
        m = len(moving)
        if m == 0:
            raise PuzzleError("no move changes anything")
        self.move_names = [nm for nm, _, _ in moves]
        n_moves = len(moves)
        if n_moves > 127:
            raise PuzzleError(f"{n_moves} moves are too many (at most 127)")
        srcs = np.empty((n_moves, n), dtype=np.int64)
        twists = np.zeros((n_moves, n), dtype=np.int64)
        for j, (_, src, tw) in enumerate(moves):
            srcs[j] = where[src[self.order]]  # in state indices
            twists[j] = tw[self.order]
        self.srcs, self.twists = srcs, twists
        inv = np.full(n_moves, -1, dtype=np.int64)
        ident = (np.arange(n), np.zeros(n, dtype=np.int64))
        for j in range(n_moves):
            for i in range(n_moves):
                if _same(compose((srcs[j], twists[j]), (srcs[i], twists[i]), k), ident):
                    inv[j] = i
                    break
            if inv[j] < 0:
                raise PuzzleError(f"move {self.move_names[j]!r} has no inverse among the moves: "
                                  f"add it")
        cycles = []
        starts = [0]
        for j in range(n_moves):
            done = np.zeros(n, dtype=bool)
            for i in range(n):
                if done[i] or (srcs[j, i] == i and twists[j, i] == 0):
                    continue
                cyc = [i]
                done[i] = True
                x = srcs[j, i]
                while x != i:
                    cyc.append(int(x))
                    done[x] = True
                    x = srcs[j, x]
                cycles.append(cyc)
            starts.append(len(cycles))
        width = max(len(c) for c in cycles)
        cyc = np.zeros((len(cycles), width), dtype=np.int64)
        cyc_len = np.zeros(len(cycles), dtype=np.int64)
        for c, cells in enumerate(cycles):
            cyc[c, :len(cells)] = cells
            cyc_len[c] = len(cells)
        # pieces: distinct labels are their goal index (in state order); repeated: classes
        glabels = [self.goal_labels[c] for c in self.order]
        self.distinct = len(set(glabels)) == n
        if self.distinct:
            pieces = list(range(n))
            self.piece_of = {lab: i for i, lab in enumerate(glabels)}
        else:
            moving_labels = set(glabels[:m])
            classes = sorted(set(glabels), key=lambda x: (x not in moving_labels, _sort_key(x)))
            self.piece_of = {lab: i for i, lab in enumerate(classes)}
            pieces = [self.piece_of[lab] for lab in glabels]
        self.label_of = {v: lab for lab, v in self.piece_of.items()}
        self.m = m
        hpos = n * (2 if k > 1 else 1)
        goal = np.zeros(hpos + 1, dtype=np.uint8)
        goal[:n] = pieces
        self.twist_invariant = k > 1 and all(int(tw.sum()) % k == 0 for tw in twists)
        # the hash
        counts = np.ones(1, dtype=np.int64)
        radix = np.ones(1, dtype=np.int64)
        weights = np.zeros((1, 1, 1), dtype=np.int64)
        cls = np.zeros(1, dtype=np.int64)
        even = all(perm_parity(s[:m], m) == 0 for s in srcs) if m <= MAX_RANK_N else False
        if self.distinct and m <= MAX_RANK_N:
            rkind = RANK_EVEN if even else RANK_PERM
            n_perm = math.factorial(m) // (2 if even else 1)
        elif not self.distinct:
            # the moving cells' classes are 0..L-1 (see above); fixed cells keep theirs
            cnt = [pieces[:m].count(c) for c in range(max(pieces[:m]) + 1)]
            try:
                radix, n_perm = multiset_radix(cnt)
                counts = np.array(cnt, dtype=np.int64)
                weights = multiset_weights(radix, counts)
                cls = np.arange(max(pieces) + 1, dtype=np.int64)
                rkind = RANK_MULTISET
            except PuzzleError:  # too many pieces or arrangements for 64 bits
                rkind, n_perm = RANK_NONE, None
        else:
            rkind, n_perm = RANK_NONE, None
        odig = 0
        if k > 1:
            odig = m - 1 if self.twist_invariant else m
        n_ranks = None
        if n_perm is not None:
            n_ranks = n_perm * k ** odig
            if n_ranks >= 1 << 62:
                rkind, n_ranks = RANK_NONE, None
        self._n_ranks = n_ranks
        # distinct ranked pieces are kept where they are (location form): a move is a lookup
        # per piece, and the first digit of the rank (where piece 0 is) tells which block of
        # ranks a move leads to, so the layers are shared among threads by those blocks. A
        # table too large for layer lists is scanned instead: without orientations, the pieces
        # are then kept by cell and ranked by _rank_low, which a move changing only the first
        # cells changes only in its low digits (a pancake flip's child is near its parent)
        low = (rkind == RANK_PERM and k == 1 and n_ranks is not None
               and n_ranks >= LISTS_MAX_RANKS)
        loc = 1 if rkind in (RANK_PERM, RANK_EVEN) and not low else 0
        top = np.array([max((i for i in range(n) if srcs[j, i] != i), default=0)
                        for j in range(n_moves)], dtype=np.int64)
        dest = np.empty((n_moves, n), dtype=np.uint8)
        for j in range(n_moves):
            dest[j, srcs[j]] = np.arange(n)
        tadd = ((np.arange(k)[None, None, :] + twists[:, :, None]) % k).astype(np.uint8)
        self.buckets = None
        self.layer_kernel = "lists"
        if n_ranks is not None and n_ranks >= LISTS_MAX_RANKS:
            self.layer_kernel = "scan-up"
        elif loc and m >= 3:
            self.buckets = (dest[:, :m].T.astype(np.int64).copy(), n_ranks // m)
        swapping = k == 1 and width == 2
        n_swaps = np.array([starts[j + 1] - starts[j] for j in range(n_moves)], dtype=np.int64)
        swaps = np.zeros((n_moves, max(1, int(n_swaps.max())), 2), dtype=np.int64)
        if swapping:
            for j in range(n_moves):
                swaps[j, :n_swaps[j]] = cyc[starts[j]:starts[j + 1], :2]
        self.params = PermParams(
            hpos, n_moves, 1, n, m, k, loc, dest, tadd, cyc, cyc_len,
            np.array(starts, dtype=np.int64), swaps, n_swaps, inv, goal, hpos, rkind, cls,
            counts, radix, weights, odig, k ** odig, no_heuristic, np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.uint8), top, np.full(n_moves, -1, dtype=np.int64))
        if low:
            self.fns = FNS_LOW_SWAPS if swapping else FNS_LOW_CELLS
        else:
            self.fns = (FNS_LOC_TWIST if loc and k > 1 else FNS_LOC if loc
                        else FNS_SWAPS if swapping else FNS_CELLS)

    def _builtin_heuristics(self):
        return ()

    def scan_params(self):
        """``params`` with the tables of children (:func:`child_tables`) where the functions
        use them (the low form), made at the first call and kept."""
        if self.fns.rank_from is None:
            return self.params
        tables = self.__dict__.get("_child_tables")
        if tables is None:
            tables = self._child_tables = child_tables(self.params)
        return self.params._replace(kid_off=tables[0], kid_delta=tables[1])

    # -- what the searches read -------------------------------------------------------------
    @property
    def n_ranks(self):
        return self._n_ranks

    @property
    def n_moves(self):
        return self.params.n_moves

    def with_params(self, **changes):
        """A copy of this puzzle with ``params`` fields changed."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.params = self.params._replace(**changes)
        return new

    def with_heuristic(self, name):
        if name in (None, "none"):
            if self.heuristic == "none":
                return self
            new = self.with_params(hfn=no_heuristic, state_len=self.params.hpos)
            new.heuristic = "none"
            return new
        if name == self.heuristic:
            return self
        fn = self._heuristic_fns.get(name)
        if fn is None:
            fn = self._builtin_heuristic(name)
        if fn is None:
            raise PuzzleError(f"unknown heuristic {name!r} for the {self.title} puzzle: use "
                              f"{', '.join(self.heuristics)}, or pattern databases (pdb)")
        new = self.with_params(hfn=fn, state_len=self.params.hpos + 1)
        new.heuristic = name
        return new

    def _builtin_heuristic(self, name):
        return None

    def with_tables(self, hdata, htab, name):
        """This puzzle guided by pattern databases (:func:`pattern_max` over ``hdata`` and
        ``htab``; see :mod:`puzzlelib.pdb.permutation`)."""
        new = self.with_params(hfn=pattern_max, hdata=np.asarray(hdata, dtype=np.int64),
                               htab=htab, state_len=self.params.hpos + 1)
        new.heuristic = name
        return new

    # -- positions --------------------------------------------------------------------------
    def _labels_and_twists(self, position, what):
        """(labels, orientations or None) of a position as written."""
        if isinstance(position, str):
            text = position.replace(",", " ")
            if "|" in text:
                a, b = text.split("|", 1)
                return a.split(), b.split()
            return text.split(), None
        if isinstance(position, dict):
            return list(position.get("pieces", [])), position.get("orientations")
        if (isinstance(position, (tuple, list)) and len(position) == 2
                and isinstance(position[0], (list, tuple, np.ndarray))):
            return list(position[0]), list(position[1])
        try:
            return list(position), None
        except TypeError:
            raise PuzzleError(f"{what}: a position is a list of labels") from None

    def encode(self, position, what="start"):
        """A position (a label per cell, as a list or text; with orientations,
        ``(labels, orientations)`` or text ``"labels | orientations"``) -> the kernels'
        state, checked; with symmetries, turned so the anchor is at home."""
        labels, twists = self._labels_and_twists(position, what)
        n, k = self.n_cells, self.k
        if len(labels) != n:
            raise PuzzleError(f"{what} has {len(labels)} labels, the {self.title} puzzle has "
                              f"{n} cells")
        labels = [_label(x) for x in labels]
        if sorted(labels, key=_sort_key) != sorted(self.goal_labels, key=_sort_key):
            missing = set(self.goal_labels) - set(labels)
            extra = set(labels) - set(self.goal_labels)
            detail = (f"label {sorted(extra, key=_sort_key)[0]!r} is not the puzzle's" if extra
                      else f"label {sorted(missing, key=_sort_key)[0]!r} is missing" if missing
                      else "a label appears more or fewer times than in the goal")
            raise PuzzleError(f"{what}: {detail}; the labels must be the goal's "
                              f"({' '.join(map(str, self.goal_labels))})")
        if twists is None:
            twists = [0] * n
        else:
            twists = _int_list(twists, f"{what}'s orientations")
            if k == 1 and any(twists):
                raise PuzzleError(f"{what}: the {self.title} puzzle has no orientations")
            if len(twists) != n:
                raise PuzzleError(f"{what} has {len(twists)} orientations for {n} cells")
            if any(not 0 <= t < k for t in twists):
                raise PuzzleError(f"{what}: orientations are 0..{k - 1}")
        cells = [self.piece_of[x] for x in labels]  # by cell, as given
        if self.symmetric:
            a = self.goal_labels[self.anchor]
            c = labels.index(a)
            g = self._home[(c, twists[c])] if (c, twists[c]) in self._home else None
            if g is None:
                raise PuzzleError(f"{what}: no symmetry brings the anchor home from cell {c}")
            src, tw = g
            cells = [cells[src[i]] for i in range(n)]
            twists = [(twists[src[i]] + tw[i]) % k for i in range(n)]
        st = np.zeros(self.params.state_len, dtype=np.uint8)
        st[:n] = [cells[c] for c in self.order]
        if k > 1:
            st[n:2 * n] = [twists[c] for c in self.order]
        for i in range(self.m, n):
            if st[i] != self.params.goal[i] or (k > 1 and st[n + i] != self.params.goal[n + i]):
                raise UnsolvableError(f"{what}: cell {int(self.order[i])} holds "
                                      f"{labels[int(self.order[i])]!r}, but no move changes it "
                                      f"and the goal has {self.goal_labels[int(self.order[i])]!r}")
        p = self.params
        if p.rkind == RANK_EVEN and perm_parity(st[:self.m].astype(np.int64), self.m) == 1:
            raise UnsolvableError(f"{what} is an odd permutation of the goal, and every move "
                                  f"is even: it cannot be solved")
        if self.twist_invariant and int(st[n:n + self.m].astype(np.int64).sum()) % k != 0:
            raise UnsolvableError(f"{what}: the orientations add up to "
                                  f"{int(st[n:2 * n].astype(np.int64).sum()) % k} modulo {k}; "
                                  f"every move keeps the sum, and the goal's is 0")
        if p.loc:  # where each piece is, and its orientation
            cells_form = st[:n].copy()
            st[cells_form] = np.arange(n)
            if k > 1:
                st[n + cells_form] = st[n:2 * n].copy()
        if p.state_len > p.hpos:
            st[p.hpos] = p.hfn(st, p)
        return st

    def decode(self, state):
        """The kernels' state -> the labels by cell (with orientations: ``[labels,
        orientations]``)."""
        n = self.n_cells
        if self.params.loc:  # back to the piece in each cell
            locs = np.asarray(state[:n])
            cells_form = np.empty(2 * n if self.k > 1 else n, dtype=np.uint8)
            cells_form[locs] = np.arange(n)
            if self.k > 1:
                cells_form[n + locs] = state[n:2 * n]
            state = cells_form
        labels = [None] * n
        twists = [0] * n
        for i in range(n):
            c = int(self.order[i])
            labels[c] = self.label_of[int(state[i])]
            if self.k > 1:
                twists[c] = int(state[n + i])
        return [labels, twists] if self.k > 1 else labels

    def default_start(self):
        """The goal (what :func:`~puzzlelib.layers` starts from when given no start)."""
        return self.decode(self.goal_state())

    def goal_state(self):
        p = self.params
        st = p.goal[:p.state_len].copy()
        if p.state_len > p.hpos:
            st[p.hpos] = p.hfn(st, p)
        return st

    def heuristic_value(self, state):
        return int(self.params.hfn(state, self.params))

    #: True when the moves are named by whole numbers (a pancake flip's size, a TopSpin
    #: place): solutions then list them as ints, and ints are read as those names.
    numbered_moves = False

    def moves_out(self, path):
        names = [self.move_names[int(j)] for j in path]
        return [int(x) for x in names] if self.numbered_moves else names

    def moves_in(self, state, moves):
        if isinstance(moves, str):
            moves = moves.split()
        out = []
        for i, mv in enumerate(moves):
            numeric = isinstance(mv, (int, np.integer)) and not isinstance(mv, bool)
            if numeric and not self.numbered_moves:
                if not 0 <= mv < self.n_moves:
                    raise PuzzleError(f"move {i}: {mv} is not a move number 0..{self.n_moves - 1}")
                out.append(int(mv))
                continue
            try:
                out.append(self.move_names.index(str(int(mv)) if numeric else str(mv).strip()))
            except ValueError:
                raise PuzzleError(f"move {i}: {mv!r} is not one of the {self.label} puzzle's "
                                  f"moves ({', '.join(self.move_names)})") from None
        return out

    def scrambled(self, moves, start=None):
        """The position ``moves`` (the names given to the constructor, as a list or text)
        make from ``start`` (by default the goal), as :meth:`decode` writes it; with
        symmetries, as the moves leave it, not turned home."""
        if isinstance(moves, str):
            moves = moves.split()
        if start is None:
            labels, twists = list(self.goal_labels), [0] * self.n_cells
        else:
            labels, twists = self._labels_and_twists(start, "start")
            labels = [_label(x) for x in labels]
            twists = [0] * self.n_cells if twists is None else _int_list(twists, "start")
        for i, mv in enumerate(moves):
            spec = self.given_moves.get(str(mv))
            if spec is None:
                raise PuzzleError(f"move {i}: {mv!r} is not one of "
                                  f"{', '.join(self.given_moves)}")
            src, tw = spec
            labels = [labels[c] for c in src]
            twists = [(twists[c] + int(t)) % self.k for c, t in zip(src, tw)]
        return [labels, twists] if self.k > 1 else labels

    # -- description ----------------------------------------------------------------------
    @property
    def label(self):
        return self.title

    def describe(self):
        d = {"puzzle": self.name, "cells": self.n_cells, "moves": list(self.move_names),
             "goal": list(self.goal_labels)}
        if self.title != self.name:
            d["name"] = self.title
        if self.k > 1:
            d["orientations"] = self.k
        return d

    def layers_extra(self):
        return {"n_ranks": self.n_ranks}

    def definition_digest(self):
        """A digest of what defines the puzzle's positions and moves (for cached databases)."""
        h = hashlib.sha256()
        for a in (self.srcs, self.twists, self.params.goal[:self.params.hpos], self.order):
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(str(self.k).encode())
        return h.hexdigest()[:16]

    def text(self, position):
        if self.k > 1 and isinstance(position, (list, tuple)) and len(position) == 2:
            return (" ".join(map(str, position[0])) + " | "
                    + " ".join(map(str, position[1])))
        return super().text(position)

    # -- drawing ----------------------------------------------------------------------------
    @property
    def footprint(self):
        return self.n_cells, 1

    def move_mark(self, position, after, move):
        """The move itself: :meth:`draw` outlines what it turns."""
        return move

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """The cells in a row, each label shaded by its goal cell (orientations as small
        numbers); ``mark``: a move name whose changed cells are framed."""
        import matplotlib.pyplot as plt

        pos = self.decode(self.encode(position, what="position"))
        labels, twists = (pos if self.k > 1 else (pos, [0] * self.n_cells))
        cmap = plt.get_cmap("viridis")
        n = self.n_cells
        goal_index = {}
        for i, lab in enumerate(self.goal_labels):
            goal_index.setdefault(lab, i)
        changed = set()
        if mark is not None:
            j = self.moves_in(None, [mark])[0]
            changed = {int(self.order[i]) for i in range(n)
                       if self.srcs[j, i] != i or self.twists[j, i]}
        for c, lab in enumerate(labels):
            shade = goal_index[lab] / max(1, n - 1)
            ax.add_patch(plt.Rectangle((x0 + c, y0), 1, 1, facecolor=cmap(shade),
                                       edgecolor="#e8112d" if c in changed else "white",
                                       lw=2.4 if c in changed else 1))
            ax.text(x0 + c + 0.5, y0 + 0.5, str(lab), ha="center", va="center", fontsize=8,
                    color="white" if shade < 0.6 else "black")
            if self.k > 1 and twists[c]:
                ax.text(x0 + c + 0.9, y0 + 0.15, str(twists[c]), ha="right", va="top",
                        fontsize=6, color="white" if shade < 0.6 else "black")
        if title is not None:
            ax.text(x0 + n / 2, y0 - 0.25, title, ha="center", va="bottom", fontsize=9)
