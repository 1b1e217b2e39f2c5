"""The goal language: predicate formulas over node ids, checked on a world state.

See docs/goals.md for the grammar and the predicates.

>>> from sceneplan.datasets import load_environment
>>> from sceneplan.world.simulator import Simulator
>>> sim = Simulator(load_environment("coffee"))
>>> goal = parse_goal("full(coffee_mug) and in_room(coffee_mug, toms_room)")
>>> goal.holds(sim.initial_state())
False
>>> goal.explain(sim.initial_state())
['full(coffee_mug) is false', 'in_room(coffee_mug, toms_room) is false']
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from sceneplan.errors import BadInputError, GoalParseError, UnsupportedError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.textinput import parse_int, shown
from sceneplan.world import rules
from sceneplan.world.predicates import PREDICATES, GoalPredicate, get_predicate
from sceneplan.world.primitives import get_effect
from sceneplan.world.state import WorldState
from sceneplan.world.substances import substances_in
from sceneplan.world.vocabularies import VOCABULARIES

MAX_NESTING = 64  # levels of 'not', brackets and quantifiers in a goal; packaged tasks need 9

_TOKEN = re.compile(
    r"\s*(?:(?P<word>[A-Za-z_][\w\-]*(?::[a-z]+)?)|(?P<number>\d+)|(?P<punct>[(),:]))"
)
_KEYWORDS = {
    *("and", "or", "not", "implies", "then", "in", "true", "false"),
    *("forall", "exists", "forn", "forpairs", "fornpairs"),
}


class Formula:
    """A goal formula. `holds` decides it; `failing` lists the literals that make it false."""

    def holds(self, state: WorldState, env: dict[str, str] | None = None) -> bool:
        """Whether the formula is true in `state`, its variables bound as in `env`."""
        raise NotImplementedError

    def failing(self, state: WorldState, env: dict[str, str]) -> Iterator[str]:
        """Why the formula is false in `state`, one sentence a part that fails (called
        only where it does not hold)."""
        if not self.holds(state, env):
            yield f"{self.render(env)} is false"

    def render(self, env: dict[str, str] | None = None) -> str:
        """The formula in the goal language, with the variables in `env` replaced by their
        values; a part that binds tighter than its context is wrapped in brackets."""
        raise NotImplementedError

    def explain(self, state: WorldState) -> list[str]:
        """The parts of the goal that do not hold, in words (empty when it holds)."""
        return [] if self.holds(state, {}) else list(self.failing(state, {}))

    def nodes(self) -> set[str]:
        """Node ids the formula names (bound variables excluded)."""
        return set().union(*(c.nodes() for c in self.children()))

    def children(self) -> tuple[Formula, ...]:
        """The direct sub-formulas."""
        return ()

    def __str__(self) -> str:
        return self.render({})


@dataclass(frozen=True)
class Const(Formula):
    """`true` or `false`."""

    value: bool

    def holds(self, state, env=None):
        return self.value

    def render(self, env=None):
        return "true" if self.value else "false"


@dataclass(frozen=True)
class Atom(Formula):
    """A predicate applied to node ids or variables."""

    name: str
    args: tuple[str, ...]

    @property
    def predicate(self) -> GoalPredicate:
        """The registered goal predicate the atom applies."""
        return get_predicate(self.name)

    def holds(self, state, env=None):
        env = env or {}
        return self.predicate.holds(state, *(env.get(a, a) for a in self.args))

    def render(self, env=None):
        env = env or {}
        return f"{self.name}({', '.join(env.get(a, a) for a in self.args)})"

    def nodes(self):
        return set(self.predicate.node_args(self.args))

    def bind(self, env: dict[str, str]) -> Atom:
        """The atom with bound variables replaced by their values."""
        return Atom(self.name, tuple(env.get(a, a) for a in self.args)) if env else self


@dataclass(frozen=True)
class Prop(Formula):
    """A fact of a grounded planning task (`("inside_of", o, c)`), the leaf that goal
    grounding (`symbolic.goal_compile`) compiles atoms into."""

    fact: tuple

    def holds(self, state, env=None):
        raise UnsupportedError(f"{self.render()} is a fact of a grounded task, not of a world")

    def render(self, env=None):
        return "(" + " ".join(map(str, self.fact)) + ")"


@dataclass(frozen=True)
class Not(Formula):
    """`not A`."""

    body: Formula

    def holds(self, state, env=None):
        return not self.body.holds(state, env)

    def render(self, env=None):
        return f"not {_wrap(self.body, env)}"

    def children(self):
        return (self.body,)


@dataclass(frozen=True)
class Joined(Formula):
    """Parts joined by a connective word (`and`, `or`, `then`), the formula's children."""

    parts: tuple[Formula, ...]
    word: ClassVar[str]

    def render(self, env=None):
        return f" {self.word} ".join(_wrap(p, env) for p in self.parts)

    def children(self):
        return self.parts


