"""Layered breadth-first search on an NVIDIA GPU, with numba-cuda.

**Written once, compiled for both.** A domain's functions (:mod:`puzzlelib.core.contract`) are
numba CPU functions; numba-cuda compiles a CPU function that a CUDA kernel calls once more,
for the GPU. So the kernels here call the very ``step``, ``rank_after`` and ``unrank`` the CPU
kernels call, through the same expansion steps (:mod:`.expand`), given the domain's functions
as device functions (:func:`device_fns`); one kernel shape (``sweep``) makes every layer.
They are made per bundle of domain functions, state length and number of moves
(:func:`kernels`): each thread keeps a state and its children's ranks in its own local
memory, whose size must be known when compiling. Arrays of the domain's ``params`` are
copied to the GPU once per search.

**Tables.** Both of the CPU's layouts, so that a result answers ``depth`` and ``path_to``
as the CPU's does once the table is copied back:

- *bytes* (:func:`bfs_bytes`): one byte a position, as :mod:`puzzlelib.search.layered`. A layer
  is one launch over the whole table; each thread takes ranks ``i, i + stride, ...``.
  *Top down*, a position of depth ``d`` applies its moves and writes ``d + 1`` into each unseen
  child: two threads reaching one child write the same byte, so the table is exact, and a
  second launch counts the new layer. *Bottom up* (once fewer positions are left unseen than
  the layer holds, and only where every rank is a reachable position), each unseen position
  looks for a neighbour of depth ``d`` and marks itself: each thread writes only its own
  entries, and counts them.
- *packed* (:func:`bfs_packed`): two bits a position, the depth modulo 3, as
  :mod:`puzzlelib.search.packed`, and two bitmaps, this layer's positions and the next's.
  Top down, a thread takes a word of this layer's bits; a child's two bits are set with an
  atomic AND, and whoever found them unseen counts the child and sets its bit with an atomic
  OR. Bottom up, a thread owns one table word (32 positions), looks for a neighbour with code
  ``d % 3`` for each unseen one (only depth ``d`` has it among seen neighbours), and writes the
  word once.

Under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) the same kernels run as Python on
the CPU, one small grid: that is how the tests check them where no GPU is.
"""

import numpy as np

from ..core import memory
from ..core.contract import UNSEEN
from ..core.errors import PuzzleError
from ..core.limits import check, note
from .expand import pull, pull_word, push
from .packed import PackedTable, front_words

#: Threads per block.
BLOCK = 256
#: Blocks per multiprocessor in a launch (the grid-stride loops cover the rest of a table).
BLOCKS_PER_SM = 16
#: Under the simulator, where each thread is a Python thread: one block of this many.
SIM_THREADS = 2
#: Use at most this share of the GPU's free memory.
GPU_SHARE = 0.9

#: numba's CUDA module once :func:`require` found it. The kernels name it as a global: the
#: simulator replaces a kernel's global ``cuda`` with its own, and would miss a closure's.
cuda = None


def cuda_module():
    """numba's CUDA module, or a one-line :class:`PuzzleError` saying how to get it."""
    try:
        from numba import cuda
    except ImportError as e:  # (numba without its CUDA target)
        raise PuzzleError(f"backend 'cuda' needs numba-cuda ({e}): pip install "
                          f"'puzzlelib-search[cuda]'") from None
    return cuda


def simulated():
    """Whether numba's CUDA simulator stands in for the GPU."""
    from numba.core import config

    return bool(getattr(config, "ENABLE_CUDASIM", False))


def require():
    """The CUDA module, once a GPU (or the simulator) is known to be there; else a one-line
    :class:`PuzzleError`."""
    global cuda
    module = cuda_module()
    try:
        ok = module.is_available()
    except Exception:  # a broken driver install raises from inside numba-cuda
        ok = False
    if not ok:
        raise PuzzleError("backend 'cuda' needs an NVIDIA GPU with its driver and numba-cuda "
                          "(pip install 'puzzlelib-search[cuda]'), and no GPU was found; use "
                          "backend 'cpu' (the default)")
    cuda = module
    return module


def device_name():
    """The GPU's name (``"simulator"`` under numba's CUDA simulator)."""
    cuda = require()
    if simulated():
        return "simulator"
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def free_bytes():
    """Free memory on the GPU (``PUZZLELIB_MAX_GPU_BYTES`` overrides, for tests)."""
    import os

    override = os.environ.get("PUZZLELIB_MAX_GPU_BYTES")
    if override:
        return int(override)
    cuda = require()
    try:
        return int(cuda.current_context().get_memory_info()[0])
    except Exception:  # (the simulator has no such number)
        return 1 << 62


