"""Layered BFS over the uint8 table against the reference BFS, on whole small boards."""

import numba
import numpy as np
import pytest

from puzzlelib import PuzzleError, layers
from puzzlelib.core import memory
from puzzlelib.domains import sliding
from puzzlelib.domains.sliding import SlidingPuzzle
from puzzlelib.search import layered

from . import reference
from .conftest import random_board


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_counts_and_farthest_match_reference(rows, cols, rng):
    goal = list(range(1, rows * cols)) + [0]
    for start in (goal, random_board(rows, cols, rng)):
        lay = layers(SlidingPuzzle(rows, cols), start)
        assert lay.counts == reference.layer_counts(start, rows, cols)
        assert sorted(lay.farthest) == reference.farthest(start, rows, cols)
        assert lay.total == sum(lay.counts) and lay.max_depth == len(lay.counts) - 1
        assert lay.n_farthest == len(lay.farthest)


def test_depth_and_path_queries(rng):
    lay = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0")
    dist = reference.distances([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3)
    for _ in range(50):
        b = random_board(3, 3, rng)
        d = lay.depth(b)
        assert d == dist[reference.to_str(b)]
        path = lay.path_to(b)
        assert len(path) == d
        assert reference.replay([1, 2, 3, 4, 5, 6, 7, 8, 0], path, 3) == b


#: The ways to build a table: layer lists split by blank cell (parallel), one list (no
#: buckets), each holding states or 64-bit keys (distinct tiles on at most 15 cells, repeated
#: labels on at most 16), and the parallel scan of the table.
KERNELS = [("lists", True, False), ("lists", False, False), ("lists", True, True),
           ("lists", False, True), ("scan", False, False)]


def _tables(puz, start=None, stop=-1, **kwargs):
    board = puz.goal if start is None else puz.parse(start)
    r0 = int(puz.fns.rank(puz.encode(board), puz.params))
    out = []
    for kernel, buckets, keys in KERNELS:
        res = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], stop_rank=stop,
                                  buckets=puz.buckets if buckets else None, kernel=kernel,
                                  kfns=puz.keys if keys else None, **kwargs)
        out.append((res.dist, res.counts, res))
    return out


def test_which_boards_have_keys_and_which_keys_give_their_rank():
    # keys with rank_after: layered BFS keeps its layer lists as keys (bidirectional search
    # uses any keys)
    assert SlidingPuzzle(3, 3, heuristic="none").keys is sliding.KEYS_RANKED
    assert SlidingPuzzle(3, 5, heuristic="none").keys is sliding.KEYS_RANKED
    assert SlidingPuzzle(4, 4, heuristic="none").keys is None  # 16 distinct: no room for the blank
    assert SlidingPuzzle(2, 4, goal=[1, 1, 2, 2, 3, 3, 4, 0],
                         heuristic="none").keys is sliding.KEYS_MULTISET
    four = [1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 0]  # document 001's problem 1
    assert SlidingPuzzle(4, 4, goal=four, heuristic="none").keys is sliding.KEYS_MULTISET
    eight = [1, 2, 3, 4, 5, 6, 7, 8] + [9] * 7 + [0]  # 9 classes: the long multiset rank
    assert SlidingPuzzle(4, 4, goal=eight, heuristic="none").keys is None
    assert SlidingPuzzle(5, 4, goal=[1] * 19 + [0], heuristic="none").keys is None  # 20 cells
    sparse = SlidingPuzzle(3, 3, heuristic="none", hash="sparse").keys
    assert sparse is not None and sparse.rank_after is None  # (not the sparse hash's rank)


@pytest.mark.parametrize("goal", [
    [1, 1, 2, 2, 3, 3, 15, 15, 15, 15, 4, 4, 4, 4, 4, 0],  # label 15: the key's sign bit
    [1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 6, 6, 5, 6, 6, 0],
])
def test_multiset_keys_of_16_cells_round_trip_and_rank(goal):
    """Every key of random positions of a 4x4 board of repeated labels gives back its state,
    its blank's cell and, from its parent's rank, its own rank, whichever cell the blank is in
    (the blank's cell is the key's one zero field)."""
    puz = SlidingPuzzle(4, 4, goal=goal, heuristic="none")
    kf, p = puz.keys, puz.params
    rng = np.random.default_rng(5)
    state = np.empty(puz.state_len, dtype=np.uint8)
    back = np.empty(puz.state_len, dtype=np.uint8)
    for r in rng.integers(0, puz.n_ranks, 300):
        puz.fns.unrank(int(r), p, state)
        k = kf.key(state, p)
        kf.unkey(k, p, back)
        assert (back[:17] == state[:17]).all()
        for m in range(4):
            c = kf.key_step(k, m, p)
            child = state.copy()
            if puz.fns.step(child, m, p) == sliding.ILLEGAL:
                assert c == -1
                continue
            kf.unkey(c, p, back)
            assert (back[:17] == child[:17]).all()
            assert kf.rank_after(c, m, int(r), p) == puz.fns.rank(child, p)


