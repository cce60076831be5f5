"""The CUDA backend (:mod:`puzzlelib.search.gpu`) against the CPU kernels.

Where there is no GPU (CI), numba's CUDA simulator runs the very same kernels as Python on the
CPU: conftest.py sets ``NUMBA_ENABLE_CUDASIM=1`` unless it is set already. On a machine with a
GPU, ``NUMBA_ENABLE_CUDASIM=0 python -m pytest tests/test_gpu.py`` checks the real thing.
"""

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from puzzlelib import PancakePuzzle, PuzzleError, RotationPuzzle, SlidingPuzzle, layers, solve
from puzzlelib.core.contract import UNSEEN
from puzzlelib.pdb.sliding import build
from puzzlelib.results import BEYOND_DEPTH
from puzzlelib.search import gpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOARDS = [("2x3", "1 2 0 4 5 3"), ("2x3", "1 1 2 2 3 0"),
          ("2x4", "1 2 3 4 5 6 7 0")]


@pytest.mark.parametrize("table", ["bytes", "packed"])
@pytest.mark.parametrize("size,start", BOARDS)
def test_gpu_layers_give_the_cpu_table(size, start, table):
    pz = SlidingPuzzle(size)
    cpu = layers(pz, start, table=table, threads=1)
    got = layers(pz, start, table=table, backend="cuda")
    assert got.extra["backend"] == "cuda" and got.extra["table"] == table
    assert got.extra["device"] == gpu.device_name()
    assert got.counts == cpu.counts
    assert got.farthest == cpu.farthest and got.n_farthest == cpu.n_farthest
    assert got.stats.stored == sum(cpu.counts)
    if table == "bytes":
        assert np.array_equal(got.table, cpu.table)
    else:
        assert np.array_equal(got.table.words, cpu.table.words)
    if len(set(start.split())) < len(start.split()):
        pytest.skip("the table matches; depth() and path_to() are not read back for repeated "
                    "labels (positions read through their own goal)")
    # depths and shortest paths read back from the GPU's table
    rng = random.Random(7)
    positions = [cpu.farthest[0], list(map(int, start.split()))]
    for _ in range(10):
        cells = list(map(int, start.split()))
        for _ in range(rng.randrange(40)):
            cells = rng.choice(pz.neighbours(cells))[1]
        positions.append(cells)
    for pos in positions:
        assert got.depth(pos) == cpu.depth(pos) >= 0
        assert len(got.path_to(pos)) == cpu.depth(pos)


@pytest.mark.parametrize("table", ["bytes", "packed"])
def test_gpu_layers_stop_at_max_depth_as_the_cpu(table):
    pz = SlidingPuzzle("2x3")
    cpu = layers(pz, "1 2 3 4 5 0", table=table, max_depth=6, threads=1)
    got = layers(pz, "1 2 3 4 5 0", table=table, max_depth=6, backend="cuda")
    assert got.counts == cpu.counts and len(got.counts) == 7
    assert got.status == cpu.status == BEYOND_DEPTH
    assert got.farthest == cpu.farthest


def test_both_ways_of_making_a_layer_give_one_table():
    """Top down only (as pattern databases are built) and with the late layers bottom up: the
    same table, and the bottom-up kernels did run."""
    space = SlidingPuzzle("2x3").rooted("1 2 3 4 5 0")
    r0 = int(space.fns.rank(space.encode("1 2 3 4 5 0"), space.params))
    down, c1, t1, _ = gpu.bfs_bytes(space.fns, space.params, space.n_ranks, [r0],
                                    bottom_up=False)
    mixed, c2, t2, _ = gpu.bfs_bytes(space.fns, space.params, space.n_ranks, [r0])
    packed, c3, t3, _ = gpu.bfs_packed(space.fns, space.params, space.n_ranks, [r0])
    assert t1[2] == 0 and t2[2] > 0 and t3[2] > 0
    assert np.array_equal(down, mixed) and c1 == c2 == c3
    assert (down != UNSEEN).all()
    codes = [int((packed.words[r >> 5] >> np.uint64((r & 31) * 2)) & np.uint64(3))
             for r in range(space.n_ranks)]
    assert codes == [int(d) % 3 for d in down]


@pytest.mark.parametrize("rows,cols,cells,blank", [(2, 3, (0, 1, 2), 5), (3, 3, (0, 1, 2, 3), 8),
                                                   (3, 3, (4, 5, 7), 0)])
def test_gpu_pattern_databases_equal_the_cpu_s(rows, cols, cells, blank):
    cpu = build(rows, cols, cells, blank)
    got = build(rows, cols, cells, blank, backend="cuda")
    assert np.array_equal(got.table, cpu.table)
    assert got.counts == cpu.counts
    assert got.stats.generated == cpu.stats.generated


def test_solve_builds_its_pattern_databases_on_the_gpu():
    pz = SlidingPuzzle("3x3")
    start = "8 6 7 2 5 4 3 0 1"
    groups = [[1, 2, 3, 4], [5, 6, 7, 8]]
    cpu = solve(pz, start, method="idastar", pdb=groups, cache=False)
    got = solve(pz, start, method="idastar", pdb=groups, cache=False, backend="cuda")
    assert got.length == cpu.length == 31
    assert got.stats.generated == cpu.stats.generated
    assert got.extra["backend"] == "cuda"


def test_bad_backend_requests_are_one_line_errors(monkeypatch):
    pz = SlidingPuzzle("2x3")
    with pytest.raises(PuzzleError, match="unknown backend 'gpu'"):
        layers(pz, "1 2 3 4 5 0", backend="gpu")
    with pytest.raises(PuzzleError, match="choose one"):
        layers(pz, "1 2 3 4 5 0", backend="cuda", client=object())
    with pytest.raises(PuzzleError, match="saves no state"):
        layers(pz, "1 2 3 4 5 0", backend="cuda", checkpoint=True)
    with pytest.raises(PuzzleError, match="perfect hash"):
        layers(RotationPuzzle(3, 3), list(range(1, 10)), backend="cuda")
    with pytest.raises(PuzzleError, match="cannot run the pancake puzzle"):
        layers(PancakePuzzle(5), "2 1 3 4 5", backend="cuda")
    with pytest.raises(PuzzleError, match="runs on the CPU"):
        solve(pz, "1 2 3 4 5 0", method="bfs", backend="cuda")
    with pytest.raises(PuzzleError, match="runs on the CPU"):
        solve(pz, "1 2 3 4 5 0", method="idastar", backend="cuda")


def test_gpu_memory_is_checked_before_allocating(monkeypatch):
    pz = SlidingPuzzle("2x4")  # 20,160 positions: 20,160 bytes, or 10,080 packed
    monkeypatch.setenv("PUZZLELIB_MAX_GPU_BYTES", "15000")
    with pytest.raises(PuzzleError, match=r"needs 19\.7 KiB of GPU memory, but only 14\.6 KiB"):
        layers(pz, "1 2 3 4 5 6 7 0", backend="cuda", table="bytes")
    monkeypatch.setenv("PUZZLELIB_MAX_GPU_BYTES", "15000")
    got = layers(pz, "1 2 3 4 5 6 7 0", backend="cuda", max_depth=3)  # auto: packed fits
    assert got.extra["table"] == "packed"
    monkeypatch.setenv("PUZZLELIB_MAX_GPU_BYTES", "1000")
    with pytest.raises(PuzzleError, match="of GPU memory"):
        layers(pz, "1 2 3 4 5 6 7 0", backend="cuda")
    with pytest.raises(PuzzleError, match="of GPU memory"):
        build(3, 3, (0, 1, 2, 3), 8, backend="cuda")


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "puzzlelib", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=600)


def test_cli_backend_cuda_json():
    p = _cli("layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--backend", "cuda", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["backend"] == "cuda" and data["device"] == gpu.device_name()
    assert data["total"] == 360 and data["max_depth"] == 21
    assert set(data["stats"]) == {"generated", "expanded", "stored", "memory_bytes", "seconds",
                                  "compile_seconds"}


def test_cli_without_a_gpu_says_so_in_one_line():
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0")
    p = _cli("layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--backend", "cuda", "--json",
             env=env)
    if p.returncode == 0:  # a machine with a GPU: then it ran there
        assert json.loads(p.stdout)["backend"] == "cuda"
        pytest.skip("a GPU is here: the message for a machine without one cannot be seen")
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0
    assert "needs an NVIDIA GPU" in p.stderr and "Traceback" not in p.stderr
