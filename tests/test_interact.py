"""explore(): controls that run a notebook's experiment again on another instance."""

import matplotlib

matplotlib.use("Agg")

import ipywidgets as w  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from puzzlelib import PuzzleError, SlidingPuzzle, layers  # noqa: E402
from puzzlelib.interact import explore  # noqa: E402
from puzzlelib.notebook import plot_layers  # noqa: E402


def _run(board, size):
    result = layers(SlidingPuzzle(size), board)
    plot_layers(result.counts)
    return result


def test_defaults_run_at_once_and_the_button_runs_the_chosen_instance():
    ex = explore(_run, board="1 2 3 4 5 0", size=["2x3", "3x2"])
    assert isinstance(ex.controls["board"], w.Text)
    assert isinstance(ex.controls["size"], w.Dropdown)
    assert ex.runs == 1 and ex.last.total == 360  # 6!/2 positions of the 2x3
    assert plt.get_fignums() == []  # the default run's figure was shown and closed

    ex.set(board="1 1 2 2 3 0")  # repeated labels: fewer positions
    ex.press()
    assert ex.runs == 2 and ex.error is None
    assert ex.last.total == 180 and ex.last.counts[0] == 1
    assert plt.get_fignums() == []  # the redrawn histogram was shown in the widget's area


def test_a_refused_instance_is_one_line_and_keeps_the_last_result():
    ex = explore(_run, board="1 2 3 4 5 0", size=["2x3", "3x2"])
    before = ex.last
    ex.set(board="1 2 3")
    ex.press()
    assert ex.error is not None and "\n" not in ex.error
    assert ex.last is before
    assert "color" in ex.status.value  # the message is shown in red under the controls


def test_a_bad_default_is_an_error_not_a_blank_cell():
    with pytest.raises(PuzzleError):
        explore(_run, board="1 2 3", size=["2x3"])


def test_shorthands_and_their_errors():
    ex = explore(lambda n, on, r: (n, on, r), show_defaults=False, n=3, on=True, r=range(2, 9))
    assert isinstance(ex.controls["n"], w.IntText)
    assert isinstance(ex.controls["on"], w.Checkbox)
    assert isinstance(ex.controls["r"], w.IntSlider) and ex.controls["r"].max == 8
    assert ex.runs == 0
    ex.set(r=5).press()
    assert ex.last == (3, True, 5)
    with pytest.raises(PuzzleError, match="no control named"):
        ex.set(m=1)
    with pytest.raises(PuzzleError, match="no control for"):
        explore(lambda x: x, x=3.5)
    bundle = ex._repr_mimebundle_()
    assert "JupyterLab" in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle
