"""The breadth-first search over sorted 64-bit keys, checked against numpy's own set
operations and against the hash-set frontier search (and, on sliding tiles, the layered BFS)."""

import numpy as np
import pytest

from puzzlelib import CLASSIC
from puzzlelib.domains.blocks import FNS, FRONTIER, BlockPuzzle
from puzzlelib.search.frontier import frontier_bfs
from puzzlelib.search.sortedfrontier import (
    drop_known,
    merge_unique,
    radix_sort,
    sorted_frontier_bfs,
    sorted_keys,
    thread_params,
    unique_sorted,
    words_to_bytes,
)

METRICS = ("unit", "straight", "path")


def _random_keys(rng, n, bits):
    x = rng.integers(0, 1 << 62, n, dtype=np.uint64) * np.uint64(4) + rng.integers(0, 4, n).astype(np.uint64)
    return x >> np.uint64(64 - bits) if bits < 64 else x


@pytest.mark.parametrize("bits", [1, 3, 8, 12, 22, 23, 46, 60, 64])
@pytest.mark.parametrize("n", [0, 1, 2, 1000, 50_001])
def test_radix_sort_matches_numpy(bits, n):
    rng = np.random.default_rng(bits * 1000 + n)
    x = _random_keys(rng, n, bits)
    a = x.copy()
    radix_sort(a, np.empty(n + 7, dtype=np.uint64), bits)  # scratch may be longer
    assert np.array_equal(a, np.sort(x))


def _drop(a, b, c):
    a = a.copy()
    return a[: drop_known(a, len(a), b, c)]


def test_unique_merge_and_drop_known_match_numpy_set_operations():
    rng = np.random.default_rng(7)
    for _ in range(20):
        a, b, c = (np.unique(rng.integers(0, 300, rng.integers(0, 200)).astype(np.uint64))
                   for _ in range(3))
        assert np.array_equal(merge_unique(a, b), np.union1d(a, b))
        assert np.array_equal(_drop(a, b, c), np.setdiff1d(np.setdiff1d(a, b), c))
        raw = np.sort(rng.integers(0, 50, rng.integers(0, 300)).astype(np.uint64))
        m = unique_sorted(raw)
        assert np.array_equal(raw[:m], np.unique(raw))
    assert np.array_equal(sorted_keys(np.array([5, 3, 5, 0], dtype=np.uint64)), [0, 3, 5])
    assert words_to_bytes(np.array([0x0102], dtype=np.uint64), 3).tolist() == [[2, 1, 0]]


@pytest.mark.parametrize("n_run, n_layer", [(0, 10), (5, 0), (50, 100_000), (3000, 3000),
                                             (20_000, 50)])
