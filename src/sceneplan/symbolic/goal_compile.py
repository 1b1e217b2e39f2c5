"""Ground goals compiled into a task's goal facts and goal-phase actions.

Each goal literal becomes a formula over task facts: `inside_of(o, c)` is one
fact, `in_room(o, r)` a disjunction over the chains of `o` that end in room r.
Literals about nodes outside the scope keep the value they have now (nothing
in the plan can touch them). The conjunction of plain facts at the top is the
task's goal; every disjunction gets an auxiliary fact, made true by one
goal-phase action per disjunct. Goal-phase actions end the plan: they delete
`("playing",)`, which every regular action needs, so what they establish
cannot be undone afterwards.

An ordered goal (`A then B`, `goals.Then`) gets a *stage* fact per part before
the last: a milestone action (no plan step) adds `("stage", i)` when part i
holds and the stage before it was reached; the goal is the last part and the
last stage. Stages are never deleted, so a part reached once stays reached.

A disjunctive goal can also be *committed* (`commit_goal`): one disjunct
chosen for each disjunction, consistently, so that the goal becomes a plain
conjunction of facts (see there why the solver wants that).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.grounding import Grounder, exclusive_key
from sceneplan.symbolic.task import Fact, GroundTask
from sceneplan.world.goal_forms import conjoin, disjoin, map_leaves
from sceneplan.world.goals import And, Atom, Const, Formula, Not, Or, Prop, Then
from sceneplan.world.primitives import HAND_FREE

K = NodeKind
INF = float("inf")
PLAYING: Fact = ("playing",)


class AtomCompiler:
    """Goal atoms as formulas over the facts of a grounder's task (each predicate's
    `compile` face, given this object as its `GoalGrounding`)."""

    def __init__(self, grounder: Grounder):
        self.g = grounder

    def prop(self, fact: Fact) -> Formula:
        """The formula that holds when the task fact holds."""
        return Prop(fact)

    def const(self, value: bool) -> Formula:
        """The formula that is always `value`."""
        return Const(value)

    def all_of(self, parts: Iterable[Formula]) -> Formula:
        """The conjunction of the parts (simplified)."""
        return conjoin(parts)

    def any_of(self, parts: Iterable[Formula]) -> Formula:
        """The disjunction of the parts (simplified)."""
        return disjoin(parts)

    def compile(self, atom: Atom) -> Formula:
        """The atom as a formula over task facts (its value now: its object is out of scope)."""
        graph = self.g.graph
        movable = [a for a in atom.args if a in graph and graph.nodes[a].kind is K.OBJECT]
        if movable and movable[0] not in self.g.objects:
            return Const(atom.holds(self.g.state))  # out of scope: nothing can change it
        return atom.predicate.compile(self, *atom.args)


@dataclass
class CompiledGoal:
    """Top-level goal facts and the goal-phase actions for the disjunctive rest."""

    goal: set[Fact] = field(default_factory=set)
    goal_neg: set[Fact] = field(default_factory=set)
    actions: list[tuple[str, list[Fact], list[Fact], Fact]] = field(default_factory=list)
    constant: bool | None = None  # the goal is decided without planning
    # milestones of an ordered goal: (name, pos, neg, stage fact); regular actions
    # without a plan step, which do not end the plan
    milestones: list[tuple[str, list[Fact], list[Fact], Fact]] = field(default_factory=list)
    reached: set[Fact] = field(default_factory=set)  # stages that hold at the start
    # how many objects the agent can hold: more `holding` facts never hold together
    hands: int = 1

    @property
    def needs_phase(self) -> bool:
        """Whether the goal has disjunctions, so the task needs goal-phase actions."""
        return bool(self.actions)


# A milestone's condition is written as at most this many conjunctions (its DNF).
MAX_MILESTONE_CASES = 256


def compile_goal(ground: Formula, grounder: Grounder) -> CompiledGoal:
    """Turn a ground goal (`world.goal_forms.ground`) into goal facts and goal-phase actions."""
    atoms = AtomCompiler(grounder)

    def facts(f: Formula) -> Formula:
        return map_leaves(f, lambda leaf: atoms.compile(leaf) if isinstance(leaf, Atom) else leaf)

    if not isinstance(ground, Then):
        return _compile(facts(ground), CompiledGoal(hands=grounder.state.hands))
    out = CompiledGoal(hands=grounder.state.hands)
    # the parts already reached along the start state's trail (and in it)
    out.reached = {("stage", i) for i in range(ground.reached(grounder.state))}
    stage: Fact | None = None  # the stage reached before this part
    for index, part in enumerate(ground.parts[:-1]):
        cases = _dnf(facts(part))
        fact = ("stage", index)
        if cases is None:  # the part always holds: reached as soon as the one before is
            cases = [([], [])]
        for pos, neg in cases:
            pre = pos + ([stage] if stage is not None else [])
            out.milestones.append((f"stage{index}.{len(out.milestones)}", pre, neg, fact))
        if not cases:
            out.constant = False  # the part can never hold in this scope
            return out
        stage = fact
    out = _compile(facts(ground.parts[-1]), out)
    if out.constant is False:
        return out
    if stage is not None and out.constant is True:
        out.constant = None  # the end holds: only the stages are left to reach
    if stage is not None:
        out.goal.add(stage)
    return out


def _dnf(f: Formula) -> list[tuple[list[Fact], list[Fact]]] | None:
    """The formula over task facts as conjunctions of literals (positive, negative facts);
    None when it is true, [] when it is false."""
    if isinstance(f, Const):
        return None if f.value else []
    leaf = _leaf(f)
    if leaf is not None:
        return [([leaf[0]], [])] if leaf[1] else [([], [leaf[0]])]
    if isinstance(f, Or):
        out: list[tuple[list[Fact], list[Fact]]] = []
        for part in f.parts:
            cases = _dnf(part)
            if cases is None:
                return None
            out += cases
        return out
    assert isinstance(f, And), f"not a formula over task facts: {f}"
    product: list[tuple[list[Fact], list[Fact]]] = [([], [])]
    for part in f.parts:
        cases = _dnf(part)
        if cases is None:
            continue
        product = [(p + q, n + m) for p, n in product for q, m in cases]
        if len(product) > MAX_MILESTONE_CASES:
            raise UnsupportedError(
                f"a part of an ordered goal has more than {MAX_MILESTONE_CASES} cases: {f}"
            )
    return product


def _compile(formula: Formula, out: CompiledGoal) -> CompiledGoal:
    """The goal facts and goal-phase actions of a formula over task facts."""
    if isinstance(formula, Const):
        out.constant = formula.value
        return out
    aux: dict[Formula, Fact] = {}
    for part in formula.parts if isinstance(formula, And) else (formula,):
        fact = _leaf(part)
        if fact is not None:
            (out.goal if fact[1] else out.goal_neg).add(fact[0])
        else:
            out.goal.add(_aux(part, aux, out))
    return out


def _leaf(f: Formula) -> tuple[Fact, bool] | None:
    """(fact, polarity) of a task-fact literal; None for anything else."""
    if isinstance(f, Prop):
        return f.fact, True
    if isinstance(f, Not) and isinstance(f.body, Prop):
        return f.body.fact, False
    return None


def _aux(f: Formula, aux: dict[Formula, Fact], out: CompiledGoal) -> Fact:
    """The auxiliary fact of a disjunction (or of a conjunction inside one)."""
    if f in aux:
        return aux[f]
    fact = aux[f] = ("goal", len(aux))
    for disjunct in f.parts if isinstance(f, Or) else (f,):
        pos, neg = list[Fact](), list[Fact]()
        for part in disjunct.parts if isinstance(disjunct, And) else (disjunct,):
            leaf = _leaf(part)
            if leaf is not None:
                (pos if leaf[1] else neg).append(leaf[0])
            else:
                pos.append(_aux(part, aux, out))
        out.actions.append((f"goal{len(out.actions)}", pos, neg, fact))
    return fact


# -- committing to one disjunct per disjunction ------------------------------------------

# The choice of disjuncts visits at most this many nodes (a count: the same choice on
# every machine); past it the goal stays uncommitted.
COMMIT_MAX_NODES = 20_000


@dataclass(frozen=True)
class Commitment:
    """A conjunction of facts that implies a goal (`goal`, `goal_neg`), or `possible`
    False: no choice of disjuncts is consistent, so the goal can never hold."""

    goal: frozenset[Fact] = frozenset()
    goal_neg: frozenset[Fact] = frozenset()
    possible: bool = True


def _free(fact: Fact) -> float:
    """No fact costs anything (`commit_goal`'s default: any consistent choice)."""
    return 0


def _never(fact: Fact) -> bool:
    """No fact holds now (`commit_goal`'s default)."""
    return False


def commit_goal(
    compiled: CompiledGoal,
    cost: Callable[[Fact], float] = _free,
    holds: Callable[[Fact], bool] = _never,
    max_nodes: int = COMMIT_MAX_NODES,
) -> Commitment | None:
    """One disjunct for each disjunction of a compiled goal, consistent and cheap.

    Why: h_FF relaxes a disjunction to its cheapest disjunct, each one on its own.
    Disjunctions that compete for objects (each of four baskets wants "a candle":
    the relaxation puts the same candle in all four) or exclude each other (the
    sack the yams go in must hold no potato) are then estimated far too cheap,
    and greedy search wanders on a plateau. Committed to one disjunct each, the
    goal is a conjunction whose relaxed plan moves every object that must move.

    The goal-phase actions are an AND/OR tree: the goal needs its facts and
    auxiliary facts, an auxiliary fact the literals of one of its actions. A
    depth-first search (`_choose`) picks an action per needed auxiliary fact
    (`_Choices.children`: which fact, in which order its disjuncts), and
    backtracks when a choice contradicts those made (`_Literals.extend`: a fact
    both wanted and not, or two facts that can never hold together). A fact that
    costs INF can never hold. A consistent goal without disjunctions, or a choice
    not made within `max_nodes` nodes, gives None; exhausting the choices proves
    that the goal can never hold (`possible` False).
    """
    if compiled.constant is not None or compiled.milestones:
        return None
    choices = _Choices(compiled, cost, holds)
    top = _Literals.NONE.extend(
        frozenset(compiled.goal - choices.aux), frozenset(compiled.goal_neg), compiled.hands
    )
    if top is None:
        return Commitment(possible=False)
    if not compiled.actions:
        return None  # a plain conjunction, consistent: nothing to choose
    found = _choose(choices, _Node(top, frozenset(compiled.goal & choices.aux)), max_nodes)
    if found is _OUT_OF_BUDGET:
        return None
    if found is None:
        return Commitment(possible=False)
    assert isinstance(found, _Literals)
    return Commitment(found.pos, found.neg)


@dataclass(frozen=True)
class _Literals:
    """The literals chosen so far: facts wanted (`pos`), facts unwanted (`neg`), and the
    fact wanted for each exclusive key (`grounding.exclusive_key`) among `pos`."""

    pos: frozenset[Fact]
    neg: frozenset[Fact]
    keys: tuple[tuple[tuple, Fact], ...] = field(default=(), compare=False)  # (from `pos`)

    NONE: ClassVar[_Literals]

    def extend(self, pos: frozenset[Fact], neg: frozenset[Fact], hands: int) -> _Literals | None:
        """These literals with `pos` and `neg` added (itself when it has them all); None
        when they contradict each other: a fact both wanted and not, two facts of one
        exclusive key (an object in two places), more objects held than `hands`."""
        if pos <= self.pos and neg <= self.neg:
            return self
        if pos & self.neg or neg & self.pos or pos & neg:
            return None
        keys = dict(self.keys)
        new = pos - self.pos
        for f in new:
            key = exclusive_key(f)
            if key is not None and keys.setdefault(key, f) != f:
                return None
        if any(f[0] == "holding" for f in new) and (
            sum(f[0] == "holding" for f in self.pos | pos) > hands
        ):
            return None
        return _Literals(self.pos | pos, self.neg | neg, tuple(keys.items()))


_Literals.NONE = _Literals(frozenset(), frozenset())


class _Node(NamedTuple):
    """A state of the search: the literals chosen, the auxiliary facts still to decide,
    and those decided."""

    chosen: _Literals
    pending: frozenset[Fact]
    done: frozenset[Fact] = frozenset()


class _Choices:
    """A compiled goal's disjunctions as choices: the ways (positive and negative
    literals) to each auxiliary fact, their prices and the order to try them in."""

    def __init__(
        self,
        compiled: CompiledGoal,
        cost: Callable[[Fact], float],
        holds: Callable[[Fact], bool],
    ):
        self.options: dict[Fact, list[tuple[frozenset[Fact], frozenset[Fact]]]] = {}
        for _name, pos, neg, fact in compiled.actions:
            self.options.setdefault(fact, []).append((frozenset(pos), frozenset(neg)))
        self.aux = set(self.options)
        # Disjunctions of conjunctions that need further choices ("four of the eight pots
        # each hold some dahlia") are decided before plain ones ("dahlia 1 in some pot"):
        # their choice then narrows the plain ones, instead of contradicting them later.
        self.nested = {
            f for f, ways in self.options.items() if any(pre & self.aux for pre, _ in ways)
        }
        self.hands = compiled.hands
        self.cost, self.holds = cost, holds
        self.free = cost is _free and holds is _never  # every price is 0
        self.estimates: dict[Fact, float] = {}

    def price(self, chosen: _Literals, pos: frozenset[Fact], neg: frozenset[Fact]) -> float:
        """What the literals add to those chosen: the cost of each new fact wanted, 1 for
        each new fact unwanted that holds now."""
        if self.free:
            return 0
        return sum(self.cost(f) for f in pos - chosen.pos) + sum(
            1 for f in neg - chosen.neg if self.holds(f)
        )

    def estimate(self, fact: Fact) -> float:
        """The cheapest way to an auxiliary fact, its needs included (choices ignored)."""
        if fact not in self.estimates:
            self.estimates[fact] = 0  # (a cycle, were there one, would cost nothing more)
            self.estimates[fact] = min(
                self.price(_Literals.NONE, pre - self.aux, neg)
                + sum(self.estimate(n) for n in pre & self.aux)
                for pre, neg in self.options[fact]
            )
        return self.estimates[fact]

    def children(self, node: _Node) -> Iterator[_Node]:
        """The nodes to try after `node`, in order.

        A pending fact that one of its disjuncts already has (the choices made imply
        it) is taken at once: one child. A pending fact with no disjunct consistent
        with the choices made: none. Otherwise the fact with the fewest disjuncts left,
        nested ones first: a child per disjunct, cheapest first (its price, and the
        estimate of each further choice it needs; ties in the goal's order).
        """
        chosen, pending, done = node
        best: tuple[tuple[bool, int], Fact, list] | None = None
        for fact in sorted(pending):
            ways = []
            for order, (pre, neg) in enumerate(self.options[fact]):
                needs, pos = pre & self.aux, pre - self.aux
                more = chosen.extend(pos, neg, self.hands)
                if more is None:
                    continue
                if more is chosen and needs <= done:  # it constrains nothing more
                    yield _Node(chosen, pending - {fact}, done | {fact})
                    return
                total = (
                    0
                    if self.free
                    else self.price(chosen, pos, neg) + sum(self.estimate(n) for n in needs - done)
                )
                if total < INF:
                    ways.append((total, order, more, needs))
            if not ways:
                return
            rank = (fact not in self.nested, len(ways))
            if best is None or rank < best[0]:
                best = (rank, fact, ways)
        assert best is not None
        _rank, fact, ways = best
        for _total, _order, more, needs in sorted(ways, key=lambda way: way[:2]):
            yield _Node(more, (pending | needs) - done - {fact}, done | {fact})


_OUT_OF_BUDGET = object()


def _choose(choices: _Choices, root: _Node, max_nodes: int) -> _Literals | object | None:
    """Depth-first search from `root` for a node with nothing pending: its literals; None
    when there is none; `_OUT_OF_BUDGET` after `max_nodes` nodes.

    The search keeps its own stack (no recursion limit decides), and remembers
    the nodes whose every child failed: reached again by another order of the
    same choices, such a node is not searched again (its outcome depends only on
    the node), so the first node found is the one a search without that memory
    finds, in fewer nodes.
    """
    failed: set[_Node] = set()
    stack: list[tuple[_Node, Iterator[_Node]]] = []
    node: _Node | None = root
    nodes = 0
    while True:
        if node is not None and node not in failed:
            nodes += 1
            if nodes > max_nodes:
                return _OUT_OF_BUDGET
            if not node.pending:
                return node.chosen
            stack.append((node, choices.children(node)))
        node = None
        while stack and node is None:
            parent, children = stack[-1]
            node = next(children, None)
            if node is None:
                failed.add(parent)
                stack.pop()
        if node is None:
            return None


def task_goal(task: GroundTask) -> CompiledGoal:
    """The compiled goal a task was built from: its goal facts and goal-phase actions
    (those that end the plan), over the task's facts."""
    playing = task.facts.index(PLAYING) if PLAYING in task.facts else None
    out = CompiledGoal(
        goal={task.facts[f] for f in task.goal},
        goal_neg={task.facts[f] for f in task.goal_neg},
        hands=2 if HAND_FREE in task.facts else 1,  # the hands fact of two hands only
    )
    for a in task.actions:
        if a.action is None and playing in a.delete:
            (fact,) = a.add
            pos, neg = [task.facts[f] for f in a.pre], [task.facts[f] for f in a.neg]
            out.actions.append((a.name, pos, neg, task.facts[fact]))
        elif a.action is None:  # a milestone of an ordered goal, or a target's copy
            out.milestones.append((a.name, [], [], ()))
    return out


def committed_task(task: GroundTask, commitment: Commitment) -> GroundTask:
    """The task with the committed conjunction as its goal and without the goal-phase
    actions (its other actions are the task's own)."""
    playing = task.facts.index(PLAYING)
    index = {fact: i for i, fact in enumerate(task.facts)}
    return GroundTask(
        facts=task.facts,
        init=task.init,
        goal=frozenset(index[f] for f in commitment.goal),
        goal_neg=frozenset(index[f] for f in commitment.goal_neg),
        actions=[a for a in task.actions if not (a.action is None and playing in a.delete)],
        stats=dict(task.stats),
    )
