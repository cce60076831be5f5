"""Compiling this package's numba functions, and caching them on disk in its own folder.

Every numba function of the package is made by :func:`jit`, :func:`kernel` or
:func:`domain_fn`. Each one caches its compiled code on disk, in the package's own folder
(:func:`cache_folder`), and nowhere else: numba's settings are left as they were, so a user's
own numba functions cache where numba would put them.

**One folder per version of the whole source.** numba keys a cached function by its own file
alone. A function whose file did not change, but which inlined code from a file that did (a
hash-set helper, say), would be loaded stale and give wrong answers without an error. So the
folder is named by a digest of every source file numba could compile from: every file of the
layers below the top (``core``, ``domains``, ``search``, ``pdb``) and any other file that imports
numba or this module. Any change to one of them compiles everything again; a change to the
plain-Python modules above (the teaching versions, the pictures, the notebooks' helpers) does
not. Folders of older versions may be deleted at any time.

**Kernels given a domain's functions.** A search kernel is compiled for the bundle of domain
functions it is given, and numba keys its cache entry by the argument types, a function's
type included. That type names the function by an id numba draws anew in every process, so an
entry saved by one process would never be found by the next. Each of this package's domain
functions therefore gets an id made of its module and name (:func:`stable_identity`), the same
in every process. That is safe because the folder changes with any of the package's source.
Functions from outside the package (a puzzle of your own) keep numba's random id, and a
kernel given one saves no entry (it would never be found again, and nothing would notice if
its source changed): such kernels are compiled once per process.

**No wrappers for code only compiled code calls.** numba compiles a function for each new
kind of argument, and gives it two wrappers: one that Python calls (it converts every argument
from a Python object) and one that C calls. A helper that numba compiles because a function
being compiled calls it (:class:`_Dispatcher`) gets neither: compiled functions call each
other directly, and making the wrappers is a large share of a command's compile time
(benchmarks/RESULTS.md, "No wrappers"). Called from Python later, the helper is compiled again
with them. The two kinds are cached apart.
"""

import hashlib
import itertools
import os
import pickle
import re
import threading
import warnings
from pathlib import Path

import numba
from numba.core import sigutils
from numba.core.caching import (CompileResultCacheImpl, FunctionCache, IndexDataCacheFile,
                                 _CacheLocator)
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher

from .store import cache_root, locked

#: The package's folder (``puzzlelib/``).
PACKAGE = Path(__file__).resolve().parent.parent


#: The subpackages whose every file counts in the digest (the layers kernels are made of).
KERNEL_LAYERS = ("core", "domains", "search", "pdb")
_USES_NUMBA = re.compile(rb"^\s*(import numba|from numba|from \S*jit import)", re.M)


def _compiled_from(path, package):
    """Whether numba may compile code of ``path``: a file of :data:`KERNEL_LAYERS`, or one
    that imports numba or this module."""
    rel = path.relative_to(package)
    return rel.parts[0] in KERNEL_LAYERS or bool(_USES_NUMBA.search(path.read_bytes()))


