"""Tasks of very different sizes shared among threads as they come free.

``prange`` gives each thread one fixed run of the iterations, decided before any runs. With
numba's ``omp`` threading layer even :func:`numba.parallel_chunksize` keeps it so: the chunks
are still dealt out in fixed runs, one half of a pass's subtrees to each of two threads
whatever the chunk size (benchmarks/RESULTS.md, "Constants"). Subtrees of a depth-first pass,
or searches of a batch, differ in size by orders of magnitude, so a fixed share leaves a
thread idle.

Here each thread runs one *worker* (``prange`` over the workers), and a worker takes the next
task number from a shared counter, with an atomic add, until none are left::

    counter = new_counter()
    for w in prange(workers(n_tasks)):
        while True:
            i = take(counter)
            if i >= n_tasks:
                break
            ...task i...

Tasks start in their own order, so a caller that puts the big ones first (or that skips tasks
after one it has found an answer in) keeps that.
"""

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from ..core.jit import jit



def start_threads():
    """Start numba's thread pool if it is not running yet (numba starts it on first use), and
    return how many threads it shares work among. Drivers call it before a kernel that shares
    work: the pool's library is what makes ``get_num_threads`` known to the linker, which
    :func:`_num_threads` calls, and a kernel loaded from numba's cache is linked when it is
    loaded."""
    return numba.get_num_threads()


def atomic_rmw(op, dtype):
    """An intrinsic ``fetch(arr, i, v)``: ``arr[i] = arr[i] <op> v`` done atomically on an array
    of ``dtype`` (LLVM ``atomicrmw``, ``op`` one of its operations: ``"add"``, ``"and"``,
    ``"or"``...); returns the value before."""

    @intrinsic
    def fetch(typingctx, arr, i, v):
        if not (isinstance(arr, types.Array) and arr.dtype == dtype):
            return None
        sig = dtype(arr, types.intp, dtype)

        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            ptr = builder.gep(ary.data, [args[1]])
            return builder.atomic_rmw(op, ptr, args[2], "seq_cst")

        return sig, codegen

    return fetch


_fetch_add = atomic_rmw("add", types.int64)


@jit
def new_counter():
    """A fresh task counter (starts at task 0)."""
    return np.zeros(1, dtype=np.int64)


@jit
def take(counter):
    """The next task number (each number is handed out exactly once, whatever the threads)."""
    return _fetch_add(counter, 0, 1)


@intrinsic
def _num_threads(typingctx):
    """numba's ``get_num_threads()``, called by its symbol name. numba's own version calls it
    through a ctypes pointer, which a cached function cannot hold (every kernel sharing work
    was compiled anew in each process); the name is resolved by the linker instead."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(32), []),
                                            "get_num_threads")
        return builder.sext(builder.call(fn, []), ir.IntType(64))

    return sig, codegen


# Inside a ``parallel=True`` kernel numba makes ``np.zeros``, ``np.full``, an array expression
# such as ``-a`` and a reduction such as ``a.sum()`` parallel regions of their own, each one a
# wake-up of the thread pool; for the few entries a kernel keeps per task these do the same
# work on the calling thread instead.


@jit
def filled(n, value):
    """A new ``int64`` array of ``n`` entries, each ``value`` (on this thread)."""
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = value
    return out


@jit
def total(a):
    """The sum of an ``int64`` array (on this thread)."""
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@jit
def biggest_first(sizes):
    """Task numbers in order of decreasing size (on this thread)."""
    return np.argsort(-sizes)


@jit
def workers(n_tasks):
    """How many workers to start: one per thread, never more than there are tasks."""
    return max(1, min(_num_threads(), n_tasks))


@intrinsic
def prefetch(typingctx, arr, i):
    """Ask the processor to bring ``arr[i]`` into its caches (LLVM ``llvm.prefetch``, for a
    write, kept close) and go on without waiting. Kernels that look at many scattered words
    compute their indices first, prefetch them all, then read them: the misses overlap."""
    if not isinstance(arr, types.Array):
        return None
    sig = types.void(arr, types.intp)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch")
        builder.call(fn, [ptr, i32(1), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen
