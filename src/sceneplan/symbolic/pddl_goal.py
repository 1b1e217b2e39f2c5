"""Goal formulas of the goal language as PDDL goal text.

Quantifiers over a category of a few nodes (`EXPAND_UP_TO`) are written out
member by member (nested lifted quantifiers make a validator try every tuple
of objects); larger ones stay lifted: `forall p in plate: ...` becomes one
typed `forall` per node kind among the plates, guarded by the static
predicate `category_plate`; `kind:KIND` selectors are plain typed quantifiers. Each
atom is its predicate's PDDL face (`world.predicates`): derived predicates
(`in_room`, `within`, `at`) are spelled out there over the fluents the
exported domain maintains (`below`, `holding`, `agent_at`, ...).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.goal_forms import expand_counted, expand_paired, substitute
from sceneplan.world.goals import (
    And,
    Atom,
    Const,
    Counted,
    Formula,
    Implies,
    Not,
    Or,
    Paired,
    Quantified,
    Then,
)
from sceneplan.world.primitives import pddl_category

K = NodeKind

PDDL_TYPE: dict[NodeKind, str] = {
    K.BUILDING: "site",
    K.FLOOR: "storey",
    K.ROOM: "room",
    K.POSE: "pose",
    K.ASSET: "asset",
    K.OBJECT: "item",  # PDDL reserves `object` for the root type
    K.AGENT: "robot",
}
TRUE, FALSE = "(and)", "(or)"
# A quantifier over a category of at most this many nodes is written out member by member.
EXPAND_UP_TO = 8


@dataclass
class GoalText:
    """A translated goal and the problem-specific predicates it needs in the domain."""

    text: str
    words: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)


class _Translator:
    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self.counter = itertools.count()
        self.words: set[str] = set()
        self.categories: set[str] = set()
        self.attributes: set[str] = set()

    def fresh(self, stem: str) -> str:
        return f"?{stem}{next(self.counter)}"

    def formula(self, f: Formula, env: dict[str, tuple[str, NodeKind]]) -> str:
        if isinstance(f, Const):
            return TRUE if f.value else FALSE
        if isinstance(f, Not):
            return f"(not {self.formula(f.body, env)})"
        if isinstance(f, And):
            return "(and " + " ".join(self.formula(p, env) for p in f.parts) + ")"
        if isinstance(f, Or):
            return "(or " + " ".join(self.formula(p, env) for p in f.parts) + ")"
        if isinstance(f, Implies):
            return f"(imply {self.formula(f.left, env)} {self.formula(f.right, env)})"
        if isinstance(f, Quantified):
            return self.quantified(f, env)
        if isinstance(f, Counted | Paired):
            # no counting in PDDL: the `or` over the ways to choose the members
            expand = expand_counted if isinstance(f, Counted) else expand_paired
            bound = {v: t for v, (t, _) in env.items()}
            return self.formula(expand(_bind(f, bound), self.graph), env)  # type: ignore[arg-type]
        if isinstance(f, Then):
            raise UnsupportedError(
                f"the ordered goal '{f}' is not expressible in PDDL 2.1 (it constrains the "
                "run, not its end); `sceneplan solve` plans it with a milestone fact per part"
            )
        if isinstance(f, Atom):
            predicate = f.predicate
            kinds = predicate.arg_kinds or ("node",) * len(f.args)
            terms = [
                env.get(a) or (a, self.graph.node(a).kind if k == "node" else None)
                for a, k in zip(f.args, kinds, strict=True)
            ]
            return predicate.pddl(self, *terms)
        raise UnsupportedError(f"goal part {f!r} has no PDDL translation")

    def quantified(self, q: Quantified, env: dict[str, tuple[str, NodeKind]]) -> str:
        members = q.domain(self.graph)
        if len(members) <= EXPAND_UP_TO and not q.selector.startswith("kind:"):
            # a few members: one copy of the body each, so that a validator does not
            # expand nested quantifiers over every object of a type
            parts = [
                self.formula(q.body, {**env, q.var: (m, self.graph.nodes[m].kind)})
                for m in sorted(members)
            ]
            if not parts:
                return TRUE if q.universal else FALSE
            joined = " ".join(parts)
            return joined if len(parts) == 1 else f"({'and' if q.universal else 'or'} {joined})"
        kinds = sorted({self.graph.nodes[m].kind for m in members}, key=list(NodeKind).index)
        pieces = []
        for kind in kinds:
            var = self.fresh("g")
            body = self.formula(q.body, {**env, q.var: (var, kind)})
            head = f"({var} - {PDDL_TYPE[kind]})"
            if q.selector.startswith("kind:"):
                guarded = body
            else:
                self.categories.add(q.selector)
                guard = f"({pddl_category(q.selector)} {var})"
                guarded = f"(imply {guard} {body})" if q.universal else f"(and {guard} {body})"
            pieces.append(f"({'forall' if q.universal else 'exists'} {head} {guarded})")
        if not pieces:
            return TRUE if q.universal else FALSE
        return (
            pieces[0]
            if len(pieces) == 1
            else f"({'and' if q.universal else 'or'} {' '.join(pieces)})"
        )

    # -- what the predicates' PDDL faces may ask (world.predicates.GoalPDDL) -----------

    def need_word(self, word: str) -> None:
        self.words.add(word)

    def need_attribute(self, word: str) -> None:
        self.attributes.add(word)


def _bind(f: Formula, names: dict[str, str]) -> Formula:
    """The formula with variables bound to node ids (a PDDL variable of an enclosing
    lifted quantifier cannot be expanded over: such a goal is refused)."""
    lifted = [v for v, t in names.items() if t.startswith("?")]
    if lifted:
        raise UnsupportedError(
            f"'{f}' inside a quantifier over more than {EXPAND_UP_TO} nodes has no PDDL "
            "translation; `sceneplan solve` plans it"
        )
    return substitute(f, names)


def translate_goal(goal: Formula, graph: SceneGraph) -> GoalText:
    """The PDDL text of a goal formula over this graph's nodes."""
    translator = _Translator(graph)
    text = translator.formula(goal, {})
    return GoalText(text, translator.words, translator.categories, translator.attributes)
