"""Every search stops by itself (puzzlelib.core.limits): a memory limit, a time limit and
Ctrl-C, in the API and on the command line, for each family of kernels."""

import os
import signal
from pathlib import Path
import threading
import time

import numpy as np
import pytest

from puzzlelib import (CLASSIC, BlockPuzzle, PancakePuzzle, SearchLimitError, SlidingPuzzle, layers,
                       pattern_databases, solve, solve_many)
from puzzlelib.cli import main
from puzzlelib.core import limits
from puzzlelib.core.errors import PuzzleError
from puzzlelib.core.jit import jit

DATA = Path(__file__).resolve().parent.parent / "data"
#: Korf and Felner's 24-puzzle instance 1 (95 moves: hours of IDA* with Manhattan distance).
HARD_24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13"
#: Korf's 15-puzzle instance 1 (57 moves: A* with Manhattan distance stores far too many).
HARD_15 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"

main_thread_only = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signal handlers can only be set in the main thread")


@jit
def _spin(n):
    s = 0
    for i in range(n):
        s += i % 7
        if (i & limits.STOP_MASK) == 0 and limits.stop_reason() != limits.RUNNING:
            return -1
    return s


@jit
def _grow(n_bytes):
    limits.claim(n_bytes)
    return np.zeros(n_bytes, dtype=np.uint8)


# --- numbers a person types ---------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("8G", 8 << 30), ("8g", 8 << 30), ("512M", 512 << 20), ("512MiB", 512 << 20),
    ("1.5G", 3 << 29), ("2000000", 2_000_000), (3 << 30, 3 << 30), ("1T", 1 << 40),
])
def test_memory_sizes_read_as_bytes(text, want):
    assert limits.parse_memory(text) == want


@pytest.mark.parametrize("bad", ["8X", "-1", "0", "abc", "", "1e3G", True, -5, 100, "G"])
def test_a_bad_memory_size_is_one_line_naming_it(bad):
    with pytest.raises(PuzzleError, match="max_memory") as e:
        limits.parse_memory(bad)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("bad", ["-1", "0", "abc", float("nan"), float("inf"), True, "1e99"])
def test_a_bad_time_limit_is_one_line_naming_it(bad):
    with pytest.raises(PuzzleError, match="time_limit"):
        limits.parse_seconds(bad)


def test_the_api_checks_the_limits_before_anything_runs():
    with pytest.raises(PuzzleError, match="max_memory"):
        solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1", max_memory="lots")
    with pytest.raises(PuzzleError, match="time_limit"):
        layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", time_limit=-3)
    with pytest.raises(PuzzleError, match="time_limit"):
        solve_many(SlidingPuzzle("3x3"), ["8 6 7 2 5 4 3 0 1"], time_limit="soon")


def test_the_default_limit_is_what_the_process_may_use():
    limit = limits.default_memory_limit()
    assert limits.rss_bytes() < limit <= limits.rss_bytes() + limits.memory_available()


def test_the_resident_set_is_read_now_and_in_a_forked_child_its_own():
    before = limits.rss_bytes()
    block = np.ones(64 << 20, np.uint8)  # 64 MiB, touched
    assert limits.rss_bytes() >= before + (48 << 20)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its own statm, once the parent's block is given back
        try:
            del block
            os.write(w, f"{limits.rss_bytes()} {limits._STATM[1] == os.getpid()}".encode())
        finally:
            os._exit(0)
    os.close(w)
    child_rss, own = os.read(r, 100).decode().split()
    os.waitpid(pid, 0)
    assert own == "True" and 0 < int(child_rss)
    assert limits._STATM[1] == os.getpid() and limits.rss_bytes() >= before + (48 << 20)
    del block


# --- the watch itself ------------------------------------------------------------------------------

def test_a_kernel_stops_at_the_time_limit():
    _spin(10)
    t0 = time.monotonic()
    with pytest.raises(SearchLimitError, match=r"time limit of 0.5 s passed: spin reached"):
        with limits.watch(time_limit=0.5, what="spin"):
            _spin(1 << 62)
    assert time.monotonic() - t0 < 1.5
    assert limits.stop_reason.__name__  # (the word is clear again:)
    assert _spin(100) > 0


def test_a_claim_over_the_limit_stops_the_search_not_the_process():
    _grow(10)
    with pytest.raises(SearchLimitError, match="memory limit of .* would be passed"):
        with limits.watch(max_memory=limits.rss_bytes() + (64 << 20)):
            _grow(1 << 30)
    assert _grow(1 << 20).shape == (1 << 20,)  # no limit outside a watch


def test_memory_watched_as_it_grows():
    with pytest.raises(SearchLimitError, match=r"memory limit of .*\(max_memory\)"):
        with limits.watch(max_memory=limits.rss_bytes() + (100 << 20), what="hoarding"):
            hoard = []
            for _ in range(100):
                hoard.append(np.ones(16 << 20, dtype=np.uint8))  # (Python: nudged)
                time.sleep(0.01)
    assert limits.room() > 1 << 40


def test_a_watch_inside_a_watch_is_the_outer_one():
    with limits.watch(time_limit=100) as outer:
        with limits.watch(time_limit=0.001) as inner:
            assert inner is outer
        time.sleep(0.05)
    assert limits.active() is None


@main_thread_only
def test_ctrl_c_stops_a_kernel_within_a_second():
    _spin(10)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt, match="interrupted: spin reached"):
            with limits.watch(what="spin"):
                _spin(1 << 62)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 1.5
    assert signal.getsignal(signal.SIGINT) is not None  # (the handler before is back)


# --- each family of searches -----------------------------------------------------------------------

def _interrupted_after(seconds, call):
    """Run ``call()`` with SIGINT sent ``seconds`` in; returns the seconds from the signal
    to the KeyboardInterrupt."""
    sent = []

    def send():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt, match="interrupted"):
            call()
    finally:
        timer.cancel()
    assert sent, "the search ended before the signal"
    return time.monotonic() - sent[0]


KORF_15 = SlidingPuzzle("4x4", goal=" ".join(map(str, range(16))))
EASY_15 = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
EASY_24 = " ".join(map(str, range(1, 24))) + " 0 24"
#: 40 moves (a 44-move walk from the goal): the threaded IDA* shares a pass among threads
#: (``_split_pass``), as the long search does, so that kernel is compiled before the signal
SHARED_24 = "1 2 4 10 9 6 7 8 3 5 11 17 12 23 13 22 18 15 24 19 0 16 21 20 14"


def _shared_pass_compiled():
    # (tests/conftest.py has every threaded search share its passes at once)
    solve(SlidingPuzzle("5x5"), SHARED_24, method="idastar", threads=2)

#: Per family: a small search of the same kernel (compiled first: the signal must come while
#: the kernel runs, not while it compiles), and a long one.
FAMILIES = {
    "idastar": (lambda: solve(SlidingPuzzle("5x5"), EASY_24, method="idastar", threads=1),
                lambda: solve(SlidingPuzzle("5x5"), HARD_24, method="idastar", threads=1)),
    "idastar-threads": (_shared_pass_compiled,
                        lambda: solve(SlidingPuzzle("5x5"), HARD_24, method="idastar", threads=2)),
    "astar": (lambda: solve(KORF_15, EASY_15, method="astar"),
              lambda: solve(KORF_15, HARD_15, method="astar", max_states=10 ** 9)),
    "bidir": (lambda: solve(SlidingPuzzle("5x5"), EASY_24, method="bidir"),
              lambda: solve(SlidingPuzzle("5x5"), HARD_24, method="bidir",
                            max_states=10 ** 9)),
    "layers-table": (lambda: layers(PancakePuzzle(12), table="bytes", max_depth=1),
                     lambda: layers(PancakePuzzle(12), table="bytes")),
    "layers-packed": (lambda: layers(PancakePuzzle(12), table="packed", checkpoint=False,
                                     max_depth=1),
                      lambda: layers(PancakePuzzle(12), table="packed", checkpoint=False)),
    "layers-states": (lambda: layers(PancakePuzzle(30), max_depth=2),
                      lambda: layers(PancakePuzzle(30))),
    "pdb-sliding": (lambda: pattern_databases(SlidingPuzzle("3x3"), [[1, 2, 3]], cache=False),
                    lambda: pattern_databases(SlidingPuzzle("4x4"), [list(range(1, 8))],
                                              cache=False)),
    "pdb-blocks": (lambda: pattern_databases(BlockPuzzle(CLASSIC), "8-1-2-l", cache=False),
                   lambda: pattern_databases(_block_7x8(), "42-4-0-l", cache=False)),
}