@pytest.mark.parametrize(
    "rows,cols,goal",
    [(2, 3, None), (3, 3, None), (2, 4, [1, 1, 2, 2, 3, 3, 4, 0]),
     (3, 3, [1, 2, 3, 4, 5, 5, 5, 5, 0]), (4, 4, [1] * 6 + [2] * 9 + [0])],
)
def test_every_kernel_gives_the_same_table(rows, cols, goal):
    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic="none")
    (d1, c1, r1), *others = _tables(puz)
    for d2, c2, r2 in others:
        assert (d1 == d2).all() and c1 == c2
        # every kernel expands every position and never goes straight back (the table scan
        # tries every move: it keeps no parent)
        assert r2.expanded == r1.expanded == sum(c1)
        if r2 is not others[-1][2]:
            assert r2.generated == r1.generated
    assert c1 == reference.layer_counts(list(puz.goal), rows, cols)
    generated, expanded = reference.table_bfs_stats(list(puz.goal), rows, cols)
    assert (r1.generated, r1.expanded) == (generated, expanded)
    # the scan generates every legal move of every position, the one back included
    assert others[-1][2].generated == generated + expanded - 1


def test_counts_from_several_starts_in_every_kernel():
    """Several positions at depth 0 (none has a move back): every kernel's table, layers and
    counts against a plain multi-source search of the 2x3 board."""
    puz = SlidingPuzzle(2, 3, heuristic="none")
    starts = [[1, 2, 3, 4, 5, 0], [1, 2, 3, 4, 0, 5], [0, 2, 3, 1, 4, 5]]
    ranks = [int(puz.fns.rank(puz.encode(b), puz.params)) for b in starts]
    dist = {}
    for b in starts:  # depth of each board from the nearest start
        for s, d in reference.distances(b, 2, 3).items():
            dist[s] = min(d, dist.get(s, d))
    degrees = sum(reference.degree(s, 3) for s in dist)
    for kernel, buckets, keys in KERNELS:
        res = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, ranks, kernel=kernel,
                                  buckets=puz.buckets if buckets else None,
                                  kfns=puz.keys if keys else None)
        counts = [sum(1 for d in dist.values() if d == k) for k in range(max(dist.values()) + 1)]
        assert res.counts == counts
        assert res.expanded == len(dist)
        back = 0 if kernel == "scan" else len(dist) - len(starts)
        assert res.generated == degrees - back, (kernel, buckets, keys)


def test_stop_rank_in_every_kernel():
    puz = SlidingPuzzle(3, 3, heuristic="none")
    stop = int(puz.fns.rank(puz.encode(puz.parse("1 2 3 4 5 6 0 7 8")), puz.params))
    for dist, counts, res in _tables(puz, stop=stop):
        assert dist[stop] == 2 and counts == [1, 2, 4] and res.expanded == 3


@pytest.mark.parametrize(
    "rows,cols,goal",
    [(2, 3, None), (3, 3, None), (2, 4, [1, 1, 2, 2, 3, 3, 4, 0])],
)
def test_bottom_up_scan_gives_the_same_table(rows, cols, goal):
    """The scan with its late layers made bottom-up (unseen positions looking for the layer)
    against the plain scan, from the goal and with a stop rank; it makes fewer children."""
    puz = SlidingPuzzle(rows, cols, goal=goal, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    down = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], kernel="scan")
    up = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], kernel="scan-up")
    assert (down.dist == up.dist).all() and down.counts == up.counts
    assert up.generated < down.generated
    far = int(np.flatnonzero(down.dist == len(down.counts) - 2)[0])
    a = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], kernel="scan", stop_rank=far)
    b = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], kernel="scan-up",
                            stop_rank=far)
    assert a.counts == b.counts and (a.dist == b.dist).all()


def test_the_scan_skips_only_blocks_without_the_layer():
    """The scan expands only blocks of BLOCK_BITS entries flagged as holding the layer: from
    starts in blocks far apart, its table equals the layer lists'; the flags are right."""
    puz = SlidingPuzzle(3, 3, heuristic="none")
    block = 1 << layered.BLOCK_BITS
    starts = [3, puz.n_ranks // 2 + 5, puz.n_ranks - 1]  # three blocks of the 178
    scan = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, starts, kernel="scan")
    lists = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, starts, kernel="lists")
    assert (scan.dist == lists.dist).all() and scan.counts == lists.counts
    for depth in (0, 1, 5, len(scan.counts) - 1):
        at = np.flatnonzero(scan.dist == depth)
        want = [int((scan.dist[b:b + block] == depth).any()) for b in range(0, puz.n_ranks, block)]
        assert layered.blocks_of(at, puz.n_ranks).tolist() == want
    assert sum(layered.blocks_of(starts, puz.n_ranks)) == 3


