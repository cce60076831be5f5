import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = []
md = lambda s: cells.append(new_markdown_cell(s.strip("\n")))
code = lambda s: cells.append(new_code_cell(s.strip("\n")))

md(r"""
# 07 · Beyond memory and beyond one machine: packed tables, the 2x7 board, BFS on Dask

The earlier lessons kept **one byte per position**: the distance table of a breadth-first search
indexed by the position's rank. That stops where the bytes stop fitting. The 3x4 and 2x6 boards
(239.5 million positions, 228 MiB) still fit, and the 2x7 board does not: 43.6 billion positions,
40.6 GiB, on a machine of 24 GiB.

This lesson shows three ways further:

1. **Two bits are enough.** Keep a position's depth *modulo 3*. Its neighbours are one layer up,
   the same layer, or one layer down, so their three codes differ, and a shortest path can still be
   read back.
2. **Save and resume.** A search of an hour saves its state and carries on after a stop.
3. **More than one machine.** Split the table among the workers of a Dask cluster. Each layer is
   expanded where its part lives, and children go to the worker that owns them.

As in every lesson, each idea comes as plain Python first, then as the kernel, and then as
figures and a table beside the published ones.
""")

code(r"""
%matplotlib inline
import math
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from puzzlelib import PuzzleError, SlidingPuzzle, layers
from puzzlelib.core.memory import available_bytes, human
from puzzlelib.notebook import Notebook, draw_positions, machine, plot_layers, time_search
from puzzlelib.search.packed import packed_bytes

nb = Notebook("07_beyond_memory")
ROOT = Path.cwd().parent  # the notebook runs inside notebooks/; data/ is beside it
PUBLISHED = pd.read_csv(ROOT / "data" / "published" / "007_beyond_memory.csv")
OUR_2X7 = ROOT / "data" / "layers" / "2x7.json"  # our own run of the 2x7 table (section 4)

PLAIN_BOARD = nb.pick("3x3", "2x4")                    # section 1: the plain-Python version
KERNEL_BOARDS = nb.pick(["3x3", "2x5", "2x6", "3x4"], ["2x4", "2x5"], quick=["3x3", "2x5"])
DASK_BOARDS = nb.pick(["3x3", "2x5"], ["2x4"])          # section 5
pd.set_option("display.width", 250)
shown = nb.results.relative_to(ROOT) if nb.results.is_relative_to(ROOT) else nb.results
print(f"mode: {nb.mode}; results go to {shown}")
print(machine())


def standard(spec):
    # The board's standard start: tiles 1..n-1 in order, the blank last.
    rows, cols = map(int, spec.split("x"))
    return list(range(1, rows * cols)) + [0]


comparison = []  # the closing table (section 6), filled as we go


def compare(quantity, pub, ours):
    comparison.append({"experiment": "2x7 full table", "quantity": quantity, "published": pub,
                       "ours": ours})
""")

md(r"""
## 0 · Where a byte per position stops

A full table has one entry for each position of one parity class: `n!/2` for `n` cells. The
table below gives its size at one byte per position and packed (2 bits for the depth modulo 3,
and 1 bit that marks the current layer), beside the memory this machine has free now.
""")

code(r"""
rows = []
for spec in ["3x3", "2x5", "3x4", "2x7", "3x5", "4x4"]:
    r, c = map(int, spec.split("x"))
    n = math.factorial(r * c) // 2
    rows.append({"board": spec, "positions": n, "bytes": human(n),
                 "packed (3 bits)": human(packed_bytes(n)),
                 "bytes fit here": n <= 0.8 * available_bytes(),
                 "packed fits here": packed_bytes(n) <= 0.8 * available_bytes()})
sizes = pd.DataFrame(rows)
print(f"memory available now: {human(available_bytes())}")
display(sizes)

fig, ax = plt.subplots(figsize=(8, 3.2))
n = np.array([row["positions"] for row in rows], dtype=float)
x = np.arange(len(rows))
ax.bar(x - 0.2, n, width=0.4, label="one byte a position")
ax.bar(x + 0.2, 3 * n / 8, width=0.4, label="packed: 3 bits a position")
ax.axhline(0.8 * available_bytes(), color="k", ls="--", lw=1, label="80% of the memory free here")
ax.set_yscale("log"); ax.set_xticks(x, [row["board"] for row in rows]); ax.set_ylabel("bytes")
ax.set_title("The full table of each board"); ax.legend(fontsize=8)
nb.save_fig(fig, "table_sizes")
""")

