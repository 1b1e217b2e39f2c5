"""The skills a robot offers, one call and its result, as plain JSON-ready data.

A `SkillCall` names one skill and its arguments (node ids of the scene
graph); a `SkillResult` says whether it worked, why not (a `Reason`), and
what the robot observed while doing it: the objects it saw and where they
rest (`Seen`), the surfaces it saw whole (so that what it did not see there
is known to be gone), the state words it read, where it is and what it
holds. `HttpRobot` sends exactly these dicts (docs/execute.md has the JSON
schema of each call and of the reply).

>>> call = SkillCall("place", {"object": "orange1", "asset": "fridge", "relation": "inside"})
>>> str(call), call.to_dict()["skill"]
('place(orange1, fridge, inside)', 'place')
>>> SkillResult.from_dict({"ok": False, "reason": "grasp_failed"}, call).reason.value
'grasp_failed'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph.model import Relation
from sceneplan.world.memory import Observation


class RobotUnavailableError(BackendUnavailableError):
    """The robot could not be reached or did not answer (server down, timeout, HTTP error)."""


class RobotReplyError(BadInputError):
    """A robot's reply that does not have the documented shape, or names an unknown node."""


MAX_ITEMS = 100_000  # objects (or surfaces) one reply may list; a large building has ~10,000


class Skill(StrEnum):
    """What a robot can be asked to do."""

    NAVIGATE = "navigate"  # go to a room or pose
    ACCESS = "access"  # reach an asset in the current room
    PICK = "pick"  # grasp an object
    PLACE = "place"  # put the held object on or inside an asset
    OPEN = "open"
    CLOSE = "close"
    SWITCH_ON = "switch_on"
    SWITCH_OFF = "switch_off"
    LOOK = "look"  # observe an asset (on it, or inside it)


# The arguments of each skill, in order. `relation` is "on" or "inside".
SKILL_ARGS: dict[Skill, tuple[str, ...]] = {
    Skill.NAVIGATE: ("target",),
    Skill.ACCESS: ("asset",),
    Skill.PICK: ("object",),
    Skill.PLACE: ("object", "asset", "relation"),
    Skill.OPEN: ("target",),
    Skill.CLOSE: ("target",),
    Skill.SWITCH_ON: ("target",),
    Skill.SWITCH_OFF: ("target",),
    Skill.LOOK: ("asset", "relation"),
}

# The words of `relation` arguments, and the graph relation each stands for.
PLACE_WORDS: dict[str, Relation] = {"on": Relation.ONTOP_OF, "inside": Relation.INSIDE_OF}


class Reason(StrEnum):
    """Why a skill failed: what the executor acts on (never the message text)."""

    BLOCKED = "blocked"  # the way (a door, a room) is blocked; `node` names it
    UNREACHABLE = "unreachable"  # not reachable from where the robot is
    NOT_FOUND = "not_found"  # the object is not where the robot went for it
    GRASP_FAILED = "grasp_failed"  # the object is there, the grasp did not hold
    STUCK = "stuck"  # the container will not open (locked, jammed)
    CLOSED = "closed"  # the container is closed
    HAND_FULL = "hand_full"
    NOT_HOLDING = "not_holding"
    FAILED = "failed"  # any other failure; `message` says what


@dataclass(frozen=True)
class SkillCall:
    """One skill with its arguments."""

    skill: Skill
    args: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "skill", Skill(self.skill))
        wanted = SKILL_ARGS[self.skill]
        if set(self.args) != set(wanted):
            raise BadInputError(
                f"skill {self.skill.value} takes {', '.join(wanted)}; got {', '.join(self.args)}"
            )
        if "relation" in self.args and self.args["relation"] not in PLACE_WORDS:
            raise BadInputError(
                f"skill {self.skill.value}: relation must be on or inside, "
                f"not {self.args['relation']!r}"
            )

    def __str__(self) -> str:
        return f"{self.skill.value}({', '.join(self.args[a] for a in SKILL_ARGS[self.skill])})"

    @property
    def target(self) -> str:
        """The node the skill acts on (the object, for pick and place)."""
        args = self.args
        return args.get("target") or args.get("object") or args.get("asset") or ""

    def to_dict(self) -> dict[str, Any]:
        return {"skill": self.skill.value, **self.args}


@dataclass(frozen=True)
class Seen:
    """An object the robot saw, and where it rests (`parent`, `relation`).

    `new` marks an object the robot detected that the scene graph does not
    hold; `category` is then what it is ("mug").
    """

    id: str
    parent: str
    relation: Relation
    states: tuple[str, ...] = ()
    new: bool = False
    category: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "parent": self.parent,
            "relation": self.relation.value,
            "states": list(self.states),
        }
        if self.new:
            out["new"] = True
        if self.category is not None:
            out["category"] = self.category
        return out

    def to_observation(self) -> Observation:
        """The sighting as a look's observation, the form every recorded step keeps.

        A node the scene graph holds stands for itself (`truth`); a new one
        stands for no known node.
        """
        return Observation(
            name=self.category or self.id,
            category=self.category,
            relation=self.relation,
            related_to=self.parent,
            states=self.states,
            truth=None if self.new else self.id,
            id=self.id,
        )


