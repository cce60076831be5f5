"""Sliding-tile puzzles drawn with matplotlib: the tiles coloured by whether the goal holds
their label there (or one colour a label), a marked tile outlined.
"""


def draw_board(ax, board, goal, cols, x0=0.0, y0=0.0, title=None, mark=None, colours="goal"):
    """Draw ``board`` (a list of labels) on matplotlib axes ``ax``, one cell a unit, its top-left
    corner at ``(x0, y0)``, y growing downwards; ``mark``: a tile label to outline. ``colours``:
    ``"goal"``, a tile green where ``goal`` holds its label and orange elsewhere; ``"labels"``,
    one colour per label (indistinguishable tiles look alike)."""
    import matplotlib.pyplot as plt

    palette = plt.get_cmap("tab20").colors
    labels = sorted({int(x) for x in goal if x})
    for i, tile in enumerate(board):
        r, c = divmod(i, cols)
        home = tile != 0 and int(goal[i]) == tile
        if tile == 0:
            colour = "#f2f2f2"
        elif colours == "labels":
            colour = palette[(2 * labels.index(tile) + 1) % len(palette)]
        else:
            colour = "#9fd39b" if home else "#f4c36b"
        ax.add_patch(plt.Rectangle((x0 + c, y0 + r), 1, 1, facecolor=colour,
                                   edgecolor="#444", lw=1.2))
        if tile:
            ax.text(x0 + c + 0.5, y0 + r + 0.5, str(tile), ha="center", va="center",
                    weight="bold", fontsize=10 if len(goal) <= 16 else 8)
        if mark is not None and tile == mark:
            ax.add_patch(plt.Rectangle((x0 + c + 0.06, y0 + r + 0.06), 0.88, 0.88,
                                       fill=False, edgecolor="#c0392b", lw=2.2))
    if title is not None:
        ax.text(x0 + cols / 2, y0 - 0.15, title, ha="center", va="bottom", fontsize=9)
