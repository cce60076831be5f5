"""Pattern databases, linear conflict and the 15-puzzle heuristics (issue 4).

Small boards are checked exhaustively against the plain references in ``reference.py``; the
15-puzzle against published optimal lengths (Korf 1985, ``data/korf100.csv``)."""

import csv
import json
import os
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from puzzlelib import PuzzleError, SlidingPuzzle, solve, solve_many
from puzzlelib import pdb as pdb_package
from puzzlelib.pdb import sliding as pdb
from puzzlelib.core.contract import ILLEGAL
from puzzlelib.domains.sliding import board_symmetries
from puzzlelib.pdb.space import PatternSpace, placement_rank, placement_unrank
from puzzlelib.search import layered

from .conftest import random_board

from . import reference as ref

DATA = Path(__file__).resolve().parent.parent / "data"
KORF_GOAL = " ".join(map(str, range(16)))
DOC_002 = "1 7 2 4 6 0 14 3 13 10 11 8 5 9 15 12"


FIFTEEN = SlidingPuzzle("4x4")
KORF = SlidingPuzzle("4x4", goal=KORF_GOAL)


def korf():
    with open(DATA / "korf100.csv") as f:
        return list(csv.DictReader(f))


def guided(rows, cols, groups, reflect=None, goal=None):
    """A puzzle guided by additive databases of ``groups``, built without the cache."""
    space, _ = pdb_package.guide(SlidingPuzzle(rows, cols, goal=goal), groups, reflect=reflect,
                                 cache=False)
    return space


# -- the abstract space --------------------------------------------------------------------------


@pytest.mark.parametrize("rows,cols,k", [(2, 3, 2), (3, 3, 3), (3, 3, 8), (2, 4, 3)])
def test_pattern_space_rank_unrank_round_trip(rows, cols, k):
    """Every state the build reaches unranks to a state that ranks back to it, and every
    reached state is a canonical one (its region named by its lowest cell)."""
    sp = PatternSpace(rows, cols, k)
    start = sp.state(list(range(1, k + 1)), 0)
    r0 = int(sp.fns.rank(start, sp.params))
    res = layered.layered_bfs(sp.fns, sp.params, sp.n_ranks, [r0], kernel="scan")
    dist, counts = res.dist, res.counts
    reached = np.flatnonzero(dist != layered.UNSEEN)
    assert len(reached) == sum(counts)
    st = np.empty(sp.params.state_len, dtype=np.uint8)
    for r in reached:
        sp.fns.unrank(int(r), sp.params, st)
        assert sp.fns.rank(st, sp.params) == r
        cells = [int(x) for x in st[:k]]
        blank_cells = [c for c in range(rows * cols) if c not in cells]
        # the same state made from scratch, the blank on the region's lowest cell
        again = sp.state(cells, min(c for c in blank_cells if (int(st[k + 1]) | int(st[k + 2]) << 8
                                                                | int(st[k + 3]) << 16) >> c & 1))
        assert np.array_equal(again, st)


def _children_by_steps(sp, r):
    """The ranks of the children of the state of rank ``r`` (for a rank whose blank's cell is
    not its region's lowest: of the state it unranks to), by every move and ranking, sorted."""
    p, f = sp.params, sp.fns
    base = np.empty(p.state_len, dtype=np.uint8)
    f.unrank(r, p, base)
    want = []
    for m in range(p.n_moves):
        st = base.copy()
        if f.step(st, m, p) != ILLEGAL:
            want.append(int(f.rank(st, p)))
    return sorted(want)


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 2), (3, 3, 4), (2, 5, 3), (4, 4, 3), (4, 4, 6),
                                         (4, 4, 8), (3, 4, 5), (4, 5, 7), (5, 5, 4), (5, 5, 6),
                                         (4, 8, 9), (4, 8, 12)])