@dataclass(frozen=True)
class And(Joined):
    """`A and B and ...`: every part holds."""

    word = "and"

    def holds(self, state, env=None):
        return all(p.holds(state, env) for p in self.parts)

    def failing(self, state, env):
        for part in self.parts:
            if not part.holds(state, env):
                yield from part.failing(state, env)


@dataclass(frozen=True)
class Or(Joined):
    """`A or B or ...`: some part holds."""

    word = "or"

    def holds(self, state, env=None):
        return any(p.holds(state, env) for p in self.parts)

    def failing(self, state, env):
        yield f"none of these holds: {self.render(env)}"


@dataclass(frozen=True)
class Implies(Formula):
    """`A implies B`: B holds wherever A does."""

    left: Formula
    right: Formula

    def holds(self, state, env=None):
        return not self.left.holds(state, env) or self.right.holds(state, env)

    def failing(self, state, env):
        yield from self.right.failing(state, env)

    def render(self, env=None):
        return f"{_wrap(self.left, env)} implies {_wrap(self.right, env)}"

    def children(self):
        return (self.left, self.right)


class Scoped(Formula):
    """A formula that binds variables (`bound`) over its `body`, its one child: the nodes
    it names are the body's but those."""

    body: Formula

    def bound(self) -> tuple[str, ...]:
        """The variables the formula binds."""
        raise NotImplementedError

    def nodes(self):
        return self.body.nodes() - set(self.bound())

    def children(self):
        return (self.body,)


class OverMembers(Scoped):
    """A formula that binds one variable `var` to each member of `selector` in turn."""

    var: str
    selector: str

    def bound(self):
        return (self.var,)

    def domain(self, graph: SceneGraph) -> list[str]:
        """The members of the selector in `graph`: the values `var` takes."""
        return members(self.selector, graph)

    def bindings(self, graph: SceneGraph, env: dict[str, str]) -> Iterator[dict[str, str]]:
        """`env` with `var` bound to each member of the selector in turn."""
        return ({**env, self.var: x} for x in self.domain(graph))


@dataclass(frozen=True)
class Quantified(OverMembers):
    """`forall`/`exists` VAR `in` a category or `kind:KIND`."""

    universal: bool
    var: str
    selector: str
    body: Formula

    def holds(self, state, env=None):
        results = (self.body.holds(state, e) for e in self.bindings(state.graph, env or {}))
        return all(results) if self.universal else any(results)

    def failing(self, state, env):
        if not self.universal:
            yield f"no {self.selector} satisfies {self.body.render(env)}"
            return
        for inner in self.bindings(state.graph, env):
            if not self.body.holds(state, inner):
                yield from self.body.failing(state, inner)

    def render(self, env=None):
        word = "forall" if self.universal else "exists"
        return f"{word} {self.var} in {self.selector}: {_wrap(self.body, env)}"


def members(selector: str, graph: SceneGraph) -> list[str]:
    """The nodes a selector names: a category, or `kind:KIND`."""
    if selector.startswith("kind:"):
        kind = NodeKind(selector.split(":", 1)[1])
        return [n.id for n in graph.of_kind(kind)]
    return graph.with_category(selector)


@dataclass(frozen=True)
class Counted(OverMembers):
    """`forn N VAR in SELECTOR: body`: at least N members satisfy the body (BDDL's forn)."""

    n: int
    var: str
    selector: str
    body: Formula

    def count(self, state: WorldState, env: dict[str, str]) -> int:
        """How many members of the selector satisfy the body."""
        return sum(self.body.holds(state, e) for e in self.bindings(state.graph, env))

    def holds(self, state, env=None):
        return self.count(state, env or {}) >= self.n

    def failing(self, state, env):
        yield (
            f"fewer than {self.n} {self.selector} satisfy {self.body.render(env)} "
            f"({self.count(state, env)} do)"
        )

    def render(self, env=None):
        return f"forn {self.n} {self.var} in {self.selector}: {_wrap(self.body, env)}"


