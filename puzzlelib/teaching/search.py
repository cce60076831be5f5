"""Plain-Python searches over a :class:`~puzzlelib.teaching.problem.Problem`.

Each search returns a :class:`Solution` (``layers``: a :class:`Layers`), and counts what the
kernels' :class:`puzzlelib.Stats` counts, with the same definitions:

``generated``
    positions made from a parent by a move, counted each time one is made (a method that
    never tries the move straight back to the parent does not count that one; none of these
    does);
``expanded``
    positions whose moves were tried.

Each takes ``watch``: a function called once per expansion with a :class:`Step`, to follow
the search; when it returns True the search stops and returns what it has (``moves=None``).
"""

import heapq
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    """One expansion, as ``watch`` sees it.

    ``n``: the expansion's index, from 0; ``state``: the state expanded; ``g``: its moves from
    the start (from the goal, on the backward side of bidirectional search); ``h``: its
    heuristic value (None for the breadth-first searches, which use none; 0 for iterative
    deepening); ``bound``: the pass's bound (iterative deepening, IDA*) else None;
    ``frontier``: the states waiting to be expanded, in the order the search takes them
    (breadth-first: the queue; bidirectional: the rest of the side's layer, then its next
    layer so far; A*: the open list by f, then by the order they entered it; depth-first: the
    states on the path from the start to ``state``, both included); ``seen``: the states
    stored so far (depth-first: on the path); ``side``: bidirectional search's side,
    ``"forward"`` from the start or ``"backward"`` from the goal (None for the other
    searches)."""

    n: int
    state: tuple
    g: int
    h: int
    bound: object
    frontier: tuple
    seen: int
    side: object = None


@dataclass
class Solution:
    """What a search found: ``moves`` in the puzzle's notation (None when there is no
    solution, or the search was stopped), their number ``length`` (-1 without moves), the
    positions ``generated`` and ``expanded`` (see the module), the most positions ``stored``
    at once, and ``extra``: what only some searches have (``passes``, ``forward_counts``...)."""

    moves: object
    length: int
    generated: int
    expanded: int
    stored: int = 0
    extra: dict = field(default_factory=dict)


@dataclass
class Layers:
    """What :func:`layers` found: ``counts[d]``, the positions at depth ``d``; the positions
    at the greatest depth (``farthest``, sorted); ``generated`` and ``expanded``."""

    counts: list
    farthest: list
    generated: int
    expanded: int

    @property
    def total(self):
        return sum(self.counts)

    @property
    def max_depth(self):
        return len(self.counts) - 1


def _path(parent, state):
    """Follow the parent links back from ``state``: the actions from the start, in order."""
    actions = []
    while parent[state] is not None:
        state, action = parent[state]
        actions.append(action)
    return actions[::-1]


def _children(problem, state, last):
    """``problem.successors(state)`` without the move that undoes ``last``."""
    back = None if last is None else problem.inverse(last)
    for action, child in problem.successors(state):
        if back is None or action != back:
            yield action, child


def _solution(problem, actions, generated, expanded, stored, **extra):
    if actions is None:
        return Solution(None, -1, generated, expanded, stored, extra)
    return Solution(problem.notation(actions), len(actions), generated, expanded, stored, extra)


def breadth_first(problem, watch=None, max_depth=None):
    """Breadth-first search until a goal is generated: a shortest solution.

    A queue holds the positions still to expand, nearest first; every position seen is stored
    with the position and move it came from, so the path is read back from the goal. A
    position seen before is never queued again: an earlier visit reached it in as few moves.
    Positions ``max_depth`` moves from the start are not expanded (None: no limit)."""
    start = problem.initial
    parent = {start: None}  # every position seen -> (its parent, the move from there)
    if problem.is_goal(start):
        return _solution(problem, [], 0, 0, 1)
    queue = deque([start])
    depth = {start: 0}
    generated = expanded = 0
    while queue:
        state = queue.popleft()
        if max_depth is not None and depth[state] >= max_depth:
            break  # the queue holds no nearer position: none is left to expand
        expanded += 1
        found = None
        last = parent[state][1] if parent[state] else None
        for action, child in _children(problem, state, last):
            generated += 1
            if child in parent:
                continue
            parent[child] = (state, action)
            depth[child] = depth[state] + 1
            if problem.is_goal(child):
                found = child
                break
            queue.append(child)
        if watch and watch(Step(expanded - 1, state, depth[state], None, None, tuple(queue),
                                len(parent))):
            return _solution(problem, None, generated, expanded, len(parent))
        if found is not None:
            return _solution(problem, _path(parent, found), generated, expanded, len(parent))
    return _solution(problem, None, generated, expanded, len(parent))