@dataclass
class SkillResult:
    """What one skill call did and what the robot observed meanwhile.

    `surfaces` are the (asset, relation) pairs the robot saw whole: an object
    the scene graph puts there that is not in `seen` is not there any more.
    `states` are the state words read off nodes (a fridge's `closed`). `node`
    names the node a failure is about when it is not the call's target (the
    blocked room on the way).
    """

    ok: bool
    reason: Reason | None = None
    message: str = ""
    node: str | None = None
    at: str | None = None
    holding: str | None = None
    seen: list[Seen] = field(default_factory=list)
    surfaces: list[tuple[str, Relation]] = field(default_factory=list)
    states: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "reason": self.reason.value if self.reason else None,
            "message": self.message,
            "node": self.node,
            "at": self.at,
            "holding": self.holding,
            "seen": [s.to_dict() for s in self.seen],
            "surfaces": [{"asset": a, "relation": r.value} for a, r in self.surfaces],
            "states": {k: list(v) for k, v in self.states.items()},
        }

    @classmethod
    def from_dict(cls, data: Any, call: SkillCall | str = "") -> SkillResult:
        """Read a reply; anything of the wrong shape raises RobotReplyError naming the field."""
        where = f"robot reply to {call}" if call else "robot reply"
        if not isinstance(data, dict):
            raise RobotReplyError(f"{where}: expected a JSON object, got {_short(data)}")
        known = {"ok", "reason", "message", "node", "at", "holding", "seen", "surfaces", "states"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RobotReplyError(
                f"{where}: unknown field(s) {', '.join(unknown)}; the fields are "
                + ", ".join(sorted(known))
            )
        ok = data.get("ok")
        if not isinstance(ok, bool):
            raise RobotReplyError(f"{where}: 'ok' must be true or false, got {_short(ok)}")
        reason = data.get("reason")
        if reason is not None:
            if reason not in Reason.__members__.values():
                raise RobotReplyError(
                    f"{where}: unknown reason {_short(reason)}; one of "
                    + ", ".join(r.value for r in Reason)
                )
            reason = Reason(reason)
        elif not ok:
            reason = Reason.FAILED
        return cls(
            ok=ok,
            reason=None if ok else reason,
            message=_text(data, "message", where) or "",
            node=_text(data, "node", where),
            at=_text(data, "at", where),
            holding=_text(data, "holding", where),
            seen=[
                _seen(item, f"{where}: seen[{i}]")
                for i, item in enumerate(_list(data, "seen", where))
            ],
            surfaces=[
                _surface(item, f"{where}: surfaces[{i}]")
                for i, item in enumerate(_list(data, "surfaces", where))
            ],
            states=_states(data.get("states"), where),
        )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _text(data: dict, key: str, where: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise RobotReplyError(f"{where}: '{key}' must be a string or null, got {_short(value)}")
    return value


def _list(data: dict, key: str, where: str = "robot reply") -> list:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise RobotReplyError(f"{where}: '{key}' must be a list, got {_short(value)}")
    if len(value) > MAX_ITEMS:
        raise RobotReplyError(
            f"{where}: '{key}' lists {len(value):,} items, more than the {MAX_ITEMS:,} "
            "one reply may hold (docs/execute.md)"
        )
    return value


def _relation(value: Any, where: str) -> Relation:
    words = {r.value: r for r in (Relation.ONTOP_OF, Relation.INSIDE_OF)}
    words |= {w: r for w, r in PLACE_WORDS.items()}
    if not isinstance(value, str) or value not in words:
        raise RobotReplyError(
            f"{where}: 'relation' must be one of ontop_of, inside_of, got {_short(value)}"
        )
    return words[value]


def _seen(item: Any, where: str) -> Seen:
    if not isinstance(item, dict):
        raise RobotReplyError(f"{where}: expected an object, got {_short(item)}")
    for key in ("id", "parent"):
        if not isinstance(item.get(key), str) or not item[key]:
            raise RobotReplyError(
                f"{where}: '{key}' must be a node id, got {_short(item.get(key))}"
            )
    states = _words(item.get("states"), where)
    new = item.get("new", False)
    if not isinstance(new, bool):
        raise RobotReplyError(f"{where}: 'new' must be true or false, got {_short(new)}")
    return Seen(
        item["id"],
        item["parent"],
        _relation(item.get("relation"), where),
        tuple(states),
        new,
        _text(item, "category", where),
    )


def _surface(item: Any, where: str) -> tuple[str, Relation]:
    if not isinstance(item, dict) or not isinstance(item.get("asset"), str):
        raise RobotReplyError(f"{where}: expected {{'asset': ID, 'relation': ...}}, got {item!r}")
    return item["asset"], _relation(item.get("relation"), where)


def _words(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise RobotReplyError(f"{where}: 'states' must be a list of words, got {_short(value)}")
    return list(value)


def _states(value: Any, where: str) -> dict[str, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RobotReplyError(
            f"{where}: 'states' must map node ids to lists of words, got {_short(value)}"
        )
    return {k: _words(v, f"{where}: states[{k!r}]") for k, v in value.items()}
