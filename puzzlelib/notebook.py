"""What the notebooks share: where their results go, pictures of any puzzle's positions, and
timings of a kernel side by side with the plain version.

A notebook starts with ``nb = Notebook("01_8puzzle_bfs_iddfs")``: ``nb.mode`` says how big a
run it is (``"small"``, what the tests run, ``PUZZLELIB_SMALL=1``; ``"full"``, what ``make
reproduce`` runs, ``PUZZLELIB_SMALL=0``; ``"quick"`` when the variable is not set, as in
JupyterLab), ``nb.results`` is the folder its tables and figures go to
(``PUZZLELIB_RESULTS``, else ``results/<name>`` beside ``notebooks/``), and ``nb.save_fig`` /
``nb.save_table`` write them there. Making a :class:`Notebook` also calls
:func:`puzzlelib.tune`, as a program that runs many searches should.
"""

import math
import os
import platform
import statistics
import time
from pathlib import Path

from .tuning import tune


def cpu_name():
    """The processor's model name (from ``/proc/cpuinfo`` on Linux), else the machine type."""
    name = platform.processor()
    info = Path("/proc/cpuinfo")
    if (not name or name == platform.machine()) and info.exists():
        lines = [ln for ln in info.read_text().splitlines() if ln.startswith("model name")]
        name = lines[0].split(":", 1)[1].strip() if lines else name
    return name or platform.machine()


def machine():
    """One line naming this machine and the software that times it."""
    import numba

    return (f"{cpu_name()}, {os.cpu_count()} CPUs, numba {numba.__version__} with "
            f"{numba.get_num_threads()} threads, Python {platform.python_version()}")


class Notebook:
    """A notebook's run: its size, its results folder, and saving into it."""

    def __init__(self, name, root=None):
        self.name = name
        flag = os.environ.get("PUZZLELIB_SMALL")
        self.mode = {"1": "small", "0": "full"}.get(flag, "quick")
        self.small = self.mode == "small"
        root = Path(root) if root is not None else Path.cwd().parent
        self.results = Path(os.environ.get("PUZZLELIB_RESULTS") or root / "results" / name)
        self.results.mkdir(parents=True, exist_ok=True)
        tune()

    def pick(self, full, small, quick=None):
        """``small`` in the small run, ``quick`` (default: ``full``) in the quick one, else
        ``full``."""
        if self.mode == "small":
            return small
        return full if self.mode == "full" or quick is None else quick

    def save_fig(self, fig, name, dpi=120):
        """Save a matplotlib figure as ``<results>/<name>.png``."""
        fig.savefig(self.results / f"{name}.png", dpi=dpi, bbox_inches="tight")

    def save_table(self, df, name):
        """Save a pandas table as ``<results>/<name>.csv``."""
        df.to_csv(self.results / f"{name}.csv", index=False)

    def __repr__(self):
        return f"Notebook({self.name!r}, mode={self.mode!r}, results={str(self.results)!r})"


# ---------------------------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------------------------


def time_call(fn, repeats=1):
    """Run ``fn()`` ``repeats`` times; its last result and the median wall time in seconds."""
    times, out = [], None
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


def time_search(fn, repeats=1):
    """Run ``fn()`` (a call returning a :class:`~puzzlelib.Result`) ``repeats`` times; its last
    result, the median wall time of the calls and the median of their ``stats.seconds`` (the
    search alone), in seconds."""
    walls, searches, out = [], [], None
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - t0)
        searches.append(out.stats.seconds)
    return out, statistics.median(walls), statistics.median(searches)


def peak_python_memory(fn):
    """Run ``fn()`` once with Python's allocations traced (:mod:`tracemalloc`; slower, so not
    timed): its result and the peak bytes Python held during the call (numpy's arrays
    included, numba's own allocations not)."""
    import tracemalloc

    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    try:
        out = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()
    return out, peak


