"""The problem a student's search is given: a :class:`~puzzlelib.teaching.problem.Problem`
that answers as the real one does and watches how it is used.

It counts, per position, the calls that *expand* it (``actions(state)`` or
``successors(state)``: the moves from it asked for), and the positions it *generates*
(``result``, ``successors``). The positions it hands out are tuples of a subclass, each holding a
reference to one token object, so the token's references count the positions still alive:
:attr:`peak` is the most positions the search held at once (in a set, a queue, a path, or a
variable), what it *stored* (copies it makes of them are not counted). A rule given as ``on_expand``
may stop the search at once by raising :class:`~puzzlelib.exercises.worker.Stop`, and so
does a search that generates more than ``budget`` positions (to keep a runaway search from
using up the memory before its time limit).
"""

import sys

from ..teaching.problem import Problem
from .grading import Stop


class Watched(Problem):
    """``problem`` watched. ``on_expand(state, times)``: called with each position expanded
    and the number of times it has been (1 the first time)."""

    def __init__(self, problem, budget=2_000_000, on_expand=None):
        # Each position handed out holds a reference to ``token``; when the student lets go
        # of it, Python frees it and drops the reference, no code of ours running then (code
        # run then could be where a time limit's exception lands): the live positions are
        # ``token``'s references less those it had before.
        class State(tuple):
            """A position handed to the student."""

        self._State = State
        self._token = object()
        self._base = sys.getrefcount(self._token)
        self._problem = problem
        self.peak = 0
        self.generated = 0
        self.expansions = {}  # plain tuple -> times expanded
        self.budget = budget
        self.on_expand = on_expand
        self.bound_step = problem.bound_step
        super().__init__(self._made(problem.initial), problem.goal)

    def __getattr__(self, name):  # what else the puzzle has (rows, cols, ...)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._problem, name)

    def _made(self, state):
        made = self._State(state)
        made._token = self._token
        live = sys.getrefcount(self._token) - self._base
        if live > self.peak:
            self.peak = live
        return made

    @property
    def live(self):
        """The positions handed out that are still referenced."""
        return sys.getrefcount(self._token) - self._base

    def _expand(self, state):
        key = tuple(state)
        times = self.expansions.get(key, 0) + 1
        self.expansions[key] = times
        if self.on_expand is not None:
            self.on_expand(key, times)

    def _generate(self, n=1):
        self.generated += n
        if self.generated > self.budget:
            raise Stop(f"stopped after {self.budget:,} positions generated, far more than "
                       f"this instance needs")

    def actions(self, state):
        self._expand(state)
        return list(self._problem.actions(state))

    def successors(self, state):
        self._expand(state)
        out = [(a, self._made(s)) for a, s in self._problem.successors(state)]
        self._generate(len(out))
        return out

    def result(self, state, action):
        self._generate()
        return self._made(self._problem.result(state, action))

    def is_goal(self, state):
        return self._problem.is_goal(state)

    def h(self, state):
        return self._problem.h(state)

    def inverse(self, action):
        return self._problem.inverse(action)

    def residue(self, state):
        return self._problem.residue(state)

    def notation(self, actions):
        return self._problem.notation(actions)

    @property
    def expanded(self):
        """Expansions in all (a position expanded twice counts twice)."""
        return sum(self.expansions.values())
