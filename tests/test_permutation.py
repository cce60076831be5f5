"""Permutation puzzles from their moves (PermutationPuzzle, pancakes, TopSpin, the Pocket
Cube): layers against a plain-Python BFS on small cases, every rank/unrank round trip, the
searches against each other and against the table, pattern databases never overestimating,
the published figures, and bad definitions."""

import json
import math
from collections import Counter, deque

import numpy as np
import pytest
from numba import njit

from puzzlelib import (PancakePuzzle, PermutationPuzzle, PocketCube, PuzzleError, TopSpin,
                       UnsolvableError, layers, pattern_databases, solve)
from puzzlelib.cli import main
from puzzlelib.domains import pancake as pancake_module
from puzzlelib.domains import permutation
from puzzlelib.domains.rotation import RotationPuzzle


# ---------------------------------------------------------------------------------------------
# a plain reference: BFS over (labels, twists) tuples, moves applied as written
# ---------------------------------------------------------------------------------------------


def plain_layers(start, moves, k=1, canon=None):
    """Positions per depth from ``start`` ((labels, twists)), moves ``[(src, twist)]``;
    ``canon``: a function giving each position's representative under symmetries."""
    canon = canon or (lambda s: s)
    s0 = canon(start)
    dist = {s0: 0}
    queue = deque([s0])
    while queue:
        labels, tw = s = queue.popleft()
        for src, t in moves:
            child = canon((tuple(labels[c] for c in src),
                           tuple((tw[c] + x) % k for c, x in zip(src, t))))
            if child not in dist:
                dist[child] = dist[s] + 1
                queue.append(child)
    c = Counter(dist.values())
    return [c[d] for d in range(max(c) + 1)], dist


def flips(n):
    return [(list(range(k))[::-1] + list(range(k, n)), [0] * n) for k in range(2, n + 1)]


@pytest.mark.parametrize("n", range(2, 9))
def test_pancake_layers_match_plain_bfs(n):
    goal = list(range(1, n + 1))
    want, _ = plain_layers((tuple(goal), (0,) * n), flips(n))
    assert layers(PancakePuzzle(n), goal, threads=2).counts == want
    assert layers(PancakePuzzle(n), goal, threads=1).counts == want


def test_repeated_labels_match_plain_bfs():
    goal = [1, 1, 2, 2, 3, 3, 4]
    moves = {f"f{k}": list(range(k))[::-1] + list(range(k, 7)) for k in range(2, 8)}
    puz = PermutationPuzzle(goal, moves)
    start = [2, 1, 3, 1, 4, 3, 2]
    want, dist = plain_layers((tuple(start), (0,) * 7), [(v, [0] * 7) for v in moves.values()])
    res = layers(puz, start)
    assert res.counts == want
    assert puz.n_ranks == math.factorial(7) // 8
    # every reached arrangement's depth, read from the table
    for (labels, _), d in list(dist.items())[:300]:
        assert res.depth(list(labels)) == d


def test_orientations_without_a_fixed_sum_match_plain_bfs():
    # three cells, a cycle that twists one piece, and a swap; twists do not sum to 0
    cyc = ([2, 0, 1], [1, 0, 0])
    cyc_inv = ([1, 2, 0], [0, 0, 2])
    swap = ([1, 0, 2], [0, 0, 0])
    puz = PermutationPuzzle("a b c", {"c": cyc, "c'": cyc_inv, "s": swap}, orientations=3)
    assert not puz.twist_invariant
    want, _ = plain_layers((("a", "b", "c"), (0, 0, 0)), [cyc, cyc_inv, swap], k=3)
    res = layers(puz, puz.default_start())
    assert res.counts == want
    assert res.total == puz.n_ranks == 6 * 27