def _block_7x8():
    with open(DATA / "blocks" / "start_7x8.txt") as f:
        return BlockPuzzle(f.read(), goal="6,2")


@main_thread_only
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_ctrl_c_stops_every_family_within_a_second(family):
    warm, long = FAMILIES[family]
    warm()
    assert _interrupted_after(1.5, long) < 1.0


@main_thread_only
def test_ctrl_c_stops_a_block_puzzle_search():
    puz = _block_7x8()
    layers(puz, max_depth=2)
    assert _interrupted_after(1.5, lambda: layers(puz)) < 1.0


def test_a_time_limit_stops_idastar():
    solve(SlidingPuzzle("5x5"), EASY_24, method="idastar", threads=1)
    t0 = time.monotonic()
    with pytest.raises(SearchLimitError, match=r"time limit of 1 s passed: idastar on .*"
                                               r"reached depth \d+"):
        solve(SlidingPuzzle("5x5"), HARD_24, method="idastar", threads=1, time_limit=1)
    assert time.monotonic() - t0 < 2.5


def test_a_memory_limit_stops_a_growing_search_and_says_how_far_it_got():
    layers(PancakePuzzle(40), max_depth=2)
    cap = limits.rss_bytes() + (300 << 20)
    with pytest.raises(SearchLimitError, match=r"memory limit of .* would be passed.*"
                                               r"reached depth \d+, [\d,]+ positions"):
        layers(PancakePuzzle(40), max_memory=cap)
    assert limits.rss_bytes() < cap + (400 << 20)


def test_a_stopped_search_leaves_the_next_one_free():
    with pytest.raises(SearchLimitError):
        solve(SlidingPuzzle("5x5"), HARD_24, method="idastar", threads=1, time_limit=0.5)
    assert solve(SlidingPuzzle("3x3"), "8 6 7 2 5 4 3 0 1").length == 31