def test_kernel_choice():
    assert layered.choose_kernel(layered.PARALLEL_MIN_TABLE, None) == "scan"
    assert layered.choose_kernel(1000, None) == "lists"
    assert layered.choose_kernel(1 << 40, (None, 1)) == "lists"


@pytest.mark.parametrize(
    "size,start", [("2x5", list(range(1, 10)) + [0]), ("3x4", [1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 0])]
)
def test_counts_do_not_depend_on_threads(size, start):
    """Each layer's buckets are shared among threads: 1 and 2 threads, identical tables."""
    one = layers(SlidingPuzzle(size), start, threads=1)
    two = layers(SlidingPuzzle(size), start, threads=2)
    assert one.threads == 1 and two.threads == min(2, numba.config.NUMBA_NUM_THREADS)
    assert one.counts == two.counts and (one.table == two.table).all()


def test_repeated_labels_layers_match_reference(rng):
    goal = [1, 1, 2, 2, 3, 3, 0, 4, 4]
    for start in (goal, random_board(3, 3, rng, goal=goal)):
        lay = layers(SlidingPuzzle("3x3"), start)
        assert lay.counts == reference.layer_counts(start, 3, 3)
        assert sorted(lay.farthest) == reference.farthest(start, 3, 3)
        assert lay.total == 9 * 8 * 7 * 6 * 5 * 4 * 3 // 8


def test_farthest_limit_keeps_exact_count():
    lay = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", farthest_limit=1)
    assert lay.n_farthest == 2 and len(lay.farthest) == 1


def test_table_too_large_is_refused_before_allocating(monkeypatch):
    """Bytes that do not fit are refused; left to choose, layers packs the table instead, and
    refuses, naming both sizes, when neither fits."""
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(100_000))
    with pytest.raises(PuzzleError, match=r"needs 177\.2 KiB of memory, but only 97\.7 KiB"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", table="bytes")
    packed = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0")
    assert packed.extra["table"] == "packed" and packed.total == 181440
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(50_000))
    with pytest.raises(PuzzleError, match=r"needs 177\.2 KiB of memory, packed 66\.4 KiB, but "
                                          r"only 48\.8 KiB"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0")


def test_4x4_distinct_is_refused_with_memory_needed():
    with pytest.raises(PuzzleError, match="TiB of memory"):
        layers(SlidingPuzzle("4x4"), list(range(1, 16)) + [0])


def test_5x5_is_too_large_for_the_permutation_hash():
    with pytest.raises(PuzzleError, match="too many for the permutation hash"):
        layers(SlidingPuzzle("5x5"), list(range(1, 25)) + [0])


def test_2x5_kernels_agree_with_known_diameter():
    """10!/2 positions; the 2x5 puzzle's greatest distance is 55, reached by two positions.
    The parallel scan and the list kernel must build the same table."""
    lay = layers(SlidingPuzzle("2x5"), list(range(1, 10)) + [0])
    assert (lay.total, lay.max_depth, lay.n_farthest) == (1_814_400, 55, 2)
    puz = SlidingPuzzle(2, 5, heuristic="none")
    for dist, counts, _ in _tables(puz):
        assert counts == lay.counts and (dist == lay.table).all()


def test_progress_reports_every_layer(capsys):
    seen = []
    puz = SlidingPuzzle(2, 3, heuristic="none")
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    counts = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0],
                                 progress=lambda d, c, t: seen.append((d, c, t))).counts
    assert [c for _, c, _ in seen] == counts[1:]
    assert seen[-1] == (len(counts) - 1, counts[-1], 360)
    lay = layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", progress=True)
    assert lay.counts == counts and "depth" in capsys.readouterr().err


def test_sparse_index_gives_the_same_layers():
    """The sparse direct index (bits per cell, no ranking) against the minimal perfect hash."""
    start = "1 1 2 2 1 3 3 2 3 3 3 0"
    perfect = layers(SlidingPuzzle("3x4"), start)
    sparse = layers(SlidingPuzzle("3x4", hash="sparse"), start)
    assert sparse.counts == perfect.counts
    assert sorted(sparse.farthest) == sorted(perfect.farthest)
    assert sparse.table.nbytes == 4 ** 12 and perfect.table.nbytes == perfect.total == 110_880
    board = "1 1 2 2 1 3 3 2 3 0 3 3"
    assert sparse.depth(board) == perfect.depth(board) == len(sparse.path_to(board))


