"""Document 000's published figures, read from data/published, as regression tests."""

import csv
import math
from pathlib import Path

import pytest

from puzzlelib import SlidingPuzzle, layers, solve

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = {
    row["experiment"]: row
    for row in csv.DictReader(open(ROOT / "data" / "published" / "000_8puzzle.csv"))
}
START = "8 6 7 2 5 4 3 0 1"
EIGHT = SlidingPuzzle("3x3")


def test_bfs_31_moves_all_positions_generated():
    sol = solve(EIGHT, START, method="bfs")
    assert sol.length == int(PUBLISHED["bfs"]["published_moves"]) == 31
    assert sol.stats.stored == int(PUBLISHED["bfs"]["published_count"]) == 181_440


def test_bidirectional_31_moves():
    assert solve(EIGHT, START, method="bidir").length == int(PUBLISHED["bidir"]["published_moves"])


def test_longest_positions():
    lay = layers(EIGHT, "1 2 3 4 5 6 7 8 0")
    assert lay.max_depth == int(PUBLISHED["longest"]["published_moves"]) == 31
    assert lay.n_farthest == int(PUBLISHED["longest"]["published_count"]) == 2
    assert sorted(lay.farthest) == [[6, 4, 7, 8, 5, 0, 3, 2, 1], [8, 6, 7, 2, 5, 4, 3, 0, 1]]
    assert lay.total == 181_440


@pytest.mark.parametrize("method,row", [("iddfs", "iddfs"), ("idastar", "iddfs_lower_bound")])
def test_forty_optimal_solutions(method, row):
    sol = solve(EIGHT, START, method=method, all_solutions=True)
    assert sol.length == 31
    assert sol.solutions == int(PUBLISHED[row]["published_count"]) == 40


def test_initial_bound_21():
    sol = solve(EIGHT, START, method="idastar")
    assert sol.extra["initial_bound"] == 21


# --- document 001: indistinguishable pieces ---------------------------------------------------
DOC001 = {
    row["problem"]: row
    for row in csv.DictReader(open(ROOT / "data" / "published" / "001_indistinguishable.csv"))
}
LINES001 = list(csv.DictReader(open(ROOT / "data" / "published" / "001_printed_lines.csv")))


def printed_lines(counts):
    """The document's per-move lines from our per-depth counts: line 1 adds the start."""
    lines = {1: counts[0] + counts[1]}
    lines.update({d: counts[d] for d in range(2, len(counts))})
    return lines


@pytest.mark.parametrize("problem", ["1", "2"])
def test_document_001_full_tables(problem):
    row = DOC001[problem]
    lay = layers(SlidingPuzzle("4x4"), row["start"])
    assert lay.total == int(row["positions"])
    assert lay.max_depth == int(row["longest"])
    assert lay.n_farthest == int(row["n_farthest"])
    want = sorted([int(x) for x in b.split()] for b in row["farthest"].split("|"))
    assert sorted(lay.farthest) == want
    lines = printed_lines(lay.counts)
    for line in LINES001:
        if line["problem"] == problem:
            assert lines[int(line["move"])] == int(line["printed_count"])


def _published_2x7():
    rows = list(csv.DictReader(open(ROOT / "data" / "published" / "007_beyond_memory.csv")))
    depth = {int(r["n"]): int(r["published"]) for r in rows
             if r["quantity"] == "positions at depth"}
    return [depth[d] for d in range(len(depth))], rows


def test_our_2x7_table_has_the_published_counts():
    """The committed 2x7 run (python -m puzzlelib layers --size 2x7 ... --json, packed table)
    against the published counts at every depth; the first 14 layers are also made here, by the
    plain breadth-first search in Python, as a check of the file's own start."""
    import json

    counts, rows = _published_2x7()
    assert sum(counts) == 43_589_145_600 == math.factorial(14) // 2 and len(counts) == 109
    ours = json.loads((ROOT / "data" / "layers" / "2x7.json").read_text())
    assert ours["counts"] == counts and ours["total"] == sum(counts)
    assert ours["max_depth"] == 108 and ours["n_farthest"] == 1 and ours["table"] == "packed"
    assert ours["start"] == list(range(1, 14)) + [0] and ours["status"] == "complete"
    board = SlidingPuzzle("2x7")
    seen, frontier, near = {tuple(ours["start"])}, [ours["start"]], [1]
    for _ in range(14):
        nxt = []
        for pos in frontier:
            for _, child in board.neighbours(pos):
                if tuple(child) not in seen:
                    seen.add(tuple(child))
                    nxt.append(child)
        near.append(len(nxt))
        frontier = nxt
    assert near == counts[:15]


def test_our_pancake_13_table_has_the_published_pancake_number():
    """The committed pancake-13 run (python -m puzzlelib layers --puzzle pancake --size 13
    --json, a byte table of 6.2 GB): all 13! stacks, P(13) as OEIS A058986 gives it, and its
    first layers as the plain breadth-first search in Python makes them."""
    import json

    rows = list(csv.DictReader(open(ROOT / "data" / "published" / "006_permutation_puzzles.csv")))
    p13 = [int(r["published"]) for r in rows
           if r["experiment"] == "pancake" and r["quantity"] == "P(n)" and r["n"] == "13"]
    ours = json.loads((ROOT / "data" / "layers" / "pancake13.json").read_text())
    assert p13 == [ours["max_depth"]] == [len(ours["counts"]) - 1]
    assert sum(ours["counts"]) == ours["total"] == math.factorial(13)
    assert ours["start"] == list(range(1, 14)) and ours["status"] == "complete"
    assert ours["n_farthest"] == ours["counts"][-1] > 0
    seen, frontier, near = {tuple(range(1, 14))}, [tuple(range(1, 14))], [1]
    for _ in range(4):
        nxt = []
        for pos in frontier:
            for k in range(2, 14):
                child = pos[:k][::-1] + pos[k:]
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        near.append(len(nxt))
        frontier = nxt
    assert near == ours["counts"][:5]
