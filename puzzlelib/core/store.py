"""Files the package keeps between runs: where they go, and how they are written and read.

Every file (a pattern database, the saved state of a long build) is one JSON header line and
then the raw bytes of some arrays. It is written atomically, to a temporary file in the same
folder that is synced and renamed over the target, so a reader sees the old file or the whole
new one, and a failed write leaves nothing behind. The header holds a SHA-256 of the bytes,
checked on every read: a file that is missing, truncated, corrupt or written for something else
reads as ``None`` (with a warning when it was there), and its owner builds it again.

Two processes (two notebooks) that would build the same file take turns: :func:`locked` holds
a lock file beside it while one builds, and the other, once it has the lock, reads what the
first wrote instead of building it again. Where the system has no such locks, both build, and
the atomic rename still leaves one whole file.

The folder is ``$PUZZLELIB_CACHE``, else ``$XDG_CACHE_HOME/puzzlelib``, else
``~/.cache/puzzlelib``.
"""

import hashlib
import json
import os
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np


def cache_root():
    """The folder of everything the package keeps between runs."""
    root = os.environ.get("PUZZLELIB_CACHE")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "puzzlelib"


def _digest(arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(memoryview(np.ascontiguousarray(a)).cast("B"))
    return h.hexdigest()


def write(path, header, arrays, sync=True):
    """Write ``header`` (a dict; JSON) and ``arrays`` (numpy arrays) to ``path`` atomically. The
    arrays' dtypes and shapes and a SHA-256 of their bytes are added to the header.
    ``sync=False`` leaves the bytes to the system to put on disk when it will (the file is still
    renamed only once whole, and its checksum tells a reader if a crash cut it short)."""
    path = Path(path)
    arrays = [np.ascontiguousarray(a) for a in arrays]
    header = dict(header, arrays=[[a.dtype.str, list(a.shape)] for a in arrays],
                  sha256=_digest(arrays))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(header).encode() + b"\n")
            for a in arrays:
                f.write(memoryview(a).cast("B"))
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read(path, expect, what, quiet=False):
    """``(header, arrays)`` of a file written by :func:`write` whose header holds every item of
    ``expect`` (a dict), or None: when it is missing (silently), or unreadable, truncated,
    corrupt or written for something else (with a warning naming ``what`` and the file, which
    its owner then writes again; ``quiet``: no warning, as for a second look once
    :func:`locked`)."""
    if quiet:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return read(path, expect, what)
    path = Path(path)
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline())
            if not isinstance(header, dict) or any(header.get(k) != v for k, v in expect.items()):
                warnings.warn(f"{what} {path} is for something else; it will be written again")
                return None
            arrays = []
            for dtype, shape in header["arrays"]:
                n = int(np.prod(shape, dtype=np.int64))
                a = np.fromfile(f, dtype=np.dtype(dtype), count=n)
                if a.size != n:
                    raise ValueError("truncated")
                arrays.append(a.reshape(shape))
            if f.read(1):
                raise ValueError("longer than its header says")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        warnings.warn(f"{what} {path} is unreadable ({exc}); it will be written again")
        return None
    if _digest(arrays) != header.get("sha256"):
        warnings.warn(f"{what} {path} failed its checksum; it will be written again")
        return None
    return header, arrays


def remove(path):
    """Delete ``path`` if it is there."""
    try:
        Path(path).unlink()
    except (FileNotFoundError, NotADirectoryError):
        pass


@contextmanager
def locked(path, what=None):
    """Hold the lock of ``path`` (the file ``path.lock`` beside it, locked with ``flock``) while
    the block runs, waiting for another process that holds it (with a warning naming ``what``,
    unless None).
    Yields whether a lock is held: False where the system or the file system gives none (the
    block runs anyway; :func:`write` still leaves one whole file). The lock file stays (removing
    it could let a third process lock a file the second no longer sees)."""
    try:
        import fcntl
    except ImportError:  # (not a POSIX system)
        yield False
        return
    lock = Path(str(path) + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield False
        return
    try:
        held = True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if what is not None:
                warnings.warn(f"another process is making {what} {path}: waiting for it")
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            held = False
        yield held
    finally:
        os.close(fd)  # (which releases the lock)
