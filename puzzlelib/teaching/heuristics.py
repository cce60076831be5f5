"""Try a heuristic of your own on a small sliding-tile board: :func:`check_heuristic`.

It finds the true distance of every position (one breadth-first search back from the goal),
then checks the two properties a heuristic for A* and IDA* should have:

*admissible*
    it never overestimates: ``h(p) <= distance(p)`` for every position ``p``, so IDA* and
    A* still find shortest solutions;
*consistent*
    one move changes it by at most 1: ``|h(a) - h(b)| <= 1`` for neighbours ``a`` and ``b``
    (and ``h(goal) = 0``), so A* never has to reopen a position.

It also counts the positions plain IDA* generates with your heuristic and with the Manhattan
distance on a few starts: the fewer, the better your heuristic guides the search.
"""

from collections import deque
from dataclasses import dataclass, field

from .problems import SlidingTiles, board_of, neighbours
from .search import idastar


class InadmissibleHeuristic(ValueError):
    """A heuristic overestimated a distance."""


@dataclass
class HeuristicReport:
    """What :func:`check_heuristic` found. ``overestimate``: ``(board, h, distance)`` for a
    position nearest the goal where ``h`` overestimates, or None; ``jump``: ``(a, b, h(a),
    h(b))`` for neighbours whose values differ by more than 1, or None; ``runs``: one
    ``(start, length, nodes with h, nodes with Manhattan)`` per start."""

    positions: int
    overestimate: object
    jump: object
    runs: list = field(default_factory=list)

    @property
    def admissible(self):
        return self.overestimate is None

    @property
    def consistent(self):
        return self.jump is None

    def raise_if_not_admissible(self):
        if self.overestimate is not None:
            board, h, d = self.overestimate
            raise InadmissibleHeuristic(
                f"h overestimates at {' '.join(map(str, board))}: h = {h}, but it is {d} "
                f"move{'' if d == 1 else 's'} from the goal")

    def _lines(self):
        out = [f"{self.positions:,} positions checked"]
        if self.admissible:
            out.append("admissible: yes (h never exceeds the true distance)")
        else:
            board, h, d = self.overestimate
            out.append(f"admissible: NO, e.g. {' '.join(map(str, board))}: h = {h} > distance {d}")
        if self.consistent:
            out.append("consistent: yes (one move changes h by at most 1)")
        else:
            a, b, ha, hb = self.jump
            out.append(f"consistent: NO, e.g. neighbours {' '.join(map(str, a))} (h = {ha}) and "
                       f"{' '.join(map(str, b))} (h = {hb})")
        return out

    def __str__(self):
        lines = self._lines()
        for start, length, nodes, base in self.runs:
            moves = f"{length} moves" if length >= 0 else "stopped at the node limit"
            lines.append(f"{' '.join(map(str, start))}: {moves}, IDA* generated "
                         f"{nodes:,} positions with h, {base:,} with Manhattan distance")
        return "\n".join(lines)

    def _repr_html_(self):
        items = "".join(f"<li>{line}</li>" for line in self._lines())
        rows = "".join(f"<tr><td>{' '.join(map(str, s))}</td><td>{n}</td><td>{a:,}</td>"
                       f"<td>{b:,}</td></tr>" for s, n, a, b in self.runs)
        table = ("<table><tr><th>start</th><th>moves</th><th>IDA* generated, h</th>"
                 f"<th>IDA* generated, Manhattan</th></tr>{rows}</table>") if rows else ""
        return f"<ul>{items}</ul>{table}"


def check_heuristic(h, rows=3, cols=3, goal=None, instances=None, node_limit=200_000):
    """Check heuristic ``h`` (a function of a board, a tuple of labels with 0 for the blank)
    against the true distance of every position of a ``rows x cols`` board (the 8-puzzle:
    181,440 positions) to ``goal`` (default ``1 .. n-1`` then the blank). ``instances``:
    starts to run IDA* on (default: one position at a few depths), each stopped after
    ``node_limit`` positions generated (a run stopped so has length -1). Returns a
    :class:`HeuristicReport`."""
    goal = tuple(range(1, rows * cols)) + (0,) if goal is None else board_of(goal)
    # breadth-first from the goal: moves can be undone, so this is the distance to the goal
    dist = {goal: 0}
    value = {goal: h(goal)}
    over = None if value[goal] <= 0 else (goal, value[goal], 0)
    jump = None
    queue = deque([goal])
    while queue:
        a = queue.popleft()
        for _, b in neighbours(a, rows, cols):
            if b not in dist:
                dist[b] = dist[a] + 1
                value[b] = h(b)
                if over is None and value[b] > dist[b]:
                    over = (b, value[b], dist[b])
                queue.append(b)
            if jump is None and abs(value[a] - value[b]) > 1:
                jump = (a, b, value[a], value[b])
    if instances is None:
        deepest = max(dist.values())
        wanted = sorted({min(d, deepest) for d in (deepest // 2, 2 * deepest // 3)})
        instances = [next(s for s, d in dist.items() if d == w) for w in wanted]
    runs = []
    for start in map(board_of, instances):
        # IDA* tests for the goal only at the bound: an h that overestimates may push the
        # bound far past the solution's length, and the search then wanders
        mine = idastar(SlidingTiles(rows, cols, start, goal, heuristic=h), node_limit=node_limit)
        base = idastar(SlidingTiles(rows, cols, start, goal))
        runs.append((start, mine.length, mine.generated, base.generated))
    return HeuristicReport(len(dist), over, jump, runs)
