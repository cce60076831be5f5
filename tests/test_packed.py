"""The packed layered BFS (two bits a position, puzzlelib/search/packed.py) against the byte
table: the same counts, farthest positions, depths and paths, on every board kind, on one and
two threads; its choice by memory, its saved state and resumption, and bad input."""

import json
import os
import subprocess
import sys
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
        layers(puz, start, table="packed", checkpoint=file,
               progress=stop)
    assert file.exists()


def test_a_stopped_search_resumes_where_it_was_saved(tmp_path):
    """A search stopped once it has made layer 20 has saved layers 0..19 (layer 19's file is
    written while layer 20 is made from it): it resumes after 19 and ends with the same table
    as one run whole; the folder is then gone."""
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    whole = layers(puz, start, table="packed", checkpoint=False)
    file = tmp_path / "state"
    _stopped(puz, start, file, 20)
    again = layers(puz, start, table="packed", checkpoint=file)
    assert again.extra["resumed_at_depth"] == 19
    assert again.counts == whole.counts and again.farthest == whole.farthest
    assert np.array_equal(again.table.words, whole.table.words)
    assert not file.exists()


def test_every_layer_is_saved_as_it_is_made(tmp_path):
    """Once layer d is made, the folder holds the files of layers 0..d-1 (each layer's file is
    written while the next is made from it) and no other; they are gone once the search is
    over."""
    puz, start = SlidingPuzzle("2x5"), "1 2 3 4 5 6 7 8 9 0"
    folder = tmp_path / "state"
    seen = []

    def look(d, count, total):
        seen.append((d, sorted(p.name for p in folder.iterdir())))

    res = layers(puz, start, table="packed", checkpoint=folder, progress=look)
    assert [d for d, _ in seen] == list(range(1, len(res.counts)))
    for d, names in seen:
        assert names == [f"layer-{k:04d}.bin" for k in range(d)]
    assert not folder.exists()


