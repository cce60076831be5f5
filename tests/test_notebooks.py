"""Every notebook runs top to bottom at the small size (through the reproduce command), shows
the source documents' published figures beside ours, equal where they must be, and is
committed executed."""

import csv
import re
from pathlib import Path

import nbformat
import pytest

from puzzlelib import reproduce
from puzzlelib.exercises import EXERCISES

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
BOOKS = {b.stem: b for b in reproduce.notebooks()}
NAMES = ["00_search_algorithms", "01_8puzzle_bfs_iddfs", "02_indistinguishable_pieces", "03_15puzzle_astar_pdb",
         "04_rotation_bidirectional", "05_block_puzzles_pdb", "06_your_own_puzzle",
         "07_beyond_memory", "08_exercises"]
#: The table each notebook saves: the published figures beside ours, or (08) the grades.
TABLES = {"08_exercises": "grades.csv"}


def _csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_the_notebooks_are_the_lessons_in_order():
    assert list(BOOKS) == NAMES


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Each notebook executed once at the small size: name -> its results folder."""
    out = tmp_path_factory.mktemp("notebooks")
    done = {}

    def run(name):
        if name not in done:
            reproduce.run_notebook(BOOKS[name], out, small=True, timeout=900)
            done[name] = out / name
        return done[name]

    return run


@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes_small_and_saves_figures_and_tables(name, ran):
    folder = ran(name)
    executed = nbformat.read(folder.parent / f"{name}.ipynb", as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert len(list(folder.glob("*.png"))) >= 3, "the notebook saved too few figures"
    assert (folder / TABLES.get(name, "published_vs_ours.csv")).exists()


def test_00_puts_every_algorithm_beside_its_plain_version(ran):
    folder = ran(NAMES[0])
    rows = {r["algorithm"]: r for r in _csv(folder / "algorithms.csv")}
    assert list(rows) == ["breadth-first", "bidirectional", "iterative deepening", "A*", "IDA*",
                          "IDA* + pattern databases"]
    assert {r["length"] for r in rows.values()} == {"20"}
    for name in ("iterative deepening", "IDA*", "IDA* + pattern databases"):
        r = rows[name]
        assert r["plain generated"] == r["kernel generated"]
        assert r["plain expanded"] == r["kernel expanded"]
    # a better bound needs fewer nodes
    assert (int(rows["IDA* + pattern databases"]["plain generated"])
            < int(rows["IDA*"]["plain generated"])
            < int(rows["iterative deepening"]["plain generated"]))
    published = _csv(folder / "published_vs_ours.csv")
    assert len(published) == 5 and all(r["published"] == r["ours"] for r in published)


def test_01_shows_document_000s_figures(ran):
    rows = {(r["experiment"], r["quantity"]): r
            for r in _csv(ran(NAMES[1]) / "published_vs_ours.csv")}
    published = {r["experiment"]: r for r in _csv(DATA / "published" / "000_8puzzle.csv")}
    for exp in ("bfs", "bidir", "iddfs", "iddfs_lower_bound"):
        assert rows[(exp, "moves")]["ours"] == published[exp]["published_moves"] == "31"
    assert rows[("bfs", "states")]["ours"] == published["bfs"]["published_count"] == "181440"
    assert rows[("longest", "depth")]["ours"] == published["longest"]["published_moves"] == "31"
    assert rows[("longest", "positions")]["ours"] == published["longest"]["published_count"]
    for exp in ("iddfs", "iddfs_lower_bound"):
        assert rows[(exp, "solutions")]["ours"] == published[exp]["published_count"] == "40"
    assert rows[("iddfs_lower_bound", "initial_bound")]["ours"] == "21"
    assert all(r["published"] == r["ours"] for r in rows.values())


def test_02_shows_document_001s_figures(ran):
    folder = ran(NAMES[2])
    rows = {(r["problem"], r["quantity"]): r["ours"]
            for r in _csv(folder / "published_vs_ours.csv")}
    for doc in _csv(DATA / "published" / "001_indistinguishable.csv"):
        p = doc["problem"]
        assert rows[(p, "positions")] == doc["positions"]
        assert rows[(p, "greatest depth")] == doc["longest"]
        assert rows[(p, "farthest positions")] == doc["n_farthest"]
        assert sorted(rows[(p, "farthest")].split("|")) == sorted(doc["farthest"].split("|"))
    printed = _csv(folder / "printed_lines_check.csv")
    want = {(r["problem"], r["move"]): r["printed_count"]
            for r in _csv(DATA / "published" / "001_printed_lines.csv")}
    assert {(r["problem"], r["move"]): r["ours"] for r in printed} == want


def test_03_shows_document_002s_and_korfs_figures(ran):
    rows = _csv(ran(NAMES[3]) / "published_vs_ours.csv")
    doc = [r for r in rows if r["source"] == "doc 002"]
    assert {r["ours"] for r in doc if "length" in r["quantity"]} == {"22"}
    assert {r["ours"] for r in doc if "path" in r["quantity"]} == {"rrdllldruuurdllddrurrd"}
    korf = {r["id"]: r["optimal_length"] for r in _csv(DATA / "korf100.csv")}
    lengths = [r for r in rows if r["quantity"].startswith("optimal length")]
    assert len(lengths) >= 9
    assert all(r["ours"] == korf[r["instance"]] == r["published"] for r in lengths)


def test_04_shows_document_003s_figures(ran):
    rows = {r["quantity"]: r for r in _csv(ran(NAMES[4]) / "published_vs_ours.csv")}
    # the document's count, 3 levels from each end (a goal 5 levels down needs 3 + 2: 51)
    assert (rows["toy count, one way"]["ours"],
            rows["toy count, both ends, 3 levels each"]["ours"]) == ("363", "78")
    samples = _csv(DATA / "instances_003_rotation.csv")
    for i, s in enumerate(samples, 1):
        assert rows[f"sample {i} answer"]["ours"] == s["answer"]


def test_05_shows_document_004s_figures(ran):
    rows = {r["quantity"]: r["ours"] for r in _csv(ran(NAMES[5]) / "published_vs_ours.csv")}
    assert rows["patterns of 36-0-0-f, 6x7 board"] == "21090"  # 30 * C(38, 2), Table 2
    assert rows["patterns of 50-0-0-f, 7x8 board"] == "55692"  # 42 * C(52, 2), Table 3


def test_06_shows_the_published_figures(ran):
    rows = _csv(ran(NAMES[6]) / "published_vs_ours.csv")
    assert rows and all(r["published"] == r["ours"] for r in rows)
    ours = {(r["experiment"], r["quantity"]): r["ours"] for r in rows}
    doc = _csv(DATA / "published" / "006_permutation_puzzles.csv")
    assert len(doc) == (12 + 2) + (15 + 2) + 14 + 10 and all(r["source"] for r in doc)
    pub = {(r["experiment"], r["quantity"], r["n"]): r["published"] for r in doc}
    for metric, gods_number in (("htm", "11"), ("qtm", "14")):
        cube = f"pocket cube {metric}"
        assert ours[(cube, "God's number")] == pub[(cube, "God's number", "")] == gods_number
        assert ours[(cube, "positions in all")] == pub[(cube, "positions in all", "")] == "3674160"
        for d in range(int(gods_number) + 1):
            want = pub[(cube, "positions at depth", str(d))]
            assert ours[(cube, f"positions at depth {d}")] == want
    for n in range(2, 10):  # the small run's pancake numbers (the full run goes on to 12)
        assert ours[("pancake", f"P({n})")] == pub[("pancake", "P(n)", str(n))]
    frame_stewart = ["1", "3", "5", "9", "13", "17"]  # 1..6 discs in the small run
    for n, moves in enumerate(frame_stewart, 1):
        assert ours[("4-peg Hanoi", f"fewest moves, {n} discs")] == moves
        assert pub[("4-peg Hanoi", "fewest moves", str(n))] == moves


def test_07_shows_the_published_figures(ran):
    """The 2x7 table's counts at every depth (read from our committed run), its total and its
    greatest depth, beside the published ones; and the packed kernel against bytes."""
    folder = ran(NAMES[7])
    rows = _csv(folder / "published_vs_ours.csv")
    assert len(rows) == 109 + 2 and all(r["published"] == r["ours"] for r in rows)
    kernels = _csv(folder / "packed_vs_bytes.csv")
    by = {(r["board"], r["table"]): r for r in kernels}
    assert by[("2x5", "bytes")]["positions"] == by[("2x5", "packed")]["positions"] == "1814400"
    assert len(_csv(folder / "dask_vs_local.csv")) >= 1


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_is_executed(name):
    """The notebooks are committed with their outputs: every code cell ran, none failed, and
    the figures are in."""
    nb = nbformat.read(BOOKS[name], as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.get("execution_count") for c in code)
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 3


def _gifs(nb):
    """The animated GIFs a notebook's outputs carry (as ``<img>`` data URIs, which every viewer
    of a saved notebook shows)."""
    import base64
    import io
    import re

    from PIL import Image

    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            html = o.get("data", {}).get("text/html", "")
            for data in re.findall(r"data:image/gif;base64,([A-Za-z0-9+/=]+)", html):
                with Image.open(io.BytesIO(base64.b64decode(data))) as im:
                    out.append(im.n_frames)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_carries_its_animations(name):
    """Every notebook shows something moving, on any viewer: each carries animated GIFs in its
    saved outputs, and a player or the controls to run it again on another instance."""
    nb = nbformat.read(BOOKS[name], as_version=4)
    frames = _gifs(nb)
    assert frames and all(n > 1 for n in frames), f"{name}: no animation in its outputs"
    widgets = [o for c in nb.cells for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, f"{name}: no player or controls"


@pytest.mark.parametrize("name", NAMES[:6])
def test_plain_searches_come_from_the_teaching_package(name):
    """Notebooks 00-05 run and print the plain-Python searches of ``puzzlelib.teaching``; no
    cell writes a queue- or heap-driven search of its own (a notebook defines only what it
    teaches; the documents' own methods, re-implemented to be timed, use neither)."""
    nb = nbformat.read(BOOKS[name], as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    for k, source in enumerate(code):
        for word in ("heapq", "deque", "popleft"):
            assert word not in source, f"{name}: code cell {k} uses {word}"
    prose = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert (any("inspect.getsource(teaching." in source for source in code)
            or re.search(r"printed in notebook 0\d", prose)), (
        f"{name}: prints no plain version from puzzlelib.teaching, nor says where one is printed")


def test_08_left_blank_says_not_yet_for_every_exercise(ran):
    """The exercises as committed, blanks left: each check cell and the last cell's table
    report the exercise as not written yet (no error: the small run's test above)."""
    executed = nbformat.read(ran(NAMES[8]).parent / f"{NAMES[8]}.ipynb", as_version=4)
    shown = [str(c.outputs) for c in executed.cells if c.cell_type == "code"]
    for name in EXERCISES:
        says = re.compile(rf"\b{name} is not written yet")
        assert sum(bool(says.search(s)) for s in shown) == 2, name  # its check, the last cell
    assert f"0 of {len(EXERCISES)} exercises passed" in shown[-1]


def test_failure_names_notebook_and_cell(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("raise ValueError('boom')")]
    path = tmp_path / "99_broken.ipynb"
    nbformat.write(nb, path)
    seen = []
    with pytest.raises(reproduce.NotebookFailed, match=r"99_broken.ipynb: cell 1 failed(.|\n)*boom"):
        reproduce.run_notebook(path, tmp_path / "out", on_cell=lambda i, n: seen.append((i, n)))
    assert seen == [(0, 2), (1, 2)]  # the progress shown: each code cell as it starts


def test_a_dead_kernel_names_notebook_and_cell(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_code_cell("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")]
    path = tmp_path / "98_killed.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(reproduce.NotebookFailed, match=r"98_killed.ipynb: cell 1 stopped: its "
                       r"kernel died") as err:
        reproduce.run_notebook(path, tmp_path / "out")
    assert "\n" not in str(err.value) and (tmp_path / "out" / "98_killed.ipynb").exists()


def test_a_cell_past_the_timeout_names_notebook_and_cell(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import time; time.sleep(60)")]
    path = tmp_path / "97_slow.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(reproduce.NotebookFailed, match=r"97_slow.ipynb: cell 0 did not finish "
                       r"within 3 s"):
        reproduce.run_notebook(path, tmp_path / "out", timeout=3)
