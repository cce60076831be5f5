"""Strings of moves depth-first search skips (puzzlelib.domains.cycles), checked against plain
Python: the strings found, the automaton, and searches that use it, on small boards in full."""

import itertools
import json
from collections import deque

import numpy as np
import pytest

from puzzlelib import PuzzleError, SlidingPuzzle, solve, solve_many
from puzzlelib.domains import cycles

from . import reference
from .conftest import random_board

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def play(moves):
    """A string played from (0, 0) on an unbounded board of distinct tiles: the blank's cell,
    the tiles off their cells, and the rectangle the blank covered."""
    board, b = {}, (0, 0)
    lo_r = hi_r = lo_c = hi_c = 0
    for m in moves:
        t = (b[0] + STEPS[m][0], b[1] + STEPS[m][1])
        board[b] = board.pop(t, t)
        b = t
        lo_r, hi_r, lo_c, hi_c = min(lo_r, b[0]), max(hi_r, b[0]), min(lo_c, b[1]), max(hi_c, b[1])
    moved = frozenset((cell, tile) for cell, tile in board.items() if cell != tile)
    return (b, moved), (lo_r, hi_r, lo_c, hi_c)


def inside(a, b):
    return a[0] >= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] <= b[3]


def plain_redundant(max_len):
    """The module's definition, in plain Python: strings shortest first, in move order, each
    compared with every string kept before it."""
    found, kept, layer = set(), {}, [()]
    end, box = play(())
    kept[end] = [box]
    for _ in range(max_len):
        nxt = []
        for s in layer:
            for m in range(4):
                t = s + (m,)
                if any(t[j:] in found for j in range(1, len(t) - 1)):
                    continue
                end, box = play(t)
                if any(inside(b, box) for b in kept.get(end, ())):
                    found.add(t)
                    continue
                kept.setdefault(end, []).append(box)
                nxt.append(t)
        layer = nxt
    return found


def strings(max_len):
    codes, lens, alts, alt_lens = cycles.redundant_strings(max_len)
    return ([tuple(cycles.decode(c, n)) for c, n in zip(codes, lens)],
            [tuple(cycles.decode(c, n)) for c, n in zip(alts, alt_lens)])


def test_the_strings_are_those_of_a_plain_enumeration():
    """Up to 10 moves: 340 strings (the undo of each move, 2x2 squares, ...)."""
    found, _ = strings(10)
    assert set(found) == plain_redundant(10)
    assert len(found) == 340
    assert {(m, m ^ 1) for m in range(4)} <= set(found)
    assert (0, 3, 1, 2, 0, 3) in found or (3, 1, 2, 0, 3, 1) in found  # around a 2x2 square


def test_each_string_has_a_smaller_replacement_inside_its_rectangle():
    found, alts = strings(cycles.DEFAULT_MAX_LEN)
    assert len(found) == 18700
    words = set(found)
    for s, a in zip(found, alts):
        (end_s, box_s), (end_a, box_a) = play(s), play(a)
        assert end_s == end_a, (s, a)
        assert inside(box_a, box_s), (s, a)
        assert (len(a), a) < (len(s), s), (s, a)
        # and none holds a shorter one: the automaton's words are minimal
        assert not any(s[i:j] in words for i in range(len(s)) for j in range(i + 2, len(s) + 1)
                       if (i, j) != (0, len(s))), s


def test_the_automaton_refuses_exactly_the_strings_that_contain_one():
    found, _ = strings(8)
    table = cycles.move_automaton(8)
    words = set(found)
    for n in range(1, 8):
        for s in itertools.product(range(4), repeat=n):
            q, ok = 0, True
            for m in s:
                q = table[q, m]
                if q < 0:
                    ok = False
                    break
            holds = any(s[i:j] in words for i in range(n) for j in range(i + 2, n + 1))
            assert ok != holds, s


def test_the_cached_automaton_is_the_one_made():
    assert np.array_equal(cycles.cached_automaton(10), cycles.move_automaton(10))
    cycles._MADE.clear()  # read back from the cache folder this time
    assert np.array_equal(cycles.cached_automaton(10), cycles.move_automaton(10))


def test_the_shipped_automaton_is_the_one_made():
    # the file shipped with the package is what move_automaton makes now (a change to the
    # making must raise cycles.VERSION and ship the new file: cycles.ship()); cached_automaton
    # hands it out without making it
    shipped = cycles.shipped_automaton()
    assert shipped is not None, f"{cycles.SHIPPED.name} missing: make and ship it"
    assert np.array_equal(shipped, cycles.move_automaton(cycles.DEFAULT_MAX_LEN))
    cycles._MADE.pop(cycles.DEFAULT_MAX_LEN, None)
    assert np.array_equal(cycles.cached_automaton(), shipped)