def test_children_from_the_rank_are_the_steps_children(rows, cols, k):
    """``children`` (moves and ranks from the rank's digits and cell masks) gives the ranks
    that unranking, every move and ranking give, on boards whose regions come from the table
    (up to 16 cells) and from a flood fill, at random states; on 4x8 with 9 and 12 tiles the
    first digits are worked out by division (their table would be too big)."""
    sp = PatternSpace(rows, cols, k)
    p, f = sp.params, sp.fns
    assert f.children is not None
    assert (p.high_digits.shape[0] == 0) == (rows * cols == 32)
    rng = np.random.default_rng(rows * 100 + cols * 10 + k)
    out = np.full(p.n_moves + 3, -7, dtype=np.int64)
    memo = np.full(8, -1, dtype=np.int64)  # kept from call to call, as the scan keeps it
    n_children = 0
    for _ in range(100):
        cells = rng.choice(rows * cols, k, replace=False)
        # the same tiles with the blank in each of its regions: ranks of one placement, which
        # the memo serves after the first
        ranks = sorted({int(f.rank(sp.state(cells, b), p)) for b in range(rows * cols)
                        if b not in cells})
        for r in ranks:
            end = f.children(r, p, out, 3, memo)
            assert sorted(out[3:end].tolist()) == _children_by_steps(sp, r)
            assert out[:3].tolist() == [-7, -7, -7]  # written from the offset given
            n_children += end - 3
    assert n_children > 300
    # runs of ranks in increasing order, as the scan meets them: placements that share their
    # first tiles' cells (kept in the memo) and runs across the next multiple of low_size
    for start in [int(x) for x in rng.integers(0, sp.n_placements, 6)] + [
            int(p.low_size) - 2, sp.n_placements - 40]:
        for r in range(start * (sp.n_cells - k), min(sp.n_ranks, (start + 40) * (sp.n_cells - k))):
            end = f.children(r, p, out, 3, memo)
            assert sorted(out[3:end].tolist()) == _children_by_steps(sp, r), r


def test_select32_finds_every_set_bit():
    from puzzlelib.core.hashing import FAST_PDEP, select_pdep
    from puzzlelib.pdb.space import _select, _select32
    rng = np.random.default_rng(3)
    masks = [1, 0xFFFFFFFF, 0x80000000, 0x00010001] + [int(x) for x in
                                                       rng.integers(1, 1 << 32, 300)]
    for m in masks:
        for d in range(bin(m).count("1")):
            want = [i for i in range(32) if m >> i & 1][d]
            assert _select32(m, d) == _select(m, d) == want
            if FAST_PDEP:  # the instruction exists only on such processors
                assert select_pdep(m, d) == want


@pytest.mark.parametrize("rows,cols,k", [(3, 4, 5), (4, 4, 5), (2, 6, 4)])
def test_tables_built_from_children_and_from_steps_are_equal(rows, cols, k):
    from puzzlelib.pdb import space
    sp = PatternSpace(rows, cols, k)
    start = sp.state(list(range(1, k + 1)), 0)
    steps = space.FNS_TABLE_STEPS
    a = layered.layered_bfs(sp.fns, sp.params, sp.n_ranks, [int(sp.fns.rank(start, sp.params))],
                            kernel="scan")
    b = layered.layered_bfs(steps, sp.params, sp.n_ranks, [int(steps.rank(start, sp.params))],
                            kernel="scan")
    assert np.array_equal(a.dist, b.dist) and list(a.counts) == list(b.counts)
    assert a.generated == b.generated and a.expanded == b.expanded == sum(a.counts)


@pytest.mark.parametrize("rows,cols,cells,blank", [
    (3, 3, (0, 1, 2), 8), (3, 3, (3, 4, 5, 6), 8), (3, 3, (1, 2, 4, 5, 7), 0), (2, 4, (0, 5, 6), 7),
    (3, 3, (0, 1, 2, 3, 4, 5, 6, 7), 8),
])
def test_database_matches_plain_zero_one_bfs(rows, cols, cells, blank):
    want = ref.pattern_distances(rows, cols, cells, blank)
    db = pdb.pattern_database(rows, cols, cells, blank, cache=False)
    n = rows * cols
    seen = 0
    for pos in permutations(range(n), len(cells)):
        v = db.value(pos)
        if pos in want:
            assert v == want[pos], pos
            seen += 1
        else:  # never reached (only when the pattern holds every tile: the other parity)
            assert v == layered.UNSEEN
    assert seen == len(want)


def _true_distances(puz_none):
    g = puz_none.goal_state()
    return layered.layered_bfs(puz_none.fns, puz_none.params, puz_none.n_ranks,
                               [puz_none.fns.rank(g, puz_none.params)],
                               buckets=puz_none.buckets).dist


