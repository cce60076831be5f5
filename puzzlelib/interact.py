"""Change a notebook's instance and run its experiment again: :func:`explore`.

A notebook reproduces an experiment on one instance (a board, its labels, a metric, a pattern
database). :func:`explore` puts controls for those choices under the experiment's pictures and
tables, with a *Run* button that runs the kernel again on the chosen instance and redraws them.

The run with the default choices is shown as ordinary output when the cell runs, so a notebook
executed headless and read on any viewer (GitHub, HTML, JupyterLab without a kernel) keeps a
static rendering of the defaults; the controls work wherever a kernel is attached::

    def run(board, metric):
        result = layers(BlockPuzzle(board, metric=metric))
        plot_layers(result.counts)
        return pandas.DataFrame({"positions": [result.total]})

    explore(run, board=["classic", "easy"], metric=["move", "step"])
"""

import html

from .core.errors import PuzzleError


def _widget_for(name, spec):
    """The ipywidgets control a shorthand ``spec`` stands for (see :func:`explore`)."""
    import ipywidgets as w

    if isinstance(spec, w.ValueWidget):
        return spec
    style = {"description_width": "initial"}
    if isinstance(spec, bool):
        return w.Checkbox(value=spec, description=name, style=style)
    if isinstance(spec, int):
        return w.IntText(value=spec, description=name, style=style)
    if isinstance(spec, str):
        return w.Text(value=spec, description=name, style=style,
                      layout=w.Layout(width="min(100%, 40em)"))
    if isinstance(spec, range):
        step = spec.step
        return w.IntSlider(value=spec.start, min=spec.start, max=spec[-1], step=step,
                           description=name, style=style, continuous_update=False)
    if isinstance(spec, (list, tuple)) and spec:
        return w.Dropdown(options=list(spec), value=spec[0], description=name, style=style)
    raise PuzzleError(f"explore: no control for {name}={spec!r}: give a list of choices, a "
                      "range, a str, an int, a bool or an ipywidgets widget")


class Explorer:
    """The controls of :func:`explore`, its *Run* button and the area it redraws into.

    ``controls`` maps each name to its widget; :meth:`set` changes them, :meth:`press` runs as
    the button does (tests drive it this way); ``last`` is what the latest run returned and
    ``error`` the one-line message of the latest run that was refused (else None)."""

    def __init__(self, run, controls, label="Run"):
        import ipywidgets as w

        self._run = run
        self.controls = {name: _widget_for(name, spec) for name, spec in controls.items()}
        self.button = w.Button(description=label, button_style="primary",
                               icon="play", tooltip="run the experiment on these choices")
        self.status = w.HTML()
        self.output = w.Output()
        self.button.on_click(lambda _: self.press())
        self.box = w.VBox([w.HBox(list(self.controls.values()) + [self.button]), self.status,
                           self.output])
        self.last = None
        self.error = None
        self.runs = 0

    @property
    def values(self):
        """The chosen value of every control."""
        return {name: c.value for name, c in self.controls.items()}

    def set(self, **values):
        """Change controls by name (as a reader would), without running."""
        for name, value in values.items():
            if name not in self.controls:
                raise PuzzleError(f"explore: no control named {name!r}: the controls are "
                                  f"{', '.join(self.controls)}")
            self.controls[name].value = value
        return self

    def call(self, values):
        """Run the experiment on ``values`` where the caller displays; a refused instance (a
        :class:`~puzzlelib.PuzzleError`) comes back as its message."""
        self.error = None
        try:
            self.last = self._run(**values)
        except PuzzleError as e:
            self.error = str(e)
            return None
        self.runs += 1
        return self.last

    def press(self):
        """Run on the chosen values into the output area, as the *Run* button does."""
        values = self.values
        self.output.clear_output(wait=True)
        self.status.value = "<i>running...</i>"
        self.button.disabled = True
        try:
            with self.output:
                _show(self.call(values))
        finally:
            self.button.disabled = False
        self.status.value = ("" if self.error is None else
                             f"<span style='color:#b00'>{html.escape(self.error)}</span>")
        return self.last

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs)
        names = ", ".join(self.controls)
        text = f"[controls: {names}; run this notebook in JupyterLab to change them]"
        if isinstance(bundle, tuple):
            bundle[0]["text/plain"] = text
        else:
            bundle["text/plain"] = text
        return bundle


def explore(run, label="Run", show_defaults=True, **controls):
    """Show ``run`` on its default instance, then controls to run it again on another.

    ``run(**values)`` makes the experiment's figures (matplotlib) and may return something to
    display (a pandas table, say). ``controls``: one per argument of ``run``, each an
    ipywidgets control or a shorthand: a list of choices (a drop-down, the first chosen), a
    ``range`` (a slider from its start), a ``str`` (a text box), an ``int``, or a ``bool``
    (a check box). With ``show_defaults`` (the default) the run on the defaults is displayed
    at once as ordinary output, so an executed notebook keeps it. A choice the puzzle refuses
    is shown as its one-line message. Returns the :class:`Explorer`, which displays as the
    controls."""
    explorer = Explorer(run, controls, label=label)
    if show_defaults:
        out = explorer.call(explorer.values)
        if explorer.error is not None:
            raise PuzzleError(explorer.error)
        _show(out)
    return explorer


def _show(out):
    """Display the figures a run drew (then close them), and what it returned."""
    from IPython.display import display

    import matplotlib.pyplot as plt

    for num in plt.get_fignums():
        display(plt.figure(num))
        plt.close(num)
    if out is not None:
        display(out)
