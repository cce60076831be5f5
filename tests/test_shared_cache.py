"""Two processes, one cache: pattern databases and numba's compiled code made by several
processes into one folder at once leave one good file, and a damaged file is found and made
again with a warning."""

import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from puzzlelib import PancakePuzzle
from puzzlelib.core import jit, store
from puzzlelib.pdb import permutation as perm_pdb


def _env(tmp_path):
    """A fresh cache folder for pattern databases, whose numba folder is this session's own
    (the kernels compiled once, not by every child)."""
    root = tmp_path / "cache"
    (root / "numba").mkdir(parents=True)
    os.makedirs(jit.cache_folder(), exist_ok=True)
    os.symlink(os.path.abspath(jit.cache_folder()), root / "numba" / jit.DIGEST)
    env = dict(os.environ, PUZZLELIB_CACHE=str(root))
    env.pop("NUMBA_CACHE_DIR", None)
    return env, root


_BUILDER = """
import hashlib, json, os, sys, time, warnings
from puzzlelib import PancakePuzzle
from puzzlelib.pdb import permutation
me, n, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
puzzle = PancakePuzzle(12)
permutation.build(puzzle, [1, 2, 3, 4, 5, 6])  # compiled (or loaded) before the race
open(os.path.join(folder, f"ready{me}"), "w").close()
while not all(os.path.exists(os.path.join(folder, f"ready{i}")) for i in range(n)):
    time.sleep(0.0005)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    db = permutation.pattern_database(puzzle, [1, 2, 3, 4, 5, 6])
print(json.dumps({"source": db.source, "sha": hashlib.sha256(db.table.tobytes()).hexdigest(),
                  "warnings": [str(w.message) for w in caught]}))
"""


def test_two_processes_building_the_same_database_both_succeed_and_build_it_once(tmp_path):
    env, root = _env(tmp_path)
    n = 2
    children = [subprocess.Popen([sys.executable, "-c", _BUILDER, str(i), str(n), str(tmp_path)],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for i in range(n)]
    outs = []
    for child in children:
        out, err = child.communicate(timeout=900)
        assert child.returncode == 0, err
        outs.append(json.loads(out.strip().splitlines()[-1]))
    assert len({o["sha"] for o in outs}) == 1
    # the lock: one built it, the other waited and read the file the first wrote
    assert sorted(o["source"] for o in outs) == ["built", "cache"]
    waited = [o for o in outs if o["source"] == "cache"][0]
    assert any("waiting for it" in w for w in waited["warnings"]) or not waited["warnings"]
    files = sorted(p.name for p in (root / "pdb").iterdir())
    assert [f for f in files if f.endswith(".pdb")] and not [f for f in files if ".tmp" in f]
    pdb_file = root / "pdb" / [f for f in files if f.endswith(".pdb")][0]
    assert store.read(pdb_file, {}, "pattern database") is not None


def test_a_truncated_or_damaged_permutation_database_is_rebuilt_with_a_warning(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setenv("PUZZLELIB_CACHE", str(tmp_path))
    puzzle = PancakePuzzle(7)
    labels = [1, 2, 3, 4]
    first = perm_pdb.pattern_database(puzzle, labels)
    good = first.table.copy()
    path = perm_pdb._file_for(puzzle, perm_pdb.piece_numbers(puzzle, labels))
    whole = path.read_bytes()
    for damage in (lambda b: b[:-100], lambda b: b[:-1] + bytes([b[-1] ^ 0xFF]), lambda b: b[:5]):
        path.write_bytes(damage(whole))
        perm_pdb._MEMORY.clear()
        with pytest.warns(UserWarning, match="checksum|unreadable"):
            again = perm_pdb.pattern_database(puzzle, labels)
        assert again.source == "built" and np.array_equal(again.table, good)
        perm_pdb._MEMORY.clear()
        assert perm_pdb.pattern_database(puzzle, labels).source == "cache"  # written anew


def test_the_lock_is_taken_in_turns_and_a_waiter_is_told(tmp_path):
    """A second process asking for a lock another holds waits for it, with a warning."""
    target = tmp_path / "x.pdb"
    child = textwrap.dedent(f"""
        import warnings
        from puzzlelib.core import store
        print("ready", flush=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with store.locked({str(target)!r}, "the test file") as held:
                print(held, [str(x.message) for x in w])
    """)
    with store.locked(target, "the test file") as held:
        assert held
        proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "ready\n"
        time.sleep(2)
        assert proc.poll() is None  # it waits while this process holds the lock
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.startswith("True") and "waiting for it" in out


_SAVER = """
import sys
from puzzlelib.core.jit import _SharedCacheFile
me, folder = sys.argv[1], sys.argv[2]
cache = _SharedCacheFile(folder, "f-1.py311", "stamp")
for k in range(40):
    cache.save(("sig", me, k), f"code of {me}:{k}" * 50)
"""


def test_numba_cache_files_saved_by_processes_at_once_name_their_own_code(tmp_path):
    """numba alone can let two processes saving different signatures pick one data file, and
    an index then names the other's code; with the lock every entry loads its own."""
    folder = tmp_path / "numba"
    folder.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", _SAVER, str(i), str(folder)],
                              stderr=subprocess.PIPE, text=True) for i in range(3)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    cache = jit._SharedCacheFile(str(folder), "f-1.py311", "stamp")
    for me in range(3):
        for k in range(40):
            assert cache.load(("sig", str(me), k)) == f"code of {me}:{k}" * 50


def test_a_damaged_numba_cache_file_is_compiled_again_with_a_warning(tmp_path):
    cache = jit._SharedCacheFile(str(tmp_path), "f-1.py311", "stamp")
    cache.save("key", "compiled code")
    assert cache.load("key") == "compiled code"
    data = tmp_path / "f-1.py311.1.nbc"
    whole = data.read_bytes()
    for damaged in (whole[:-7], whole[:40] + b"x" + whole[41:], b""):
        data.write_bytes(damaged)
        with pytest.warns(UserWarning, match="is damaged"):
            assert cache.load("key") is None
    (tmp_path / "f-1.py311.nbi").write_bytes(b"\x80\x04garbage")  # a damaged index: a miss
    assert cache.load("key") is None
    cache.save("key", "compiled again")
    assert cache.load("key") == "compiled again"
