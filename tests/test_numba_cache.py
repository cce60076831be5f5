"""Search kernels are cached on disk for this package's domains, and only for them."""

import json
import os
import subprocess
import sys

import numba
from numba import njit, typeof

from puzzlelib.core import jit as _numba_cache
from puzzlelib.core.contract import DomainFns
from puzzlelib.domains import blocks, permutation, rotation, sliding
from puzzlelib.search import bidirectional, idastar, layered
from puzzlelib.search.workshare import workers


def test_domain_functions_have_the_same_id_in_every_process():
    assert sliding._step._uuid == "puzzlelib:puzzlelib.domains.sliding.moves._step"
    assert rotation.FNS.step._uuid == "puzzlelib:puzzlelib.domains.rotation._step"
    ids = [f._uuid for bundle in (sliding.FNS, rotation.FNS, blocks.FNS, permutation.FNS_LOW_SWAPS)
           for f in bundle if f is not None]  # (optional functions: None)
    assert permutation.FNS_LOW_SWAPS.rank_from._uuid.endswith("permutation.hashing._rank_from_low")
    assert all(u.startswith(_numba_cache.PREFIX) for u in ids)


@njit
def _foreign_step(state, m, params):
    return 0


def test_kernels_save_no_entry_for_functions_from_outside_the_package():
    ours = typeof(sliding.FNS)
    mixed = typeof(sliding.FNS._replace(step=_foreign_step))
    assert _numba_cache._only_stable_functions(ours)
    assert not _numba_cache._only_stable_functions(mixed)
    assert not _numba_cache._only_stable_functions(typeof(_foreign_step))
    # a function of a user's module keeps numba's random id, even through domain_fn
    assert not _foreign_step._uuid.startswith(_numba_cache.PREFIX)
    assert isinstance(DomainFns(*sliding.FNS), DomainFns)


def test_every_search_kernel_uses_the_guarded_cache():
    import inspect

    from numba.core.registry import CPUDispatcher

    from puzzlelib.search import astar, frontier

    given_fns = []
    for module in (astar, bidirectional, frontier, idastar, layered):
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__:
                if "fns" in inspect.signature(obj.py_func).parameters:
                    given_fns.append(name)
                    assert isinstance(obj._cache, _numba_cache.KernelCache), name
    assert len(given_fns) >= 15


def test_workers_follows_the_thread_count():
    saved = numba.get_num_threads()
    try:
        assert workers(1000) == saved
        numba.set_num_threads(1)
        assert workers(1000) == 1
    finally:
        numba.set_num_threads(saved)
    assert workers(0) == 1


_CHILD = """
import json
import puzzlelib
from puzzlelib.search import layered
puzzlelib.layers(puzzlelib.SlidingPuzzle("2x2"), "2 3 1 0", threads=1)
puzzlelib.solve(puzzlelib.SlidingPuzzle("2x2"), "3 1 2 0", method="bfs")
hits = misses = 0
for k in (layered._bfs_lists_run, layered.path_to):
    hits += sum(k.stats.cache_hits.values())
    misses += sum(k.stats.cache_misses.values())
print(json.dumps({"hits": hits, "misses": misses}))
"""


def test_a_second_process_loads_the_kernels_instead_of_compiling_them(tmp_path):
    env = dict(os.environ, PUZZLELIB_CACHE=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                             text=True, timeout=600, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0]["misses"] > 0, "the first process should have compiled the kernels"
    assert runs[1] == {"hits": runs[0]["misses"], "misses": 0}


_FAULTS = """
import json, resource
import puzzlelib
puzzlelib.tune()
eight = puzzlelib.SlidingPuzzle("3x3")
for _ in range(3):  # compiled (or loaded from the cache), then warm
    puzzlelib.layers(eight, "1 2 3 4 5 6 7 8 0", threads=1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    puzzlelib.layers(eight, "1 2 3 4 5 6 7 8 0", threads=1)
after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
print(json.dumps((after - before) / 5))
"""


