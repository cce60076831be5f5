import sys

from .bench_8puzzle import main

sys.exit(main())