md(r"""
## 1 · Depth modulo 3, in plain Python

**Why three codes are enough.** One move changes a position's distance from the start by at most
one. So a neighbour of a position at depth `d` is at depth `d − 1`, `d` or `d + 1`, and
`d mod 3` gives those three depths three different codes. From any position, a neighbour whose
code is one less (mod 3) is one step closer to the start. Following such neighbours reaches the
start, along a shortest path. Counting the steps also gives the exact depth.

**Why the search needs one bit more.** To make layer `d + 1`, the search expands the positions
at depth `d`. Positions at depths `d − 3`, `d − 6`, … carry the same code, so the codes alone
cannot tell them apart. Expanding those old positions again would give the right answer, but
each layer would then redo most of the work done before it. One more bit per position marks the
*frontier*, the current layer. That makes 3 bits in all, still less than half a byte.

Here it is in plain Python: a dictionary of codes and a list for the frontier.
""")

code(r"""
def plain_layers_mod3(puzzle, start):
    # Breadth-first search keeping only each position's depth modulo 3 (and the frontier).
    start = tuple(start)
    code = {start: 0}
    frontier, counts, depth = [start], [1], 0
    while True:
        nxt = []
        for pos in frontier:
            for _, child in puzzle.neighbours(list(pos)):
                child = tuple(child)
                if child not in code:
                    code[child] = (depth + 1) % 3
                    nxt.append(child)
        if not nxt:
            return code, counts
        counts.append(len(nxt))
        frontier, depth = nxt, depth + 1


def plain_path_back(puzzle, code, start, pos):
    # A shortest path from start to pos, read from the codes alone.
    path = [tuple(pos)]
    while path[-1] != tuple(start):
        want = (code[path[-1]] - 1) % 3
        path.append(next(tuple(c) for _, c in puzzle.neighbours(list(path[-1]))
                         if code.get(tuple(c)) == want))
    return path[::-1]


plain_puzzle = SlidingPuzzle(PLAIN_BOARD)
plain_start = standard(PLAIN_BOARD)
t0 = time.perf_counter()
plain_code, plain_counts = plain_layers_mod3(plain_puzzle, plain_start)
plain_seconds = time.perf_counter() - t0
kernel_bytes = layers(plain_puzzle, plain_start, table="bytes")
assert plain_counts == kernel_bytes.counts
far = kernel_bytes.farthest[0]
path = plain_path_back(plain_puzzle, plain_code, plain_start, far)
assert len(path) - 1 == kernel_bytes.depth(far) == kernel_bytes.max_depth
print(f"{PLAIN_BOARD}: {len(plain_code):,} positions, greatest depth {len(plain_counts) - 1}; "
      f"the layers equal the byte table's, and the path read back from the codes has "
      f"{len(path) - 1} moves; {plain_seconds:.2f} s")
""")

md(r"""
## 2 · The kernel: `layers(..., table="packed")`

The kernel (`puzzlelib/search/packed.py`) keeps the codes as 2-bit fields of 64-bit words, and
the frontier as a bitmap. A layer is made in one of two ways, whichever has less to look at:

- **top down**: the frontier's positions are expanded, and each new child is marked by an atomic
  AND on its word (two threads may mark neighbours in the same word);
- **bottom up**: once fewer positions are unseen than the frontier holds, each unseen position
  looks for a neighbour in the frontier, and each thread writes only its own words.

`table="auto"`, the default, keeps bytes when they fit and packs the table when they do not. Here
both are timed on the same boards (search seconds, compile time apart), and the plain version
is timed on the smallest.
""")

