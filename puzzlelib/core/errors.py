"""Errors raised by puzzlelib for bad input or impossible requests.

Every check that can fail on user input raises :class:`PuzzleError` (a ``ValueError``) with a
message naming the problem, before any kernel runs.
"""


class PuzzleError(ValueError):
    """Bad input or an impossible request (wrong length, duplicate tile, unsolvable start...)."""


class UnsolvableError(PuzzleError):
    """The goal cannot be reached from the start (for example, the wrong permutation parity)."""


class SearchLimitError(PuzzleError):
    """A search stopped at a limit the caller set (memory, nodes, depth) before it finished."""
