"""Layered BFS on a Dask LocalCluster of 2 workers (puzzlelib/search/distributed.py) against
the local kernel: the same counts and farthest positions, and errors before anything starts."""

import json
import os
import subprocess
import sys

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
    assert dask.extra["bytes_sent"] > 0 and dask.stats.expanded == local.total
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
    with pytest.raises(PuzzleError, match="one byte a position in each worker's part"):
        layers(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 8 0", table="packed", client=client)


def test_parts_too_big_for_the_workers():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  memory_limit="1MB", dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        with pytest.raises(PuzzleError, match=r"each of the 2 workers' parts of the 2x5 table "
                                              r"needs 885\.9 KiB, but a table may use 781\.2 KiB \(80% of a worker's limit "
                                              r"of 976\.6 KiB\)"):
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
