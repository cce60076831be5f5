"""Settings for a whole process that runs many searches, made only when asked.

``import puzzlelib`` changes nothing in its host process. A program that runs many searches,
one after another, may call :func:`tune` once: the command line, the benchmarks and the
notebooks do.
"""

import os

import numba

#: Blocks below this size come from the C library's heap rather than fresh pages of their own
#: (glibc's default starts at 128 KiB and rises, up to this, after a large block is freed).
MMAP_THRESHOLD = 32 << 20
#: Free memory kept at the top of the heap before it is given back to the system.
TRIM_THRESHOLD = 64 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt() parameters


def keep_freed_memory():
    """Let the C library keep up to :data:`TRIM_THRESHOLD` of freed memory for the next
    allocation, and serve blocks of up to :data:`MMAP_THRESHOLD` from it, instead of mapping
    fresh pages for every block over 128 KiB and unmapping them when it is freed.

    Why: the kernels allocate their tables and layer lists anew on every call (hundreds of KiB
    to megabytes for the 8-puzzle). With glibc's starting settings, each call's pages are
    unmapped when freed and faulted in again by the next call: hundreds of page faults per
    call of a small search, a large share of its time. A process that has compiled kernels
    does not show it (the compiler's own large blocks, once freed, raised glibc's thresholds to
    about these values); a process that loads its kernels from numba's cache does.

    Only on Linux with glibc (elsewhere, or when ``mallopt`` is missing, nothing is done);
    ``PUZZLELIB_MALLOC=default`` leaves the C library as it is. Returns whether the settings
    were made."""
    if os.environ.get("PUZZLELIB_MALLOC", "").lower() == "default":
        return False
    import ctypes
    import platform

    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def tune(malloc=True, threads=True):
    """Make this process quicker at many searches in a row: ``malloc``, the C library keeps
    freed memory for the next search (:func:`keep_freed_memory`); ``threads``, numba's thread
    pool starts now rather than inside the first timed search. Returns what was done, as a
    dict."""
    done = {"malloc": keep_freed_memory() if malloc else False, "threads": 0}
    if threads:
        done["threads"] = numba.get_num_threads()
    return done
