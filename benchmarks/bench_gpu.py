"""The CUDA backend beside the CPU kernels on one machine (issue: frontier expansion on the GPU).

``python -m benchmarks gpu [STAGE ...] [--out FOLDER] [--repeat N]``; stages, in the order given
(default ``check 3x4 pdb``):

- ``check``: the GPU's counts, farthest positions and tables against the CPU's on 2x4, the
  3x3 and a repeated-label 3x3 (bytes and packed);
- ``3x4``: the 3x4 full table (239,500,800 positions), GPU bytes and packed against the CPU
  kernel on every core, median of ``--repeat`` runs each, side by side;
- ``pdb``: the 15-puzzle's 7-8 pattern databases built on the GPU (no cache), checked equal
  to the CPU's where those are cached;
- ``cpu-pdb``: the same two databases built by the CPU kernel on every core;
- ``2x7``: the 2x7 full table (43,589,145,600 positions) on the GPU, packed.

Every row names the device and the CPU; compile time (and the GPU's start) is reported apart
from the search's seconds. Rows go to ``FOLDER/gpu.csv`` (default ``benchmarks/measured``,
file dated) as they come.
"""

import os
import platform
import statistics
import sys
import time

import numba
import numpy as np

from ._common import write_csv

HEADER = ["stage", "case", "backend", "device", "threads", "runs", "median_seconds",
          "compile_seconds", "positions", "generated", "extra"]


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


class _Rows:
    def __init__(self, path):
        self.path, self.rows = path, []

    def add(self, *row):
        self.rows.append(list(row))
        write_csv(self.path, HEADER, self.rows)
        print("  " + ", ".join(f"{h}={v}" for h, v in zip(HEADER, row)), flush=True)


def _layers_runs(puzzle, start, repeat, **kw):
    from puzzlelib import layers

    first = layers(puzzle, start, progress=False, **kw)
    runs = [first] + [layers(puzzle, start, progress=False, **kw) for _ in range(repeat - 1)]
    return first, statistics.median(r.stats.seconds for r in runs), runs


def stage_check(rows, repeat):
    from puzzlelib import SlidingPuzzle, layers

    cases = [("2x4", "1 2 3 4 5 6 7 0"), ("3x3", "1 2 3 4 5 6 7 8 0"),
             ("3x3", "1 1 2 2 3 3 4 4 0")]
    bad = 0
    for size, start in cases:
        pz = SlidingPuzzle(size)
        ref = layers(pz, start, table="bytes", progress=False)
        for table in ("bytes", "packed"):
            g = layers(pz, start, backend="cuda", table=table, progress=False)
            same = g.counts == ref.counts and g.farthest == ref.farthest
            if table == "bytes":
                same = same and np.array_equal(g.table, ref.table)
            far = ref.farthest[-1]
            same = same and g.depth(far) == ref.depth(far) and len(g.path_to(far)) == ref.depth(far)
            bad += not same
            rows.add("check", f"{size} {start}", f"cuda-{table}", g.extra["device"], 1, 1,
                     g.stats.seconds, g.stats.compile_seconds, sum(g.counts), g.stats.generated,
                     "same as cpu" if same else "DIFFERENT")
    if bad:
        print(f"check: {bad} case(s) differ from the CPU", flush=True)
    return bad


def stage_3x4(rows, repeat):
    from puzzlelib import SlidingPuzzle

    pz = SlidingPuzzle("3x4")
    start = "1 2 3 4 5 6 7 8 9 10 11 0"
    threads = numba.get_num_threads()
    ref, cpu_med, _ = _layers_runs(pz, start, repeat, table="bytes")
    rows.add("3x4", start, "cpu-bytes", _cpu_name(), threads, repeat, cpu_med,
             ref.stats.compile_seconds, sum(ref.counts), ref.stats.generated, "")
    for table in ("bytes", "packed"):
        g, med, runs = _layers_runs(pz, start, repeat, backend="cuda", table=table)
        same = g.counts == ref.counts and g.farthest == ref.farthest
        rows.add("3x4", start, f"cuda-{table}", g.extra["device"], 1, repeat, med,
                 g.stats.compile_seconds, sum(g.counts), g.stats.generated,
                 f"{'same as cpu' if same else 'DIFFERENT'}; cpu/gpu {cpu_med / med:.1f}x")