class SideBySide:
    """A kernel and a plain version timed in alternating rounds (see :func:`side_by_side`):
    ``kernel`` and ``plain`` are the medians in seconds (the kernel's ``stats.seconds`` when it
    returns a result, else its wall time), ``ratio`` plain over kernel, ``ratios`` each round's,
    and the last results of both."""

    def __init__(self, kernel_times, plain_times, kernel_result, plain_result, ratios):
        self.kernel = statistics.median(kernel_times)
        self.plain = statistics.median(plain_times) if plain_times else None
        self.ratio = self.plain / self.kernel if self.plain and self.kernel else None
        self.ratios = ratios
        self.kernel_result, self.plain_result = kernel_result, plain_result

    def row(self, name, **more):
        """A dict for a table: the name, both times in ms and the ratio, then ``more``."""
        out = {"experiment": name, "kernel_ms": 1e3 * self.kernel,
               "plain_ms": None if self.plain is None else 1e3 * self.plain,
               "ratio": self.ratio}
        out.update(more)
        return out


def side_by_side(kernel, plain=None, rounds=3, per_round=3):
    """Time ``kernel()`` against ``plain()`` in ``rounds`` alternating rounds (a run of the plain
    version, an untimed run of the kernel, then ``per_round`` timed ones), so that a machine
    whose speed drifts weighs on both alike. ``plain=None`` times the kernel alone."""
    ks, ps, ratios = [], [], []
    k_res = p_res = None
    for _ in range(max(1, rounds)):
        if plain is not None:
            p_res, t_plain = time_call(plain)
            ps.append(t_plain)
        kernel()  # untimed: its tables back in the caches, its threads awake
        this = []
        for _ in range(max(1, per_round)):
            t0 = time.perf_counter()
            k_res = kernel()
            wall = time.perf_counter() - t0
            stats = getattr(k_res, "stats", None)
            this.append(stats.seconds if stats is not None and stats.seconds else wall)
        ks.extend(this)
        if plain is not None:
            ratios.append(ps[-1] / statistics.median(this))
    return SideBySide(ks, ps, k_res, p_res, ratios)


# ---------------------------------------------------------------------------------------------
# pictures
# ---------------------------------------------------------------------------------------------


def draw_positions(puzzle, positions, titles=None, marks=None, ncols=8, unit=0.45, gap=0.7,
                   title=None, **options):
    """Many positions of ``puzzle`` on one matplotlib figure, in rows of ``ncols`` (each drawn by
    the puzzle's own :meth:`~puzzlelib.domains.base.Puzzle.draw`, which takes ``options``, such
    as sliding tiles' ``colours="labels"``); ``titles`` and ``marks`` one per position,
    ``title`` over the figure. Returns the figure."""
    import matplotlib.pyplot as plt

    w, h = puzzle.footprint
    n = len(positions)
    nrows = math.ceil(n / ncols)
    width = min(ncols, n)
    row = h + 1.4  # a row of positions and the titles above it
    w_units, h_units = width * (w + gap) - gap, nrows * row
    fig, ax = plt.subplots(figsize=(max(1.5, unit * w_units + 0.3), unit * h_units + 0.3))
    for k, pos in enumerate(positions):
        r, c = divmod(k, ncols)
        puzzle.draw(ax, pos, c * (w + gap), r * row + 1.1,
                    title=None if titles is None else titles[k],
                    mark=None if marks is None else marks[k], **options)
    ax.set_xlim(-0.1, w_units + 0.1)
    ax.set_ylim(h_units + 0.1, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    if title is not None:
        ax.set_title(title)
    return fig


def draw_solution(result, ncols=10, every=1, unit=0.35, title=None):
    """The positions along a :class:`~puzzlelib.Result`'s solution (every ``every``-th, the
    last always), titled by the moves made so far. Returns the figure."""
    positions = result.positions()
    keep = sorted(set(range(0, len(positions), every)) | {len(positions) - 1})
    return draw_positions(result.puzzle, [positions[k] for k in keep],
                          titles=[str(k) if k else "start" for k in keep], ncols=ncols, unit=unit,
                          title=title)


def plot_layers(counts, ax=None, label=None, log=False, **bar):
    """Positions per depth as bars (``counts[d]`` at depth ``d``). Returns the axes."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    ax.bar(range(len(counts)), counts, label=label, **bar)
    ax.set_xlabel("depth (moves from the start)")
    ax.set_ylabel("positions")
    if log:
        ax.set_yscale("log")
    if label is not None:
        ax.legend()
    return ax
