"""Command line: ``python -m puzzlelib solve|layers|rotation|blocks|warm ...``.

``solve`` and ``layers`` take any puzzle (``--puzzle sliding``, the default, ``rotation``,
``blocks``, ``pancake``, ``topspin`` or ``pocket-cube``); ``rotation`` (the contest's input on stdin) and ``blocks solve|layers|pdb`` are
the forms of earlier versions, kept with the same output. Bad input exits with status 2 and
one line on stderr (``puzzlelib: error: ...``); a search stopped at a limit exits with status
3. With ``--json`` the result is one JSON object on stdout, with the search's ``stats``
(generated, expanded, stored, memory_bytes, seconds, compile_seconds) beside the fields of
earlier versions. ``warm`` runs a small case of every command once, so that their kernels are
compiled into numba's cache before a first real call (setup, with a bar).
"""

import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from .api import layers, solve
from .core.errors import PuzzleError, SearchLimitError
from .domains import (METHODS, PUZZLES, BlockPuzzle, PancakePuzzle, PocketCube, RotationPuzzle,
                      SlidingPuzzle, TopSpin)
from .domains.blocks import METRICS
from .domains.cube import METRICS as CUBE_METRICS
from .domains.rotation import parse_contest_input
from .exercises import command as check_command
from .pdb import databases as pattern_databases
from .pdb.sliding import PARTITIONS
from .tuning import tune

#: The contest's limit: answers above it are reported as -1.
ROTATION_MAX_OPS = RotationPuzzle.default_max_depth
ROTATION_METHODS = ("bidir", "bfs")


_EXPLAIN = ("print the plan (kernel, table, heuristic, threads, memory, backend, and why) and "
            "exit without searching; with --json: {\"plan\": {...}}")


def _explained(plan):
    """What a command prints for ``--explain``: the plan, not searched."""
    return {"plan": plan.to_dict()}, lambda: print(plan)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, as for every other bad input
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)


