"""Substances as BEHAVIOR-1K models them symbolically: fluids and particles in, on and from things.

A substance (water, dust, salt, liquid_soap) is no node of the scene graph:
it is a part of a state word of the thing it is in or on, `RELATION_SUBSTANCE`:

- `filled_water`: a container holds enough of it to count as full of it;
- `contains_salt`: a container holds some of it (filling also contains);
- `covered_stain`: a surface is covered with it;
- `saturated_water`: a cloth (or sponge, brush) is soaked with it;
- `insource_water`: the thing gives it (a sink, a shaker, a sprayer), while it
  is on, or always when it has no switch. No action changes it.

The effects below move substances between things; each carries all its faces
(see `world.primitives`). A substance's PDDL fluent is the state word's
`is_WORD`, so a PDDL face that moves "whatever substance" is written out over
the substances of the problem (`substances`, a keyword the PDDL export fills
from the problem's state words: see `substances_in`); the grounded task reads
them from the scene. The goal predicates `filled(x, water)`, `contains`, `covered`,
`saturated` and `insource` are in `world.predicates`. docs/domain.md says where this
simplifies BEHAVIOR.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from sceneplan.world.pddl_expr import And, Expr, Not, Or, When, atom
from sceneplan.world.primitives import (
    Alternative,
    Effect,
    Fact,
    GroundEffects,
    Grounding,
    Test,
    holds_always,
    pddl_word,
    primitive,
    word_or_unable,
)
from sceneplan.world.state import WorldState

# The substance relations, as the first part of a state word.
FILLED, CONTAINS, COVERED, SATURATED, INSOURCE = (
    "filled",
    "contains",
    "covered",
    "saturated",
    "insource",
)
RELATIONS = (FILLED, CONTAINS, COVERED, SATURATED, INSOURCE)
# What a thing holds that can be poured out, soaked up or sprinkled: filled or contains.
HELD_IN = (FILLED, CONTAINS)

# Coverings a cleaning tool removes only when it is soaked (with any substance): those
# BEHAVIOR's particle removers (rag, sponge, scrub brush) take off only `saturated` with a
# cleaning liquid (water for mud and mold; soap, vinegar, detergent... for stains and oils).
NEEDS_SOAKED = frozenset(
    {
        *("mud", "mold", "mildew", "stain", "ink", "alga", "spray_paint", "house_paint"),
        *("baby_oil", "coconut_oil", "cooking_oil", "olive_oil", "sesame_oil"),
    }
)


def substance_word(relation: str, substance: str) -> str:
    """`substance_word("filled", "water")` is the state word `filled_water`."""
    return f"{relation}_{substance}"


def split_word(word: str) -> tuple[str, str] | None:
    """(relation, substance) of a substance state word, None for any other word.

    >>> split_word("filled_water"), split_word("open")
    (('filled', 'water'), None)
    """
    relation, _, substance = word.partition("_")
    return (relation, substance) if relation in RELATIONS and substance else None


def needs_soaked_tool(word: str) -> bool:
    """Whether taking the substance word off a thing needs a soaked tool (mud, stains)."""
    parts = split_word(word)
    return parts is not None and parts[1] in NEEDS_SOAKED


def substances_in(words: Iterable[str]) -> list[str]:
    """The substances named by substance state words, sorted."""
    return sorted({s[1] for w in words if (s := split_word(w)) is not None})


def held(words: Iterable[str], relations: tuple[str, ...] = HELD_IN) -> list[str]:
    """The substances the words put in one of `relations`, sorted."""
    return sorted({s[1] for w in words if (s := split_word(w)) is not None and s[0] in relations})


def supplied(words: Iterable[str]) -> list[str]:
    """The substances a thing with these state words can pass on: what it holds or gives."""
    return held(words, (*HELD_IN, INSOURCE))


def scene_substances(g: Grounding) -> list[str]:
    """The substances any node of the grounder's scene has at the start (what the ground
    faces write out; no action makes a new substance)."""
    return substances_in(w for n in g.graph for w in g.state.states(n.id))


def may_hold(g: Grounding, x: str) -> list[str]:
    """The substances x may hold in the grounded task: what it holds at the start, and any
    of the scene's if substances can be poured or filled into it (`fill`)."""
    if g.affords(x, "fill"):
        return scene_substances(g)
    return held(g.state.states(x))


def may_soak(g: Grounding, o: str) -> list[str]:
    """The substances o may be soaked with: any of the scene's if it can be soaked (`soak`),
    else what it is soaked with at the start."""
    if g.affords(o, "soak"):
        return scene_substances(g)
    return held(g.state.states(o), (SATURATED,))


def _word_pddl(relation: str, substance: str, x: str) -> Expr:
    return atom(pddl_word(substance_word(relation, substance)), x)


