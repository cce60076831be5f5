"""The Rotation Puzzle (document 003): contest samples, bidirectional vs one-way BFS vs a plain
Python BFS, replayable operations, validation, and exact keys in the state table."""

import csv
import json
import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from puzzlelib import RotationPuzzle, layers, solve
from puzzlelib.domains.rotation import OPERATIONS, parse_contest_input
from puzzlelib.core.errors import PuzzleError
from puzzlelib.core.hashset import find, find_hashed, hash_state, insert, new_table

ROOT = Path(__file__).resolve().parent.parent
#: The contest's samples (data/instances_003_rotation.csv) as contest input text and answer.
SAMPLES = [
    (f"{r['H']} {r['W']}\n" + "\n".join(row.strip() for row in r["grid"].split("/")) + "\n",
     int(r["answer"]))
    for r in csv.DictReader(open(ROOT / "data" / "instances_003_rotation.csv"))
]


def test_samples_file():
    assert [a for _, a in SAMPLES] == [2, -1, 20, 0]


def turn(values, rows, cols, x, y):
    """Plain Python: turn the (rows-1) x (cols-1) rectangle at corner (x, y) by 180 degrees."""
    out = list(values)
    cells = [(x + i) * cols + (y + j) for i in range(rows - 1) for j in range(cols - 1)]
    for a, b in zip(cells, reversed(cells)):
        out[a] = values[b]
    return out


def plain_distances(rows, cols, depth):
    """Distances from the sorted grid, by plain breadth-first search, up to ``depth``."""
    start = tuple(range(1, rows * cols + 1))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        g = queue.popleft()
        if dist[g] == depth:
            continue
        for x, y in OPERATIONS:
            h = tuple(turn(g, rows, cols, x, y))
            if h not in dist:
                dist[h] = dist[g] + 1
                queue.append(h)
    return dist


@pytest.mark.parametrize("text,answer", SAMPLES)
def test_contest_samples(text, answer):
    rows, cols, values = parse_contest_input(text)
    # one-way BFS to depth 20 would store about 4 * 3**19 states: only the short samples
    for method in ("bidir", "bfs") if answer in (0, 2) else ("bidir",):
        res = solve(RotationPuzzle(rows, cols), values, method=method)
        assert res.length == answer
        if answer >= 0:
            assert len(res.moves) == answer and res.status == "solved"
            assert res.positions()[-1] == sorted(values)
        else:
            assert res.status == "not within max_depth"


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 3), (4, 4)])
def test_bidirectional_and_one_way_agree_with_plain_bfs(rows, cols):
    dist = plain_distances(rows, cols, 7)
    rng = np.random.default_rng(rows * 10 + cols)
    grids = list(dist)
    for k in rng.choice(len(grids), size=25, replace=False):
        g = list(grids[k])
        puz = RotationPuzzle(rows, cols)
        a = solve(puz, g, method="bidir")
        b = solve(puz, g, method="bfs")
        c = solve(puz, g, method="iddfs")
        assert a.length == b.length == c.length == dist[grids[k]]
        assert a.positions()[-1] == b.positions()[-1] == c.positions()[-1] == sorted(g)


def test_cap_gives_minus_one_and_counts_per_side():
    g = turn(turn(list(range(1, 10)), 3, 3, 0, 0), 3, 3, 1, 1)
    puz = RotationPuzzle(3, 3)
    assert solve(puz, g, max_depth=1).length == -1
    res = solve(puz, g)
    assert res.length == 2 and res.moves == [[1, 1], [0, 0]]  # the turns undone in turn
    fwd, bwd = res.extra["forward_counts"], res.extra["backward_counts"]
    assert fwd[0] == bwd[0] == 1
    assert res.stats.stored == sum(fwd) + sum(bwd)


def test_worst_case_explores_about_118000_states_a_side():
    """8x8, answer above 20: ten levels from each end, 1 + 4 + 12 + ... + 78,628 states."""
    rng = np.random.default_rng(3)
    res = solve(RotationPuzzle(8, 8), (rng.permutation(64) + 1).tolist())
    assert res.length == -1
    per_side = sum(4 * 3 ** (k - 1) for k in range(1, 11)) + 1
    fwd, bwd = res.extra["forward_counts"], res.extra["backward_counts"]
    assert fwd[-1] <= 4 * 3 ** 9
    assert sum(fwd) + sum(bwd) == res.stats.stored
    assert 0.9 * 2 * per_side <= res.stats.stored <= 2 * per_side
    # every state but the last layers' was expanded into 3 children (4 at the roots)
    assert res.stats.generated == 3 * res.stats.expanded + 2


def test_layers_of_the_3x3_rotation_puzzle_match_plain_bfs():
    """Frontier search from the sorted grid against a plain BFS over the whole space."""
    dist = plain_distances(3, 3, 30)
    counts = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        counts[d] += 1
    lay = layers(RotationPuzzle(3, 3), list(range(1, 10)))
    assert lay.counts == counts and lay.total == len(dist)
    far = sorted(tuple(g) for g, d in dist.items() if d == len(counts) - 1)
    assert sorted(tuple(f) for f in lay.farthest) == far and lay.n_farthest == len(far)
    assert lay.stats.expanded == lay.total
    assert lay.stats.generated == 4 + 3 * (lay.total - 1)  # never straight back


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty input"),
        ("3\n1 2 3\n", "is not 'H W'"),
        ("2 3\n1 2 3\n4 5 6\n", "H = 2 is out of range"),
        ("3 9\n", "W = 9 is out of range"),
        ("3 3\n1 2 3\n4 5 6\n", "expected 3 rows"),
        ("3 3\n1 2 3\n4 5\n7 8 9\n", "row 2 has 2 values"),
        ("3 3\n1 2 3\n4 5 5\n7 8 9\n", "appears more than once"),
        ("3 3\n1 2 3\n4 5 10\n7 8 9\n", "out of range 1..9"),
        ("3 3\n1 2 3\n4 x 6\n7 8 9\n", "not an integer"),
    ],
)
def test_malformed_input(text, message):
    with pytest.raises(PuzzleError, match=message):
        parse_contest_input(text)


def test_cli_prints_only_the_answer_and_json():
    cmd = [sys.executable, "-m", "puzzlelib", "rotation"]
    out = subprocess.run(cmd, input=SAMPLES[0][0], capture_output=True, text=True, check=True)
    assert out.stdout == "2\n"
    out = subprocess.run(cmd + ["--json"], input=SAMPLES[1][0], capture_output=True, text=True,
                         check=True)
    d = json.loads(out.stdout)
    assert d["length"] == -1 and d["moves"] == [] and d["seconds"] >= 0
    assert {"forward_counts", "backward_counts"} <= set(d) and d["definition"]["size"]
    assert d["stats"]["stored"] > 0 and d["stats"]["generated"] > 0
    bad = subprocess.run(cmd, input="3 3\n1 2 3\n", capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "expected 3 rows" in bad.stderr


def test_exact_keys_a_shared_hash_is_not_a_match():
    """Two different grids looked up under the same hash: the table compares whole states."""
    puz = RotationPuzzle(8, 8)
    a = puz.goal_state()
    b = a.copy()
    puz.fns.step(b, 0, puz.params)
    slots, pool = new_table(64, 16)
    slots, pool = insert(slots, pool, 0, a)
    h = hash_state(a)
    assert find_hashed(slots, pool, a, h) == 0
    assert find_hashed(slots, pool, b, h) == -1  # same hash, different state: no match


@pytest.mark.parametrize("rows,cols", [(3, 8), (4, 8), (7, 8), (8, 8), (8, 7), (5, 6)])
def test_step_turns_like_plain_python(rows, cols):
    """Every operation against the plain turn (8 columns: the row-word path)."""
    puz = RotationPuzzle(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(5):
        s = rng.permutation(rows * cols).astype(np.uint8)
        for m, (x, y) in enumerate(OPERATIONS):
            t = s.copy()
            puz.fns.step(t, m, puz.params)
            assert (t + 1).tolist() == turn((s + 1).tolist(), rows, cols, x, y)


def test_table_keeps_every_state_through_its_growth():
    """From 16 slots to 8,192: each doubling re-homes the entries from their tags."""
    rng = np.random.default_rng(5)
    states = np.unique(rng.integers(0, 256, size=(3000, 9), dtype=np.uint8), axis=0)
    slots, pool = new_table(9, 1)
    for i, st in enumerate(states):
        assert find(slots, pool, st) == -1
        slots, pool = insert(slots, pool, i, st)
    assert slots.shape[0] == 8192
    for i, st in enumerate(states):
        assert find(slots, pool, st) == i
    other = rng.integers(0, 256, size=(200, 9), dtype=np.uint8)
    known = {bytes(st) for st in states}
    for st in other:
        assert (find(slots, pool, st) >= 0) == (bytes(st) in known)


def test_operation_is_its_own_inverse():
    puz = RotationPuzzle(5, 7)
    s = np.random.default_rng(0).permutation(35).astype(np.uint8)
    for m in range(4):
        t = s.copy()
        puz.fns.step(t, m, puz.params)
        assert not (t == s).all()
        puz.fns.step(t, puz.fns.inverse(m, puz.params), puz.params)
        assert (t == s).all()