def test_cyclic_topspin_matches_plain_bfs_over_representatives():
    n, k = 7, 3
    puz = TopSpin((n, k), cyclic=True)
    moves = []
    for i in range(n):
        src = list(range(n))
        for t in range(k):
            src[(i + t) % n] = (i + k - 1 - t) % n
        moves.append((src, [0] * n))

    def canon(s):
        labels, tw = s
        i = labels.index(1)
        return labels[i:] + labels[:i], tw

    want, _ = plain_layers((tuple(range(1, n + 1)), (0,) * n), moves, canon=canon)
    assert layers(puz, list(range(1, n + 1))).counts == want
    # a position and its turn of the ring are the same position
    assert solve(puz, [3, 4, 5, 6, 7, 1, 2]).length == 0


def test_rank_unrank_round_trips():
    cases = [PancakePuzzle(7), TopSpin("8,4"), TopSpin("7,3", cyclic=True),
             PermutationPuzzle([1, 1, 2, 2, 3, 3, 4],
                               {f"f{k}": list(range(k))[::-1] + list(range(k, 7))
                                for k in range(2, 8)}),
             PocketCube("qtm")]
    for puz in cases:
        p, f = puz.params, puz.fns
        buf = np.empty(p.state_len, dtype=np.uint8)
        n = puz.n_ranks
        ranks = range(n) if n <= 50_000 else range(0, n, 997)
        for r in ranks:
            f.unrank(r, p, buf)
            assert f.rank(buf, p) == r
            again = puz.encode(puz.decode(buf))
            assert np.array_equal(again, buf)


def _searches_agree(puz, table, start, methods=("bfs", "bidir", "iddfs", "idastar", "astar")):
    """Every method solves ``start`` in the table's depth, and its moves reach the goal;
    returns that depth."""
    d = table.depth(start)
    for method in methods:
        res = solve(puz, start, method=method, threads=1)
        assert res.length == d, method
        assert puz.replay(start, res.moves)[-1] == sorted(start)
    return d


def _low_form_cases():
    """A pancake stack and a puzzle of cycles, built as if their tables were too large for layer
    lists (the form of pancake-12 and beyond: pieces by cell, ranked by ``_rank_low``)."""
    goal = list(range(1, 8))
    cycles = PermutationPuzzle(goal, {"a": [1, 2, 0, 3, 4, 5, 6], "a'": [2, 0, 1, 3, 4, 5, 6],
                                      "s": [0, 1, 2, 3, 4, 6, 5], "t": [0, 1, 2, 4, 3, 5, 6],
                                      "u": [0, 2, 1, 3, 4, 5, 6], "v": [0, 1, 3, 2, 4, 5, 6]})
    return [PancakePuzzle(7), PancakePuzzle(7).with_heuristic("gap"), cycles]


@njit
def _rank_from_mismatches(fns, p, scan, n_ranks):
    """The (rank, move) pairs where ``rank_from`` with the tables (``scan``) differs from the
    rank of the stepped child, or ``rank_from`` without them is not -1 (in one compiled loop:
    a call from Python types the params anew each time)."""
    buf = np.empty(p.state_len, dtype=np.uint8)
    child = np.empty(p.state_len, dtype=np.uint8)
    bad = 0
    for r in range(n_ranks):
        fns.unrank(r, p, buf)
        for m in range(p.n_moves):
            child[:] = buf
            fns.step(child, m, p)
            if fns.rank_from(r, m, scan) != fns.rank(child, p) or fns.rank_from(r, m, p) != -1:
                bad += 1
    return bad


