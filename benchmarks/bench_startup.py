"""A fresh process's first answer: every kernel compiled (empty numba cache) against every
kernel loaded from numba's on-disk cache, for the CLI commands a user types.

Each command runs twice in new processes sharing one throw-away cache folder: first with the
folder empty (what the first run after installing or changing the package costs), then with
the folder the first pass filled; then, in another empty folder, ``python -m puzzlelib warm``
(timed) and each command once more (what a first call costs after that setup step). Wall time
of the whole process and the ``compile_seconds`` it reports (compiling, or loading from the
cache), side by side in one run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._common import write_csv

ROOT = Path(__file__).resolve().parent.parent
START = "8 6 7 2 5 4 3 0 1"
COMMANDS = [
    ("layers 3x3", ["layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0"], None),
    ("solve bfs", ["solve", "--size", "3x3", "--start", START, "--method", "bfs"], None),
    ("solve bidir", ["solve", "--size", "3x3", "--start", START, "--method", "bidir"], None),
    ("solve iddfs --all", ["solve", "--size", "3x3", "--start", START, "--method", "iddfs",
                           "--all", "--heuristic", "manhattan"], None),
    ("solve idastar", ["solve", "--size", "3x3", "--start", START, "--method", "idastar"], None),
    ("solve astar", ["solve", "--size", "3x3", "--start", START, "--method", "astar"], None),
    ("rotation 3x3", ["rotation"], "3 3\n9 8 7\n6 5 4\n3 2 1\n"),
    ("blocks layers classic", ["blocks", "layers", "--board",
                               str(ROOT / "data" / "blocks" / "classic_4x5.txt"),
                               "--metric", "unit"], None),
    ("solve pancake idastar", ["solve", "--puzzle", "pancake", "--start", "3 1 5 2 8 6 4 7",
                               "--method", "idastar"], None),
    ("layers pocket-cube qtm", ["layers", "--puzzle", "pocket-cube", "--metric", "qtm"], None),
]


def _run(args, stdin, cache):
    env = dict(os.environ, PUZZLELIB_CACHE=cache)
    env.pop("NUMBA_CACHE_DIR", None)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "puzzlelib", *args, "--json"], input=stdin,
                         env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    return wall, json.loads(out.stdout).get("compile_seconds")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks startup",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as cache:
        cold = [_run(a, s, cache) for _, a, s in COMMANDS]
        warm = [_run(a, s, cache) for _, a, s in COMMANDS]
    with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as cache:
        env = dict(os.environ, PUZZLELIB_CACHE=cache)
        env.pop("NUMBA_CACHE_DIR", None)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "puzzlelib", "warm", "--quiet"], env=env,
                       check=True)
        setup = time.perf_counter() - t0
        after = [_run(a, s, cache) for _, a, s in COMMANDS]
    print(f"python -m puzzlelib warm, from an empty cache: {setup:.1f} s")
    print(f"{'command':24s} {'empty cache: wall':>18s} {'(compile)':>10s}   "
          f"{'filled cache: wall':>18s} {'(load)':>8s}   {'after warm: wall':>16s} {'(load)':>8s}")
    for (name, _, _), (cw, cc), (ww, wc), (aw, ac) in zip(COMMANDS, cold, warm, after):
        cc_txt = f"{cc:9.2f}s" if cc is not None else "         -"
        wc_txt = f"{wc:7.2f}s" if wc is not None else "       -"
        ac_txt = f"{ac:7.2f}s" if ac is not None else "       -"
        print(f"{name:24s} {cw:17.2f}s {cc_txt}   {ww:17.2f}s {wc_txt}   {aw:15.2f}s {ac_txt}",
              flush=True)
        rows.append((name, cw, cc, ww, wc, aw, ac, setup))
    print("(each command in a new process; the empty-cache pass also fills the cache for the "
          "commands after it, which share domain functions)")
    if args.csv:
        write_csv(args.csv, ["command", "cold_wall_s", "cold_compile_s", "warm_wall_s",
                             "warm_load_s", "after_warm_wall_s", "after_warm_load_s",
                             "warm_command_s"], rows)
    return 0
