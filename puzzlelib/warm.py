"""``python -m puzzlelib warm``: compile the commands' kernels into the on-disk cache before
their first call, on every core.

numba compiles a kernel the first time it is called for a kind of puzzle and method, and saves
it in this version of the package's cache folder (:mod:`puzzlelib.core.jit`); a later process
loads it in a fraction of a second. ``warm`` runs small cases of the commands so that a user's
first calls load instead of compile.

Two lists of groups. :data:`FIRST` holds what a new user runs first: the README's command-line
examples and the first lesson's searches (notebook 00); ``warm`` compiles these, and so does
``make`` before running the notebooks. ``warm --all`` adds :data:`REST`, so that every
command, method and puzzle has been run once. A group is a few commands that share kernels, run
one after another in one process; the groups run in ``--jobs`` processes at once (the cores, by
default), each process taking the next group as it comes free, in the order listed (the
longest first). Several processes may save into one cache folder at once
(:class:`puzzlelib.core.jit._SharedCacheFile`), so two groups that compile the same helper
both succeed.
"""

import io
import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

_EIGHT = "8 6 7 2 5 4 3 0 1"
_8 = ["solve", "--size", "3x3", "--start", _EIGHT]
_FIFTEEN = "1 7 2 4 6 0 14 3 13 10 11 8 5 9 15 12"
_ROTATION = "9 4 3 2 1 8 7 6 5"

#: (name, commands): what a new user runs first (the README's command-line examples, without
#: those that build pattern databases for minutes or need a cluster or a GPU, and the searches
#: of notebook 00), the longest groups first. A command is an argument list, an argument list
#: and the text its standard input reads (``{classic}``: the classic block board's file), or
#: the name of a function here that calls the API (what the command line cannot say).
FIRST = [
    ("8-puzzle IDA*", [[*_8, "--method", "idastar"]]),
    ("every optimal solution", [[*_8, "--method", "iddfs", "--all"],
                                [*_8, "--method", "idastar", "--all"]]),
    ("8-puzzle breadth-first and bidirectional", [
        ["layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0"],
        [*_8, "--method", "bfs"], [*_8, "--method", "bidir"]]),
    ("the first lesson's depth-first searches", [
        [*_8, "--method", "iddfs", "--prune", "parent"],
        [*_8, "--method", "idastar", "--heuristic", "manhattan", "--prune", "parent"],
        "_lesson_databases"]),
    ("pancakes and TopSpin", [
        ["solve", "--puzzle", "pancake", "--start", "3 1 5 2 8 6 4 7", "--method", "idastar",
         "--heuristic", "gap"],
        ["solve", "--puzzle", "topspin", "--size", "12,4", "--start",
         "4 3 2 1 5 6 7 8 9 10 11 12"]]),
    ("Pocket Cube", [["layers", "--puzzle", "pocket-cube", "--metric", "qtm"]]),
    ("A* on the 8- and 15-puzzles", [
        [*_8, "--method", "astar"],
        ["solve", "--size", "4x4", "--start", _FIFTEEN, "--method", "astar"]]),
    ("block puzzles", [["blocks", "layers", "--board", "{classic}", "--metric", "unit"],
                       ["blocks", "solve", "--board", "{classic}", "--metric", "unit"]]),
    ("Rotation Puzzle", [
        ["solve", "--puzzle", "rotation", "--size", "3x3", "--start", _ROTATION],
        (["rotation"], "3 3\n9 4 3\n2 1 8\n7 6 5\n")]),
    ("repeated labels", [["layers", "--size", "4x4", "--start",
                          "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0"]]),
]

#: What ``warm --all`` adds: every other method, table and puzzle once.
REST = [
    ("8-puzzle other heuristics", [[*_8, "--heuristic", "linear-conflict"],
                                   [*_8, "--method", "greedy"]]),
    ("15-puzzle pattern databases", [
        ["solve", "--size", "4x4", "--start", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
         "--heuristic", "pdb555"]]),
    ("packed tables", [["layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--table",
                        "packed"]]),
    ("small tables", [["layers", "--size", "2x3", "--start", "1 1 2 2 3 0"],
                      ["layers", "--puzzle", "pancake", "--size", "6"]]),
    ("Rotation Puzzle BFS", [["solve", "--puzzle", "rotation", "--size", "3x3", "--start",
                              _ROTATION, "--method", "bfs"]]),
    ("TopSpin small", [["solve", "--puzzle", "topspin", "--size", "8,4", "--start",
                        "4 3 2 1 5 6 7 8"]]),
]


def _lesson_databases():
    """Notebook 00's IDA* with its own two pattern databases of the 8-puzzle."""
    from .api import solve
    from .domains import SlidingPuzzle

    solve(SlidingPuzzle("3x3"), _EIGHT, method="idastar", pdb=[[1, 2, 3, 4], [5, 6, 7, 8]],
          reflect=False, prune="parent", progress=False)


def groups(every=False):
    """The groups ``warm`` runs (``every``: ``warm --all``)."""
    return FIRST + REST if every else list(FIRST)


def commands_of(group):
    """A group's commands as ``(argv, stdin text or None)``."""
    return [(c[0], c[1]) if isinstance(c[0], list) else (c, None) for c in group[1]]


