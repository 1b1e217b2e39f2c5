"""Domain primitives: each precondition test and effect is one object with all its faces.

An action schema (`world.domain`) names its preconditions and effects by
primitive name; the registry here holds the primitives. A primitive says, in
one class body:

- `check` / `apply`: what the simulator does (a test returns None when it
  holds, else the facts that fill its cause's feedback sentence);
- `pddl`: its PDDL condition or effect, an expression tree
  (`world.pddl_expr`) over the fluents of `symbolic.pddl` (`agent_at`,
  `holding`, `below`, `is_WORD`, ...); a
  primitive that reads a static predicate of its own declares it
  (`pddl_predicates`) and writes its facts for a problem (`pddl_static`);
- `ground`: what it means in the grounded task of `symbolic.grounding`
  (alternatives for a test, add/delete/conditional effects for an effect),
  written against the `Grounding` protocol below so that this layer imports
  nothing from `symbolic`;
- `text`: how the condition or change reads in prompts and docs.

Every face is an abstract method or a required class attribute, so a
primitive with a missing face cannot be registered. Causes (why an action
cannot run) are registered the same way, each with its one feedback
sentence, the error type metrics count it as, and whether earlier steps can
repair it.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import NodeKind
from sceneplan.world.pddl_expr import Atom, Expr, Not, Or, Predicate, atom
from sceneplan.world.state import EXCLUSIVE_STATES

if TYPE_CHECKING:
    from sceneplan.graph.model import Relation, SceneGraph
    from sceneplan.world.state import WorldState

# -- causes ----------------------------------------------------------------------------


class ErrorType(StrEnum):
    """Plan error types of SayPlan Table 3 (right): what each cause counts as in the metrics."""

    MISSING_ACTION = "missing_action"
    MISSING_POSE = "missing_pose"
    WRONG_ACTION = "wrong_action"
    INCOMPLETE_SEARCH = "incomplete_search"
    HALLUCINATED_NODE = "hallucinated_node"


ERROR_TYPES = tuple(t.value for t in ErrorType)  # their names, in ErrorType's order


if TYPE_CHECKING:

    class _CauseNames(type):
        """For type checkers: `Cause.NOT_ADJACENT` is a Cause (world/domain.py sets them)."""

        def __getattr__(cls, name: str) -> Cause: ...

else:
    _CauseNames = type


class Cause(str, metaclass=_CauseNames):
    """Why an action could not run: a name stored in Episodes, with its feedback sentence.

    `Cause("not_adjacent")` looks a registered cause up (ValueError if there
    is none). Causes are registered from a table by `define_causes`, which
    also makes each an attribute: `Cause.NOT_ADJACENT`.
    """

    feedback: str
    error_type: str
    repairable: bool
    _registry: ClassVar[dict[str, Cause]] = {}

    def __new__(cls, value: str) -> Cause:
        try:
            return cls._registry[str(value)]
        except KeyError:
            raise ValueError(f"'{value}' is not a registered cause") from None

    @classmethod
    def define(cls, value: str, feedback: str, error_type: str, repairable: bool = True) -> Cause:
        """Register a cause. `feedback` is a format string over the failure's facts;
        `error_type` is an ErrorType's value; `repairable` says whether earlier steps
        can make the action executable (an unknown node cannot be repaired)."""
        if error_type not in ERROR_TYPES:
            raise UnsupportedError(
                f"cause '{value}': error type '{error_type}' is not one of {', '.join(ERROR_TYPES)}"
            )
        existing = cls._registry.get(value)
        if existing is not None and (existing.feedback, existing.error_type) != (
            feedback,
            error_type,
        ):
            raise UnsupportedError(f"cause '{value}' is already defined differently")
        obj = str.__new__(cls, value)
        obj.feedback, obj.error_type, obj.repairable = feedback, error_type, repairable
        cls._registry[value] = obj
        return obj

    @classmethod
    def all(cls) -> list[Cause]:
        """Every registered cause, in the order of registration."""
        return list(cls._registry.values())

    @classmethod
    def forget(cls, value: str) -> None:
        """Remove a cause (for extensions defined in tests)."""
        cls._registry.pop(value, None)

    @property
    def value(self) -> str:
        """The cause's name, as an Enum member's value reads."""
        return str(self)

    def __repr__(self) -> str:
        return f"Cause({str(self)!r})"

    def __reduce__(self):
        return (Cause, (str(self),))


# A row of a cause table: name, feedback sentence (a format string over the failure's
# facts), error type (an ErrorType's value), whether earlier steps can repair it.
CauseRow = tuple[str, str, str, bool]


def define_causes(rows: Iterable[CauseRow]) -> None:
    """Register a table of causes (`Cause.define`), each also as `Cause.<NAME>`: the one
    way causes are registered, the built-in ones (`world.domain`) and an extension's."""
    for name, feedback, error_type, repairable in rows:
        setattr(Cause, name.upper(), Cause.define(name, feedback, error_type, repairable))


