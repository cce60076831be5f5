"""Grading ``rank(perm)`` and ``unrank(r, n)``: a minimal perfect hash of the permutations of
``0 .. n-1`` (tuples) onto ``0 .. n!-1`` and its inverse, for ``n`` from 1 to 8.

For each ``n``: every rank an integer in ``0 .. n!-1`` and no two permutations with the same
rank (a bijection: half of the size's score), and ``unrank(rank(p), n) == p`` for every ``p``
(the round trips: the other half).
"""

import math
import numbers
from itertools import permutations

SIZES = range(1, 9)


def _text(perm):
    return "(" + " ".join(map(str, perm)) + ")"


def _ranks(rank, n):
    """``(owner, problem)``: each rank's permutation, and what is wrong (None: a bijection)."""
    top = math.factorial(n)
    owner = {}
    for p in permutations(range(n)):
        r = rank(p)
        if isinstance(r, bool) or not isinstance(r, numbers.Integral):
            return owner, f"rank{_text(p)} returned {r!r}: an integer expected"
        if not 0 <= r < top:
            return owner, f"rank{_text(p)} = {r}, outside 0..{top - 1} (n = {n}, n! = {top})"
        if r in owner:
            return owner, (f"rank{_text(owner[r])} and rank{_text(p)} are both {r}: two "
                           f"permutations share a rank (n = {n})")
        owner[int(r)] = p
    return owner, None


def _round_trips(unrank, owner, n):
    for r, p in sorted(owner.items()):
        got = unrank(r, n)
        try:
            back = tuple(got)
        except TypeError:
            return f"unrank({r}, {n}) returned {got!r:.60}: a tuple expected"
        if back != p:
            return (f"unrank(rank{_text(p)}, {n}) = unrank({r}, {n}) = {_text(back)}, "
                    f"not {_text(p)}")
    return None


def _all_sizes(rank, unrank):
    out = []
    for n in SIZES:
        owner, wrong = _ranks(rank, n)
        if wrong is not None:
            out.append((wrong, "not checked"))
        else:
            out.append((None, None if unrank is None else _round_trips(unrank, owner, n)))
    return out


def grade_rank(name, functions, trial):
    rank = functions[0]
    unrank = functions[1] if len(functions) > 1 else None
    out = trial.run(lambda: _all_sizes(rank, unrank))
    line = trial.problem_line(out, "permutations of 0..n-1, n up to 8")
    if line is not None:
        return 0.0, [line]
    sizes = out.value
    score = sum((a is None) / 2 + (unrank is not None and b is None) / 2
                for a, b in sizes) / len(sizes)
    # a rank that is no bijection first (at any size), then a round trip that fails
    first = next((a for a, _ in sizes if a is not None),
                 next((b for _, b in sizes if b not in (None, "not checked")), None))
    lines = [first] if first else []
    if unrank is None:
        lines.append("unrank(r, n) not found: write it too, so that the round trips "
                     "unrank(rank(p), n) == p can be checked")
    total = sum(math.factorial(n) for n in SIZES)
    if score == 1:
        lines.append(f"a bijection onto 0..n!-1 with unrank its inverse, for n = 1 to "
                     f"{SIZES[-1]} ({total:,} permutations)")
    else:
        right = sum(a is None and b is None and unrank is not None for a, b in sizes)
        lines.append(f"{right} of {len(sizes)} sizes right (n = 1 to {SIZES[-1]})")
    return score, lines
