"""Grading the five searches a student writes: ``bfs``, ``bidirectional``, ``iddfs``,
``astar`` and ``idastar``, each a function of a
:class:`~puzzlelib.teaching.problem.Problem` returning the actions of a shortest solution, or
None when the goal cannot be reached.

Each runs on the instances of :mod:`~puzzlelib.exercises.instances`, given a
:class:`~puzzlelib.exercises.watched.Watched` problem. An answer is right when its moves are
legal, reach the goal, and are as few as the kernels' length (None where there is no
solution), and when the search keeps its exercise's rule:

``bfs``
    no position expanded twice (its actions or successors asked for twice);
``bidirectional``
    no position expanded more than twice (once from each side), and on starts 14 or more
    moves away where a breadth-first search must store 1,000 positions or more (every
    position fewer moves from the start than the solution's length), at most a third of
    them held at once;
``iddfs``
    at most ``5 * length + 20`` positions held at once (memory linear in the depth);
``astar``
    no position expanded with ``f = g + h`` over the solution's length ``C*``, ``g`` its
    distance from the start and ``h`` Manhattan distance (consistent): A* may expand
    positions with ``f`` equal to ``C*``, never above;
``idastar``
    shortest solutions alone.

The score is the share of instances answered right.
"""

from dataclasses import dataclass
from functools import lru_cache

from .grading import Stop
from .instances import instances
from .watched import Watched

#: Starts 14 or more moves away are deep enough for bidirectional search to store far fewer
#: positions than breadth-first search.
DEEP = 14
#: ... where breadth-first search must store at least this many positions.
DEEP_STORE = 1000
#: Bidirectional search holds at most this share of what breadth-first search must store.
BIDIR_SHARE = 3


def _text(state):
    return " ".join(map(str, state))


def _show(moves, most=12):
    if all(isinstance(m, str) and len(m) == 1 for m in moves):
        text = "".join(moves[:most])
        return repr(text + ("..." if len(moves) > most else ""))
    shown = ", ".join(repr(m) for m in moves[:most])
    return "[" + shown + (", ..." if len(moves) > most else "") + "]"


def _as_moves(value):
    """The student's answer as a list of actions (lists inside turned into tuples)."""
    if isinstance(value, (str, list, tuple)) or hasattr(value, "__iter__"):
        return [tuple(a) if isinstance(a, list) else a for a in value]
    raise TypeError


def check_answer(value, inst):
    """None when ``value`` is a right answer for ``inst``, else what is wrong with it."""
    if inst.length is None:
        if value is None:
            return None
        return (f"returned {value!r:.80}, but the goal cannot be reached from this start: "
                f"return None")
    if value is None:
        return f"returned None, but the goal is {inst.length} moves away"
    try:
        moves = _as_moves(value)
    except TypeError:
        return f"returned {value!r:.80}, not a list of actions"
    problem = inst.problem()
    state = problem.initial
    for i, action in enumerate(moves):
        legal = list(problem.actions(state))
        if action not in legal:
            return (f"returned {len(moves)} moves {_show(moves)}: move {i + 1}, {action!r}, "
                    f"cannot be made from {_text(state)} (the moves there: "
                    f"{', '.join(map(repr, legal))})")
        state = problem.result(state, action)
    if not problem.is_goal(state):
        return (f"returned {len(moves)} moves {_show(moves)}: legal, but they end at "
                f"{_text(state)}, not at the goal")
    if len(moves) != inst.length:
        return (f"returned {len(moves)} moves {_show(moves)}, legal and reaching the goal, "
                f"but the shortest solution has {inst.length}")
    return None


# --- the rules, watched while the search runs ------------------------------------------------


def _at_most(times_allowed, why):
    def rule(inst):
        def on_expand(state, times):
            if times > times_allowed:
                raise Stop(f"expanded position {_text(state)} {why}")
        return on_expand
    return rule


def _f_within_length(inst):
    """A*: stop at the first position expanded with ``f = g + h > C*``."""
    if not inst.sliding or inst.length is None:
        return None
    table, h, bound = inst.depths(), inst.problem().h, inst.length

    def on_expand(state, times):
        g = table.depth(list(state))
        f = g + h(state)
        if f > bound:
            raise Stop(f"expanded position {_text(state)} with f = g + h = {g} + {h(state)} = "
                       f"{f}, more than {bound}, the shortest solution's length (g: its "
                       f"distance from the start; h: Manhattan distance, consistent): A* "
                       f"expands no position with f > {bound}")
    return on_expand


# --- the rules checked after the search returned ---------------------------------------------


def _stores_far_fewer(watched, inst):
    if not inst.sliding or inst.length is None or inst.length < DEEP:
        return None
    must = sum(inst.depths().counts[:inst.length])
    if must >= DEEP_STORE and watched.peak * BIDIR_SHARE > must:
        return (f"held up to {watched.peak:,} positions at once, but breadth-first search "
                f"stores at least {must:,} here (every position fewer than {inst.length} "
                f"moves from the start): bidirectional search should hold at most a "
                f"{'third' if BIDIR_SHARE == 3 else f'1/{BIDIR_SHARE}'} of that")
    return None


