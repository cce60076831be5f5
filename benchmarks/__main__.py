"""``python -m benchmarks [8puzzle|001|rotation|korf|korf24|blocks|permutation|scale|startup|
compile|gpu] [options]`` (default: 8puzzle).

The compile times the suites print are real compilation: unless ``NUMBA_CACHE_DIR`` is already
set, numba's cache goes to a throw-away folder for the run, so no kernel is loaded from an
earlier run's cache. ``startup`` compares the two (a fresh process with an empty cache, and with
a filled one).
"""

import os
import sys
import tempfile

SUITES = ("8puzzle", "001", "rotation", "korf", "korf24", "blocks", "permutation", "scale",
          "startup", "compile", "gpu")


def _main():
    args = sys.argv[1:]
    suite = args.pop(0) if args and args[0] in SUITES else "8puzzle"
    if suite not in ("startup", "compile") and not os.environ.get("NUMBA_CACHE_DIR"):
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="puzzlelib-bench-numba-")
    import puzzlelib

    puzzlelib.tune()  # as the command line does: freed memory kept, threads started
    if suite == "startup":
        from .bench_startup import main
    elif suite == "compile":
        from .bench_compile import main
    elif suite == "001":
        from .bench_001 import main
    elif suite == "korf":
        from .bench_korf import main
    elif suite == "korf24":
        from .bench_korf24 import main
    elif suite == "blocks":
        from .bench_blocks import main
    elif suite == "rotation":
        from .bench_rotation import main
    elif suite == "permutation":
        from .bench_permutation import main
    elif suite == "gpu":
        from .bench_gpu import main
    elif suite == "scale":
        from .bench_scale import main
    else:
        from .bench_8puzzle import main
    return main(args)


sys.exit(_main())