# -- grounding vocabulary ----------------------------------------------------------------

Fact = tuple  # ("at", place), ("holding", o), ("state", word, x), ("ontop_of", o, y), ...
HANDEMPTY: Fact = ("handempty",)
HAND_FREE: Fact = ("hand_free",)  # with two hands: at most one object is held
# A binding holds the hidden choices of a ground variant: "at", "accessed", ("chain", o).
Binding = dict
# One way a test can hold: (new bindings, facts that must hold, facts that must not).
Alternative = tuple[Binding, tuple[Fact, ...], tuple[Fact, ...]]
# What an effect does: (add, delete, conditional effects (pre, neg, add, delete)).
GroundEffects = tuple[list[Fact], list[Fact], list]


@dataclass(frozen=True)
class Chain:
    """A path of parent links from an object up to its asset, or to the hand (`asset` None)."""

    links: tuple[Fact, ...]
    asset: str | None
    parents: tuple[str, ...]
    entered: tuple[str, ...]  # parents the path enters through inside_of links

    def prefix_to(self, node: str) -> tuple[Fact, ...]:
        """The links up to and including the one into `node`."""
        return self.links[: self.parents.index(node) + 1]

    def enters(self, node: str) -> bool:
        """Whether the path goes into `node` through an inside_of link."""
        return node in self.entered


class Grounding(Protocol):
    """What a primitive's `ground` face may ask of the grounder (`symbolic.grounding.Grounder`)."""

    state: WorldState
    graph: SceneGraph
    assets: list[str]
    places: list[str]
    place_set: set[str]

    @property
    def objects(self) -> frozenset[str]:
        """The objects in scope."""

    def affords(self, node_id: str, affordance: str) -> bool:
        """Whether the node has the affordance."""

    def is_container(self, node_id: str) -> bool:
        """Whether things can go inside the node."""

    def placements(self, o: str) -> list[tuple[str, Relation]]:
        """Where the object may rest: where it is now and, if it can be picked up, its
        release spots."""

    def chains(self, o: str) -> tuple[Chain, ...]:
        """The support chains the object may have."""

    def chains_for(self, b: Binding, o: str) -> Iterator[Chain]:
        """The support chains of object `o`: the one the binding fixed, or every one."""

    def contents_paths(self, o: str) -> list[tuple[str, tuple[Fact, ...]]]:
        """Objects that may be below `o`, each with the links that keep it there."""

    def room_assets(self, room: str | None) -> list[str]:
        """The assets in scope in `room`."""

    def move_sources(self, x: str) -> list[str]:
        """The places a move to `x` can start from."""

    def appliance_effects(
        self, appliance: str, receivers: list[tuple[str, tuple[Fact, ...]]], condition: tuple
    ) -> list:
        """Conditional effects of a running appliance on receivers (each with its own links)."""


def bind(b: Binding, key: Any, value: Any, pos: tuple[Fact, ...] = ()) -> list[Alternative]:
    """One alternative that binds `key` to `value`, or none if it is bound to something else."""
    if key in b:
        return [({}, (), ())] if b[key] == value else []
    return [({key: value}, pos, ())]


def holds_always() -> list[Alternative]:
    """The one way a test holds with nothing needed: no binding, no facts."""
    return [({}, (), ())]


def opposite_facts(word: str, x: str) -> list[Fact]:
    """Setting a word removes its opposite (open/closed, on/off, ...): the fact to delete."""
    opposite = EXCLUSIVE_STATES.get(word)
    return [("state", opposite, x)] if opposite else []


def pddl_word(word: str) -> str:
    """State words are PDDL predicates `is_WORD` (an action may share a word's name: `open`)."""
    return f"is_{word}"


def pddl_affordance(affordance: str) -> str:
    """Affordances are static PDDL predicates `can_AFFORDANCE` (`can_open`, `can_turn_on`)."""
    return f"can_{affordance}"


def pddl_attribute(word: str) -> str:
    """Attributes are static PDDL predicates `attr_WORD`."""
    return f"attr_{word}"


def pddl_category(category: str) -> str:
    """Categories are static PDDL predicates `category_CATEGORY` (quantifier guards)."""
    return f"category_{category}"


# -- primitives ------------------------------------------------------------------------


