"""Where numba caches compiled code: one folder per version of this package's source.

Numba keys a cached function by its own file's timestamp only. A function whose file did not
change, but which inlined code from a file that did (a hash-set helper, say), would be loaded
stale and give wrong answers without an error: after a change to the hash set, pattern-database
lookups compiled against the older one found nothing. So every function is cached under a digest
of all the package's source, and any change recompiles everything. The folder is
``$PUZZLELIB_CACHE/numba/<digest>`` (default ``~/.cache/puzzlelib``); set ``NUMBA_CACHE_DIR`` to
choose one yourself. Folders of older versions may be deleted at any time.

Imported first by ``puzzlelib/__init__.py``: the setting must come before any kernel is defined.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba.core.caching import FunctionCache


def cache_folder():
    """The folder for this version of the source, or None when ``NUMBA_CACHE_DIR`` is set."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for f in sorted(here.rglob("*.py")):
        digest.update(str(f.relative_to(here)).encode() + b"\0" + f.read_bytes() + b"\0")
    root = os.environ.get("PUZZLELIB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "puzzlelib")
    return os.path.join(root, "numba", digest.hexdigest()[:16])


FOLDER = cache_folder()
if FOLDER is not None:
    numba.config.CACHE_DIR = FOLDER


# --- Kernels that take a domain's functions -------------------------------------------------
#
# A search kernel is compiled for the bundle of domain functions it is given, and numba keys
# its cache entry by the argument types, a function's type included. That type names the
# function by a random id drawn anew in every process, so an entry saved by one process was
# never found by the next, and every process (each notebook, each CLI call) compiled every
# kernel again: 20-25 s before a first answer.
#
# So each of this package's domain functions gets an id made of its module and name
# (:func:`stable_identity`), the same in every process; a kernel saved with them is found
# again. That is safe because the cache folder above changes with any of the package's source,
# the domain functions' included. Functions from outside the package (a user's own domain)
# keep numba's random id, and :func:`kernel` does not save an entry that holds one: it would
# never be found again, and nothing would notice if its source changed.

PREFIX = "puzzlelib:"


def stable_identity(dispatcher):
    """Give a module-level jitted function of this package the same numba id in every process.

    Anything else (a function outside ``puzzlelib``, or a numba without this private hook) is
    left as it is: kernels given it are compiled in each process, as before.
    """
    func = dispatcher.py_func
    module = getattr(func, "__module__", "") or ""
    if not module.startswith("puzzlelib.") or "<locals>" in func.__qualname__:
        return dispatcher
    try:
        dispatcher._set_uuid(f"{PREFIX}{module}.{func.__qualname__}")
    except (AttributeError, AssertionError):
        pass
    return dispatcher


def _is_stable(dispatcher):
    try:
        return dispatcher._uuid.startswith(PREFIX)
    except AttributeError:
        return False


def _only_stable_functions(ty):
    """No function in the numba type ``ty`` (nested tuples included) has a per-process id."""
    from numba.core import types

    if isinstance(ty, types.Dispatcher):
        return _is_stable(ty.dispatcher)
    if isinstance(ty, types.BaseTuple):
        return all(_only_stable_functions(t) for t in ty.types)
    return not isinstance(ty, types.Callable)


class _KernelCache(FunctionCache):
    """numba's own on-disk cache, which saves no entry naming a function from outside."""

    def save_overload(self, sig, data):
        from numba.core import sigutils

        args, _ = sigutils.normalize_signature(sig)
        if all(_only_stable_functions(t) for t in args):
            super().save_overload(sig, data)


def kernel(func=None, **options):
    """``njit`` for search kernels (functions given a domain's functions), cached on disk.

    Use as ``@kernel`` or ``@kernel(parallel=True)``.
    """
    if func is None:
        return lambda f: kernel(f, **options)
    dispatcher = numba.njit(cache=True, **options)(func)
    dispatcher._cache = _KernelCache(dispatcher.py_func)
    return dispatcher


# --- Calling a kernel without typing its arguments again --------------------------------------
#
# numba's dispatcher works out the numba type of every argument on every call, to pick the
# compiled code: for bidirectional search on the 8-puzzle (two arrays, three bundles of domain
# functions and parameters, three integers) 10 us of a 0.2 ms search in a loop of calls, and
# some 25 us right after other Python code has run (measured 2026-11-25). Where a caller knows
# that its arguments keep their types, it can call the compiled code itself.

_DIRECT = {}


def call_direct(dispatcher, key, *args):
    """``dispatcher(*args)``; after the first call with this ``key``, through the compiled code
    that call used, without numba's typing of the arguments.

    The caller vouches that every call with one ``key`` passes arguments of the same numba
    types as the first (arrays of the same dtype, dimensions and layout, the same bundles of
    functions, parameters of the same namedtuple type holding the same types): the compiled
    code reads them as those types, unchecked. Where this numba does not expose its compiled
    code (``Dispatcher.overloads``, ``entry_point``), every call goes through the dispatcher."""
    entry = _DIRECT.get((dispatcher, key))
    if entry is not None:
        return entry(*args)
    result = dispatcher(*args)  # compiles if it must, and types the arguments as always
    try:
        entry = dispatcher.overloads[tuple(dispatcher.typeof_pyval(a) for a in args)].entry_point
    except (AttributeError, KeyError, TypeError, ValueError):
        entry = dispatcher
    _DIRECT[(dispatcher, key)] = entry
    return result
