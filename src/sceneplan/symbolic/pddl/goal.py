"""Goal formulas of the goal language as PDDL goal trees (`world.pddl_expr`).

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
from sceneplan.symbolic.pddl.node_types import PDDL_TYPE
from sceneplan.symbolic.pddl.write import expression
from sceneplan.world import goals as g
from sceneplan.world import pddl_expr as p
from sceneplan.world.goal_forms import (
    expand_counted,
    expand_paired,
    fold_junction,
    substitute,
)
from sceneplan.world.primitives import pddl_category
from sceneplan.world.state import WorldState

K = NodeKind
# A quantifier over a category of at most this many nodes is written out member by member.
EXPAND_UP_TO = 8


@dataclass
class GoalText:
    """A translated goal and the problem-specific predicates it needs in the domain."""

    tree: p.Expr
    words: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)

    @property
    def text(self) -> str:
        """The goal as PDDL text (`write.expression`)."""
        return expression(self.tree)


def _junction(kind: type[p.And | p.Or], parts: list[p.Expr]) -> p.Expr:
    """`(and ...)` / `(or ...)` folded (`world.goal_forms.fold_junction`), its parts sorted
    by their text, so that the copies of an expanded quantifier that differ in the order
    of their members are one."""
    unit, zero = (p.TRUE, p.FALSE) if kind is p.And else (p.FALSE, p.TRUE)
    return fold_junction(parts, kind, unit, zero, lambda flat: kind(*flat), key=expression)


class _Translator:
    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self.counter = itertools.count()
        self.words: set[str] = set()
        self.categories: set[str] = set()
        self.attributes: set[str] = set()
        self.atoms: dict[tuple, p.Expr] = {}  # an atom's tree, built once
        self._state: WorldState | None = None

    def fresh(self, stem: str) -> str:
        """A new variable name `?stemN`."""
        return f"?{stem}{next(self.counter)}"

    @property
    def state(self) -> WorldState:
        """The graph's start state, for static atoms decided now."""
        if self._state is None:
            self._state = WorldState(self.graph)
        return self._state

    def formula(self, f: g.Formula, env: dict[str, tuple[str, NodeKind]]) -> p.Expr:
        """The PDDL tree of a goal formula; `env` maps bound variables to (term, kind)."""
        if isinstance(f, g.Const):
            return p.TRUE if f.value else p.FALSE
        if isinstance(f, g.Not):
            body = self.formula(f.body, env)
            return p.FALSE if body == p.TRUE else p.TRUE if body == p.FALSE else p.Not(body)
        if isinstance(f, g.And):
            return _junction(p.And, [self.formula(x, env) for x in f.parts])
        if isinstance(f, g.Or):
            return _junction(p.Or, [self.formula(x, env) for x in f.parts])
        if isinstance(f, g.Implies):
            left = self.formula(f.left, env)
            if left in (p.TRUE, p.FALSE):
                return self.formula(f.right, env) if left == p.TRUE else p.TRUE
            right = self.formula(f.right, env)
            return p.TRUE if right == p.TRUE else p.Imply(left, right)
        if isinstance(f, g.Quantified):
            return self.quantified(f, env)
        if isinstance(f, g.Counted | g.Paired):
            # no counting in PDDL: the `or` over the ways to choose the members
            expand = expand_counted if isinstance(f, g.Counted) else expand_paired
            bound = {v: t for v, (t, _) in env.items()}
            return self.formula(expand(_bind(f, bound), self.graph), env)  # type: ignore[arg-type]
        if isinstance(f, g.Then):
            raise UnsupportedError(
                f"the ordered goal '{f}' is not expressible in PDDL 2.1 (it constrains the "
                "run, not its end); `sceneplan solve` plans it with a milestone fact per part"
            )
        if isinstance(f, g.Atom):
            predicate = f.predicate
            kinds = predicate.arg_kinds or ("node",) * len(f.args)
            terms = tuple(
                env.get(a) or (a, self.graph.node(a).kind if k == "node" else None)
                for a, k in zip(f.args, kinds, strict=True)
            )
            if predicate.static and not any(t[0].startswith("?") for t in terms):
                # about nodes only, fixed by the graph: decided now
                return p.TRUE if predicate.holds(self.state, *(t[0] for t in terms)) else p.FALSE
            key = (predicate.name, terms)
            if key not in self.atoms:
                self.atoms[key] = predicate.pddl(self, *terms)
            return self.atoms[key]
        raise UnsupportedError(f"goal part {f!r} has no PDDL translation")

    def quantified(self, q: g.Quantified, env: dict[str, tuple[str, NodeKind]]) -> p.Expr:
        """A quantifier written out over a few members, else lifted, one per node kind."""
        members = q.domain(self.graph)
        junction = p.And if q.universal else p.Or
        if len(members) <= EXPAND_UP_TO and not q.selector.startswith("kind:"):
            # a few members: one copy of the body each, so that a validator does not
            # expand nested quantifiers over every object of a type
            parts = [
                self.formula(q.body, {**env, q.var: (m, self.graph.nodes[m].kind)})
                for m in sorted(members)
            ]
            return _junction(junction, parts)
        kinds = sorted({self.graph.nodes[m].kind for m in members}, key=list(NodeKind).index)
        pieces: list[p.Expr] = []
        for kind in kinds:
            var = self.fresh("g")
            body = self.formula(q.body, {**env, q.var: (var, kind)})
            if q.selector.startswith("kind:"):
                guarded = body
            else:
                self.categories.add(q.selector)
                guard = p.atom(pddl_category(q.selector), var)
                guarded = p.Imply(guard, body) if q.universal else p.And(guard, body)
            quantifier = p.Forall if q.universal else p.Exists
            pieces.append(quantifier({var: PDDL_TYPE[kind]}, guarded))
        if not pieces:
            return p.TRUE if q.universal else p.FALSE
        return pieces[0] if len(pieces) == 1 else junction(*pieces)

    # -- what the predicates' PDDL faces may ask (world.predicates.GoalPDDL) -----------

    def need_word(self, word: str) -> None:
        """Declare the state-word predicate `is_WORD`."""
        self.words.add(word)

    def need_attribute(self, word: str) -> None:
        """Declare the attribute predicate `attr_WORD`."""
        self.attributes.add(word)

    def need_category(self, category: str) -> None:
        """Declare the category predicate `category_C`."""
        self.categories.add(category)


def _bind(f: g.Formula, names: dict[str, str]) -> g.Formula:
    """The formula with variables bound to node ids (a PDDL variable of an enclosing
    lifted quantifier cannot be expanded over: such a goal is refused)."""
    lifted = [v for v, t in names.items() if t.startswith("?")]
    if lifted:
        raise UnsupportedError(
            f"'{f}' inside a quantifier over more than {EXPAND_UP_TO} nodes has no PDDL "
            "translation; `sceneplan solve` plans it"
        )
    return substitute(f, names)


def translate_goal(goal: g.Formula, graph: SceneGraph) -> GoalText:
    """The PDDL goal tree of a goal formula over this graph's nodes."""
    translator = _Translator(graph)
    tree = translator.formula(goal, {})
    return GoalText(tree, translator.words, translator.categories, translator.attributes)