def _parser():
    p = _Parser(prog="puzzlelib", description="State-space search on combinatorial puzzles.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    puzzles = ", ".join(PUZZLES)

    s = sub.add_parser("solve", help="solve a puzzle (sliding tiles unless --puzzle says)")
    s.add_argument("--puzzle", default="sliding", choices=tuple(PUZZLES),
                   help=f"which puzzle: {puzzles} (default sliding)")
    s.add_argument("--size", default=None,
                   help="ROWSxCOLS (sliding: sides 2..6, at most 25 cells, default 3x3; "
                        "rotation: HxW, 3..8; blocks: read from the board); pancake: N; "
                        "topspin: N,K")
    s.add_argument("--start", default=None,
                   help='the start: labels row by row, 0 = blank, e.g. "8 6 7 2 5 4 3 0 1" '
                        '(rotation: the numbers row by row; blocks: rows joined by "/"; '
                        'pancake: sizes from the top; topspin: tokens from place 0; '
                        'pocket-cube: a scramble such as "R U F2" or "corners | twists")')
    s.add_argument("--board", help="blocks: a board file ('-' reads stdin), instead of --start")
    s.add_argument("--goal", help="goal board (sliding; default: 1..n-1 then the blank), or "
                                  "ROW,COL of the 2x2 piece (blocks)")
    s.add_argument("--metric", choices=METRICS + CUBE_METRICS, default=None,
                   help="blocks: move metric (default straight); pocket-cube: htm (default) "
                        "or qtm")
    s.add_argument("--method", default=None, choices=METHODS,
                   help="default: the puzzle's own (sliding idastar, rotation bidir, blocks bfs)")
    s.add_argument("--all", action="store_true", help="count every optimal solution (iddfs, idastar)")
    s.add_argument("--heuristic", default=None,
                   help="for idastar/astar/greedy. sliding: manhattan (default), linear-conflict, "
                        "or additive pattern databases: pdb555, pdb663, pdb78 (4x4), pdb6666 (5x5) "
                        "(built on first use, pdb78 and pdb6666 in minutes, and cached on "
                        "disk); blocks: "
                        "pattern databases such as 36-0-0-f (several, comma-separated: the "
                        "maximum); pancake: gap (default); pancake, topspin, pocket-cube: "
                        "pdb (pattern databases over groups of pieces, or pdb:1,2,3/4,5,6)")
    s.add_argument("--prune", default=None, choices=("cycles", "parent"),
                   help="iddfs/idastar: skip every string of moves a smaller one replaces "
                        "(cycles: sliding tiles' default, far fewer nodes) or only the move "
                        "back (parent: the classic search of published tables, whose counts "
                        "also depend on the order moves are tried in)")
    s.add_argument("--order", default=None,
                   help="sliding iddfs/idastar, one thread: the order the blank's moves are "
                        "tried in (default udlr; ulrd with --prune parent gives Korf's "
                        "published counts)")
    s.add_argument("--no-reflect", action="store_true",
                   help="pattern databases: skip the lookup mirrored in the main diagonal")
    s.add_argument("--max-states", type=int, default=None,
                   help="cap on stored states (bfs, bidir, astar, greedy)")
    s.add_argument("--max-depth", type=int, default=None,
                   help="the most moves searched for (deepening, bidir; rotation default 20)")
    s.add_argument("--threads", type=int, default=0,
                   help="threads (default 0 = all cores; 1 repeats node counts exactly)")
    s.add_argument("--progress", action="store_true",
                   help="show progress on stderr (layers for bfs, bounds for iddfs/idastar)")
    s.add_argument("--backend", default="cpu", choices=("cpu", "cuda"),
                   help="where pattern databases not cached yet are built: this machine's "
                        "cores (default) or an NVIDIA GPU (sliding tiles; the cuda extra)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--explain", action="store_true", help=_EXPLAIN)

    l = sub.add_parser("layers", help="count positions at each depth from a start (full BFS)")
    l.add_argument("--puzzle", default="sliding", choices=tuple(PUZZLES),
                   help=f"which puzzle: {puzzles} (default sliding)")
    l.add_argument("--size", default=None)
    l.add_argument("--start", default=None)
    l.add_argument("--board", help="blocks: a board file ('-' reads stdin), instead of --start")
    l.add_argument("--metric", choices=METRICS + CUBE_METRICS, default=None,
                   help="blocks: move metric (default straight); pocket-cube: htm (default) "
                        "or qtm")
    l.add_argument("--max-depth", type=int, default=None, help="stop after this many layers")
    l.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    l.add_argument("--threads", type=int, default=0, help="threads (default 0 = all cores)")
    l.add_argument("--hash", default="perfect", choices=("perfect", "sparse"),
                   help="sliding: minimal perfect hash (default) or a sparse direct index")
    l.add_argument("--table", default="auto", choices=("auto", "bytes", "packed"),
                   help="distance table: one byte a position, packed (3 bits), or auto "
                        "(bytes when they fit; default)")
    l.add_argument("--checkpoint", default=None, metavar="FOLDER",
                   help="packed tables: save every layer in FOLDER as it is made (about 7 bits "
                        "a position in all; the disk is checked first) and resume from the "
                        "layers there ('none': never; default: a folder in the cache for "
                        "tables of 2**30 positions or more)")
    l.add_argument("--dask", type=int, default=None, metavar="N",
                   help="split the table among N Dask workers started on this machine")
    l.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="split the table among the workers of the Dask cluster at ADDRESS")
    l.add_argument("--backend", default="cpu", choices=("cpu", "cuda"),
                   help="where the table is made: this machine's cores (default) or an NVIDIA "
                        "GPU (needs the cuda extra)")
    l.add_argument("--json", action="store_true")
    l.add_argument("--explain", action="store_true", help=_EXPLAIN)

    r = sub.add_parser(
        "rotation",
        help="Rotation Puzzle (AtCoder ABC336 F): read 'H W' and H rows from stdin, print the "
             "fewest operations (-1 if more than 20)",
    )
    r.add_argument("--method", default="bidir", choices=ROTATION_METHODS)
    r.add_argument("--max-ops", type=int, default=ROTATION_MAX_OPS,
                   help=f"answer -1 beyond this many operations (default {ROTATION_MAX_OPS})")
    r.add_argument("--json", action="store_true",
                   help="print one JSON object (length, operations, per-side counts, seconds)")
    b = sub.add_parser("blocks", help="Hakoiri-musume type block puzzles (solve, layers, pdb)")
    bsub = b.add_subparsers(dest="blocks_command", required=True, parser_class=_Parser)
    common = {
        "--board": dict(required=True, help="a text file: one line per row, a letter per piece, "
                                            "'.' for empty ('-' reads stdin)"),
        "--metric": dict(default="straight", choices=METRICS,
                         help="one piece one cell / any distance in a line / any path (default "
                              "straight)"),
    }
    bs = bsub.add_parser("solve", help="an optimal solution")
    bl = bsub.add_parser("layers", help="positions per depth from the board (frontier search)")
    bp = bsub.add_parser("pdb", help="build (or load) a pattern database, e.g. 16-10-0-l")
    for q in (bs, bl, bp):
        for flag, kw in common.items():
            q.add_argument(flag, **kw)
        q.add_argument("--progress", action="store_true", help="show progress on stderr")
        q.add_argument("--json", action="store_true", help="print one JSON object")
    for q in (bs, bp):
        q.add_argument("--goal", help="ROW,COL of the 2x2 piece's top-left cell at the goal "
                                      "(default: bottom rows, centred; needed on odd widths)")
    for q in (bs, bl):
        q.add_argument("--explain", action="store_true", help=_EXPLAIN)
    bs.add_argument("--method", default="bfs", choices=BlockPuzzle.methods[:4])
    bs.add_argument("--pdb", help="pattern database(s) for astar/idastar, e.g. 36-0-0-f or "
                                  "30-0-3-f,30-3-0-f (the maximum is used)")
    bs.add_argument("--max-states", type=int, default=None, help="cap on stored states")
    bs.add_argument("--transpositions", type=int, default=None,
                    help="idastar: most positions its transposition table records in a pass "
                         "(0: plain IDA*, no table)")
    bp.add_argument("--name", required=True,
                    help="ONES-H-V-MAP, map f, l, c or b; several, comma-separated (e.g. "
                         "16-10-0-l,16-10-0-c,16-10-0-b): those relaxing the board alike are "
                         "built by one search, and --json prints {\"pdbs\": [...]}")
    w = sub.add_parser("warm", help="compile every command's kernels once, into numba's cache "
                                    "(a few minutes, with a bar): the commands' first calls "
                                    "then load them in about a second")
    w.add_argument("--quiet", action="store_true", help="no bar")
    c = sub.add_parser("check", help="grade the exercises (bfs, astar, heuristic, rank, ...) "
                                     "written in FILE.py (puzzlelib.exercises)")
    c.add_argument("file", help="a .py file defining some of the exercises' functions")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("--time-limit", type=float, default=None, help="seconds per exercise")
    return p


