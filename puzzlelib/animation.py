"""Pictures that move: a solution as an animated GIF or a player, and searches made visible.

Every picture is drawn by the puzzle's own :meth:`~puzzlelib.domains.base.Puzzle.draw`, so all
of this works for every puzzle (sliding tiles, the Rotation Puzzle, block puzzles, permutation
puzzles). A notebook imports what it needs from here::

    from puzzlelib.animation import animate, player, plot_frontiers, step_through

- :func:`animate` -- a solution (or any list of positions) as an animated GIF; displays in a
  notebook as the moving picture, kept in the saved notebook for every viewer;
- :func:`player` -- the same frames under a play button, a slider and step buttons
  (ipywidgets, for JupyterLab with a kernel), the GIF displayed above it for viewers without
  one;
- :func:`plot_frontiers`, :func:`toy_frontiers`, :func:`toy_counts` -- layers grown from one
  end against layers grown from both ends;
- :func:`plot_idastar_passes` -- IDA*'s nodes per pass as its bound rises;
- :func:`plot_open_closed` -- A*'s open and closed sets over its expansions;
- :func:`step_through`, :func:`steps_figure`, :func:`steps_animation` -- a search one expansion
  at a time: the node expanded and the frontier waiting after it.
- :func:`frames_animation`, :func:`frames_player` -- any sequence of matplotlib drawings (a
  table's contents layer by layer, say) as a GIF or under a player.

Counting the toy trees: a tree with ``b`` children per node searched to depth ``d`` from one end
generates ``b + b**2 + ... + b**d`` nodes; two searches that meet in the middle go ``d`` levels
between them, ``ceil(d / 2)`` from the start and ``floor(d / 2)`` from the goal:

>>> toy_counts(3, 5)
([3, 9, 27, 81, 243], [3, 9, 27], [3, 9])
>>> [sum(c) for c in toy_counts(3, 5)]
[363, 39, 12]

(Document 000 counts 3 levels from each end, 2 * 39 = 78: one level more than a goal 5 levels
down needs.)
"""

import base64
import html
import io
import math

import numpy as np

from .core.errors import PuzzleError
from .results import Result

#: The longer side of a drawn position, in pixels, when no ``size`` is given.
DEFAULT_PIXELS = 300
#: Pixels above a position for its title.
TITLE_PIXELS = 26
#: Colours: the node being expanded, and the searches from the start and from the goal.
EXPANDED = "#c0392b"
SIDES = {"forward": "#1f77b4", "backward": "#9467bd"}


# ---------------------------------------------------------------------------------------------
# rendering: matplotlib figures drawn off screen into Pillow images
# ---------------------------------------------------------------------------------------------


def _canvas(width, height, dpi=100):
    """An off-screen figure of ``width`` x ``height`` pixels (no pyplot: nothing to close)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor="white")
    FigureCanvasAgg(fig)
    return fig


def _axes_at(fig, box, extent):
    """Axes filling ``box`` = (left, top, width, height) pixels of ``fig``, showing the units
    ``extent`` = (x0, y0, x1, y1) with y growing downwards, without frame or ticks."""
    width, height = fig.bbox.width, fig.bbox.height
    left, top, w, h = box
    ax = fig.add_axes([left / width, 1 - (top + h) / height, w / width, h / height])
    x0, y0, x1, y1 = extent
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
    ax.axis("off")
    return ax


def _raster(fig):
    """The figure's pixels as a Pillow RGB image."""
    from PIL import Image

    fig.canvas.draw()
    return Image.frombuffer("RGBA", fig.canvas.get_width_height(),
                            bytes(fig.canvas.buffer_rgba()), "raw", "RGBA", 0, 1).convert("RGB")