def commands(every=False):
    """Every command of :func:`groups`, as ``(argv, stdin text or None)``."""
    return [c for g in groups(every) for c in commands_of(g)]


def _run_group(main, group, classic):
    """Run ``group``'s commands in this process with ``main`` (the command line's), their output
    dropped: ``None``, or the first failing command's status and its last line of error."""
    for argv, stdin in commands_of(group):
        if isinstance(argv, str):
            try:
                with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                    globals()[argv]()
            except Exception as e:  # (reported in one line, as a command's error)
                return 1, f"{argv}: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
            continue
        argv = [str(classic) if a == "{classic}" else a for a in argv]
        said = io.StringIO()
        old_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin or "")
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(said):
                status = main([*argv, "--json"])
        finally:
            sys.stdin = old_stdin
        if status != 0:
            why = (said.getvalue().strip().splitlines() or [f"exit status {status}"])[-1]
            return status, f"{' '.join(argv)}: {why.removeprefix('puzzlelib: error: ')}"
    return None


def _classic_file(folder):
    from .domains.blocks import CLASSIC

    path = Path(folder) / "classic_4x5.txt"
    path.write_text(CLASSIC + "\n")
    return path


def serve(main):
    """A compiling process (``warm --serve``): reads a group per line on stdin (its JSON), runs
    it, and answers one JSON line on stdout (``{"seconds": s}``, with ``"status"`` and
    ``"error"`` when a command failed), until stdin ends."""
    out = sys.stdout
    try:
        with tempfile.TemporaryDirectory(prefix="puzzlelib-warm-") as tmp:
            classic = _classic_file(tmp)
            for line in sys.stdin:
                t0 = time.perf_counter()
                failed = _run_group(main, json.loads(line), classic)
                answer = {"seconds": round(time.perf_counter() - t0, 2)}
                if failed:
                    answer["status"], answer["error"] = failed
                out.write(json.dumps(answer) + "\n")
                out.flush()
    except KeyboardInterrupt:  # (the terminal's Ctrl-C reaches every process: the parent says it)
        return 130
    return 0


def warm(main, jobs=None, every=False, quiet=False):
    """Run :func:`groups` with ``main`` (the command line's) in ``jobs`` processes (``None``:
    the cores; 1: this one); returns the exit status (0; a failing command's, with one line on
    stderr; Ctrl-C raises ``KeyboardInterrupt``)."""
    from tqdm import tqdm

    from .core.numbers import cores

    todo = groups(every)
    jobs = max(1, min(jobs or cores(), len(todo)))
    what = "every command's kernels" if every else "the first answers' kernels"
    t0 = time.perf_counter()
    bar = tqdm(total=len(todo), desc="compiling", unit="group", disable=quiet, file=sys.stderr)
    failed, done = None, 0
    try:
        if jobs == 1:
            with tempfile.TemporaryDirectory(prefix="puzzlelib-warm-") as tmp:
                classic = _classic_file(tmp)
                for group in todo:
                    bar.set_postfix_str(group[0])
                    failed = _run_group(main, group, classic)
                    if failed:
                        break
                    done += 1
                    bar.update()
        else:
            for answer in _in_processes(todo, jobs):
                if answer.get("status"):
                    failed = answer["status"], answer["error"]
                    break
                done += 1
                bar.update()
                bar.set_postfix_str(todo[answer["group"]][0])
    except KeyboardInterrupt:
        bar.close()
        raise KeyboardInterrupt(f"interrupted: warm ran {done} of {len(todo)} groups "
                                f"({time.perf_counter() - t0:.0f} s)") from None
    bar.close()
    if failed:
        sys.stderr.write(f"puzzlelib: error: warm: {failed[1]}\n")
        return failed[0]
    if not quiet:
        sys.stderr.write(f"compiled or loaded {what} ({len(todo)} groups, {jobs} "
                         f"process{'es' if jobs > 1 else ''}) in "
                         f"{time.perf_counter() - t0:.0f} s\n")
    return 0


def _in_processes(todo, jobs):
    """Yield each group's answer (with its index, ``"group"``) as the ``jobs`` compiling
    processes finish them."""
    argv = [sys.executable, "-m", "puzzlelib", "warm", "--serve"]
    procs = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)
             for _ in range(jobs)]
    waiting = queue.Queue()
    for i in range(len(todo)):
        waiting.put(i)
    answers = queue.Queue()

    def feed(proc):
        # one thread per process: hand it the next group, wait for its answer
        try:
            while True:
                try:
                    i = waiting.get_nowait()
                except queue.Empty:
                    break
                proc.stdin.write(json.dumps(todo[i]) + "\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
                if not line:
                    code = proc.wait()
                    answers.put({"group": i, "status": 1 if code >= 0 else 2,
                                 "error": f"{todo[i][0]}: the compiling process ended "
                                          f"(exit status {code})"})
                    return
                answers.put(dict(json.loads(line), group=i))
            proc.stdin.close()
        except (OSError, ValueError):  # (the process was stopped: the parent is ending)
            pass

    threads = [threading.Thread(target=feed, args=(p,), daemon=True) for p in procs]
    for t in threads:
        t.start()
    try:
        for _ in range(len(todo)):
            answer = answers.get()
            yield answer
            if answer.get("status"):
                return
        for p in procs:
            p.wait()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