_EIGHT = "8 6 7 2 5 4 3 0 1"
#: What ``warm`` runs: small cases of every command, each compiling (or loading) the kernels the
#: command needs at any size (a kernel is compiled once per kind of puzzle and method).
WARM = [
    ["layers", "--size", "3x3", "--start", "1 2 3 4 5 6 7 8 0"],
    ["layers", "--size", "2x3", "--start", "1 1 2 2 3 0"],
    ["layers", "--size", "2x3", "--start", "1 2 3 4 5 0", "--table", "packed"],
    *[["solve", "--size", "3x3", "--start", _EIGHT, "--method", m]
      for m in ("bfs", "bidir", "iddfs", "idastar", "astar", "greedy")],
    ["solve", "--size", "3x3", "--start", _EIGHT, "--method", "iddfs", "--all"],
    ["solve", "--size", "3x3", "--start", _EIGHT, "--method", "idastar", "--all"],
    ["solve", "--size", "3x3", "--start", _EIGHT, "--heuristic", "linear-conflict"],
    ["solve", "--size", "4x4", "--start", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
     "--heuristic", "pdb555"],
    ["solve", "--puzzle", "rotation", "--size", "3x3", "--start", "9 8 7 6 5 4 3 2 1"],
    ["solve", "--puzzle", "rotation", "--size", "3x3", "--start", "9 8 7 6 5 4 3 2 1",
     "--method", "bfs"],
    ["blocks", "layers", "--board", "{classic}", "--metric", "unit"],
    ["blocks", "solve", "--board", "{classic}", "--metric", "unit"],
    ["layers", "--puzzle", "pancake", "--size", "6"],
    ["solve", "--puzzle", "pancake", "--start", "3 1 5 2 6 4", "--method", "idastar"],
    ["solve", "--puzzle", "topspin", "--size", "8,4", "--start", "4 3 2 1 5 6 7 8"],
    ["layers", "--puzzle", "pocket-cube", "--metric", "qtm"],
]


