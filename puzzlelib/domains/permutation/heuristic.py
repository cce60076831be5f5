"""Permutation puzzles' heuristics as the kernels read them: the puzzle's heuristic
function, none, and the largest of its pattern databases (each ranks where its pieces are, and
their orientations, as a placement).
"""

import numpy as np

from ...core.contract import domain_fn
from ...core.hashing import _popcount


@domain_fn
def _heuristic(state, p):
    return np.int64(p.hfn(state, p))


@domain_fn
def no_heuristic(state, p):
    """0: uninformed search."""
    return 0


@domain_fn
def where(state, piece, p):
    """The cell (state index) where ``piece`` is, in either form."""
    if p.loc == 1:
        return np.int64(state[piece])
    x = 0
    while state[x] != piece:
        x += 1
    return x


@domain_fn
def pattern_max(state, p):
    """The largest of the pattern databases in ``p.htab`` (see :mod:`puzzlelib.pdb.permutation`):
    ``hdata`` holds, per database, its offset in ``htab``, its number of pieces ``q``, and the
    pieces; each looks up where its pieces are (and their orientations), ranked as a placement
    of ``q`` of the ``m`` moving cells."""
    n, m, k = p.n, p.m, p.k
    best = 0
    at = 0
    while at < p.hdata.shape[0]:
        off = p.hdata[at]
        q = p.hdata[at + 1]
        used = np.int64(0)
        r = np.int64(0)
        orank = np.int64(0)
        for t in range(q):
            piece = p.hdata[at + 2 + t]
            x = where(state, piece, p)
            r = r * (m - t) + x - _popcount(used & ((np.int64(1) << x) - 1))
            used |= np.int64(1) << x
            if k > 1:
                orank = orank * k + state[n + (piece if p.loc == 1 else x)]
        if k > 1:
            r = r * np.int64(k) ** q + orank
        v = p.htab[off + r]
        if v > best:
            best = v
        at += 2 + q
    return best