def test_scanned_tables_rank_by_cell(monkeypatch):
    monkeypatch.setattr(permutation.puzzle, "LISTS_MAX_RANKS", 1000)
    pancake, gap, cycles = _low_form_cases()
    assert pancake.fns is permutation.FNS_LOW_SWAPS and cycles.fns is permutation.FNS_LOW_CELLS
    assert gap.fns is pancake_module.FNS_GAP_RANKED
    assert pancake.params.loc == 0 and pancake.layer_kernel == "scan-up"
    assert list(pancake.params.top) == [1, 2, 3, 4, 5, 6]  # flip k changes cells 0..k-1
    for puz in (pancake, gap, cycles):
        p, f = puz.params, puz.fns
        scan = puz.scan_params()  # with the tables of children: every move here has one
        assert (scan.kid_off >= 0).all() and (p.kid_off == -1).all()
        buf = np.empty(p.state_len, dtype=np.uint8)
        child = np.empty(p.state_len, dtype=np.uint8)
        seen = set()
        for r in range(puz.n_ranks):
            f.unrank(r, p, buf)
            assert f.rank(buf, p) == r
            seen.add(bytes(buf[:p.m]))
            assert np.array_equal(puz.encode(puz.decode(buf)), buf)
            for m in range(p.n_moves):
                child[:] = buf
                f.step(child, m, p)
                # from the parent's rank, reading only the cells the move changed
                assert f.rank_after(child, m, r, p) == f.rank(child, p)
                if puz is pancake:  # a flip of the top k stays within k! ranks
                    k = m + 2
                    assert f.rank(child, p) // math.factorial(k) == r // math.factorial(k)
        assert len(seen) == puz.n_ranks
        # from the parent's rank alone, by the move's table (without the tables: -1)
        assert _rank_from_mismatches(f, p, scan, puz.n_ranks) == 0
    # the table scan over this form against the plain BFS, and the searches against the table
    want, _ = plain_layers((tuple(range(1, 8)), (0,) * 7), flips(7))
    table = layers(pancake, list(range(1, 8)))
    assert table.counts == want
    rng = np.random.default_rng(7)
    for _ in range(4):  # the searches that rank positions (the others only step them)
        _searches_agree(pancake, table, [int(x) + 1 for x in rng.permutation(7)],
                        ("bfs", "bidir"))
    want, _ = plain_layers((tuple(range(1, 8)), (0,) * 7),
                           [(src, [0] * 7) for src in ([1, 2, 0, 3, 4, 5, 6],
                                                       [2, 0, 1, 3, 4, 5, 6],
                                                       [0, 1, 2, 3, 4, 6, 5],
                                                       [0, 1, 2, 4, 3, 5, 6],
                                                       [0, 2, 1, 3, 4, 5, 6],
                                                       [0, 1, 3, 2, 4, 5, 6])])
    assert layers(cycles, threads=2).counts == want
    # tables for the moves within the first four cells only: the scan makes the position for
    # the others (pancakes: flips of 5 to 7; cycles: s and t)
    monkeypatch.setattr(permutation.hashing, "CHILD_TABLE_MAX", 24)
    pancake, _, cycles = _low_form_cases()
    assert list(pancake.scan_params().kid_off >= 0) == [True] * 3 + [False] * 3
    assert list(cycles.scan_params().kid_off >= 0) == [True, True, False, False, True, True]
    # or as many as fit a budget for all of them, the smallest first (2 + 6 + 24 entries)
    monkeypatch.setattr(permutation.hashing, "CHILD_TABLE_MAX", 1 << 22)
    monkeypatch.setattr(permutation.hashing, "CHILD_TABLES_MAX", 40)
    assert list(_low_form_cases()[0].scan_params().kid_off >= 0) == [True] * 3 + [False] * 3
    assert layers(cycles, threads=2).counts == want
    want, _ = plain_layers((tuple(range(1, 8)), (0,) * 7), flips(7))
    assert layers(pancake, list(range(1, 8)), threads=2).counts == want