def _warm(args):
    """Run :data:`WARM` in this process, its output dropped; returns the exit status."""
    import io
    import tempfile
    import time
    from contextlib import redirect_stderr, redirect_stdout

    from tqdm import tqdm

    from .domains.blocks import CLASSIC

    t0 = time.perf_counter()
    bar = tqdm(WARM, desc="compiling", unit="command", disable=args.quiet, file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="puzzlelib-warm-") as tmp:
        classic = Path(tmp) / "classic_4x5.txt"
        classic.write_text(CLASSIC + "\n")
        for argv in bar:
            argv = [str(classic) if a == "{classic}" else a for a in argv]
            bar.set_postfix_str(" ".join(argv[:4]))
            said = io.StringIO()
            with redirect_stdout(io.StringIO()), redirect_stderr(said):
                status = main([*argv, "--json"])
            if status != 0:
                why = (said.getvalue().strip().splitlines() or [f"exit status {status}"])[-1]
                sys.stderr.write(f"puzzlelib: error: warm: {' '.join(argv)}: {why}\n")
                return status
    bar.close()
    if not args.quiet:
        sys.stderr.write(f"compiled or loaded every command's kernels in "
                         f"{time.perf_counter() - t0:.0f} s\n")
    return 0


# ---------------------------------------------------------------------------------------------
# the fields of earlier versions' JSON, from a Result
# ---------------------------------------------------------------------------------------------


def _nodes(res):
    """What earlier versions printed as ``nodes``: the positions stored by the breadth-first
    and best-first searches, the nodes generated by depth-first ones, the nodes expanded by a
    block puzzle's A*."""
    if res.method in ("iddfs", "idastar"):
        return res.stats.generated
    if res.method in ("astar", "greedy") and res.puzzle.name == "blocks":
        return res.stats.expanded
    return res.stats.stored


def _sliding_solution(res):
    d = {"size": res.puzzle.size, "method": res.method, "start": res.start,
         "goal": [int(x) for x in res.puzzle.goal], "length": res.length,
         "moves": res.moves or "", "nodes": _nodes(res), "seconds": res.stats.seconds,
         "compile_seconds": res.stats.compile_seconds}
    if res.solutions is not None:
        d["solutions"] = res.solutions
    e = dict(res.extra)
    if res.method == "bfs":
        d["counts"] = res.counts
    elif res.method == "bidir":
        d.update(forward_counts=e.pop("forward_counts"), backward_counts=e.pop("backward_counts"),
                 memory_bytes=res.stats.memory_bytes)
    elif res.method in ("iddfs", "idastar"):
        d.update(iterations=e.pop("iterations"), threads=res.threads,
                 initial_bound=e.pop("initial_bound"))
    else:
        d.update(expanded=res.stats.expanded, memory_bytes=res.stats.memory_bytes)
    d.update(e)
    return d