def test_a_process_that_loaded_its_kernels_does_not_fault_its_tables_in_anew():
    """The 8-puzzle's whole table, again and again, in a process that loaded its kernels from
    the cache (the second one here): its memory is reused from call to call, not unmapped and
    faulted in again (about 500 page faults per call without
    :func:`~puzzlelib.tuning.keep_freed_memory`, which :func:`puzzlelib.tune` makes)."""
    import platform

    from puzzlelib import tuning as memory

    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        import pytest

        pytest.skip("the setting is made for glibc only")
    env = dict(os.environ)
    env.pop("PUZZLELIB_MALLOC", None)
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _FAULTS], env=env, capture_output=True,
                             text=True, timeout=600, check=True)
    faults = json.loads(out.stdout.strip().splitlines()[-1])
    assert faults < 50, f"{faults} page faults per call"
    os.environ["PUZZLELIB_MALLOC"] = "default"
    try:
        assert not memory.keep_freed_memory()
    finally:
        del os.environ["PUZZLELIB_MALLOC"]
    assert memory.keep_freed_memory()


_PROBE_A = """
from .core.jit import jit
from ._probe_b import value


@jit
def probe():
    return value()
"""

_PROBE_B = """
from .core.jit import jit


@jit
def value():
    return {}
"""


def _package_copy(tmp_path, **modules):
    """A copy of the package under ``tmp_path/src`` with ``modules`` (name: source) added, and
    the environment of a process that imports it and caches in ``tmp_path/c``."""
    import shutil

    import puzzlelib

    pkg = tmp_path / "src" / "puzzlelib"
    shutil.copytree(os.path.dirname(puzzlelib.__file__), pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, source in modules.items():
        (pkg / f"{name}.py").write_text(source)
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"), PUZZLELIB_CACHE=str(tmp_path / "c"))
    env.pop("NUMBA_CACHE_DIR", None)
    return pkg, env


def test_a_changed_file_never_leaves_a_stale_kernel_in_another(tmp_path):
    """A function whose own file did not change, but which inlined code from a file that did,
    must be compiled again (numba alone would load it stale: its key is its own file). A copy
    of the package gets two probe modules; the second one's answer changes between runs."""
    pkg, env = _package_copy(tmp_path, _probe_a=_PROBE_A)
    child = "from puzzlelib._probe_a import probe; print(probe(), probe.stats.cache_hits)"
    answers = []
    for value in (1, 1, 2):
        (pkg / "_probe_b.py").write_text(_PROBE_B.format(value))
        out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, cwd=tmp_path,
                             text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        answers.append(out.stdout.split()[0])
    # the second run loaded the kernel from the cache; the third compiled it again
    assert answers == ["1", "1", "2"]


def test_a_function_compiled_for_a_caller_gets_its_wrappers_when_python_calls_it():
    # numba compiles value() for probe() without the wrappers Python needs; a call from
    # Python then compiles it again with them, and both answer
    @_numba_cache.jit
    def value(x):
        return x * 3

    @_numba_cache.jit
    def probe(x):
        return value(x) + 1

    assert probe(4) == 13
    assert len(value.overloads) == 1 and len(value._inner_only) == 1
    assert value(4) == 12 and not value._inner_only
    assert probe(5) == 16 and value(5) == 15


def test_the_cache_keeps_code_without_wrappers_apart(tmp_path):
    """In a copy of the package: a process that only ran the probe saved value() without its
    wrappers; a later process calling value() from Python compiles it (loading that code
    would crash), and one after that loads it."""
    _, env = _package_copy(tmp_path, _probe_a=_PROBE_A, _probe_b=_PROBE_B.format(7))
    children = [
        "from puzzlelib._probe_a import probe; print(probe())",
        "from puzzlelib._probe_b import value; import json; "
        "print(value(), json.dumps([sum(value.stats.cache_hits.values()), "
        "sum(value.stats.cache_misses.values())]))",
        "from puzzlelib._probe_b import value; import json; "
        "print(value(), json.dumps([sum(value.stats.cache_hits.values()), "
        "sum(value.stats.cache_misses.values())]))",
    ]
    runs = []
    for child in children:
        out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                             cwd=tmp_path, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        runs.append(out.stdout.split())
    assert runs == [["7"], ["7", "[0,", "1]"], ["7", "[1,", "0]"]]


def test_the_digest_follows_the_files_kernels_are_compiled_from(tmp_path):
    """Editing a plain-Python module (the teaching versions, the pictures) keeps the compiled
    kernels; editing a kernel layer's file, or a top-level file that uses the jit module, does
    not."""
    import shutil

    import puzzlelib
    from puzzlelib.core.jit import source_digest

    pkg = tmp_path / "puzzlelib"
    shutil.copytree(os.path.dirname(puzzlelib.__file__), pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    before = source_digest(pkg)
    for plain in ("teaching/search.py", "animation.py", "interact.py"):
        with open(pkg / plain, "a") as f:
            f.write("\n# edited\n")
    assert source_digest(pkg) == before
    with open(pkg / "search" / "layered.py", "a") as f:
        f.write("\n# edited\n")
    after_kernel = source_digest(pkg)
    assert after_kernel != before
    (pkg / "_probe.py").write_text(_PROBE_B.format(1))
    assert source_digest(pkg) != after_kernel


_PROBE = """
from .core.jit import jit


@jit
def probe(n):
    total = 0
    for i in range(n):
        total += i * i
    return total
"""


def test_a_process_finds_damaged_compiled_code_and_compiles_it_again(tmp_path):
    """End to end, in a copy of the package: the second run loads the probe, the third finds
    its data file cut short, warns, compiles, answers right, and the fourth loads again."""
    _, env = _package_copy(tmp_path, _probe=_PROBE)
    child = ("from puzzlelib._probe import probe; print(probe(1000), "
             "sum(probe.stats.cache_hits.values()))")
    runs = []
    for step in range(4):
        if step == 2:
            for f in (tmp_path / "c").rglob("*_probe*.nbc"):
                f.write_bytes(f.read_bytes()[:-50])
        out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                             cwd=tmp_path, text=True, timeout=600)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        runs.append((out.stdout.split(), "is damaged" in out.stderr))
    answer = str(sum(i * i for i in range(1000)))
    assert runs == [([answer, "0"], False), ([answer, "1"], False), ([answer, "0"], True),
                    ([answer, "1"], False)]


def test_ready_says_whether_a_call_would_compile():
    # compiled here for these types; saved in the cache (a new dispatcher of the same function
    # has compiled nothing yet); neither, for types never compiled
    import numpy as np

    from puzzlelib.search.idastar import first_bound

    args = (np.int64(3), np.int64(8), np.int64(2))
    first_bound(*args)
    assert _numba_cache.ready(first_bound, args)
    fresh = _numba_cache.jit(first_bound.py_func)
    assert not fresh.overloads and _numba_cache.ready(fresh, args)
    assert not _numba_cache.ready(fresh, (np.float32(3), np.int8(8), np.int16(2)))
    assert not _numba_cache.ready(fresh, (object(), 1, 2))  # (types numba does not know)


def test_a_short_threaded_search_shares_no_pass_until_the_shared_pass_is_ready(monkeypatch):
    # the shared pass is compiled only once it is ready (compiled, or in the cache) or the
    # process has searched SPLIT_AFTER_SECONDS without it, or is about to with the next pass
    # (guessed from the last); a caller naming split_after shares
    # at once; the counts are the same either way
    puz = sliding.SlidingPuzzle("3x3")
    start = puz.encode("8 6 7 2 5 4 3 0 1")
    shared = []
    real = idastar._split_pass

    def counted(*args):
        shared.append(1)
        return real(*args)

    counted.overloads = {}  # (as if compiled for no search in this process)

    monkeypatch.setattr(idastar, "_split_pass", counted)

    def run(**kw):
        shared.clear()
        r = idastar.iterative_deepening(start, puz.depth_first.fns, puz.params,
                                        puz.residue(start), True, 80, parallel=True, **kw)
        return (r.length, r.solutions, r.generated, r.expanded), len(shared)

    monkeypatch.setattr(idastar, "ready", lambda *a: False)
    monkeypatch.setattr(idastar, "_unshared", [0.0])
    serial, calls = run()
    assert calls == 0 and serial[:2] == (31, 40)
    assert idastar._unshared[0] > 0  # (the passes it could have shared, timed)
    assert run(split_after=idastar.SPLIT_MIN_NODES) == (serial, 2)  # bounds 29 and 31
    monkeypatch.setattr(idastar, "_unshared", [idastar.SPLIT_AFTER_SECONDS])
    assert run() == (serial, 2)
    # a hair below: the first pass that could be shared is not, and its time says that the
    # next one would pass the threshold, so that one is
    monkeypatch.setattr(idastar, "_unshared", [idastar.SPLIT_AFTER_SECONDS - 1e-9])
    assert run() == (serial, 1)
    monkeypatch.setattr(idastar, "_unshared", [0.0])
    monkeypatch.setattr(idastar, "ready", lambda *a: True)
    assert run() == (serial, 2)
