"""Layered BFS on a Dask LocalCluster of 2 workers (puzzlelib/search/distributed.py) against
the local kernel: the same counts and farthest positions, and errors before anything starts."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from puzzlelib import CLASSIC, BlockPuzzle, PancakePuzzle, PuzzleError, SlidingPuzzle, layers  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        yield c


BOARDS = [
    ("3x3", None, "1 2 3 4 5 6 7 8 0"),
    ("2x5", None, "1 2 3 4 5 6 7 8 9 0"),
    ("3x3", "1 1 1 2 2 2 3 3 0", "3 1 2 1 0 2 3 2 1"),  # repeated labels
    ("2x3", "1 1 2 2 3 0", "1 1 2 2 3 0"),
]


@pytest.mark.parametrize("spec, goal, start", BOARDS)
def test_same_layers_as_the_local_kernel(client, spec, goal, start):
    puz = SlidingPuzzle(spec, goal=goal)
    local = layers(puz, start)
    dask = layers(puz, start, client=client)
    assert dask.counts == local.counts
    assert dask.n_farthest == local.n_farthest
    assert sorted(dask.farthest) == sorted(local.farthest)
    assert dask.extra["table"] == "dask" and dask.extra["workers"] == 2
    assert dask.stats.expanded == local.total
    # ranks go to the parts in blocks of 4096: the 2x3's 180 are all in one part
    assert (dask.extra["bytes_sent"] > 0) == (local.total > 4096)
    assert dask.table is None
    with pytest.raises(PuzzleError, match="keeps no distance table"):
        dask.depth(start)


def test_a_permutation_puzzle_and_max_depth(client):
    puz = PancakePuzzle(7)
    assert layers(puz, client=client).counts == layers(puz).counts
    a = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", max_depth=9)
    b = layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", max_depth=9, client=client)
    assert b.counts == a.counts and b.status == a.status == "not within max_depth"
    assert sorted(b.farthest) == sorted(a.farthest)


def test_what_cannot_run_there(client):
    with pytest.raises(PuzzleError, match="needs a perfect hash"):
        layers(BlockPuzzle(CLASSIC), client=client)
    with pytest.raises(PuzzleError, match="keeps packed parts"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", table="bytes", client=client)
    with pytest.raises(PuzzleError, match="a folder every worker reaches"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", checkpoint=True, client=client)


def test_parts_too_big_for_the_workers():
    # a part: its packed table (340,200 bytes), its buffer and scratch (14,175 ranks each, 3
    # rows), the batch it makes, 8 in its inbox and 2 on their way (3 bytes a rank at most)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  memory_limit="500KB", dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        with pytest.raises(PuzzleError, match=r"each of the 2 workers' parts of the 2x5 table "
                                              r"needs 1\.1 MiB, but a table may use 390\.6 KiB \(80% of a worker's limit "
                                              r"of 488\.3 KiB\)"):
            layers(SlidingPuzzle("2x5"), "1 2 3 4 5 6 7 8 9 0", client=c)


def test_cli_dask_and_bad_input():
    def run(*args):
        return subprocess.run([sys.executable, "-m", "puzzlelib", "layers", "--size", "2x4",
                               "--start", "1 2 3 4 5 6 7 0", *args], capture_output=True,
                              text=True, env=dict(os.environ))

    out = run("--dask", "2", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    ref = json.loads(run("--json").stdout)
    assert got["counts"] == ref["counts"] and got["farthest"] == ref["farthest"]
    assert got["table"] == "dask" and set(got["stats"]) == set(ref["stats"])
    for args, message in [(("--dask", "0"), "--dask needs at least 1 worker"),
                          (("--dask", "1", "--scheduler", "tcp://127.0.0.1:9"), "not both")]:
        bad = run(*args)
        assert bad.returncode == 2 and message in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("seconds", [1.0, 2.5, 8.0])
def test_cli_ctrl_c_at_any_moment_is_one_line(seconds):
    # while Python imports, while the LocalCluster's workers start, while it searches: exit
    # 130 within seconds, one line, and no worker process left behind
    import signal
    import time

    import psutil

    p = subprocess.Popen([sys.executable, "-m", "puzzlelib", "layers", "--size", "3x4",
                          "--start", "1 2 3 4 5 6 7 8 9 10 11 0", "--dask", "2", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(seconds)
    children = psutil.Process(p.pid).children(recursive=True)
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - t0 < 5
    # (130, or ended by the signal, which a shell reports as 130: a Ctrl-C while the package
    # imports, before the command line catches it)
    assert p.returncode in (130, -signal.SIGINT) and out == "", err[-3000:]
    lines = [line for line in err.replace("\r", "\n").splitlines()
             if line.strip() and "layers (dask)" not in line]  # (the progress bar's)
    assert len(lines) == 1 and lines[0].startswith("puzzlelib: interrupted"), err[-2000:]
    gone, alive = psutil.wait_procs(children, timeout=5)
    assert not alive


@pytest.mark.heavy
def test_3x4_on_two_workers(client):
    start = "1 2 3 4 5 6 7 8 9 10 11 0"
    assert layers(SlidingPuzzle("3x4"), start, client=client).counts == \
        layers(SlidingPuzzle("3x4"), start).counts


def test_workers_are_asked_of_the_scheduler_not_a_cache(client):
    # Client.scheduler_info() hands back a record that the client's own periodic refresh keeps
    # overwriting with one that lists no workers; with the refresh every millisecond, about half
    # the answers read from it were empty (a CI run once failed on "the cluster has no workers").
    import dask

    from puzzlelib.search.distributed import worker_addresses

    with dask.config.set({"distributed.client.scheduler-info-interval": "1ms"}):
        with distributed.Client(client.scheduler.address) as busy:
            answers = [len(worker_addresses(busy)) for _ in range(500)]
    assert answers == [2] * 500


def test_a_stop_frees_the_workers(client):
    # the 3x4 table (239.5 million positions) takes minutes on two workers; a time limit of
    # 1 s stops it, every task is cancelled or halted, and the parts are let go
    import time

    from puzzlelib import SearchLimitError
    from puzzlelib.search import distributed as dist

    puz = SlidingPuzzle("3x4")
    start = "1 2 3 4 5 6 7 8 9 10 11 0"
    layers(puz, start, client=client, max_depth=1)  # the workers' kernels compiled or loaded
    t0 = time.monotonic()
    with pytest.raises(SearchLimitError, match="time limit of 1 s passed"):
        layers(puz, start, client=client, time_limit=1)
    assert time.monotonic() - t0 < 4
    small = SlidingPuzzle("2x3")
    assert layers(small, "1 2 3 4 5 0", client=client).counts == \
        layers(small, "1 2 3 4 5 0").counts
    deadline = time.monotonic() + 10
    while sum(client.run(lambda: len(dist._PARTS)).values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run(lambda: len(dist._PARTS)) == {w: 0 for w in client.run(lambda: 0)}


def test_a_worker_past_its_memory_limit_stops_with_one_line():
    # Dask's own pause and termination turned off, so that the watch in each task acts first:
    # a worker process holds far more than 40 MB (numpy, numba), so its first task stops
    import dask

    from puzzlelib import SearchLimitError

    with dask.config.set({"distributed.worker.memory.pause": False,
                          "distributed.worker.memory.terminate": False,
                          "distributed.worker.memory.spill": False,
                          "distributed.worker.memory.target": False}):
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      memory_limit="40MB", dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as c:
            with pytest.raises(SearchLimitError, match=r"memory limit of 34\.3 MiB \(max_memory\)"
                                                       r" would be passed: .* a Dask part"):
                layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", client=c)


def test_the_parts_are_packed_and_send_little(client):
    # one-machine byte tables sent 18-19 bytes a position as 8-byte ranks; packed parts send
    # delta-coded ranks or bitmaps: about one byte a position on the 2x5 (its parts are small,
    # and most of its layers are dense enough for bitmaps)
    puz = SlidingPuzzle("2x5")
    res = layers(puz, "1 2 3 4 5 6 7 8 9 0", client=client)
    assert res.extra["parts"] == 2 and res.extra["workers_lost"] == 0
    assert res.extra["bytes_sent"] < 2 * res.total
    assert layers(puz, "1 2 3 4 5 6 7 8 9 0", client=client, explain=True).table == "packed"


def _ranks_of_bits(bits):
    return np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little"))


def test_encodings_round_trip():
    import numpy as np

    from puzzlelib.search import distributed as dist
    from puzzlelib.search.packed import front_words, table_words

    rng = np.random.default_rng(5)
    for m, k in [(64, 0), (64, 1), (1000, 3), (5000, 4000), (1 << 20, 50), (1 << 20, 300000)]:
        ranks = np.unique(rng.integers(0, m, k)) if k else np.zeros(0, dtype=np.int64)
        if k == 1:
            ranks = np.array([m - 1])
        form = dist._smaller_form(ranks, m)
        table = np.full(table_words(m), np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
        front = np.zeros(front_words(m), dtype=np.uint64)
        assert dist._mark_form(table, front, form, 2, True) == len(ranks)
        bits, count = dist._layer_bits(table, front, np.uint64(2), 0, len(front))
        assert count == len(ranks)
        assert list(_ranks_of_bits(bits)) == list(ranks)
        assert form.nbytes <= 8 * front_words(m)  # never more than the bitmap
        again = dist._bitmap_form(bits, count, m)
        assert again.nbytes == form.nbytes or again.dtype != form.dtype
        assert dist._mark_form(table, front, again, 1, True) == 0  # all seen already


def test_saved_layers_resume(client, tmp_path):
    from puzzlelib import SearchLimitError

    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    local = layers(puz, start)
    part = layers(puz, start, client=client, checkpoint=tmp_path, max_depth=20)
    assert part.counts == local.counts[:21]
    record = json.loads((tmp_path / "layers.json").read_text())
    assert record["counts"] == local.counts[:21]
    assert len(list(tmp_path.glob("part*.npy"))) == 2 * 21
    whole = layers(puz, start, client=client, checkpoint=tmp_path)
    assert whole.counts == local.counts and sorted(whole.farthest) == sorted(local.farthest)
    # another start's folder is refused, in one line
    with pytest.raises(PuzzleError, match="holds the layers of another search"):
        layers(puz, "1 2 3 4 5 6 7 8 0 9", client=client, checkpoint=tmp_path)
    # nothing but the record and the layer files (no temporary file left)
    assert {p.suffix for p in tmp_path.iterdir()} == {".json", ".npy"}
    assert SearchLimitError  # (imported for the lost-worker tests below)


@pytest.mark.parametrize("m, k", [(64, 0), (64, 64), (1000, 1), (70_000, 9), (70_000, 4000),
                                  (70_001, 69_000), (1 << 22, 2_000_000)])
def test_layer_files_are_written_and_read_a_slice_at_a_time(monkeypatch, tmp_path, m, k):
    # a part's layer written in slices of 64 frontier words (and deltas carried across them),
    # in the smaller form, and read back in slices: the same positions, the frontier bits only
    # where asked, whatever the form; a cut, a rank past the part, a foreign array: ValueError
    from puzzlelib.search import distributed as dist
    from puzzlelib.search.packed import front_words

    monkeypatch.setattr(dist, "FILE_WORDS", 64)
    monkeypatch.setattr(dist, "FILE_BYTES", 8 * 64 + 10 + 3 * 64 * 64)
    rng = np.random.default_rng(m + k)
    ranks = np.unique(rng.integers(0, m, k)) if k else np.zeros(0, dtype=np.int64)
    if k == 1:
        ranks = np.array([m - 1])
    space = None  # (a part's table does not need its puzzle)
    a = dist._Part(space, 1, 3, m)
    dist._mark_form(a.table, a.front, dist._smaller_form(ranks, m), 1, True)
    dist._mark_form(a.table, a.front, dist._smaller_form(np.arange(0, m, 7), m), 0, True)
    dist._write_layer(tmp_path, a, 4)  # the positions of code 1 only
    path = dist._layer_file(tmp_path, 1, 4)
    form = np.load(path)
    want = dist._smaller_form(ranks, m)
    assert form.dtype == want.dtype and form.tobytes() == want.tobytes()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    for with_front in (True, False):
        b = dist._Part(space, 1, 3, m)
        assert dist._read_layer(path, b, np.uint64(2), with_front) == len(ranks)
        bits = dist._layer_bits(b.table, np.full(front_words(m), ~np.uint64(0)),
                                np.uint64(2), 0, front_words(m))[0]
        assert list(_ranks_of_bits(bits)) == list(ranks)
        assert _ranks_of_bits(b.front).tolist() == (ranks.tolist() if with_front else [])
    raw = path.read_bytes()
    header = len(raw) - form.nbytes
    bad = [raw[:-1]] if form.nbytes else []
    if form.dtype == np.uint8:
        bad.append(raw[:header] + b"\xff" * (form.nbytes + 11))  # no number ends
        past = dist._varint(np.array([m - 1 - (int(ranks[-1]) if len(ranks) else -1)]))
        np.save(path, np.append(form, past))
        bad.append(path.read_bytes())
    np.save(path, np.zeros(3, dtype=np.float32))
    bad.append(path.read_bytes())
    for data in bad:
        path.write_bytes(data)
        with pytest.raises(ValueError):
            dist._read_layer(path, dist._Part(space, 1, 3, m), np.uint64(2), True)


def _start(*args, log):
    return subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "dask"), *args],
                            stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture
def own_cluster(tmp_path):
    """A scheduler and two worker processes (no nanny: a killed worker stays dead) started
    with ``dask scheduler`` and ``dask worker`` on 127.0.0.1, as on a real cluster."""
    import time

    log = open(tmp_path / "dask.log", "w")
    file = tmp_path / "scheduler.json"
    procs = [_start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(file), log=log)]

    def worker():
        p = _start("worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-nanny",
                   "--no-dashboard", "--host", "127.0.0.1", log=log)
        procs.append(p)
        return p

    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        workers = [worker(), worker()]
        with distributed.Client(address, timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
            yield address, c, workers, worker
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
        log.close()


def test_a_lost_worker_costs_one_layer(own_cluster, tmp_path):
    address, c, (a, b), start_worker = own_cluster
    puz = SlidingPuzzle("3x3")
    start = "1 2 3 4 5 6 7 8 0"
    local = layers(puz, start)
    seen = []

    def progress(depth, count, total):
        seen.append(depth)
        if depth == 12 and seen.count(12) == 1:
            b.kill()  # mid-search: its part is gone
            b.wait()
            start_worker()  # and another joins

    res = layers(puz, start, client=c, checkpoint=tmp_path / "saved", progress=progress)
    assert res.counts == local.counts
    assert sorted(res.farthest) == sorted(local.farthest)
    assert res.extra["workers_lost"] == 1
    # layers 0..12 were saved: the search went on from layer 12, made again
    assert seen.count(12) == 2 and seen.count(13) == 1


def test_a_lost_worker_without_a_folder_ends_in_one_line(own_cluster):
    from puzzlelib import SearchLimitError

    address, c, (a, b), _ = own_cluster

    def progress(depth, count, total):
        if depth == 5:
            b.kill()
            b.wait()

    with pytest.raises(SearchLimitError, match=r"the Dask worker tcp://127\.0\.0\.1:\d+ left the "
                                               r"cluster at depth \d+: give a checkpoint folder"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", client=c, progress=progress)


def test_cli_on_a_scheduler(own_cluster, tmp_path):
    address = own_cluster[0]
    args = [sys.executable, "-m", "puzzlelib", "layers", "--size", "2x4", "--start",
            "1 2 3 4 5 6 7 0", "--json"]
    ref = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
    out = subprocess.run(args + ["--scheduler", address, "--checkpoint", str(tmp_path / "s")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["counts"] == ref["counts"] and got["workers"] == 2 and got["workers_lost"] == 0
    assert (tmp_path / "s" / "layers.json").exists()


def test_a_damaged_layer_file_is_one_line(client, tmp_path):
    puz = SlidingPuzzle("2x3")
    layers(puz, "1 2 3 4 5 0", client=client, checkpoint=tmp_path, max_depth=5)
    (tmp_path / "part00001-0003.npy").write_bytes(b"not a layer")
    with pytest.raises(PuzzleError, match=r"part00001-0003\.npy \(part 1, layer 3\) cannot be "
                                          r"read .*; give another folder"):
        layers(puz, "1 2 3 4 5 0", client=client, checkpoint=tmp_path)


def test_a_folder_of_the_earlier_layout_is_one_line(client, tmp_path):
    # the earlier layout's parts were ranges of ranks, recorded in format 1: their layer files
    # mean other ranks now, so the folder is refused, not read
    puz = SlidingPuzzle("2x3")
    layers(puz, "1 2 3 4 5 0", client=client, checkpoint=tmp_path, max_depth=3)
    rec = json.loads((tmp_path / "layers.json").read_text())
    rec["format"] = "puzzlelib-dask-layers-1"
    (tmp_path / "layers.json").write_text(json.dumps(rec))
    with pytest.raises(PuzzleError, match=r"layers\.json cannot be read \(format "
                                          r"'puzzlelib-dask-layers-1'\); give another folder"):
        layers(puz, "1 2 3 4 5 0", client=client, checkpoint=tmp_path)


def test_a_checkpoint_path_that_cannot_be_a_folder(client, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for path, message in [(afile, "is a file, not the folder"),
                          (afile / "below", "cannot make the checkpoint folder")]:
        with pytest.raises(PuzzleError, match=message):
            layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", client=client, checkpoint=path)


def _2x5_search():
    """The 2x5's full table on this machine, the plan's rank space and the start's rank."""
    puz = SlidingPuzzle("2x5")
    start = "1 2 3 4 5 6 7 8 9 0"
    run = layers(puz, start, explain=True).run
    space = run["space"]
    return layers(puz, start), space, int(space.fns.rank(run["state"], space.params))


