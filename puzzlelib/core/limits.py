"""How every search stops by itself: a memory limit, a time limit, and Ctrl-C.

A search runs inside :func:`watch`. A watcher thread looks, every few hundredths of a second,
at the time, at the memory the process holds (its resident set) and at whether SIGINT came
(through :func:`signal.set_wakeup_fd`, which the C library's handler writes at once, while the
main thread is still inside a kernel). When one of them says stop, it sets a word every kernel
can read, :func:`stop_reason`; the kernels look at it every few thousand positions and return
early, and the search's Python code raises at its next :func:`check`, or when the watch ends:
``KeyboardInterrupt`` for Ctrl-C, :class:`~puzzlelib.SearchLimitError` for a limit. Kernels are
compiled with ``nogil`` (:mod:`puzzlelib.core.jit`), so the watcher runs beside them. One wait
remains: while numba compiles a kernel (its first call with an empty cache), LLVM's C code does
not return to Python for up to seconds, and a library call raises the ``KeyboardInterrupt`` when
it returns. A program (the command line) can end at once instead
(:func:`exit_when_stuck`): nothing is half-written then, since every file is written under
another name and renamed once whole (numba's cache and :mod:`puzzlelib.core.store`).

Memory is also claimed before it is taken: :func:`memory_room`, readable in kernels, is what
the process may still add before it passes its limit, and :func:`claim` (in a kernel, before
a table grows) and :func:`puzzlelib.core.memory.check_fits` (in Python, before a table is
allocated) refuse what would not fit. The limit is ``max_memory`` when given, else what the
process may really use (:func:`default_memory_limit`).

The two words are C globals of this process, found by name (``llvmlite``'s symbol table), so
kernels loaded from numba's cache in another process read that process's own words.
"""

import atexit
import ctypes
import os
import re
import signal
import socket
import sys
import threading
import time

import llvmlite.binding as ll
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .errors import PuzzleError, SearchLimitError
from .jit import jit
from . import memory
from .memory import human, memory_available
from .numbers import check_number

#: Values of :func:`stop_reason`.
RUNNING, INTERRUPTED, OUT_OF_TIME, OUT_OF_MEMORY = 0, 1, 2, 3
#: Kernels look at :func:`stop_reason` when their count of positions is a multiple of this + 1.
STOP_MASK = (1 << 14) - 1
#: How often the watcher looks (seconds).
TICK = 0.02
#: A stop not noticed by the search's Python code within this many seconds interrupts it.
NUDGE = 0.5
#: A Ctrl-C not acted on within this many seconds, the main thread inside numba's compiler,
#: ends a program that asked for it (:func:`exit_when_stuck`).
STUCK = 0.3
#: The default limit leaves this share of what the process may use to everything else.
MARGIN = 0.1
_NO_LIMIT = 1 << 62

_STOP = ctypes.c_int64(RUNNING)
_ROOM = ctypes.c_int64(_NO_LIMIT)
_DEPTH = ctypes.c_int64(-1)
_POSITIONS = ctypes.c_int64(-1)
_STOP_SYMBOL, _ROOM_SYMBOL = "puzzlelib_stop_reason", "puzzlelib_memory_room"
_DEPTH_SYMBOL, _POSITIONS_SYMBOL = "puzzlelib_depth_reached", "puzzlelib_positions_stored"
for _word, _name in ((_STOP, _STOP_SYMBOL), (_ROOM, _ROOM_SYMBOL), (_DEPTH, _DEPTH_SYMBOL),
                     (_POSITIONS, _POSITIONS_SYMBOL)):
    ll.add_symbol(_name, ctypes.addressof(_word))


def _global(builder, name):
    module = builder.module
    word = module.globals.get(name)
    if word is None:
        word = ir.GlobalVariable(module, ir.IntType(64), name=name)
        word.linkage = "external"
    return word


def _load_global(builder, name):
    # an atomic load: read anew every time, never hoisted out of a kernel's loop
    return builder.load_atomic(_global(builder, name), "monotonic", 8)


@intrinsic
def stop_reason(typingctx):
    """In a kernel: :data:`RUNNING` (0) while the search may go on, else why it must stop."""
    return types.int64(), lambda context, builder, sig, args: _load_global(builder, _STOP_SYMBOL)


@intrinsic
def memory_room(typingctx):
    """In a kernel: the bytes the process may still add before it passes its memory limit."""
    return types.int64(), lambda context, builder, sig, args: _load_global(builder, _ROOM_SYMBOL)


@intrinsic
def report(typingctx, depth, positions):
    """In a kernel: how far the search got (its depth, the positions it holds), for the
    message of a stop (what :func:`note` records from Python)."""
    def codegen(context, builder, sig, args):
        for value, ty, name in zip(args, sig.args, (_DEPTH_SYMBOL, _POSITIONS_SYMBOL)):
            v = context.cast(builder, value, ty, types.int64)
            builder.store_atomic(v, _global(builder, name), "monotonic", 8)
        return context.get_dummy_value()
    return types.none(depth, positions), codegen


