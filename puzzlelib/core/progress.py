"""Progress of long searches and builds: tqdm bars, or a caller's own function.

A search reports after each layer (``update(depth, layer_count, total)``) or after each pass
of iterative deepening (``report(bound, nodes so far)``). ``progress`` everywhere is ``True``
(a bar on standard error), ``False`` or ``None`` (nothing), or a callable that is handed the
reports themselves.
"""

import time
from contextlib import contextmanager


def _tqdm(**options):
    from tqdm.auto import tqdm

    # redrawn at most once a second: a notebook keeps every redraw in its saved output
    return tqdm(leave=False, mininterval=1.0, **options)


@contextmanager
def layer_bar(show, total, desc, progress=None):
    """``update(depth, layer_count, total_so_far)`` for a breadth-first search: ``progress``
    itself when it is callable, a bar of positions (the depth in its description, the time
    left when ``total`` is known) when ``show``, else None."""
    if callable(progress):
        yield progress
        return
    if not show:
        yield None
        return
    bar = _tqdm(total=total, unit="pos", unit_scale=True, desc=desc)

    def update(depth, count, so_far):
        bar.set_description(f"{desc}: depth {depth}", refresh=False)
        bar.update(so_far - bar.n)

    try:
        yield update
    finally:
        bar.refresh()  # the last depth, whatever the interval
        bar.close()


@contextmanager
def pass_bar(progress, desc):
    """``report(bound, nodes so far)`` for iterative deepening: ``progress`` itself when it is
    callable, a bar of nodes with the last bound done when it is true, else None."""
    if callable(progress):
        yield progress
        return
    if not progress:
        yield None
        return
    bar = _tqdm(desc=desc, unit=" nodes", unit_scale=True)
    t0 = time.perf_counter()

    def report(bound, so_far):
        bar.update(so_far - bar.n)
        bar.set_description(f"{desc}: bound {bound} done ({time.perf_counter() - t0:.0f} s)",
                            refresh=False)

    try:
        yield report
    finally:
        bar.refresh()
        bar.close()
