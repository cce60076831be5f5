"""``python -m benchmarks [8puzzle|001|rotation|korf|blocks] [options]`` (default: 8puzzle)."""

import sys

SUITES = ("8puzzle", "001", "rotation", "korf", "blocks")


def _main():
    args = sys.argv[1:]
    suite = args.pop(0) if args and args[0] in SUITES else "8puzzle"
    if suite == "001":
        from .bench_001 import main
    elif suite == "korf":
        from .bench_korf import main
    elif suite == "blocks":
        from .bench_blocks import main
    elif suite == "rotation":
        from .bench_rotation import main
    else:
        from .bench_8puzzle import main
    return main(args)


sys.exit(_main())
