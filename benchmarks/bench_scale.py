"""Tables beyond one byte a position and beyond one process, side by side in one run: the
packed table (2 bits plus a frontier bit) against the byte table's layer lists, and the BFS on a
Dask LocalCluster against the local kernel, on the same boards.

    python -m benchmarks scale [--repeat 3] [--big] [--workers 2] [--no-tables] [--csv FILE]
    python -m benchmarks scale --deep 42 [--save FOLDER]

``--big`` adds the 239.5-million-position boards (2x6 and 3x4: about a minute each for the
tables, about as long on Dask; ``--no-dask`` leaves Dask out, ``--no-tables`` the packed
table against bytes). The Dask rows give the bytes sent between parts a position and the peak
resident memory of the workers (the largest, over the whole run).

``--deep D --dask`` runs them on the local kernel with ``--workers`` threads, then on a Dask
LocalCluster of as many one-thread workers (the 2x7's two parts, 7.6 GiB each), side by side.

``--deep D`` runs only the packed 2x7 table's first ``D`` layers (15.2 GiB; ``D = 42`` reaches
323 million positions in about a minute here): the seconds of each of its last layers, where
the table is as large as the whole run's and the layers are large enough to time. ``--save
FOLDER`` saves every layer there as a long search does (the folder is deleted afterwards).
"""

import argparse
import os
import platform
import statistics
import time

import numba

from puzzlelib import SlidingPuzzle, layers

from ._common import write_csv

BOARDS = [("3x3", "1 2 3 4 5 6 7 8 0"), ("2x5", "1 2 3 4 5 6 7 8 9 0"),
          ("3x4-multiset", "1 1 2 2 3 3 4 4 5 5 6 0")]
BIG = [("2x6", "1 2 3 4 5 6 7 8 9 10 11 0"), ("3x4", "1 2 3 4 5 6 7 8 9 10 11 0")]


def _puzzle(spec, start):
    if spec.endswith("-multiset"):
        return SlidingPuzzle(spec.split("-")[0], goal=start)
    return SlidingPuzzle(spec)


def _median(fn, repeat):
    """The first call (compiling) apart, then ``repeat`` timed calls: (last result, median
    wall seconds, median search seconds, compile seconds of the first)."""
    first = fn()
    wall, search = [], []
    res = first
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        wall.append(time.perf_counter() - t0)
        search.append(res.stats.seconds)
    return res, statistics.median(wall), statistics.median(search), first.stats.compile_seconds


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks scale")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-tables", action="store_true")
    ap.add_argument("--csv", default=None)
    ap.add_argument("--deep", type=int, default=None, metavar="D")
    ap.add_argument("--save", default=None, metavar="FOLDER",
                    help="with --deep: save every layer in FOLDER (deleted at the end)")
    ap.add_argument("--dask", action="store_true",
                    help="with --deep: the same layers on a LocalCluster of --workers "
                         "one-thread workers after the local run on as many threads")
    args = ap.parse_args(argv)
    if args.deep is not None and args.dask:
        return _deep_dask(args.deep, args.workers, args.csv)
    if args.deep is not None:
        return _deep(args.deep, args.csv, args.save)
    boards = BOARDS + (BIG if args.big else [])
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numba {numba.__version__}, {numba.get_num_threads()} threads")
    rows = []

    print("\nPacked table against bytes (search seconds, medians; ns per position on all "
          "threads)")
    for spec, start in [] if args.no_tables else boards:
        puz = _puzzle(spec, start)
        rep = args.repeat if spec not in dict(BIG) else 1
        out = {}
        for table in ("bytes", "packed"):
            res, wall, search, comp = _median(
                lambda: layers(puz, start, table=table, checkpoint=False, progress=False), rep)
            out[table] = (res, search)
            ns = 1e9 * search / res.total
            print(f"  {spec:13s} {table:6s}: {search:8.3f} s ({ns:6.1f} ns/position), "
                  f"{res.stats.memory_bytes / 2**20:8.1f} MiB, compile {comp:.1f} s")
            rows.append(("table", spec, table, 0, rep, search, wall, comp, res.total,
                         len(res.counts), res.stats.memory_bytes, 0, 0))
        assert out["bytes"][0].counts == out["packed"][0].counts
        print(f"  {spec:13s} packed / bytes = {out['packed'][1] / out['bytes'][1]:.2f}")

    if args.no_dask:
        if args.csv:
            write_csv(args.csv, _HEADER, rows)
        return 0
    from distributed import Client, LocalCluster

    print(f"\nDask LocalCluster of {args.workers} one-thread workers against the local kernel "
          f"on {args.workers} threads")
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        for spec, start in boards:
            puz = _puzzle(spec, start)
            rep = args.repeat if spec not in dict(BIG) else 1
            local = _median(lambda: layers(puz, start, threads=args.workers, progress=False), rep)
            dask = _median(lambda: layers(puz, start, client=client, progress=False), rep)
            assert local[0].counts == dask[0].counts
            n_layers = len(dask[0].counts)
            sent = dask[0].extra["bytes_sent"]
            peak = max(client.run(_peak_rss).values())
            print(f"  {spec:13s} local {local[2]:8.3f} s, dask {dask[2]:8.3f} s "
                  f"(x{dask[2] / local[2]:.2f}; {1e3 * (dask[2] - local[2]) / n_layers:.0f} ms "
                  f"more a layer), {sent / 2**20:.1f} MiB sent between parts "
                  f"({sent / dask[0].total:.2f} bytes a position), workers' peak "
                  f"{peak / 2**20:,.0f} MiB")
            rows.append(("dask", spec, "local", args.workers, rep, local[2], local[1],
                         local[3], local[0].total, n_layers, local[0].stats.memory_bytes, 0, 0))
            rows.append(("dask", spec, "dask", args.workers, rep, dask[2], dask[1], dask[3],
                         dask[0].total, n_layers, dask[0].stats.memory_bytes, sent, peak))
    if args.csv:
        write_csv(args.csv, _HEADER, rows)
    return 0


