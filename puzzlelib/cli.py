"""Command line: ``python -m puzzlelib solve|layers|rotation|blocks ...``.

Bad input exits with status 2 and one line on stderr (``puzzlelib: error: ...``); a search that
stops at a limit exits with status 3. With ``--json`` the result is one JSON object on stdout.
``seconds`` is the search alone; ``compile_seconds`` is the JIT compilation it needed.
"""

import argparse
import json
import sys

from .blocks import METHODS as BLOCK_METHODS
from .blocks import block_layers, block_pdbs, block_solve
from .api import METHODS, ROTATION_MAX_OPS, ROTATION_METHODS, layers, rotation, solve
from .domains.rotation import parse_contest_input
from .domains.sliding import HEURISTICS
from .tuning import tune
from .core.errors import PuzzleError, SearchLimitError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, as for every other bad input
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)


def _parser():
    p = _Parser(prog="puzzlelib", description="State-space search on combinatorial puzzles.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("solve", help="solve a sliding-tile puzzle")
    s.add_argument("--size", default="3x3",
                   help="ROWSxCOLS, each side 2..6, at most 25 cells (default 3x3)")
    s.add_argument("--start", required=True, help='labels row by row, 0 = blank, e.g. "8 6 7 2 5 4 3 0 1"')
    s.add_argument("--goal", help="goal board (default: 1..n-1 then the blank)")
    s.add_argument("--method", default="idastar", choices=METHODS)
    s.add_argument("--all", action="store_true", help="count every optimal solution (iddfs, idastar)")
    s.add_argument("--heuristic", default="manhattan", choices=HEURISTICS[:2] + HEURISTICS[3:],
                   help="for idastar/astar/greedy (default manhattan); the pdb ones are the "
                        "15-puzzle's additive pattern databases, built on first use (pdb78: "
                        "minutes) and cached on disk")
    s.add_argument("--no-reflect", action="store_true",
                   help="pattern databases: skip the lookup mirrored in the main diagonal")
    s.add_argument("--max-states", type=int, default=None, help="cap on stored states (bidir, astar, greedy)")
    s.add_argument("--threads", type=int, default=1,
                   help="threads for iddfs/idastar (0 = all cores; more than 1 adds a few seconds of compilation)")
    s.add_argument("--progress", action="store_true",
                   help="show progress on stderr (layers for bfs, bounds for iddfs/idastar)")
    s.add_argument("--json", action="store_true", help="print one JSON object")

    l = sub.add_parser("layers", help="count positions at each depth from a start (full BFS)")
    l.add_argument("--size", default="3x3")
    l.add_argument("--start", required=True)
    l.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    l.add_argument("--threads", type=int, default=0, help="threads (default 0 = all cores)")
    l.add_argument("--hash", default="perfect", choices=("perfect", "sparse"),
                   help="minimal perfect hash (default) or a sparse direct index (more memory)")
    l.add_argument("--json", action="store_true")

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
        "--metric": dict(default="straight", choices=("unit", "straight", "path"),
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
    bs.add_argument("--method", default="bfs", choices=BLOCK_METHODS)
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
    return p


def _print_solution(sol):
    print(f"{sol.method}: {sol.length} moves" if sol.length >= 0 else f"{sol.method}: no solution")
    if sol.length > 0:
        print(f"blank moves: {sol.moves}")
        print(f"tiles moved: {' '.join(map(str, sol.tiles()))}")
    if sol.solutions is not None:
        print(f"optimal solutions: {sol.solutions}")
    print(f"nodes: {sol.nodes:,}")
    print(f"search: {sol.seconds:.4f} s (compile {sol.compile_seconds:.2f} s)")


def _print_counts(lay):
    print("depth  positions")
    for d, c in enumerate(lay.counts):
        print(f"{d:5d}  {c:,}")


def _print_layers(lay):
    _print_counts(lay)
    print(f"total: {lay.total:,}; greatest depth {lay.max_depth}, {lay.n_farthest} position(s):")
    for b in lay.farthest[:20]:
        print("  " + " ".join(map(str, b)))
    if lay.n_farthest > 20:
        print(f"  ... and {lay.n_farthest - 20} more")
    print(f"search: {lay.seconds:.4f} s (compile {lay.compile_seconds:.2f} s)")


def _print_rotation(res):
    print(res.length)  # the contest's output: the answer alone


def _read_board(path):
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise PuzzleError(f"cannot read board file {path!r}: {e.strerror}") from None


class _PdbResult:
    def __init__(self, dbs):
        self.dbs = dbs

    @staticmethod
    def _one(db):
        return {"name": db.name, "patterns": db.patterns, "seconds": db.build_seconds,
                "states": db.states, "max_value": db.max_value, "source": db.source,
                "metric": db.metric, "goal": list(db.goal)}

    def to_dict(self):
        if len(self.dbs) == 1:
            return self._one(self.dbs[0])
        return {"pdbs": [self._one(db) for db in self.dbs]}


def _print_block_solution(sol):
    print(f"{sol.method} ({sol.metric} metric): {sol.length} moves" if sol.length >= 0
          else f"{sol.method}: no solution")
    for (r, c), (r1, c1) in sol.moves:
        print(f"  ({r},{c}) -> ({r1},{c1})")
    print(f"nodes: {sol.nodes:,}")
    print(f"search: {sol.seconds:.4f} s (compile {sol.compile_seconds:.2f} s)")


def _print_block_layers(lay):
    _print_counts(lay)
    print(f"total: {lay.total:,}; greatest depth {lay.max_depth}, {lay.n_farthest} position(s)")
    for b in lay.farthest[:3]:
        print(b + "\n")
    print(f"search: {lay.seconds:.4f} s (compile {lay.compile_seconds:.2f} s)")


def _print_pdb(res):
    for db in res.dbs:
        print(f"PDB {db.name}: {db.patterns:,} patterns from {db.states:,} relaxed positions, "
              f"largest value {db.max_value}, built in {db.build_seconds:.2f} s ({db.source})")


def _blocks(args):
    board = _read_board(args.board)
    progress = True if args.progress else None
    if args.blocks_command == "solve":
        kw = {} if args.max_states is None else {"max_states": args.max_states}
        if args.transpositions is not None:
            kw["transpositions"] = args.transpositions
        return block_solve(board, goal=args.goal, metric=args.metric, method=args.method,
                           pdb=args.pdb, progress=progress, **kw), _print_block_solution
    if args.blocks_command == "layers":
        return block_layers(board, metric=args.metric, progress=progress), _print_block_layers
    names = [nm.strip() for nm in args.name.split(",") if nm.strip()]
    if not names:
        raise PuzzleError("--name gives no PDB name")
    dbs = block_pdbs(board, names, goal=args.goal, metric=args.metric, progress=progress)
    return _PdbResult(dbs), _print_pdb


def main(argv=None):
    args = _parser().parse_args(argv)
    tune()  # a command runs searches: keep freed memory, start the threads (see puzzlelib.tuning)
    try:
        if args.command == "solve":
            kw = {} if args.max_states is None else {"max_states": args.max_states}
            result = solve(
                args.start, size=args.size, goal=args.goal, method=args.method,
                all_solutions=args.all, progress=True if args.progress else None,
                threads=None if args.threads == 0 else args.threads,
                heuristic=args.heuristic, reflect=False if args.no_reflect else None, **kw,
            )
            show = _print_solution
        elif args.command == "layers":
            result = layers(args.start, size=args.size, progress=True if args.progress else None,
                            threads=None if args.threads == 0 else args.threads, hash=args.hash)
            show = _print_layers
        elif args.command == "blocks":
            result, show = _blocks(args)
        else:
            rows, cols, values = parse_contest_input(sys.stdin.read())
            result = rotation(values, rows, cols, max_ops=args.max_ops, method=args.method)
            show = _print_rotation
    except SearchLimitError as e:
        sys.stderr.write(f"puzzlelib: stopped: {e}\n")
        return 3
    except PuzzleError as e:
        sys.stderr.write(f"puzzlelib: error: {e}\n")
        return 2
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
