"""Ground goals compiled into a task's goal facts and goal-phase actions.

Each goal literal becomes a formula over task facts: `inside_of(o, c)` is one
fact, `in_room(o, r)` a disjunction over the chains of `o` that end in room r.
Literals about nodes outside the scope keep the value they have now (nothing
in the plan can touch them). The conjunction of plain facts at the top is the
task's goal; every disjunction gets an auxiliary fact, made true by one
goal-phase action per disjunct. Goal-phase actions end the plan: they delete
`("playing",)`, which every regular action needs, so what they establish
cannot be undone afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sceneplan.graph.model import NodeKind
from sceneplan.symbolic.grounding import Grounder
from sceneplan.symbolic.task import Fact
from sceneplan.world.goal_forms import conjoin, disjoin, map_leaves
from sceneplan.world.goals import And, Atom, Const, Formula, Not, Or, Prop

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

    @property
    def needs_phase(self) -> bool:
        return bool(self.actions)


def compile_goal(ground: Formula, grounder: Grounder) -> CompiledGoal:
    """Turn a ground goal (`world.goal_forms.ground`) into goal facts and goal-phase actions."""
    atoms = AtomCompiler(grounder)
    formula = map_leaves(
        ground, lambda leaf: atoms.compile(leaf) if isinstance(leaf, Atom) else leaf
    )
    out = CompiledGoal()
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