def _peak_rss():
    """This process's peak resident memory (bytes; run on each worker)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else 1024 * peak


def _deep(depth, csv, save=None):
    """The packed 2x7 table's first ``depth`` layers, each layer timed; ``save``: a folder to
    save every layer in as a long search does (deleted at the end)."""
    start = "1 2 3 4 5 6 7 8 9 10 11 12 13 0"
    layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", table="packed", progress=False)  # compile
    times = [time.perf_counter()]

    def tick(d, count, total):
        times.append(time.perf_counter())

    res = layers(SlidingPuzzle("2x7"), start, table="packed", checkpoint=save or False,
                 progress=tick, max_depth=depth)
    saved = 0
    if save:
        import shutil
        from pathlib import Path
        saved = sum(p.stat().st_size for p in Path(save).iterdir())
        shutil.rmtree(save, ignore_errors=True)
    print(f"2x7 packed, first {depth} layers: {res.total:,} positions in "
          f"{res.stats.seconds:.1f} s on {numba.get_num_threads()} threads"
          + (f", every layer saved in {save} ({saved / 2**20:,.0f} MiB in all, "
             f"{8 * saved / res.total:.2f} bits a position)" if save else ""))
    rows = []
    for d in range(max(1, depth - 3), depth + 1):
        sec = times[d] - times[d - 1]
        print(f"  layer {d}: {res.counts[d]:>12,} positions, {sec:6.2f} s, "
              f"{res.counts[d] / sec / 1e6:5.2f} M positions/s")
        rows.append(("deep", "2x7", f"layer {d}" + (" saved" if save else ""), 0, 1, sec, sec,
                     res.stats.compile_seconds,
                     res.counts[d], depth, res.stats.memory_bytes, 0, 0))
    if csv:
        write_csv(csv, _HEADER, rows)
    return 0


def _deep_run(depth, workers, how):
    """One side of :func:`_deep_dask`, in a process of its own (so that the local table's 15.2
    GiB is gone before the workers take theirs): ``(counts, total, seconds, compile seconds,
    bytes sent, progress times, peak resident bytes)``."""
    start = "1 2 3 4 5 6 7 8 9 10 11 12 13 0"
    times = []

    def tick(d, count, total):
        times.append(time.perf_counter())

    if how == "local":
        layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", table="packed", progress=False)
        times.append(time.perf_counter())
        res = layers(SlidingPuzzle("2x7"), start, threads=workers, table="packed",
                     checkpoint=False, progress=tick, max_depth=depth)
        peak = _peak_rss()
    else:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            layers(SlidingPuzzle("2x3"), "1 2 3 4 5 0", client=client, progress=False)
            times.append(time.perf_counter())
            res = layers(SlidingPuzzle("2x7"), start, client=client, progress=tick,
                         max_depth=depth)
            peak = max(client.run(_peak_rss).values())
    return (res.counts, res.total, res.stats.seconds, res.stats.compile_seconds,
            res.extra.get("bytes_sent", 0), times, peak)


def _deep_dask(depth, workers, csv):
    """The 2x7's first ``depth`` layers on ``workers`` threads, then on a LocalCluster of as
    many one-thread workers, each in a process of its own: seconds of the whole and of each of
    the last layers, bytes sent, the peak resident memory (of the local process, of the
    largest worker)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    runs = {}
    for how in ("local", "dask"):
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as ex:
            runs[how] = ex.submit(_deep_run, depth, workers, how).result()
    local, dask = runs["local"], runs["dask"]
    assert local[0] == dask[0]
    print(f"2x7, first {depth} layers ({local[1]:,} positions), {workers} threads against "
          f"{workers} Dask workers: {local[2]:.1f} s against {dask[2]:.1f} s "
          f"(x{dask[2] / local[2]:.2f}); {dask[4] / dask[1]:.2f} bytes sent a position; peak "
          f"resident {local[6] / 2**30:.1f} GiB (the local process) against "
          f"{dask[6] / 2**30:.1f} GiB (the largest worker)")
    rows = []
    for how, (counts, total, sec, comp, sent, times, peak) in runs.items():
        rows.append(("deep-dask", "2x7", f"{how}, first {depth} layers", workers, 1, sec,
                     times[-1] - times[0], comp, total, depth, 0, sent, peak))
    for d in range(max(1, depth - 3), depth + 1):
        # (each run's last progress call is at depth ``depth``)
        secs = [runs[h][5][d - depth - 1] - runs[h][5][d - depth - 2] for h in ("local", "dask")]
        print(f"  layer {d}: {local[0][d]:>12,} positions, {secs[0]:6.2f} s against "
              f"{secs[1]:6.2f} s (x{secs[1] / secs[0]:.2f})")
        for h, sec in zip(("local", "dask"), secs):
            rows.append(("deep-dask", "2x7", f"{h}, layer {d}", workers, 1, sec, sec, 0,
                         local[0][d], depth, 0, 0, 0))
    if csv:
        write_csv(csv, _HEADER, rows)
    return 0


_HEADER = ("suite", "board", "variant", "workers", "repeat", "search_s_median", "wall_s_median",
           "compile_s", "positions", "layers", "memory_bytes", "bytes_sent", "peak_worker_bytes")