# --- the command line -------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, what", [
    (["solve", "--start", "8 6 7 2 5 4 3 0 1", "--max-memory", "lots"], "max_memory"),
    (["solve", "--start", "8 6 7 2 5 4 3 0 1", "--time-limit", "-2"], "time_limit"),
    (["layers", "--puzzle", "pancake", "--size", "5", "--time-limit", "x"], "time_limit"),
    (["blocks", "layers", "--board", str(DATA / "blocks" / "classic_4x5.txt"), "--max-memory", "0"],
     "max_memory"),
])
def test_bad_limits_on_the_command_line_are_one_line(argv, what, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and what in err and "Traceback" not in err


def test_the_command_line_exits_3_at_a_time_limit(capsys):
    solve(SlidingPuzzle("5x5"), EASY_24, method="idastar", threads=1)
    code = main(["solve", "--start", HARD_24, "--size", "5x5", "--threads", "1",
                 "--time-limit", "1", "--json"])
    out = capsys.readouterr()
    assert code == 3 and out.out == ""
    assert out.err.startswith("puzzlelib: stopped: time limit of 1 s passed")
    assert out.err.count("\n") == 1


def test_the_command_line_exits_3_at_a_memory_limit(capsys):
    layers(PancakePuzzle(40), max_depth=2)
    cap = (limits.rss_bytes() + (300 << 20)) >> 20
    code = main(["layers", "--puzzle", "pancake", "--size", "40", "--max-memory", f"{cap}M"])
    err = capsys.readouterr().err
    assert code == 3 and err.startswith("puzzlelib: stopped: memory limit of")
    assert err.count("\n") == 1


@main_thread_only
def test_the_command_line_exits_130_on_ctrl_c(capsys):
    solve(SlidingPuzzle("5x5"), EASY_24, method="idastar", threads=1)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        code = main(["solve", "--start", HARD_24, "--size", "5x5", "--threads", "1"])
    finally:
        timer.cancel()
    err = capsys.readouterr().err
    assert code == 130 and err.startswith("puzzlelib: interrupted: idastar on")
    assert err.count("\n") == 1


def test_ctrl_c_before_any_search_is_one_line_too(capsys, monkeypatch):
    # (a Ctrl-C while a Dask cluster starts, or a module imports, carries no message)
    from puzzlelib import cli

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_main", interrupted)
    assert main(["layers", "--size", "2x3"]) == 130
    assert capsys.readouterr().err == "puzzlelib: interrupted\n"


@main_thread_only
def test_an_interrupted_packed_search_resumes_from_its_saved_layers(tmp_path):
    whole = layers(PancakePuzzle(10), table="packed", checkpoint=False)

    def interrupt_at_depth_4(depth, count, total):
        if depth == 4:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # (the handler raises here)

    with pytest.raises(KeyboardInterrupt):
        layers(PancakePuzzle(10), table="packed", checkpoint=tmp_path,
               progress=interrupt_at_depth_4)
    assert any(tmp_path.iterdir())
    again = layers(PancakePuzzle(10), table="packed", checkpoint=tmp_path)
    assert again.counts == whole.counts


def _interrupt_when(argv, env, ready, after):
    """Start ``argv``; once ``ready()`` (within 2 minutes), wait ``after`` seconds and send
    SIGINT. Returns the exit status, standard error, and the seconds from the signal to the
    end."""
    import subprocess

    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        waited = time.monotonic()
        while not ready():
            assert proc.poll() is None and time.monotonic() - waited < 120
            time.sleep(0.05)
        time.sleep(after)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        return proc.returncode, err, time.monotonic() - t0
    finally:
        proc.kill()


def test_ctrl_c_while_numba_compiles_ends_the_command_within_a_second(tmp_path):
    """``python -m puzzlelib`` with an empty cache: Ctrl-C while the search's kernels compile
    (LLVM's C code would hold the interpreter for seconds) ends it within a second, with one
    line and status 130, and leaves the cache whole: the same command then answers."""
    import json
    import subprocess
    import sys

    env = dict(os.environ, PUZZLELIB_CACHE=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    argv = [sys.executable, "-m", "puzzlelib", "layers", "--puzzle", "pocket-cube", "--metric",
            "qtm", "--json"]
    # once the breadth-first search's first kernel is saved: it compiles the next ones, watched
    code, err, took = _interrupt_when(argv, env, lambda: list(tmp_path.rglob("*layered*.nbi")),
                                      0.3)
    assert code == 130, err
    assert err.startswith("puzzlelib: interrupted: ") and err.count("\n") == 1, err
    assert took < 1.0
    again = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "damaged" not in again.stderr, again.stderr
    assert json.loads(again.stdout)["total"] == 3_674_160


_STUCK_CHILD = r"""
import os, sys, zlib
from numba.core import typed_passes
from puzzlelib.core import limits

real = typed_passes.NativeLowering.run_pass
marker = sys.argv[1]
data = os.urandom(1 << 22) * 32


def held(self, state):
    # inside a watch, once: C code that holds the main thread for seconds, as LLVM's can
    if limits.active() is not None and not os.path.exists(marker):
        open(marker, "w").close()
        zlib.compress(data, 6)
    return real(self, state)


typed_passes.NativeLowering.run_pass = held
sys.argv[1:] = ["layers", "--size", "2x3", "--start", "1 2 3 4 5 0"]
from puzzlelib.cli import program
sys.exit(program())
"""


def test_ctrl_c_ends_the_command_when_the_compiler_holds_the_main_thread(tmp_path):
    """A compiler step that does not return to Python for seconds (here C code put into
    numba's lowering): the command ends 0.3 s after Ctrl-C, from the watcher's thread."""
    import sys

    marker = tmp_path / "held"
    env = dict(os.environ, PUZZLELIB_CACHE=str(tmp_path / "cache"))
    env.pop("NUMBA_CACHE_DIR", None)
    code, err, took = _interrupt_when([sys.executable, "-c", _STUCK_CHILD, str(marker)], env,
                                      marker.exists, 0.2)
    assert code == 130, err
    assert err.startswith("puzzlelib: interrupted: ") and err.count("\n") == 1, err
    assert "(numba was compiling its kernels)" in err
    assert took < 1.0


def test_a_stop_after_shared_passes_says_how_far_they_got():
    # the passes shared among threads record their bound and nodes for a stop's message, as
    # the passes on one thread do
    from puzzlelib.search.idastar import iterative_deepening
    puz = SlidingPuzzle("3x3")
    start = puz.encode("8 6 7 2 5 4 3 0 1")
    with limits.watch() as w:
        r = iterative_deepening(start, puz.fns, puz.params, 1, True, 31, parallel=True,
                                split_after=1)
    assert r.length == 31 and r.iterations > 1
    assert (w.depth, w.positions) == (31, r.generated)