def _block_solution(res):
    puz = res.puzzle
    d = {"size": puz.size, "metric": puz.metric, "method": res.method, "goal": list(puz.goal),
         "start": res.start, "length": res.length, "moves": res.moves or [],
         "nodes": _nodes(res), "seconds": res.stats.seconds,
         "compile_seconds": res.stats.compile_seconds}
    e = dict(res.extra)
    e.pop("heuristic", None)
    if res.method == "bfs":
        d.update(counts=res.counts, memory_bytes=res.stats.memory_bytes)
    elif res.method in ("astar", "greedy"):
        d.update(stored=res.stats.stored, memory_bytes=res.stats.memory_bytes)
    else:
        e.pop("initial_bound", None)
    d.update(e)
    return d


def _rotation(res, max_ops):
    puz = res.puzzle
    return {"rows": puz.rows, "cols": puz.cols, "grid": res.start, "method": res.method,
            "max_ops": max_ops, "length": res.length, "operations": res.moves or [],
            "forward_counts": res.extra.get("forward_counts", res.counts),
            "backward_counts": res.extra.get("backward_counts", [1]), "states": res.stats.stored,
            "memory_bytes": res.stats.memory_bytes, "seconds": res.stats.seconds,
            "compile_seconds": res.stats.compile_seconds}


def _sliding_layers(res):
    return {"size": res.puzzle.size, "start": res.start, "counts": res.counts, "total": res.total,
            "max_depth": res.max_depth, "farthest": res.farthest, "n_farthest": res.n_farthest,
            "seconds": res.stats.seconds, "compile_seconds": res.stats.compile_seconds,
            "threads": res.threads, "hash": res.extra["hash"],
            "table": res.extra.get("table"),
            "table_bytes": int(res.table.nbytes) if res.table is not None else 0}


def _block_layers(res):
    return {"size": res.puzzle.size, "metric": res.puzzle.metric, "counts": res.counts,
            "total": res.total, "max_depth": res.max_depth, "farthest": res.farthest,
            "n_farthest": res.n_farthest, "seconds": res.stats.seconds,
            "compile_seconds": res.stats.compile_seconds, "memory_bytes": res.stats.memory_bytes}


def _permutation_solution(res):
    d = res.puzzle.describe()
    d.update(method=res.method, start=res.start, length=res.length, moves=res.moves or [],
             nodes=_nodes(res), seconds=res.stats.seconds,
             compile_seconds=res.stats.compile_seconds, threads=res.threads)
    if res.solutions is not None:
        d["solutions"] = res.solutions
    if res.counts is not None:
        d["counts"] = res.counts
    d.update(res.extra)
    return d


def _permutation_layers(res):
    d = res.puzzle.describe()
    d.update(start=res.start, counts=res.counts, total=res.total, max_depth=res.max_depth,
             farthest=res.farthest, n_farthest=res.n_farthest, seconds=res.stats.seconds,
             compile_seconds=res.stats.compile_seconds, threads=res.threads,
             table_bytes=int(res.table.nbytes) if res.table is not None else 0)
    d.update(res.extra)
    return d


def _with_stats(d, res):
    for key in ("backend", "device"):  # (a search on the GPU says so, and names it)
        if key in res.extra:
            d[key] = res.extra[key]
    d["puzzle"] = res.puzzle.name
    d["status"] = res.status
    d["stats"] = res.stats.to_dict()
    return d


def _as_json(res, legacy):
    return _with_stats(legacy(res), res)


# ---------------------------------------------------------------------------------------------
# plain output
# ---------------------------------------------------------------------------------------------


def _print_solution(res):
    print(f"{res.method}: {res.length} moves" if res.length >= 0 else f"{res.method}: no solution")
    if res.length > 0:
        if res.puzzle.name == "sliding":
            print(f"blank moves: {res.moves}")
            print(f"tiles moved: {' '.join(map(str, res.puzzle.tiles_moved(res.start, res.moves)))}")
        else:
            print(f"moves: {json.dumps(res.moves)}")
    if res.solutions is not None:
        print(f"optimal solutions: {res.solutions}")
    print(f"nodes: {_nodes(res):,}")
    print(f"search: {res.stats.seconds:.4f} s (compile {res.stats.compile_seconds:.2f} s)")