def test_sparse_index_too_large_is_refused():
    with pytest.raises(PuzzleError, match=r"needs 2\*\*48 entries"):
        layers(SlidingPuzzle("4x4", hash="sparse"), "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0")
    with pytest.raises(PuzzleError, match="unknown hash"):
        layers(SlidingPuzzle("2x2", hash="dense"), "1 2 3 0")


@pytest.mark.parametrize("min_layer", [1, 1 << 40])
@pytest.mark.parametrize("goal", [None, [1, 2, 2, 3, 3, 3, 4, 4, 0]])
def test_parallel_and_serial_layers_agree(min_layer, goal):
    """Every layer through the parallel kernel (threshold 1), or every one on one thread: the
    same table, counts and stats."""
    puz = SlidingPuzzle(3, 3, goal=goal, heuristic="none")
    want = reference.layer_counts(list(puz.goal), 3, 3)
    (dist, counts, res), *_ = _tables(puz, min_parallel_layer=min_layer)
    assert counts == want
    assert (res.generated, res.expanded) == reference.table_bfs_stats(list(puz.goal), 3, 3)
    stop = int(np.flatnonzero(dist == len(want) - 1)[0])
    (d2, c2, _), *_ = _tables(puz, stop=stop, min_parallel_layer=min_layer)
    assert c2 == want and d2[stop] == len(want) - 1


def test_big_layers_are_checked_for_memory_one_call_at_a_time(monkeypatch):
    """Layers needing room for more than UNCHECKED_ROWS positions go through the memory check,
    each before it is made; the smaller ones are made many per call. Same counts either way."""

    checked = []
    real = memory.check_fits
    monkeypatch.setattr(memory, "check_fits", lambda n, what: checked.append(what) or real(n, what))
    puz = SlidingPuzzle(3, 3, heuristic="none")
    want = reference.layer_counts(list(puz.goal), 3, 3)
    r0 = int(puz.fns.rank(puz.encode(puz.goal), puz.params))
    counts = layered.layered_bfs(puz.fns, puz.params, puz.n_ranks, [r0], buckets=puz.buckets,
                                 unchecked_rows=20_000).counts
    assert counts == want
    # room for layer d+1 lies between 2 and 4 times |layer d| (2 to 4 moves from a cell)
    checked_layers = {int(w.split()[1]) for w in checked}
    must = {d + 1 for d, c in enumerate(want[:-1]) if 2 * c > 20_000}
    may = {d + 1 for d, c in enumerate(want[:-1]) if 4 * c > 20_000}
    assert must and must <= checked_layers <= may


def test_layers_stats_from_the_definitions(rng):
    """Every position expanded and stored; a child per legal move but the one back to its
    parent; the table and the two largest consecutive layers' lists in memory at most."""
    for rows, cols in ((2, 3), (3, 3), (2, 4)):
        start = random_board(rows, cols, rng)
        for threads in (1, 2):
            lay = layers(SlidingPuzzle(rows, cols), start, threads=threads)
            st = lay.stats
            assert (st.generated, st.expanded) == reference.table_bfs_stats(start, rows, cols)
            assert st.stored == lay.total
            assert lay.table.nbytes < st.memory_bytes <= lay.table.nbytes + 5 * 26 * max(
                lay.counts)
            assert lay.status == "complete" and lay.length is None and lay.moves is None


def test_layers_stop_at_max_depth():
    lay = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", max_depth=5)
    assert lay.counts == [1, 2, 4, 8, 16, 20] and lay.status == "not within max_depth"


def test_small_allocations_skip_the_memory_reading_unless_a_limit_is_set(monkeypatch):
    """Below UNCHECKED_BYTES nothing is read (a small search would pay for it on every call);
    PUZZLELIB_MAX_BYTES still refuses small sizes, and large sizes are always checked."""
    monkeypatch.delenv("PUZZLELIB_MAX_BYTES", raising=False)
    reads = []
    monkeypatch.setattr(memory, "available_bytes", lambda: reads.append(1) or 1 << 40)
    memory.check_fits(memory.UNCHECKED_BYTES - 1, "small")
    assert reads == []
    memory.check_fits(memory.UNCHECKED_BYTES, "large")
    assert reads == [1]
    monkeypatch.undo()
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", "1000")
    with pytest.raises(PuzzleError, match="small needs 2.0 KiB of memory, but only 1,000 bytes"):
        memory.check_fits(2000, "small")
