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

``--warm``: each side keeps one numba cache for all its rounds, filled by a first run of each
side that is not measured, so every measured process loads its kernels instead of compiling
them (the compile columns then time the loading). Rounds are then short, and many of them
(``--rounds 10``) tell a small difference from a machine whose speed drifts. Each time column
also gets the least and greatest ratio of one round's after to the same round's before.

Both trees must have a suite of that name writing the same CSV columns (``--csv`` is added to
the suite's options here).
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LABELS = ("threads", "id", "instances")


def _is_time(col):
    """Seconds or milliseconds: ``seconds``, ``*_s``, ``*_ms``, ``*_seconds``, and those with a
    statistic after the unit (``search_s_median``); not rates (``M_nodes_per_s``)."""
    return (bool(re.fullmatch(r"seconds|.*_(s|ms|seconds)(_(median|min|max|mean))?", col))
            and not col.endswith("_per_s"))


def _number(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _run(tree, suite, options, workdir, tag, cache, numba_dir=None):
    out = Path(workdir) / f"{tag}.csv"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env["NUMBA_CACHE_DIR"] = numba_dir or tempfile.mkdtemp(prefix=f"sidebyside-{tag}-",
                                                           dir=workdir)
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


def compare(before, after, suite, options, rounds, workdir, caches=None, warm=False):
    """Run the rounds; return (label columns, time columns, rows of the comparison)."""
    runs = {"before": [], "after": []}
    trees = {"before": before, "after": after}
    numba_dirs = {side: None for side in trees}
    if warm:
        for side, tree in trees.items():
            numba_dirs[side] = tempfile.mkdtemp(prefix=f"sidebyside-{side}-", dir=workdir)
            print(f"warm-up: {side} ({tree}), not measured", file=sys.stderr, flush=True)
            _run(tree, suite, options, workdir, f"{side}-warm", (caches or {}).get(side),
                 numba_dirs[side])
    for r in range(rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for side in order:
            tree = trees[side]
            print(f"round {r + 1}/{rounds}: {side} ({tree})", file=sys.stderr, flush=True)
            cache = (caches or {}).get(side)
            runs[side].append(_run(tree, suite, options, workdir, f"{side}-{r}", cache,
                                   numba_dirs[side]))
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
            pairs = []
            for b_run, a_run in zip(runs["before"], runs["after"]):
                b = [_number(x[c]) for x in b_run if _label(x, labels) == key]
                a = [_number(x[c]) for x in a_run if _label(x, labels) == key]
                if b and a and b[0] and a[0] is not None:
                    pairs.append(a[0] / b[0])
            out[f"{c}_ratio_lo"] = min(pairs) if pairs else None
            out[f"{c}_ratio_hi"] = max(pairs) if pairs else None
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
    ap.add_argument("--warm", action="store_true",
                    help="one numba cache per side for all rounds, filled by a first run that "
                         "is not measured")
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
                                       args.suite, options, args.rounds, work, caches,
                                       args.warm)
    header = labels + [f"{c}_{s}" for c in times
                       for s in ("before", "after", "ratio", "ratio_lo", "ratio_hi")]
    for row in table:
        name = " ".join(str(row[c]) for c in labels if row[c] != "")
        parts = []
        for c in times:
            b, a, q = row[f"{c}_before"], row[f"{c}_after"], row[f"{c}_ratio"]
            lo, hi = row[f"{c}_ratio_lo"], row[f"{c}_ratio_hi"]
            spread = f", rounds {lo:.2f}-{hi:.2f}" if lo is not None else ""
            if b is not None and a is not None:
                parts.append(f"{c} {b:.4g} -> {a:.4g} ({q:.3f}x{spread})" if q is not None
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