class Primitive(ABC):
    """What tests and effects share: a name, the names of their arguments, prompt wording.

    `params` are the argument names as the faces take them (a schema passes
    parameter names or literal words in that order); `text` reads them, e.g.
    "the agent is in the room of {x}". `kinds` limits the node kinds the
    PDDL and grounding faces are written for (None: any).
    """

    name: ClassVar[str]
    params: ClassVar[tuple[str, ...]]
    text: ClassVar[str]
    kinds: ClassVar[frozenset[NodeKind] | None] = None
    # extra PDDL predicate declarations the pddl face uses, e.g. Predicate("wet", {"?x": "object"})
    pddl_predicates: ClassVar[tuple[Predicate, ...]] = ()
    # The keyword-only arguments of the pddl face: terms of the state the action leaves
    # implicit (`symbolic.pddl.hidden`: here, room, acc, slot, me, base, held), and
    # `substances` (the problem's, for a face that writes them out).
    pddl_keywords: ClassVar[frozenset[str]] = frozenset()
    # the state words every use reads or writes, whatever its arguments (the postures)
    state_words: ClassVar[frozenset[str]] = frozenset()

    def pddl_static(self, graph: SceneGraph, nodes: list[str]) -> list[Atom]:
        """Static facts of `pddl_predicates` a problem over `nodes` needs (none by default):
        what the graph fixes, e.g. which receptacle can hold which object."""
        return []

    def words(self, args: tuple[str, ...]) -> set[str]:
        """State words this use of the primitive reads or writes (for PDDL predicates): its
        `state_words`, and the literal word it is given where it takes one (`has_state(x,
        word)`)."""
        given = {args[self.params.index("word")]} if "word" in self.params else set()
        return set(self.state_words) | given

    def describe(self, args: tuple[str, ...]) -> str:
        """The prompt wording with this use's arguments filled in."""
        return self.text.format(**dict(zip(self.params, args, strict=True)))


class Test(Primitive):
    """A precondition test."""

    @abstractmethod
    def check(self, state: WorldState, *args: str) -> dict[str, str] | None:
        """None when the test holds; else facts for the cause's feedback sentence."""

    @abstractmethod
    def pddl(self, *terms: str) -> Expr:
        """The PDDL condition over the arguments' terms (`?x` or a literal word), a tree
        (`world.pddl_expr`)."""

    @abstractmethod
    def ground(self, g: Grounding, b: Binding, *args: str) -> list[Alternative]:
        """The ways the test can hold in the grounded task (none: it never can)."""


class WordOrUnable(Test):
    """A test that x has the state word `word`, or cannot get it: x does not afford
    `affordance` (a thing with no lid is open, one with no switch runs). A subclass names
    the two; its PDDL is `(or (is_WORD x) (not (can_AFFORDANCE x)))`."""

    word: ClassVar[str]
    affordance: ClassVar[str]

    @classmethod
    def holds_in(cls, state: WorldState, x: str) -> bool:
        """Whether the test holds for node x in `state`."""
        return cls.word in state.states(x) or cls.affordance not in state.node(x).affordances

    def check(self, state, x):
        return None if self.holds_in(state, x) else {"node": x}

    def ground(self, g, b, x):
        if not g.affords(x, self.affordance):
            return holds_always()
        return [({}, (("state", self.word, x),), ())]

    def words(self, args):
        return {self.word}

    def pddl(self, x):
        return Or(atom(pddl_word(self.word), x), Not(atom(pddl_affordance(self.affordance), x)))


def word_or_unable(name: str, text: str, word: str, affordance: str) -> type[WordOrUnable]:
    """Register the test `name(x)`: x has the state `word`, or does not afford `affordance`;
    `text` is its prompt wording. The class, for callers that ask it (`holds_in`)."""
    fields = {"name": name, "params": ("x",), "text": text, "word": word, "affordance": affordance}
    return primitive(type(name.title().replace("_", ""), (WordOrUnable,), fields))


@dataclass(frozen=True)
class RobotSkill:
    """What a robot is asked to do for an effect (the robot face): a skill's name, one of
    `execute.skills.Skill`, and its arguments (`relation`: ontop_of or inside_of)."""

    skill: str
    args: tuple[tuple[str, str], ...]