@intrinsic
def _stop_for_memory(typingctx):
    def codegen(context, builder, sig, args):
        builder.store_atomic(ir.Constant(ir.IntType(64), OUT_OF_MEMORY),
                             _global(builder, _STOP_SYMBOL), "monotonic", 8)
        return context.get_dummy_value()
    return types.none(), codegen


@jit
def claim(n_bytes):
    """In a kernel, before growing a table by ``n_bytes``: if they would pass the memory
    limit, the search is stopped (:data:`OUT_OF_MEMORY`) and a ``MemoryError`` raised (the
    watch turns it into a :class:`~puzzlelib.SearchLimitError`)."""
    if n_bytes > memory_room():
        _stop_for_memory()
        raise MemoryError("the memory limit")


def room():
    """In Python: the bytes the process may still add before it passes its limit."""
    return _ROOM.value


# --- Numbers a person types ---------------------------------------------------------------------

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.I)


def parse_memory(value, what="max_memory"):
    """Bytes from ``value``: a number of bytes or a string such as ``"8G"``, ``"512MiB"``,
    ``"1.5g"`` (K, M, G, T: powers of 1024). None stays None."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise PuzzleError(f"{what} must be a size such as 8G, not {value!r}")
    if isinstance(value, (int, float)):
        n = value
    else:
        m = _SIZE.match(str(value))
        if not m:
            raise PuzzleError(f"{what} must be a size such as 8G, 512M or a number of bytes, "
                              f"not {value!r}")
        n = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not n == n or n < 1 << 20 or n > _NO_LIMIT:  # NaN, under 1 MiB, absurd
        raise PuzzleError(f"{what} must be between 1M and 4E bytes, not {value!r}")
    return int(n)


def parse_seconds(value, what="time_limit"):
    """Seconds from ``value`` (a positive number, or a string of one). None stays None."""
    if value is None:
        return None
    return float(check_number(value, what, least=1e-3, most=1e9, whole=False))


# --- What the process may use ------------------------------------------------------------------

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


_STATM = [None, -1]  # (descriptor of /proc/<pid>/statm, the pid it belongs to)


def _statm(field):
    """Field ``field`` of ``/proc/self/statm`` in bytes (0: the whole size, 1: the resident
    set), or 0 where unknown. The file stays open (a read at offset 0 gives its values now),
    and is opened again in a forked child, whose statm is another file."""
    try:
        pid = os.getpid()
        if _STATM[1] != pid:
            if _STATM[0] is not None:
                os.close(_STATM[0])  # (the parent's, inherited)
            _STATM[:] = [None, -1]
            _STATM[:] = [os.open(f"/proc/{pid}/statm", os.O_RDONLY), pid]
        return int(os.pread(_STATM[0], 128, 0).split()[field]) * _PAGE
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def rss_bytes():
    """The memory this process holds now (its resident set), or 0 where unknown."""
    return _statm(1)


def _virtual_bytes():
    return _statm(0)


def _read_int(path):
    try:
        with open(path) as f:
            text = f.read().strip()
        return None if text == "max" else int(text)
    except (OSError, ValueError):
        return None


def _cgroup_room():
    """What the process's memory cgroup lets it add (v2, else v1), or None."""
    for limit, usage in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                         ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                          "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        lim = _read_int(limit)
        if lim is not None and lim < _NO_LIMIT:
            use = _read_int(usage) or 0
            return max(0, lim - use)
    return None


def _rlimit_room():
    """What RLIMIT_AS lets the process add to its address space, or None."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - _virtual_bytes())


_DEFAULT = [0.0, 0]  # (when, what) default_memory_limit last found: kept for a second


def default_memory_limit():
    """The resident memory this process may really reach: what it holds now plus the least of
    the memory available, its cgroup's room and its address-space limit's room, less
    :data:`MARGIN` of that room."""
    now = time.monotonic()
    if now - _DEFAULT[0] < 1.0:
        return _DEFAULT[1]
    rooms = [memory_available()]
    for r in (_cgroup_room(), _rlimit_room()):
        if r is not None:
            rooms.append(r)
    _DEFAULT[:] = [now, rss_bytes() + int((1 - MARGIN) * min(rooms))]
    return _DEFAULT[1]


# --- The watch -----------------------------------------------------------------------------------

_LOCK = threading.Lock()
_PAIR = []


def _socket_pair():
    """The socket pair SIGINT's wakeup byte goes through (made once)."""
    if not _PAIR:
        r, w = socket.socketpair()
        r.setblocking(False)
        w.setblocking(False)
        _PAIR.extend((r, w))
        atexit.register(lambda: [x.close() for x in _PAIR])
    return _PAIR[0], _PAIR[1]