def test_a_damaged_shipped_automaton_reads_as_missing(tmp_path):
    data = cycles.SHIPPED.read_bytes()
    for bad in (data[: len(data) // 2], data[:100] + bytes([data[100] ^ 1]) + data[101:], b""):
        (tmp_path / "bad.npy.xz").write_bytes(bad)
        assert cycles.shipped_automaton(tmp_path / "bad.npy.xz") is None
    assert cycles.shipped_automaton(tmp_path / "absent.npy.xz") is None


def test_bad_lengths_are_refused():
    with pytest.raises(ValueError, match="max_len must be 1 to 30"):
        cycles.redundant_strings(0)


@pytest.mark.parametrize("rows,cols,depth", [(3, 3, 14), (2, 4, 14), (3, 4, 12), (2, 2, 12)])
def test_every_position_is_reached_at_its_distance(rows, cols, depth):
    """From each cell of the blank, depth-first paths the automaton allows reach every position
    within ``depth`` moves, each first at its true distance (breadth-first search)."""
    table = cycles.cached_automaton()
    n = rows * cols
    for b0 in range(n):
        start = reference.to_str(list(range(1, n))[:b0] + [0] + list(range(1, n))[b0:])
        dist = {start: 0}
        todo = deque([start])
        while todo:
            s = todo.popleft()
            if dist[s] == depth:
                continue
            for t in reference.moves_from(s, rows, cols):
                if t not in dist:
                    dist[t] = dist[s] + 1
                    todo.append(t)
        best = {}

        def dfs(s, q, g):
            if best.get(s, depth + 1) > g:
                best[s] = g
            if g == depth:
                return
            b = s.index("0")
            r, c = divmod(b, cols)
            for m, (dr, dc) in enumerate(STEPS):
                if not (0 <= r + dr < rows and 0 <= c + dc < cols) or table[q, m] < 0:
                    continue
                t = list(s)
                k = (r + dr) * cols + c + dc
                t[b], t[k] = t[k], "0"
                dfs("".join(t), table[q, m], g + 1)

        dfs(start, 0, 0)
        assert best == dist, (rows, cols, b0)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (3, 4)])
def test_deepening_counts_with_cycles_match_a_recursive_version(rows, cols, rng):
    """IDDFS and IDA* skipping the strings: lengths, generated and expanded against the
    recursive version that checks each path's end against the strings themselves, on one
    thread and two (every pass shared)."""
    found, _ = strings(cycles.DEFAULT_MAX_LEN)
    skip = set(found)
    goal = list(range(1, rows * cols)) + [0]
    puz = SlidingPuzzle(rows, cols)
    for walk in (9, 16, 30):
        start = random_board(rows, cols, rng, walk=walk)
        for method, h in (("iddfs", None), ("idastar", reference.manhattan_to(goal, cols))):
            want = reference.deepening_stats(start, goal, rows, cols, h, skip=skip)
            for threads in (1, 2):
                sol = solve(puz, start, method=method, threads=threads)
                assert sol.extra["prune"] == "cycles"
                assert (sol.length, sol.stats.generated, sol.stats.expanded) == want, (
                    method, threads, start)


def test_cycles_and_parent_find_the_same_lengths_on_the_15_puzzle(rng):
    """Random 15-puzzle boards, Manhattan and the 5-5-5 databases: same lengths, fewer nodes,
    the same on one thread and two; solve_many agrees with solve."""
    puz = SlidingPuzzle("4x4")
    starts = [random_board(4, 4, rng, walk=w) for w in (40, 50, 60, 80)]
    for heuristic in ("manhattan", "pdb555"):
        for s in starts:
            a = solve(puz, s, heuristic=heuristic, prune="parent", threads=1)
            b = solve(puz, s, heuristic=heuristic, threads=1)
            c = solve(puz, s, heuristic=heuristic, threads=2)
            assert a.length == b.length == c.length
            assert b.stats.generated <= a.stats.generated
            assert (b.stats.generated, b.moves) == (c.stats.generated, c.moves)
            assert puz.apply_moves(s, b.moves)[-1] == list(range(1, 16)) + [0]
        many = solve_many(puz, starts, heuristic=heuristic, threads=2)
        assert many.extra["prune"] == "cycles"
        for s, r in zip(starts, many):
            one = solve(puz, s, heuristic=heuristic, threads=1)
            assert (r.length, r.stats.generated) == (one.length, one.stats.generated)


def test_pruning_is_refused_where_it_cannot_apply():
    eight = SlidingPuzzle("3x3")
    start = "8 6 7 2 5 4 3 0 1"
    with pytest.raises(PuzzleError, match="counting all optimal solutions needs every path"):
        solve(eight, start, all_solutions=True, prune="cycles")
    with pytest.raises(PuzzleError, match="prune applies to iddfs and idastar, not bfs"):
        solve(eight, start, method="bfs", prune="cycles")
    with pytest.raises(PuzzleError, match="unknown prune 'x'"):
        solve(eight, start, prune="x")
    counted = solve(eight, start, all_solutions=True)
    assert counted.solutions == 40 and counted.extra["prune"] == "parent"


def test_cli_prune(capsys):
    from puzzlelib.cli import main

    start = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf's first, 57 moves
    goal = " ".join(map(str, range(16)))
    got = {}
    for prune in ("parent", "cycles"):
        assert main(["solve", "--size", "4x4", "--goal", goal, "--start", start, "--threads",
                     "1", "--prune", prune, "--heuristic", "pdb555", "--json"]) == 0
        got[prune] = json.loads(capsys.readouterr().out)
    assert got["parent"]["length"] == got["cycles"]["length"] == 57
    assert got["cycles"]["stats"]["generated"] < got["parent"]["stats"]["generated"]
    assert got["cycles"]["prune"] == "cycles" and got["parent"]["prune"] == "parent"
    assert main(["solve", "--start", "8 6 7 2 5 4 3 0 1", "--all", "--prune", "cycles"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "counting all optimal solutions needs every path" in err[0]


def test_an_unwritable_cache_folder_only_costs_the_making(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("PUZZLELIB_CACHE", str(blocked))
    monkeypatch.setattr(cycles, "_MADE", {})
    with pytest.warns(UserWarning, match="move automaton .* is unreadable"):
        assert np.array_equal(cycles.cached_automaton(8), cycles.move_automaton(8))
