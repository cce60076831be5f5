"""Two versions of the code, side by side: ``python -m benchmarks.sidebyside --before TREE
[--rounds N] [--csv FILE] SUITE [suite options]``.

``TREE`` is a checkout of the other version (``git worktree add /tmp/before <commit>``). Each
round runs the suite once in each tree, each in a fresh process with its own throw-away numba
cache, and the order alternates from round to round (before-after, then after-before, ...), so
that a machine speeding up or slowing down during the run weighs on both alike. The suite's CSV
rows are matched by their label columns (those that are not numbers, and ``threads``, ``id``),
and every time column (``*_ms``, ``*_s``, ``seconds``) gets the median over the rounds of each
side and the ratio after / before: above 1 is slower after.

Pattern databases: with ``--caches DIR`` each side keeps its own ``PUZZLELIB_CACHE`` under
``DIR`` (built in the first round, loaded after); otherwise both share the environment's.

Both trees must have a suite of that name writing the same CSV columns (``--csv`` is added to
the suite's options here).
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LABELS = ("threads", "id", "instances")


def _is_time(col):
    return col == "seconds" or col.endswith("_ms") or col.endswith("_s") or col.endswith("_seconds")


def _number(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _run(tree, suite, options, workdir, tag, cache):
    out = Path(workdir) / f"{tag}.csv"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"sidebyside-{tag}-", dir=workdir)
    if cache:
        env["PUZZLELIB_CACHE"] = str(cache)
    cmd = [sys.executable, "-m", "benchmarks", suite, *options, "--csv", str(out)]
    r = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "no message"
        sys.exit(f"sidebyside: the {tag} run failed ({' '.join(cmd)} in {tree}): {last}")
    with open(out) as f:
        return list(csv.DictReader(f))


def _label(row, cols):
    return tuple(row.get(c, "") for c in cols)


def compare(before, after, suite, options, rounds, workdir, caches=None):
    """Run the rounds; return (label columns, time columns, rows of the comparison)."""
    runs = {"before": [], "after": []}
    for r in range(rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for side in order:
            tree = before if side == "before" else after
            print(f"round {r + 1}/{rounds}: {side} ({tree})", file=sys.stderr, flush=True)
            cache = (caches or {}).get(side)
            runs[side].append(_run(tree, suite, options, workdir, f"{side}-{r}", cache))
    first = runs["after"][0]
    cols = list(first[0].keys())
    labels = [c for c in cols if c in LABELS or any(_number(row[c]) is None and row[c] != ""
                                                    for row in first)]
    labels = [c for c in labels if not _is_time(c)]
    times = [c for c in cols if _is_time(c) and c not in labels]
    table = []
    for row in first:
        key = _label(row, labels)
        out = dict(zip(labels, key))
        for c in times:
            med = {}
            for side in ("before", "after"):
                vals = [_number(x[c]) for run in runs[side] for x in run if _label(x, labels) == key]
                vals = [v for v in vals if v is not None]
                med[side] = statistics.median(vals) if vals else None
            out[f"{c}_before"] = med["before"]
            out[f"{c}_after"] = med["after"]
            out[f"{c}_ratio"] = (med["after"] / med["before"]
                                 if med["before"] and med["after"] is not None else None)
        table.append(out)
    return labels, times, table


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.sidebyside", description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="checkout of the version to compare with")
    ap.add_argument("--after", default=str(HERE), help="checkout measured against it (this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--csv", help="write the comparison to this CSV file")
    ap.add_argument("--caches", help="folder for each side's PUZZLELIB_CACHE (pattern databases), "
                    "kept between rounds and runs; default: the environment's, shared")
    ap.add_argument("suite")
    args, options = ap.parse_known_args(argv)
    for tree in (args.before, args.after):
        if not (Path(tree) / "benchmarks" / "__main__.py").is_file():
            sys.exit(f"sidebyside: {tree} has no benchmarks/ package")
    if args.rounds < 1:
        sys.exit("sidebyside: --rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="sidebyside-") as work:
        caches = None
        if args.caches:
            caches = {side: Path(args.caches).resolve() / side for side in ("before", "after")}
            for c in caches.values():
                c.mkdir(parents=True, exist_ok=True)
        labels, times, table = compare(Path(args.before).resolve(), Path(args.after).resolve(),
                                       args.suite, options, args.rounds, work, caches)
    header = labels + [f"{c}_{s}" for c in times for s in ("before", "after", "ratio")]
    for row in table:
        name = " ".join(str(row[c]) for c in labels if row[c] != "")
        parts = []
        for c in times:
            b, a, q = row[f"{c}_before"], row[f"{c}_after"], row[f"{c}_ratio"]
            if b is not None and a is not None:
                parts.append(f"{c} {b:.4g} -> {a:.4g} ({q:.3f}x)" if q is not None
                             else f"{c} {b:.4g} -> {a:.4g}")
        print(f"{name}: " + "; ".join(parts))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            for row in table:
                w.writerow(["" if row[c] is None else row[c] for c in header])
    return 0


if __name__ == "__main__":
    sys.exit(main())