class _Watcher(threading.Thread):
    """One thread for the process, started with the first watch: while a watch is open it
    looks every :data:`TICK` seconds (and at once when SIGINT's byte comes); otherwise it
    waits. A thread of its own per search would cost every small search its start and end."""

    def __init__(self):
        super().__init__(name="puzzlelib-watch", daemon=True)
        self.watch = None
        self.wanted = threading.Event()

    def run(self):
        import select

        r, _ = _socket_pair()
        while True:
            self.wanted.wait()
            ready = select.select([r], [], [], TICK)[0]
            sigint = False
            if ready:
                try:
                    sigint = signal.SIGINT in r.recv(256)
                except OSError:
                    pass
            with _LOCK:
                w = self.watch
                if w is not None:
                    if sigint:
                        w._stop(INTERRUPTED)
                    w._look()


_WATCHER = _Watcher()

_ACTIVE = []  # the watches open, innermost last (a search inside a search shares the outer one)


class _Watch:
    def __init__(self, max_memory, time_limit, what):
        max_memory, time_limit = parse_memory(max_memory), parse_seconds(time_limit)
        self.what = what
        self.explicit_memory = max_memory is not None
        self.limit = max_memory if max_memory is not None else default_memory_limit()
        self.time_limit = time_limit
        self.t0 = time.monotonic()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.peak = rss_bytes()
        self.depth = self.positions = None
        self.reason = RUNNING
        self.stopped_at = None
        self.nudged = False
        self.sigints = 0
        self._signals = None

    # the watcher thread
    def _look(self):
        if self.reason != RUNNING:
            self._nudge()
            self._end_if_stuck()
            return
        rss = rss_bytes()
        self.peak = max(self.peak, rss)
        _ROOM.value = max(0, self.limit - rss)
        if rss > self.limit:
            self._stop(OUT_OF_MEMORY)
        elif self.deadline is not None and time.monotonic() > self.deadline:
            self._stop(OUT_OF_TIME)

    def _stop(self, reason):
        if self.reason == RUNNING:
            self.reason = reason
            self.stopped_at = time.monotonic()
            _STOP.value = reason

    def _nudge(self):
        """The search was stopped, but its Python code has not noticed within :data:`NUDGE`
        seconds (a pure-Python loop, a wait on other processes): interrupt the main thread,
        whose handler raises the stop's error this time."""
        if (self._signals and not self.nudged
                and time.monotonic() - self.stopped_at > NUDGE):
            self.nudged = True
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    def _end_if_stuck(self):
        end = _STUCK_END[0]
        if (end is not None and self.reason == INTERRUPTED
                and time.monotonic() - self.stopped_at > STUCK and _main_thread_compiling()):
            end(f"{self.message()} (numba was compiling its kernels)")

    def _on_sigint(self, signum, frame):
        # The first SIGINT only stops the search: a handler that raised could run while numba
        # boxes a kernel's result (building a named tuple runs Python code), which does not
        # expect an error there. The search raises at its next check, or the watcher's nudge
        # (or a second Ctrl-C) raises here.
        self._stop(INTERRUPTED)
        self.sigints += 1
        if _in_compiler_callback(frame):
            # a callback of the compiler's C code would print the error and go on: the
            # watcher nudges again
            self.nudged = False
            self.stopped_at = time.monotonic()
            return
        if self.sigints > 1 or self.nudged:
            raise self.error()

    def start(self):
        memory.search_limit = lambda: (self.limit, _ROOM.value)
        _STOP.value = RUNNING
        _DEPTH.value = _POSITIONS.value = -1
        _ROOM.value = max(0, self.limit - self.peak)
        if threading.current_thread() is threading.main_thread():
            r, w = _socket_pair()
            try:
                while r.recv(256):  # (bytes of signals before this watch)
                    pass
            except OSError:
                pass
            try:
                old_fd = signal.set_wakeup_fd(w.fileno(), warn_on_full_buffer=False)
                old_handler = signal.signal(signal.SIGINT, self._on_sigint)
            except ValueError:  # not the main interpreter
                pass
            else:
                self._signals = (r, w, old_fd, old_handler)
        with _LOCK:
            _WATCHER.watch = self
        _WATCHER.wanted.set()

    def end(self):
        with _LOCK:  # the watcher looks at no watch once this one has ended
            _WATCHER.watch = None
            _WATCHER.wanted.clear()
            _STOP.value = RUNNING
            _ROOM.value = _NO_LIMIT
        if self._signals:
            r, w, old_fd, old_handler = self._signals
            signal.set_wakeup_fd(old_fd)
            signal.signal(signal.SIGINT, old_handler)
        memory.search_limit = None

    def message(self, reason=None):
        """One line: why the search stopped, and how far it got."""
        reason = reason or self.reason
        seconds = time.monotonic() - self.t0
        got = []
        depth = self.depth if self.depth is not None else _DEPTH.value
        positions = self.positions if self.positions is not None else _POSITIONS.value
        if depth is not None and depth >= 0:
            got.append(f"depth {depth}")
        if positions is not None and positions >= 0:
            got.append(f"{positions:,} positions")
        got.append(f"{seconds:.1f} s")
        reached = f"{self.what} reached {', '.join(got)}"
        if reason == INTERRUPTED:
            return f"interrupted: {reached}"
        if reason == OUT_OF_TIME:
            return f"time limit of {self.time_limit:g} s passed: {reached}"
        how = "max_memory" if self.explicit_memory else "the memory this process may use"
        return (f"memory limit of {human(self.limit)} ({how}) would be passed: "
                f"{human(self.peak)} in use; {reached}")

    def error(self):
        """The exception for the reason the search stopped (None while running)."""
        if self.reason == INTERRUPTED:
            return KeyboardInterrupt(self.message())
        if self.reason in (OUT_OF_TIME, OUT_OF_MEMORY):
            return SearchLimitError(self.message())
        return None