code(r"""
def res_small(spec):
    # Boards of at most a few million positions are timed three times (the median is kept).
    r, c = map(int, spec.split("x"))
    return r * c <= 10


rows = [{"board": PLAIN_BOARD, "table": "plain Python (codes in a dict)", "positions": len(plain_code),
         "greatest depth": len(plain_counts) - 1, "search s": round(plain_seconds, 3),
         "ns a position": round(1e9 * plain_seconds / len(plain_code), 1), "memory": ""}]
for spec in KERNEL_BOARDS:
    puz, start = SlidingPuzzle(spec), standard(spec)
    got = {}
    for table in ("bytes", "packed"):
        layers(puz, start, table=table, progress=False, checkpoint=False)  # compile, warm up
        res, wall, search = time_search(
            lambda: layers(puz, start, table=table, progress=False, checkpoint=False),
            3 if res_small(spec) else 1)
        got[table] = res
        rows.append({"board": spec, "table": table, "positions": res.total,
                     "greatest depth": res.max_depth, "search s": round(search, 3),
                     "ns a position": round(1e9 * search / res.total, 1),
                     "memory": human(res.stats.memory_bytes)})
    assert got["bytes"].counts == got["packed"].counts
    assert got["bytes"].farthest == got["packed"].farthest
kernels = pd.DataFrame(rows)
nb.save_table(kernels, "packed_vs_bytes")
display(kernels)
""")

md(r"""
The packed table gives the same layers and the same farthest positions as the byte table. On
the 239.5-million-position boards it is about as fast, with a small fraction of the memory. A
path read from two bits is as short as one read from bytes:
""")

code(r"""
spec = KERNEL_BOARDS[-1]
puz, start = SlidingPuzzle(spec), standard(spec)
packed = layers(puz, start, table="packed", progress=False, checkpoint=False)
far = packed.farthest[0]
moves = packed.path_to(far)
print(f"{spec}: a farthest position, {packed.depth(far)} moves from the start: "
      f"{' '.join(map(str, far))}")
print(f"the blank's moves, read back from the codes: {moves}")
positions = puz.rooted(start).replay(start, moves)
assert positions[-1] == far and len(moves) == packed.max_depth
keep = list(range(0, len(positions), max(1, len(positions) // 11))) + [len(positions) - 1]
fig = draw_positions(puz, [positions[k] for k in sorted(set(keep))],
                     titles=[str(k) for k in sorted(set(keep))], ncols=12, unit=0.3,
                     title=f"{spec}: a shortest path to a farthest position, read from two bits")
nb.save_fig(fig, "path_from_two_bits")
""")

md(r"""
## 3 · Stopped and resumed

A packed search saves its state (the two tables, the counts so far) at the end of a layer, every
ten minutes by default. Tables of 2³⁰ positions or more do this without being asked, into the
cache folder. A later call for the same board and start resumes from there. The file is written
atomically and checked by its SHA-256, so a damaged one is ignored and the search starts afresh.
Here the 2x5 search is stopped at depth 30, as Ctrl-C would stop it, and then resumed:
""")

code(r"""
class Stop(Exception):
    pass


def stop_at_30(depth, count, total):
    if depth == 30:
        raise Stop


state = Path(tempfile.mkdtemp()) / "2x5.state"
puz, start = SlidingPuzzle("2x5"), standard("2x5")
try:
    layers(puz, start, table="packed", checkpoint=state, checkpoint_seconds=0, progress=stop_at_30)
except Stop:
    print(f"stopped at depth 30; saved state: {human(state.stat().st_size)}")
again = layers(puz, start, table="packed", checkpoint=state, checkpoint_seconds=0)
whole = layers(puz, start, table="bytes")
assert again.counts == whole.counts and not state.exists()
print(f"resumed at depth {again.extra['resumed_at_depth']}, finished at depth {again.max_depth}: "
      f"the same {again.total:,} positions as one whole run; the saved state is gone")
""")

md(r"""
## 4 · The 2x7 board: 43,589,145,600 positions on a 2-core machine

At three bits per position the 2x7 table takes 15.2 GiB, which fits this 24 GiB machine. The run
takes more than an hour, so this notebook reads its result from `data/layers/2x7.json` and
does not run it again. It was made by

```sh
python -m puzzlelib layers --size 2x7 --start "1 2 3 4 5 6 7 8 9 10 11 12 13 0" --json
```

The published counts are those of lightln2's SlidingTilesSolver, a GPU-and-disk solver, for the
transposed 7x2 board (`results/normal_frontier/14-7x2.log`). The transposed board has the same
counts at every depth.
""")

