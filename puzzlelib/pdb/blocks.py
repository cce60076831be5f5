"""Pattern databases for block puzzles (source document 004): relax, search backwards, map by g.

A relaxed puzzle splits chosen size-2 pieces (1x2, 2x1) into two 1x1 pieces. So that a real
move still costs one relaxed move, two adjacent 1x1 pieces may move together like the piece
they came from (same direction, same distance; :mod:`puzzlelib.domains.blocks`, move kinds 1
and 2). Every real move is then one relaxed move, so the relaxed distance is a lower bound.

The database is built by the library's frontier breadth-first search, backwards from *every*
relaxed goal position at once (the daughter at its goal, everything else anywhere: all of them
are enumerated as layer 0). Each relaxed position reached is mapped by g and the database keeps,
per image, the depth at which it was first seen, which is the least distance of any relaxed
position with that image (layers come in increasing depth):

``f`` (full)
    the relaxed position itself (daughter, empty cells, kept size-2 pieces);
``l`` (line)
    daughter and empty cells, plus how many kept 1x2 and 2x1 pieces start in each row;
``c`` (cell)
    the same counted per 2x2 block (from the top-left; on an odd side the last column or row
    is cut into 2x1 or 1x2 blocks);
``b`` (blank)
    daughter and kept size-2 pieces, empty cells not recorded.

Names follow the paper: the counts of 1x1, 1x2 and 2x1 pieces of the relaxed puzzle, then the
map, e.g. ``16-10-0-l``. A database that keeps only some pieces of a shape (e.g. 3 of ten 1x2
pieces) may keep any of them: every choice gives a lower bound, so the heuristic takes the
greatest value over every choice (:func:`puzzlelib.domains.blocks.heuristic._pdb_value`).

Databases are cached under ``<cache root>/pdb/blocks`` through :mod:`puzzlelib.core.store`
(written atomically, checked against a SHA-256 on load, built again when the check fails); a
long build saves its state there every :data:`CHECKPOINT_SECONDS` and a later request for the
same databases resumes from it.
"""

import re
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext

import numpy as np


from ..core.jit import jit, overload
from ..domains.blocks import (
    B_TL,
    FRONTIER_PLAIN,
    EMPTY,
    IMAGE_LENGTHS,
    ONE,
    H_L,
    SHAPES,
    V_T,
    BlockPuzzle,
    FNS_PLAIN,
    image_symbols,
    key_bits,
    pack_cells,
    unpack_cells,
    write_image,
)
from ..core import store
from ..core.errors import PuzzleError, SearchLimitError
from ..core.limits import RUNNING, STOP_MASK, check, note, stop_reason
from ..core.progress import layer_bar
from ..core.stats import Stats, peak_states
from ..core.timing import timed
from ..search.frontier import frontier_bfs
from ..search.sortedfrontier import sorted_frontier_bfs
from ..core.hashset import find_hashed, grow_rows, hash_state, insert_hashed, new_table

MAPS = {"f": 0, "b": 1, "l": 2, "c": 2}
MAP_NAMES = {"f": "full", "l": "line", "c": "cell", "b": "blank"}
FORMAT = "puzzlelib-block-pdb-3"
FREE = 255
_NAME = re.compile(r"^\d+-\d+-\d+-[flcb]$")


def cache_dir():
    """Where block-puzzle pattern databases are cached."""
    return store.cache_root() / "pdb" / "blocks"


def parse_name(name, counts):
    """``(ones, keep_h, keep_v, map)`` from a name such as ``16-10-0-l``, checked against the
    board's piece counts (``counts``: shape -> number of pieces)."""
    parts = str(name).strip().split("-")
    if len(parts) != 4 or not all(t.isdigit() for t in parts[:3]) or parts[3] not in MAPS:
        raise PuzzleError(
            f"PDB name {name!r} is not ONES-H-V-MAP (for example 16-10-0-l): three counts (1x1, "
            "1x2 and 2x1 pieces of the relaxed puzzle) and a map f, l, c or b"
        )
    ones, kh, kv = (int(t) for t in parts[:3])
    n1, n12, n21 = counts["1x1"], counts["1x2"], counts["2x1"]
    if kh > n12 or kv > n21:
        raise PuzzleError(
            f"PDB {name} keeps {kh} 1x2 and {kv} 2x1 pieces whole, but the board has {n12} and {n21}"
        )
    expect = n1 + 2 * (n12 - kh) + 2 * (n21 - kv)
    if ones != expect:
        raise PuzzleError(
            f"PDB {name}: keeping {kh} 1x2 and {kv} 2x1 pieces whole leaves {expect} 1x1 pieces "
            f"on this board, not {ones} (the name would be {expect}-{kh}-{kv}-{parts[3]})"
        )
    return ones, kh, kv, parts[3]


