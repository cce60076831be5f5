"""The packed layered BFS (two bits a position, puzzlelib/search/packed.py) against the byte
table: the same counts, farthest positions, depths and paths, on every board kind, on one and
two threads; its choice by memory, its saved state and resumption, and bad input."""

import json
import os
import subprocess
import sys
import time
import warnings

import numba
import numpy as np
import pytest

from puzzlelib import PancakePuzzle, PuzzleError, SlidingPuzzle, layers
from puzzlelib.core.contract import UNSEEN
from puzzlelib.search import layered, packed

CASES = [
    ("3x3", None, "1 2 3 4 5 6 7 8 0"),
    ("2x5", None, "1 2 3 4 5 6 7 8 9 0"),
    ("2x3", "1 1 2 2 3 0", "1 1 2 2 3 0"),  # repeated labels
    ("3x3", "1 1 1 2 2 2 3 3 0", "3 1 2 1 0 2 3 2 1"),
    ("2x4", None, "0 7 2 1 4 3 6 5"),  # the other parity class
]


def _space(spec, goal, start):
    return SlidingPuzzle(spec, goal=goal).rooted(start)


@pytest.mark.parametrize("spec, goal, start", CASES)
@pytest.mark.parametrize("threads", [1, 2])
def test_codes_are_the_byte_depths_modulo_3(spec, goal, start, threads):
    """Every entry of the packed table is the byte table's depth modulo 3 (3: unseen), for
    every rank, and the layers and the last layer's positions are the same."""
    sp = _space(spec, goal, start)
    n = sp.n_ranks
    r0 = int(sp.fns.rank(sp.encode(start), sp.params))
    ref = layered.layered_bfs(sp.fns, sp.params, n, [r0])
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        tab, counts, tally, stopped = packed.packed_bfs(sp.fns, sp.params, n, [r0])
    finally:
        numba.set_num_threads(before)
    assert counts == list(ref.counts) and not stopped
    want = np.where(ref.dist == UNSEEN, 3, ref.dist % 3)
    got = np.array([packed.code_at(tab.words, r) for r in range(n)])
    assert np.array_equal(got, want)
    d = len(counts) - 1
    far, n_far = packed.front_ranks(tab.words, tab.front, d, n)
    ref_far, ref_n = layered.ranks_at_depth(ref.dist, d, n)
    assert n_far == ref_n and np.array_equal(far, ref_far)
    assert tally[1] > 0 and tally[0] >= tally[1]


@pytest.mark.parametrize("spec, goal, start", CASES[:3])
def test_depth_and_path_of_every_position(spec, goal, start):
    """``depth`` and ``path_to`` of the packed result equal the byte table's for every
    position (every path replayed, its end checked)."""
    puz = SlidingPuzzle(spec, goal=goal)
    a = layers(puz, start, table="bytes")
    b = layers(puz, start, table="packed")
    assert b.extra["table"] == "packed" and a.extra["table"] == "bytes"
    assert b.counts == a.counts and b.farthest == a.farthest and b.n_farthest == a.n_farthest
    sp = b._space
    buf = np.empty(sp.params.state_len, dtype=np.uint8)
    rng = np.random.default_rng(1)
    ranks = range(sp.n_ranks) if sp.n_ranks <= 20_000 else rng.integers(0, sp.n_ranks, 3000)
    for r in ranks:
        sp.fns.unrank(int(r), sp.params, buf)
        pos = sp.decode(buf)
        d = a.depth(pos)
        assert b.depth(pos) == d
        path = b.path_to(pos)
        if d < 0:
            assert path is None
            continue
        assert len(path) == d == len(a.path_to(pos))
        assert puz.rooted(start).replay(start, path)[-1] == pos


def test_a_permutation_puzzle_packed():
    """Pancake stacks of 8: the packed table's layers, farthest stacks and a path."""
    puz = PancakePuzzle(8)
    a = layers(puz, table="bytes")
    b = layers(puz, table="packed", threads=2)
    assert b.counts == a.counts and b.n_farthest == a.n_farthest
    assert sorted(map(tuple, b.farthest)) == sorted(map(tuple, a.farthest))
    far = b.farthest[0]
    assert b.depth(far) == len(a.counts) - 1 == len(b.path_to(far))


