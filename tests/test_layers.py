"""Layered BFS over the uint8 table against the reference BFS, on whole small boards."""

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


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_scan_and_list_kernels_give_the_same_table(rows, cols, monkeypatch):
    puz = SlidingPuzzle(rows, cols, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    results = []
    for threshold in (1 << 40, 1):  # lists of states, then the parallel scan
        monkeypatch.setattr(layered, "PARALLEL_MIN_TABLE", threshold)
        results.append(layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0]))
    (d1, c1), (d2, c2) = results
    assert (d1 == d2).all()
    assert c1 == c2 == reference.layer_counts(list(puz.goal), rows, cols)


def test_stop_rank_in_both_kernels(monkeypatch):
    puz = SlidingPuzzle(3, 3, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    stop = int(puz.fns.rank(puz.encode(puz.parse("1 2 3 4 5 6 0 7 8")), puz.params))
    for threshold in (1 << 40, 1):
        monkeypatch.setattr(layered, "PARALLEL_MIN_TABLE", threshold)
        dist, counts = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], stop_rank=stop)
        assert dist[stop] == 2 and counts == [1, 2, 4]


def test_large_tables_use_the_parallel_scan():
    assert layered.use_parallel(layered.PARALLEL_MIN_TABLE)
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


def test_2x5_both_kernels_agree_with_known_diameter(monkeypatch):
    """10!/2 positions; the 2x5 puzzle's greatest distance is 55, reached by two positions.
    The parallel scan and the list kernel must build the same table."""
    lay = layers(list(range(1, 10)) + [0], size="2x5")
    assert (lay.total, lay.max_depth, lay.n_farthest) == (1_814_400, 55, 2)
    monkeypatch.setattr(layered, "PARALLEL_MIN_TABLE", 1)
    scan = layers(list(range(1, 10)) + [0], size="2x5")
    assert scan.counts == lay.counts and (scan.table == lay.table).all()
    assert sorted(scan.farthest) == sorted(lay.farthest)


def test_progress_reports_every_layer(capsys):
    seen = []
    puz = SlidingPuzzle(2, 3, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    _, counts = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0],
                                    progress=lambda d, c, t: seen.append((d, c, t)))
    assert [c for _, c, _ in seen] == counts[1:]
    assert seen[-1] == (len(counts) - 1, counts[-1], 360)
    lay = layers("1 2 3 4 5 0", size="2x3", progress=True)
    assert lay.counts == counts and "depth" in capsys.readouterr().err
