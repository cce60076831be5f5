"""Pancake stacks: :class:`PancakePuzzle`, a :class:`~.permutation.PermutationPuzzle`.

A stack of ``n`` pancakes of sizes ``1..n`` is written from the top; the goal is ``1..n`` from
the top (the smallest on top). A move flips the top ``k`` pancakes (``2 <= k <= n``), and is
written as ``k``. Every flip is its own inverse.

Helmert's *gap* heuristic (M. Helmert, "Landmark heuristics for the pancake problem", SoCS
2010) counts the adjacent pairs whose sizes differ by more than one, with the plate under the
stack counted as a pancake of size ``n + 1``. A flip changes one adjacency only, so the count
never overestimates; it is the default for ``idastar``, ``astar`` and ``greedy``.
"""

import numpy as np

from ..core.contract import DomainFns, domain_fn
from ..core.errors import PuzzleError
from .permutation.encoding import RANK_NONE
from .permutation.hashing import (_rank_after_cells, _rank_after_low, _rank_cells, _rank_from_low,
                                  _rank_low, _unrank_cells, _unrank_low, reverse)
from .permutation.heuristic import _heuristic
from .permutation.moves import _inverse, _is_goal
from .permutation.puzzle import PermutationPuzzle

#: The largest stack (the state's bytes hold one pancake each).
MAX_PANCAKES = 250


@domain_fn
def gap(state, p):
    """Helmert's gap heuristic on a pancake stack (pancake ``i`` is stored as ``i - 1``):
    from the pancake in each place, or (location form, stacks of at most 11) from where each
    pancake is, as pancakes ``v`` and ``v + 1`` lying next to each other close one gap."""
    n = p.n
    g = 0
    if p.loc == 1:
        g = n - 1
        for v in range(n - 1):
            d = np.int64(state[v]) - np.int64(state[v + 1])
            if d == 1 or d == -1:
                g -= 1
    else:
        for i in range(n - 1):
            d = np.int64(state[i]) - np.int64(state[i + 1])
            if d != 1 and d != -1:
                g += 1
    if state[n - 1] != n - 1:  # the largest is not on the plate (the same test in both forms)
        g += 1
    return g


@domain_fn
def _flip_gap(state, j, p):
    """Flip ``k = j + 2`` on a stack kept pancake by pancake (stacks of more than 11), with
    the gap heuristic's byte updated from the one adjacency a flip changes (under the flipped
    part: the next pancake, or the plate, as a pancake of size ``n + 1``)."""
    k = j + 2
    below = np.int64(p.n) if k == p.n else np.int64(state[k])
    d0 = np.int64(state[k - 1]) - below
    d1 = np.int64(state[0]) - below
    reverse(state, 0, k - 1)
    dh = (1 if d1 != 1 and d1 != -1 else 0) - (1 if d0 != 1 and d0 != -1 else 0)
    state[p.hpos] += dh
    return dh


#: Large stacks under the gap heuristic: the flip updates the heuristic itself. Stacks of 12
#: to 20 are ranked (:func:`~.permutation._rank_low`), larger ones are not.
FNS_GAP = DomainFns(_flip_gap, _inverse, _is_goal, _heuristic, _rank_cells, _unrank_cells,
                    _rank_after_cells)
FNS_GAP_RANKED = DomainFns(_flip_gap, _inverse, _is_goal, _heuristic, _rank_low, _unrank_low,
                           _rank_after_low, _rank_from_low)


def flips(n):
    """The moves of a stack of ``n``: flip ``k`` reverses the top ``k`` (``{str(k): src}``)."""
    return {str(k): list(range(k))[::-1] + list(range(k, n)) for k in range(2, n + 1)}