def test_remainders_by_factorials_without_division():
    rng = np.random.default_rng(5)
    for w in range(1, 21):
        f = math.factorial(w)
        near = [q * f + d for q in (1, 2, 2**52 // f, 2**62 // f) for d in (-1, 0, 1)]
        for r in [0, 1, f - 1, 2**52 - 1, 2**52, *near,
                  *(int(x) for x in rng.integers(0, 2**52, 40)),
                  *(int(x) for x in rng.integers(2**52, 2**62, 10))]:
            if 0 <= r < 2**62:
                assert permutation._mod_factorial(r, w) == r % f, (r, w)


def test_every_search_agrees_with_the_table():
    puz = PancakePuzzle(8)
    table = layers(puz, list(range(1, 9)))
    rng = np.random.default_rng(8)
    for _ in range(6):
        start = [int(x) + 1 for x in rng.permutation(8)]
        d = _searches_agree(puz, table, start)
        for h in ("none", "pdb:1,2,3,4/5,6,7,8"):
            assert solve(puz, start, method="idastar", heuristic=h).length == d


def test_gap_heuristic_is_admissible_and_large_stacks_solve():
    puz = PancakePuzzle(8)
    table = layers(puz, list(range(1, 9)))
    p = puz.with_heuristic("gap")
    buf = np.empty(puz.params.state_len, dtype=np.uint8)
    for r in range(0, puz.n_ranks, 7):
        puz.fns.unrank(r, puz.params, buf)
        pos = puz.decode(buf)
        assert p.heuristic_value(p.encode(pos)) <= table.table[r]
    # 30 pancakes: the incremental gap step and the full count agree along the way
    big = PancakePuzzle(30)
    rng = np.random.default_rng(3)
    start = [int(x) + 1 for x in rng.permutation(30)]
    res = solve(big, start, method="idastar")
    assert res.extra["initial_h"] <= res.length
    states = big.replay(start, res.moves)
    assert states[-1] == list(range(1, 31))
    g = big.with_heuristic("gap")
    hs = [g.heuristic_value(g.encode(s)) for s in states]
    assert hs[-1] == 0 and all(abs(a - b) <= 1 for a, b in zip(hs, hs[1:]))


def test_pattern_databases_never_overestimate(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    cube = PocketCube("qtm")
    table = layers(cube)
    dbs = pattern_databases(cube, "pdb:URF,UFL,ULB/UBR,DFR,DLF", cache=True)
    assert [db.source for db in dbs] == ["built", "built"]
    space, info = _guided(cube, "pdb:URF,UFL,ULB/UBR,DFR,DLF")
    buf = np.empty(cube.params.state_len, dtype=np.uint8)
    for r in range(0, cube.n_ranks, 331):
        cube.fns.unrank(r, cube.params, buf)
        h = space.heuristic_value(space.encode(cube.decode(buf)))
        assert h <= table.table[r]
    # the cache: read back the same; a damaged file is built again
    from puzzlelib.pdb import permutation as pp
    pp._MEMORY.clear()
    again = pattern_databases(cube, "pdb:URF,UFL,ULB/UBR,DFR,DLF")
    assert [db.source for db in again] == ["cache", "cache"]
    assert all(np.array_equal(a.table, b.table) for a, b in zip(dbs, again))
    files = sorted((tmp_path / "pdb").glob("perm_*.pdb"))
    assert len(files) == 2
    files[0].write_bytes(files[0].read_bytes()[:-10])
    pp._MEMORY.clear()
    with pytest.warns(UserWarning):
        third = pattern_databases(cube, "pdb:URF,UFL,ULB/UBR,DFR,DLF")
    assert sorted(db.source for db in third) == ["built", "cache"]
    scramble = "R U R' F U2 R' F' U"
    want = table.depth(cube.decode(cube.encode(scramble)))
    got = solve(cube, scramble, method="idastar", heuristic="pdb:URF,UFL,ULB/UBR,DFR,DLF")
    assert got.length == want
    assert got.stats.generated < solve(cube, scramble, method="idastar").stats.generated


def _guided(puzzle, spec):
    from puzzlelib.pdb import guide
    return guide(puzzle, spec)


def test_swaps_and_cycles_of_large_puzzles_agree():
    # more than 20 cells: no rank; moves that only swap pairs take their own step function
    ts = TopSpin("24,4")
    cyc = PermutationPuzzle(list(range(1, 25)),
                            {str(i): src for i, src in enumerate(_rotations(24, 4))})
    assert ts.fns is not cyc.fns
    rng = np.random.default_rng(24)
    for _ in range(3):
        moves = [int(x) for x in rng.integers(0, 24, 3)]
        a, b = ts.scrambled(moves), cyc.scrambled([str(2 * m) for m in moves])
        la = solve(ts, a, method="bidir").length
        assert la == solve(ts, a, method="iddfs").length <= 3
        lb = solve(cyc, b, method="bidir").length
        assert lb == solve(cyc, b, method="iddfs").length <= 3
        assert ts.replay(a, solve(ts, a, method="bidir").moves)[-1] == list(range(1, 25))


def _rotations(n, k):
    """Moves of a ring that turn ``k`` consecutive cells by one place, both ways."""
    out = []
    for i in range(n):
        src = list(range(n))
        for t in range(k):
            src[(i + t) % n] = (i + (t + 1) % k) % n
        back = list(range(n))
        for t in range(k):
            back[(i + (t + 1) % k) % n] = (i + t) % n
        out += [src, back]
    return out


def test_generic_rotation_puzzle_agrees_with_the_hand_written_one():
    for rows, cols in ((3, 3), (3, 4), (4, 4)):
        hand = RotationPuzzle(rows, cols)
        gen = hand.as_permutation()
        rng = np.random.default_rng(rows * cols)
        for _ in range(3):
            grid = hand.apply(list(range(1, rows * cols + 1)),
                              [int(x) for x in rng.integers(0, 4, 9)])[-1]
            a = solve(hand, grid, method="bidir")
            b = solve(gen, grid, method="bidir")
            assert a.length == b.length
            assert hand.apply(grid, [OP for OP in a.moves])[-1] == list(range(1, rows * cols + 1))
    # 3x3: the generic puzzle's table against the hand-written puzzle's layers of states
    goal = list(range(1, 10))
    gen = layers(RotationPuzzle(3, 3).as_permutation(), goal)
    assert gen.table is not None
    assert gen.counts == layers(RotationPuzzle(3, 3), goal).counts


# ---------------------------------------------------------------------------------------------
# published figures
# ---------------------------------------------------------------------------------------------

#: Positions of the 2x2x2 cube at each distance, half-turn and quarter-turn metrics (the
#: cube's God's algorithm tables, as published by e.g. Jaap Scherphuis' puzzle pages).
POCKET = {
    "htm": [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644],
    "qtm": [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536,
            90280, 276],
}
#: Pancake numbers P(n), n = 1..14 (OEIS A058986).
PANCAKE_NUMBERS = [0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16]


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_pocket_cube_gods_numbers(metric):
    res = layers(PocketCube(metric))
    assert res.counts == POCKET[metric]
    assert res.total == 3_674_160
    assert res.max_depth == {"htm": 11, "qtm": 14}[metric]


@pytest.mark.parametrize("n", range(2, 11))
def test_pancake_numbers(n):
    res = layers(PancakePuzzle(n))
    assert res.max_depth == PANCAKE_NUMBERS[n - 1]
    assert res.total == math.factorial(n)


@pytest.mark.heavy
@pytest.mark.parametrize("n", [11, 12])
def test_pancake_numbers_large(n):
    res = layers(PancakePuzzle(n))
    assert res.max_depth == PANCAKE_NUMBERS[n - 1]
    assert res.total == math.factorial(n)


# ---------------------------------------------------------------------------------------------
# bad definitions and input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, match", [
    (dict(goal=[1, 2, 3], moves={"a": [0, 0, 1]}), "not a permutation"),
    (dict(goal=[1, 2, 3], moves={"a": [1, 2, 0]}), "no inverse"),
    (dict(goal=[1, 2, 3], moves={"a": ([1, 0, 2], [0, 5, 0]), "b": [0, 1, 2]},
          orientations=3), "does not fit"),
    (dict(goal=[1, 2, 3], moves={"a": ([1, 0, 2], [0, 1, 0])}), "no orientations"),
    (dict(goal=[1, 2, 3], moves={}), "at least one move"),
    (dict(goal=[1, 2, 3], moves={"a": [1, 0]}), "not a permutation"),
    (dict(goal=[1, 2, 3], moves={"a": [0, 1, 2]}), "no move changes"),
])
def test_bad_definitions(kwargs, match):
    with pytest.raises(PuzzleError, match=match):
        PermutationPuzzle(**kwargs)


def test_bad_starts():
    puz = PancakePuzzle(5)
    with pytest.raises(PuzzleError, match="label 6 is not"):
        solve(puz, [1, 2, 3, 4, 6])
    with pytest.raises(PuzzleError, match="has 4 labels"):
        solve(puz, [1, 2, 3, 4])
    with pytest.raises(UnsolvableError, match="odd permutation"):
        solve(TopSpin("8,4"), [2, 1, 3, 4, 5, 6, 7, 8])
    with pytest.raises(UnsolvableError, match="orientations add up"):
        solve(PocketCube(), (list(PocketCube().goal_labels), [1, 0, 0, 0, 0, 0, 0, 0]))
    with pytest.raises(PuzzleError, match="needs 81.2 GiB"):
        layers(PancakePuzzle(14))
    with pytest.raises(PuzzleError, match="unknown metric"):
        PocketCube("stm")
    with pytest.raises(PuzzleError, match="TopSpin"):
        TopSpin("8")


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_forms(capsys):
    code, out, _ = _run(capsys, "layers", "--puzzle", "pocket-cube", "--metric", "qtm", "--json")
    d = json.loads(out)
    assert code == 0 and d["counts"] == POCKET["qtm"] and d["stats"]["stored"] == 3_674_160
    code, out, _ = _run(capsys, "layers", "--puzzle", "pancake", "--size", "7", "--json")
    d = json.loads(out)
    assert d["max_depth"] == 8 and d["total"] == 5040
    want = layers(PancakePuzzle(7)).depth([3, 1, 2, 5, 4, 7, 6])
    for method in ("bfs", "bidir", "iddfs", "idastar", "astar", "greedy"):
        code, out, _ = _run(capsys, "solve", "--puzzle", "pancake", "--start", "3 1 2 5 4 7 6",
                            "--method", method, "--json")
        d = json.loads(out)
        assert code == 0 and set(d["stats"]) >= {"generated", "expanded", "stored",
                                                 "memory_bytes", "seconds", "compile_seconds"}
        if method != "greedy":
            assert d["length"] == want
    code, out, _ = _run(capsys, "solve", "--puzzle", "pancake", "--start", "3 1 2 5 4 7 6",
                        "--method", "idastar", "--heuristic", "gap", "--json")
    assert json.loads(out)["heuristic"] == "gap"
    code, out, _ = _run(capsys, "solve", "--puzzle", "topspin", "--size", "8,4", "--start",
                        "4 3 2 1 5 6 7 8", "--json")
    assert json.loads(out)["length"] == 1
    code, out, err = _run(capsys, "solve", "--puzzle", "pancake", "--start", "3 1 2 2")
    assert code == 2 and err.count("\n") == 1 and "label" in err
    code, out, err = _run(capsys, "layers", "--puzzle", "pancake", "--size", "14")
    assert code == 2 and "GiB" in err
    code, out, err = _run(capsys, "solve", "--puzzle", "topspin", "--start", "1 2 3")
    assert code == 2 and "--size N,K" in err
    code, out, err = _run(capsys, "solve", "--puzzle", "pancake", "--metric", "htm",
                          "--start", "2 1")
    assert code == 2 and "--metric" in err
