"""Execute every notebook in ``notebooks/`` in order, headless: ``python -m puzzlelib.reproduce``.

Writes the executed notebooks, and the tables (CSV) and figures (PNG) the notebooks save, into
``results/`` (ignored by git): each notebook reads ``PUZZLELIB_RESULTS`` to know where to save.
``--small`` sets ``PUZZLELIB_SMALL=1`` so notebooks run their quick variant (what CI runs);
``--inplace`` also writes each executed notebook back over its source, outputs included.
A failing cell stops the run with a message naming the notebook and the cell. The progress bar
counts notebooks and shows the cell running (a full run takes tens of minutes, one cell of
notebook 03 several of them when it builds its pattern databases).
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class NotebookFailed(RuntimeError):
    pass


def run_notebook(path, out_dir, small=False, timeout=1800, inplace=False, on_cell=None):
    """Execute one notebook; return the path of the executed copy in ``out_dir``.

    ``on_cell(index, count)`` is called before each code cell runs (``index`` counts from 0
    among all ``count`` cells)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    path = Path(path)
    out_dir = Path(out_dir)
    nb_results = out_dir / path.stem
    nb_results.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(path, as_version=4)
    env_backup = dict(os.environ)
    os.environ["PUZZLELIB_RESULTS"] = str(nb_results)
    os.environ["PUZZLELIB_SMALL"] = "1" if small else "0"
    os.environ.setdefault("MPLBACKEND", "Agg")
    running = [None]  # the cell executing now

    def _on_cell(cell, cell_index):
        running[0] = cell_index
        if on_cell is not None:
            on_cell(cell_index, len(nb.cells))

    hooks = {"on_cell_execute": _on_cell}
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}}, **hooks,
    )
    try:
        client.execute()
    except CellExecutionError as e:
        index = _failed_cell(nb)
        target = out_dir / path.name
        nbformat.write(nb, target)
        raise NotebookFailed(
            f"{path.name}: cell {index} failed (partial output in {target}):\n{_last_line(str(e))}"
        ) from None
    except (DeadKernelError, CellTimeoutError, AssertionError) as e:
        # (nbclient's clean-up of a dead kernel can itself fail an assertion)
        target = out_dir / path.name
        nbformat.write(nb, target)
        why = (f"did not finish within {timeout} s" if isinstance(e, CellTimeoutError) else
               "stopped: its kernel died (killed by the operating system, often for memory)")
        raise NotebookFailed(f"{path.name}: cell {running[0]} {why} (partial output in "
                             f"{target})") from None
    finally:
        os.environ.clear()
        os.environ.update(env_backup)
    target = out_dir / path.name
    nbformat.write(nb, target)
    if inplace:
        nbformat.write(nb, path)
    return target


def _failed_cell(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                return i
    return "?"


def _last_line(text):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-3:])


def notebooks(folder=ROOT / "notebooks"):
    return sorted(Path(folder).glob("[0-9][0-9]*.ipynb"))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m puzzlelib.reproduce", description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="quick variant of each notebook (CI)")
    ap.add_argument("--inplace", action="store_true", help="also write executed notebooks back into notebooks/")
    ap.add_argument("--out", default=str(ROOT / "results"), help="results folder (default results/)")
    ap.add_argument("only", nargs="*", help="notebook names (or prefixes) to run; default all")
    args = ap.parse_args(argv)
    books = notebooks()
    if args.only:
        books = [b for b in books if any(b.name.startswith(o) or b.stem == o for o in args.only)]
    if not books:
        print("no notebooks to run", file=sys.stderr)
        return 1
    from tqdm import tqdm

    t_all = time.perf_counter()
    bar = tqdm(books, unit="notebook", file=sys.stderr)
    for nb in bar:
        bar.set_description(nb.name)
        t0 = time.perf_counter()
        try:
            target = run_notebook(
                nb, args.out, small=args.small, inplace=args.inplace,
                on_cell=lambda i, n: bar.set_postfix_str(f"cell {i + 1}/{n}"),
            )
        except NotebookFailed as e:
            bar.close()
            print(f"reproduce: FAILED {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            bar.close()
            print(f"reproduce: interrupted in {nb.name}; the notebooks before it are in "
                  f"{args.out}", file=sys.stderr)
            return 130
        tqdm.write(f"{nb.name}: ok in {time.perf_counter() - t0:.1f} s -> {target}", file=sys.stderr)
    print(f"reproduced {len(books)} notebook(s) in {time.perf_counter() - t_all:.1f} s; results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