def test_many_chunks_a_part_filled_last_word_and_bottom_up_layers():
    """14,968,800 positions (not a multiple of 64: the last word is part filled), 229 chunks of
    frontier words shared by two threads, and layers made bottom up at the end."""
    spec, start = "3x4", "1 1 2 2 3 3 4 4 5 5 6 0"
    sp = _space(spec, start, start)
    n = sp.n_ranks
    assert n == 14_968_800 and n % 64 != 0
    r0 = int(sp.fns.rank(sp.encode(start), sp.params))
    ref = layered.layered_bfs(sp.fns, sp.params, n, [r0], buckets=sp.buckets)
    tab, counts, tally, _ = packed.packed_bfs(sp.fns, sp.params, n, [r0])
    assert counts == list(ref.counts)
    assert tally[2] > 0  # some layers were made bottom up
    d = len(counts) - 1
    far, n_far = packed.front_ranks(tab.words, tab.front, d, 1000)
    ref_far, ref_n = layered.ranks_at_depth(ref.dist, d, 1000)
    assert n_far == ref_n and np.array_equal(far, ref_far)
    tail = np.arange(n - 100, n)  # the last word's positions, and a sample of the rest
    sample = np.concatenate([tail, np.random.default_rng(3).integers(0, n, 20_000)])
    want = np.where(ref.dist[sample] == UNSEEN, 3, ref.dist[sample] % 3)
    assert np.array_equal([packed.code_at(tab.words, int(r)) for r in sample], want)


def test_max_depth_stops_as_the_byte_table_does():
    puz = SlidingPuzzle("3x3")
    a = layers(puz, "1 2 3 4 5 6 7 8 0", max_depth=12, table="bytes")
    b = layers(puz, "1 2 3 4 5 6 7 8 0", max_depth=12, table="packed")
    assert b.status == a.status == "not within max_depth"
    assert b.counts == a.counts and len(b.counts) == 13
    assert sorted(b.farthest) == sorted(a.farthest) and b.n_farthest == a.n_farthest


def test_auto_chooses_packed_when_bytes_do_not_fit(monkeypatch):
    puz = SlidingPuzzle("2x5")
    small = layers(puz, "1 2 3 4 5 6 7 8 9 0")
    assert small.extra["table"] == "bytes"
    # 1,814,400 positions: bytes need 1.7 MiB, packed 0.65 MiB (with 80% of 1.5 MiB allowed)
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(3 << 19))
    auto = layers(puz, "1 2 3 4 5 6 7 8 9 0", threads=1)
    assert auto.extra["table"] == "packed" and auto.counts == small.counts
    with pytest.raises(PuzzleError, match=r"one byte each\) needs 1\.7 MiB"):
        layers(puz, "1 2 3 4 5 6 7 8 9 0", table="bytes")
    monkeypatch.setenv("PUZZLELIB_MAX_BYTES", str(1 << 19))
    with pytest.raises(PuzzleError, match=r"needs 1\.7 MiB of memory, packed 664\.5 KiB, but "
                                          r"only 512\.0 KiB is available"):
        layers(puz, "1 2 3 4 5 6 7 8 9 0")


