"""Every command-line form of version 0.1 still runs, and gives what it gave then.

``tests/data/cli_0.1.json`` was recorded by running each command below with puzzlelib 0.1.0
(``python -m puzzlelib``): its exit status, and its output with the timings left out (JSON
fields such as ``seconds``; the ``search: ... s`` lines of plain output). Scripts depend on
these forms. The changes are documented:

- 1.0 prints one JSON shape for every puzzle (``puzzlelib.cli.SOLVE_FIELDS``,
  ``LAYERS_FIELDS``): the fields of 0.1 that moved are read at their new place (:data:`MOVED`,
  the migration table of CHANGELOG.md's 1.0.0 section), those dropped are not compared, and
  ``nodes`` is compared with the ``stats`` field it was (:func:`_nodes_now`);
- ``threads`` now defaults to every core, where ``solve`` took one (the node counts and moves
  are the same whatever the threads);
- on boards of up to 21 cells, now searched as 64-bit words, ``blocks layers`` lists the same
  farthest positions in another order (by their words), and breadth-first ``blocks solve``
  reports another count of positions stored (the goal's layer is cut where the goal is met,
  and the layer's order changed); its moves are the same optimal length;
- depth-first ``solve`` on sliding tiles (``idastar``, ``iddfs``, one solution) now skips every
  string of moves a smaller one replaces (``--prune cycles``): fewer nodes, the same length,
  maybe another optimal solution; with ``--prune parent`` such a form gives its 0.1 output
  exactly, which is what is compared here, and the form as written is checked for the same
  length."""

import io
import json
import re
import sys
from pathlib import Path

import numba
import pytest

from puzzlelib.cli import main

ROOT = Path(__file__).resolve().parent.parent
RECORD = json.loads((ROOT / "tests" / "data" / "cli_0.1.json").read_text())
TIMING = set(RECORD["timing_fields_left_out"])
#: The 0.1 JSON fields that 1.0 moved or dropped: where each is now (a path into the output),
#: None where it is gone (CHANGELOG.md, 1.0.0, the migration table). ``nodes``: see
#: :func:`_nodes_now`.
MOVED = {"size": "definition.size", "goal": "definition.goal", "metric": "definition.metric",
         "operations": "moves", "grid": "start", "states": "stats.stored",
         "expanded": "stats.expanded", "stored": "stats.stored", "rows": None, "cols": None,
         "max_ops": None}


def _norm_text(text):
    text = re.sub(r"search: [0-9.]+ s \(compile [0-9.]+ s\)", "search: T", text)
    return re.sub(r"built in [0-9.]+ s \((built|cache)\)", "built in T", text)


def _drop_timings(value, also=()):
    """``value`` without the fields left out of the record (and ``also``), at any depth."""
    if isinstance(value, dict):
        return {k: _drop_timings(v, also) for k, v in value.items()
                if k not in TIMING and k not in also}
    if isinstance(value, list):
        return [_drop_timings(v, also) for v in value]
    return value


@pytest.mark.parametrize("case", RECORD["cases"], ids=[" ".join(c["args"])[:60]
                                                       for c in RECORD["cases"]])