def _pdb_stage(rows, backend, tag):
    from puzzlelib.pdb.sliding import build, partition_cells, _file_for, _load

    import hashlib

    goal = tuple(range(16))  # Korf's: the blank in the corner cell 0
    groups = partition_cells("pdb78", 4, 4, goal)
    total = 0.0
    for cells in groups:
        db = build(4, 4, tuple(cells), 0, progress=False, backend=backend)
        total += db.build_seconds
        cached = _load(_file_for(4, 4, tuple(cells), 0), 4, 4, tuple(cells), 0)
        check = "sha256 " + hashlib.sha256(db.table.tobytes()).hexdigest()[:16]
        if cached is not None:
            check += ("; same as the cached table" if np.array_equal(cached.table, db.table)
                      else "; DIFFERENT from the cached table")
        device = _cpu_name() if backend == "cpu" else _device()
        rows.add(tag, f"pdb78 group of {len(cells)}", backend, device,
                 numba.get_num_threads() if backend == "cpu" else 1, 1, db.build_seconds,
                 db.stats.compile_seconds, db.n_entries, db.stats.generated, check)
    print(f"{tag}: both groups {total:.1f} s", flush=True)


def _device():
    from puzzlelib.search import gpu

    return gpu.device_name()


def stage_pdb(rows, repeat):
    _pdb_stage(rows, "cuda", "pdb")


def stage_cpu_pdb(rows, repeat):
    _pdb_stage(rows, "cpu", "cpu-pdb")


def stage_2x7(rows, repeat):
    from puzzlelib import SlidingPuzzle, layers

    start = "1 2 3 4 5 6 7 8 9 10 11 12 13 0"
    t0 = time.perf_counter()

    def show(depth, count, total):
        print(f"    depth {depth}: {count:,} ({total:,} so far, {time.perf_counter() - t0:.0f} s)",
              flush=True)

    g = layers(SlidingPuzzle("2x7"), start, backend="cuda", table="packed", progress=show)
    rows.add("2x7", start, "cuda-packed", g.extra["device"], 1, 1, g.stats.seconds,
             g.stats.compile_seconds, sum(g.counts), g.stats.generated,
             f"radius {g.max_depth}, {g.n_farthest} farthest; counts {' '.join(map(str, g.counts))}")


STAGES = {"check": stage_check, "3x4": stage_3x4, "pdb": stage_pdb, "cpu-pdb": stage_cpu_pdb,
          "2x7": stage_2x7}


def main(args):
    out = os.path.join(os.path.dirname(__file__), "measured")
    repeat = 3
    stages = []
    while args:
        a = args.pop(0)
        if a == "--out":
            out = args.pop(0)
        elif a == "--repeat":
            repeat = int(args.pop(0))
        elif a in STAGES:
            stages.append(a)
        else:
            sys.exit(f"unknown argument {a!r}: stages {', '.join(STAGES)}, --out, --repeat")
    os.makedirs(out, exist_ok=True)
    rows = _Rows(os.path.join(out, time.strftime("%Y-%m-%d") + "_gpu.csv"))
    print(f"numba {numba.__version__}, numpy {np.__version__}, {_cpu_name()}, "
          f"{numba.get_num_threads()} threads", flush=True)
    bad = 0
    for s in stages or ["check", "3x4", "pdb"]:
        print(f"== {s}", flush=True)
        t = time.perf_counter()
        bad += STAGES[s](rows, repeat) or 0
        print(f"== {s} done in {time.perf_counter() - t:.0f} s", flush=True)
    return 1 if bad else 0
