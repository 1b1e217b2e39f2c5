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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.grounding import Grounder
from sceneplan.symbolic.task import Fact
from sceneplan.world.goal_forms import conjoin, disjoin, map_leaves
from sceneplan.world.goals import And, Atom, Const, Formula, Not, Or, Prop, Then

K = NodeKind
PLAYING: Fact = ("playing",)


class AtomCompiler:
    """Goal atoms as formulas over the facts of a grounder's task (each predicate's
    `compile` face, given this object as its `GoalGrounding`)."""

    def __init__(self, grounder: Grounder):
        self.g = grounder

    def prop(self, fact: Fact) -> Formula:
        return Prop(fact)

    def const(self, value: bool) -> Formula:
        return Const(value)

    def all_of(self, parts: Iterable[Formula]) -> Formula:
        return conjoin(parts)

    def any_of(self, parts: Iterable[Formula]) -> Formula:
        return disjoin(parts)

    def compile(self, atom: Atom) -> Formula:
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

    @property
    def needs_phase(self) -> bool:
        return bool(self.actions)


# A milestone's condition is written as at most this many conjunctions (its DNF).
MAX_MILESTONE_CASES = 256


def compile_goal(ground: Formula, grounder: Grounder) -> CompiledGoal:
    """Turn a ground goal (`world.goal_forms.ground`) into goal facts and goal-phase actions."""
    atoms = AtomCompiler(grounder)

    def facts(f: Formula) -> Formula:
        return map_leaves(f, lambda leaf: atoms.compile(leaf) if isinstance(leaf, Atom) else leaf)

    if not isinstance(ground, Then):
        return _compile(facts(ground), CompiledGoal())
    out = CompiledGoal()
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
        pos, neg = [], []
        for part in disjunct.parts if isinstance(disjunct, And) else (disjunct,):
            leaf = _leaf(part)
            if leaf is not None:
                (pos if leaf[1] else neg).append(leaf[0])
            else:
                pos.append(_aux(part, aux, out))
        out.actions.append((f"goal{len(out.actions)}", pos, neg, fact))
    return fact
