"""Refuse allocations that would not fit, before making them."""

import os

from .errors import PuzzleError

#: Use at most this share of the memory available now for one table.
SHARE = 0.8


def available_bytes():
    """Memory available to a new allocation (``PUZZLELIB_MAX_BYTES`` overrides, for tests)."""
    override = os.environ.get("PUZZLELIB_MAX_BYTES")
    if override:
        return int(override)
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def human(n):
    n = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024


def check_fits(n_bytes, what):
    """Raise :class:`PuzzleError` if ``n_bytes`` would not fit in the memory available."""
    avail = available_bytes()
    if n_bytes > SHARE * avail:
        raise PuzzleError(
            f"{what} needs {human(n_bytes)} of memory, but only {human(avail)} is available; "
            f"choose a smaller board or a search that does not need the full table "
            f"(idastar, astar, bidir)"
        )


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

    Why: the kernels allocate their tables and layer lists anew on every call (hundreds of
    KiB to megabytes for the 8-puzzle). With glibc's starting settings, each call's pages were
    unmapped when freed and faulted in again by the next call: about 500 page faults per call
    of ``layers`` on the 8-puzzle (some 10% of its time), and 0.77 to 0.91 ms instead of 0.20
    to 0.27 ms for its bidirectional search (processes side by side, 2026-11-24). A process
    that has compiled kernels does not show it (the compiler's own large blocks, once freed,
    raised glibc's thresholds to these values), which is why benchmarks missed it; a process
    that loads its kernels from numba's cache does.

    Called once on import. Only on Linux with glibc (elsewhere, or when ``mallopt`` is
    missing, nothing is done); ``PUZZLELIB_MALLOC=default`` leaves the C library as it is.
    Returns whether the settings were made."""
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
