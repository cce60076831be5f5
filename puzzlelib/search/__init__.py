"""Search algorithms, written once over a domain's jitted functions (the contract:
:mod:`puzzlelib.core.contract`). Each module's public driver takes the functions, ``params`` and
its variant as arguments and returns a result object with its own counts:

- :mod:`.layered`: layered BFS over a uint8 distance table (needs a rank function);
- :mod:`.bidirectional`: bidirectional BFS over 64-bit keys, distance tables or whole states;
- :mod:`.idastar`: iterative deepening (IDDFS) and IDA*, on one thread or several, one start
  or many;
- :mod:`.astar`: A* and greedy best-first search;
- :mod:`.frontier`: BFS over whole states keeping three layers (or all, for a path);
- :mod:`.sortedfrontier`: the same layers as sorted arrays of 64-bit keys (pattern databases);
- :mod:`.workshare`: tasks shared among threads as they come free.
"""