def linear_limit(length):
    return 5 * length + 20


def _linear_memory(watched, inst):
    if inst.length is None:
        return None
    limit = linear_limit(inst.length)
    if watched.peak > limit:
        return (f"held up to {watched.peak:,} positions at once: iterative deepening keeps "
                f"only the path it is on, memory linear in the depth (at most 5 positions a "
                f"move of the solution plus 20: {limit} here)")
    return None


@dataclass(frozen=True)
class Search:
    """One search exercise: its instances (``(puzzle, depths...)`` for
    :func:`~puzzlelib.exercises.instances.instances`), the rule watched while it runs, the
    rule checked after, and what is checked, in words."""

    name: str
    starts: tuple
    during: object = None
    after: object = None
    checked: str = ""

    @lru_cache(maxsize=None)  # noqa: B019 - a handful of specs, kept for the process
    def instances(self):
        return tuple(inst for puzzle, *depths in self.starts
                     for inst in instances(puzzle, *depths))


SHORTEST = "legal moves that reach the goal, as few as there can be, None where there is no way"
SEARCHES = {s.name: s for s in [
    Search("bfs",
           (("2x3 board", 9, 21, None), ("Rotation Puzzle 3x3", 4, 8, 11, None),
            ("8-puzzle", 0, 1, 2, 5, 10, 14, 18, 20), ("8-puzzle, blank first", 13)),
           during=_at_most(1, "a second time: breadth-first search expands each position "
                              "once (keep every position seen, skip those seen)"),
           checked=f"{SHORTEST}; no position expanded twice (its actions or successors asked "
                   f"for twice)"),
    Search("bidirectional",
           (("2x3 board", 13, 21, None), ("Rotation Puzzle 3x3", 2, 6, 11, None),
            ("8-puzzle", 0, 1, 3, 6, 12, 16, 20, 24, 28, 31), ("8-puzzle, blank first", 19, 25)),
           during=_at_most(2, "a third time: bidirectional search expands each position at "
                              "most once from each side"),
           after=_stores_far_fewer,
           checked=f"{SHORTEST}; no position expanded more than once a side; on starts "
                   f"{DEEP}+ moves away at most a third of the positions breadth-first search "
                   f"stores held at once"),
    Search("iddfs",
           (("2x3 board", 5, 9, 13), ("Rotation Puzzle 3x3", 2, 4, 6),
            ("8-puzzle", 0, 1, 3, 5, 8, 10, 12), ("8-puzzle, blank first", 7)),
           after=_linear_memory,
           checked=f"{SHORTEST}; at most 5 positions a move of the solution plus 20 held at "
                   f"once (memory linear in the depth)"),
    Search("astar",
           (("2x3 board", 13, 21), ("Rotation Puzzle 3x3", 6, 8),
            ("8-puzzle", 0, 1, 5, 10, 14, 18, 22, 26, 31), ("8-puzzle, blank first", 13, 25)),
           during=_f_within_length,
           checked=f"{SHORTEST}; no position expanded with f = g + h above the shortest "
                   f"length (h: problem.h, Manhattan distance on sliding tiles)"),
    Search("idastar",
           (("2x3 board", 21), ("Rotation Puzzle 3x3", 4, 6),
            ("8-puzzle", 0, 1, 6, 12, 16, 20, 24, 26, 28), ("8-puzzle, blank first", 19, 25)),
           checked=f"{SHORTEST} (h: problem.h, Manhattan distance on sliding tiles)"),
]}


def _one(search, fn, inst, trial):
    """None when ``fn`` answers ``inst`` right, else the feedback line."""
    on_expand = search.during(inst) if search.during else None
    watched = Watched(inst.problem(), on_expand=on_expand)
    out = trial.run(lambda: fn(watched))
    line = trial.problem_line(out, inst.label)
    if line is not None:
        return line
    wrong = check_answer(out.value, inst)
    if wrong is None and search.after is not None:
        wrong = search.after(watched, inst)
    return None if wrong is None else f"{inst.label}: {wrong}"


def grade_search(name, functions, trial):
    """``(score, feedback)`` for the search ``name``, written as ``functions[0]``."""
    search = SEARCHES[name]
    fn = functions[0]
    cases = search.instances()
    right, first = 0, None
    for inst in cases:
        line = _one(search, fn, inst, trial)
        if line is None:
            right += 1
        elif first is None:
            first = line
        if trial.timed_out:
            break
    n = len(cases)
    if first is None:
        lines = [f"all {n} instances right"]
    else:
        lines = [first, f"{right} of {n} instances right"]
        if trial.timed_out and line != first:
            lines.append(f"stopped at the time limit ({trial.limit_text()} for the whole "
                         f"exercise) on the {inst.label}")
    lines.append(f"checked: {search.checked}")
    return right / n, lines
