"""The one record of what a search did: :class:`Stats` (see :mod:`puzzlelib.results`)."""

from dataclasses import dataclass, fields


@dataclass
class Stats:
    """What a search did.

    ``generated``
        positions made from a parent by a move, counted each time one is made (a method that
        never tries the move straight back to the parent does not count that one);
    ``expanded``
        positions whose moves were tried;
    ``stored``
        the most positions the search held at once: in its distance table, its hash sets, its
        layer lists, its open and closed sets, or on its path (depth-first search);
    ``memory_bytes``
        the most memory the search's own structures held at once (pattern databases not
        included: they are reported apart);
    ``seconds``
        the search's wall time, compilation excluded;
    ``compile_seconds``
        the time the call spent compiling kernels or loading them from numba's cache (0 once
        they are loaded in this process).
    """

    generated: int = 0
    expanded: int = 0
    stored: int = 0
    memory_bytes: int = 0
    seconds: float = 0.0
    compile_seconds: float = 0.0

    def to_dict(self):
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __add__(self, other):
        return Stats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @classmethod
    def from_dict(cls, d):
        return cls(**{f.name: d[f.name] for f in fields(cls) if f.name in d})


def peak_states(counts, keep_all=False):
    """The most positions a layered search held at once: every layer when all are kept, else
    the layer before, the one expanded and the one made."""
    c = [int(x) for x in counts]
    if keep_all or not c:
        return sum(c)
    return max(sum(c[max(0, d - 1): d + 2]) for d in range(len(c)))
