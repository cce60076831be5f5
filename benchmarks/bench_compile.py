"""Where a first call's compile time goes: every numba compile and compiler pass recorded
(``numba.core.event``) while one CLI command runs in a fresh process with an empty cache.

    python -m benchmarks compile [--top 12] [--csv FILE] [--only NAME ...]

For each command of the README (those issue 53 names), a new process runs it in-process under
a listener of the events ``numba:compile`` (a function compiled for one signature) and
``numba:run_pass`` (a compiler pass of it). Compiles nest (a kernel compiles the functions it
calls), so each event's *own* time is its time less the events inside it. Printed per command:
the wall time, the time in compiles, the own time by pass group (type inference; lowering,
which holds LLVM's optimisation and code generation; the rest), and the functions with the
most own time, with how many signatures each was compiled for. Then, over all commands: the
functions compiled in most commands, and for how many distinct signatures in all.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._common import write_csv

ROOT = Path(__file__).resolve().parent.parent
START8 = "8 6 7 2 5 4 3 0 1"
COMMANDS = [
    ("layers 3x3", ["layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0"], None),
    ("solve idastar 8-puzzle", ["solve", "--size", "3x3", "--start", START8, "--method",
                                "idastar"], None),
    ("solve astar 15-puzzle", ["solve", "--size", "4x4", "--start",
                               "1 7 2 4 6 0 14 3 13 10 11 8 5 9 15 12", "--method", "astar"],
     None),
    ("blocks layers classic", ["blocks", "layers", "--board",
                               str(ROOT / "data" / "blocks" / "classic_4x5.txt"), "--metric",
                               "unit"], None),
    ("pancake idastar gap", ["solve", "--puzzle", "pancake", "--start", "3 1 5 2 8 6 4 7",
                             "--method", "idastar", "--heuristic", "gap"], None),
    ("pocket-cube layers qtm", ["layers", "--puzzle", "pocket-cube", "--metric", "qtm"], None),
    ("solve rotation", ["solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                        "9 4 3 2 1 8 7 6 5"], None),
    ("rotation contest", ["rotation"], "3 3\n9 8 7\n6 5 4\n3 2 1\n"),
]

#: Pass groups: numba's pass names (``native_lowering [fn]`` less the function) -> what a
#: reader calls them.
GROUPS = {"nopython_type_inference": "type inference",
          "partial_type_inference": "type inference",
          "native_lowering": "lowering + LLVM", "native_parfor_lowering": "lowering + LLVM",
          "parfor_pass": "parfors", "pre_parfor_pass": "parfors"}


def _probe(out_file, argv, stdin_text):
    """In the child process: run ``python -m puzzlelib argv`` in-process, record the events."""
    import io

    from numba.core import event

    records = []
    stack = []

    class Recorder(event.Listener):
        def __init__(self, kind):
            self.kind = kind

        def on_start(self, ev):
            stack.append([self.kind, _name(self.kind, ev.data), time.perf_counter(), 0.0])

        def on_end(self, ev):
            kind, name, t0, inner = stack.pop()
            dur = time.perf_counter() - t0
            if stack:
                stack[-1][3] += dur
            records.append((kind, name, dur, dur - inner, len(stack)))

    for kind in ("numba:compile", "numba:run_pass"):
        event.register(kind, Recorder(kind))
    if stdin_text is not None:
        sys.stdin = io.StringIO(stdin_text)
    from puzzlelib.cli import main

    t0 = time.perf_counter()
    real_stdout = sys.stdout
    sys.stdout = io.StringIO()
    try:
        code = main(argv)
    finally:
        sys.stdout = real_stdout
    wall = time.perf_counter() - t0
    with open(out_file, "w") as f:
        json.dump({"code": code, "wall": wall, "records": records}, f)


def _name(kind, data):
    if kind == "numba:compile":
        disp = data["dispatcher"]
        fn = getattr(disp, "py_func", None)
        qual = (f"{fn.__module__}.{fn.__qualname__}" if fn is not None else repr(disp))
        return [qual, str(data.get("args"))[:4000]]
    return [data.get("name"), f"{data.get('module')}.{data.get('qualname')}"]


def _run(name, argv, stdin_text, cache):
    env = dict(os.environ, PUZZLELIB_CACHE=cache)
    env.pop("NUMBA_CACHE_DIR", None)
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys, json; from benchmarks.bench_compile "
                    "import _probe; _probe(sys.argv[1], json.loads(sys.argv[2]), "
                    "json.loads(sys.argv[3]))", out, json.dumps(argv), json.dumps(stdin_text)],
                   env=env, cwd=ROOT, check=True)
    process = time.perf_counter() - t0
    with open(out) as f:
        got = json.load(f)
    os.unlink(out)
    got["process"] = process
    return got


def _short(qual):
    return qual.replace("puzzlelib.", "")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks compile",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--csv", default=None, help="every compile of every command, as rows")
    ap.add_argument("--only", nargs="*", default=None, help="command names to run")
    args = ap.parse_args(argv)
    rows = []
    everywhere = collections.defaultdict(set)  # function -> commands compiling it
    signatures = collections.defaultdict(set)  # function -> signatures over all commands
    for name, cmd, stdin_text in COMMANDS:
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix="puzzlelib-compile-") as cache:
            got = _run(name, cmd, stdin_text, cache)
        recs = got["records"]
        compiles = [r for r in recs if r[0] == "numba:compile"]
        passes = [r for r in recs if r[0] == "numba:run_pass"]
        top_level = sum(r[2] for r in compiles if r[4] == 0)
        groups = collections.Counter()
        for _, (pname, _), _, own, _ in passes:
            groups[GROUPS.get(pname.split(" [")[0], "rest")] += own
        per_fn = collections.defaultdict(lambda: [0.0, set()])
        for _, (qual, sig), _, own, _ in compiles:
            per_fn[qual][1].add(sig)
            everywhere[qual].add(name)
            signatures[qual].add(sig)
        for _, (pname, qual), _, own, _ in passes:
            if qual in per_fn:
                per_fn[qual][0] += own
        for _, (qual, sig), _, own, _ in compiles:
            per_fn[qual][0] += own  # the compile's own time outside its passes
        print(f"\n{name}: process {got['process']:.1f} s, command {got['wall']:.1f} s, "
              f"compiling {top_level:.1f} s ({len(compiles)} compiles of {len(per_fn)} "
              f"functions); " + ", ".join(f"{g} {t:.1f} s" for g, t in groups.most_common()))
        for qual, (own, sigs) in sorted(per_fn.items(), key=lambda kv: -kv[1][0])[:args.top]:
            print(f"  {own:7.2f} s  {len(sigs):3d} sig  {_short(qual)}")
        for qual, (own, sigs) in per_fn.items():
            rows.append((name, qual, len(sigs), round(own, 4), round(got["process"], 2),
                         round(top_level, 2)))
    if len(everywhere) and (args.only is None or len(args.only) > 1):
        print("\nCompiled in the most commands (commands, signatures over all):")
        for qual, cmds in sorted(everywhere.items(), key=lambda kv: (-len(kv[1]),
                                                                      -len(signatures[kv[0]])))[
                :args.top]:
            print(f"  {len(cmds):2d} commands {len(signatures[qual]):3d} sig  {_short(qual)}")
    if args.csv:
        write_csv(args.csv, ["command", "function", "signatures", "own_compile_s",
                             "process_s", "compiling_s"], rows)
    return 0