def check_gpu_fits(n_bytes, what):
    """Raise :class:`PuzzleError` before allocating if ``n_bytes`` would not fit on the GPU."""
    free = free_bytes()
    if n_bytes > GPU_SHARE * free:
        raise PuzzleError(f"{what} needs {memory.human(n_bytes)} of GPU memory, but only "
                          f"{memory.human(free)} is free on the GPU; choose a smaller board "
                          f"or backend 'cpu'")


def _grid(cuda):
    if simulated():
        return 1, SIM_THREADS
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    return sms * BLOCKS_PER_SM, BLOCK


def functions_in(params):
    """The fields of ``params`` that hold a function: a GPU kernel cannot call one (numba-cuda
    has no first-class functions), so a domain with any does not run here."""
    return [name for name, v in zip(type(params)._fields, params) if callable(v)]


def device_params(cuda, params):
    """``params`` with each array copied to the GPU (same namedtuple type, same fields).
    Under the simulator they stay on the host, where the domain's CPU functions read them."""
    if simulated():
        return params
    return type(params)(*(cuda.to_device(np.ascontiguousarray(v)) if isinstance(v, np.ndarray)
                          else v for v in params))


_KERNELS = {}


def kernels(fns, state_len, n_moves):
    """The CUDA kernels for the domain functions ``fns`` (a
    :class:`~puzzlelib.core.contract.DomainFns`), states of ``state_len`` bytes and
    ``n_moves`` moves, made once per process (numba-cuda compiles each at its first launch)."""
    key = (fns, int(state_len), int(n_moves))
    if key not in _KERNELS:
        require()
        _KERNELS[key] = _make_kernels(fns, int(state_len), int(n_moves))
    return _KERNELS[key]


def device_fns(fns):
    """The bundle the kernels give the expansion steps (:mod:`.expand`): the domain's
    functions as device functions (numba-cuda compiles the same Python functions once more;
    under the simulator, the CPU functions themselves), without the fast paths ``rank_from``
    and ``children``."""
    plain = fns._replace(rank_from=None, children=None)
    if simulated():
        return plain
    return type(plain)(*(None if f is None else cuda.jit(device=True)(f.py_func)
                         for f in plain))


_SHARED = []


def _threads():
    """The device function ``threads()``: this thread's first index in a grid-stride loop,
    and the stride (made once)."""
    if not _SHARED:
        @cuda.jit(device=True)
        def threads():
            return np.int64(cuda.grid(1)), np.int64(cuda.gridsize(1))

        _SHARED.append(threads)
    return _SHARED[0]


def _host_array(a):
    """Under the simulator, the NumPy array behind an array a kernel was given: the steps of
    :mod:`.expand` run there as the CPU's compiled functions, which take no simulated
    array."""
    return a._item._ary if hasattr(a, "_item") else a


_PLAIN = []


def _plain_kernels():
    """The kernels that call no domain function: filling, marking the starts, counting a
    layer (made once)."""
    if _PLAIN:
        return _PLAIN[0]
    threads = _threads()
    ones = np.uint64(3)
    one = np.uint64(1)

    @cuda.jit
    def fill(a, value):
        i, stride = threads()
        while i < a.shape[0]:
            a[i] = value
            i += stride

    @cuda.jit
    def mark_bytes(dist, starts):
        if cuda.grid(1) == 0:
            for i in range(starts.shape[0]):
                dist[starts[i]] = 0

    @cuda.jit
    def count_bytes(dist, value, acc):
        c = 0
        r, stride = threads()
        while r < dist.shape[0]:
            if dist[r] == value:
                c += 1
            r += stride
        if c:
            cuda.atomic.add(acc, 0, c)

    @cuda.jit
    def mark_packed(table, front, starts):
        if cuda.grid(1) == 0:
            for i in range(starts.shape[0]):
                r = starts[i]
                sh = np.uint64((r & 31) << 1)
                table[r >> 5] &= ~(ones << sh)  # code 0
                front[r >> 6] |= one << np.uint64(r & 63)

    _PLAIN.append(dict(fill=fill, mark_bytes=mark_bytes, count_bytes=count_bytes,
                       mark_packed=mark_packed))
    return _PLAIN[0]


