"""The robot interface: skills that return success or a reason, and what was observed.

A robot is a `Robot`: the public skill methods (`navigate`, `pick`, ...)
build a `SkillCall` and go through `perform`, which checks the call and the
result's type; a back end implements `_perform` only. `SimulatedRobot`
(`sim.py`) acts in a simulated true world with injected faults, `HttpRobot`
(`http.py`) sends each call to a server as JSON.

`skill_for` turns a plan's action into the skill call that carries it out:
the action schema's robot face (`world`), read on the executor's belief; no
table here names an action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from sceneplan.errors import BadInputError, UnsupportedError
from sceneplan.execute.skills import PLACE_WORDS, SKILL_ARGS, Skill, SkillCall, SkillResult
from sceneplan.graph.model import Relation
from sceneplan.world.actions import Action
from sceneplan.world.primitives import RobotSkill
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary


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


def skill_for(
    action: Action, belief: WorldState, vocabulary: Vocabulary = SAYPLAN
) -> SkillCall | None:
    """The skill call that carries out a plan action of `vocabulary`; None for an action
    that asks nothing of a robot (`done`).

    The skill and its arguments are the action schema's robot face
    (`Simulator.skill`), read on the executor's belief: `release(o)` places o
    on the accessed asset, inside it when the simulator would (an open
    container, or one without a lid).
    """
    try:
        found = Simulator(belief.graph, vocabulary).skill(belief, action)
    except UnsupportedError as exc:
        raise BadInputError(f"{action}: {exc}") from None
    if found is None:
        return None
    args = dict(found.args)
    if "relation" in args:
        args["relation"] = _WORD[Relation(args["relation"])]
    return SkillCall(Skill(found.skill), args)


def robot_skill(call: SkillCall) -> RobotSkill:
    """A skill call as the world's robot face states it (relation words as graph relations):
    what `Simulator.action_for` reads back into an action."""
    args = dict(call.args)
    if "relation" in args:
        args["relation"] = PLACE_WORDS[args["relation"]].value
    return RobotSkill(call.skill.value, tuple((k, args[k]) for k in SKILL_ARGS[call.skill]))


_WORD = {relation: word for word, relation in PLACE_WORDS.items()}


def action_for(
    call: SkillCall, belief: WorldState, vocabulary: Vocabulary = SAYPLAN
) -> Action | None:
    """The action of `vocabulary` whose robot face is `call` on the belief (what the
    executor plans a look or a search step with); None when the vocabulary has none."""
    return Simulator(belief.graph, vocabulary).action_for(belief, robot_skill(call))
