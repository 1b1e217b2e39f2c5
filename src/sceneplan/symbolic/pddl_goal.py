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
from sceneplan.world.state import WorldState

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


def _junction(op: str, parts: list[str]) -> str:
    """`(and ...)` / `(or ...)` folded: constants dropped or absorbing, nested ones of the
    same operator flattened, duplicates dropped, parts sorted (so that the copies of an
    expanded quantifier that differ in the order of their members are one)."""
    unit, zero = (TRUE, FALSE) if op == "and" else (FALSE, TRUE)
    flat: set[str] = set()
    for part in parts:
        if part == zero:
            return zero
        if part.startswith(f"({op} ") and _balanced_inner(part):
            flat.update(_split(part[len(op) + 2 : -1]))
        elif part != unit:
            flat.add(part)
    if not flat:
        return unit
    ordered = sorted(flat)
    return ordered[0] if len(ordered) == 1 else f"({op} {' '.join(ordered)})"


def _split(text: str) -> list[str]:
    """The top-level parenthesised parts of a space-joined list."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(text[start : i + 1])
    return out


def _balanced_inner(part: str) -> bool:
    """Whether `part` is one parenthesised expression (its first paren closes last)."""
    depth = 0
    for i, ch in enumerate(part):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(part) - 1
    return False


class _Translator:
    def __init__(self, graph: SceneGraph):
        self.graph = graph
        self.counter = itertools.count()
        self.words: set[str] = set()
        self.categories: set[str] = set()
        self.attributes: set[str] = set()
        self.atoms: dict[tuple, str] = {}  # an atom's text, written once
        self._state: WorldState | None = None

    def fresh(self, stem: str) -> str:
        return f"?{stem}{next(self.counter)}"

    @property
    def state(self) -> WorldState:
        if self._state is None:
            self._state = WorldState(self.graph)
        return self._state

    def formula(self, f: Formula, env: dict[str, tuple[str, NodeKind]]) -> str:
        if isinstance(f, Const):
            return TRUE if f.value else FALSE
        if isinstance(f, Not):
            body = self.formula(f.body, env)
            return FALSE if body == TRUE else TRUE if body == FALSE else f"(not {body})"
        if isinstance(f, And):
            return _junction("and", [self.formula(p, env) for p in f.parts])
        if isinstance(f, Or):
            return _junction("or", [self.formula(p, env) for p in f.parts])
        if isinstance(f, Implies):
            left = self.formula(f.left, env)
            if left in (TRUE, FALSE):
                return self.formula(f.right, env) if left == TRUE else TRUE
            right = self.formula(f.right, env)
            return TRUE if right == TRUE else f"(imply {left} {right})"
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
            terms = tuple(
                env.get(a) or (a, self.graph.node(a).kind if k == "node" else None)
                for a, k in zip(f.args, kinds, strict=True)
            )
            if predicate.static and not any(t[0].startswith("?") for t in terms):
                # about nodes only, fixed by the graph: decided now
                return TRUE if predicate.holds(self.state, *(t[0] for t in terms)) else FALSE
            key = (predicate.name, terms)
            if key not in self.atoms:
                self.atoms[key] = predicate.pddl(self, *terms)
            return self.atoms[key]
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
            return _junction("and" if q.universal else "or", parts)
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

    def need_category(self, category: str) -> None:
        self.categories.add(category)


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