def _make_kernels(fns, L, M):
    dfns = device_fns(fns)
    threads = _threads()
    if simulated():
        table_of = _host_array
    else:
        @cuda.jit(device=True)
        def table_of(a):
            return a
    ones = np.uint64(3)
    one = np.uint64(1)

    @cuda.jit(device=True)
    def report(acc, looked, made, marked):
        """Add a thread's counts to the launch's: positions looked at, children made, positions
        marked."""
        if looked:
            cuda.atomic.add(acc, 0, looked)
            cuda.atomic.add(acc, 1, made)
            cuda.atomic.add(acc, 2, marked)

    def sweep(visit):
        """A layer kernel ``(n_items, table, front, nxt, depth, n, up, p, acc)``: each thread
        gives ``visit`` the items ``i, i + stride, ...`` below ``n_items``, with its own room
        for a parent, a child and the children's ranks, and adds its counts to ``acc``."""

        @cuda.jit
        def layer(n_items, table, front, nxt, depth, n, up, p, acc):
            base = cuda.local.array(L, np.uint8)
            state = cuda.local.array(L, np.uint8)
            kids = cuda.local.array(M, np.int64)
            looked = 0
            made = 0
            marked = 0
            i, stride = threads()
            while i < n_items:
                a, b, c = visit(i, table, front, nxt, depth, n, up, p, base, state, kids)
                looked += a
                made += b
                marked += c
                i += stride
            report(acc, looked, made, marked)

        return layer

    @cuda.jit(device=True)
    def bytes_rank(r, dist, front, nxt, depth, n, up, p, base, state, kids):
        """Top down (``up`` false): a position of depth ``depth`` marks its unseen children.
        Bottom up: an unseen position marks itself at its first neighbour of depth ``depth``.
        (The steps' ``todo`` and ``memo``, for fast paths these functions lack, are never
        read: ``kids`` stands in.)"""
        cur = np.uint8(depth)
        if dist[r] != (np.uint8(UNSEEN) if up else cur):
            return 0, 0, 0
        if up:
            hit, made = pull(dfns, r, p, base, state, table_of(dist), cur, kids)
            if hit:
                dist[r] = np.uint8(depth + 1)
                return 1, made, 1
            return 1, made, 0
        k = push(dfns, r, p, base, state, kids, 0, kids, kids)
        for t in range(k):
            if dist[kids[t]] == UNSEEN:
                dist[kids[t]] = np.uint8(depth + 1)
        return 1, k, 0

    @cuda.jit(device=True)
    def push_word(w, table, front, nxt, depth, n, up, p, base, state, kids):
        """Top down, the positions of frontier word ``w``: a child's two bits are set with an
        atomic AND, and the thread that found them unseen counts it and sets its bit in
        ``nxt``."""
        clear = ones ^ np.uint64((depth + 1) % 3)
        expanded = 0
        made = 0
        marked = 0
        bits = front[w]
        while bits != 0:
            low = bits & (~bits + one)
            bits ^= low
            r = w * 64 + np.int64(cuda.popc(low - one))
            expanded += 1
            k = push(dfns, r, p, base, state, kids, 0, kids, kids)
            made += k
            for t in range(k):
                r2 = kids[t]
                wi = r2 >> 5
                sh = np.uint64((r2 & 31) << 1)
                if (table[wi] >> sh) & ones != ones:
                    continue
                old = cuda.atomic.and_(table, wi, ~(clear << sh))
                if (old >> sh) & ones == ones:  # this thread reached it first
                    marked += 1
                    cuda.atomic.or_(nxt, r2 >> 6, one << np.uint64(r2 & 63))
        return expanded, made, marked

    @cuda.jit(device=True)
    def pull_packed_word(wi, table, front, nxt, depth, n, up, p, base, state, kids):
        """Bottom up, the unseen positions of table word ``wi`` (:func:`.expand.pull_word`),
        the word written once."""
        looked, made, marked, clear, bits = pull_word(dfns, wi, n, p, base, state,
                                                      table_of(table), np.uint64(depth % 3),
                                                      kids)
        if clear != 0:
            table[wi] &= ~np.uint64(clear)
            cuda.atomic.or_(nxt, wi >> 1, np.uint64(bits))
        return looked, made, marked

    return dict(_plain_kernels(), layer_bytes=sweep(bytes_rank),
                push_packed=sweep(push_word), pull_packed=sweep(pull_packed_word))