def _print_counts(res):
    print("depth  positions")
    for d, c in enumerate(res.counts):
        print(f"{d:5d}  {c:,}")


def _print_layers(res):
    _print_counts(res)
    print(f"total: {res.total:,}; greatest depth {res.max_depth}, {res.n_farthest} position(s):")
    for b in res.farthest[:20]:
        print("  " + (" ".join(map(str, b)) if isinstance(b, list) else b.replace("\n", "/")))
    if res.n_farthest > 20:
        print(f"  ... and {res.n_farthest - 20} more")
    print(f"search: {res.stats.seconds:.4f} s (compile {res.stats.compile_seconds:.2f} s)")


def _print_block_solution(res):
    print(f"{res.method} ({res.puzzle.metric} metric): {res.length} moves" if res.length >= 0
          else f"{res.method}: no solution")
    for (r, c), (r1, c1) in res.moves or []:
        print(f"  ({r},{c}) -> ({r1},{c1})")
    print(f"nodes: {_nodes(res):,}")
    print(f"search: {res.stats.seconds:.4f} s (compile {res.stats.compile_seconds:.2f} s)")


def _print_block_layers(res):
    _print_counts(res)
    print(f"total: {res.total:,}; greatest depth {res.max_depth}, {res.n_farthest} position(s)")
    for b in res.farthest[:3]:
        print(b + "\n")
    print(f"search: {res.stats.seconds:.4f} s (compile {res.stats.compile_seconds:.2f} s)")


class _PdbResult:
    def __init__(self, dbs):
        self.dbs = dbs

    @staticmethod
    def _one(db):
        return {"name": db.name, "patterns": db.patterns, "seconds": db.build_seconds,
                "states": db.states, "max_value": db.max_value, "source": db.source,
                "metric": db.metric, "goal": list(db.goal), "stats": db.stats.to_dict()}

    def to_dict(self):
        if len(self.dbs) == 1:
            return self._one(self.dbs[0])
        return {"pdbs": [self._one(db) for db in self.dbs]}


def _print_pdb(res):
    for db in res.dbs:
        print(f"PDB {db.name}: {db.patterns:,} patterns from {db.states:,} relaxed positions, "
              f"largest value {db.max_value}, built in {db.build_seconds:.2f} s ({db.source})")


# ---------------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------------


def _read_board(path):
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise PuzzleError(f"cannot read board file {path!r}: {e.strerror}") from None


def _threads(n):
    return None if n == 0 else n


def _metric(args):
    """``--metric``, checked against the puzzle (None where it has no metric)."""
    if args.puzzle == "blocks":
        if args.metric not in (None,) + METRICS:
            raise PuzzleError(f"--metric {args.metric} is not a block-puzzle metric: use "
                              f"{', '.join(METRICS)}")
        return args.metric or "straight"
    if args.puzzle == "pocket-cube":
        if args.metric not in (None,) + CUBE_METRICS:
            raise PuzzleError(f"--metric {args.metric} is not a pocket-cube metric: use htm or "
                              f"qtm")
        return args.metric or "htm"
    if args.metric in CUBE_METRICS or (args.metric is not None
                                       and args.puzzle not in ("sliding", "rotation")):
        # (earlier versions let a block metric pass with sliding tiles and the rotation puzzle)
        raise PuzzleError(f"--metric applies to block puzzles and the pocket cube, not the "
                          f"{args.puzzle} puzzle")
    return None


def _needs_size(args, form):
    if args.size is None:
        raise PuzzleError(f"the {args.puzzle} puzzle needs --size {form}")
    return args.size