@pytest.mark.parametrize("n", [1000, 64 * 1000 + 17, 5 * (1 << packed.CHUNK_SHIFT) - 3])
def test_layer_files_read_back_every_rank(n):
    """The Elias-Fano form of a layer (see packed.py) on chunks from empty to full, the first
    and last rank of a chunk, and a last chunk cut short: written, then read into an empty
    table, every rank has its code back and its frontier bit, and no other rank has any."""
    rng = np.random.default_rng(n)
    U = 1 << packed.CHUNK_SHIFT
    table = np.full(2 * packed.front_words(n), np.uint64(2**64 - 1), dtype=np.uint64)
    front = np.zeros(packed.front_words(n), dtype=np.uint64)
    picks = [np.array([0, n - 1])]
    for k in range((n + U - 1) // U):
        lo, hi = k * U, min((k + 1) * U, n)
        density = [0.0, 1e-4, 0.04, 0.5, 1.0][k % 5]
        picks.append(np.arange(lo, hi)[rng.random(hi - lo) < density])
        picks.append(np.array([lo, hi - 1]) if k % 2 else np.array([], dtype=np.int64))
    ranks = np.unique(np.concatenate(picks).astype(np.int64))
    depth = 7
    packed._mark_starts(table, front, ranks)  # code 0 and the frontier bit
    code = np.uint64(depth % 3)
    for r in ranks:  # give them depth 7's code
        sh = np.uint64((r & 31) << 1)
        table[r >> 5] = (table[r >> 5] & ~(np.uint64(3) << sh)) | (code << sh)
    noise = rng.choice(n, size=50, replace=False)  # frontier bits of another layer's code
    for r in noise:
        if r not in set(ranks.tolist()):
            sh = np.uint64((r & 31) << 1)
            table[r >> 5] &= ~(np.uint64(3) << sh)
            table[r >> 5] |= np.uint64((depth + 1) % 3) << sh
            front[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    room = packed._LogArrays.new(len(ranks), n, rows=1)
    sizes, where, used = packed._encode_layer(table, front, depth, room.l, room.streams[0],
                                              room.scratch[0])
    words = room.streams[0, :used]
    assert sizes.sum() == len(ranks)
    assert words.nbytes <= len(ranks) * 3 + 16 * len(sizes) + 8192  # (a full chunk: 2 bits a rank)
    back_table = np.full_like(table, np.uint64(2**64 - 1))
    back_front = np.zeros_like(front)
    assert packed._decode_layer(sizes, where, room.l, words, depth % 3, back_table, back_front,
                                True) == 0
    got = [r for r in range(n) if packed.code_at(back_table, r) != packed.UNSEEN_CODE]
    assert got == ranks.tolist()
    assert all(packed.code_at(back_table, r) == depth % 3 for r in ranks[:1000])
    bits = np.unpackbits(back_front.view(np.uint8), bitorder="little")[:n]
    assert np.flatnonzero(bits).tolist() == ranks.tolist()


def test_max_depth_and_a_saved_state(tmp_path):
    """Layers saved beyond max_depth are resumed up to it and left as they are; a search
    stopped by max_depth keeps its layers for a deeper one."""
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    whole = layers(puz, start, table="bytes")
    file = tmp_path / "state"
    _stopped(puz, start, file, 20)
    saved = sorted(p.name for p in file.iterdir())
    assert saved == [f"layer-{k:04d}.bin" for k in range(20)]
    shallow = layers(puz, start, table="packed", checkpoint=file, max_depth=10)
    assert shallow.extra["resumed_at_depth"] == 10 and shallow.counts == whole.counts[:11]
    assert shallow.farthest == layers(puz, start, table="bytes", max_depth=10).farthest
    assert sorted(p.name for p in file.iterdir()) == saved
    deeper = layers(puz, start, table="packed", checkpoint=file, max_depth=25)
    assert deeper.extra["resumed_at_depth"] == 19 and deeper.counts == whole.counts[:26]
    assert deeper.status == "not within max_depth" and file.exists()
    rest = layers(puz, start, table="packed", checkpoint=file)
    assert rest.extra["resumed_at_depth"] == 25 and rest.counts == whole.counts
    assert not file.exists()


def test_a_state_that_cannot_be_saved_does_not_stop_the_search(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.warns(UserWarning, match="could not be written"):
        res = layers(SlidingPuzzle("2x4"), "1 2 3 4 5 6 7 0", table="packed",
                     checkpoint=blocker / "state")
    assert res.total == 20160


def test_a_damaged_layer_is_not_resumed(tmp_path):
    """A damaged layer file: the search resumes from the layer before it and ends as one run
    whole; layers saved for another start are not taken."""
    puz = SlidingPuzzle("3x3")
    start = "1 2 3 4 5 6 7 8 0"
    whole = layers(puz, start, table="packed", checkpoint=False)
    file = tmp_path / "state"
    _stopped(puz, start, file, 10)
    layer5 = file / "layer-0005.bin"
    data = bytearray(layer5.read_bytes())
    data[-5] ^= 0xFF
    layer5.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = layers(puz, start, table="packed", checkpoint=file)
    assert any("checksum" in str(w.message) for w in caught)
    assert res.extra["resumed_at_depth"] == 4 and res.counts == whole.counts
    assert np.array_equal(res.table.words, whole.table.words)
    # layers saved for another start are not taken either
    _stopped(puz, start, file, 10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        other = layers(puz, "1 2 3 4 5 6 7 0 8", table="packed", checkpoint=file)
    assert "resumed_at_depth" not in other.extra and other.total == 181440
    assert any("something else" in str(w.message) for w in caught)


def test_an_earlier_versions_state_file_is_replaced_and_a_foreign_file_refused(tmp_path):
    puz, start = SlidingPuzzle("2x4"), "1 2 3 4 5 6 7 0"
    old = tmp_path / "old"
    old.write_bytes(json.dumps({"format": packed.OLD_CHECKPOINT_FORMAT}).encode() + b"\n\0")
    with pytest.warns(UserWarning, match="earlier version"):
        res = layers(puz, start, table="packed", checkpoint=old)
    assert res.total == 20160 and not old.exists()
    foreign = tmp_path / "notes.txt"
    foreign.write_text("mine")
    with pytest.raises(PuzzleError, match="is a file, not the folder"):
        layers(puz, start, table="packed", checkpoint=foreign)
    assert foreign.read_text() == "mine"


def test_a_disk_without_room_for_the_layers_is_refused_before_the_search(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(packed, "_bytes_free", lambda folder: 1000)
    need = packed.save_bytes(20160)
    with pytest.raises(PuzzleError, match=r"saving every layer of this search needs about "
                       r"[\d.,]+ (bytes|KiB|MiB) on the disk of .*, which has 1,000 bytes free"):
        layers(SlidingPuzzle("2x4"), "1 2 3 4 5 6 7 0", table="packed",
               checkpoint=tmp_path / "s")
    assert need > 1000 and not (tmp_path / "s").exists()  # (nothing made)


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