code(r"""
import json

ours = json.loads(OUR_2X7.read_text())
pub = PUBLISHED[PUBLISHED.quantity == "positions at depth"].sort_values("n")
pub_counts = [int(v) for v in pub.published]
for d, (p, o) in enumerate(zip(pub_counts, ours["counts"])):
    compare(f"positions at depth {d}", p, o)
compare("positions in all", int(PUBLISHED[PUBLISHED.quantity == "positions in all"].published.iloc[0]),
        ours["total"])
compare("greatest depth", int(PUBLISHED[PUBLISHED.quantity == "greatest depth"].published.iloc[0]),
        ours["max_depth"])
pub_seconds = float(PUBLISHED[PUBLISHED.quantity == "seconds"].published.iloc[0])
print(f"ours: {ours['total']:,} positions, greatest depth {ours['max_depth']}, "
      f"{ours['n_farthest']} position(s) there; {ours['stats']['seconds'] / 60:.1f} min on "
      f"{ours['threads']} threads, table {human(ours['table_bytes'])} ({ours['table']})")
print(f"published: {sum(pub_counts):,} positions, greatest depth {len(pub_counts) - 1}; "
      f"{pub_seconds / 60:.1f} min on a GTX 1050 Ti with disk")

fig, axes = plt.subplots(1, 2, figsize=(12, 3.4))
for ax, log in zip(axes, (False, True)):
    plot_layers(ours["counts"], ax=ax, log=log, label="ours", color="tab:blue")
    ax.plot(range(len(pub_counts)), pub_counts, "k.", ms=3, label="published")
    ax.legend(fontsize=8)
axes[0].set_title("2x7: positions at each depth"); axes[1].set_title("the same, log scale")
nb.save_fig(fig, "2x7_layers")

far = [[int(x) for x in str(p).split()] if isinstance(p, str) else p for p in ours["farthest"]]
fig = draw_positions(SlidingPuzzle("2x7"), [standard("2x7")] + far,
                     titles=["start"] + [f"depth {ours['max_depth']}"] * len(far), ncols=4,
                     unit=0.4, title="The start and the farthest position(s) of the 2x7 board")
nb.save_fig(fig, "2x7_farthest")
""")

md(r"""
## 5 · More than one machine: the same BFS on Dask

`layers(puzzle, start, client=client)` cuts the ranks into one part per worker. Each part keeps
the byte table of its own ranks (`puzzlelib/search/distributed.py`). Each layer has two rounds of
tasks, each task run on the worker that holds its part:

1. every part expands its positions of the current depth, sorts and de-duplicates the children's
   ranks, and cuts them at the parts' bounds;
2. every part receives its pieces straight from the other workers, marks the new positions, and
   counts them.

The client only adds up the counts. Here a `LocalCluster` of two one-process workers stands in
for two machines. It gives the same counts, and a great deal of per-layer overhead for boards
this small. `docs/scale.md` works out what the 3x5 and the full 4x4 would need on real clusters.
""")

code(r"""
from distributed import Client, LocalCluster

rows = []
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                  dashboard_address=":0") as cluster, Client(cluster) as client:
    for spec in DASK_BOARDS:
        puz, start = SlidingPuzzle(spec), standard(spec)
        local = layers(puz, start, threads=2)
        dask = layers(puz, start, client=client)
        assert dask.counts == local.counts and sorted(dask.farthest) == sorted(local.farthest)
        rows.append({"board": spec, "positions": dask.total, "layers": len(dask.counts),
                     "local s": round(local.stats.seconds, 3),
                     "dask s": round(dask.stats.seconds, 3),
                     "sent between parts": human(dask.extra["bytes_sent"]),
                     "bytes sent a position": round(dask.extra["bytes_sent"] / dask.total, 1)})
dask_table = pd.DataFrame(rows)
nb.save_table(dask_table, "dask_vs_local")
display(dask_table)
""")

md(r"""
## 6 · Published figures beside ours
""")

code(r"""
table = pd.DataFrame(comparison, columns=["experiment", "quantity", "published", "ours"])
table["match"] = table.published == table.ours
nb.save_table(table, "published_vs_ours")
assert table["match"].all()
print(f"{len(table)} published figures, all equal to ours")
display(table.tail(6))
""")

md(r"""
**What to try next.** Pack a permutation puzzle. `layers(PancakePuzzle(12), table="packed")`
keeps 479 million stacks in 171 MiB, where the byte table needs 457 MiB. Or start the 2x7 run
yourself and stop it partway: the next call resumes from the saved state.
""")

nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, "language_info": {"name": "python"}})
nbformat.write(nb, "/work/main/notebooks/07_beyond_memory.ipynb")
