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
