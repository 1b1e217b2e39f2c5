"""ALFWorld's observations as text, rendered from the world state (ALFWorld's own grammar).

The ReAct-family planners show these in an ALFWorld room instead of
sceneplan's "ACTION succeeded": "You arrive at cabinet 1. The cabinet 1 is
closed.", "You pick up the apple 1 from the countertop 2.", and "Nothing
happens." for an action that cannot run, as ALFWorld says.

>>> display("cabinet_12"), listing(["apple_1", "knife_2"]), listing([])
('cabinet 12', 'a apple 1, and a knife 2', 'nothing')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from sceneplan.graph.model import NodeKind
from sceneplan.graph.serialize import view_to_dict
from sceneplan.graph.views import GraphView
from sceneplan.world.actions import Action
from sceneplan.world.domain import ActionSchema
from sceneplan.world.state import WorldState
from sceneplan.world.vocabulary import Voice

NOTHING_HAPPENS = "Nothing happens."


def display(node_id: str) -> str:
    """ALFWorld's name of a node: `cabinet_1` -> `cabinet 1`."""
    return re.sub(r"_(\d+)$", r" \1", node_id)


def listing(ids: list[str]) -> str:
    """ALFWorld's list: "a x 1", "a x 1, and a y 2", "a x 1, a y 2, and a z 3"; "nothing"."""
    items = [f"a {display(i)}" for i in ids]
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + ", and " + items[-1]


def intro(state: WorldState) -> str:
    """What ALFWorld says before the first action: the receptacles in the room."""
    receptacles = [n.id for n in state.graph.of_kind(NodeKind.ASSET)]
    return (
        "You are in the middle of a room. Looking quickly around you, you see "
        f"{listing(receptacles)}."
    )


def receptacle(state: WorldState, r: str) -> str:
    """ALFWorld's `examine` of a receptacle: open, closed, or what is on it."""
    contents = state.children(r)
    if state.is_container(r):
        if "open" in state.states(r):
            return f"The {display(r)} is open. In it, you see {listing(contents)}."
        return f"The {display(r)} is closed."
    return f"On the {display(r)}, you see {listing(contents)}."


def examine_object(state: WorldState, o: str) -> str:
    """ALFWorld's reply to examining object o: on or off, else hot, cool, clean, sliced."""
    words = state.states(o)
    name = display(o)
    if "on" in words or "off" in words:
        return f"This {name} is {'on' if 'on' in words else 'off'}."
    temperature = "hot" if "hot" in words else "cool" if "cold" in words else ""
    parts = [p for p in (temperature, "clean" if "clean" in words else "") if p]
    described = " and ".join(parts) + (" sliced" if "sliced" in words else "")
    described = described.strip()
    if not described:
        return f"There's nothing special about {name}."
    article = "a" if not described.startswith(("a", "e", "i", "o", "u")) else "an"
    return f"This is {article} {described} {name}."


def observe(before: WorldState, action: Action, after: WorldState, schema: ActionSchema) -> str:
    """ALFWorld's feedback on an action that ran, from the states before and after it and
    from what its schema says it does (its first effect): arriving, opening, taking, ...
    The verb of heat, cool and clean is the action's own name, as in ALFWorld's sentence."""
    args = [display(a) for a in action.args]
    effect = schema.effects[0] if schema.effects else None
    bound = schema.bind(action.args)
    said = _SAYS.get(effect.op) if effect is not None else None
    if said is None or effect is None:
        return f"{action} succeeded"
    words = tuple(bound.get(a, a) for a in effect.args)
    return said(after, action, args, words)


def _set_state(after: WorldState, action: Action, args: list[str], words: tuple[str, ...]) -> str:
    node, word = words
    if len(args) == 1:  # a receptacle opened or closed
        if word == "open":
            return f"You open the {args[0]}. {receptacle(after, node)}"
        return f"You close the {args[0]}."
    if word == "sliced":
        return f"You sliced the {args[0]} with the {args[1]}."
    return f"You {action.name} the {args[0]} using the {args[1]}."  # heat, cool, clean


def _switch(after: WorldState, action: Action, args: list[str], words: tuple[str, ...]) -> str:
    return f"You turn {'on' if 'on' in after.states(words[0]) else 'off'} the {args[0]}."


def _examine(after: WorldState, action: Action, args: list[str], words: tuple[str, ...]) -> str:
    x = words[0]
    if after.node(x).kind is NodeKind.ASSET:
        return receptacle(after, x)
    return examine_object(after, x)


# ALFWorld's sentence for an action that ran, by what it does (its schema's first effect).
_SAYS: dict[str, Callable[[WorldState, Action, list[str], tuple[str, ...]], str]] = {
    "set_accessed": lambda after, action, args, words: (
        f"You arrive at {args[0]}. {receptacle(after, words[0])}"
    ),
    "set_state": _set_state,
    "grab": lambda after, action, args, words: f"You pick up the {args[0]} from the {args[1]}.",
    "place_at_accessed": lambda after, action, args, words: (
        f"You put the {args[0]} in/on the {args[1]}."
    ),
    "alfworld_switch": _switch,
    "alfworld_examine": _examine,
    "finish": lambda after, action, args, words: "You are done.",
}


# ALFWorld's words for where a thing is ("in the", "on the"), for the scene a prompt shows
RELATIONS = {"inside_of": "in", "ontop_of": "on"}


class AlfworldVoice(Voice):
    """ALFWorld's text game answering a model (the ALFWorld vocabulary's `Voice`): its
    opening, its sentence for each action, "Nothing happens." for one that cannot run,
    the robot as where it stands and what it carries, and the scene in its own terms."""

    environment_only = True

    def intro(self, state: WorldState) -> str:
        return intro(state)

    def succeeded(
        self, before: WorldState, action: Action, after: WorldState, schema: ActionSchema
    ) -> str:
        return observe(before, action, after, schema)

    def failed(self, action: Action, reason: str) -> str:
        return NOTHING_HAPPENS

    def said(self, lines: list[str]) -> str:
        """Every step's sentence: the environment printed each."""
        return " ".join(lines)

    def robot(self, state: WorldState) -> str:
        """Standing at a receptacle is all there is: `at shelf_2; carrying mug_1` (`at no
        receptacle yet; carrying nothing`)."""
        return f"at {state.accessed or 'no receptacle yet'}; carrying {state.held_text()}"

    def scene_text(self, view: GraphView) -> str:
        """The view as compact JSON without affordances (ALFWorld shows none), and with
        "in" / "on" for where things are."""
        data = view_to_dict(view)
        for nodes in data["nodes"].values():
            for node in nodes:
                node.pop("affordances", None)
                for ours, theirs in RELATIONS.items():
                    if ours in node:
                        node[theirs] = node.pop(ours)
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