@pytest.mark.parametrize("n_parts", [3, 5])
def test_more_parts_than_workers(client, n_parts):
    # parts given round robin to the 2 workers; the small layers' children sorted, the large
    # ones' set in a bitmap a part (one row for every part but the sender)
    from puzzlelib.search.distributed import dask_bfs

    local, space, r0 = _2x5_search()
    counts, far, n_far, tally, stopped = dask_bfs(client, space, space.n_ranks, [r0],
                                                  n_parts=n_parts)
    assert counts == local.counts and n_far == local.n_farthest and not stopped
    assert tally[1] == local.total  # every position expanded once
    with pytest.raises(ValueError, match="start ranks outside"):
        dask_bfs(client, space, space.n_ranks, [-1], n_parts=n_parts)


def test_a_batch_is_sorted_without_repeats():
    # a buffer's ranks (any order, repeats) radix-sorted and delta-coded, or a bitmap of the
    # part when that is smaller: the ranks marked are the buffer's distinct ranks either way,
    # for parts of up to 2**40 ranks (the 3x5's parts are past 2**32)
    from puzzlelib.search import distributed as dist
    from puzzlelib.search.packed import front_words

    rng = np.random.default_rng(11)
    for m, k in [(64, 1), (1 << 12, 6000), (1 << 16, 300), (10**6 + 7, 5000), (1 << 40, 3000)]:
        ranks = rng.integers(0, m, k)
        ranks[k // 2:] = ranks[:k - k // 2]  # half of them repeated
        want = np.unique(ranks)
        form = dist._batch_form(ranks.copy(), np.empty(k, dtype=np.int64), m)
        if form.dtype == np.uint8:
            assert len(form) < 8 * front_words(m) or m >= 1 << 40
            assert form.tobytes() == dist._varint(want).tobytes()
        else:
            assert m == 1 << 12  # 6000 ranks of 4096: the bitmap (512 bytes) is smaller
            assert list(_ranks_of_bits(form)) == list(want)


@pytest.mark.parametrize("n_parts", [2, 3])
def test_batches_are_streamed_while_the_parts_expand(monkeypatch, n_parts):
    # buffers of a few hundred ranks: hundreds of batches a layer, each sent as its buffer
    # fills and marked by the receiving part's worker while that part expands (in its
    # inbox, between two slices) or straight away; the counts are the local search's
    from puzzlelib.search import distributed as dist

    monkeypatch.setattr(dist, "BUFFER_BYTES", 4096)
    monkeypatch.setattr(dist, "SLICE", 100)
    calls = []
    deliver = dist._deliver
    monkeypatch.setattr(dist, "_deliver", lambda *a: calls.append(a[1]) or deliver(*a))
    local, space, r0 = _2x5_search()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        counts, far, n_far, tally, stopped = dist.dask_bfs(c, space, space.n_ranks, [r0],
                                                           n_parts=n_parts)
    assert counts == local.counts and n_far == local.n_farthest and tally[1] == local.total
    assert sorted(set(calls)) == list(range(n_parts))
    assert len(calls) > 10 * len(counts)  # many batches a layer, not one a part


@pytest.mark.parametrize("n, n_parts", [(360, 2), (181440, 2), (181440, 3), (10**6 + 7, 5),
                                        (43589145600, 2), (653837184000, 256)])
def test_ranks_dealt_in_blocks_round_trip(n, n_parts):
    # every rank to exactly one part, within its size, and back; blocks of 4096 in turn
    from puzzlelib.search import distributed as dist

    sizes = dist.part_sizes(n, n_parts)
    assert sizes.sum() == n and sizes.max() - sizes.min() <= 4096
    rng = np.random.default_rng(n)
    ranks = np.unique(np.concatenate([np.arange(min(n, 20000)), rng.integers(0, n, 20000),
                                      np.arange(max(0, n - 5000), n)]))
    owner, local = dist.local_ranks(ranks, n_parts)
    assert (owner == (ranks // 4096) % n_parts).all()
    for i in range(n_parts):
        mine = owner == i
        assert (local[mine] < sizes[i]).all()
        assert (dist.global_ranks(local[mine], i, n_parts) == ranks[mine]).all()
        assert (np.diff(local[mine]) > 0).all()  # order kept within a part