def _any_pddl(relations: tuple[str, ...], x: str, substances: tuple[str, ...]) -> Expr:
    return Or(*(_word_pddl(r, m, x) for m in substances for r in relations))


def _gives(state: WorldState, x: str) -> list[str]:
    """The substances x gives or holds now (a source only while it runs)."""
    words = state.states(x)
    return supplied(words) if Running.holds_in(state, x) else held(words)


# -- tests ---------------------------------------------------------------------------------


Running = word_or_unable("running", "{x} is on, or has no switch", "on", "turn_on")


@primitive
class HasSubstance(Test):
    name, params, text = (
        "has_substance",
        ("x",),
        "{x} holds a substance (is filled with or contains it) or gives one",
    )

    def check(self, state, x):
        return None if supplied(state.states(x)) else {"node": x}

    pddl_keywords = frozenset({"substances"})

    def pddl(self, x, *, substances):
        return _any_pddl((*HELD_IN, INSOURCE), x, substances)

    def ground(self, g, b, x):
        if held(g.state.states(x), (INSOURCE,)):
            return holds_always()  # a source gives for good: no action changes insource
        return [
            ({}, (("state", substance_word(r, m), x),), ()) for m in may_hold(g, x) for r in HELD_IN
        ]


@primitive
class Removable(Test):
    name, params, text = (
        "removable",
        ("x", "o"),
        "{x} is covered with something {o} takes off (mud, stains and oils only if {o} is soaked)",
    )

    def check(self, state, x, o):
        covering = held(state.states(x), (COVERED,))
        soaked = bool(held(state.states(o), (SATURATED,)))
        if any(soaked or m not in NEEDS_SOAKED for m in covering):
            return None
        return {"node": x, "tool": o, "covering": ", ".join(covering) or "nothing"}

    pddl_keywords = frozenset({"substances"})

    def pddl(self, x, o, *, substances):
        dry = [_word_pddl(COVERED, m, x) for m in substances if m not in NEEDS_SOAKED]
        wet = [_word_pddl(COVERED, m, x) for m in substances if m in NEEDS_SOAKED]
        soaked = _any_pddl((SATURATED,), o, substances)
        return Or(*dry, And(Or(*wet), soaked))

    def ground(self, g, b, x, o):
        out: list[Alternative] = []
        for m in scene_substances(g):
            covered: Fact = ("state", substance_word(COVERED, m), x)
            if m not in NEEDS_SOAKED:
                out.append(({}, (covered,), ()))
                continue
            for k in may_soak(g, o):
                out.append(({}, (covered, ("state", substance_word(SATURATED, k), o)), ()))
        return out


# -- effects -------------------------------------------------------------------------------


@primitive
class FillFrom(Effect):
    """A held container takes what a running source gives: filled with it (which counts as
    containing it too: the goal predicate `contains`)."""

    name, params, text = "fill_from", ("c", "s"), "{c} is filled with what {s} gives"
    flow = (0, 1, (FILLED, CONTAINS))  # c from s

    def apply(self, state, c, s):
        for m in held(state.states(s), (INSOURCE,)):
            state.set_state(c, substance_word(FILLED, m))

    pddl_keywords = frozenset({"substances"})

    def pddl(self, c, s, *, substances):
        return And(
            *(When(_word_pddl(INSOURCE, m, s), _word_pddl(FILLED, m, c)) for m in substances)
        )

    def ground(self, g, b, c, s):
        given = held(g.state.states(s), (INSOURCE,))  # static: no action changes insource
        return [("state", substance_word(FILLED, m), c) for m in given], [], []


@primitive
class PourInto(Effect):
    """Everything a held thing holds goes into another (filled stays filled, some stays
    some), and what it gives goes in too (a shaker's salt); the poured thing is empty of
    what it held."""

    name, params, text = (
        "pour_into",
        ("c", "d"),
        "what {c} holds or gives is in {d}, and {c} holds nothing",
    )
    flow = (1, 0, (FILLED, CONTAINS))  # d from c

    def apply(self, state, c, d):
        words = state.states(c)
        for m in held(words, (FILLED,)):
            state.set_state(d, substance_word(FILLED, m))
        for m in {*held(words), *held(words, (INSOURCE,))}:
            state.set_state(d, substance_word(CONTAINS, m))
        gone = tuple(substance_word(r, m) for m in held(words) for r in HELD_IN)
        state.replace_states(c, gone, ())

    pddl_keywords = frozenset({"substances"})

    def pddl(self, c, d, *, substances):
        parts: list[Expr] = []
        for m in substances:
            filled, contains = _word_pddl(FILLED, m, c), _word_pddl(CONTAINS, m, c)
            into = _any_pddl((*HELD_IN, INSOURCE), c, (m,))
            parts += [
                When(filled, _word_pddl(FILLED, m, d)),
                When(into, _word_pddl(CONTAINS, m, d)),
                Not(filled),
                Not(contains),
            ]
        return And(*parts)

    def ground(self, g, b, c, d):
        given = held(g.state.states(c), (INSOURCE,))  # static
        add: list[Fact] = [("state", substance_word(CONTAINS, m), d) for m in given]
        cond = []
        delete: list[Fact] = []
        for m in may_hold(g, c):
            filled, contains = (("state", substance_word(r, m), c) for r in HELD_IN)
            cond.append(((filled,), (), [("state", substance_word(FILLED, m), d)], []))
            if m not in given:
                for fact in (filled, contains):
                    cond.append(((fact,), (), [("state", substance_word(CONTAINS, m), d)], []))
            delete += [filled, contains]
        return add, delete, cond


