"""What a search needs to know about a puzzle: the :class:`Problem` protocol.

A problem has a start (``initial``), a way to list the moves from a position (``actions``), a way
to make one (``result``) and a goal test (``is_goal``). The searches of
:mod:`puzzlelib.teaching.search` use nothing else, so one search runs on every problem. States
must be hashable (tuples), because the searches keep them in sets and dictionaries.
"""


class Problem:
    """A search problem. Subclasses implement :meth:`actions` and :meth:`result`, and may
    override the rest.

    ``initial``: the start state. ``goal``: the one goal state, or None when there are many
    (then :meth:`is_goal` must be overridden)."""

    #: Every solution's length is ``residue(start) + k * bound_step`` for some ``k``: iterative
    #: deepening may raise its limit by this many moves at a time (sliding tiles: 2).
    bound_step = 1

    def __init__(self, initial, goal=None):
        self.initial = initial
        self.goal = goal

    def actions(self, state):
        """The moves that can be made from ``state``, in the order the searches try them."""
        raise NotImplementedError

    def result(self, state, action):
        """The state that ``action`` leads to from ``state``."""
        raise NotImplementedError

    def is_goal(self, state):
        return state == self.goal

    def h(self, state):
        """A lower bound on the moves left from ``state`` (0: no knowledge)."""
        return 0

    def inverse(self, action):
        """The move that undoes ``action``, or None when it is not known. Bidirectional search
        needs it (to walk back from the goal), and depth-first search uses it to never undo
        its last move."""
        return None

    def residue(self, state):
        """See :attr:`bound_step` (0 by default)."""
        return 0

    def successors(self, state):
        """Yield ``(action, next_state)`` for every move from ``state``."""
        for action in self.actions(state):
            yield action, self.result(state, action)

    def notation(self, actions):
        """A list of actions written the way the puzzle writes moves (by default the list)."""
        return list(actions)