def layers(problem, watch=None):
    """Breadth-first search from the start over every position it reaches (God's algorithm):
    how many positions lie at each depth, and which are the farthest."""
    start = problem.initial
    depth = {start: 0}
    last = {start: None}  # the move that first reached each position
    queue = deque([start])
    generated = expanded = 0
    while queue:
        state = queue.popleft()
        expanded += 1
        for action, child in _children(problem, state, last[state]):
            generated += 1
            if child not in depth:
                depth[child] = depth[state] + 1
                last[child] = action
                queue.append(child)
        if watch and watch(Step(expanded - 1, state, depth[state], None, None, tuple(queue),
                                len(depth))):
            break
    counts = [0] * (max(depth.values()) + 1)
    for d in depth.values():
        counts[d] += 1
    far = sorted(s for s, d in depth.items() if d == len(counts) - 1)
    return Layers(counts, far, generated, expanded)


def bidirectional(problem, watch=None, max_depth=None):
    """Breadth-first search from the start and from the goal at once: a shortest solution,
    with far fewer positions stored than a search from one end.

    Each side stores the positions it has seen, each with the position and move it came from,
    and keeps its newest layer, its *frontier*. Each round deepens the side whose frontier is
    smaller (the start's side on a tie) by one whole layer. A new position is stored on its
    side and then looked for on the other side: found there, the two sides meet, and the
    moves from the start to it plus the moves from it to the goal are a shortest solution.
    The goal's side walks backwards: a move ``a`` from ``s`` there is the move ``inverse(a)``
    into ``s`` on the way to the goal.

    Stops without a solution (``moves`` None) when a side has no frontier left (there is no
    path at all), or when the two sides' depths add up to ``max_depth`` (None: no limit).
    ``stored``: the positions held by the two sides together. ``extra``: the positions per
    depth of each side (``forward_counts``, ``backward_counts``). The kernel,
    ``solve(puzzle, start, method="bidir")``, searches the same way and stores the same
    positions."""
    start, goal = problem.initial, problem.goal
    if goal is None:
        raise ValueError("bidirectional search needs a problem with one goal state")
    parent = {"forward": {start: None}, "backward": {goal: None}}  # per side: seen -> link
    frontier = {"forward": [start], "backward": [goal]}
    counts = {"forward": [1], "backward": [1]}  # per side: positions at each depth
    generated = expanded = 0
    meeting = start if start == goal else None
    stopped = False
    while meeting is None and not stopped and frontier["forward"] and frontier["backward"]:
        if max_depth is not None and len(counts["forward"]) + len(counts["backward"]) - 2 >= max_depth:
            break
        side = "forward" if len(frontier["forward"]) <= len(frontier["backward"]) else "backward"
        mine, theirs = parent[side], parent["backward" if side == "forward" else "forward"]
        layer, new = frontier[side], []
        for i, state in enumerate(layer):
            expanded += 1
            for action, child in _children(problem, state, mine[state] and mine[state][1]):
                generated += 1
                if child in mine:
                    continue
                mine[child] = (state, action)
                new.append(child)
                if child in theirs:
                    meeting = child  # the two sides meet here
                    break
            if watch and watch(Step(expanded - 1, state, len(counts[side]) - 1, None, None,
                                    tuple(layer[i + 1:]) + tuple(new),
                                    len(mine) + len(theirs), side)):
                stopped, meeting = True, None
            if meeting is not None or stopped:
                break
        frontier[side] = new
        counts[side].append(len(new))
    stored = len(parent["forward"]) + len(parent["backward"])
    extra = {"forward_counts": counts["forward"], "backward_counts": counts["backward"]}
    if meeting is None:
        return _solution(problem, None, generated, expanded, stored, **extra)
    to_goal = [problem.inverse(a) for a in reversed(_path(parent["backward"], meeting))]
    return _solution(problem, _path(parent["forward"], meeting) + to_goal, generated, expanded,
                     stored, **extra)


class _Stop(Exception):
    """Raised inside a depth-first pass when ``watch`` asks the search to stop."""


