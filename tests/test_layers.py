"""Layered BFS over the uint8 table against the reference BFS, on whole small boards."""

import numba
import numpy as np
import pytest

from puzzlelib import PuzzleError, layers
from puzzlelib.domains.sliding import SlidingPuzzle
from puzzlelib.search import layered

from . import reference
from .conftest import random_board


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_counts_and_farthest_match_reference(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    for start in (goal, random_board(rows, cols, rng)):
        lay = layers(start, size=f"{rows}x{cols}")
        assert lay.counts == reference.layer_counts(start, rows, cols)
        assert sorted(lay.farthest) == reference.farthest(start, rows, cols)
        assert lay.total == sum(lay.counts) and lay.max_depth == len(lay.counts) - 1
        assert lay.n_farthest == len(lay.farthest)


def test_depth_and_path_queries(rng):
    lay = layers("1 2 3 4 5 6 7 8 0", size="3x3")
    dist = reference.distances([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3)
    for _ in range(50):
        b = random_board(3, 3, rng)
        d = lay.depth(b)
        assert d == dist[reference.to_str(b)]
        path = lay.path_to(b)
        assert len(path) == d
        assert reference.replay([1, 2, 3, 4, 5, 6, 7, 8, 0], path, 3) == b


def test_parallel_kernel_gives_the_same_table():
    puz = SlidingPuzzle(3, 3, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    tables = []
    for kernel in (layered._layer_serial, layered._layer_parallel):
        dist = np.full(puz.n_ranks, layered.UNSEEN, dtype=np.uint8)
        dist[r0] = 0
        counts = []
        d = 0
        while True:
            found, marked = kernel(dist, d, puz.fns, puz.params)
            counts.append(int(found))
            if marked == 0:
                break
            d += 1
        tables.append((dist, counts))
    assert (tables[0][0] == tables[1][0]).all()
    assert tables[0][1] == tables[1][1] == reference.layer_counts(list(puz.goal), 3, 3)


def test_parallel_threads_used_for_large_tables():
    assert layered.use_parallel(layered.PARALLEL_MIN_TABLE) == (numba.get_num_threads() > 1)
    assert not layered.use_parallel(1000)


def test_farthest_limit_keeps_exact_count():
    lay = layers("1 2 3 4 5 6 7 8 0", size="3x3", farthest_limit=1)
    assert lay.n_farthest == 2 and len(lay.farthest) == 1


def test_table_too_large_is_refused_before_allocating(monkeypatch):
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(100_000))
    with pytest.raises(PuzzleError, match=r"needs 177\.2 KiB of memory, but only 97\.7 KiB"):
        layers("1 2 3 4 5 6 7 8 0", size="3x3")


def test_4x4_distinct_is_refused_with_memory_needed():
    with pytest.raises(PuzzleError, match="TiB of memory"):
        layers(list(range(1, 16)) + [0], size="4x4")


def test_5x5_is_too_large_for_the_permutation_hash():
    with pytest.raises(PuzzleError, match="too many for the permutation hash"):
        layers(list(range(1, 25)) + [0], size="5x5")
