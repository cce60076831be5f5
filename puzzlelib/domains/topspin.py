"""TopSpin: :class:`TopSpin`, a :class:`~.permutation.PermutationPuzzle`.

``N`` tokens ``1..N`` lie on a ring; the turnstile reverses ``K`` consecutive tokens. Move
``i`` reverses the ``K`` tokens from place ``i`` on (around the ring), as in the heuristic
search literature's (N, K)-TopSpin (A. Felner et al., "Compressed pattern databases", JAIR
2007). The goal is ``1..N`` in order from place 0. Every move is its own inverse.

With ``cyclic=True`` the ring's rotations are symmetries: positions that differ by a turn of
the whole ring are one (token 1 held at place 0), as in the physical puzzle, where the ring
turns freely.
"""

import numpy as np

from ..core.errors import PuzzleError
from .permutation.puzzle import PermutationPuzzle

MAX_TOKENS = 250


def parse_size(size):
    """``"N,K"`` (or ``(N, K)``) -> ``(N, K)``, checked."""
    if isinstance(size, str):
        parts = size.replace(" ", "").split(",")
        if len(parts) != 2 or not all(t.isdigit() for t in parts):
            raise PuzzleError(f"TopSpin size {size!r} is not of the form N,K, e.g. 12,4")
        size = tuple(int(t) for t in parts)
    try:
        n, k = size
    except (TypeError, ValueError):
        raise PuzzleError(f"TopSpin size {size!r} is not (N, K)") from None
    for v in (n, k):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise PuzzleError(f"TopSpin size {size!r} is not two whole numbers")
    if not 3 <= n <= MAX_TOKENS:
        raise PuzzleError(f"TopSpin has 3 to {MAX_TOKENS} tokens, not {n}")
    if not 2 <= k <= n:
        raise PuzzleError(f"the turnstile reverses 2 to N={n} tokens, not {k}")
    return int(n), int(k)


def reversals(n, k):
    """Move ``i`` reverses places ``i..i+k-1`` (modulo ``n``): ``{str(i): src}``."""
    out = {}
    for i in range(n):
        src = list(range(n))
        for t in range(k):
            src[(i + t) % n] = (i + k - 1 - t) % n
        out[str(i)] = src
    return out


class TopSpin(PermutationPuzzle):
    """(N, K)-TopSpin: tokens ``1..N`` on a ring, a move reverses ``K`` of them from place
    ``i`` (written ``i``, 0..N-1). ``size``: ``(N, K)`` or ``"N,K"``; ``cyclic``: identify
    turns of the whole ring.

    >>> from puzzlelib import TopSpin, solve
    >>> solve(TopSpin("6,3"), "3 2 1 6 5 4").moves
    [0, 3]
    """

    name = "topspin"
    numbered_moves = True

    def __init__(self, size, cyclic=False):
        n, k = parse_size(size)
        self.tokens, self.turnstile, self.cyclic = n, k, bool(cyclic)
        shift = [(i + 1) % n for i in range(n)]
        super().__init__(list(range(1, n + 1)), reversals(n, k),
                         symmetries=[shift] if cyclic else None, anchor=0 if cyclic else None,
                         name=f"({n},{k})-TopSpin")

    @property
    def size(self):
        return f"{self.tokens},{self.turnstile}"

    def describe(self):
        d = {"puzzle": self.name, "size": self.size}
        if self.cyclic:
            d["cyclic"] = True
        return d