def _puzzle(args, start, for_layers=False):
    """The puzzle ``--puzzle`` names, from the other options."""
    metric = _metric(args)
    if args.puzzle not in ("sliding", "blocks") and getattr(args, "goal", None) is not None:
        raise PuzzleError(f"--goal applies to sliding tiles and block puzzles; the "
                          f"{args.puzzle} puzzle has its own")
    if args.puzzle not in ("sliding", "blocks") and args.board is not None:
        raise PuzzleError("--board is for block puzzles")
    if args.puzzle == "pancake":
        if args.size is None and start is not None:  # the stack tells its size
            n = len(start.replace(",", " ").split())
            return PancakePuzzle(n if n >= 2 else start)
        return PancakePuzzle(_needs_size(args, "N (the number of pancakes)"))
    if args.puzzle == "topspin":
        return TopSpin(_needs_size(args, "N,K (tokens, turnstile)"))
    if args.puzzle == "pocket-cube":
        if args.size not in (None, "2x2x2"):
            raise PuzzleError(f"the pocket cube is 2x2x2, not {args.size}")
        return PocketCube(metric)
    if args.puzzle == "sliding":
        if args.board is not None:
            raise PuzzleError("--board is for block puzzles; give sliding tiles with --start")
        return SlidingPuzzle(args.size or "3x3", goal=None if for_layers else args.goal,
                             hash=getattr(args, "hash", "perfect"))
    if args.puzzle == "rotation":
        if args.size is None:
            raise PuzzleError("the rotation puzzle needs --size HxW")
        return RotationPuzzle(args.size)
    return BlockPuzzle(start, metric=metric,
                       goal=False if for_layers else getattr(args, "goal", None))


def _start(args, for_layers=False):
    if for_layers and args.puzzle in ("pancake", "topspin", "pocket-cube") \
            and args.start is None:
        return None  # from the goal
    if args.puzzle == "blocks":
        if (args.board is None) == (args.start is None):
            raise PuzzleError("give the block puzzle's start with --board FILE or --start "
                              "(rows joined by '/')")
        return _read_board(args.board) if args.board is not None else args.start.replace("/", "\n")
    if args.start is None:
        raise PuzzleError("the following arguments are required: --start")
    return args.start


def _solve(args):
    start = _start(args)
    puzzle = _puzzle(args, start)
    heuristic, reflect = args.heuristic, (False if args.no_reflect else None)
    if heuristic == "manhattan" and args.method in ("bfs", "bidir", "iddfs"):
        heuristic = None  # (earlier versions took the default heuristic with any method)
    if reflect is not None and args.puzzle != "sliding":
        raise PuzzleError("--no-reflect applies to sliding tiles' pattern databases")
    if reflect is not None and heuristic not in PARTITIONS:
        reflect = None  # (earlier versions let it pass with any heuristic)
    kw = {k: v for k, v in (("max_states", args.max_states), ("max_depth", args.max_depth))
          if v is not None}
    res = solve(puzzle, start, method=args.method, heuristic=heuristic, reflect=reflect,
                all_solutions=args.all, progress=True if args.progress else None,
                threads=_threads(args.threads), backend=args.backend, prune=args.prune,
                order=args.order, explain=args.explain, **kw)
    if args.explain:
        return _explained(res)
    if args.puzzle == "sliding" and res.length < 0:
        # earlier versions stopped here with status 3: no solution within the bound
        raise SearchLimitError(f"{res.method} found no solution ({res.status})")
    legacy = {"sliding": _sliding_solution, "blocks": _block_solution,
              "rotation": lambda r: _rotation(
                  r, ROTATION_MAX_OPS if args.max_depth is None else args.max_depth)}.get(
        args.puzzle, _permutation_solution)
    show = _print_block_solution if args.puzzle == "blocks" else _print_solution
    return _as_json(res, legacy), lambda: show(res)


