"""Timing a search apart from the compilation it causes.

A kernel called for the first time in a process is compiled, or loaded from numba's cache,
inside the call that needs it. :func:`timed` listens to numba's compiler lock while it is open,
so that each phase it times reports its wall time with the compilation taken out
(``seconds``) and the compilation apart (``compile_seconds``).
"""

import time
from contextlib import contextmanager

from numba.core import event


class _CompileClock(event.Listener):
    """Seconds spent holding numba's compiler lock (compiling, or loading from the cache)."""

    def __init__(self):
        self.depth = 0
        self.total = 0.0
        self.t0 = 0.0

    def on_start(self, ev):
        if self.depth == 0:
            self.t0 = time.perf_counter()
        self.depth += 1

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            self.total += time.perf_counter() - self.t0


class Phase:
    """A timed phase: ``seconds`` without compilation, ``compile_seconds`` of compilation."""

    seconds = 0.0
    compile_seconds = 0.0


class Timer:
    """Times phases of one call, each with the compilation inside it apart; ``compile_seconds``
    is the compilation of the whole call so far."""

    def __init__(self, clock):
        self._clock = clock

    @contextmanager
    def phase(self):
        out = Phase()
        c0, t0 = self._clock.total, time.perf_counter()
        try:
            yield out
        finally:
            out.compile_seconds = self._clock.total - c0
            out.seconds = max(0.0, time.perf_counter() - t0 - out.compile_seconds)

    @contextmanager
    def compiling(self):
        """A phase that counts wholly as compilation (typing a puzzle's arguments for the
        kernels, the first time)."""
        t0 = time.perf_counter()
        c0 = self._clock.total
        try:
            yield
        finally:
            self._clock.total = c0 + (time.perf_counter() - t0)

    @property
    def compile_seconds(self):
        return self._clock.total


@contextmanager
def timed():
    """``with timed() as timer:`` ... ``with timer.phase() as ph:`` ... ``ph.seconds``."""
    clock = _CompileClock()
    with event.install_listener("numba:compiler_lock", clock):
        yield Timer(clock)
