"""Search algorithms, written once over a domain's jitted functions (the contract:
:mod:`puzzlelib.core.contract`); none imports a puzzle. The drivers take the functions and
``params`` (or, on a Dask cluster, the puzzle's space) as arguments and return their own
counts; :func:`puzzlelib.solve` and :func:`puzzlelib.layers` choose among them:

- :mod:`.layered`: layered BFS over a one-byte distance table indexed by rank;
- :mod:`.packed`: the same over a packed table (the depth modulo 3 in two bits, one bit for the
  layer being made), saving every layer to disk and resuming;
- :mod:`.gpu`: layered BFS, byte or packed table, on an NVIDIA GPU (numba-cuda);
- :mod:`.distributed`: layered BFS on a Dask cluster, the ranks split among its workers;
- :mod:`.bidirectional`: bidirectional BFS over 64-bit keys, distance tables or whole states;
- :mod:`.idastar`: iterative deepening (IDDFS) and IDA*, on one thread or several, one start
  or many;
- :mod:`.astar`: A* and greedy best-first search;
- :mod:`.frontier`: BFS over whole states keeping three layers (or all, for a path);
- :mod:`.wordbfs`: BFS over positions that fit one 64-bit word, moves by bit shifts;
- :mod:`.sortedfrontier`: BFS layers as sorted arrays of 64-bit keys (pattern databases);
- :mod:`.workshare`: tasks shared among threads as they come free (no search of its own).
"""