class Effect(Primitive):
    """An effect operation. `runs_appliances`: it lets an appliance act on what it holds
    (the focus of the symbolic planner then counts appliances as helpers). `bookkeeping`:
    it asks nothing of a robot (`done`'s finish)."""

    runs_appliances: ClassVar[bool] = False
    bookkeeping: ClassVar[bool] = False
    # A substance effect's focus faces (world.substances; read by `world.domain.gives` and
    # `takes_away`), each (target, other, relations) as indexes of the effect's arguments:
    # `flow`, the target gets, in one of `relations`, a substance that the other argument
    # holds or gives; `removal`, the other (a tool) takes such a substance off the target.
    # None: the effect moves no substance.
    flow: ClassVar[tuple[int, int, tuple[str, ...]] | None] = None
    removal: ClassVar[tuple[int, int, tuple[str, ...]] | None] = None
    # `apply` acts on "the held object", given as the keyword-only argument `held`.
    on_held: ClassVar[bool] = False

    @abstractmethod
    def apply(self, state: WorldState, *args: str) -> None:
        """Change the world state in place."""

    @abstractmethod
    def pddl(self, *terms: str) -> Expr:
        """The PDDL effect over the arguments' terms, a tree (`world.pddl_expr`); the parts
        of a top-level `And` are spliced into the action's effect, and `TRUE` (`And()`)
        is no effect."""

    @abstractmethod
    def ground(self, g: Grounding, b: Binding, *args: str) -> GroundEffects | None:
        """Add, delete and conditional effects; None when planners never need the action."""

    def skill(self, state: WorldState, *args: str, held: str | None = None) -> RobotSkill | None:
        """The robot face: the skill call that makes this effect happen on a robot, from
        `state` (what the robot believes); `held` is the object an effect on "the held
        object" acts on. None: no robot skill does it (the action's other effects may)."""
        return None

    def check_use(self, schema: Any, index: int) -> None:
        """Raise UnsupportedError when this use in `schema.effects[index]` cannot be translated."""


TESTS: dict[str, Test] = {}
EFFECTS: dict[str, Effect] = {}

P = TypeVar("P", bound=type[Primitive])
Entry = TypeVar("Entry", bound=Primitive)


def primitive(cls: P) -> P:
    """Class decorator: register one instance of a Test or Effect subclass under its name.

    Registration fails if a face is missing (an abstract method or a class
    attribute not set) or the name is taken by a different primitive.
    """
    if not issubclass(cls, Test | Effect):
        raise UnsupportedError(f"{cls.__name__} is neither a Test nor an Effect")
    check_faces(cls, "primitive", ("name", "params", "text"))
    for face, leading in (("check", 1), ("apply", 1), ("pddl", 0), ("ground", 2)):
        method = getattr(cls, face, None)
        if method is not None and not _takes(method, leading, len(cls.params)):
            raise UnsupportedError(
                f"primitive '{cls.name}': {face} must take {len(cls.params)} argument(s) "
                f"({', '.join(cls.params)})"
            )
    _check_keywords(cls, "pddl", cls.pddl_keywords)
    if issubclass(cls, Effect):
        _check_keywords(cls, "apply", frozenset({"held"} if cls.on_held else ()))
    return add_once(TESTS if issubclass(cls, Test) else EFFECTS, cls, "primitive")


def _check_keywords(cls: type[Primitive], face: str, declared: frozenset[str]) -> None:
    """Raise UnsupportedError when a face's keyword-only arguments are not those declared
    (`pddl_keywords`, `on_held`), which is what callers pass it."""
    parameters = inspect.signature(getattr(cls, face)).parameters.values()
    taken = {p.name for p in parameters if p.kind is p.KEYWORD_ONLY}
    if taken != declared:
        raise UnsupportedError(
            f"primitive '{cls.name}': {face} takes the keyword(s) {sorted(taken)}, "
            f"but declares {sorted(declared)} (pddl_keywords, on_held)"
        )


def check_faces(cls: type, what: str, attributes: tuple[str, ...]) -> None:
    """Raise UnsupportedError naming every face `cls` lacks (attributes, abstract methods)."""
    missing = [a for a in attributes if not hasattr(cls, a)]
    if missing or inspect.isabstract(cls):
        faces = missing + sorted(getattr(cls, "__abstractmethods__", ()))
        raise UnsupportedError(f"{what} {cls.__name__} lacks: {', '.join(faces)}")


def add_once(table: dict[str, Any], cls: Any, what: str) -> Any:
    """Register an instance of `cls` under its name; a name taken by another class fails."""
    current = table.get(cls.name)
    if current is not None and type(current).__qualname__ != cls.__qualname__:
        raise UnsupportedError(f"a {what} called '{cls.name}' is already registered")
    table[cls.name] = cls()
    return cls


def forget_primitive(name: str) -> None:
    """Remove a registered primitive (for extensions defined in tests)."""
    TESTS.pop(name, None)
    EFFECTS.pop(name, None)


def _takes(method: Any, leading: int, count: int) -> bool:
    """The face takes `leading` context arguments (state, or g and b) and one per param."""
    params = list(inspect.signature(method).parameters.values())[1:]  # self
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    fixed = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(fixed) == leading + count


def get_test(name: str) -> Test:
    """The registered test called `name`."""
    return _registered(TESTS, name, "precondition test")


def get_effect(name: str) -> Effect:
    """The registered effect called `name`."""
    return _registered(EFFECTS, name, "effect")


def _registered(table: dict[str, Entry], name: str, what: str) -> Entry:
    try:
        return table[name]
    except KeyError:
        raise UnsupportedError(
            f"no {what} '{name}' is registered (known: {', '.join(sorted(table))})"
        ) from None
