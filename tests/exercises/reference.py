"""Reference answers to the exercises of puzzlelib.exercises: the solutions a teacher shows.

Plain Python against the Problem protocol: ``problem.initial``, ``problem.goal``,
``problem.actions(state)``, ``problem.result(state, action)``, ``problem.is_goal(state)``,
``problem.h(state)`` and ``problem.inverse(action)``. Each search returns the actions of a
shortest solution, or None when the goal cannot be reached.

    python -m puzzlelib check tests/exercises/reference.py
"""

import heapq
import itertools
import math
from collections import deque


def walk_back(parent, state):
    """The actions that led to ``state``, read back through ``parent[state] = (before,
    action)`` to the state whose parent is None."""
    actions = []
    while parent[state] is not None:
        state, action = parent[state]
        actions.append(action)
    actions.reverse()
    return actions


def bfs(problem):
    """Breadth-first search: positions in the order they were first seen, nearest first."""
    start = problem.initial
    if problem.is_goal(start):
        return []
    parent = {start: None}  # every position seen -> (the position before it, the move)
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child in parent:
                continue  # seen already, in as few moves or fewer
            parent[child] = (state, action)
            if problem.is_goal(child):
                return walk_back(parent, child)
            queue.append(child)
    return None


def bidirectional(problem):
    """Breadth-first from the start and from the goal, a whole layer at a time on the side
    with the smaller frontier, until a new position of one side is known to the other."""
    start, goal = problem.initial, problem.goal
    if start == goal:
        return []
    seen = {"start": {start: None}, "goal": {goal: None}}
    frontier = {"start": [start], "goal": [goal]}
    while frontier["start"] and frontier["goal"]:
        side = "start" if len(frontier["start"]) <= len(frontier["goal"]) else "goal"
        other = "goal" if side == "start" else "start"
        mine, theirs = seen[side], seen[other]
        layer = []
        for state in frontier[side]:
            for action in problem.actions(state):
                child = problem.result(state, action)
                if child in mine:
                    continue
                mine[child] = (state, action)
                if child in theirs:  # the two searches meet at child
                    to_child = walk_back(seen["start"], child)
                    from_goal = walk_back(seen["goal"], child)
                    # the goal's side walked from the goal: undo its moves in reverse order
                    return to_child + [problem.inverse(a) for a in reversed(from_goal)]
                layer.append(child)
        frontier[side] = layer
    return None


def iddfs(problem):
    """Depth-first searches limited to 0, 1, 2, ... moves, keeping only the current path."""
    path_states = [problem.initial]
    actions = []

    def search(state, limit):
        """True when the goal is within ``limit`` moves of ``state`` (``actions`` then holds
        the way); None when some path was cut off at the limit; False when none was."""
        if problem.is_goal(state):
            return True
        if limit == 0:
            return None
        cut = False
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child in path_states:
                continue  # never walk in a circle
            path_states.append(child)
            actions.append(action)
            found = search(child, limit - 1)
            if found:
                return True
            cut = cut or found is None
            path_states.pop()
            actions.pop()
        return None if cut else False

    for limit in itertools.count():
        found = search(problem.initial, limit)
        if found:
            return actions
        if found is False:
            return None  # nothing was cut off: every path was tried


def best_first(problem, priority):
    """Always expand the open position with the least ``priority(g, h)``: ``g`` its fewest
    moves from the start known, ``h`` the problem's bound on the moves left."""
    start = problem.initial
    g = {start: 0}
    parent = {start: None}
    closed = set()
    counter = itertools.count()  # ties: the position that entered first
    heap = [(priority(0, problem.h(start)), next(counter), start)]
    while heap:
        _, _, state = heapq.heappop(heap)
        if state in closed:
            continue  # an older entry of a position reached again in fewer moves
        if problem.is_goal(state):
            return walk_back(parent, state)
        closed.add(state)
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child not in g or g[state] + 1 < g[child]:
                g[child] = g[state] + 1
                parent[child] = (state, action)
                heapq.heappush(heap, (priority(g[child], problem.h(child)), next(counter),
                                      child))
    return None


def astar(problem):
    """A*: best-first by f = g + h."""
    return best_first(problem, lambda g, h: g + h)


def bounded(problem, bound):
    """One pass of IDA*: depth-first from the start, cutting a path where f = g + h goes over
    ``bound``. Returns ``(actions, None)`` when it finds the goal, else ``(None, the least f
    that went over)`` (infinite when none did: there is nothing more to search)."""
    path_states = [problem.initial]
    actions = []

    def search(state, g):
        """True when found; else the least f over the bound below ``state``."""
        f = g + problem.h(state)
        if f > bound:
            return f
        if problem.is_goal(state):
            return True
        least = math.inf
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child in path_states:
                continue  # never walk in a circle
            path_states.append(child)
            actions.append(action)
            found = search(child, g + 1)
            if found is True:
                return True
            least = min(least, found)
            path_states.pop()
            actions.pop()
        return least

    found = search(problem.initial, 0)
    return (actions, None) if found is True else (None, found)


def idastar(problem):
    """IDA*: passes with a growing bound, from h(start); the next bound is the least f that
    went over the last one."""
    bound = problem.h(problem.initial)
    while True:
        actions, over = bounded(problem, bound)
        if actions is not None:
            return actions
        if over == math.inf:
            return None
        bound = over


GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
HOME = {tile: divmod(cell, 3) for cell, tile in enumerate(GOAL)}


def heuristic(state):
    """Manhattan distance: each tile's rows plus columns from its goal cell (not the
    blank's)."""
    total = 0
    for cell, tile in enumerate(state):
        if tile != 0:
            row, col = divmod(cell, 3)
            home_row, home_col = HOME[tile]
            total += abs(row - home_row) + abs(col - home_col)
    return total


def rank(perm):
    """The permutation's place in lexicographic order: digit i of its Lehmer code counts the
    smaller values after position i, with weight (n-1-i)!."""
    n = len(perm)
    r = 0
    for i, value in enumerate(perm):
        smaller_after = sum(1 for later in perm[i + 1:] if later < value)
        r += smaller_after * math.factorial(n - 1 - i)
    return r


def unrank(r, n):
    """The permutation of 0..n-1 of rank r: each digit picks from the values left."""
    left = list(range(n))
    perm = []
    for i in range(n):
        digit, r = divmod(r, math.factorial(n - 1 - i))
        perm.append(left.pop(digit))
    return tuple(perm)
