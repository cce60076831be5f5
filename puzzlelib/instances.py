"""Random instances of any puzzle: random walks, and positions near a goal.

>>> from puzzlelib import SlidingPuzzle, layers
>>> from puzzlelib.instances import random_walks
>>> eight = SlidingPuzzle("3x3")
>>> lay = layers(eight, "1 2 3 4 5 6 7 8 0")
>>> all(lay.depth(b) <= 6 for b in random_walks(eight, "1 2 3 4 5 6 7 8 0", 5, walk=6))
True
"""

import numpy as np

from .api import solve
from .core.contract import ILLEGAL


def random_walks(puzzle, start, n, walk, seed=0, rng=None):
    """``n`` positions reached from ``start`` by ``walk`` random moves each, never straight
    back unless it is the only move (so each lies at most ``walk`` moves from ``start``), drawn
    from a fixed ``seed`` (or the numpy ``rng`` given). Returns the positions as the puzzle
    writes them."""
    space = puzzle.rooted(start)
    p = space.params
    rng = np.random.default_rng(seed) if rng is None else rng
    first = space.encode(start)
    out = []
    for _ in range(n):
        s = first.copy()
        back = -1
        for _ in range(walk):
            legal = []
            for m in range(int(p.n_moves)):
                t = s.copy()
                if m != back and space.fns.step(t, m, p) != ILLEGAL:
                    legal.append(m)
            if not legal:  # a dead end: the only move is back
                legal = [back]
            m = int(rng.choice(legal))
            space.fns.step(s, m, p)
            back = int(space.fns.inverse(m, p))
        out.append(space.decode(s))
    return out


def random_instances(puzzle, n, start=None, near=(15, 40), walk=10, seed=0, heuristic=None,
                     method="astar"):
    """Random instances that a plain breadth-first search can still solve: a position ``k``
    moves from the goal on a shortest solution of ``start`` (``k`` drawn uniformly from
    ``near``), then ``walk`` random moves from it (:func:`random_walks`). The solution is
    found by ``method`` with ``heuristic``. Random walks from a goal hardly leave it on block
    puzzles (after 1,000 random moves the daughter is mostly within 10 moves of its goal), and
    random placements are mostly beyond plain BFS: this spreads instances over a range of
    lengths. Returns the positions as the puzzle writes them."""
    sol = solve(puzzle, start, method=method, heuristic=heuristic)
    path = sol.positions()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(near[0], near[1] + 1))
        out += random_walks(puzzle, path[max(0, len(path) - 1 - k)], 1, walk, rng=rng)
    return out
