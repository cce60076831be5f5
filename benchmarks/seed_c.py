"""Build document 001's own C programs, for timing them beside our kernels on this machine.

The programs are read from the source document (``../shared/seeds/001_*.txt``, outside this
repository) and compiled with ``gcc -O2`` into a temporary folder at the time of measuring;
nothing of them is kept in the repository.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("PUZZLELIB_SEEDS") or ROOT.parent / "shared" / "seeds")


def _listings(text):
    """The C listings in the document: from ``#include`` to the closing brace of ``main``."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("#include"):
            j = i
            while j < len(lines) and not lines[j].startswith("int main"):
                j += 1
            while j < len(lines) and lines[j] != "}":
                j += 1
            out.append("\n".join(lines[i: j + 1]) + "\n")
            i = j + 1
        else:
            i += 1
    return out


def build(workdir=None):
    """Compile the document's two programs; returns ``{problem: path}`` or raises
    ``RuntimeError`` saying why not (no gcc, no document)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise RuntimeError("gcc is not installed")
    docs = sorted(SEEDS.glob("001_*.txt"))
    if not docs:
        raise RuntimeError(f"document 001 not found in {SEEDS}")
    listings = _listings(docs[0].read_text(encoding="utf-8"))
    if len(listings) != 2:
        raise RuntimeError(f"expected 2 C listings in {docs[0].name}, found {len(listings)}")
    workdir = Path(workdir or tempfile.mkdtemp(prefix="puzzlelib_seed_c_"))
    programs = {}
    for problem, src in zip((1, 2), listings):
        c = workdir / f"problem{problem}.c"
        c.write_text(src, encoding="utf-8")
        exe = workdir / f"problem{problem}"
        subprocess.run([gcc, "-O2", "-o", str(exe), str(c)], check=True, capture_output=True)
        programs[problem] = exe
    return programs


def run(exe):
    """Run one program; returns (wall seconds, total positions it printed)."""
    t0 = time.perf_counter()
    out = subprocess.run([str(exe)], check=True, capture_output=True).stdout.decode("utf-8", "replace")
    seconds = time.perf_counter() - t0
    totals = re.findall(r"合計\s*(\d+)", out)
    return seconds, int(totals[-1]) if totals else None