def test_the_01_form_gives_the_same_output(case, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # (board files are named relative to the repository)
    monkeypatch.setattr(sys, "stdin", io.StringIO(case["stdin"] or ""))
    args = case["args"] + (["--prune", "parent"] if _skips_cycles(case["args"]) else [])
    try:
        code = main(args)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == case["returncode"]
    if code:  # one line naming the problem (progress bars may go to stderr otherwise)
        assert len(err.strip().splitlines()) == case["stderr_lines"] == 1
    if case["kind"] == "json":
        raw = json.loads(out)
        got = _drop_timings(raw, also=("stats",))
        want = _drop_timings(case["stdout"])
        if "threads" in want and "--threads" not in case["args"]:
            assert got["threads"] == numba.get_num_threads()  # every core now
            want = {k: v for k, v in want.items() if k != "threads"}
        if "nodes" in want:
            if not _blocks_bfs(case["args"]):
                assert _nodes_now(raw, case["args"]) == want["nodes"]
            want = {k: v for k, v in want.items() if k != "nodes"}
        if "farthest" in want and case["args"][:2] == ["blocks", "layers"]:
            assert sorted(got["farthest"]) == sorted(want["farthest"])
            want = {k: v for k, v in want.items() if k != "farthest"}
        if case["args"][:1] == ["rotation"] and "forward_counts" not in raw:
            # (0.1 gave a breadth-first answer the form of a bidirectional one)
            assert (raw["counts"], [1]) == (want.pop("forward_counts"),
                                            want.pop("backward_counts"))
        moved, kept = (MOVED, _drop_timings(raw)) if "definition" in raw else ({}, got)
        # (blocks pdb prints what it printed)
        assert {k: _at(kept, moved.get(k, k)) for k in want if moved.get(k, k)} == {
            k: v for k, v in want.items() if moved.get(k, k)}
        stats = [raw["stats"]] if "stats" in raw else [db["stats"] for db in raw["pdbs"]]
        assert all(set(st) >= {"generated", "expanded", "stored"} for st in stats)
    elif case["args"][:2] == ["blocks", "layers"]:  # the farthest boards in any order
        assert _farthest_in_any_order(_norm_text(out)) == _farthest_in_any_order(case["stdout"])
    elif _blocks_bfs(case["args"]):
        assert _no_nodes(_norm_text(out)) == _no_nodes(case["stdout"])
    else:
        assert _norm_text(out) == case["stdout"]


def _at(d, path):
    """``d``'s field at ``path`` (``"stats.stored"``: a field of a field)."""
    for key in path.split("."):
        d = d.get(key)
    return d


def _nodes_now(raw, args):
    """What 0.1 printed as ``nodes``, read from ``stats``: the nodes generated by depth-first
    searches, the nodes expanded by a block puzzle's A*, the positions stored by the others."""
    if raw["method"] in ("iddfs", "idastar"):
        return raw["stats"]["generated"]
    if raw["method"] in ("astar", "greedy") and args[:1] == ["blocks"]:
        return raw["stats"]["expanded"]
    return raw["stats"]["stored"]


def _skips_cycles(args):
    """Whether ``args`` run a depth-first ``solve`` of sliding tiles for one solution (its pruning
    changed since 0.1: see the module)."""
    if args[:1] != ["solve"] or "--puzzle" in args or "--all" in args:
        return False
    method = args[args.index("--method") + 1] if "--method" in args else "idastar"
    return method in ("idastar", "iddfs")


@pytest.mark.parametrize("case", [c for c in RECORD["cases"] if _skips_cycles(c["args"])],
                         ids=lambda c: " ".join(c["args"])[:60])
def test_the_01_depth_first_forms_keep_their_lengths(case, capsys, monkeypatch):
    """As written (skipping cycles): the same exit status, and the same length in no more
    nodes."""
    monkeypatch.chdir(ROOT)
    try:
        code = main(case["args"])
    except SystemExit as e:
        code = e.code
    out, _ = capsys.readouterr()
    assert code == case["returncode"]
    if code:
        pytest.skip("the form exits with an error, as in 0.1: no length to compare")
    if case["kind"] == "json":
        got, want = json.loads(out), case["stdout"]
        assert got["length"] == want["length"] and _nodes_now(got, case["args"]) <= want["nodes"]
        assert got["prune"] == "cycles"
    else:
        assert out.splitlines()[0] == case["stdout"].splitlines()[0]  # "idastar: 31 moves"
        nodes = [int(line.split()[1].replace(",", "")) for text in (out, case["stdout"])
                 for line in text.splitlines() if line.startswith("nodes:")]
        assert nodes[0] <= nodes[1]


def _farthest_in_any_order(text):
    """``blocks layers`` plain output with the boards after its ``total:`` line sorted."""
    head, _, tail = text.partition("\ntotal:")
    line, _, rest = tail.partition("\n")
    boards, _, end = rest.rpartition("\n\nsearch:")
    return head, line, sorted(boards.split("\n\n")), end


def _blocks_bfs(args):
    """Whether ``args`` run breadth-first ``blocks solve`` (its default method)."""
    return args[:2] == ["blocks", "solve"] and "--method" not in args


def _no_nodes(text):
    return re.sub(r"nodes: [0-9,]+", "nodes: N", text)
