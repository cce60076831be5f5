"""puzzlelib.notebook: what every notebook imports (modes, saving, timing side by side, drawing
any puzzle's positions), and the domains' drawing and text that it relies on."""

import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from puzzlelib import (  # noqa: E402
    CLASSIC, BlockPuzzle, PuzzleError, RotationPuzzle, SlidingPuzzle, solve,
)
from puzzlelib import notebook as nbh  # noqa: E402


@pytest.mark.parametrize("flag,mode", [("1", "small"), ("0", "full"), (None, "quick")])
def test_modes_and_pick(monkeypatch, tmp_path, flag, mode):
    if flag is None:
        monkeypatch.delenv("PUZZLELIB_SMALL", raising=False)
    else:
        monkeypatch.setenv("PUZZLELIB_SMALL", flag)
    monkeypatch.setenv("PUZZLELIB_RESULTS", str(tmp_path / "out"))
    nb = nbh.Notebook("xx")
    assert nb.mode == mode and nb.small == (mode == "small")
    assert nb.pick(3, 1) == {"small": 1, "full": 3, "quick": 3}[mode]
    assert nb.pick(3, 1, quick=2) == {"small": 1, "full": 3, "quick": 2}[mode]
    assert nb.results == tmp_path / "out" and nb.results.is_dir()


