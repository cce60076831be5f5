"""Permutation puzzles' definitions read and checked: moves given as permutations (and
twists), labels as given, and the group that whole-puzzle symmetries generate.
"""

import numpy as np

from ...core.errors import PuzzleError


def _as_moves(moves, n, k):
    """``[(name, src, twist)]`` from a dict ``{name: src}`` or ``{name: (src, twist)}`` or a
    list of those pairs, checked."""
    try:
        items = list(moves.items()) if isinstance(moves, dict) else list(moves)
    except TypeError:
        raise PuzzleError(f"moves are a dict {{name: permutation}} or a list of (name, "
                          f"permutation) pairs, not {type(moves).__name__}") from None
    if not items:
        raise PuzzleError("a permutation puzzle needs at least one move")
    out = []
    for item in items:
        try:
            name, spec = item
        except (TypeError, ValueError):
            raise PuzzleError(f"a move is (name, permutation), not {item!r}") from None
        if isinstance(spec, tuple) and len(spec) == 2 and not np.isscalar(spec[0]):
            src, twist = spec
        else:
            src, twist = spec, None
        src = _int_list(src, f"move {name!r}")
        if sorted(src) != list(range(n)):
            raise PuzzleError(f"move {name!r} is not a permutation of the {n} cells 0..{n - 1}: "
                              f"{src}")
        if twist is None:
            twist = [0] * n
        twist = _int_list(twist, f"move {name!r}'s twists")
        if len(twist) != n:
            raise PuzzleError(f"move {name!r} has {len(twist)} twists for {n} cells")
        if k == 1 and any(twist):
            raise PuzzleError(f"move {name!r} twists pieces, but the puzzle has no orientations "
                              f"(give orientations=k)")
        bad = [t for t in twist if not 0 <= t < k]
        if bad:
            raise PuzzleError(f"move {name!r} has twist {bad[0]}, which does not fit "
                              f"orientations modulo {k} (0..{k - 1})")
        out.append((str(name), np.array(src, dtype=np.int64), np.array(twist, dtype=np.int64)))
    names = [nm for nm, _, _ in out]
    if len(set(names)) != len(names):
        raise PuzzleError("two moves have the same name")
    return out


def _int_list(seq, what):
    try:
        vals = list(seq)
    except TypeError:
        raise PuzzleError(f"{what}: expected a list of integers, not {seq!r}") from None
    out = []
    for v in vals:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise PuzzleError(f"{what}: {v!r} is not an integer")
        out.append(int(v))
    return out


def compose(a, b, k=1):
    """The move ``a`` then ``b``, each ``(src, twist)``."""
    (sa, ta), (sb, tb) = a, b
    return sa[sb], (ta[sb] + tb) % k


def _same(a, b):
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def symmetry_group(generators, k=1):
    """Every symmetry made of ``generators`` (each ``(src, twist)``), by composing them until
    nothing new appears; the identity first."""
    n = len(generators[0][0])
    group = [(np.arange(n), np.zeros(n, dtype=np.int64))]
    seen = {(tuple(group[0][0]), tuple(group[0][1]))}
    i = 0
    while i < len(group):
        for g in generators:
            c = compose(group[i], g, k)
            key = (tuple(c[0]), tuple(c[1]))
            if key not in seen:
                if len(seen) > 100_000:
                    raise PuzzleError("the symmetries make a group of more than 100,000 elements")
                seen.add(key)
                group.append(c)
        i += 1
    return group


def _label(x):
    """A label as given: an int when it reads as one, else its text."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x)
    s = str(x).strip()
    try:
        return int(s)
    except ValueError:
        return s


def _sort_key(x):
    return (0, x, "") if isinstance(x, int) else (1, 0, str(x))