def test_bad_tables():
    with pytest.raises(PuzzleError, match="unknown table 'bits'"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", table="bits")
    from puzzlelib import CLASSIC, BlockPuzzle
    with pytest.raises(PuzzleError, match="packed table needs a perfect hash"):
        layers(BlockPuzzle(CLASSIC), table="packed")


class _Stop(Exception):
    pass


def _stopped(puz, start, file, depth):
    """A packed search of ``puz`` from ``start`` saving its state to ``file`` after every
    layer, stopped (as by Ctrl-C) once layer ``depth`` is made."""

    def stop(d, count, total):
        if d == depth:
            raise _Stop

    with pytest.raises(_Stop):
        layers(puz, start, table="packed", checkpoint=file, checkpoint_seconds=0,
               progress=stop)
    assert file.exists()


def test_a_stopped_search_resumes_where_it_was_saved(tmp_path):
    """State saved after each layer (``checkpoint_seconds=0``); a search stopped at depth 20
    resumes there and ends with the same table as one run whole; the file is then gone."""
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    whole = layers(puz, start, table="packed", checkpoint=False)
    file = tmp_path / "state"
    _stopped(puz, start, file, 20)
    again = layers(puz, start, table="packed", checkpoint=file, checkpoint_seconds=0)
    assert again.extra["resumed_at_depth"] == 20
    assert again.counts == whole.counts and again.farthest == whole.farthest
    assert np.array_equal(again.table.words, whole.table.words)
    assert not file.exists()


def test_slow_saves_are_spaced_out(tmp_path, monkeypatch):
    """Left to its default, a search waits at least CHECKPOINT_SPACING times what its last save
    took before the next one; an explicit ``checkpoint_seconds`` is kept to."""
    from puzzlelib.core import store

    calls = []
    delay = [0.2]  # a save of 0.2 s: then none for the next 19 x 0.2 s
    real_write = store.write

    def slow_write(*args, **kwargs):
        calls.append(1)
        time.sleep(delay[0])
        return real_write(*args, **kwargs)

    monkeypatch.setattr(store, "write", slow_write)
    monkeypatch.setattr(packed, "CHECKPOINT_SECONDS", 0)
    puz, start = SlidingPuzzle("2x5"), "1 2 3 4 5 6 7 8 9 0"
    t0 = time.monotonic()
    layers(puz, start, table="packed", checkpoint=tmp_path / "a")
    spaced, seconds = len(calls), time.monotonic() - t0
    calls.clear()
    delay[0] = 0
    every = layers(puz, start, table="packed", checkpoint=tmp_path / "b", checkpoint_seconds=0)
    assert len(calls) == len(every.counts) - 1  # after every layer
    assert 1 <= spaced <= 1 + seconds / (packed.CHECKPOINT_SPACING * 0.2)


def test_max_depth_and_a_saved_state(tmp_path):
    """A state beyond max_depth is neither resumed nor deleted; one within it is resumed, and a
    search stopped by max_depth keeps its state for a deeper one."""
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    whole = layers(puz, start, table="bytes")
    file = tmp_path / "state"
    _stopped(puz, start, file, 20)
    with pytest.warns(UserWarning, match="beyond max_depth 10: not resumed"):
        shallow = layers(puz, start, table="packed", checkpoint=file, max_depth=10)
    assert shallow.counts == whole.counts[:11] and file.exists()
    deeper = layers(puz, start, table="packed", checkpoint=file, checkpoint_seconds=0,
                    max_depth=25)
    assert deeper.extra["resumed_at_depth"] == 20 and deeper.counts == whole.counts[:26]
    assert deeper.status == "not within max_depth" and file.exists()
    rest = layers(puz, start, table="packed", checkpoint=file, checkpoint_seconds=0)
    assert rest.extra["resumed_at_depth"] == 25 and rest.counts == whole.counts
    assert not file.exists()


def test_a_state_that_cannot_be_saved_does_not_stop_the_search(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.warns(UserWarning, match="could not be written"):
        res = layers(SlidingPuzzle("2x4"), "1 2 3 4 5 6 7 0", table="packed",
                     checkpoint=blocker / "state", checkpoint_seconds=0)
    assert res.total == 20160


def test_a_damaged_state_is_not_resumed(tmp_path):
    puz = SlidingPuzzle("3x3")
    start = "1 2 3 4 5 6 7 8 0"
    file = tmp_path / "state"
    _stopped(puz, start, file, 10)
    data = bytearray(file.read_bytes())
    data[-5] ^= 0xFF
    file.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = layers(puz, start, table="packed", checkpoint=file, checkpoint_seconds=0)
    assert any("checksum" in str(w.message) for w in caught)
    assert "resumed_at_depth" not in res.extra and res.total == 181440
    # a state saved for another start is not taken either
    _stopped(puz, start, file, 10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        other = layers(puz, "1 2 3 4 5 6 7 0 8", table="packed", checkpoint=file)
    assert "resumed_at_depth" not in other.extra and other.total == 181440
    assert any("something else" in str(w.message) for w in caught)


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "puzzlelib", *args], capture_output=True,
                          text=True, env=dict(os.environ, **(env or {})))


def test_cli_table_option():
    out = _cli("layers", "--size", "2x4", "--start", "1 2 3 4 5 6 7 0", "--table", "packed",
               "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    ref = json.loads(_cli("layers", "--size", "2x4", "--start", "1 2 3 4 5 6 7 0",
                          "--json").stdout)
    assert got["table"] == "packed" and ref["table"] == "bytes"
    assert got["counts"] == ref["counts"] and got["farthest"] == ref["farthest"]
    assert set(got["stats"]) == set(ref["stats"])
    bad = _cli("layers", "--size", "3x4", "--start", "1 2 3 4 5 6 7 8 9 10 11 0",
               env={"PUZZLELIB_MAX_BYTES": str(10 << 20)})
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "packed 85.7 MiB" in bad.stderr



def test_a_checkpoint_for_a_table_that_keeps_none_is_refused(tmp_path):
    """Asking a byte table (or a puzzle without a perfect hash) to save its state is an error
    naming the problem, not silently ignored; nothing is written."""
    file = tmp_path / "state"
    with pytest.raises(PuzzleError, match="only packed tables save their state, and this "
                                          "search keeps a byte table"):
        layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", checkpoint=file)
    from puzzlelib import CLASSIC, BlockPuzzle

    with pytest.raises(PuzzleError, match="keeps no table"):
        layers(BlockPuzzle(CLASSIC), checkpoint=file)
    assert layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", checkpoint=False).total == 360
    bad = _cli("layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--checkpoint",
               str(file))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "only packed tables save their state" in bad.stderr
    assert not file.exists()

@pytest.mark.heavy
@pytest.mark.parametrize("spec, start", [("3x4", "1 2 3 4 5 6 7 8 9 10 11 0"),
                                         ("2x6", "1 2 3 4 5 6 7 8 9 10 11 0")])
def test_packed_239_million(spec, start):
    """The largest byte tables here, packed: same layers and farthest positions."""
    a = layers(SlidingPuzzle(spec), start, table="bytes")
    b = layers(SlidingPuzzle(spec), start, table="packed")
    assert b.counts == a.counts and b.farthest == a.farthest
