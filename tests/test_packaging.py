"""environment.yml and pyproject.toml name the same dependencies; the README's commands exist."""

import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _name(req):
    return re.split(r"[<>=!~ \[]", req.strip(), maxsplit=1)[0].lower()


def test_environment_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r): r.replace(" ", "") for r in project["dependencies"]}
    wanted.update({_name(r): r.replace(" ", "") for r in project["optional-dependencies"]["test"]})
    conda = {}
    deps = (ROOT / "environment.yml").read_text().split("dependencies:", 1)[1]
    for line in deps.splitlines():
        m = re.match(r"\s+-\s+([A-Za-z][\w.-]*.*)$", line)
        if m and not line.strip().startswith("- -e") and m.group(1) not in ("pip", "pip:"):
            conda[_name(m.group(1))] = m.group(1).replace(" ", "")
    conda.pop("python", None)
    assert conda == wanted
    assert "- -e ." in (ROOT / "environment.yml").read_text()  # the package itself


def test_readme_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:sh|bash)?\n(.*?)```", text, re.S)
    assert blocks, "README has no command block"
    first = blocks[0]
    assert "make reproduce" in first and "make test" in first
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^reproduce:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def _build_wheel(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                          str(tmp_path / "dist"), str(ROOT)], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr
    wheels = list((tmp_path / "dist").glob("puzzlelib_search-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


_CHILD = ("import json, puzzlelib; print(json.dumps([puzzlelib.__file__, puzzlelib.solve("
          "puzzlelib.SlidingPuzzle('2x2'), '1 2 0 3', method='bfs').moves]))")


def test_a_built_wheel_holds_the_whole_package_under_its_free_name(tmp_path):
    """The distribution is puzzlelib-search ("puzzlelib" on PyPI is another project); the import
    name stays puzzlelib. The wheel holds every module and the dependencies, and the package
    imported from it alone (not from this tree) answers."""
    import json
    import subprocess
    import sys
    import zipfile

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "puzzlelib-search"
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        z.extractall(tmp_path / "site")
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "puzzlelib").rglob("*.py")}
    assert modules <= names, sorted(modules - names)
    assert "Name: puzzlelib-search" in meta
    for req in project["dependencies"]:
        assert f"Requires-Dist:{req.replace(' ', '')}" in meta.replace(" ", ""), req
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"))
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    where, moves = json.loads(out.stdout)
    assert where.startswith(str(tmp_path / "site")) and moves == "r"


@pytest.mark.heavy
def test_the_wheel_installs_in_a_fresh_virtual_environment(tmp_path):
    """pip installs the wheel and its dependencies (from the package index) into a new virtual
    environment, and the package answers there."""
    import json
    import subprocess
    import sys

    wheel = _build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=600)
    py = venv / "bin" / "python"
    out = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)],
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([str(py), "-c", _CHILD], capture_output=True, text=True, cwd=tmp_path,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    where, moves = json.loads(out.stdout)
    assert where.startswith(str(venv)) and moves == "r"