def test_save_fig_and_table(monkeypatch, tmp_path):
    import pandas as pd

    monkeypatch.setenv("PUZZLELIB_RESULTS", str(tmp_path))
    nb = nbh.Notebook("xx")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    nb.save_fig(fig, "line")
    plt.close(fig)
    assert (tmp_path / "line.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    nb.save_table(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), "t")
    assert (tmp_path / "t.csv").read_text().splitlines() == ["a,b", "1,x", "2,y"]


def test_time_call_returns_the_result_and_the_median():
    calls = []

    def fn():
        calls.append(1)
        time.sleep(0.002 * len(calls))  # 2, 4, 6 ms: the median is the second
        return len(calls)

    out, t = nbh.time_call(fn, repeats=3)
    assert out == 3 and len(calls) == 3
    assert 0.004 <= t < 0.006 + 0.05


def test_time_search_reads_the_search_seconds():
    eight = SlidingPuzzle("3x3")
    res, wall, search = nbh.time_search(lambda: solve(eight, "1 2 3 4 5 6 0 7 8"), repeats=3)
    assert res.length == 2 and res.moves == "rr"
    assert 0 <= search <= wall


class _Fake:
    def __init__(self, seconds):
        self.stats = type("S", (), {"seconds": seconds})()


def test_side_by_side_alternates_and_divides_per_round(monkeypatch):
    order = []
    plain_times = iter([0.010, 0.030])
    clock = [0.0]  # a clock that only the plain version moves: no sleeping, exact ratios
    monkeypatch.setattr(nbh.time, "perf_counter", lambda: clock[0])

    def plain():
        order.append("plain")
        clock[0] += next(plain_times)
        return "p"

    def kernel():
        order.append("kernel")
        return _Fake(0.001)

    sbs = nbh.side_by_side(kernel, plain, rounds=2, per_round=2)
    # each round: the plain run, an untimed kernel run, then the timed ones
    assert order == ["plain", "kernel", "kernel", "kernel"] * 2
    assert sbs.kernel == 0.001 and sbs.kernel_result.stats.seconds == 0.001
    assert sbs.plain_result == "p"
    assert sbs.ratios == [pytest.approx(10), pytest.approx(30)]
    assert sbs.ratio == pytest.approx(sbs.plain / 0.001)
    row = sbs.row("x", note=1)
    assert row["experiment"] == "x" and row["kernel_ms"] == 1.0 and row["note"] == 1


def test_side_by_side_without_a_plain_version_times_the_wall_when_no_stats():
    sbs = nbh.side_by_side(lambda: time.sleep(0.001) or 5, rounds=1, per_round=3)
    assert sbs.plain is None and sbs.ratio is None and sbs.ratios == []
    assert sbs.kernel >= 0.001 and sbs.kernel_result == 5


def test_peak_python_memory():
    out, peak = nbh.peak_python_memory(lambda: len(np.ones(1 << 20)))  # 8 MiB, then freed
    assert out == 1 << 20
    assert 8 << 20 <= peak < 9 << 20
    out, peak = nbh.peak_python_memory(lambda: None)
    assert out is None and peak < 1 << 16


def _patches(fig):
    return [p for ax in fig.axes for p in ax.patches]


@pytest.mark.parametrize("puzzle,positions", [
    (SlidingPuzzle("3x3"), ["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 0 8"]),
    (RotationPuzzle(3, 3), None),
    (BlockPuzzle(CLASSIC), None),
])
def test_draw_positions_of_every_puzzle(puzzle, positions):
    if positions is None:
        start = puzzle.default_start()
        if start is None:  # the Rotation Puzzle has no board of its own: start from a turn
            start = "4 1 3 5 2 6 7 8 9"
        positions = [start] + [p for _, p in puzzle.neighbours(start)][:2]
    fig = nbh.draw_positions(puzzle, positions, titles=[f"t{k}" for k in range(len(positions))],
                             ncols=2, title="all")
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert [f"t{k}" for k in range(len(positions))] == [t for t in texts if t.startswith("t")]
    assert fig.axes[0].get_title() == "all"
    assert len(_patches(fig)) >= len(positions)
    plt.close(fig)


def test_sliding_colours_by_goal_or_by_label():
    puz = SlidingPuzzle("2x3", goal="1 1 2 2 3 0")
    fig, ax = plt.subplots()
    puz.draw(ax, "1 2 1 2 3 0")
    goal_colours = [p.get_facecolor() for p in ax.patches]
    # by the goal: cells 0 and 4 hold the goal's label (green), 1-3 do not (orange)
    assert goal_colours[0] == goal_colours[4] != goal_colours[1] == goal_colours[2]
    ax.clear()
    puz.draw(ax, "1 2 1 2 3 0", colours="labels")
    by_label = [p.get_facecolor() for p in ax.patches]
    assert by_label[0] == by_label[2] != by_label[1] == by_label[3] != by_label[4]
    with pytest.raises(PuzzleError, match="colours must be 'goal' or 'labels'"):
        puz.draw(ax, "1 2 1 2 3 0", colours="rainbow")
    plt.close(fig)
    fig = nbh.draw_positions(puz, ["1 2 1 2 3 0"], colours="labels")
    assert [p.get_facecolor() for p in _patches(fig)] == by_label
    plt.close(fig)


def test_draw_solution_and_plot_layers():
    res = solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 0 7 8")
    fig = nbh.draw_solution(res, title="two moves")
    titles = [t.get_text() for t in fig.axes[0].texts if t.get_va() == "bottom"]  # not tiles
    assert titles == ["start", "1", "2"]
    plt.close(fig)
    ax = nbh.plot_layers([1, 2, 4], label="x", log=True)
    assert [b.get_height() for b in ax.patches] == [1, 2, 4]
    assert ax.get_yscale() == "log" and ax.get_xlabel().startswith("depth")
    plt.close(ax.figure)


def test_text_of_a_position():
    assert SlidingPuzzle("2x3").text("1 2 3 4 5 0") == "1 2 3 / 4 5 0"
    assert SlidingPuzzle("2x2").text([1, 2, 3, 0]) == "1 2 / 3 0"
    with pytest.raises(PuzzleError):
        SlidingPuzzle("2x2").text("1 2 3")
    assert RotationPuzzle(3, 3).text([1, 2, 3, 4, 5, 6, 7, 8, 9]) == "1 2 3 4 5 6 7 8 9"


def test_machine_line():
    line = nbh.machine()
    assert "numba" in line and "threads" in line and nbh.cpu_name() in line
