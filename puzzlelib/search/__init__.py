"""Search algorithms, written once over a domain's jitted functions (see puzzlelib.domain).

- :mod:`.layered`: layered BFS over a uint8 distance table (needs a rank function);
- :mod:`.bidirectional`: bidirectional BFS on whole states;
- :mod:`.idastar`: iterative deepening (IDDFS) and IDA*;
- :mod:`.astar`: A* and greedy best-first search;
- :mod:`.statetable`: the whole-state hash set the last two share.
"""
