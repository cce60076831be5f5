import os
import random
import tempfile

import pytest

# pattern databases built by the tests go to a throw-away cache, never the user's
os.environ.setdefault("PUZZLELIB_CACHE", tempfile.mkdtemp(prefix="puzzlelib-test-cache-"))
# the CUDA backend's kernels run under numba's simulator unless told otherwise (set it to 0 on a
# machine with a GPU to test there): read when numba is first imported, so before any import
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PUZZLELIB_HEAVY") == "1":
        return
    skip = pytest.mark.skip(reason="heavy run: set PUZZLELIB_HEAVY=1 to include it")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)


def random_board(rows, cols, rng, goal=None, walk=None):
    """A random solvable board: a random walk of ``walk`` moves from ``goal`` (default: the
    standard goal); with ``walk=None`` a uniformly random board of the goal's parity class."""
    n = rows * cols
    goal = list(goal) if goal is not None else list(range(1, n)) + [0]
    if walk is None:
        walk = 200
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


@pytest.fixture
def rng():
    return random.Random(20261122)
