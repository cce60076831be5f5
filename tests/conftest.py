import os
import random
import signal
import tempfile

import pytest

# the tests of Ctrl-C send SIGINT to processes they start; a suite started in the background of
# a shell (`make test &`, nohup) inherits SIGINT ignored, and so would those processes (a
# handler is reset on exec, an ignored signal stays ignored): take it back
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# pattern databases built by the tests go to a throw-away cache, never the user's
os.environ.setdefault("PUZZLELIB_CACHE", tempfile.mkdtemp(prefix="puzzlelib-test-cache-"))
# the CUDA backend's kernels run under numba's simulator unless told otherwise (set it to 0 on a
# machine with a GPU to test there): read when numba is first imported, so before any import
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # (the test extra not installed: tests/test_fuzz.py alone cannot run)
    pass
else:
    # the fuzzed tests (tests/test_fuzz.py) draw the same examples on every run, a bounded
    # number of them, with no deadline (a first call compiles kernels); PUZZLELIB_FUZZ=long
    # draws ten times as many, at random
    settings.register_profile("puzzlelib", derandomize=True, max_examples=40, deadline=None,
                              database=None, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow,
                                                     HealthCheck.filter_too_much])
    settings.register_profile("long", settings.get_profile("puzzlelib"), derandomize=False,
                              max_examples=400)
    settings.load_profile("long" if os.environ.get("PUZZLELIB_FUZZ") == "long" else "puzzlelib")


@pytest.fixture(autouse=True)
def _passes_shared_at_once(monkeypatch):
    """A threaded depth-first search shares its passes among the threads at once, as a long
    one does (a short one waits until its shared pass is compiled: puzzlelib.search.idastar,
    SPLIT_AFTER_SECONDS), so that the tests comparing one thread with two always compare two
    kernels."""
    from puzzlelib.search import idastar

    monkeypatch.setattr(idastar, "_unshared", [idastar.SPLIT_AFTER_SECONDS])


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PUZZLELIB_HEAVY") == "1":
        return
    skip = pytest.mark.skip(reason="heavy run: set PUZZLELIB_HEAVY=1 to include it")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)


def random_board(rows, cols, rng, goal=None, walk=None):
    """A random solvable board: with ``walk=None`` uniformly random among the boards the goal
    (default: the standard goal) reaches; else the end of a random walk of ``walk`` moves from
    the goal (a board at most ``walk`` moves away, of the parity of ``walk``)."""
    n = rows * cols
    goal = list(goal) if goal is not None else list(range(1, n)) + [0]
    if walk is None:
        return _uniform_board(rows, cols, rng, goal)
    cells = list(goal)
    b = cells.index(0)
    for _ in range(walk):
        r, c = divmod(b, cols)
        opts = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols]
        nr, nc = rng.choice(opts)
        t = nr * cols + nc
        cells[b], cells[t] = cells[t], 0
        b = t
    return cells


def _uniform_board(rows, cols, rng, goal):
    """A uniformly random arrangement of ``goal``'s labels that the goal reaches. With distinct
    labels exactly half can be reached: those whose permutation of the goal has the parity of
    the blank's distance from its goal cell (each move is a swap with the blank and moves it one
    cell). An arrangement of the other half has its first two tiles swapped, a one-to-one map
    onto the reachable half (the blank stays), so every reachable board is equally likely.
    Repeated labels make every arrangement reachable (two equal tiles swapped are the same
    board)."""
    cells = list(goal)
    rng.shuffle(cells)
    if len(set(goal)) < len(goal):
        return cells
    where = {v: i for i, v in enumerate(goal)}
    perm = [where[v] for v in cells]
    swaps = sum(1 for i in range(len(perm)) for j in range(i + 1, len(perm)) if perm[i] > perm[j])
    b, g = cells.index(0), goal.index(0)
    blank_distance = abs(b // cols - g // cols) + abs(b % cols - g % cols)
    if (swaps + blank_distance) % 2:
        i, j = [k for k, v in enumerate(cells) if v != 0][:2]
        cells[i], cells[j] = cells[j], cells[i]
    return cells


@pytest.fixture
def rng():
    return random.Random(20261122)