def deepening(problem, h, all_solutions=False, watch=None, max_bound=100, node_limit=None):
    """Depth-first passes below a growing bound: iterative deepening (``h`` always 0) and
    IDA* (``h`` a lower bound on the moves left) in one.

    A pass tries every path from the start whose ``f = g + h`` (moves made + lower bound)
    stays within the bound, keeping only the current path; a position at the bound is only
    tested for the goal. The move that undoes the last one is never tried. The next bound is
    the smallest ``f`` that went over, rounded up to a whole number of ``bound_step`` s (with
    ``h = 0``: the bound plus one step). Stops after the first pass with a solution (with
    ``all_solutions``, after finishing it, counting every solution), or when ``node_limit``
    positions have been generated (then ``extra['stopped']`` is True). ``extra``: ``passes``,
    a ``(bound, nodes generated)`` per pass, and ``solutions``."""
    start, step = problem.initial, problem.bound_step
    bound = problem.residue(start)
    while bound < h(start):  # start at the lower bound, in whole steps
        bound += step
    generated = expanded = 0
    passes, found, path, states = [], [], [], [start]

    def visit(state, g, h_state, last):
        nonlocal generated, expanded, over
        if g == bound:  # at the bound: only test for the goal
            if h_state == 0 and problem.is_goal(state):
                found.append(list(path))
            else:
                over = min(over, bound + 1)  # its children would go over
            return
        expanded += 1
        if watch and watch(Step(expanded - 1, state, g, h_state, bound, tuple(states),
                                len(states))):
            raise _Stop
        for action, child in _children(problem, state, last):
            generated += 1
            if node_limit and generated >= node_limit:
                raise _Stop
            h_child = h(child)
            if g + 1 + h_child > bound:  # cut: cannot reach the goal within the bound
                over = min(over, g + 1 + h_child)
                continue
            path.append(action)
            states.append(child)
            visit(child, g + 1, h_child, action)
            path.pop()
            states.pop()
            if found and not all_solutions:
                return

    while bound <= max_bound:
        over = float("inf")  # the smallest f over the bound in this pass
        before = generated
        try:
            visit(start, 0, h(start), None)
        except _Stop:
            passes.append((bound, generated - before))
            return _solution(problem, None, generated, expanded, len(states), passes=passes,
                             stopped=True)
        passes.append((bound, generated - before))
        if found or over == float("inf"):  # a solution, or nothing left beyond the bound
            break
        bound += max(1, -(-(over - bound) // step)) * step
    return _solution(problem, found[0] if found else None, generated, expanded,
                     max(b for b, _ in passes) + 1, passes=passes, solutions=len(found))


def iterative_deepening(problem, all_solutions=False, watch=None, max_bound=100,
                        node_limit=None):
    """Depth-first search with a depth limit, raised by ``problem.bound_step`` after each
    pass until a pass finds the goal: :func:`deepening` with no lower bound."""
    return deepening(problem, lambda state: 0, all_solutions, watch, max_bound, node_limit)


def idastar(problem, all_solutions=False, watch=None, max_bound=100, node_limit=None):
    """IDA*: :func:`deepening` with the problem's lower bound ``problem.h``, which must never
    overestimate the moves left (or shortest solutions may be cut away)."""
    return deepening(problem, problem.h, all_solutions, watch, max_bound, node_limit)


def astar(problem, watch=None, greedy=False):
    """A*: expand the open position with the least ``f = g + h`` (ties: the one that entered
    the open list first), until a goal is expanded. With an ``h`` that never overestimates the
    solution is a shortest one. ``greedy``: order by ``h`` alone (greedy best-first search):
    usually far fewer positions, and a solution that may be longer.

    ``g`` holds the fewest moves known to each position seen; the open list is a heap of
    ``(f, order, state, g)`` where an entry whose state has since been reached in fewer moves, or
    closed, is skipped when it comes out. ``extra['open_closed']``: the sizes of the open and
    closed sets at each expansion."""
    start = problem.initial
    g = {start: 0}
    parent = {start: None}
    closed = set()
    order = 0
    heap = [(problem.h(start), order, start, 0)]
    generated = expanded = 0
    sizes = []
    while heap:
        f, _, state, g_state = heapq.heappop(heap)
        if state in closed or g_state != g[state]:
            continue  # an outdated entry
        if problem.is_goal(state):
            return _solution(problem, _path(parent, state), generated, expanded, len(g),
                             open_closed=sizes)
        closed.add(state)
        expanded += 1
        last = parent[state][1] if parent[state] else None
        for action, child in _children(problem, state, last):
            generated += 1
            if g_state + 1 < g.get(child, float("inf")):
                g[child] = g_state + 1
                parent[child] = (state, action)
                closed.discard(child)  # reopened (only with an inconsistent h)
                order += 1
                f_child = problem.h(child) + (0 if greedy else g_state + 1)
                heapq.heappush(heap, (f_child, order, child, g_state + 1))
        sizes.append((len(g) - len(closed), len(closed)))
        if watch:
            waiting = sorted(e for e in heap if e[2] not in closed and e[3] == g[e[2]])
            if watch(Step(expanded - 1, state, g_state, f if greedy else f - g_state, None,
                          tuple(e[2] for e in waiting), len(g))):
                break
    return _solution(problem, None, generated, expanded, len(g), open_closed=sizes)
