"""ALFWorld's observations as text, rendered from the world state (ALFWorld's own grammar).

The ReAct-family planners show these in an ALFWorld room instead of
sceneplan's "ACTION succeeded": "You arrive at cabinet 1. The cabinet 1 is
closed.", "You pick up the apple 1 from the countertop 2.", and "Nothing
happens." for an action that cannot run, as ALFWorld says.

>>> display("cabinet_12"), listing(["apple_1", "knife_2"]), listing([])
('cabinet 12', 'a apple 1, and a knife 2', 'nothing')
"""

from __future__ import annotations

import re

from sceneplan.graph.model import NodeKind
from sceneplan.world.actions import Action
from sceneplan.world.state import WorldState

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


def observe(before: WorldState, action: Action, after: WorldState) -> str:
    """ALFWorld's feedback on an action that ran, from the states before and after it."""
    args = [display(a) for a in action.args]
    name = action.name
    if name == "go_to":
        return f"You arrive at {args[0]}. {receptacle(after, action.args[0])}"
    if name == "open":
        return f"You open the {args[0]}. {receptacle(after, action.args[0])}"
    if name == "close":
        return f"You close the {args[0]}."
    if name == "take":
        return f"You pick up the {args[0]} from the {args[1]}."
    if name == "put":
        return f"You put the {args[0]} in/on the {args[1]}."
    if name in ("heat", "cool", "clean"):
        return f"You {name} the {args[0]} using the {args[1]}."
    if name == "slice":
        return f"You sliced the {args[0]} with the {args[1]}."
    if name in ("toggle", "use"):
        word = "on" if "on" in after.states(action.args[0]) else "off"
        return f"You turn {word} the {args[0]}."
    if name == "examine":
        x = action.args[0]
        if after.node(x).kind is NodeKind.ASSET:
            return receptacle(after, x)
        return examine_object(after, x)
    if name == "done":
        return "You are done."
    return f"{action} succeeded"