def test_drop_known_hops_over_long_layers(n_run, n_layer):
    # a short run against long layers (long hops, keys past either end), and the other way
    rng = np.random.default_rng(n_run + n_layer)
    b, c = (np.unique(rng.integers(0, 10 * n_layer + 10, n_layer).astype(np.uint64))
            for _ in range(2))
    a = np.unique(np.concatenate([rng.choice(b, min(len(b), n_run // 3)) if len(b) else [],
                                  rng.integers(0, 12 * n_layer + 20, n_run)]).astype(np.uint64))
    buf = np.concatenate([a, np.zeros(5, dtype=np.uint64)])  # only the first len(a) are read
    k = drop_known(buf, len(a), b, c)
    assert np.array_equal(buf[:k], np.setdiff1d(np.setdiff1d(a, b), c))
    assert n_run < 3 or k < len(a) or len(b) == 0


def test_thread_params_copy_every_array():
    p = BlockPuzzle(CLASSIC, metric="path").params
    a, b = thread_params(p, 2)
    for x, y, z in zip(p, a, b):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y) and y is not x and y is not z
        else:
            assert x == y == z


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("threads, run_keys", [(1, 1 << 20), (2, 3000)])
def test_same_layers_as_the_hash_set_search(metric, threads, run_keys):
    # small runs force many runs per layer, merged as they come
    puz = BlockPuzzle(CLASSIC, metric=metric)
    a = frontier_bfs(FNS, puz.params, puz.encode(), ffns=FRONTIER)
    seen = []
    b = sorted_frontier_bfs(FNS, puz.params, puz.encode(), ffns=FRONTIER, threads=threads,
                            run_keys=run_keys, on_layer=lambda d, k: seen.append(k.copy()))
    assert a.counts.tolist() == b.counts.tolist() and b.total == 25955
    assert set(b.phases) == {"children", "merge", "on_layer"}
    assert 0 < sum(b.phases.values()) <= b.seconds
    assert sorted(s.tobytes() for s in a.last) == sorted(s.tobytes() for s in b.last)
    assert [len(k) for k in seen] == b.counts.tolist()
    every = np.concatenate(seen)
    assert all(np.all(k[1:] > k[:-1]) for k in seen)  # each layer sorted, no repeats
    assert len(np.unique(every)) == len(every)  # and no position in two layers


def test_relaxed_puzzle_from_many_starts():
    # the pattern databases' use: every goal position at once, pieces split and moving in pairs
    from puzzlelib.pdb import blocks as blockpdb

    puz = BlockPuzzle(CLASSIC, metric="straight")
    from puzzlelib.domains.blocks import pieces_of

    pieces = blockpdb.relaxed_pieces(pieces_of(puz.start_cells, puz.cols), 1, 2)
    rel = BlockPuzzle(pieces, metric="straight", goal=puz.goal, rows=5, cols=4, relax=True)
    base = np.full(20, blockpdb.FREE, dtype=np.uint8)
    for x, code in ((13, 6), (14, 7), (17, 8), (18, 9)):
        base[x] = code
    goals = blockpdb.arrangements(base, 5, 4, np.array([2, 8, 1, 2, 0], dtype=np.int64))
    a = frontier_bfs(FNS, rel.params, goals, ffns=FRONTIER)
    b = sorted_frontier_bfs(FNS, rel.params, goals, ffns=FRONTIER, bits=rel.key_bits, threads=2,
                            run_keys=5000)
    keys = blockpdb.arrangement_keys(base, 5, 4, np.array([2, 8, 1, 2, 0], dtype=np.int64),
                                     rel.params.code_enc, rel.params.key_len)
    c = sorted_frontier_bfs(FNS, rel.params, keys, ffns=FRONTIER, threads=1)
    assert a.counts.tolist() == b.counts.tolist() == c.counts.tolist()
    assert a.counts[0] == len(goals) == len(keys)


def test_any_domain_whose_state_fits_a_word():
    # a 2x3 sliding-tile board: its state (6 cells, then the heuristic byte) is its own key
    from puzzlelib.domains.sliding import SlidingPuzzle

    dom = SlidingPuzzle(2, 3)
    assert dom.state_len <= 8
    start = dom.encode([1, 2, 3, 4, 5, 0])
    a = frontier_bfs(dom.fns, dom.params, start)
    b = sorted_frontier_bfs(dom.fns, dom.params, start, threads=2, run_keys=100)
    assert a.counts.tolist() == b.counts.tolist() and b.total == 360


def test_keys_too_long_and_state_limit_are_clear_errors(monkeypatch):
    puz = BlockPuzzle(CLASSIC, metric="unit")
    with pytest.raises(ValueError, match="21 bytes do not fit in 64 bits"):
        sorted_frontier_bfs(FNS, puz.params, puz.encode())  # without ffns: the whole state
    with pytest.raises(MemoryError, match="over the limit of 100"):
        sorted_frontier_bfs(FNS, puz.params, puz.encode(), ffns=FRONTIER, max_states=100)
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", "2000")  # memory for 200 keys
    with pytest.raises(MemoryError, match="merging its children needs"):
        sorted_frontier_bfs(FNS, puz.params, puz.encode(), ffns=FRONTIER, run_keys=1000)