@contextmanager
def _dask_client(args):
    """The Dask client ``--dask N`` (a LocalCluster of N one-thread workers) or ``--scheduler
    ADDRESS`` asks for, closed afterwards; None without either."""
    if args.dask is None and args.scheduler is None:
        yield None
        return
    if args.dask is not None and args.scheduler is not None:
        raise PuzzleError("give --dask N or --scheduler ADDRESS, not both")
    if args.dask is not None and args.dask < 1:
        raise PuzzleError(f"--dask needs at least 1 worker, not {args.dask}")
    import logging

    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    if args.scheduler is not None:
        try:
            client = Client(args.scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise PuzzleError(f"cannot reach the Dask scheduler at {args.scheduler}: "
                              f"{str(e).splitlines()[0] if str(e) else type(e).__name__}")
        with client:
            yield client
        return
    with LocalCluster(n_workers=args.dask, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        yield client


def _layers(args):
    start = _start(args, for_layers=True)
    puzzle = _puzzle(args, start, for_layers=True)
    if args.hash != "perfect" and args.puzzle != "sliding":
        raise PuzzleError("--hash applies to sliding tiles")
    checkpoint = {None: None, "none": False}.get(args.checkpoint, args.checkpoint)
    with _dask_client(args) as client:
        res = layers(puzzle, start, progress=True if args.progress else None,
                     threads=_threads(args.threads), max_depth=args.max_depth,
                     table=args.table, checkpoint=checkpoint, client=client,
                     backend=args.backend, explain=args.explain)
    if args.explain:
        return _explained(res)
    legacy = {"sliding": _sliding_layers, "blocks": _block_layers,
              "rotation": _rotation_layers}.get(args.puzzle, _permutation_layers)
    return _as_json(res, legacy), lambda: _print_layers(res)


def _rotation_layers(res):
    return {"size": res.puzzle.size, "start": res.start, "counts": res.counts,
            "total": res.total, "max_depth": res.max_depth, "farthest": res.farthest,
            "n_farthest": res.n_farthest, "seconds": res.stats.seconds,
            "compile_seconds": res.stats.compile_seconds}


def _rotation_command(args):
    rows, cols, values = parse_contest_input(sys.stdin.read())
    if args.max_ops < 0:
        raise PuzzleError(f"max_ops must be at least 0, not {args.max_ops}")
    res = solve(RotationPuzzle(rows, cols), values, method=args.method, max_depth=args.max_ops)
    return _as_json(res, lambda r: _rotation(r, args.max_ops)), lambda: print(res.length)


def _blocks(args):
    board = _read_board(args.board)
    progress = True if args.progress else None
    if args.blocks_command == "solve":
        kw = {} if args.max_states is None else {"max_states": args.max_states}
        if args.transpositions is not None:
            kw["transpositions"] = args.transpositions
        puzzle = BlockPuzzle(board, metric=args.metric, goal=args.goal)
        if args.pdb and args.method == "bfs":
            raise PuzzleError("a pattern database guides A* or IDA*, not breadth-first search")
        res = solve(puzzle, board, method=args.method, heuristic=args.pdb or None,
                    progress=progress, explain=args.explain, **kw)
        if args.explain:
            return _explained(res)
        return _as_json(res, _block_solution), lambda: _print_block_solution(res)
    if args.blocks_command == "layers":
        puzzle = BlockPuzzle(board, metric=args.metric, goal=False)
        res = layers(puzzle, board, progress=progress, explain=args.explain)
        if args.explain:
            return _explained(res)
        return _as_json(res, _block_layers), lambda: _print_block_layers(res)
    names = [nm.strip() for nm in args.name.split(",") if nm.strip()]
    if not names:
        raise PuzzleError("--name gives no PDB name")
    puzzle = BlockPuzzle(board, metric=args.metric, goal=args.goal)
    out = _PdbResult(pattern_databases(puzzle, names, progress=progress))
    return out.to_dict(), lambda: _print_pdb(out)


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "check":
        return check_command(args.file, args.json, args.time_limit)
    tune()  # a command runs searches: keep freed memory, start the threads (puzzlelib.tuning)
    if args.command == "warm":
        return _warm(args)
    try:
        if args.command == "solve":
            data, show = _solve(args)
        elif args.command == "layers":
            data, show = _layers(args)
        elif args.command == "blocks":
            data, show = _blocks(args)
        else:
            data, show = _rotation_command(args)
    except SearchLimitError as e:
        sys.stderr.write(f"puzzlelib: stopped: {e}\n")
        return 3
    except PuzzleError as e:
        sys.stderr.write(f"puzzlelib: error: {e}\n")
        return 2
    try:
        if args.json:
            print(json.dumps(data))
        else:
            show()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more to flush at exit
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
