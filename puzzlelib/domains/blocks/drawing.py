"""Block puzzles drawn with matplotlib: the board, its pieces coloured by shape (the
daughter red), the goal's place outlined, and a marked piece.
"""

from .encoding import SHAPES
from .parsing import pieces_of

_COLOURS = {(1, 1): "#8fbbd9", (1, 2): "#f4c36b", (2, 1): "#9fd39b", (2, 2): "#e4572e"}


def draw_board(ax, cells, rows, cols, goal, x0=0.0, y0=0.0, title=None, mark=None):
    """Draw a board (its cell codes) on matplotlib axes ``ax``, one cell a unit, its top-left
    corner at ``(x0, y0)``, y growing downwards: the daughter red, the place of ``goal`` (the
    daughter's top-left cell, or None) outlined; ``mark``: a piece's top-left cell ``(r, c)``
    to outline."""
    import matplotlib.pyplot as plt

    ax.add_patch(plt.Rectangle((x0, y0), cols, rows, facecolor="#f7f7f7",
                               edgecolor="#333", lw=1.2))
    if goal is not None:
        gr, gc = goal
        ax.add_patch(plt.Rectangle((x0 + gc, y0 + gr), 2, 2, fill=False, edgecolor="#c0392b",
                                   lw=1.0, ls="--"))
    for shape, r, c in pieces_of(cells, cols):
        h, w = SHAPES[shape]
        ax.add_patch(plt.Rectangle((x0 + c + 0.06, y0 + r + 0.06), w - 0.12, h - 0.12,
                                   facecolor=_COLOURS[(h, w)], edgecolor="#333", lw=0.6))
        if mark is not None and tuple(mark) == (r, c):
            ax.add_patch(plt.Rectangle((x0 + c + 0.02, y0 + r + 0.02), w - 0.04, h - 0.04,
                                       fill=False, edgecolor="#1f4e79", lw=2.4))
    if title is not None:
        ax.text(x0 + cols / 2, y0 - 0.3, title, ha="center", va="bottom", fontsize=8)