class _Run:
    """What a search on the GPU shares among its layers."""

    def __init__(self, fns, params):
        self.cuda = require()
        self.k = kernels(fns, params.state_len, params.n_moves)
        self.p = device_params(self.cuda, params)
        self.grid = _grid(self.cuda)
        self.acc = self.cuda.device_array(3, dtype=np.int64)

    def launch(self, name, *args):
        self.k[name][self.grid](*args)

    def tally(self, name, *args):
        """Launch ``name`` with a fresh accumulator as its last argument; its three numbers."""
        self.launch("fill", self.acc, np.int64(0))
        self.launch(name, *args, self.acc)
        return [int(x) for x in self.acc.copy_to_host()]

    def layer(self, name, n_items, table, front, nxt, depth, n, up):
        """Launch the layer kernel ``name`` (see ``sweep`` in :func:`_make_kernels`); its
        three counts: positions looked at, children made, positions marked."""
        return self.tally(name, np.int64(n_items), table, front, nxt, np.int64(depth),
                          np.int64(n), bool(up), self.p)


def warm(fns, params, packed=False, least=False):
    """Start the GPU and compile the kernels a search of ``fns`` will launch (numba-cuda
    compiles a kernel at its first launch), on inputs too small to hold any work, so that the
    search's own time leaves them out. Returns the GPU's name; a puzzle whose functions do
    not compile for the GPU is a one-line :class:`PuzzleError`."""
    from numba.core.errors import NumbaError

    try:
        _warm(fns, params, packed, least)
    except (NumbaError, ValueError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise PuzzleError(f"the puzzle's functions do not compile for the GPU ({first}); use "
                          f"backend 'cpu'") from None
    return device_name()


def _warm(fns, params, packed, least):
    run = _Run(fns, params)
    c = run.cuda
    if packed:
        table = c.to_device(np.zeros(2, dtype=np.uint64))  # every position at depth 0
        front = c.to_device(np.zeros(1, dtype=np.uint64))  # and none in the layer
        run.launch("fill", front, np.uint64(0))
        run.k["mark_packed"][1, 1](table, front, c.to_device(np.zeros(0, dtype=np.int64)))
        run.layer("push_packed", front.shape[0], table, front, front, 0, 64, False)
        run.layer("pull_packed", table.shape[0], table, front, front, 0, 64, True)
    else:
        dist = c.to_device(np.zeros(8, dtype=np.uint8))  # every position at depth 0
        run.launch("fill", dist, np.uint8(0))
        run.k["mark_bytes"][1, 1](dist, c.to_device(np.zeros(1, dtype=np.int64)))
        run.layer("layer_bytes", 8, dist, dist, dist, UNSEEN - 1, 8, False)
        run.layer("layer_bytes", 8, dist, dist, dist, 0, 8, True)
        run.tally("count_bytes", dist, np.uint8(1))
        if least:
            _least_kernel()[1, 1](dist, np.int64(8), c.device_array(1, dtype=np.uint8))
    c.synchronize()


def _starts(start_ranks, n):
    starts = np.unique(np.asarray(start_ranks, dtype=np.int64))
    if len(starts) == 0 or starts[0] < 0 or starts[-1] >= n:
        raise PuzzleError(f"start ranks must lie in 0..{n - 1}")
    return starts


def bfs_bytes(fns, params, n_ranks, start_ranks, progress=None, max_depth=None,
              bottom_up=True, keep=False, what=None):
    """Breadth-first search from ``start_ranks`` over a byte table on the GPU.

    ``bottom_up``: allowed when every rank is a reachable position (the contract's minimal
    perfect hash; not so for the abstract spaces of pattern databases). ``keep``: return the
    table on the GPU instead of copying it back. ``progress(depth, layer_count, total)`` after
    each layer; ``max_depth`` stops after that layer (a uint8 table holds depths up to 254).

    Returns ``(dist, counts, tally, stopped)``: ``tally`` holds the children generated, the
    positions expanded or examined, and the layers made bottom up."""
    n = int(n_ranks)
    what = what or f"a distance table of {n:,} positions"
    starts = _starts(start_ranks, n)
    check_gpu_fits(n + 8 * len(starts), what)
    if not keep:
        memory.check_fits(n, f"{what}, copied back from the GPU")
    run = _Run(fns, params)
    cuda = run.cuda
    dist = cuda.device_array(n, dtype=np.uint8)
    run.launch("fill", dist, np.uint8(UNSEEN))
    run.k["mark_bytes"][1, 1](dist, cuda.to_device(starts))
    counts = [len(starts)]
    reached = len(starts)
    tally = [0, 0, 0]
    limit = UNSEEN - 1 if max_depth is None else min(int(max_depth), UNSEEN - 1)
    stopped = False
    while True:
        depth = len(counts) - 1
        if depth >= limit:
            stopped = max_depth is not None
            if max_depth is None:
                raise PuzzleError(f"depth {UNSEEN - 1} reached: deeper layers do not fit a "
                                  f"byte table; use table='packed'")
            break
        up = bottom_up and n - reached < counts[-1]
        looked, made, new = run.layer("layer_bytes", n, dist, dist, dist, depth, n, up)
        if not up:  # (two threads may have marked one child: count them once)
            new = run.tally("count_bytes", dist, np.uint8(depth + 1))[0]
        tally[0] += made
        tally[1] += looked
        tally[2] += up
        if new == 0:
            break
        counts.append(new)
        reached += new
        note(depth + 1, reached)
        check()
        if progress is not None:
            progress(depth + 1, new, reached)
    return (dist if keep else dist.copy_to_host()), counts, tally, stopped


def least_per_block(dist, per):
    """``out[c] = min(dist[c * per : (c + 1) * per])`` for a table kept on the GPU
    (:func:`bfs_bytes` with ``keep``), copied back: a pattern database's least over the
    blank's regions."""
    cuda = require()
    n = dist.shape[0] // per
    memory.check_fits(n, f"a pattern database of {n:,} placements")
    out = cuda.device_array(n, dtype=np.uint8)
    _least_kernel()[_grid(cuda)](dist, np.int64(per), out)
    return out.copy_to_host()


_LEAST = []


def _least_kernel():
    """The kernel of :func:`least_per_block` (no domain functions), made once."""
    if not _LEAST:
        require()
        threads = _threads()

        @cuda.jit
        def least(dist, per, out):
            c, stride = threads()
            while c < out.shape[0]:
                best = np.uint8(UNSEEN)
                for j in range(per):
                    v = dist[c * per + j]
                    if v < best:
                        best = v
                out[c] = best
                c += stride

        _LEAST.append(least)
    return _LEAST[0]


def packed_gpu_bytes(n):
    """GPU bytes :func:`bfs_packed` allocates for ``n`` positions: the two-bit table and two
    layer bitmaps."""
    return 8 * (2 * front_words(n) + 2 * front_words(n))


def bfs_packed(fns, params, n_ranks, start_ranks, progress=None, max_depth=None,
               what=None):
    """Breadth-first search from ``start_ranks`` over a two-bit table on the GPU (every rank a
    reachable position, as the contract's minimal perfect hash gives). Returns
    ``(PackedTable, counts, tally, stopped)`` as :func:`puzzlelib.search.packed.packed_bfs`,
    the table copied back to the host."""
    n = int(n_ranks)
    what = what or f"a packed table of {n:,} positions"
    starts = _starts(start_ranks, n)
    fw = front_words(n)
    check_gpu_fits(packed_gpu_bytes(n), what)
    memory.check_fits(8 * 3 * fw, f"{what}, copied back from the GPU")
    run = _Run(fns, params)
    cuda = run.cuda
    table = cuda.device_array(2 * fw, dtype=np.uint64)
    front = cuda.device_array(fw, dtype=np.uint64)
    nxt = cuda.device_array(fw, dtype=np.uint64)
    run.launch("fill", table, np.uint64(0xFFFFFFFFFFFFFFFF))
    run.launch("fill", front, np.uint64(0))
    run.launch("fill", nxt, np.uint64(0))
    run.k["mark_packed"][1, 1](table, front, cuda.to_device(starts))
    counts = [len(starts)]
    reached = len(starts)
    tally = [0, 0, 0]
    limit = None if max_depth is None else int(max_depth)
    stopped = False
    while True:
        depth = len(counts) - 1
        if limit is not None and depth >= limit:
            stopped = True
            break
        up = n - reached < counts[-1]
        if up:
            looked, made, new = run.layer("pull_packed", table.shape[0], table, front, nxt,
                                          depth, n, True)
        else:
            looked, made, new = run.layer("push_packed", front.shape[0], table, front, nxt,
                                          depth, n, False)
        tally[0] += made
        tally[1] += looked
        tally[2] += up
        if new == 0:
            break
        front, nxt = nxt, front
        run.launch("fill", nxt, np.uint64(0))
        counts.append(new)
        reached += new
        note(depth + 1, reached)
        check()
        if progress is not None:
            progress(depth + 1, new, reached)
    result = PackedTable(table.copy_to_host(), front.copy_to_host(), n, starts,
                         len(counts), fns, params)
    return result, counts, tally, stopped
