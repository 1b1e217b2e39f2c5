"""VirtualHome goals and programs in sceneplan's goal language and LookPlanGraph vocabulary.

A goal (virtualhome-eval's `vh_goal`: node states, edges, and actions that
must happen) is a conjunction of atoms. What the domain cannot express is a
gap, by reason ("goal uses state glittering", "goal needs action drink").
Each VirtualHome relation and state is read as follows:

- `ON` edges `ontop_of`, `INSIDE` edges `inside_of` (a thing put in a room:
  `in_room`), `HOLDS_RH` / `HOLDS_LH` `held` (a goal that holds two objects
  gives the agent two hands, `goal_holds`).
- Node states are state words (`on`, `closed`, `plugged_in`, `clean`, ...)
  where the domain can make a node so; others are gaps.
- The character: its states SITTING / LYING are the agent's posture
  (`sitting(agent)`, `lying(agent)`). The character ON a thing: VirtualHome
  puts the character ON something only by SIT or LIE (its executor adds that
  edge), so it reads as the posture that thing affords (`sitting(agent)` on
  a chair or toilet; on a couch or bed, the posture the goal states, else
  `(sitting(agent) or lying(agent))`); a thing it can neither sit nor lie on
  is a gap. The domain does not record what the agent sits on, so the seat
  itself is not checked. The character INSIDE a room is `agent_at(room)`;
  INSIDE anything else, a gap.
- `CLOSE` is VirtualHome's nearness (within about a metre, symmetric). Between
  two objects it is read as `nextto(x, y)`: VirtualHome brings two things
  close by putting one where the other is, and nextto asks exactly that
  (directly on or in the same thing), which is stricter than nearness. The
  character CLOSE to a thing is a gap ("goal puts the character close to a
  thing"): the domain has no nearness of the agent (nextto is about objects
  resting together), and an object CLOSE to an asset is a gap too (nextto an
  asset means on top of any asset of its room, far looser than nearness).
  `FACING` is a gap.
- Goal actions (`RINSE|WASH`, `DRINK`, ...: something must happen) are gaps:
  goals are states, and the domain's rinse / wipe leave `clean`, which the
  washed thing (hands, a plate) already is in every VirtualHome scene.

A program (`[GRAB] <mug> (1.1003)` lines) becomes LookPlanGraph steps: a walk
goes to the room of what it walks to (and a step that acts on a thing goes
there first); grab, open, close, switch on / off, put back / put in, plug in
/ out (`plug_in`, `plug_out`), sit (`sit`), lie (`lie`) and stand up
(`stand_up`) map one to one (VirtualHome lies down straight from sitting, and
sits up from lying; the domain stands up in between, so `stand_up()` comes
first there); wash, rinse and scrub of the held object, with a
running tap (a faucet that is on) in the room, are `rinse(o, tap)`, and wipe
of a dirty thing is `wipe` (elsewhere they do not translate: VirtualHome
washes hands and other things that are not held, and wipes clean things,
which the domain refuses); find, turn-to, look-at, point-at and watch steps
are perception and are left out; any other action means the program does not
translate, and the reason names it. Which action of the vocabulary a verb
becomes, the action declares (`ActionSchema.virtualhome`, read by `verbs`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sceneplan.errors import UnsupportedError
from sceneplan.importers.capabilities import (
    VOCABULARY,
    achievable,
    has_predicate,
    lacks_setter,
    placement_gap,
)
from sceneplan.importers.virtualhome.scene import Scene
from sceneplan.world.actions import Action
from sceneplan.world.domain import ActionSchema
from sceneplan.world.vocabulary import Vocabulary

__all__ = ["parse_program", "translate_goal", "translate_program", "verbs"]

_LINE = re.compile(r"\[(\w+)\]((?:\s*<[^>]+>\s*\([\d.]+\))*)")
_ARG = re.compile(r"<([^>]+)>\s*\(\d+\.(\d+)\)")
SKIPPED = {"FIND", "TURNTO", "LOOKAT", "POINTAT", "WATCH"}
# the verbs whose step is one action on its one thing; which action each verb is, the
# vocabulary's schemas declare (`ActionSchema.virtualhome`, read by `verbs`)
SIMPLE = frozenset(
    {"GRAB", "OPEN", "CLOSE", "SWITCHON", "SWITCHOFF", "PLUGIN", "PLUGOUT", "SIT", "LIE", "WIPE"}
)
# the one-to-one steps checked against their thing: it must afford what the action's
# parameter needs (sit's seat affords sit) and be in this state, if any
NEEDS = {"SIT": None, "LIE": None, "WIPE": "dirty"}
WASHES = {"WASH", "RINSE", "SCRUB"}
POSTURE = {"sit": "sitting", "lie": "lying"}
PUT = frozenset({"PUTBACK", "PUTIN"})
HOLDS = ("HOLDS_RH", "HOLDS_LH")
HOLDS_TWO = "program holds two objects at once"


def verbs(vocabulary: Vocabulary) -> dict[str, ActionSchema]:
    """VirtualHome verb -> the action of the vocabulary that does it, as the actions
    declare (`ActionSchema.virtualhome`: GRAB is LookPlanGraph's pick_up). A verb that
    two actions of the vocabulary declare is an error: a program step is one action.

    >>> from sceneplan.world import LOOKPLANGRAPH
    >>> verbs(LOOKPLANGRAPH)["GRAB"].name
    'pick_up'
    """
    out: dict[str, ActionSchema] = {}
    for schema in vocabulary.actions.values():
        for verb in schema.virtualhome:
            if verb in out:
                raise UnsupportedError(
                    f"vocabulary '{vocabulary}': {out[verb].name} and {schema.name} both "
                    f"declare the VirtualHome verb {verb}; keep it on one of them"
                )
            out[verb] = schema
    return out


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
    reader = _GoalReader(scene, {n["id"]: n for n in scene.nodes})
    for action in goal.get("actions", ()):
        reader.gaps.append(f"goal needs action {action.split('|')[0].lower()}")
    atoms: list[str] = []
    for item in goal.get("goal", ()):
        atom = reader.state(item) if "state" in item else reader.relation(item)
        if atom is not None:
            atoms.append(atom)
    gaps = reader.gaps
    atoms += _posture_atoms(reader.postures, reader.seats, reader.nodes, gaps)
    return " and ".join(dict.fromkeys(atoms)) or "true", list(dict.fromkeys(gaps))


@dataclass
class _GoalReader:
    """Reads a goal's items as atoms of the goal language, noting what it cannot express
    (`gaps`), the character's SITTING / LYING states (`postures`) and what the goal puts
    the character ON (`seats`)."""

    scene: Scene
    nodes: dict[str, dict]
    gaps: list[str] = field(default_factory=list)
    postures: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)

    def state(self, item: dict[str, Any]) -> str | None:
        """A goal state item as an atom (the character's posture goes to `postures`)."""
        nid = self.scene.ids.get(item["id"])
        word = str(item["state"]).lower()
        gaps = self.gaps
        if nid is None:
            gaps.append("goal names a dropped node (wall, floor, door)")
        elif nid == "agent":
            if word in POSTURE.values() and achievable(word):
                self.postures.append(word)
            else:
                gaps.append(f"goal uses state {word} of the character")
        elif not achievable(word):
            gaps.append(f"goal uses state {word}")
        else:
            need = lacks_setter(word, self.nodes[nid].get("affordances", ()))
            if need is not None:
                gaps.append(f"goal needs {need} on a thing without it")
            return f"{word}({nid})"
        return None

    def relation(self, item: dict[str, Any]) -> str | None:
        """A goal edge as an atom (what the character is put ON goes to `seats`)."""
        relation = item.get("relation_type")
        kinds, gaps = self.scene.kinds, self.gaps
        a, b = self.scene.ids.get(item["from_id"]), self.scene.ids.get(item["to_id"])
        if a is None or b is None:
            gaps.append("goal names a dropped node (wall, floor, door)")
            return None
        if relation in HOLDS and a == "agent":
            return f"held({b})"
        if relation == "ON" and a == "agent":
            self.seats.append(b)
            return None
        if relation == "INSIDE" and a == "agent":
            if kinds.get(b) == "room":
                return f"agent_at({b})"
            gaps.append("goal puts the character inside a thing")
            return None
        if relation == "CLOSE":
            if "agent" in (a, b):
                gaps.append("goal puts the character close to a thing")
            elif not has_predicate("nextto"):
                gaps.append("goal uses relation CLOSE")
            elif kinds.get(a) == "object" and kinds.get(b) == "object":
                return f"nextto({a}, {b})"
            else:
                gaps.append("goal puts a thing close to an asset or room")
            return None
        if relation == "INSIDE" and kinds.get(b) == "room":
            return f"in_room({a}, {b})"
        if relation in ("ON", "INSIDE"):
            return self.placement(relation, a, b)
        gaps.append(f"goal uses relation {relation}")
        return None

    def placement(self, relation: str, a: str, b: str) -> str | None:
        """`a` put ON or INSIDE `b` as an atom, noting why the domain cannot do it."""
        rel = "ontop_of" if relation == "ON" else "inside_of"
        kinds = self.scene.kinds
        if kinds.get(b) not in ("asset", "object"):
            self.gaps.append(f"goal puts things {relation.lower()} the character")
            return None
        if kinds.get(a) != "object":
            self.gaps.append("goal moves an asset")
        why = placement_gap(rel, self.nodes[b], kinds[b])
        if why is not None:
            self.gaps.append(f"goal puts things {relation.lower()} {kinds[b]}s: {why}")
        return f"{rel}({a}, {b})"


def goal_holds(goal: dict[str, Any]) -> int:
    """How many objects a goal has the character hold (HOLDS_RH / HOLDS_LH edges)."""
    return sum(item.get("relation_type") in HOLDS for item in goal.get("goal", ()))


def _posture_atoms(
    postures: list[str], seats: list[str], nodes: dict[str, dict], gaps: list[str]
) -> list[str]:
    """The agent's posture atoms for the character's SITTING / LYING states and the things
    the goal puts it ON (VirtualHome's SIT and LIE are what put the character on a thing)."""
    stated = set(postures)
    if len(stated) > 1:
        gaps.append("goal has the character sitting and lying")
        return []
    atoms = [f"{p}(agent)" for p in sorted(stated)]
    for seat in seats:
        affords = nodes[seat].get("affordances", ())
        can = [POSTURE[a] for a in POSTURE if a in affords and achievable(POSTURE[a])]
        if not can:
            gaps.append("goal puts the character on a thing it cannot sit or lie on")
        elif stated and not stated <= set(can):
            gaps.append(f"goal has the character {postures[0]} on a thing it cannot be so on")
        elif not stated:
            either = " or ".join(f"{p}(agent)" for p in can)
            atoms.append(either if len(can) == 1 else f"({either})")
    return atoms


def translate_program(
    steps: list[tuple[str, list[int]]],
    scene: Scene,
    room_of: dict[str, str],
    two_handed: bool = False,
) -> tuple[list[str] | None, str]:
    """The LookPlanGraph plan of a program, or None and why it does not translate.

    `room_of` gives the room of every asset and object at the start. With
    `two_handed`, the agent holds up to two objects and the plan is in the
    vocabulary's two-handed form (`put_on(o, a)`); one-handed, a program that
    holds two at once does not translate (`HOLDS_TWO`).
    """
    vocabulary = (VOCABULARY.two_hands or VOCABULARY) if two_handed else VOCABULARY
    program = _Program(scene, room_of, two_handed, vocabulary)
    for action, args in steps:
        names = [scene.ids[i] for i in args if i in scene.ids]
        if action in SKIPPED:
            continue
        if len(names) < len(args):
            return None, "program acts on a dropped node (wall, floor, door)"
        why = program.step(action, [n for n in names if n is not None])
        if why:
            return None, why
    return program.finished(), ""


class _Program:
    """A program being translated: the plan so far and what it has done to the scene."""

    def __init__(
        self, scene: Scene, room_of: dict[str, str], two_handed: bool, vocabulary: Vocabulary
    ) -> None:
        self.where = dict(room_of)
        self.here = room_of["agent"]
        self.vocabulary = vocabulary
        self.verbs = verbs(vocabulary)
        self.hands = 2 if two_handed else 1
        self.holding = list(scene.held)
        self.plan: list[str] = []
        self.nodes = {n["id"]: n for n in scene.nodes}
        self.kinds = scene.kinds
        nodes = self.nodes
        self.running = {nid for nid, n in nodes.items() if "on" in n.get("state", ())}
        self.taps = sorted(nid for nid, n in nodes.items() if "rinse" in n.get("affordances", ()))
        self.resting = bool(set(nodes["agent"].get("state", ())) & set(POSTURE.values()))

    def do(self, verb: str, *args: str) -> None:
        """Add the action that does VirtualHome's `verb` to the plan, on `args`."""
        self.plan.append(str(Action(self.verbs[verb].name, args)))

    def finished(self) -> list[str]:
        """The plan, ended by the vocabulary's action that ends a plan (`done()`)."""
        return [*self.plan, str(Action(self.vocabulary.end_schema.name))]

    def go(self, room: str) -> None:
        if room != self.here:
            self.do("WALK", room)
            self.here = room

    def step(self, action: str, names: list[str]) -> str:
        """Translate one step; why it does not translate, or ""."""
        if action not in self.verbs:  # no action of the vocabulary does it
            return f"program uses {action}"
        if action in ("WALK", "RUN"):
            target = names[0]
            room = target if self.kinds.get(target) == "room" else self.where.get(target)
            if room is not None:
                self.go(room)
        elif action == "STANDUP":
            self.do(action)
            self.resting = False
        elif action in SIMPLE:
            return self.simple(action, names[0])
        elif action in WASHES:
            return self.wash(action, names[0])
        elif action in PUT and len(names) == 2:
            return self.put(action, *names)
        else:
            return f"program uses {action}"
        return ""

    def simple(self, action: str, target: str) -> str:
        if target not in self.where:
            return f"program {action.lower()}s {target}, which has no room"
        state = NEEDS.get(action)
        need = self.verbs[action].params[0].affordance if action in NEEDS else None
        if state is not None and state not in self.nodes[target].get("state", ()):
            return f"program uses {action} on a thing that is not {state}"
        if need is not None and need not in self.nodes[target].get("affordances", ()):
            return f"program uses {action} on a thing without {need}"
        self.go(self.where[target])
        if action in ("SIT", "LIE"):
            if self.resting:  # VirtualHome sits or lies down straight from the other posture
                self.do("STANDUP")
            self.resting = True
        if action == "GRAB" and target not in self.holding:
            if len(self.holding) == self.hands:
                return HOLDS_TWO if self.hands == 1 else "program holds three objects"
            self.holding.append(target)
        self.do(action, target)
        if action == "SWITCHON":
            self.running.add(target)
        elif action == "SWITCHOFF":
            self.running.discard(target)
        return ""

    def wash(self, action: str, thing: str) -> str:
        if thing not in self.holding:
            return f"program uses {action} on what it does not hold"
        tap = next(
            (t for t in self.taps if t in self.running and self.where.get(t) == self.here), None
        )
        if tap is None:
            return f"program uses {action} with no running tap in the room"
        self.do(action, thing, tap)
        return ""

    def put(self, action: str, thing: str, target: str) -> str:
        if target not in self.where:
            return f"program puts on {target}, which has no room"
        self.go(self.where[target])
        # one-handed, the put acts on the one held object, unnamed; two-handed, it names it
        self.do(action, *((thing, target) if self.verbs[action].held_param else (target,)))
        self.where[thing] = self.where[target]
        if thing in self.holding:
            self.holding.remove(thing)
        return ""