def n_regions(rows, cols, g):
    """Regions an image counts pieces in: rows (line map), 2x2 blocks (cell map), else none."""
    if g == "l":
        return rows
    if g == "c":
        return ((rows + 1) // 2) * ((cols + 1) // 2)
    return 0


def image_layout(relaxed_counts, rows, cols, g):
    """``(cell_bytes, image_len)`` of PDB images under map ``g`` for a relaxed puzzle holding
    ``relaxed_counts`` (empty cells, 1x1, 1x2, 2x1, 2x2 pieces): the database's number, the
    cells' key (:data:`~puzzlelib.domains.blocks.images.IMAGE_ENC`), one byte per region."""
    bits = key_bits(image_symbols(relaxed_counts, MAPS[g]), IMAGE_LENGTHS)
    cell_bytes = (bits + 7) // 8
    return cell_bytes, 1 + cell_bytes + n_regions(rows, cols, g)


def relaxed_counts(puz, kh, kv):
    """Empty cells and 1x1, 1x2, 2x1, 2x2 pieces of ``puz`` relaxed to keep ``kh`` 1x2 and
    ``kv`` 2x1 pieces whole."""
    e, one, h, v, b = puz.symbol_counts
    return (e, one + 2 * (h - kh) + 2 * (v - kv), kh, kv, b)


def region_table(rows, cols, g):
    """``region_of[cell]`` for map ``g``: its row (line), its 2x2 block (cell), else 0."""
    out = np.zeros(rows * cols, dtype=np.int64)
    for x in range(rows * cols):
        r, c = divmod(x, cols)
        if g == "l":
            out[x] = r
        elif g == "c":
            out[x] = (r // 2) * ((cols + 1) // 2) + c // 2
    return out


@jit
def _fits_shape(cells, x, s, rows, cols):
    n = rows * cols
    c = x % cols
    if s <= 1:
        return True
    if s == 2:
        return c + 1 < cols and cells[x + 1] == FREE
    if s == 3:
        return x + cols < n and cells[x + cols] == FREE
    return (c + 1 < cols and x + cols + 1 < n and cells[x + 1] == FREE
            and cells[x + cols] == FREE and cells[x + cols + 1] == FREE)


@jit
def _put(cells, x, s, cols, undo):
    if s == 0:
        cells[x] = FREE if undo else EMPTY
    elif s == 1:
        cells[x] = FREE if undo else ONE
    elif s == 2:
        cells[x] = FREE if undo else H_L
        cells[x + 1] = FREE if undo else H_L + 1
    elif s == 3:
        cells[x] = FREE if undo else V_T
        cells[x + cols] = FREE if undo else V_T + 1
    else:
        cells[x] = FREE if undo else B_TL
        cells[x + 1] = FREE if undo else B_TL + 1
        cells[x + cols] = FREE if undo else B_TL + 2
        cells[x + cols + 1] = FREE if undo else B_TL + 3


@jit
def _next_free(cells, x):
    while x < cells.shape[0] and cells[x] != FREE:
        x += 1
    return x


@jit
def _arrange(base, rows, cols, left, as_keys, enc, key_len):
    """Every way to fill the ``FREE`` cells of ``base`` with ``left[s]`` pieces of each kind
    ``s`` (0 empty, 1 a 1x1, 2 a 1x2, 3 a 2x1, 4 a 2x2): a depth-first search over the first
    free cell in reading order. Returns (states, keys): kernel states (cells + a zero heuristic
    byte), or with ``as_keys`` their keys under the code ``enc`` as 64-bit words (``key_len``
    at most 8 bytes); the other array is empty. A stop (:mod:`puzzlelib.core.limits`) ends it
    early with what it has: the caller raises."""
    n = rows * cols
    cells = base.copy()
    left = left.copy()
    out = np.zeros((1 if as_keys else 1024, n + 1), dtype=np.uint8)
    words = np.zeros(1024 if as_keys else 1, dtype=np.uint64)
    key = np.zeros(max(1, key_len), dtype=np.uint8)
    n_out = 0
    xs = np.empty(n + 1, dtype=np.int64)
    ch = np.empty(n + 1, dtype=np.int64)
    k = 0
    xs[0] = _next_free(cells, 0)
    ch[0] = -1
    steps = 0
    while k >= 0:
        steps += 1
        if (steps & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break
        x = xs[k]
        if x == n:
            if as_keys:
                if n_out == words.shape[0]:
                    words = grow_rows(words, 2 * n_out)
                pack_cells(cells, n, enc, key, 0, key_len)
                v = np.uint64(0)
                for j in range(key_len):
                    v |= np.uint64(key[j]) << np.uint64(8 * j)
                words[n_out] = v
            else:
                if n_out == out.shape[0]:
                    out = grow_rows(out, 2 * n_out)
                for i in range(n):
                    out[n_out, i] = cells[i]
                out[n_out, n] = 0
            n_out += 1
            k -= 1
            continue
        if ch[k] >= 0:
            _put(cells, x, ch[k], cols, True)
            left[ch[k]] += 1
        s = ch[k] + 1
        while s < 5 and not (left[s] > 0 and _fits_shape(cells, x, s, rows, cols)):
            s += 1
        if s == 5:
            ch[k] = -1
            k -= 1
            continue
        _put(cells, x, s, cols, False)
        left[s] -= 1
        ch[k] = s
        k += 1
        xs[k] = _next_free(cells, x)
        ch[k] = -1
    if as_keys:
        return out[:0].copy(), words[:n_out].copy()
    return out[:n_out].copy(), words[:0].copy()


def arrangements(base, rows, cols, left):
    """Every way to fill the ``FREE`` cells of ``base`` with ``left[s]`` pieces of each kind
    ``s`` (0 empty, 1 a 1x1, 2 a 1x2, 3 a 2x1, 4 a 2x2), as kernel states (cells + a zero
    heuristic byte)."""
    states = _arrange(base, rows, cols, left, False, np.zeros(10, dtype=np.int64), 0)[0]
    check()
    return states


def arrangement_keys(base, rows, cols, left, enc, key_len):
    """:func:`arrangements` as keys under the code ``enc`` (a relaxed puzzle's
    ``params.code_enc``), each read as one 64-bit word: 8 bytes a position instead of a whole
    state (183 million goal positions of 16-10-0 on the 6x7 board: 1.5 GB instead of 7.9)."""
    keys = _arrange(base, rows, cols, left, True, enc, key_len)[1]
    check()
    return keys


def _key_row(keys, k, key_len, out):
    """Key ``k`` of ``keys`` into ``out[:key_len]``: a row of bytes, or a 64-bit word."""


@overload(_key_row)
def _key_row_impl(keys, k, key_len, out):
    if keys.ndim == 1:
        def impl(keys, k, key_len, out):
            v = keys[k]
            for j in range(key_len):
                out[j] = (v >> np.uint64(8 * j)) & np.uint64(255)
        return impl

    def impl(keys, k, key_len, out):
        for j in range(key_len):
            out[j] = keys[k, j]
    return impl


@jit(nogil=True)
def _record_images(keys, key_len, cols, dec, depth, i, mode, region_of, n, cell_bytes, slots,
                   pool, n_img, values):
    """Insert the image of every position of one layer (given by its keys: rows of
    ``key_len`` bytes, or 64-bit words) not seen yet, with value ``depth``. Runs without the
    interpreter lock, so the maps of one search are recorded side by side. A stop (see
    :mod:`puzzlelib.core.limits`) leaves the layer half recorded: the caller raises."""
    img_len = pool.shape[1]
    img = np.zeros(img_len, dtype=np.uint8)
    cells = np.empty(n, dtype=np.uint8)
    key = np.zeros(key_len, dtype=np.uint8)
    for k in range(keys.shape[0]):
        if (k & STOP_MASK) == 0 and stop_reason() != RUNNING:
            break
        _key_row(keys, k, key_len, key)
        unpack_cells(key, key_len, n, cols, dec, cells)
        for x in range(img_len):
            img[x] = 0
        write_image(cells, i, mode, region_of, n, img, 0, cell_bytes)
        h = hash_state(img)
        if find_hashed(slots, pool, img, h) < 0:
            if n_img == values.shape[0]:
                values = grow_rows(values, 2 * n_img)
            slots, pool = insert_hashed(slots, pool, n_img, img, h)
            values[n_img] = depth
            n_img += 1
    return slots, pool, n_img, values


class BlockPDB:
    """A block-puzzle pattern database: ``images`` (rows of bytes) with their ``values``."""

    def __init__(self, name, rows, cols, metric, goal, keep_h, keep_v, cell_bytes, pool, values,
                 states, build_seconds, source, stats=None):
        self.name = name
        self.rows, self.cols, self.metric, self.goal = rows, cols, metric, tuple(goal)
        self.keep_h, self.keep_v = keep_h, keep_v
        self.cell_bytes = cell_bytes
        self.map = name.split("-")[-1]
        self.pool = pool
        self.values = values
        self.states = states  # relaxed positions reached by the backward search
        self.build_seconds = build_seconds
        self.source = source
        self.search_bytes = None  # the most the backward search's layers held (when built)
        self.search_phases = None  # where its seconds went (sorted arrays: see SortedResult)
        #: What the backward search did (:class:`~puzzlelib.core.stats.Stats`; from the cache:
        #: as it was when built, compilation 0).
        self.stats = stats if stats is not None else Stats(stored=states, seconds=build_seconds)

    @property
    def patterns(self):
        return int(self.values.shape[0])

    @property
    def max_value(self):
        return int(self.values.max()) if self.patterns else 0

    def histogram(self):
        return np.bincount(self.values, minlength=self.max_value + 1)

    def __repr__(self):
        return (f"BlockPDB({self.name}, {self.rows}x{self.cols}, {self.metric}, goal={self.goal}, "
                f"patterns={self.patterns:,}, max={self.max_value})")


def relaxed_pieces(pieces, keep_h, keep_v):
    """The relaxed puzzle's pieces: the first ``keep_h`` 1x2 and ``keep_v`` 2x1 pieces kept
    (which ones does not matter for the database: it is built from every goal position)."""
    out = []
    kh = kv = 0
    for shape, r, c in pieces:
        if shape == "1x2":
            if kh < keep_h:
                out.append((shape, r, c))
                kh += 1
            else:
                out += [("1x1", r, c), ("1x1", r, c + 1)]
        elif shape == "2x1":
            if kv < keep_v:
                out.append((shape, r, c))
                kv += 1
            else:
                out += [("1x1", r, c), ("1x1", r + 1, c)]
        else:
            out.append((shape, r, c))
    return out


def _key(puz, name):
    comp = "-".join(f"{puz.counts[s]}" for s in SHAPES)
    return (f"blocks_{puz.rows}x{puz.cols}_{comp}_e{puz.n_empty}_{puz.metric}"
            f"_g{puz.goal[0]}-{puz.goal[1]}_{name}.v3.pdb")


def build(puz, name, progress=None):
    """Build PDB ``name`` for the board, metric and goal of ``puz`` (a :class:`BlockPuzzle`)."""
    return build_many(puz, [name], progress=progress)[0]


def build_many(puz, names, progress=None, search=None, checkpoint=None,
               checkpoint_seconds=None):
    """Build the PDBs ``names`` (one relaxation, different maps: ``16-10-0-l``, ``16-10-0-c``,
    ``16-10-0-b``) from one backward search: each layer's positions are mapped once per map.

    A relaxed position whose key fits in 64 bits (every board of the documents) is searched
    with sorted arrays (:mod:`puzzlelib.search.sortedfrontier`: 8 bytes a position, threads
    sharing the work), else with hash sets (:mod:`puzzlelib.search.frontier`). ``search``:
    ``"sorted"`` or ``"hash"`` to choose (the tests compare them), None for that default.

    ``checkpoint``: a file where the sorted-array search saves its state (the last two layers
    and the images so far) every ``checkpoint_seconds`` (default
    :data:`CHECKPOINT_SECONDS`), and which a later call with the same file resumes from; it is
    deleted once the build is done. A file for other PDBs, truncated or corrupt is ignored
    (with a warning): the build starts afresh and replaces it."""
    parsed = [parse_name(nm, puz.counts) for nm in names]
    if not parsed:
        raise PuzzleError("no PDB names given")
    if len({q[:3] for q in parsed}) > 1:
        raise PuzzleError(
            f"PDBs {', '.join(names)} relax the board differently: one search builds PDBs that "
            "differ only in their map (the last letter)")
    if len({q[3] for q in parsed}) < len(parsed):
        raise PuzzleError(f"PDB names repeat a map: {', '.join(names)}")
    ones, kh, kv, _ = parsed[0]
    if puz.goal is None:
        raise PuzzleError("a pattern database needs a goal (the daughter's place)")
    from ..domains.blocks import pieces_of

    pieces = relaxed_pieces(pieces_of(puz.start_cells, puz.cols), kh, kv)
    relaxed = BlockPuzzle(pieces, metric=puz.metric, goal=puz.goal, rows=puz.rows, cols=puz.cols,
                          relax=True)
    rows, cols, n = puz.rows, puz.cols, puz.n_cells
    base = np.full(n, FREE, dtype=np.uint8)
    gr, gc = puz.goal
    gx = gr * cols + gc
    for x, code in ((gx, B_TL), (gx + 1, B_TL + 1), (gx + cols, B_TL + 2), (gx + cols + 1, B_TL + 3)):
        base[x] = code
    left = np.array([puz.n_empty, ones, kh, kv, puz.counts["2x2"] - 1], dtype=np.int64)
    rp = relaxed.params
    key_len = int(rp.key_len)
    if search not in (None, "sorted", "hash"):
        raise ValueError(f"search must be 'sorted', 'hash' or None, not {search!r}")
    if search == "sorted" and key_len > 8:
        raise PuzzleError(f"relaxed positions of {names[0]} need {key_len}-byte keys; sorted "
                          "arrays take keys of at most 8 bytes")
    clock = timed()  # the compilation inside the build is timed apart
    timer = clock.__enter__()
    t0 = time.perf_counter()
    boxes = []
    for _, _, _, g in parsed:
        cell_bytes, L = image_layout(relaxed.symbol_counts, rows, cols, g)
        slots, pool = new_table(L, 1024)
        boxes.append({"slots": slots, "pool": pool, "n": 0, "values": np.zeros(1024, np.uint8),
                      "cell_bytes": cell_bytes, "region_of": region_table(rows, cols, g),
                      "mode": MAPS[g]})
    threads = ThreadPoolExecutor(min(len(boxes), 2)) if len(boxes) > 1 else None

    def record(box, depth, keys):
        box["slots"], box["pool"], box["n"], box["values"] = _record_images(
            keys, key_len, cols, rp.code_dec, depth, 0, box["mode"], box["region_of"], n,
            box["cell_bytes"], box["slots"], box["pool"], box["n"], box["values"])

    def on_layer(depth, keys):
        if depth > 254:
            raise PuzzleError(f"PDB {names[0]}: relaxed distances exceed 254, more than a byte "
                              "holds")
        if threads is None:
            record(boxes[0], depth, keys)
        else:
            list(threads.map(lambda box: record(box, depth, keys), boxes))
        check()  # a layer cut short by a stop is never saved
        note(depth, sum(box["n"] for box in boxes))  # (for the message of a stop)

    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else checkpoint_seconds
    before = 0.0  # seconds spent by the runs this one resumes
    last_save = [time.perf_counter()]

    def after_layer(depth, prev, cur, counts, done):
        if time.perf_counter() - last_save[0] >= every:
            _save_partial(checkpoint, names, counts, prev, cur, boxes,
                          before + time.perf_counter() - t0 - timer.compile_seconds, done)
            last_save[0] = time.perf_counter()

    try:
        if search == "sorted" or (search is None and key_len <= 8):
            resume = None
            if checkpoint is not None:
                got = _load_partial(checkpoint, names, [b["pool"].shape[1] for b in boxes])
                if got is not None:
                    counts, prev, cur, pools, values, before, done = got
                    for box, rows_k, vals_k in zip(boxes, pools, values):
                        box["slots"], box["pool"] = _table_of(rows_k)
                        box["values"] = np.zeros(max(1024, len(vals_k)), dtype=np.uint8)
                        box["values"][: len(vals_k)] = vals_k
                        box["n"] = len(vals_k)
                    resume = (counts, prev, cur, done)
            goals = (arrangement_keys(base, rows, cols, left, rp.code_enc, key_len)
                     if resume is None else None)
            try:
                res = sorted_frontier_bfs(FNS_PLAIN, rp, goals, ffns=FRONTIER_PLAIN,
                                          bits=relaxed.key_bits,
                                          progress=progress, on_layer=on_layer, resume=resume,
                                          after_layer=None if checkpoint is None else after_layer)
            except MemoryError as e:
                kept = (f"; its state saved in {checkpoint} is kept for a machine with more "
                        "memory" if checkpoint is not None and checkpoint.exists() else "")
                raise SearchLimitError(f"PDB {', '.join(names)}: {e}{kept}") from None
        else:
            goals = arrangements(base, rows, cols, left)
            res = frontier_bfs(FNS_PLAIN, rp, goals, progress=progress, on_layer=on_layer,
                               ffns=FRONTIER_PLAIN)
    finally:
        if threads is not None:
            threads.shutdown()
        clock.__exit__(None, None, None)
    seconds = before + time.perf_counter() - t0 - timer.compile_seconds
    if checkpoint is not None:
        store.remove(checkpoint)
    stats = Stats(res.generated, res.expanded, peak_states(res.counts), res.peak_bytes, seconds,
                  timer.compile_seconds)
    out = [BlockPDB(nm, rows, cols, puz.metric, puz.goal, kh, kv, box["cell_bytes"],
                    box["pool"][: box["n"]].copy(), box["values"][: box["n"]].copy(), res.total,
                    seconds, "built", stats)
           for nm, box in zip(names, boxes)]
    for db in out:
        db.search_bytes = res.peak_bytes
        db.search_phases = getattr(res, "phases", None)
    return out


#: Seconds between saves of a long build's state (:func:`build_many`'s ``checkpoint``).
CHECKPOINT_SECONDS = 600
PARTIAL_FORMAT = "puzzlelib-block-pdb-partial-1"


def partial_path(puz, names):
    """Where :func:`block_pdbs` keeps the saved state of an unfinished build of ``names``."""
    ones, kh, kv, _ = parse_name(names[0], puz.counts)
    maps = "".join(sorted(parse_name(nm, puz.counts)[3] for nm in names))
    return cache_dir() / (_key(puz, f"{ones}-{kh}-{kv}-{maps}")[: -len(".v3.pdb")] + ".partial")


def _save_partial(path, names, counts, prev, cur, boxes, seconds, done=(0, 0)):
    """Write a build's state atomically (:func:`puzzlelib.core.store.write`): the two layers
    and each map's images and values so far."""
    arrays = [prev, cur]
    for box in boxes:
        arrays += [box["pool"][: box["n"]], box["values"][: box["n"]]]
    store.write(path, {"format": PARTIAL_FORMAT, "names": list(names),
                       "counts": [int(c) for c in counts], "seconds": seconds,
                       "done": [int(done[0]), int(done[1])],
                       "image_len": [int(box["pool"].shape[1]) for box in boxes]}, arrays)


def _load_partial(path, names, image_lens):
    """``(counts, prev, cur, pools, values, seconds, done)`` saved by :func:`_save_partial` for
    these PDBs, or None (with a warning when the file is there but unusable)."""
    got = store.read(path, {"format": PARTIAL_FORMAT, "names": list(names),
                            "image_len": list(image_lens)}, "saved PDB build")
    if got is None:
        return None
    header, arrays = got
    prev, cur = arrays[0], arrays[1]
    pools, values = arrays[2::2], arrays[3::2]
    return (header["counts"], prev, cur, list(pools), list(values), float(header["seconds"]),
            tuple(header.get("done", (0, 0))))


@jit
def _table_of(rows):
    """A hash set holding ``rows`` (images), row ``i`` as index ``i``."""
    n, L = rows.shape
    slots, pool = new_table(L, max(1024, n))
    for i in range(n):
        slots, pool = insert_hashed(slots, pool, i, rows[i], hash_state(rows[i]))
    return slots, pool


def _header(name, puz, image_len):
    return {"format": FORMAT, "name": name, "rows": puz.rows, "cols": puz.cols,
            "metric": puz.metric, "goal": list(puz.goal), "image_len": int(image_len)}


def _save(path, db):
    header = dict(_header(db.name, db, db.pool.shape[1]), keep=[db.keep_h, db.keep_v],
                  states=db.states, build_seconds=db.build_seconds,
                  stats=dict(db.stats.to_dict(), compile_seconds=0.0))
    store.write(path, header, [db.pool, db.values])


def _load(path, puz, name, quiet=False):
    _, kh, kv, g = parse_name(name, puz.counts)
    cell_bytes, L = image_layout(relaxed_counts(puz, kh, kv), puz.rows, puz.cols, g)
    got = store.read(path, _header(name, puz, L), "block PDB", quiet=quiet)
    if got is None:
        return None
    header, (pool, values) = got
    if pool.ndim != 2 or pool.shape[1] != L or values.shape != (pool.shape[0],):
        return None
    return BlockPDB(name, puz.rows, puz.cols, puz.metric, puz.goal, kh, kv, cell_bytes, pool,
                    values, header["states"], header["build_seconds"], "cache",
                    Stats.from_dict(header.get("stats", {})))


_MEMORY = {}


def block_pdb(puz, name, progress=None, cache=True):
    """PDB ``name`` for ``puz``'s board, metric and goal: from memory, the disk cache, or built
    (then cached unless ``cache`` is false)."""
    return block_pdbs(puz, [name], progress=progress, cache=cache)[0]


def block_pdbs(puz, names, progress=None, cache=True):
    """The PDBs ``names`` for ``puz``'s board, metric and goal, like :func:`block_pdb`; those
    to be built that relax the board alike (``16-10-0-l``, ``-c``, ``-b``) are built by one
    search (:func:`build_many`). With ``cache``, a build saves its state beside the cache every
    :data:`CHECKPOINT_SECONDS` (:func:`partial_path`), and a build that was stopped resumes
    from it when asked for the same PDBs again."""
    names = [str(nm).strip() for nm in names]
    for nm in names:
        parse_name(nm, puz.counts)
    if puz.goal is None:
        raise PuzzleError("a pattern database needs a goal (the daughter's place)")
    found = {}
    for nm in dict.fromkeys(names):
        key = _key(puz, nm)
        db = _MEMORY.get(key)
        if db is None and cache:
            db = _load(cache_dir() / key, puz, nm)
        if db is not None:
            found[nm] = _MEMORY[key] = db
    groups = {}
    for nm in dict.fromkeys(names):
        if nm not in found:
            groups.setdefault(parse_name(nm, puz.counts)[:3], []).append(nm)
    for group in groups.values():
        saved = partial_path(puz, group) if cache else None
        with store.locked(saved, "the block PDBs") if cache else nullcontext():
            if cache:  # another process may have built them while this one waited
                for nm in group:
                    db = _load(cache_dir() / _key(puz, nm), puz, nm, quiet=True)
                    if db is not None:
                        found[nm] = _MEMORY[_key(puz, nm)] = db
                group = [nm for nm in group if nm not in found]
            built = build_many(puz, group, progress=progress, checkpoint=saved) if group else []
            for nm, db in zip(group, built):
                key = _key(puz, nm)
                if cache:
                    _save(cache_dir() / key, db)
                found[nm] = _MEMORY[key] = db
    return [found[nm] for nm in names]


@jit
def _join(pools, values, offsets, L):
    total = offsets[-1]
    slots, pool = new_table(L, max(16, total))
    vals = np.empty(max(1, total), dtype=np.uint8)
    img = np.zeros(L, dtype=np.uint8)
    n = 0
    for i in range(offsets.shape[0] - 1):
        w = pools[i].shape[1]
        for x in range(w, L):  # shorter images: zeros after (as looked up), not what an
            img[x] = 0         # earlier PDB's longer image left there
        for k in range(offsets[i], offsets[i + 1]):
            for x in range(w):
                img[x] = pools[i][k - offsets[i], x]
            img[0] = i
            slots, pool = insert_hashed(slots, pool, n, img, hash_state(img))
            vals[n] = values[k]
            n += 1
    return slots, pool, vals


def heuristic_fields(dbs, rows, cols):
    """The ``params`` fields (see :class:`~puzzlelib.domains.blocks.encoding.BlockParams`) of the
    heuristic max over ``dbs``: one hash table whose images start with the database's index
    (the images of all of them as long as the longest, zeros after)."""
    if not dbs:
        raise ValueError("heuristic_fields needs at least one database")
    L = max(db.pool.shape[1] for db in dbs)
    offsets = np.cumsum([0] + [db.patterns for db in dbs]).astype(np.int64)
    values = np.concatenate([db.values for db in dbs])
    slots, pool, vals = _join(tuple(db.pool for db in dbs), values, offsets, L)
    info = np.array([[db.keep_h, db.keep_v, MAPS[db.map], db.cell_bytes] for db in dbs],
                    dtype=np.int64)
    regions = np.stack([region_table(rows, cols, db.map) for db in dbs])
    return (len(dbs), L, info.reshape(-1, 4), regions, slots, pool, vals)


# ---------------------------------------------------------------------------------------------
# for the API (see puzzlelib.pdb)
# ---------------------------------------------------------------------------------------------


def _names(spec):
    if isinstance(spec, str):
        return [t for t in spec.replace(" ", "").split(",") if t]
    try:
        return [str(t).strip() for t in spec]
    except TypeError:
        raise PuzzleError(f"block-puzzle pattern databases are named (e.g. 36-0-0-f), not "
                          f"{spec!r}") from None


def is_name(puzzle, heuristic):
    """Whether ``heuristic`` names block-puzzle databases (``ONES-H-V-MAP``, several joined by
    commas or in a list)."""
    try:
        names = _names(heuristic)
    except PuzzleError:
        return False
    return bool(names) and all(_NAME.match(nm) for nm in names)


def databases(puzzle, spec, progress=None, cache=True):
    """The databases ``spec`` names (a list, or names joined by commas), in that order."""
    names = _names(spec)
    if not names:
        raise PuzzleError("no pattern database named")
    return block_pdbs(puzzle, names, progress=progress, cache=cache)


def plan(puzzle, spec, reflect=None, cache=True):
    """What :func:`guide` would load or build, without either: ``(databases, info)``, one
    ``{"name", "entries", "source"}`` per database (``entries``: None, known once built), and
    what :func:`guide` reports. The same checks as :func:`guide`, the same errors."""
    if reflect is not None:
        raise PuzzleError("reflect applies to sliding-tile pattern databases")
    names = _names(spec)
    if not names:
        raise PuzzleError("no pattern database named")
    for nm in names:
        parse_name(nm, puzzle.counts)
    if puzzle.goal is None:
        raise PuzzleError("a pattern database needs a goal (the daughter's place)")
    out = []
    for nm in names:
        key = _key(puzzle, nm)
        source = ("memory" if key in _MEMORY else
                  "cache" if cache and (cache_dir() / key).exists() else "build")
        out.append({"name": nm, "entries": None, "source": source, "build_bytes": None})
    return out, {"heuristic": ",".join(names), "pdb": names}


def guide(puzzle, spec, reflect=None, progress=None, cache=True):
    """``puzzle`` guided by the greatest value of the databases ``spec``, and what to report:
    their names and sizes."""
    if reflect is not None:
        raise PuzzleError("reflect applies to sliding-tile pattern databases")
    names = _names(spec)
    with layer_bar(bool(progress), None, "PDBs", progress) as update:
        dbs = databases(puzzle, names, progress=update, cache=cache)
    space = puzzle.with_pdb_fields(heuristic_fields(dbs, puzzle.rows, puzzle.cols), names)
    return space, {"heuristic": ",".join(names), "pdb": names,
                   "patterns": [db.patterns for db in dbs]}