@dataclass(frozen=True)
class Paired(Scoped):
    """`forpairs X in S1, Y in S2: body`: a one-to-one pairing of the two sets in which
    every pair satisfies the body, covering the smaller set (BDDL's forpairs); with `n`
    (`fornpairs N ...`), at least n such disjoint pairs. A node is never paired with
    itself."""

    n: int | None
    var1: str
    selector1: str
    var2: str
    selector2: str
    body: Formula

    def bound(self):
        return (self.var1, self.var2)

    def domains(self, graph: SceneGraph) -> tuple[list[str], list[str]]:
        """The members of the two selectors in `graph`."""
        return members(self.selector1, graph), members(self.selector2, graph)

    def required(self, graph: SceneGraph) -> int:
        """How many disjoint pairs the formula asks for."""
        first, second = self.domains(graph)
        return min(len(first), len(second)) if self.n is None else self.n

    def matching(self, state: WorldState, env: dict[str, str]) -> dict[str, str]:
        """A largest set of disjoint satisfying pairs (second -> first), by augmenting paths."""
        first, second = self.domains(state.graph)
        edges = {
            x: [
                y
                for y in second
                if y != x and self.body.holds(state, {**env, self.var1: x, self.var2: y})
            ]
            for x in first
        }
        match: dict[str, str] = {}

        def augment(x: str, seen: set[str]) -> bool:
            for y in edges[x]:
                if y not in seen:
                    seen.add(y)
                    if y not in match or augment(match[y], seen):
                        match[y] = x
                        return True
            return False

        for x in first:
            augment(x, set())
        return match

    def holds(self, state, env=None):
        return len(self.matching(state, env or {})) >= self.required(state.graph)

    def failing(self, state, env):
        found = len(self.matching(state, env))
        yield (
            f"only {found} of the {self.required(state.graph)} pairs of {self.selector1} and "
            f"{self.selector2} satisfy {self.body.render(env)}"
        )

    def render(self, env=None):
        head = "forpairs" if self.n is None else f"fornpairs {self.n}"
        return (
            f"{head} {self.var1} in {self.selector1}, {self.var2} in {self.selector2}: "
            f"{_wrap(self.body, env)}"
        )


@dataclass(frozen=True)
class Then(Joined):
    """`A then B`: A holds in some state of the run, and B at its end, after it.

    Checked over the trajectory a world state carries (`WorldState.trail`: the
    states before each action the simulator applied, then the state itself).
    More parts chain: `A then B then C` needs A, then (at the same state or
    later) B, and C at the end. Only at the top of a goal.
    """

    word = "then"

    def reached(self, state: WorldState, env: dict[str, str] | None = None) -> int:
        """How many of the parts before the last hold in order along the trajectory."""
        trajectory = (*state.trail, state)
        index, done = 0, 0
        for part in self.parts[:-1]:
            while index < len(trajectory) and not part.holds(trajectory[index], env):
                index += 1
            if index == len(trajectory):
                break
            done += 1
        return done

    def holds(self, state, env=None):
        return self.reached(state, env) == len(self.parts) - 1 and self.parts[-1].holds(state, env)

    def failing(self, state, env):
        done = self.reached(state, env)
        if done < len(self.parts) - 1:
            yield f"{self.parts[done].render(env)} never held (in order) during the run"
        yield from self.parts[-1].failing(state, env)


def _wrap(formula: Formula, env) -> str:
    text = formula.render(env)
    wrapped = Joined | Implies | Scoped
    return f"({text})" if isinstance(formula, wrapped) else text


# -- parsing ------------------------------------------------------------------------


def parse_goal(text: str, graph: SceneGraph | None = None) -> Formula:
    """Parse a goal; with a graph, also check that every node id and category exists."""
    if not isinstance(text, str) or not text.strip():
        raise GoalParseError("a goal must be a non-empty formula, e.g. 'closed(fridge)'")
    formula = _parsed(text)
    if graph is not None:
        check_goal(formula, graph, text)
    return formula


@functools.lru_cache(maxsize=1024)
def _parsed(text: str) -> Formula:
    """The formula a goal's text parses to: formulas are immutable, so a run that reads one
    task's goal several times (planner, verdict, metrics) parses it once."""
    return _Parser(text).parse()