@pytest.mark.parametrize("goal,groups,reflect,stride", [
    (None, [[1, 2, 3, 4], [5, 6, 7, 8]], True, 1),
    (None, [[1, 2, 3], [4, 5, 6], [7, 8]], False, 5),
    ([0, 1, 2, 3, 4, 5, 6, 7, 8], [[1, 3, 4], [2, 5, 6, 7, 8]], True, 5),
])
def test_additive_heuristic_admissible_and_incremental_on_3x3_boards(goal, groups, reflect, stride):
    """Over all 181,440 boards (every ``stride``-th): the sum (or the max of sum and mirrored sum) never exceeds the
    true distance, beats Manhattan somewhere, and every move's returned change equals the
    heuristic recomputed from scratch."""
    puz = guided(3, 3, groups, reflect, goal)
    none = SlidingPuzzle(3, 3, goal=goal, heuristic="none")
    manh = SlidingPuzzle(3, 3, goal=goal)
    dist = _true_distances(none)
    st = np.empty(none.state_len, dtype=np.uint8)
    stronger = 0
    for r in range(0, none.n_ranks, stride):
        none.fns.unrank(r, none.params, st)
        board = none.decode(st)
        s = puz.encode(board)
        h = puz.start_h(s)
        assert h <= dist[r]
        stronger += h > manh.start_h(manh.encode(board))
        if r % 7 == 0:
            for m in range(4):
                s2 = s.copy()
                dh = puz.fns.step(s2, m, puz.params)
                if dh == ILLEGAL:
                    continue
                assert puz.start_h(puz.encode(puz.decode(s2))) == h + dh
                assert np.array_equal(s2, puz.encode(puz.decode(s2)))  # extra bytes kept exact
    assert stronger > 0
    assert puz.start_h(puz.goal_state()) == 0


