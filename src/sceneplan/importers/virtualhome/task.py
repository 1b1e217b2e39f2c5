"""VirtualHome goals and programs in sceneplan's goal language and LookPlanGraph vocabulary.

A goal (virtualhome-eval's `vh_goal`: node states, edges, and actions that
must happen) is a conjunction of atoms: `ON` edges `ontop_of`, `INSIDE`
edges `inside_of` (`in_room` for a room), `HOLDS_RH`/`HOLDS_LH` `held`,
node states state words. What the domain cannot express is a gap, by
reason ("goal uses state plugged_in", "goal needs action drink").

A program (`[GRAB] <mug> (1.1003)` lines) becomes go_to / pick_up / put_on /
put_inside / open / close / turn_on / turn_off steps: a walk goes to the
room of what it walks to; find, turn-to, look-at and point-at steps are
perception and are left out; any other action means the program does not
translate, and the reason names it.
"""

from __future__ import annotations

import re
from typing import Any

from sceneplan.importers.capabilities import achievable, can_place
from sceneplan.importers.virtualhome.scene import Scene

__all__ = ["parse_program", "translate_goal", "translate_program"]

_LINE = re.compile(r"\[(\w+)\]((?:\s*<[^>]+>\s*\([\d.]+\))*)")
_ARG = re.compile(r"<([^>]+)>\s*\(\d+\.(\d+)\)")
SKIPPED = {"FIND", "TURNTO", "LOOKAT", "POINTAT", "WATCH"}
SIMPLE = {
    "GRAB": "pick_up",
    "OPEN": "open",
    "CLOSE": "close",
    "SWITCHON": "turn_on",
    "SWITCHOFF": "turn_off",
}
PUT = {"PUTBACK": "put_on", "PUTIN": "put_inside"}


def parse_program(text: str) -> tuple[str, str, list[tuple[str, list[int]]]]:
    """Title, description and steps `(ACTION, [ids])` of a program file."""
    lines = text.splitlines()
    title = lines[0].strip() if lines else ""
    description = lines[1].strip() if len(lines) > 1 else ""
    steps = []
    for line in lines[2:]:
        match = _LINE.match(line.strip())
        if match:
            steps.append(
                (match.group(1).upper(), [int(i) for _, i in _ARG.findall(match.group(2))])
            )
    return title, description, steps


def translate_goal(
    goal: dict[str, Any], scene: Scene, vh: dict[Any, dict]
) -> tuple[str, list[str]]:
    """The goal text and the gaps that keep it from being expressible."""
    gaps, atoms = [], []
    for action in goal.get("actions", ()):
        gaps.append(f"goal needs action {action.split('|')[0].lower()}")
    held = 0
    for item in goal.get("goal", ()):
        if "state" in item:
            nid = scene.ids.get(item["id"])
            word = str(item["state"]).lower()
            if nid is None:
                gaps.append("goal names a dropped node (wall, floor, door)")
            elif nid == "agent" or not achievable(word):
                gaps.append(f"goal uses state {word}")
            else:
                node = next(n for n in scene.nodes if n["id"] == nid)
                needed = {"on": "turn_on", "off": "turn_off", "open": "open", "closed": "close"}
                if word in needed and needed[word] not in node.get("affordances", ()):
                    gaps.append(f"goal needs {needed[word]} on a thing without it")
                atoms.append(f"{word}({nid})")
            continue
        relation = item.get("relation_type")
        a, b = scene.ids.get(item["from_id"]), scene.ids.get(item["to_id"])
        if a is None or b is None:
            gaps.append("goal names a dropped node (wall, floor, door)")
            continue
        if relation in ("HOLDS_RH", "HOLDS_LH") and a == "agent":
            held += 1
            atoms.append(f"held({b})")
        elif relation in ("ON", "INSIDE") and a == "agent":
            gaps.append(f"goal puts the character {relation.lower()} a thing")
        elif relation == "INSIDE" and scene.kinds.get(b) == "room":
            atoms.append(f"in_room({a}, {b})")
        elif relation in ("ON", "INSIDE"):
            rel = "ontop_of" if relation == "ON" else "inside_of"
            if scene.kinds.get(b) not in ("asset", "object"):
                gaps.append(f"goal puts things {relation.lower()} the character")
                continue
            if scene.kinds.get(a) != "object":
                gaps.append("goal moves an asset")
            node = next(n for n in scene.nodes if n["id"] == b)
            why = can_place(
                rel,
                scene.kinds[b],
                tuple(node.get("affordances", ())),
                tuple(node.get("state", ())),
            )
            if why is not None:
                gaps.append(f"goal puts things {relation.lower()} {scene.kinds[b]}s: {why}")
            atoms.append(f"{rel}({a}, {b})")
        else:
            gaps.append(f"goal uses relation {relation}")
    if held > 1:
        gaps.append("goal holds two objects (needs two hands)")
    return " and ".join(dict.fromkeys(atoms)) or "true", list(dict.fromkeys(gaps))


def translate_program(
    steps: list[tuple[str, list[int]]], scene: Scene, room_of: dict[str, str]
) -> tuple[list[str] | None, str]:
    """The LookPlanGraph plan of a program, or None and why it does not translate.

    `room_of` gives the room of every asset and object at the start.
    """
    where = dict(room_of)
    here = room_of["agent"]
    holding: str | None = None
    plan: list[str] = []

    def go(room: str) -> None:
        nonlocal here
        if room != here:
            plan.append(f"go_to({room})")
            here = room

    for action, args in steps:
        names = [scene.ids.get(i) for i in args]
        if action in SKIPPED:
            continue
        if any(n is None for n in names):
            return None, "program acts on a dropped node (wall, floor, door)"
        if action in ("WALK", "RUN"):
            target = names[0]
            room = target if scene.kinds.get(target) == "room" else where.get(target)
            if room is not None:
                go(room)
        elif action in SIMPLE:
            target = names[0]
            if target not in where:
                return None, f"program {action.lower()}s {target}, which has no room"
            go(where[target])
            plan.append(f"{SIMPLE[action]}({target})")
            if action == "GRAB":
                holding = target
        elif action in PUT and len(names) == 2:
            thing, target = names
            if target not in where:
                return None, f"program puts on {target}, which has no room"
            go(where[target])
            plan.append(f"{PUT[action]}({target})")
            where[thing] = where[target]
            if holding == thing:
                holding = None
        else:
            return None, f"program uses {action}"
    return [*plan, "done()"], ""