def check_goal(
    formula: Formula, graph: SceneGraph, text: str = "", *, new_words: bool = False
) -> None:
    """Raise GoalParseError naming the first unknown node, category or predicate in a formula.

    Any one-argument name that is not a predicate is a state word; it is
    unknown (most likely a misspelt or invented predicate) when no node of
    the graph has it, no action sets it and no appliance gives it. With
    `new_words` (a task's initial facts, which may give a node a new word)
    state words are not checked.
    """
    label = f"goal {text!r}: " if text else "goal: "
    if not new_words:
        words = [s.name for s in walk(formula) if isinstance(s, Atom) and s.name not in PREDICATES]
        substances = [
            arg
            for atom in _wanted(formula)
            if atom.name in PREDICATES
            for arg, kind in zip(atom.args, atom.predicate.arg_kinds or (), strict=False)
            if kind == "substance"
        ]
        if words or substances:  # the scene's words are worked out once, and only if asked
            known = state_words(graph)
            for word in words:
                _check_state_word(word, known, label)
            for substance in substances:
                _check_substance(substance, substances_in(known), label)
    for node_id in sorted(formula.nodes()):
        if node_id not in graph:
            hint = graph.suggest(node_id)
            raise GoalParseError(
                f"{label}unknown node '{node_id}'" + (f" ({hint})" if hint else "")
            )
    for sub in walk(formula):
        for selector in selectors(sub):
            if not selector.startswith("kind:") and not members(selector, graph):
                raise GoalParseError(f"{label}no node has category '{selector}'")


def selectors(formula: Formula) -> tuple[str, ...]:
    """The selectors a quantifier ranges over (none for anything else)."""
    if isinstance(formula, OverMembers):
        return (formula.selector,)
    if isinstance(formula, Paired):
        return (formula.selector1, formula.selector2)
    return ()


def _wanted(formula: Formula, positive: bool = True) -> Iterator[Atom]:
    """The atoms a formula needs to hold (under an even number of negations): one naming a
    substance the scene lacks can never hold, while its negation always does."""
    if isinstance(formula, Atom):
        if positive:
            yield formula
    elif isinstance(formula, Not):
        yield from _wanted(formula.body, not positive)
    elif isinstance(formula, Implies):
        yield from _wanted(formula.left, not positive)
        yield from _wanted(formula.right, positive)
    else:
        for child in formula.children():
            yield from _wanted(child, positive)


def _check_substance(substance: str, known: list[str], label: str) -> None:
    """A substance a goal wants must be one the scene has (`known`): no action makes one."""
    if substance in known:
        return
    close = difflib.get_close_matches(substance, known, n=3)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    listed = ", ".join(known) if known else "none"
    raise GoalParseError(
        f"{label}unknown substance '{substance}'{hint}: no node of this scene holds or "
        f"gives it, and no action makes one; substances here: {listed}"
    )


def _check_state_word(word: str, known: set[str], label: str) -> None:
    if word in known:
        return
    words = sorted(known)
    close = difflib.get_close_matches(word, [*PREDICATES, *words], n=3)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise GoalParseError(
        f"{label}unknown predicate '{word}'{hint}: no node has that state, and no action or "
        f"appliance gives it; predicates are {', '.join(PREDICATES)}; "
        f"state words known here are {', '.join(words)}"
    )


def state_words(graph: SceneGraph) -> set[str]:
    """State words a goal over `graph` may use: on its nodes, set by actions or appliances."""
    words = {w for node in graph for w in node.state} | rules.appliance_words()
    for vocabulary in VOCABULARIES.values():
        for schema in vocabulary.actions.values():
            for eff in schema.effects:
                words |= set(get_effect(eff.op).words(eff.args))
    return words


