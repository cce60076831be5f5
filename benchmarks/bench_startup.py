"""A fresh process's first answer: the README's command-line examples with every kernel
compiled (an empty cache), loaded (the cache filled), and after the install step (``pip install
--no-deps -e .`` and ``python -m puzzlelib warm``); and notebook 00 run cold and warm.

    python -m benchmarks startup [--csv FILE] [--notebooks 00 01 ...] [--small] [--jobs N]

Each command runs in a new process, timed from start to end (wall), with the
``compile_seconds`` it reports (compiling, or loading from the cache):

1. in an empty cache folder, one command after another (each fills the cache for the commands
   after it that share functions: the first pass is not independent);
2. again, with the folder the first pass filled;
3. in a second empty folder, after the install step, timed: ``pip install --no-deps -e .``
   (with the dependencies present) and ``python -m puzzlelib warm`` (on ``--jobs`` processes,
   default the cores).

Then each notebook of ``--notebooks`` (default 00, at full size) three times: cold (an empty
cache folder of its own), after the install step (its own copy of the second folder, filled by
``warm`` and the commands), and warm (again in that copy). Pattern databases the notebooks build count in their
time; they are cached in the same folder. ``--small`` runs the notebooks' quick variant (what
the tests run: the same kernels compiled, less searching, so a larger share of compiling).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._common import write_csv

ROOT = Path(__file__).resolve().parent.parent
START = "8 6 7 2 5 4 3 0 1"
#: The README's command-line examples that answer in seconds (issue 53's list).
COMMANDS = [
    ("layers 3x3", ["layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0"], None),
    ("solve idastar 8-puzzle", ["solve", "--size", "3x3", "--start", START, "--method",
                                "idastar"], None),
    ("solve iddfs --all", ["solve", "--size", "3x3", "--start", START, "--method", "iddfs",
                           "--all"], None),
    ("solve astar 15-puzzle", ["solve", "--size", "4x4", "--start",
                               "1 7 2 4 6 0 14 3 13 10 11 8 5 9 15 12", "--method", "astar"],
     None),
    ("layers 4x4 repeated labels", ["layers", "--size", "4x4", "--start",
                                    "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0"], None),
    ("blocks layers classic", ["layers", "--puzzle", "blocks", "--board",
                               str(ROOT / "data" / "blocks" / "classic_4x5.txt"),
                               "--metric", "unit"], None),
    ("pancake idastar gap", ["solve", "--puzzle", "pancake", "--start", "3 1 5 2 8 6 4 7",
                             "--method", "idastar", "--heuristic", "gap"], None),
    ("topspin 12,4", ["solve", "--puzzle", "topspin", "--size", "12,4", "--start",
                      "4 3 2 1 5 6 7 8 9 10 11 12"], None),
    ("pocket-cube layers qtm", ["layers", "--puzzle", "pocket-cube", "--metric", "qtm"], None),
    ("solve rotation", ["solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                        "9 4 3 2 1 8 7 6 5"], None),
    ("rotation (contest input)", ["rotation"], "3 3\n9 4 3\n2 1 8\n7 6 5\n"),
]


def _env(cache):
    env = dict(os.environ, PUZZLELIB_CACHE=cache)
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def _run(args, stdin, cache):
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "puzzlelib", *args, "--json"], input=stdin,
                         env=_env(cache), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    return wall, json.loads(out.stdout).get("compile_seconds")


def _timed(argv, cache, **kw):
    t0 = time.perf_counter()
    subprocess.run(argv, env=_env(cache), check=True, cwd=ROOT, **kw)
    return time.perf_counter() - t0


def _notebook(name, cache, small=False):
    with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-nb-") as out:
        return _timed([sys.executable, "-m", "puzzlelib.reproduce", "--out", out, name,
                       *(["--small"] if small else [])], cache,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks startup",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--csv", help="also write the tables to this CSV file")
    ap.add_argument("--notebooks", nargs="*", default=["00"],
                    help="notebooks to run cold, after the install step and warm (default 00)")
    ap.add_argument("--small", action="store_true",
                    help="the notebooks' quick variant (what the tests run)")
    ap.add_argument("--no-commands", action="store_true",
                    help="skip the commands' empty- and filled-cache passes")
    ap.add_argument("--jobs", default=None, help="warm's --jobs (default: the cores)")
    args = ap.parse_args(argv)
    rows = []
    commands = [] if args.no_commands else COMMANDS
    with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as cache:
        cold = [_run(a, s, cache) for _, a, s in commands]
        warm = [_run(a, s, cache) for _, a, s in commands]
    with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as installed:
        pip = _timed([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "-e",
                      str(ROOT)], installed, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
        jobs = ["--jobs", args.jobs] if args.jobs else []
        setup = _timed([sys.executable, "-m", "puzzlelib", "warm", "--quiet", *jobs], installed)
        after = [_run(a, s, installed) for _, a, s in commands]
        books = []
        for nb in args.notebooks:
            # each notebook from its own empty folder, and from its own copy of the folder
            # the install step filled (not from what the notebooks before it compiled)
            with tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as cold_dir, \
                    tempfile.TemporaryDirectory(prefix="puzzlelib-startup-") as copy:
                shutil.copytree(installed, copy, dirs_exist_ok=True)
                times = [_notebook(nb, c, args.small) for c in (cold_dir, copy, copy)]
            books.append((nb, *times))
            print(f"notebook {nb}: cold {times[0]:.1f} s, after install {times[1]:.1f} s, "
                  f"warm {times[2]:.1f} s", flush=True)
    print(f"install step: pip install --no-deps -e . {pip:.1f} s, then python -m puzzlelib warm "
          f"{setup:.1f} s: {pip + setup:.1f} s")
    print(f"{'command':28s} {'empty cache: wall':>18s} {'(compile)':>10s}   "
          f"{'filled cache: wall':>18s} {'(load)':>8s}   {'after install: wall':>19s} "
          f"{'(load)':>8s}")
    for (name, _, _), (cw, cc), (ww, wc), (aw, ac) in zip(commands, cold, warm, after):
        def sec(x, w):
            return f"{x:{w - 1}.2f}s" if x is not None else " " * (w - 1) + "-"

        print(f"{name:28s} {cw:17.2f}s {sec(cc, 10)}   {ww:17.2f}s {sec(wc, 8)}   "
              f"{aw:18.2f}s {sec(ac, 8)}", flush=True)
        rows.append(("command", name, cw, cc, ww, wc, aw, ac, pip, setup))
    print("(each command in a new process; the empty-cache pass also fills the cache for the "
          "commands after it, which share domain functions)")
    if books:
        print(f"{'notebook':10s} {'cold':>8s} {'after install':>14s} {'warm':>8s} "
              f"{'cold/warm':>10s} {'after install/warm':>19s}")
    for nb, c, a, w in books:
        print(f"{nb:10s} {c:7.1f}s {a:13.1f}s {w:7.1f}s {c / w:10.2f} {a / w:19.2f}")
        rows.append(("notebook small" if args.small else "notebook", nb, c, None, w, None, a,
                     None, pip, setup))
    if args.csv:
        write_csv(args.csv, ["kind", "name", "cold_wall_s", "cold_compile_s", "warm_wall_s",
                             "warm_load_s", "after_install_wall_s", "after_install_load_s",
                             "pip_install_s", "warm_command_s"], rows)
    return 0
