"""The package's layers import only downwards, with no cycles, and importing it changes nothing
in the host process."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest


PACKAGE = Path(__file__).resolve().parent.parent / "puzzlelib"

#: Each subpackage's layer; a module may import its own layer and the ones below it.
LAYERS = {"core": 0, "domains": 1, "search": 1, "pdb": 2}
TOP = 3  # the modules directly in puzzlelib/ (the API, the command line, helpers)
#: Domains and searches are both written against the core alone: neither imports the other.
APART = {("domains", "search"), ("search", "domains")}


def _module_name(path):
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path):
    """Every ``puzzlelib`` module ``path`` imports, at any depth (inside functions too)."""
    tree = ast.parse(path.read_text())
    here = _module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "puzzlelib"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "puzzlelib":
                continue
            for a in node.names:  # "from . import x" may name a module
                sub = f"{mod}.{a.name}"
                out.add(sub if _exists(sub) else mod)
    return out


def _exists(name):
    p = PACKAGE.parent.joinpath(*name.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def _layer(name):
    parts = name.split(".")
    if len(parts) == 1:
        return "puzzlelib", TOP
    if parts[1] in LAYERS:
        return parts[1], LAYERS[parts[1]]
    return parts[1], TOP


def _graph():
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def test_imports_only_go_down():
    wrong = []
    for mod, deps in _graph().items():
        group, level = _layer(mod)
        for dep in deps:
            dgroup, dlevel = _layer(dep)
            if dlevel > level or (group, dgroup) in APART:
                wrong.append(f"{mod} -> {dep}")
    assert not wrong, "imports going up or across:\n" + "\n".join(sorted(wrong))


def test_no_import_cycles():
    graph = _graph()
    # a package's __init__ may gather its own modules; the modules must not need it back
    state, cycle = {}, []

    def visit(m, stack):
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if d == m:
                continue
            if state.get(d) == 1:
                cycle.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycle, "import cycles:\n" + "\n".join(cycle)


def test_the_checks_see_a_cycle_and_an_upward_import(tmp_path):
    """The two tests above read real import statements: a module importing one above it, and
    two importing each other, are found."""
    global PACKAGE
    pkg = tmp_path / "puzzlelib"
    for sub in ("core", "domains"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("from ..domains import b\n")
    (pkg / "domains" / "b.py").write_text("def f():\n    from ..core import a\n")
    saved, PACKAGE = PACKAGE, pkg
    try:
        graph = _graph()
        assert graph["puzzlelib.core.a"] == {"puzzlelib.domains.b"}
        assert graph["puzzlelib.domains.b"] == {"puzzlelib.core.a"}
        with pytest.raises(AssertionError, match="puzzlelib.core.a -> puzzlelib.domains.b"):
            test_imports_only_go_down()
        with pytest.raises(AssertionError, match="puzzlelib.core.a -> puzzlelib.domains.b -> "
                                                 "puzzlelib.core.a"):
            test_no_import_cycles()
    finally:
        PACKAGE = saved


_IMPORT_ONLY = """
import ctypes, json, os
import numba

asked = []
class Spy(ctypes.CDLL):
    def __getattr__(self, name):
        asked.append(name)
        return super().__getattr__(name)
ctypes.CDLL = Spy
cache_dir = numba.config.CACHE_DIR

import puzzlelib
from numba.np.ufunc import parallel

@numba.njit(cache=True)
def users_own(x):
    return x + 1

print(json.dumps({
    "mallopt": "mallopt" in asked,
    "cache_dir_kept": numba.config.CACHE_DIR == cache_dir,
    "threads_started": bool(parallel._is_initialized),
    "users_cache": users_own._cache.cache_path,
}))
"""


def test_importing_the_package_changes_nothing_in_the_process(tmp_path):
    """No malloc settings, no thread pool started, numba's cache settings untouched: a user's
    own cached function goes where numba would put it, not into the package's folder."""
    script = tmp_path / "user_script.py"
    script.write_text(_IMPORT_ONLY)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["mallopt"] is False
    assert got["cache_dir_kept"] is True
    assert got["threads_started"] is False
    assert "puzzlelib" not in got["users_cache"]
    assert got["users_cache"].startswith(str(tmp_path))  # numba's own choice: beside the script


def test_tune_is_what_makes_the_settings(tmp_path):
    script = tmp_path / "tuned.py"
    script.write_text(_IMPORT_ONLY.replace("import puzzlelib\n", "import puzzlelib\npuzzlelib.tune()\n"))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["threads_started"] is True
    import platform

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert got["mallopt"] is True