_STUCK_END = [None]


def exit_when_stuck(end):
    """For a program, never a library call: ``end(line)`` (which ends the process) is called,
    from the watcher's thread, when a Ctrl-C has not stopped the search within :data:`STUCK`
    seconds because the main thread is inside numba's compiler. ``None`` (the default): the
    call raises ``KeyboardInterrupt`` once the compiler returns, as a notebook's kernel, which
    must live on, needs."""
    _STUCK_END[0] = end


def _main_thread_compiling():
    """Whether the main thread's Python stack is inside numba or llvmlite (compiling: a kernel
    that runs has no Python frame of numba's)."""
    frame = sys._current_frames().get(threading.main_thread().ident)
    marks = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")
    while frame is not None:
        if any(m in frame.f_code.co_filename for m in marks):
            return True
        frame = frame.f_back
    return False


def _in_compiler_callback(frame):
    """Whether ``frame`` runs inside one of llvmlite's callbacks from C (an error raised
    there is printed and dropped)."""
    while frame is not None:
        if frame.f_code.co_name.startswith("_raw_object_cache"):
            return True
        frame = frame.f_back
    return False


class watch:
    """``with watch(max_memory, time_limit, what):`` around a search (see the module).

    ``max_memory`` in bytes (None: :func:`default_memory_limit`), ``time_limit`` in seconds
    (None: none); ``what`` names the search in the messages. A watch inside another is the
    outer one. On leaving, a stop raises ``KeyboardInterrupt`` (Ctrl-C) or
    :class:`~puzzlelib.SearchLimitError` (a limit), and so does a ``MemoryError`` (a
    :func:`claim` refused, or an allocation that failed)."""

    def __init__(self, max_memory=None, time_limit=None, what="the search"):
        self.args = (parse_memory(max_memory), parse_seconds(time_limit), what)
        self.w = None

    def __enter__(self):
        if _ACTIVE:
            return _ACTIVE[-1]
        if not _WATCHER.is_alive():
            with _LOCK:
                if not _WATCHER.is_alive():
                    _WATCHER.start()
        self.w = _Watch(*self.args)
        _ACTIVE.append(self.w)
        self.w.start()
        return self.w

    def __exit__(self, kind, exc, tb):
        if self.w is None:
            return False
        w = self.w
        _stop_seen = _STOP.value
        try:
            w._look()
        finally:
            w.end()
            _ACTIVE.remove(w)
        if w.reason == RUNNING and _stop_seen != RUNNING:
            w.reason = _stop_seen  # set by a kernel (claim)
        if kind is not None and issubclass(kind, MemoryError):
            w.reason = w.reason or OUT_OF_MEMORY
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            if w.reason == RUNNING:  # a Ctrl-C the watch did not see (another handler's)
                w.reason = INTERRUPTED
        err = w.error()
        if err is None:
            return False
        if exc is not None and type(exc) is type(err) and str(exc) == str(err):
            return False  # already the right exception
        raise err from None


def active():
    """The watch open now, or None."""
    return _ACTIVE[-1] if _ACTIVE else None


def check():
    """In a search's Python code, between kernel calls: raise if the search must stop."""
    if _STOP.value != RUNNING and _ACTIVE:
        err = _ACTIVE[-1].error()
        if err is not None:
            raise err


def note(depth=None, positions=None):
    """Record how far the search got, for the message a stop prints."""
    if _ACTIVE:
        w = _ACTIVE[-1]
        if depth is not None:
            w.depth = int(depth)
        if positions is not None:
            w.positions = int(positions)
