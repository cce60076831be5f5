"""Grading ``heuristic(state)``, a lower bound for the 8-puzzle (a tuple of 9 labels, 0 the
blank, goal ``1 .. 8`` then the blank), on all 181,440 positions that reach the goal.

*admissible*: ``h(p) <= distance(p)`` everywhere (so ``h(goal) <= 0``), the counterexample
shown the nearest one to the goal; *consistent*: ``h(a) <= 1 + h(b)`` for every two
neighbours. The score: a half for each. The feedback gives the heuristic's mean beside
Manhattan distance's and the true distance's: the larger an admissible mean, the fewer
positions A* and IDA* expand.
"""

import math
import numbers
from functools import lru_cache

from ..teaching.problems import manhattan_table
from .instances import EIGHT_GOAL, eight_puzzle_positions
from .grading import Stop


def _text(state):
    return " ".join(map(str, state))


@lru_cache(maxsize=1)
def _means():
    """The mean Manhattan distance and the mean true distance over all positions."""
    order, dist, _ = eight_puzzle_positions()
    table = manhattan_table(EIGHT_GOAL, 3, 3)
    manhattan = sum(sum(table[t][i] for i, t in enumerate(p)) for p in order)
    return manhattan / len(order), sum(dist.values()) / len(order)


def _values(h, order):
    values = {}
    for p in order:
        v = h(p)
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or math.isnan(v):
            raise Stop(f"heuristic({_text(p)}) returned {v!r}: a number expected")
        values[p] = v
    return values


def grade_heuristic(name, functions, trial):
    h = functions[0]
    order, dist, adjacent = eight_puzzle_positions()
    _means()  # (computed before the clock of the student's runs matters)
    out = trial.run(lambda: _values(h, order))
    line = trial.problem_line(out, "8-puzzle's positions")
    if line is not None:
        return 0.0, [line]
    values = out.value
    over = next((p for p in order if values[p] > dist[p]), None)
    jump = next(((a, b) for a in order for b in adjacent[a] if values[a] > values[b] + 1),
                None)
    lines = []
    if over is not None:
        d = dist[over]
        lines.append(f"not admissible: heuristic({_text(over)}) = {values[over]:g}, but it is "
                     f"{d} move{'' if d == 1 else 's'} from the goal")
    if jump is not None:
        a, b = jump
        lines.append(f"not consistent: heuristic({_text(a)}) = {values[a]:g} and "
                     f"heuristic({_text(b)}) = {values[b]:g}, but one move leads from one to "
                     f"the other (h may fall by at most 1 a move)")
    if over is None and jump is None:
        lines.append(f"admissible and consistent on all {len(order):,} positions")
    manhattan, true = _means()
    mean = sum(values.values()) / len(values)
    lines.append(f"mean {mean:.2f} over all {len(order):,} positions; Manhattan distance's "
                 f"{manhattan:.2f}, the true distance's {true:.2f}")
    return ((over is None) + (jump is None)) / 2, lines
