"""Every vocabulary, by name: SayPlan's, LookPlanGraph's (and its two-handed form), ALFWorld's.

The one table of `Vocabulary` objects. A name is looked up here only where it
crosses a boundary (a command-line option, a stored episode, a task file);
everything past that takes the object. `register_action` adds an action to a
vocabulary, or starts a new one (an extension's schema is checked like the
built-in ones).
"""

from __future__ import annotations

from sceneplan.errors import UnsupportedError
from sceneplan.graph.model import SceneGraph
from sceneplan.plugins import unknown_name
from sceneplan.world import rules
from sceneplan.world.alfworld import ALFWORLD
from sceneplan.world.domain import (
    DONE,
    LOOKPLANGRAPH_ACTIONS,
    LOOKPLANGRAPH_TWO_HANDS_WORDING,
    SAYPLAN_ACTIONS,
    ActionSchema,
    in_room,
    on_accessed,
    two_handed,
)
from sceneplan.world.vocabulary import Vocabulary

SAYPLAN = Vocabulary("sayplan", SAYPLAN_ACTIONS, reach=on_accessed)
LOOKPLANGRAPH_TWO_HANDS = Vocabulary(
    "lookplangraph_two_hands",
    two_handed(LOOKPLANGRAPH_ACTIONS, LOOKPLANGRAPH_TWO_HANDS_WORDING),
    reach=in_room,
    prompts="lookplangraph",
)
LOOKPLANGRAPH = Vocabulary(
    "lookplangraph", LOOKPLANGRAPH_ACTIONS, reach=in_room, two_hands=LOOKPLANGRAPH_TWO_HANDS
)

VOCABULARIES: dict[str, Vocabulary] = {
    v.name: v for v in (SAYPLAN, LOOKPLANGRAPH, LOOKPLANGRAPH_TWO_HANDS, ALFWORLD)
}


def get_vocabulary(name: str) -> Vocabulary:
    """The vocabulary called `name`; an unknown name lists the known ones."""
    try:
        return VOCABULARIES[name]
    except KeyError:
        raise unknown_name("action vocabulary", name, VOCABULARIES) from None


def native_vocabulary(graph: SceneGraph) -> Vocabulary | None:
    """The vocabulary whose own environment `graph` is (ALFWorld's in an ALFWorld room),
    or None: what planners that can use any vocabulary use there."""
    return next((v for v in VOCABULARIES.values() if v.is_native(graph)), None)


def register_action(vocabulary: str, schema: ActionSchema) -> Vocabulary:
    """Add an action to a vocabulary (a new name starts one, with `done`); the vocabulary."""
    if vocabulary not in VOCABULARIES:
        VOCABULARIES[vocabulary] = Vocabulary(vocabulary, {DONE.name: DONE})
    actions = VOCABULARIES[vocabulary].actions
    if schema.name in actions and actions[schema.name] != schema:
        raise UnsupportedError(f"vocabulary '{vocabulary}' already has an action '{schema.name}'")
    done = actions.pop(DONE.name, None)
    actions[schema.name] = schema
    if done is not None and schema.name != DONE.name:
        actions[DONE.name] = done  # `done` stays last in prompts
    return VOCABULARIES[vocabulary]


def forget_action(vocabulary: str, name: str) -> None:
    """Remove an action from a vocabulary (for extensions defined in tests)."""
    if vocabulary in VOCABULARIES:
        VOCABULARIES[vocabulary].actions.pop(name, None)


def plan_enders() -> frozenset[str]:
    """The names of the actions that only end a plan, in any vocabulary (`done`): what a
    count of a plan's steps leaves out when the plan's vocabulary is not known."""
    return frozenset(
        name
        for vocabulary in VOCABULARIES.values()
        for name, schema in vocabulary.actions.items()
        if schema.ends_plan
    )


def setters(word: str) -> tuple[frozenset[str | None] | None, bool]:
    """How a state word can come about: the affordances that actions setting it require of
    their node (None in the set: no affordance needed), or None when no action of any
    vocabulary sets it; and whether an appliance gives it (or its opposite)."""
    affordances = {g.target.affordance for v in VOCABULARIES.values() for g in v.givers(word)}
    return (frozenset(affordances) if affordances else None), word in rules.appliance_words()