def source_digest(package=PACKAGE):
    """A digest of every ``.py`` file of the package numba may compile from (names and
    contents)."""
    digest = hashlib.sha256()
    for f in sorted(package.rglob("*.py")):
        if _compiled_from(f, package):
            digest.update(str(f.relative_to(package)).encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


DIGEST = source_digest()


def cache_folder():
    """Where this version of the package caches its compiled code:
    ``$NUMBA_CACHE_DIR/puzzlelib-<digest>`` when ``NUMBA_CACHE_DIR`` is set, else
    ``<cache root>/numba/<digest>`` (the cache root: ``$PUZZLELIB_CACHE``, else
    ``$XDG_CACHE_HOME/puzzlelib`` or ``~/.cache/puzzlelib``)."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        return os.path.join(numba_dir, f"puzzlelib-{DIGEST}")
    return os.path.join(cache_root(), "numba", DIGEST)


class _PackageLocator(_CacheLocator):
    """numba's cache locator for this package's functions: the folder of this version of the
    source, one subfolder per module."""

    def __init__(self, py_func, py_file, module):
        self._lineno = py_func.__code__.co_firstlineno
        self._path = os.path.join(cache_folder(), module)

    def get_cache_path(self):
        return self._path

    def get_source_stamp(self):
        return DIGEST

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            rel = Path(py_file).resolve().relative_to(PACKAGE)
        except ValueError:
            return None
        self = cls(py_func, py_file, ".".join(rel.with_suffix("").parts))
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _PackageCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_PackageLocator]


class _SharedCacheFile(IndexDataCacheFile):
    """numba's index and data files of one function, safe for several processes at once and
    against damaged files.

    numba reads a function's index, picks a data file's name, and writes the index and then
    the data, with nothing held: two processes saving two signatures at once can each pick the
    same name, and the index may then name the other's compiled code. Here a save holds the
    index's lock (:func:`~puzzlelib.core.store.locked`) from reading the index to writing it,
    and writes the data before the index, so an index only ever names a whole data file. Each
    data file begins with a SHA-256 of the rest: a data file or index that is truncated or
    damaged reads as missing (with a warning for a data file), and the function is compiled
    again and saved anew."""

    def save(self, key, data):
        with locked(self._index_path):
            overloads = self._load_index()
            name = overloads.get(key)
            if name is None:
                used = set(overloads.values())
                name = next(n for n in map(self._data_name, itertools.count(1))
                            if n not in used)
            self._save_data(name, data)
            overloads[key] = name
            self._save_index(overloads)

    def load(self, key):
        name = self._load_index().get(key)
        if name is None:
            return None
        try:
            return self._load_data(name)
        except OSError:  # (removed since the index was read)
            return None
        except Exception as e:  # a damaged file: compiled again, and saved over it
            warnings.warn(f"numba cache file {self._data_path(name)} is damaged "
                          f"({type(e).__name__}); compiling again")
            return None

    def _load_index(self):
        try:
            return super()._load_index()
        except Exception:  # a damaged index: every entry compiled and saved again
            return {}

    def _save_data(self, name, data):
        payload = self._dump(data)
        with self._open_for_write(self._data_path(name)) as f:
            f.write(hashlib.sha256(payload).digest() + payload)

    def _load_data(self, name):
        with open(self._data_path(name), "rb") as f:
            digest, payload = f.read(32), f.read()
        if hashlib.sha256(payload).digest() != digest:
            raise ValueError("checksum")
        return pickle.loads(payload)


class PackageCache(FunctionCache):
    """numba's on-disk cache, in this package's folder (see the module), its files shared
    safely among processes (:class:`_SharedCacheFile`)."""

    _impl_class = _PackageCacheImpl

    #: Set by :class:`_Dispatcher` while it compiles for compiled callers only: entries then
    #: save and load under their own key (code without wrappers), and a load falls back on
    #: the entry with wrappers, which serves too.
    inner = False

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = _SharedCacheFile(
            cache_path=self._cache_path, filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp())

    def _index_key(self, sig, codegen):
        key = super()._index_key(sig, codegen)
        return (*key, "no wrappers") if self.inner else key

    def _load_overload(self, sig, target_context):
        got = super()._load_overload(sig, target_context)
        if got is None and self.inner:
            self.inner = False
            try:
                got = super()._load_overload(sig, target_context)
            finally:
                self.inner = True
        return got

    def holds(self, sig, codegen):
        """Whether an entry Python could call, for the argument types ``sig``, is saved
        (nothing is loaded)."""
        return self._index_key(sig, codegen) in self._cache_file._load_index()


def ready(dispatcher, args):
    """Whether calling ``dispatcher`` (a function made here) with ``args`` would not compile:
    it is compiled for their types in this process, or saved in the cache (then loaded when
    called). For a search that may leave a costly kernel out of a short call."""
    try:
        sig = tuple(dispatcher.typeof_pyval(a) for a in args)
    except Exception:  # (typed when called, which reports it)
        return False
    if sig in dispatcher.overloads:
        return True
    cache = getattr(dispatcher, "_cache", None)
    return isinstance(cache, PackageCache) and cache.holds(sig, dispatcher.targetctx.codegen())


PREFIX = "puzzlelib:"


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


class KernelCache(PackageCache):
    """:class:`PackageCache` that saves no entry naming a function from outside the package."""

    def save_overload(self, sig, data):
        from numba.core import sigutils

        args, _ = sigutils.normalize_signature(sig)
        if all(_only_stable_functions(t) for t in args):
            super().save_overload(sig, data)


_NO_WRAPPERS = ("no_cpython_wrapper", "no_cfunc_wrapper")
_compiling = threading.local()  # .depth: how many compiles this thread is inside


class _Dispatcher(CPUDispatcher):
    """numba's dispatcher, which compiles a function without its Python and C wrappers when
    numba compiles it because another function being compiled calls it (see the module).

    Such a compile result is kept (in :attr:`overloads`, where compiled callers find it) but
    not offered to Python's calls: a call from Python with those argument types compiles the
    function again, with its wrappers, and that result replaces it."""

    def compile(self, sig):
        with global_compiler_lock:  # (the options below are this dispatcher's, shared)
            args = tuple(sigutils.normalize_signature(sig)[0])
            depth = getattr(_compiling, "depth", 0)
            inner_only = self.__dict__.setdefault("_inner_only", set())
            if depth == 0 and args in inner_only:  # Python calls: compile with the wrappers
                del self.overloads[args]
                inner_only.discard(args)
            inner = depth > 0 and args not in self.overloads
            opts, cache = self.targetoptions, self._cache
            before = {k: opts[k] for k in _NO_WRAPPERS if k in opts}
            if inner:
                opts.update(dict.fromkeys(_NO_WRAPPERS, True))
                cache.inner = True
            _compiling.depth = depth + 1
            try:
                return super().compile(sig)
            finally:
                _compiling.depth = depth
                if inner:
                    for k in _NO_WRAPPERS:
                        opts.pop(k, None)
                    opts.update(before)
                    cache.inner = False

    def add_overload(self, cres):
        args = tuple(cres.signature.args)
        inner_only = self.__dict__.setdefault("_inner_only", set())
        if cres.objectmode or cres.library.get_pointer_to_function(
                cres.fndesc.llvm_cpython_wrapper_name):
            inner_only.discard(args)
            super().add_overload(cres)
        else:  # (its entry point has no code: Python must not be handed it)
            inner_only.add(args)
            self.overloads[args] = cres


def overload(func, jit_options=None, **kw):
    """``numba.extending.overload``, its implementations compiled without the C wrapper
    (numba already leaves out the Python one): only compiled code calls them."""
    from numba.extending import overload as numba_overload

    return numba_overload(func, jit_options={"no_cfunc_wrapper": True, **(jit_options or {})},
                          **kw)


def _with_cache(dispatcher, cache_class):
    if type(dispatcher) is CPUDispatcher:
        dispatcher.__class__ = _Dispatcher
    try:
        dispatcher._cache = cache_class(dispatcher.py_func)
    except (RuntimeError, OSError):
        pass  # no writable folder: compiled in each process, never loaded stale
    return dispatcher


def jit(func=None, **options):
    """``numba.njit`` for this package, cached in its folder. ``@jit`` or ``@jit(parallel=True)``."""
    if func is None:
        return lambda f: jit(f, **options)
    options.setdefault("nogil", True)  # the watcher (puzzlelib.core.limits) runs beside it
    return _with_cache(numba.njit(**options)(func), PackageCache)


def kernel(func=None, **options):
    """:func:`jit` for search kernels (functions given a domain's functions): no entry is saved
    for a kernel given a function from outside the package. ``@kernel`` or
    ``@kernel(parallel=True)``."""
    if func is None:
        return lambda f: kernel(f, **options)
    options.setdefault("nogil", True)
    return _with_cache(numba.njit(**options)(func), KernelCache)


def stable_identity(dispatcher):
    """Give a module-level numba function of this package the same id in every process.

    Anything else (a function outside ``puzzlelib``, or a numba without this private hook) is
    left as it is: kernels given it are compiled in each process."""
    func = dispatcher.py_func
    module = getattr(func, "__module__", "") or ""
    if not module.startswith("puzzlelib.") or "<locals>" in func.__qualname__:
        return dispatcher
    try:
        dispatcher._set_uuid(f"{PREFIX}{module}.{func.__qualname__}")
    except (AttributeError, AssertionError):
        pass
    return dispatcher


def domain_fn(func=None, *, inline=False):
    """:func:`jit` for a domain function (see :mod:`puzzlelib.core.contract`): compiled without
    numba's reference counting (domain functions never allocate, and a call then no longer
    increments and decrements every array of ``params`` on the way in and out), and with the
    same id in every process (:func:`stable_identity`). ``forceinline`` is given, as False: a
    function numba compiles on the way takes the flags of the one that called for it unless
    they are set, and the expansion steps (:mod:`puzzlelib.search.expand`) are force-inlined
    into their kernels, which the domain's functions must not follow everywhere.
    ``@domain_fn(inline=True)``: force-inlined into its callers, for a function whose call
    LLVM would not inline and that a search calls for every position."""
    if func is None:
        return lambda f: domain_fn(f, inline=inline)
    return stable_identity(jit(func, _nrt=False, forceinline=bool(inline)))


# --- Calling a kernel without typing its arguments again --------------------------------------
#
# numba's dispatcher works out the numba type of every argument on every call, to pick the
# compiled code: for bidirectional search on the 8-puzzle (two arrays, three bundles of domain
# functions and parameters, three integers) a noticeable share of a search of a fraction of a
# millisecond. Where a caller knows that its arguments keep their types, it can call the
# compiled code itself.

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