class TakesOn(Effect):
    """Of its two arguments (o, x), the target takes `relation` of each substance the
    other, the source (x when `from_x`, else o), holds or gives."""

    relation: ClassVar[str]
    from_x: ClassVar[bool]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if hasattr(cls, "relation"):  # the focus face: the target takes it from the source
            cls.flow = (0, 1, (cls.relation,)) if cls.from_x else (1, 0, (cls.relation,))

    def ends(self, o: str, x: str) -> tuple[str, str]:
        """The source and the target among the arguments."""
        return (x, o) if self.from_x else (o, x)

    def apply(self, state, o, x):
        source, target = self.ends(o, x)
        for m in _gives(state, source):
            state.set_state(target, substance_word(self.relation, m))

    def ground(self, g, b, o, x):
        source, target = self.ends(o, x)
        return _from_any(g, source, self.relation, target)

    pddl_keywords = frozenset({"substances"})

    def pddl(self, o, x, *, substances):
        # the target takes each substance the source holds or gives; that a source gives
        # now (`running`) is among the action's preconditions
        source, target = self.ends(o, x)
        return And(
            *(
                When(
                    _any_pddl((*HELD_IN, INSOURCE), source, (m,)),
                    _word_pddl(self.relation, m, target),
                )
                for m in substances
            )
        )


@primitive
class SoakIn(TakesOn):
    """A held cloth takes up what a thing holds or (running) gives: saturated with it."""

    name, params, text = "soak_in", ("o", "x"), "{o} is soaked with what {x} holds or gives"
    relation, from_x = SATURATED, True


def _from_any(g: Grounding, x: str, relation: str, target: str) -> GroundEffects:
    """`target` gets `relation` of each substance x gives (a static fact of x: added for
    good) or holds (conditional effects)."""
    given = held(g.state.states(x), (INSOURCE,))
    add: list[Fact] = [("state", substance_word(relation, m), target) for m in given]
    cond: list[Any] = [
        (
            (("state", substance_word(r, m), x),),
            (),
            [("state", substance_word(relation, m), target)],
            [],
        )
        for m in may_hold(g, x)
        if m not in given
        for r in HELD_IN
    ]
    return add, [], cond


@primitive
class SprinkleOn(TakesOn):
    """What a held thing holds or gives covers another thing (salt on food, water on a
    plant, paint on a wall); the held thing keeps it (a shaker or sprayer is not used up)."""

    name, params, text = (
        "sprinkle_on",
        ("o", "x"),
        "{x} is covered with what {o} holds or gives",
    )
    relation, from_x = COVERED, False


@primitive
class RemoveCover(Effect):
    """A held tool takes off what covers a thing: dust and water always, mud, stains and
    oils only when the tool is soaked (`NEEDS_SOAKED`)."""

    name, params, text = (
        "remove_cover",
        ("x", "o"),
        "{x} is no longer covered with what {o} takes off",
    )
    removal = (0, 1, (COVERED,))  # off x by o

    def apply(self, state, x, o):
        soaked = bool(held(state.states(o), (SATURATED,)))
        covering = held(state.states(x), (COVERED,))
        gone = tuple(
            substance_word(COVERED, m) for m in covering if soaked or m not in NEEDS_SOAKED
        )
        state.replace_states(x, gone, ())

    pddl_keywords = frozenset({"substances"})

    def pddl(self, x, o, *, substances):
        soaked = _any_pddl((SATURATED,), o, substances)
        parts: list[Expr] = []
        for m in substances:
            gone = Not(_word_pddl(COVERED, m, x))
            parts.append(When(soaked, gone) if m in NEEDS_SOAKED else gone)
        return And(*parts)

    def ground(self, g, b, x, o):
        substances = scene_substances(g)
        delete: list[Fact] = []
        cond = []
        for m in substances:
            covered: Fact = ("state", substance_word(COVERED, m), x)
            if m not in NEEDS_SOAKED:
                delete.append(covered)
                continue
            for k in may_soak(g, o):
                soaked: Fact = ("state", substance_word(SATURATED, k), o)
                cond.append(((soaked,), (), [], [covered]))
        return [], delete, cond
