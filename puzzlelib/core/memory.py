"""Refuse allocations that would not fit, before making them."""

import os

from .errors import PuzzleError, SearchLimitError

#: Use at most this share of the memory available now for one table.
SHARE = 0.8
#: While a search is watched (:mod:`puzzlelib.core.limits` sets it): a function giving its
#: memory limit and the bytes the process may still add, ``(limit, room)``; else None.
search_limit = None
#: Below this size an allocation is not checked (reading the memory available costs more than
#: a small search), unless ``PUZZLELIB_MAX_BYTES`` sets a limit.
UNCHECKED_BYTES = 16 << 20


def available_bytes():
    """Memory available to a new allocation (``PUZZLELIB_MAX_BYTES`` overrides, for tests)."""
    override = os.environ.get("PUZZLELIB_MAX_BYTES")
    if override:
        return int(override)
    return memory_available()


def memory_available():
    """The system's memory available now (``MemAvailable``), whatever the tests set."""
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
    """Raise :class:`PuzzleError` if ``n_bytes`` would not fit in the memory available, and
    :class:`SearchLimitError` if they would pass the memory limit of the search running
    (:mod:`puzzlelib.core.limits`)."""
    watched = search_limit() if search_limit is not None else None
    if watched is not None and n_bytes > watched[1]:
        raise SearchLimitError(
            f"{what} needs {human(n_bytes)} of memory, over the memory limit of "
            f"{human(watched[0])} with {human(watched[0] - watched[1])} in use or promised; "
            f"raise max_memory (--max-memory) or choose a search that needs less (idastar, "
            f"astar, bidir)")
    if n_bytes < UNCHECKED_BYTES and not os.environ.get("PUZZLELIB_MAX_BYTES"):
        return
    avail = available_bytes()
    if n_bytes > SHARE * avail:
        raise PuzzleError(
            f"{what} needs {human(n_bytes)} of memory, but only {human(avail)} is available; "
            f"choose a smaller board or a search that does not need the full table "
            f"(idastar, astar, bidir)"
        )


def fits(n_bytes):
    """Whether :func:`check_fits` would let ``n_bytes`` be allocated."""
    watched = search_limit() if search_limit is not None else None
    if watched is not None and n_bytes > watched[1]:
        return False
    if n_bytes < UNCHECKED_BYTES and not os.environ.get("PUZZLELIB_MAX_BYTES"):
        return True
    return n_bytes <= SHARE * available_bytes()