def test_each_group_value_is_its_database_entry_plain_and_mirrored(rng):
    """The values a state holds (made from scratch, then kept up by the step along a walk) are
    each database's own entry (``PatternDatabase.value``) for the board, and for the board
    mirrored in its main diagonal with every tile renamed to the tile whose goal mirrors its
    goal: an independent reading of the packed parameters (4x4, Korf's goal, 5-5-5)."""
    puz, _ = pdb_package.guide(KORF, "pdb555", progress=False)
    dbs, n, G = puz.pdbs, 16, 3
    mirror = [(c % 4) * 4 + c // 4 for c in range(n)]
    s = puz.goal_state()
    for _ in range(3):
        s = puz.encode(puz.decode(s))  # made from scratch, then kept up by the step
        for _ in range(150):
            b = [int(x) for x in s[:n]]
            flipped = [b[mirror[c]] for c in range(n)]  # the board mirrored ...
            flipped = [mirror[x] if x else 0 for x in flipped]  # ... its tiles renamed
            for board_, off in ((b, 0), (flipped, G)):
                cell = {v: c for c, v in enumerate(board_)}
                for g, db in enumerate(dbs):
                    assert s[2 * n + 1 + off + g] == db.value([cell[c] for c in db.cells])
            while puz.fns.step(s, rng.randrange(4), puz.params) == ILLEGAL:
                pass


@pytest.mark.parametrize("groups,reflect", [
    ([[1, 2, 3, 4], [5, 6, 7, 8]], True),
    ([[1, 2, 3], [4, 5, 6], [7, 8]], False),
    ([[1, 3, 4], [2, 5, 6]], True),  # tiles 7 and 8 in no group
])
def test_depth_first_pdb_step_searches_the_same_tree(groups, reflect, rng):
    """IDA*'s PDB step (the values a move replaced are put back when it is taken back) against
    the plain one, pass by pass: same solutions, nodes, next bound, first path, with or without
    counting all; the start state comes back (board and values), and along any walk the step's
    values are the board's."""
    from puzzlelib.domains.sliding import FNS_PDB_DFS
    from puzzlelib.search.idastar import DepthFirst, _dfs_bounded

    puz = guided(3, 3, groups, reflect)
    assert puz.depth_first.fns is FNS_PDB_DFS and puz.fns is not FNS_PDB_DFS
    n_val = 2 * puz.n_cells + 1 + 2 * len(groups)  # board, tiles' cells, values (not the undo)
    for walk in (12, 19, 30, None):
        board = random_board(3, 3, rng, walk=walk)
        s = puz.encode(" ".join(map(str, board)))
        h0 = puz.start_h(s)
        for bound in range(h0, h0 + 7):
            for count_all in (False, True):
                out = []
                for fns in (puz.fns, puz.depth_first.fns):
                    st = s.copy()
                    path = np.zeros(bound + 1, dtype=np.int64)
                    res = _dfs_bounded(DepthFirst(fns, puz.params, count_all), st, h0, 0, -1,
                                       bound, path, 0)
                    assert np.array_equal(st[:n_val], s[:n_val])
                    out.append((tuple(int(x) for x in res), path[: max(res[3], 0)].tolist()))
                assert out[0] == out[1]
    s = puz.encode(" ".join(map(str, random_board(3, 3, rng))))
    for m in [0, 2, 1, 3, 3, 2, 0, 0, 1, 3, 2] * 3:  # a walk with some moves taken back
        if puz.depth_first.fns.step(s, m, puz.params) != ILLEGAL:
            fresh = puz.encode(puz.decode(s))
            assert np.array_equal(s[:n_val], fresh[:n_val])


def test_linear_conflict_matches_definition_admissible_and_incremental():
    lc = SlidingPuzzle(3, 3, heuristic="linear-conflict")
    none = SlidingPuzzle(3, 3, heuristic="none")
    dist = _true_distances(none)
    st = np.empty(none.state_len, dtype=np.uint8)
    goal = [int(x) for x in lc.goal]
    for r in range(0, none.n_ranks, 3):
        none.fns.unrank(r, none.params, st)
        board = none.decode(st)
        s = lc.encode(board)
        h = lc.start_h(s)
        assert h == ref.linear_conflict(board, goal, 3, 3)
        assert h <= dist[r]
        for m in range(4):
            s2 = s.copy()
            dh = lc.fns.step(s2, m, lc.params)
            if dh != ILLEGAL:
                assert lc.start_h(s2) == h + dh


def test_linear_conflict_on_4x4_and_2x5_matches_definition(rng):
    for rows, cols in ((4, 4), (2, 5), (3, 5)):
        lc = SlidingPuzzle(rows, cols, heuristic="linear-conflict")
        goal = [int(x) for x in lc.goal]
        for _ in range(200):
            board = random_board(rows, cols, rng)
            assert lc.start_h(lc.encode(board)) == ref.linear_conflict(board, goal, rows, cols)


# -- the 15-puzzle -------------------------------------------------------------------------------


@pytest.mark.parametrize("method,heuristic", [
    ("astar", "manhattan"), ("idastar", "manhattan"), ("idastar", "linear-conflict"),
    ("astar", "linear-conflict"), ("idastar", "pdb555"), ("astar", "pdb555"),
])
def test_document_002_instance_is_22_moves_with_every_heuristic(method, heuristic):
    sol = solve(FIFTEEN, DOC_002, method=method, heuristic=heuristic, progress=False)
    assert sol.length == 22
    assert sol.positions()[-1] == list(range(1, 16)) + [0]
    assert sol.extra["heuristic"] == heuristic


def test_document_002_published_path_is_optimal_and_greedy_is_longer():
    sol = solve(FIFTEEN, DOC_002, method="astar")
    assert FIFTEEN.replay(DOC_002, "rrdllldruuurdllddrurrd")[-1] == list(range(1, 16)) + [0]
    greedy = solve(FIFTEEN, DOC_002, method="greedy")
    assert greedy.length > sol.length == 22
    assert greedy.positions()[-1] == list(range(1, 16)) + [0]


def test_stronger_heuristics_expand_fewer_nodes_on_korf_instances():
    """Korf's instances with a short optimum: every heuristic finds the published length, and
    the stronger the heuristic, the fewer nodes."""
    rows = [r for r in korf() if int(r["optimal_length"]) <= 45][:3]
    assert rows
    for r in rows:
        nodes = {}
        for h in ("manhattan", "linear-conflict", "pdb555"):
            sol = solve(KORF, r["start"], method="idastar", heuristic=h, progress=False)
            assert sol.length == int(r["optimal_length"]), (r["id"], h)
            nodes[h] = sol.stats.generated
        assert nodes["pdb555"] < nodes["linear-conflict"] < nodes["manhattan"]


def test_korf_data_is_the_published_set():
    rows = korf()
    assert [int(r["id"]) for r in rows] == list(range(1, 101))
    assert sum(int(r["optimal_length"]) for r in rows) == 5305
    for r in rows:
        KORF.parse(r["start"])  # a permutation of 0..15 in the goal's parity class


def test_reflection_is_at_least_as_strong_and_same_answer():
    r = korf()[54]  # instance 55, 41 moves
    a = solve(KORF, r["start"], heuristic="pdb555", reflect=False)
    b = solve(KORF, r["start"], heuristic="pdb555")
    assert a.length == b.length == 41
    assert b.extra["reflect"] and not a.extra["reflect"]
    assert b.extra["initial_h"] >= a.extra["initial_h"]
    assert b.stats.generated <= a.stats.generated


# -- databases made from their images under a symmetry of the board ----------------------------


def _image(rows, cols, cells, which):
    """``cells`` moved by the board symmetry ``which`` (an index into board_symmetries)."""
    sigma = board_symmetries(rows, cols)[which]
    return tuple(int(sigma[c]) for c in cells)


@pytest.mark.parametrize("rows,cols,cells,which,order", [
    (3, 3, (1, 2, 5), 5, None),         # mirrored in the main diagonal
    (4, 4, (2, 3, 6, 7), 3, sorted),    # a quarter turn, the tiles in another order
    (4, 4, (1, 2, 5, 6), 4, sorted),    # the other quarter turn
    (3, 4, (1, 2, 5), 0, sorted),       # the half turn of a rectangle
    (3, 4, (4, 8, 9), 1, None),         # mirrored left to right
])
def test_a_symmetric_group_is_made_from_its_image(rows, cols, cells, which, order, monkeypatch):
    """A group that a symmetry of the board makes of another gets its table by moving the
    other's entries: the same bytes as its own breadth-first build."""
    monkeypatch.setattr(pdb, "_MEMORY", {})
    pdb.pattern_database(rows, cols, cells, 0, cache=False)
    image = _image(rows, cols, cells, which)
    image = tuple(order(image)) if order else image
    made = pdb.pattern_database(rows, cols, image, 0, cache=False)
    assert made.source == made.made_by == "symmetry"
    built = pdb.build(rows, cols, image, 0)
    assert np.array_equal(made.table, built.table)
    assert made.counts == built.counts


def test_a_database_made_by_symmetry_is_cached_as_such(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    monkeypatch.setattr(pdb, "_MEMORY", {})
    first = pdb.pattern_database(3, 3, (1, 2, 5), 0)
    image = pdb.pattern_database(3, 3, (3, 6, 7), 0)
    assert (first.made_by, image.made_by) == ("search", "symmetry")
    monkeypatch.setattr(pdb, "_MEMORY", {})
    again = pdb.pattern_database(3, 3, (3, 6, 7), 0)
    assert (again.source, again.made_by) == ("cache", "symmetry")
    assert np.array_equal(again.table, image.table)


def test_a_symmetric_group_whose_blank_region_differs_is_built(monkeypatch):
    """On 3x3 with tiles on 1 and 3 the blank's corner is cut off; their half turn (7 and 5)
    leaves the blank the rest of the board: different spaces, so the image is built."""
    monkeypatch.setattr(pdb, "_MEMORY", {})
    pdb.pattern_database(3, 3, (1, 3), 0, cache=False)
    made = pdb.pattern_database(3, 3, (7, 5), 0, cache=False)
    assert made.source == "built"
    assert np.array_equal(made.table, ref_table(3, 3, (7, 5), 0))


def ref_table(rows, cols, cells, blank):
    """The plain reference's least distance per placement, as a table."""
    want = ref.pattern_distances(rows, cols, cells, blank)
    sp = PatternSpace(rows, cols, len(cells))
    table = np.full(sp.n_placements, layered.UNSEEN, dtype=np.uint8)
    for placement, d in want.items():
        r = placement_rank(np.array(placement, dtype=np.int64), len(cells), rows * cols)
        table[r] = min(table[r], d)
    return table


def test_placement_unrank_inverts_the_rank():
    n, k = 6, 3
    cells = np.empty(k, dtype=np.int64)
    for r in range(6 * 5 * 4):
        used = placement_unrank(r, k, n, (1 << n) - 1, cells)
        assert placement_rank(cells, k, n) == r
        assert used == sum(1 << int(c) for c in cells)


def test_the_24_puzzle_partition():
    """Korf and Felner's 6-6-6-6: disjoint groups of all 24 tiles, the last three images of
    one another under turns of the board; for a goal with the blank last, turned half."""
    groups = pdb.partition_cells("pdb6666", 5, 5, list(range(25)))
    assert sorted(c for g in groups for c in g) == list(range(1, 25))
    assert all(len(g) == 6 for g in groups)
    for g in groups[2:]:
        assert any(set(_image(5, 5, groups[1], w)) == set(g) for w in range(7))
    assert not any(set(_image(5, 5, groups[0], w)) in map(set, groups) for w in range(7))
    last = pdb.partition_cells("pdb6666", 5, 5, list(range(1, 25)) + [0])
    assert last == [tuple(24 - c for c in g) for g in groups]


def test_korf_24_data_is_the_published_set():
    """Korf and Felner's 50 instances: permutations of 0..24 that the goal can reach, each
    published length at least the Manhattan distance and of its parity."""
    with open(DATA / "korf24.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["id"]) for r in rows] == list(range(1, 51))
    assert sum(int(r["optimal_length"]) for r in rows) == 5039
    puz = SlidingPuzzle("5x5", goal=" ".join(map(str, range(25))))
    for r in rows:
        board = [int(x) for x in puz.parse(r["start"])[:25]]
        md = sum(abs(c // 5 - t // 5) + abs(c % 5 - t % 5) for c, t in enumerate(board) if t)
        assert md <= int(r["optimal_length"]) and (int(r["optimal_length"]) - md) % 2 == 0


def test_5x5_with_small_symmetric_groups_finds_the_optimal_length(rng, monkeypatch):
    """IDA* on 5x5 boards with eight additive groups of three tiles (half of them made from
    their images) and the mirrored lookup: the lengths IDA* with Manhattan distance finds."""
    monkeypatch.setattr(pdb, "_MEMORY", {})
    goal = " ".join(map(str, range(25)))
    groups = [[1, 2, 6], [5, 10, 11], [3, 4, 9], [15, 20, 21], [7, 8, 12], [13, 14, 19],
              [16, 17, 22], [18, 23, 24]]
    space, _ = pdb_package.guide(SlidingPuzzle("5x5", goal=goal), groups, cache=False,
                                 progress=False)
    assert {db.source for db in space.pdbs} == {"built", "symmetry"}
    puz = SlidingPuzzle("5x5", goal=goal)
    for _ in range(3):
        start = " ".join(map(str, random_board(5, 5, rng, goal=range(25), walk=60)))
        a = solve(puz, start, method="idastar", pdb=groups, cache=False, progress=False)
        b = solve(puz, start, method="idastar", heuristic="manhattan", progress=False)
        assert a.length == b.length
        assert a.extra["initial_h"] >= 0 and a.stats.generated <= b.stats.generated


@pytest.mark.heavy
def test_24_puzzle_instance_with_6666():
    """Korf and Felner's instance 25 (81 moves) with the 6-6-6-6 databases (built on first
    use: about half an hour on two cores) and their reflection."""
    with open(DATA / "korf24.csv") as f:
        row = list(csv.DictReader(f))[24]
    puz = SlidingPuzzle("5x5", goal=" ".join(map(str, range(25))))
    sol = solve(puz, row["start"], method="idastar", heuristic="pdb6666", threads=2)
    assert sol.length == int(row["optimal_length"]) == 81
    assert puz.apply_moves(row["start"], sol.moves)[-1] == list(range(25))


# -- cache -----------------------------------------------------------------------------------------


def test_cache_round_trip_corruption_and_atomic_write(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    monkeypatch.setattr(pdb, "_MEMORY", {})
    db = pdb.pattern_database(3, 3, (0, 1, 2), 8)
    assert db.source == "built"
    files = [f for f in (tmp_path / "pdb").iterdir() if f.suffix != ".lock"]  # (locks stay)
    assert len(files) == 1 and files[0].suffix == ".pdb"  # no temporary file left behind
    monkeypatch.setattr(pdb, "_MEMORY", {})
    again = pdb.pattern_database(3, 3, (0, 1, 2), 8)
    assert again.source == "cache" and np.array_equal(again.table, db.table)
    assert again.counts == db.counts
    # flip one byte of the table: the checksum catches it and the database is rebuilt
    raw = bytearray(files[0].read_bytes())
    raw[-5] ^= 0xFF
    files[0].write_bytes(bytes(raw))
    monkeypatch.setattr(pdb, "_MEMORY", {})
    with pytest.warns(UserWarning, match="checksum"):
        rebuilt = pdb.pattern_database(3, 3, (0, 1, 2), 8)
    assert rebuilt.source == "built" and np.array_equal(rebuilt.table, db.table)
    monkeypatch.setattr(pdb, "_MEMORY", {})
    assert pdb.pattern_database(3, 3, (0, 1, 2), 8).source == "cache"  # the rewrite is good
    # a truncated file too
    files[0].write_bytes(files[0].read_bytes()[:-100])
    monkeypatch.setattr(pdb, "_MEMORY", {})
    with pytest.warns(UserWarning):
        assert pdb.pattern_database(3, 3, (0, 1, 2), 8).source == "built"
    # a write that fails half-way leaves no file behind, and the old one whole
    monkeypatch.setattr(pdb, "_MEMORY", {})
    good = files[0].read_bytes()

    class Boom(Exception):
        pass

    def failing_tofile(*a, **k):
        raise Boom

    from puzzlelib.core import store

    with monkeypatch.context() as m:
        m.setattr(store.os, "fsync", failing_tofile)
        with pytest.raises(Boom):
            store.write(files[0], {"format": "x"}, [np.zeros(10, np.uint8)])
    assert sorted(p.name for p in (tmp_path / "pdb").iterdir()
                  if p.suffix != ".lock") == [files[0].name]
    assert files[0].read_bytes() == good


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size,goal,kwargs,match", [
    ("3x3", None, dict(heuristic="pdb78"), "partition of the 4x4"),
    ("4x4", None, dict(heuristic="pdb6666"), "partition of the 5x5 board, not 4x4"),
    ("4x4", None, dict(heuristic="pdb-xyz"), "unknown heuristic"),
    ("3x3", None, dict(pdb=[[1, 2], [2, 3]]), "disjoint"),
    ("3x3", None, dict(pdb=[[1, 9]]), "not tiles"),
    ("3x3", None, dict(pdb=[[1, "x"]]), "not a list of tile labels"),
    ("3x3", [1, 1, 2, 3, 4, 5, 6, 7, 0], dict(heuristic="linear-conflict"), "distinct"),
    ("3x3", [1, 1, 2, 3, 4, 5, 6, 7, 0], dict(pdb=[[2, 3]]), "distinct"),
    ("2x3", None, dict(pdb=[[1, 2]], reflect=True), "square"),
    ("3x3", None, dict(heuristic="manhattan", reflect=True), "reflect applies"),
    ("4x4", [1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], dict(heuristic="pdb555"),
     "corner"),
])
def test_bad_heuristic_requests_are_refused(size, goal, kwargs, match):
    puz = SlidingPuzzle(size, goal=goal)
    start = " ".join(map(str, puz.goal))
    with pytest.raises(PuzzleError, match=match):
        solve(puz, start, method="idastar", cache=False, **kwargs)


def test_heuristic_with_a_method_that_uses_none_is_refused():
    with pytest.raises(PuzzleError, match="uses no heuristic"):
        solve(SlidingPuzzle("3x3"), "1 2 3 4 5 6 7 0 8", method="bfs", heuristic="pdb78")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "puzzlelib", *args], capture_output=True,
                          text=True, env=os.environ.copy())


def test_cli_heuristic_json():
    out = _cli("solve", "--size", "4x4", "--start", DOC_002, "--method", "idastar",
               "--heuristic", "pdb555", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["length"] == 22 and d["heuristic"] == "pdb555" and d["reflect"] is True
    assert {"moves", "seconds", "compile_seconds", "pdb_seconds", "stats"} <= set(d)
    assert d["stats"]["generated"] > 0
    bad = _cli("solve", "--size", "3x3", "--start", "1 2 3 4 5 6 7 0 8", "--heuristic", "pdb78")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "4x4" in bad.stderr
    bad = _cli("solve", "--size", "4x4", "--start", DOC_002, "--heuristic", "pdb6666", "--json")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "5x5 board, not 4x4" in bad.stderr


def test_pdb_search_shared_among_threads_gives_the_same_answer():
    from puzzlelib.search import idastar

    r = korf()[78]  # instance 79, 42 moves
    space, _ = pdb_package.guide(KORF, "pdb555")
    s = space.encode(r["start"])
    one, two = (idastar.iterative_deepening(s, space.depth_first.fns, space.params, space.residue(s),
                                            False, 80, parallel=parallel, cfns=space.depth_first.cursor,
                                            split_after=0)  # every pass in parallel
                for parallel in (False, True))
    assert one.length == two.length == 42
    assert (one.generated, one.expanded) == (two.generated, two.expanded)
    assert np.array_equal(one.path, two.path)
    two = solve(KORF, r["start"], heuristic="pdb555", threads=2)
    assert two.threads == 2 and two.length == 42
    assert KORF.replay(r["start"], two.moves)[-1] == list(range(16))


def test_solve_many_matches_solve_one_by_one():
    rows = [r for r in korf() if int(r["optimal_length"]) <= 46][:4]
    starts = [r["start"] for r in rows]
    batch = solve_many(KORF, starts, heuristic="pdb555", threads=2)
    assert batch.lengths == [int(r["optimal_length"]) for r in rows]
    for r, res in zip(rows, batch):
        one = solve(KORF, r["start"], heuristic="pdb555")
        # the same search, start by start
        assert (res.moves, res.stats.generated, res.stats.expanded) == (
            one.moves, one.stats.generated, one.stats.expanded)
        assert res.extra["initial_h"] == one.extra["initial_h"]
        assert KORF.replay(r["start"], res.moves)[-1] == list(range(16))
    assert batch.threads == 2
    d = batch.to_dict()
    assert set(d) >= {"puzzle", "method", "results", "stats"} and len(d["results"]) == len(rows)
    assert batch.stats.generated == sum(batch.generated)
    with pytest.raises(PuzzleError, match="start 1"):
        solve_many(KORF, [starts[0], "1 2 3"])


def test_bad_start_is_reported_before_any_database_is_built(monkeypatch):
    """An unsolvable or malformed start fails at once, not after minutes of building."""
    from puzzlelib import UnsolvableError

    def no_build(*args, **kwargs):
        raise AssertionError("a pattern database was built for a bad start")

    monkeypatch.setattr(pdb, "pattern_database", no_build)
    unsolvable = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"
    with pytest.raises(UnsolvableError, match="unsolvable"):
        solve(FIFTEEN, unsolvable, method="idastar", heuristic="pdb78")
    with pytest.raises(PuzzleError, match="start 1"):
        solve_many(FIFTEEN, ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", unsolvable],
                   heuristic="pdb78")
    with pytest.raises(PuzzleError, match="start"):
        solve(FIFTEEN, "1 2 3", method="idastar", heuristic="pdb555")


@pytest.mark.parametrize("prune", ["parent", "cycles"])
def test_solve_many_hands_big_searches_over(rng, monkeypatch, prune):
    """A search whose passes grow big is put aside by the batch and finished with its passes'
    subtrees shared among the threads: the same lengths, first solutions and node counts as one
    search per board, with either pruning."""
    from puzzlelib.search import idastar

    finished = []
    real = idastar.iterative_deepening

    def spy(start, *args, **kwargs):  # records the searches handed over, and goes on
        finished.append(kwargs.get("resume"))
        return real(start, *args, **kwargs)

    monkeypatch.setattr(idastar, "iterative_deepening", spy)
    eight = SlidingPuzzle("3x3")
    starts = [eight.encode(random_board(3, 3, rng, walk=w)) for w in (4, None, None, None)]
    skip = eight.move_automaton() if prune == "cycles" else None
    batch = idastar.deepen_many(np.stack(starts), [eight.residue(s) for s in starts],
                                eight.depth_first.fns, eight.params, 80, 2, eight.depth_first.cursor, hand_over=200,
                                skip=skip)
    assert finished and all(r is not None and r[1] >= 200 for r in finished)
    assert len(finished) < len(starts)  # the short searches stayed in the batch
    monkeypatch.setattr(idastar, "iterative_deepening", real)
    for i, start in enumerate(starts):
        one = solve(eight, eight.decode(start), method="idastar", threads=1, prune=prune)
        length = int(batch.lengths[i])
        assert (length, eight.moves_out(batch.paths[i, :length])) == (one.length, one.moves)
        assert (batch.generated[i], batch.expanded[i]) == (one.stats.generated,
                                                           one.stats.expanded)