def _png(image):
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _unit(puzzle, size):
    """Pixels per cell: ``size``, or what makes the longer side :data:`DEFAULT_PIXELS`."""
    if size is not None:
        if size < 4:
            raise PuzzleError(f"size is pixels per cell and must be at least 4, not {size!r}")
        return int(size)
    w, h = puzzle.footprint
    return max(16, min(64, DEFAULT_PIXELS // max(w, h)))


def _outline(ax, x0, y0, w, h, colour, lw=3.0):
    import matplotlib.patches as patches

    ax.add_patch(patches.Rectangle((x0 - 0.08, y0 - 0.08), w + 0.16, h + 0.16, fill=False,
                                   edgecolor=colour, lw=lw))


def _position_image(puzzle, position, title, mark, unit):
    """One position drawn by the puzzle with ``title`` above it, as a Pillow image."""
    w, h = puzzle.footprint
    pad = 0.15
    width = round((w + 2 * pad) * unit)
    height = round((h + 2 * pad) * unit) + TITLE_PIXELS
    fig = _canvas(width, height)
    top = pad + TITLE_PIXELS / unit
    ax = _axes_at(fig, (0, 0, width, height), (-pad, -top, w + pad, h + pad))
    puzzle.draw(ax, position, 0.0, 0.0, mark=mark)
    if title:
        ax.text(w / 2, -pad - TITLE_PIXELS / unit / 2, title, ha="center", va="center",
                fontsize=12)
    return _raster(fig)


# ---------------------------------------------------------------------------------------------
# frames: what a GIF and a player show
# ---------------------------------------------------------------------------------------------


class _Reel:
    """Frames drawn on demand and kept: ``draw(i)`` makes frame ``i`` (a Pillow image),
    ``positions[i]`` is the position it shows, ``captions[i]`` a line about it."""

    def __init__(self, draw, positions, titles, captions=None):
        self._draw = draw
        self.positions = positions
        self.titles = titles
        self.captions = titles if captions is None else captions
        self._images, self._pngs = {}, {}

    def __len__(self):
        return len(self.positions)

    def image(self, i):
        if i not in self._images:
            self._images[i] = self._draw(i)
        return self._images[i]

    def png(self, i):
        if i not in self._pngs:
            self._pngs[i] = _png(self.image(i))
        return self._pngs[i]


def _move_text(move):
    """A move as a short label: ``u``, ``3``, ``(0,1)``, ``(3,1)→(4,1)``."""
    if isinstance(move, (list, tuple)):
        if move and all(isinstance(m, (list, tuple)) for m in move):
            return "→".join(_move_text(m) for m in move)
        return "(" + ",".join(str(m) for m in move) + ")"
    return str(move)


def _next_marks(puzzle, positions, moves):
    """For each position, what the puzzle's ``draw`` outlines of the move made next from it
    (the puzzle's :meth:`~puzzlelib.domains.base.Puzzle.move_mark`); None at the last."""
    out = [None] * len(positions)
    for k, move in enumerate(moves):
        out[k] = puzzle.move_mark(positions[k], positions[k + 1], move)
    return out


def _solution_frames(result_or_puzzle, positions, titles):
    """``(puzzle, positions, titles, marks)`` of a :class:`~puzzlelib.Result`'s solution, or of
    a puzzle and its ``positions``; checked."""
    if isinstance(result_or_puzzle, Result):
        result = result_or_puzzle
        puzzle = result.puzzle
        if positions is None:
            if result.length is None or result.length < 0:
                raise PuzzleError(f"the result holds no solution to show (status: "
                                  f"{result.status!r}); give the positions instead")
            positions = result.positions()
            moves = list(result.moves)
        else:
            moves = None
    else:
        puzzle, moves = result_or_puzzle, None
        if not hasattr(puzzle, "draw") or not hasattr(puzzle, "footprint"):
            raise PuzzleError(f"give a Result or a Puzzle and its positions, not "
                              f"{type(puzzle).__name__}")
        if positions is None:
            raise PuzzleError("a puzzle alone has nothing to show: give its positions too")
    positions = list(positions)
    if not positions:
        raise PuzzleError("no positions to show: the list is empty")
    n = len(positions) - 1
    if titles is None:
        if moves is not None:
            titles = ["start"] + [f"{k}/{n} {_move_text(m)}" for k, m in enumerate(moves, 1)]
        else:
            titles = ["start"] + [f"{k}/{n}" for k in range(1, n + 1)]
    titles = list(titles)
    if len(titles) != len(positions):
        raise PuzzleError(f"{len(titles)} titles for {len(positions)} positions: give one each")
    marks = _next_marks(puzzle, positions, moves) if moves else [None] * len(positions)
    return puzzle, positions, titles, marks


def _solution_reel(result_or_puzzle, positions, titles, size, marks):
    puzzle, positions, titles, next_marks = _solution_frames(result_or_puzzle, positions, titles)
    unit = _unit(puzzle, size)
    shown = next_marks if marks else [None] * len(positions)
    return _Reel(lambda i: _position_image(puzzle, positions[i], titles[i], shown[i], unit),
                 positions, titles)


# ---------------------------------------------------------------------------------------------
# animated GIFs
# ---------------------------------------------------------------------------------------------


def _indexed(image, palette):
    """``image`` with each colour replaced by the nearest of ``palette`` (a K x 3 array), as a
    palette image (exactly the nearest: Pillow's own mapping is approximate near white)."""
    from PIL import Image

    pixels = np.asarray(image, dtype=np.int32)
    key = (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
    colours, inverse = np.unique(key, return_inverse=True)
    rgb = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
    nearest = ((rgb[:, None, :] - palette[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    out = Image.frombytes("P", image.size, nearest.astype(np.uint8)[inverse].tobytes())
    out.putpalette(palette.astype(np.uint8).ravel().tolist())
    return out


def _gif(images, durations):
    """An animated GIF of Pillow ``images`` (one palette of 64 colours for all, no dithering:
    flat colours compress well, and Pillow stores only the changed part of each frame)."""
    from PIL import Image

    picks = sorted({round(k * (len(images) - 1) / 7) for k in range(8)})
    w, h = images[0].size
    sample = Image.new("RGB", (w, h * len(picks)), "white")
    for j, k in enumerate(picks):
        sample.paste(images[k], (0, j * h))
    quantized = sample.quantize(colors=64, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE)
    palette = np.array(quantized.getpalette()[:3 * 64], dtype=np.int32).reshape(-1, 3)
    # the background: the lightest entry (an average of near-whites) made white
    palette[palette.sum(axis=1).argmax()] = 255
    frames = [_indexed(im, palette) for im in images]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0, disposal=1, optimize=False)
    return buf.getvalue()


def _durations(n, fps, hold):
    """Milliseconds per frame: ``1/fps``, the first and last held ``hold`` seconds at least."""
    if not fps or fps <= 0:
        raise PuzzleError(f"fps must be a positive number of frames a second, not {fps!r}")
    step = round(1000 / fps)
    out = [step] * n
    out[0] = out[-1] = max(step, round(1000 * hold))
    return out


class Animation:
    """An animated GIF: ``gif`` (its bytes), ``n_frames`` (frames in the GIF), ``positions``
    (what they show) and ``titles``. It displays in a notebook as the moving picture (an HTML
    ``<img>`` holding the GIF, which every viewer of a saved notebook renders); :meth:`save`
    writes the file."""

    def __init__(self, gif, positions, titles):
        from PIL import Image

        self.gif = gif
        self.positions = positions
        self.titles = titles
        with Image.open(io.BytesIO(gif)) as im:
            self.n_frames = im.n_frames
            self.size = im.size

    def save(self, path):
        """Write the GIF to ``path``; returns the path."""
        from pathlib import Path

        path = Path(path)
        path.write_bytes(self.gif)
        return path

    def html(self):
        """An ``<img>`` tag holding the GIF itself (a data URI)."""
        data = base64.b64encode(self.gif).decode("ascii")
        alt = html.escape(f"animation of {len(self.positions)} positions")
        return (f'<img src="data:image/gif;base64,{data}" alt="{alt}" '
                f'width="{self.size[0]}" height="{self.size[1]}"/>')

    def _repr_mimebundle_(self, include=None, exclude=None):
        # nbconvert's HTML never shows image/gif (it is not among the types it renders), and
        # JupyterLab ranks HTML above images: the <img> alone reaches every viewer
        return {"text/html": self.html(), "text/plain": repr(self)}

    def __repr__(self):
        return (f"<Animation: {self.n_frames} frames, {self.size[0]}x{self.size[1]} pixels, "
                f"{len(self.gif):,} bytes>")


def _animation(reel, fps, hold):
    images = [reel.image(i) for i in range(len(reel))]
    return Animation(_gif(images, _durations(len(images), fps, hold)), reel.positions,
                     reel.titles)


def animate(result_or_puzzle, positions=None, fps=3, size=None, titles=None, hold=1.5,
            marks=True):
    """An animated GIF of a solution: one frame per position along a
    :class:`~puzzlelib.Result`'s solution (or of ``positions`` of a puzzle), each drawn by the
    puzzle's own ``draw`` and titled ``start``, ``1/31 u``, ... with the move just made.

    ``fps``: frames a second; the first and last frames stay ``hold`` seconds. ``size``:
    pixels per cell (by default the longer side is about 300 pixels). ``titles``: one per
    frame instead of the moves. ``marks``: outline what moves next (the puzzle's ``mark``).
    Returns an :class:`Animation`; a result with no solution, or no positions, raises
    :class:`~puzzlelib.PuzzleError`."""
    return _animation(_solution_reel(result_or_puzzle, positions, titles, size, marks), fps,
                      hold)


# ---------------------------------------------------------------------------------------------
# the player
# ---------------------------------------------------------------------------------------------


class Player:
    """A player for frames (see :func:`player` and :func:`step_through`): a play button
    linked to ``slider``, step buttons, a caption and ``image_widget``, all in ``widget``.

    From Python: :meth:`back` and :meth:`forward` step by one and stop at the ends; ``index``
    is the frame shown, ``position`` the position it draws, ``image`` its PNG bytes and
    ``caption`` its line. Displaying the player shows ``widget``."""

    def __init__(self, reel, fps=3):
        import ipywidgets as w

        self._reel = reel
        self.n_frames = len(reel)
        last = self.n_frames - 1
        self.play = w.Play(value=0, min=0, max=last, step=1, interval=max(1, round(1000 / fps)),
                           description="play", tooltip="play")
        self.slider = w.IntSlider(value=0, min=0, max=last, step=1, description="",
                                  continuous_update=True, layout=w.Layout(width="22em"))
        w.jslink((self.play, "value"), (self.slider, "value"))
        small = w.Layout(width="3em")
        self.back_button = w.Button(icon="step-backward", tooltip="one step back", layout=small)
        self.forward_button = w.Button(icon="step-forward", tooltip="one step forward",
                                       layout=small)
        self.label = w.HTML()
        self.image_widget = w.Image(format="png")
        self.back_button.on_click(lambda _: self.back())
        self.forward_button.on_click(lambda _: self.forward())
        self.slider.observe(lambda _: self._show(), names="value")
        # flex-start: the picture keeps its own size (a box's default stretches it to the
        # width of the page)
        self.widget = w.VBox([w.HBox([self.play, self.back_button, self.slider,
                                      self.forward_button, self.label]), self.image_widget],
                             layout=w.Layout(align_items="flex-start"))
        self._show()

    def _show(self):
        i = self.index
        self.label.value = f"<b>{html.escape(str(self._reel.captions[i]))}</b>"
        self.image_widget.value = self._reel.png(i)

    index = property(lambda self: self.slider.value, doc="The frame shown (the slider's value).")
    position = property(lambda self: self._reel.positions[self.index],
                        doc="The position the shown frame draws.")
    image = property(lambda self: self.image_widget.value, doc="The PNG bytes shown.")
    caption = property(lambda self: self._reel.captions[self.index],
                       doc="The line beside the slider (the move made, or the search's numbers).")

    def back(self):
        """One frame back (none before the first); returns the frame shown."""
        self.slider.value = max(self.slider.min, self.slider.value - 1)
        return self.index

    def forward(self):
        """One frame on (none after the last); returns the frame shown."""
        self.slider.value = min(self.slider.max, self.slider.value + 1)
        return self.index

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        bundle["text/plain"] = (f"[player of {len(self._reel)} frames: run the notebook in "
                                "JupyterLab to use it]")
        return bundle

    def __repr__(self):
        return f"<Player: frame {self.index} of {len(self._reel)}>"


def _show_static(animation):
    """Display ``animation`` as ordinary output when running under IPython."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return
    if get_ipython() is not None:
        display(animation)


def player(result_or_puzzle, positions=None, fps=3, size=None, titles=None, marks=True,
           static=True, hold=1.5):
    """A player for a solution (the arguments of :func:`animate`): a play button linked to a
    slider, step back / step forward, the move made and the position drawn by the puzzle.

    With ``static`` (the default), running in a notebook first displays the same frames as an
    :func:`animate` GIF, so the saved notebook shows the solution on viewers without a kernel
    (where a widget shows nothing). Returns a :class:`Player`."""
    reel = _solution_reel(result_or_puzzle, positions, titles, size, marks)
    if static:
        _show_static(_animation(reel, fps, hold))
    return Player(reel, fps=fps)


# ---------------------------------------------------------------------------------------------
# searches made visible: step by step
# ---------------------------------------------------------------------------------------------


def _as_position(state):
    """A step's state as the puzzle's ``draw`` reads it (a tuple of labels as a list)."""
    return list(state) if isinstance(state, tuple) else state


def _count(x):
    return len(x) if hasattr(x, "__len__") else x


def _step_numbers(step):
    """``g=3  h=5  f=8  bound=9  seen=40  side=forward`` for the numbers a step has."""
    g, h = getattr(step, "g", None), getattr(step, "h", None)
    parts = [("g", g), ("h", h), ("f", None if g is None or h is None else g + h),
             ("bound", getattr(step, "bound", None)),
             ("seen", _count(getattr(step, "seen", None))), ("side", getattr(step, "side", None))]
    return "  ".join(f"{k}={v}" for k, v in parts if v is not None)


def _check_steps(puzzle, steps):
    steps = list(steps)
    if not steps:
        raise PuzzleError("no steps to show: the list of expansions is empty")
    if not hasattr(puzzle, "draw") or not hasattr(puzzle, "footprint"):
        raise PuzzleError(f"steps are drawn by their puzzle: give a Puzzle first, not "
                          f"{type(puzzle).__name__}")
    return steps


def _step_image(puzzle, step, frontier, unit, small=0.5, cols=4):
    """A step as a Pillow image: its numbers on top, the expanded node large and outlined on
    the left, the first ``frontier`` positions waiting after it small on the right."""
    w, h = puzzle.footprint
    colour = SIDES.get(getattr(step, "side", None), EXPANDED)
    header = TITLE_PIXELS + 6
    big_w, big_h = round((w + 1) * unit), round((h + 1) * unit)
    rows = max(1, math.ceil(frontier / cols))
    s = unit * small
    cell_w, cell_h = w + 0.5, h + 0.5
    grid_w = round(cols * cell_w * s)
    grid_h = round(rows * cell_h * s) + TITLE_PIXELS
    width, height = big_w + grid_w + 10, header + max(big_h, grid_h)
    fig = _canvas(width, height)
    fig.text(6 / width, 1 - header / 2 / height, f"expansion {step.n}:  {_step_numbers(step)}",
             ha="left", va="center", fontsize=11)
    ax = _axes_at(fig, (0, header, big_w, big_h), (-0.5, -0.5, w + 0.5, h + 0.5))
    puzzle.draw(ax, _as_position(step.state), 0.0, 0.0)
    _outline(ax, 0, 0, w, h, colour)
    waiting = list(step.frontier or ())
    axf = _axes_at(fig, (big_w + 10, header, grid_w, grid_h - TITLE_PIXELS),
                   (-0.25, -0.25, cols * cell_w - 0.25, rows * cell_h - 0.25))
    for k, pos in enumerate(waiting[:frontier]):
        r, c = divmod(k, cols)
        puzzle.draw(axf, _as_position(pos), c * cell_w, r * cell_h)
    more = len(waiting) - frontier
    words = (f"frontier: {len(waiting)} waiting" + (f", first {frontier} shown (+{more} more)"
                                                    if more > 0 else ""))
    fig.text((big_w + 10) / width, 1 - (header + grid_h - TITLE_PIXELS / 2) / height, words,
             ha="left", va="center", fontsize=10)
    return _raster(fig)


def _steps_reel(puzzle, steps, frontier, size):
    steps = _check_steps(puzzle, steps)
    unit = _unit(puzzle, size) if size is not None else max(16, min(48, 200 // max(
        puzzle.footprint)))
    return _Reel(lambda i: _step_image(puzzle, steps[i], frontier, unit),
                 [s.state for s in steps], [f"expansion {s.n}" for s in steps],
                 captions=[f"expansion {s.n}: {_step_numbers(s)}" for s in steps])


def step_through(puzzle, steps, frontier=8, size=None, fps=1, static=False):
    """A player stepping through a search one expansion at a time: each frame shows the node
    expanded (large, outlined), its numbers (g, h, f, the bound, positions seen, the side of a
    bidirectional search) and the first ``frontier`` positions waiting after it.

    ``steps``: records with ``n``, ``state``, ``g``, ``h``, ``bound``, ``frontier`` (states
    waiting), ``seen`` and ``side`` (as :mod:`puzzlelib.teaching` records them), states in the
    puzzle's form. With ``static`` the same frames are first displayed as a GIF. Returns a
    :class:`Player` whose ``position`` is the state expanded at the step shown."""
    reel = _steps_reel(puzzle, steps, frontier, size)
    if static:
        _show_static(_animation(reel, fps, hold=1.0))
    return Player(reel, fps=fps)


def steps_animation(puzzle, steps, frontier=8, size=None, fps=1, hold=2.0):
    """The frames of :func:`step_through` as an animated GIF (an :class:`Animation`)."""
    return _animation(_steps_reel(puzzle, steps, frontier, size), fps, hold)


def steps_figure(puzzle, steps, first=6, frontier=8, unit=0.4):
    """A figure of a search's first ``first`` expansions, one row each: the node expanded
    (outlined) with its numbers, then the first ``frontier`` positions waiting after it."""
    import matplotlib.pyplot as plt

    steps = _check_steps(puzzle, steps)[:first]
    w, h = puzzle.footprint
    gap, row = 0.6, h + 1.6
    widest = max(min(frontier, len(s.frontier or ())) for s in steps)
    width = (w + 1.5) + max(widest, 1) * (w + gap) + 2.5
    scale = max(unit, 4.0 / width)  # inches a unit, the figure at least 4 inches wide
    fig, ax = plt.subplots(figsize=(scale * width, scale * row * len(steps)))
    fig.subplots_adjust(0, 0, 1, 1)
    for r, step in enumerate(steps):
        y = r * row + 1.1
        ax.text(0, y - 0.35, f"#{step.n}  {_step_numbers(step)}", ha="left", va="bottom",
                fontsize=8)
        puzzle.draw(ax, _as_position(step.state), 0.0, y)
        _outline(ax, 0, y, w, h, SIDES.get(getattr(step, "side", None), EXPANDED), lw=2.0)
        waiting = list(step.frontier or ())
        x = w + 1.5
        for pos in waiting[:frontier]:
            puzzle.draw(ax, _as_position(pos), x, y)
            x += w + gap
        if len(waiting) > frontier:
            ax.text(x, y + h / 2, f"+{len(waiting) - frontier} more", va="center", fontsize=8)
        elif not waiting:
            ax.text(x, y + h / 2, "(frontier empty)", va="center", fontsize=8)
    ax.set_xlim(-0.2, width)
    ax.set_ylim(row * len(steps), 0)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


# ---------------------------------------------------------------------------------------------
# any drawing, frame by frame
# ---------------------------------------------------------------------------------------------


def _figure_image(draw, i, width, height):
    fig = _canvas(width, height)
    draw(fig, i)
    return _raster(fig)


def _frames_reel(draw, count, captions, size):
    if not callable(draw):
        raise PuzzleError(f"draw must be a function draw(fig, i), not {type(draw).__name__}")
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise PuzzleError(f"count is the number of frames, at least 1, not {count!r}")
    count = int(count)
    captions = [f"frame {i}" for i in range(count)] if captions is None else list(captions)
    if len(captions) != count:
        raise PuzzleError(f"{len(captions)} captions for {count} frames: give one each")
    width, height = (int(x) for x in size)
    if min(width, height) < 16:
        raise PuzzleError(f"size is (width, height) in pixels, each at least 16, not {size!r}")
    return _Reel(lambda i: _figure_image(draw, i, width, height), list(range(count)),
                 captions)


def frames_animation(draw, count, captions=None, size=(480, 320), fps=1, hold=1.5):
    """An animated GIF of ``count`` frames, frame ``i`` drawn by ``draw(fig, i)`` on a blank
    matplotlib figure of ``size`` = (width, height) pixels (``fig.add_subplot()`` and the
    like). ``captions``: a line per frame. Returns an :class:`Animation` (its ``positions``
    are the frame numbers)."""
    return _animation(_frames_reel(draw, count, captions, size), fps, hold)


def frames_player(draw, count, captions=None, size=(480, 320), fps=1, static=True, hold=1.5):
    """A player of the frames of :func:`frames_animation` (drawn when first shown), the
    caption beside the slider; with ``static`` the GIF is first displayed for viewers
    without a kernel. Returns a :class:`Player` (its ``position`` is the frame number)."""
    reel = _frames_reel(draw, count, captions, size)
    if static:
        _show_static(_animation(reel, fps, hold))
    return Player(reel, fps=fps)


# ---------------------------------------------------------------------------------------------
# searches made visible: plots
# ---------------------------------------------------------------------------------------------


def _new_axes(ax, figsize):
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=figsize)
        return fig, ax
    return ax.figure, ax


def _counts(name, values):
    values = [int(v) for v in values]
    if not values:
        raise PuzzleError(f"{name} is empty: give the positions counted at each depth")
    return values


def _headroom(ax, top, log, share):
    """Raise the y axis's top so the tallest bar reaches ``share`` of the height, leaving room
    above the bars for the labels and text."""
    if top <= 0:
        return
    if log:
        low = ax.get_ylim()[0]
        ax.set_ylim(low, low * (top / low) ** (1 / share))
    else:
        ax.set_ylim(0, top / share)


def plot_frontiers(one_way_counts, forward_counts, backward_counts, log=False, ax=None,
                   first_depth=0, title=None, unit="positions"):
    """Layers grown from one end against layers grown from both ends, as bars on one axis:
    at each depth the one-way layer, the layer from the start and the layer from the goal
    (``counts[k]`` at depth ``first_depth + k``), with the totals written on it in ``unit``.
    Real data: ``layers(puzzle, start).counts`` and a ``bidir`` result's
    ``extra["forward_counts"]`` and ``extra["backward_counts"]``. Returns the figure."""
    one = _counts("one_way_counts", one_way_counts)
    fwd = _counts("forward_counts", forward_counts)
    back = _counts("backward_counts", backward_counts)
    fig, ax = _new_axes(ax, (8, 3.6))
    width = 0.28
    for shift, counts, label, colour in (
            (-width, one, f"from one end: {sum(one):,}", "#7f7f7f"),
            (0.0, fwd, f"both ends, from the start: {sum(fwd):,}", SIDES["forward"]),
            (width, back, f"both ends, from the goal: {sum(back):,}", SIDES["backward"])):
        xs = [first_depth + k + shift for k in range(len(counts))]
        ax.bar(xs, counts, width=width, label=label, color=colour)
    both = sum(fwd) + sum(back)
    ax.text(0.02, 0.95, f"one end: {sum(one):,} {unit}\nboth ends: {sum(fwd):,} + {sum(back):,}"
            f" = {both:,} {unit}", transform=ax.transAxes, ha="left", va="top", fontsize=10,
            bbox={"facecolor": "white", "edgecolor": "#999", "alpha": 0.9})
    ax.set_xlabel("depth (moves from the end the layer grows from)")
    ax.set_ylabel(unit)
    if log:
        ax.set_yscale("log")
    _headroom(ax, max(one + fwd + back), log, 0.7 if log else 0.55)  # below the text and legend
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # depths are whole numbers
    ax.legend(loc="upper right", fontsize=8)
    if title is not None:
        ax.set_title(title)
    return fig


def toy_counts(branching=3, depth=5):
    """Nodes per level of a tree with ``branching`` children per node (the root apart): from
    one end to ``depth``, and from two ends that meet in the middle: ``ceil(depth / 2)``
    levels from the start and ``floor(depth / 2)`` from the goal, ``depth`` in all. Returns
    ``(one_way, forward, backward)``."""
    if branching < 1 or depth < 1:
        raise PuzzleError(f"a toy tree needs branching >= 1 and depth >= 1, not "
                          f"{branching} and {depth}")
    one = [branching ** k for k in range(1, depth + 1)]
    return one, one[: math.ceil(depth / 2)], one[: depth // 2]


def toy_frontiers(branching=3, depth=5, log=False, ax=None):
    """:func:`plot_frontiers` of the toy trees of :func:`toy_counts` (branching 3 to depth 5:
    363 nodes from one end against 39 + 12 = 51 from both). Returns the figure."""
    one, fwd, back = toy_counts(branching, depth)
    return plot_frontiers(one, fwd, back, log=log, ax=ax, first_depth=1, unit="nodes",
                          title=f"a tree of {branching} children per node, goal at depth "
                                f"{depth}")


def plot_idastar_passes(passes, log=False, ax=None, title=None):
    """IDA*'s passes: one bar per bound with the nodes that pass generated, the total written
    on it. ``passes``: ``(bound, nodes)`` pairs in order. Returns the figure."""
    passes = [(b, int(n)) for b, n in passes]
    if not passes:
        raise PuzzleError("no passes to plot: give (bound, nodes) pairs")
    fig, ax = _new_axes(ax, (6, 3.2))
    xs = range(len(passes))
    bars = ax.bar(xs, [n for _, n in passes], color="#1f77b4")
    ax.bar_label(bars, labels=[f"{n:,}" for _, n in passes], fontsize=8)
    ax.set_xticks(list(xs), [str(b) for b, _ in passes])
    ax.set_xlabel("bound on f = g + h")
    ax.set_ylabel("nodes in the pass")
    total = sum(n for _, n in passes)
    ax.text(0.02, 0.95, f"{len(passes)} passes, {total:,} nodes in all", transform=ax.transAxes,
            ha="left", va="top", fontsize=10)
    if log:
        ax.set_yscale("log")
    _headroom(ax, max(n for _, n in passes), log, 0.8)  # room for the top bar's label
    if title is not None:
        ax.set_title(title)
    return fig


def plot_open_closed(history, log=False, ax=None, title=None):
    """A*'s open set (positions waiting) and closed set (positions expanded) after each
    expansion. ``history``: ``(open, closed)`` sizes in order. Returns the figure."""
    history = [(int(o), int(c)) for o, c in history]
    if not history:
        raise PuzzleError("no history to plot: give (open, closed) sizes per expansion")
    fig, ax = _new_axes(ax, (6, 3.2))
    xs = range(1, len(history) + 1)
    ax.plot(xs, [o for o, _ in history], label=f"open (last {history[-1][0]:,})",
            color="#ff7f0e")
    ax.plot(xs, [c for _, c in history], label=f"closed (last {history[-1][1]:,})",
            color="#1f77b4")
    ax.set_xlabel("expansions")
    ax.set_ylabel("positions")
    if log:
        ax.set_yscale("log")
    ax.legend()
    if title is not None:
        ax.set_title(title)
    return fig
