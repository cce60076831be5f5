"""environment.yml and pyproject.toml name the same dependencies; the README's commands exist."""

import re
import tomllib
from pathlib import Path

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
