"""The robot interface: skills that return success or a reason, and what was observed.

A robot is a `Robot`: the public skill methods (`navigate`, `pick`, ...)
build a `SkillCall` and go through `perform`, which checks the call and the
result's type; a back end implements `_perform` only. `SimulatedRobot`
(`sim.py`) acts in a simulated true world with injected faults, `HttpRobot`
(`http.py`) sends each call to a server as JSON.

`skill_for` turns a plan's action (either vocabulary) into the skill call
that carries it out, reading what it needs (the accessed asset, whether a
release puts the object inside) from the executor's belief.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from sceneplan.errors import BadInputError
from sceneplan.execute.skills import PLACE_WORDS, Skill, SkillCall, SkillResult
from sceneplan.graph.model import Relation
from sceneplan.world.actions import Action
from sceneplan.world.state import WorldState


class Robot(ABC):
    """A robot that runs skills. Subclasses set `name` and implement `_perform`."""

    name: ClassVar[str] = "robot"

    async def perform(self, call: SkillCall) -> SkillResult:
        """Run one skill call; a failure is a result with a reason, never an exception.

        Errors of the robot itself (unreachable, a reply of the wrong shape)
        raise a SceneplanError (`RobotUnavailableError`, `RobotReplyError`).
        """
        result = await self._perform(call)
        if not isinstance(result, SkillResult):
            raise TypeError(f"{type(self).__name__}._perform must return a SkillResult")
        return result

    @abstractmethod
    async def _perform(self, call: SkillCall) -> SkillResult:
        """Run the call on the robot."""

    def describe(self) -> dict:
        """What the Episode records about the robot (name, settings)."""
        return {"robot": self.name}

    def true_state(self) -> WorldState | None:
        """The true world, where the robot has one to show (a simulator); None for a real one."""
        return None

    async def aclose(self) -> None:
        """Release what the robot holds open (connections); nothing by default."""
        return None

    # -- the skills ----------------------------------------------------------------------

    async def navigate(self, target: str) -> SkillResult:
        """Go to a room or a pose."""
        return await self.perform(SkillCall(Skill.NAVIGATE, {"target": target}))

    async def access(self, asset: str) -> SkillResult:
        """Reach an asset of the current room (and what is on or in it)."""
        return await self.perform(SkillCall(Skill.ACCESS, {"asset": asset}))

    async def pick(self, obj: str) -> SkillResult:
        return await self.perform(SkillCall(Skill.PICK, {"object": obj}))

    async def place(self, obj: str, asset: str, relation: str = "on") -> SkillResult:
        """Put the held object `on` or `inside` an asset."""
        args = {"object": obj, "asset": asset, "relation": relation}
        return await self.perform(SkillCall(Skill.PLACE, args))

    async def open(self, target: str) -> SkillResult:
        return await self.perform(SkillCall(Skill.OPEN, {"target": target}))

    async def close(self, target: str) -> SkillResult:
        return await self.perform(SkillCall(Skill.CLOSE, {"target": target}))

    async def switch(self, target: str, on: bool) -> SkillResult:
        skill = Skill.SWITCH_ON if on else Skill.SWITCH_OFF
        return await self.perform(SkillCall(skill, {"target": target}))

    async def look(self, asset: str, relation: str = "on") -> SkillResult:
        """Observe what is `on` or `inside` an asset."""
        return await self.perform(SkillCall(Skill.LOOK, {"asset": asset, "relation": relation}))


_SAME: dict[str, Skill] = {
    "goto": Skill.NAVIGATE,
    "go_to": Skill.NAVIGATE,
    "access": Skill.ACCESS,
    "pickup": Skill.PICK,
    "pick_up": Skill.PICK,
    "open": Skill.OPEN,
    "close": Skill.CLOSE,
    "turn_on": Skill.SWITCH_ON,
    "turn_off": Skill.SWITCH_OFF,
}
_ARG = {
    Skill.NAVIGATE: "target",
    Skill.ACCESS: "asset",
    Skill.PICK: "object",
    Skill.OPEN: "target",
    Skill.CLOSE: "target",
    Skill.SWITCH_ON: "target",
    Skill.SWITCH_OFF: "target",
}
_WORD = {relation: word for word, relation in PLACE_WORDS.items()}


def skill_for(action: Action, belief: WorldState) -> SkillCall | None:
    """The skill call that carries out a plan action; None for `done` (no robot call).

    `release(o)` places o on the accessed asset, inside when it is an open
    container (the SayPlan semantics); `put_on(a)` / `put_inside(a)` place
    the held object.
    """
    name, args = action.name, action.args
    if name == "done":
        return None
    skill = _SAME.get(name)
    if skill is not None and len(args) == 1:
        return SkillCall(skill, {_ARG[skill]: args[0]})
    if name == "release" and len(args) == 1:
        asset = belief.accessed
        if asset is None:
            raise BadInputError(f"{action}: no asset is accessed to release {args[0]} on")
        inside = belief.is_container(asset) and "open" in belief.states(asset)
        relation = "inside" if inside else "on"
        return SkillCall(Skill.PLACE, {"object": args[0], "asset": asset, "relation": relation})
    if name in ("put_on", "put_inside") and len(args) in (1, 2):
        # put_on(a) puts down the one held object; two-handed, put_on(o, a) names it
        if len(args) == 2:
            held, target = args
        elif len(belief.held) == 1:
            held, target = belief.held[0], args[0]
        else:
            raise BadInputError(f"{action}: the robot holds {belief.held_text()}, not one object")
        relation = "on" if name == "put_on" else "inside"
        return SkillCall(Skill.PLACE, {"object": held, "asset": target, "relation": relation})
    if name in ("look_on", "look_inside") and len(args) == 1:
        relation = _WORD[Relation.ONTOP_OF if name == "look_on" else Relation.INSIDE_OF]
        return SkillCall(Skill.LOOK, {"asset": args[0], "relation": relation})
    raise BadInputError(f"no robot skill carries out {action}")