def walk(formula: Formula) -> Iterator[Formula]:
    """The formula and all its sub-formulas, depth first."""
    yield formula
    yield from (sub for child in formula.children() for sub in walk(child))


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = self._tokenize(text)
        self.pos = 0
        self.bound: list[str] = []
        self.depth = 0

    def _tokenize(self, text: str) -> list[str]:
        tokens, pos = [], 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            match = _TOKEN.match(text, pos)
            if match is None:
                raise GoalParseError(
                    f"goal {text!r}: unexpected character {text[pos:].lstrip()[0]!r} "
                    f"at position {pos + len(text[pos:]) - len(text[pos:].lstrip())}"
                )
            tokens.append(match.group("word") or match.group("number") or match.group("punct"))
            pos = match.end()
        return tokens

    def error(self, expected: str) -> GoalParseError:
        found = self.tokens[self.pos] if self.pos < len(self.tokens) else "the end"
        return GoalParseError(f"goal {self.text!r}: expected {expected}, found {found!r}")

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise self.error(repr(expected) if expected else "more input")
        self.pos += 1
        return token

    def parse(self) -> Formula:
        parts = [self.implication()]
        while self.peek() == "then":
            self.take()
            parts.append(self.implication())
        if self.peek() is not None:
            raise self.error("'and', 'or', 'implies', 'then' or the end")
        return parts[0] if len(parts) == 1 else Then(tuple(parts))

    def implication(self) -> Formula:
        left = self.disjunction()
        if self.peek() == "implies":
            self.take()
            return Implies(left, self.disjunction())
        return left

    def disjunction(self) -> Formula:
        parts = [self.conjunction()]
        while self.peek() == "or":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def conjunction(self) -> Formula:
        parts = [self.unary()]
        while self.peek() == "and":
            self.take()
            parts.append(self.unary())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self) -> Formula:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise GoalParseError(
                f"goal {shown(self.text)}: nested more than {MAX_NESTING} levels deep ('not', "
                "brackets, quantifiers); write it flatter"
            )
        try:
            return self._unary()
        finally:
            self.depth -= 1

    def _unary(self) -> Formula:
        token = self.peek()
        if token == "not":
            self.take()
            return Not(self.unary())
        if token in ("forall", "exists"):
            return self.quantifier()
        if token == "forn":
            self.take()
            n = self.number()
            var, selector = self.binding()
            return Counted(n, var, selector, self.scoped((var,)))
        if token in ("forpairs", "fornpairs"):
            pairs = self.number() if self.take() == "fornpairs" else None
            var1, selector1 = self.binding()
            self.take(",")
            var2, selector2 = self.binding()
            if var1 == var2:
                raise GoalParseError(f"goal {self.text!r}: forpairs needs two variable names")
            return Paired(pairs, var1, selector1, var2, selector2, self.scoped((var1, var2)))
        if token == "(":
            self.take()
            inner = self.implication()
            self.take(")")
            return inner
        if token in ("true", "false"):
            self.take()
            return Const(token == "true")
        return self.atom()

    def quantifier(self) -> Formula:
        universal = self.take() == "forall"
        var, selector = self.binding()
        return Quantified(universal, var, selector, self.scoped((var,)))

    def binding(self) -> tuple[str, str]:
        """`VAR in SELECTOR`."""
        var = self.name("a variable name")
        self.take("in")
        selector = self.name("a category or kind:KIND")
        if selector.startswith("kind:") and selector[5:] not in {k.value for k in NodeKind}:
            raise GoalParseError(f"goal {self.text!r}: unknown kind in selector '{selector}'")
        return var, selector

    def scoped(self, variables: tuple[str, ...]) -> Formula:
        """`: body` with the variables bound."""
        self.take(":")
        self.bound.extend(variables)
        body = self.unary()
        del self.bound[-len(variables) :]
        return body

    def number(self) -> int:
        token = self.peek()
        if token is None or not token.isdigit():
            raise self.error("a number")
        try:
            return parse_int(self.take(), f"goal {shown(self.text)}")
        except BadInputError as exc:
            raise GoalParseError(str(exc)) from None

    def name(self, what: str) -> str:
        token = self.peek()
        if token is None or token in _KEYWORDS or not re.match(r"[A-Za-z_]", token):
            raise self.error(what)
        return self.take()

    def atom(self) -> Formula:
        name = self.name("a predicate such as inside_of(x, y)")
        self.take("(")
        args: list[str] = []
        if self.peek() != ")":
            args.append(self.name("an argument"))
            while self.peek() == ",":
                self.take()
                args.append(self.name("an argument"))
        self.take(")")
        predicate = get_predicate(name)
        if len(args) != predicate.arity:
            raise GoalParseError(
                f"goal {self.text!r}: {name} takes {predicate.arity} argument(s), got {len(args)}"
                + (" (a one-argument predicate is a state word)" if predicate.state_word else "")
            )
        return Atom(name, tuple(args))
