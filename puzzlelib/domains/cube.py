"""The 2x2x2 Pocket Cube: :class:`PocketCube`, a :class:`~.permutation.PermutationPuzzle`.

Eight corner pieces, each with three orientations. Cells and pieces are named by the faces
they touch, in the order ``URF UFL ULB UBR DFR DLF DBL DRB`` (H. Kociemba's numbering); a
piece's orientation counts its clockwise twists (0..2) away from having its U or D sticker on
the U or D face. A face turn permutes four corners and, for the R, F, L and B faces, twists
them.

The cube has no fixed centre, so positions that differ by a turn of the whole cube are one:
the DBL corner is held still (:class:`~.permutation.PermutationPuzzle`'s symmetries), which
makes a D turn the same as a U turn, L the same as R, B the same as F, and leaves
``7! * 3**6 = 3,674,160`` positions. Moves are written ``U``, ``U2``, ``U'`` (``metric="htm"``,
half turns count one) or ``U``, ``U'`` (``"qtm"``, quarter turns); solutions use U, R and F.
A position may also be given as a scramble, moves of any of the six faces (``"R U R' F2"``).
"""

from ..core.errors import PuzzleError
from .permutation.parsing import compose
from .permutation.puzzle import PermutationPuzzle

import numpy as np

CORNERS = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
#: A quarter turn clockwise of each face: (src, twist), src[i] the cell whose corner comes to
#: cell i, twist[i] added to its orientation there.
FACE_TURNS = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7], [0, 0, 0, 0, 0, 0, 0, 0]),
    "R": ([4, 1, 2, 0, 7, 5, 6, 3], [2, 0, 0, 1, 1, 0, 0, 2]),
    "F": ([1, 5, 2, 3, 0, 4, 6, 7], [1, 2, 0, 0, 2, 1, 0, 0]),
    "D": ([0, 1, 2, 3, 5, 6, 7, 4], [0, 0, 0, 0, 0, 0, 0, 0]),
    "L": ([0, 2, 6, 3, 4, 1, 5, 7], [0, 1, 2, 0, 0, 2, 1, 0]),
    "B": ([0, 1, 3, 7, 4, 5, 2, 6], [0, 0, 1, 2, 0, 0, 2, 1]),
}
METRICS = ("htm", "qtm")
#: The corner held still.
ANCHOR = CORNERS.index("DBL")


def face_moves(metric):
    """Every face's turns in ``metric``, as ``{name: (src, twist)}``."""
    out = {}
    for face, (src, tw) in FACE_TURNS.items():
        q = (np.array(src), np.array(tw))
        q2 = compose(q, q, 3)
        q3 = compose(q2, q, 3)
        out[face] = (list(q[0]), list(q[1]))
        if metric == "htm":
            out[face + "2"] = (list(q2[0]), list(q2[1]))
        out[face + "'"] = (list(q3[0]), list(q3[1]))
    return out


def cube_turns():
    """Turns of the whole cube, x (as R), y (as U) and z (as F): each face's turn and the
    opposite face's turn back."""
    moves = face_moves("qtm")
    out = []
    for a, b in (("R", "L'"), ("U", "D'"), ("F", "B'")):
        s = compose((np.array(moves[a][0]), np.array(moves[a][1])),
                    (np.array(moves[b][0]), np.array(moves[b][1])), 3)
        out.append((list(s[0]), list(s[1])))
    return out


class PocketCube(PermutationPuzzle):
    """The 2x2x2 cube (see the module); ``metric``: ``"htm"`` (default) or ``"qtm"``.

    >>> from puzzlelib import PocketCube, solve
    >>> cube = PocketCube()
    >>> solve(cube, "R U R' U'").length
    4
    >>> cube.n_ranks
    3674160
    """

    name = "pocket-cube"

    def __init__(self, metric="htm"):
        if metric not in METRICS:
            raise PuzzleError(f"unknown metric {metric!r} for the pocket cube: use htm or qtm")
        self.metric = metric
        super().__init__(list(CORNERS), face_moves(metric), orientations=3,
                         symmetries=cube_turns(), anchor=ANCHOR, name=f"pocket cube ({metric})")

    def encode(self, position, what="start"):
        """A position: ``(corners, orientations)``, text ``"URF UFL ... | 0 0 ..."``, or a
        scramble (``"R U R' F2"``, any face)."""
        if isinstance(position, str) and "|" not in position:
            tokens = position.split()
            if tokens and all(t in self.given_moves or t in _ALL_TURNS for t in tokens):
                position = self._scramble(tokens)
        return super().encode(position, what)

    def _scramble(self, tokens):
        labels, twists = list(CORNERS), [0] * 8
        for t in tokens:
            src, tw = _ALL_TURNS[t]
            labels = [labels[c] for c in src]
            twists = [(twists[c] + int(x)) % 3 for c, x in zip(src, tw)]
        return labels, twists

    def scrambled(self, moves, start=None):
        """The position ``moves`` (any face's turns, as text or a list) make from the solved
        cube (or ``start``)."""
        if start is not None:
            return super().scrambled(moves, start)
        return self._scramble(moves.split() if isinstance(moves, str) else list(moves))

    @property
    def size(self):
        return "2x2x2"

    def describe(self):
        return {"puzzle": self.name, "metric": self.metric}


_ALL_TURNS = face_moves("htm")