class PancakePuzzle(PermutationPuzzle):
    """A stack of ``n`` pancakes (``2 <= n <= 250``), written from the top; the goal is
    ``1..n`` from the top. Moves are flips of the top ``k`` (written ``k``). Heuristics:
    ``gap`` (the default) and ``none``.

    >>> from puzzlelib import PancakePuzzle, solve, layers
    >>> solve(PancakePuzzle(5), "3 1 5 2 4").moves
    [4, 2, 5, 4, 2]
    >>> layers(PancakePuzzle(6), "1 2 3 4 5 6").counts
    [1, 5, 20, 79, 199, 281, 133, 2]
    """

    name = "pancake"
    default_heuristic = "gap"
    numbered_moves = True

    def __init__(self, n):
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) \
                or not 2 <= n <= MAX_PANCAKES:
            raise PuzzleError(f"a pancake stack has 2 to {MAX_PANCAKES} pancakes, not {n!r}")
        self.size = int(n)
        super().__init__(list(range(1, n + 1)), flips(int(n)), name=f"{n}-pancake")
        self._plain_fns = self.fns

    def _builtin_heuristics(self):
        return ("gap",)

    def _builtin_heuristic(self, name):
        return gap if name == "gap" else None

    def with_heuristic(self, name):
        new = super().with_heuristic(name)
        if new is not self and not self.params.loc:
            gap_fns = FNS_GAP if self.params.rkind == RANK_NONE else FNS_GAP_RANKED
            new.fns = gap_fns if new.heuristic == "gap" else self._plain_fns
        return new

    def describe(self):
        return {"puzzle": self.name, "size": self.size}

    def layers_extra(self):
        return {"n_ranks": self.n_ranks}

    # -- drawing: a stack, not a row of cells ---------------------------------------------------
    @property
    def footprint(self):
        return 0.5 * self.size + 1.0, 0.5 * self.size + 0.35

    def draw(self, ax, position, x0=0.0, y0=0.0, title=None, mark=None):
        """The stack on its plate, the top pancake highest, each as wide as its size and
        coloured by it; ``mark``: a flip ``k``, drawn as the spatula under the top ``k``."""
        sizes = self.decode(self.encode(position, what="position"))
        draw_stack(ax, sizes, x0, y0, title=title, flip=None if mark is None else int(mark))


#: Height of a pancake in a drawing, in the units of :attr:`PancakePuzzle.footprint`.
PANCAKE_HEIGHT = 0.5


def draw_stack(ax, sizes, x0=0.0, y0=0.0, title=None, flip=None):
    """Draw a stack of pancakes ``sizes`` (from the top, sizes ``1..n``) on matplotlib axes
    ``ax``, its top-left corner at ``(x0, y0)``, y growing downwards: pancake ``s`` is
    ``0.5 * s + 0.4`` wide, centred, above a plate. A pancake already resting on the right
    one below it (the plate under ``n``), as in the goal, has a dark rim. ``flip``: the
    number of pancakes the next flip turns over, shown as a red spatula under them."""
    import matplotlib.pyplot as plt

    n = len(sizes)
    width = 0.5 * n + 1.0
    cx = x0 + width / 2
    cmap = plt.get_cmap("YlOrBr")
    h = PANCAKE_HEIGHT
    for i, s in enumerate(sizes):
        w = 0.5 * s + 0.4
        settled = list(sizes[i:]) == list(range(s, n + 1))
        shade = 0.25 + 0.55 * (s - 1) / max(1, n - 1)
        ax.add_patch(plt.Rectangle((cx - w / 2, y0 + i * h + 0.04), w, h - 0.08,
                                   facecolor=cmap(shade),
                                   edgecolor="#5a3300" if settled else "white",
                                   lw=1.6 if settled else 0.8))
        if n <= 30:
            ax.text(cx, y0 + (i + 0.5) * h, str(s), ha="center", va="center",
                    fontsize=8 if n <= 16 else 6, color="white" if shade > 0.65 else "black")
    plate = y0 + n * h + 0.12
    ax.plot([x0 + 0.1, x0 + width - 0.1], [plate, plate], color="0.35", lw=2.5,
            solid_capstyle="round")
    if flip is not None and 1 <= flip <= n:
        y = y0 + flip * h
        ax.plot([x0 + 0.05, cx + (0.5 * max(sizes[:flip]) + 0.4) / 2 + 0.1], [y, y],
                color="#c0392b", lw=2.6, solid_capstyle="round")
    if title is not None:
        ax.text(cx, y0 - 0.15, title, ha="center", va="bottom", fontsize=9)
