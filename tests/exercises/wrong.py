"""Typical wrong answers to the exercises of puzzlelib.exercises, each named
``<exercise>_<what is wrong>``: the grader must fail every one with feedback that names the
problem (tests/test_exercises.py)."""

import heapq
import math
from collections import deque

from .reference import (GOAL, HOME, best_first, bounded, heuristic as manhattan, unrank,
                        walk_back)


# --- bfs ---------------------------------------------------------------------------------------


def bfs_depth_first(problem):
    """A depth-first search called bfs: the newest position taken first, not the oldest."""
    return _breadth_first(problem, walk_back, take=deque.pop)


def bfs_no_seen_set(problem):
    """Breadth-first over paths, never remembering the positions seen."""
    queue = deque([(problem.initial, [])])
    while queue:
        state, path = queue.popleft()
        if problem.is_goal(state):
            return path
        for action in problem.actions(state):
            queue.append((problem.result(state, action), path + [action]))
    return None


def _breadth_first(problem, path_to, take=deque.popleft):
    """A right breadth-first search, but for how it reads the way back to the start,
    ``path_to(parent, goal_state)``, and how it ``take`` s the next position to expand."""
    start = problem.initial
    parent = {start: None}
    queue = deque([start])
    while queue:
        state = take(queue)
        if problem.is_goal(state):
            return path_to(parent, state)
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child not in parent:
                parent[child] = (state, action)
                queue.append(child)
    return None


def bfs_backwards_path(problem):
    """The path read back from the goal, but never reversed."""
    def path_to(parent, state):
        actions = []
        while parent[state] is not None:
            state, action = parent[state]
            actions.append(action)
        return actions  # forgot actions.reverse()
    return _breadth_first(problem, path_to)


def bfs_raises(problem):
    """Reads the path back one step too far: the start has no parent."""
    def path_to(parent, state):
        actions = []
        while True:
            state, action = parent[state]
            actions.insert(0, action)
    return _breadth_first(problem, path_to)


def bfs_loops(problem):
    """Never moves while reading the path back."""
    def path_to(parent, state):
        actions = []
        while parent[state] is not None:
            before, action = parent[state]  # forgot state = before
        return actions
    return _breadth_first(problem, path_to)


def bfs_not_yet(problem):
    raise NotImplementedError


# --- bidirectional -----------------------------------------------------------------------------


def bidirectional_only_forward(problem):
    """A breadth-first search from the start alone, called bidirectional."""
    return _breadth_first(problem, walk_back)


def _two_sided(problem, join):
    """A right bidirectional search, but for how it joins the two halves:
    ``join(seen_from_start, seen_from_goal, meeting_state)``."""
    start, goal = problem.initial, problem.goal
    if start == goal:
        return []
    seen = [{start: None}, {goal: None}]
    frontier = [[start], [goal]]
    while frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        layer = []
        for state in frontier[side]:
            for action in problem.actions(state):
                child = problem.result(state, action)
                if child in seen[side]:
                    continue
                seen[side][child] = (state, action)
                if child in seen[1 - side]:
                    return join(seen[0], seen[1], child)
                layer.append(child)
        frontier[side] = layer
    return None


def bidirectional_goal_side_not_undone(problem):
    """Joins the goal side's moves as they were made from the goal, not undone."""
    return _two_sided(problem, lambda forward, backward, meeting:
                      walk_back(forward, meeting) + walk_back(backward, meeting))


def bidirectional_raises(problem):
    """Looks the moves' inverses up as if ``inverse`` were a dictionary."""
    return _two_sided(problem, lambda forward, backward, meeting:
                      walk_back(forward, meeting)
                      + [problem.inverse[a] for a in reversed(walk_back(backward, meeting))])


# --- iddfs -------------------------------------------------------------------------------------


def _depth_limited(problem, limit):
    path = [problem.initial]
    actions = []

    def search(state, limit):
        if problem.is_goal(state):
            return True
        if limit == 0:
            return False
        for action in problem.actions(state):
            child = problem.result(state, action)
            if child in path:
                continue
            path.append(child)
            actions.append(action)
            if search(child, limit - 1):
                return True
            path.pop()
            actions.pop()
        return False

    return actions if search(problem.initial, limit) else None


def iddfs_no_deepening(problem):
    """One depth-limited search at the deepest depth there can be: no deepening."""
    return _depth_limited(problem, 31)


def iddfs_breadth_first(problem):
    """Shortest, but storing every position seen: a breadth-first search."""
    return _breadth_first(problem, walk_back)


def iddfs_limit_never_raised(problem):
    """Forgets to raise the limit: the same empty pass over and over."""
    limit = 0
    while True:
        found = _depth_limited(problem, limit)
        if found is not None:
            return found


def iddfs_raises(problem):
    return _depth_limited(problem, problem.depth_limit)


# --- astar -------------------------------------------------------------------------------------


def astar_by_h_alone(problem):
    """Greedy best-first search called A*: ordered by h alone."""
    return best_first(problem, lambda g, h: h)


def astar_ignoring_h(problem):
    """Uniform-cost search called A*: ordered by g alone, h ignored."""
    return best_first(problem, lambda g, h: g)


def astar_raises(problem):
    """Reads g of a child before it has one."""
    start = problem.initial
    g = {start: 0}
    heap = [(problem.h(start), start)]
    while heap:
        _, state = heapq.heappop(heap)
        for action in problem.actions(state):
            child = problem.result(state, action)
            if g[state] + 1 < g[child]:
                g[child] = g[state] + 1
    return None


# --- idastar -----------------------------------------------------------------------------------


def idastar_one_pass(problem):
    """A single pass with a bound large enough for any solution: no deepening."""
    return bounded(problem, 40)[0]


def idastar_first_bound_only(problem):
    """Gives up when the first bound, h(start), holds no solution."""
    return bounded(problem, problem.h(problem.initial))[0]


def idastar_bound_kept(problem):
    """Computes the next bound but never uses it: the same pass forever."""
    bound = problem.h(problem.initial)
    while True:
        actions, over = bounded(problem, bound)
        if actions is not None:
            return actions
        next_bound = over  # noqa: F841 - forgot bound = next_bound


def idastar_raises(problem):
    return bounded(problem, problem.h())[0]


# --- heuristic ---------------------------------------------------------------------------------


def heuristic_counts_the_blank(state):
    """Misplaced tiles, the blank counted too."""
    return sum(1 for tile, home in zip(state, GOAL) if tile != home)


def heuristic_twice_manhattan(state):
    return 2 * manhattan(state)


def heuristic_jumps(state):
    """Manhattan distance while tile 1 is home, else 0: never too large, but jumps."""
    return manhattan(state) if state[0] == 1 else 0


def heuristic_raises(state):
    return sum(abs(cell - HOME[tile][0] * 3 - HOME[tile][1]) for cell, tile in
               enumerate(state) if tile != GOAL.index(tile + 1))


# --- rank --------------------------------------------------------------------------------------


def rank_collides(perm):
    """Weights each value by its place: two permutations may get the same sum."""
    return sum(i * value for i, value in enumerate(perm))


def rank_digits_base_n(perm):
    """The permutation read as a number in base n: one-to-one, but far beyond n! - 1."""
    n = len(perm)
    return sum(value * n ** i for i, value in enumerate(perm))


def unrank_reversed(r, n):
    """The right values, in the wrong order."""
    return tuple(reversed(unrank(r, n)))


def rank_raises(perm):
    n = len(perm)
    return sum(sum(1 for later in perm[i + 1:] if later < value) * math.factorial(n - 2 - i)
               for i, value in enumerate(perm))
