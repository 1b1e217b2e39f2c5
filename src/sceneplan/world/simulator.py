"""The scene-graph simulator: executes actions, verifies plans, explains failures.

>>> from sceneplan.datasets import load_environment
>>> sim = Simulator(load_environment("coffee"))
>>> print(sim.verify_plan("goto(bobs_room) > access(wardrobe1) > pickup(coffee_mug)").feedback)
step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed

A relaxed run applies the same plan's effects, ignoring the precondition that failed
(SayPlan Table 3 judges a plan's correctness apart from its executability):

>>> relaxed = sim.relaxed_run("goto(bobs_room) > access(wardrobe1) > pickup(coffee_mug)")
>>> relaxed.final_state.held, [f.cause.value for f in relaxed.ignored]
(('coffee_mug',), ['container_closed'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sceneplan.errors import PlanExecutionError, UnsupportedError
from sceneplan.graph.model import SceneGraph
from sceneplan.world.actions import Action, parse_action, parse_plan
from sceneplan.world.domain import ActionSchema
from sceneplan.world.primitives import EFFECTS, TESTS, Cause, RobotSkill
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

PlanLike = str | Iterable[str | Action | dict]


@dataclass(frozen=True)
class Failure:
    """Why one action could not run: a structured cause and the nodes involved."""

    cause: Cause
    action: Action
    facts: dict[str, str] = field(default_factory=dict)
    index: int | None = None  # position in the plan, 0-based

    @property
    def reason(self) -> str:
        """The cause in plain words, without the step prefix."""
        return self.cause.feedback.format_map(_Blank(self.facts))

    @property
    def message(self) -> str:
        """Feedback for a person or an LLM: `step 5 pickup(mug): mug is inside ...`."""
        prefix = f"step {self.index + 1} " if self.index is not None else ""
        return f"{prefix}{self.action}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The failure as JSON: cause, action, step index, facts and message."""
        return {
            "cause": self.cause.value,
            "action": str(self.action),
            "index": self.index,
            "facts": dict(self.facts),
            "message": self.message,
        }


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


class Checked:
    """What ran and either failed (`failure`) or did not: a verified plan, one step run."""

    failure: Failure | None
    success: ClassVar[str]  # the feedback when nothing failed

    @property
    def ok(self) -> bool:
        """Whether nothing failed."""
        return self.failure is None

    @property
    def feedback(self) -> str:
        """The feedback sentence: the failure's message, or `success` when nothing failed."""
        return self.success if self.failure is None else self.failure.message


@dataclass
class Verification(Checked):
    """The outcome of forward-simulating a plan.

    `ignored` holds the steps after done(), which end the plan unrun: they are
    not an error (the plan stands or falls by the steps up to done()), but they
    are listed so a caller can warn about them.
    """

    plan: list[Action]
    executed: int
    failure: Failure | None
    final_state: WorldState
    ignored: list[Action] = field(default_factory=list)

    success = "plan verified"

    def to_dict(self) -> dict[str, Any]:
        """The verification as JSON: ok, steps executed, the plan, the failure, ignored steps."""
        return {
            "ok": self.ok,
            "executed": self.executed,
            "plan": [str(a) for a in self.plan],
            "failure": self.failure.to_dict() if self.failure else None,
            "ignored": [str(a) for a in self.ignored],
        }


@dataclass
class RelaxedRun:
    """The outcome of `Simulator.relaxed_run`: the world the plan's effects lead to."""

    plan: list[Action]
    final_state: WorldState
    ignored: list[Failure]  # failed preconditions of steps applied anyway
    skipped: list[Failure]  # steps that could not be applied at all, with why

    def to_dict(self) -> dict[str, Any]:
        """The run's tolerated failures as JSON: the messages of ignored and of skipped steps."""
        return {
            "ignored": [f.message for f in self.ignored],
            "skipped": [f.message for f in self.skipped],
        }


# Failed preconditions a relaxed run cannot ignore: the effects would act on
# something that is not there (an object not in hand, no asset to put it on).
_ACTS_ON_NOTHING = frozenset({"not_holding", "nothing_accessed"})


def _held(schema: ActionSchema, binding: dict[str, str], state: WorldState) -> str | None:
    """The object an effect on "the held object" acts on, as in the PDDL faces: the
    parameter the agent must hold, else the one object it holds."""
    named = schema.held_param
    return binding[named] if named is not None else (state.held[0] if state.held else None)


def _blocks_relaxed(cause: Cause) -> bool:
    return not cause.repairable or cause.value in _ACTS_ON_NOTHING


class Simulator:
    """Executes actions of one vocabulary (SayPlan's by default) on a scene graph."""

    def __init__(self, graph: SceneGraph, vocabulary: Vocabulary = SAYPLAN):
        # an agent with two hands uses the vocabulary's two-handed form
        self.vocabulary = vocabulary.in_graph(graph)
        self.schemas: dict[str, ActionSchema] = self.vocabulary.actions
        self.graph = graph

    def initial_state(self) -> WorldState:
        """The world as the graph describes it."""
        return WorldState(self.graph)

    def check(self, state: WorldState, action: Action | str) -> Failure | None:
        """Why `action` cannot run in `state`, or None if it can. Never changes `state`."""
        if isinstance(action, str):
            action = parse_action(action)
        schema = self.schemas.get(action.name)
        if schema is None:
            return Failure(
                Cause.UNKNOWN_ACTION,
                action,
                {"action": action.name, "known": ", ".join(self.schemas)},
            )
        if len(action.args) != len(schema.params):
            return Failure(
                Cause.WRONG_ARITY,
                action,
                {
                    "action": schema.signature,
                    "expected": str(len(schema.params)),
                    "got": str(len(action.args)),
                },
            )
        for param, arg in zip(schema.params, action.args, strict=True):
            failure = self._check_param(schema, param, arg, action)
            if failure is not None:
                return failure
        return next(self._unmet(state, action, schema), None)

    def _unmet(self, state: WorldState, action: Action, schema: ActionSchema) -> Iterator[Failure]:
        """The failures of the preconditions of a well-formed action that do not hold, in order."""
        binding = schema.bind(action.args)
        for pre in schema.pre:
            facts = TESTS[pre.test].check(state, *(binding.get(a, a) for a in pre.args))
            if facts is not None:
                filled = {
                    **binding,
                    "node": action.args[0] if action.args else "",
                    "action": action.name,
                    **facts,
                }
                yield Failure(pre.cause, action, filled)

    def _check_param(self, schema, param, arg: str, action: Action) -> Failure | None:
        node = self.graph.nodes.get(arg)
        if node is None:
            hint = self.graph.suggest(arg)
            return Failure(
                Cause.UNKNOWN_NODE, action, {"node": arg, "hint": f" ({hint})" if hint else ""}
            )
        if node.kind not in param.kinds:
            expected = " or ".join(sorted(k.with_article for k in param.kinds))
            return Failure(
                Cause.WRONG_KIND,
                action,
                {
                    "node": arg,
                    "found": node.kind.with_article,
                    "action": schema.name,
                    "expected": expected,
                },
            )
        if param.affordance is not None and param.affordance not in node.affordances:
            return Failure(
                Cause.NO_AFFORDANCE,
                action,
                {
                    "node": arg,
                    "action": schema.name,
                    "affordances": ", ".join(node.affordances) or "none",
                },
            )
        return None

    def apply(self, state: WorldState, action: Action) -> None:
        """Apply an action's effects in place, without checking it (see `step`); the state
        before it joins the trail."""
        state.trail = (*state.trail, state.copy())
        self._effects(state, action)

    def _effects(self, state: WorldState, action: Action) -> None:
        schema = self.schemas[action.name]
        binding = schema.bind(action.args)
        for effect in schema.effects:
            op = EFFECTS[effect.op]
            args = (binding.get(a, a) for a in effect.args)
            if op.on_held:
                op.apply(state, *args, held=_held(schema, binding, state))  # type: ignore[call-arg]
            else:
                op.apply(state, *args)

    # -- the robot face ------------------------------------------------------------------

    def skill(self, state: WorldState, action: Action) -> RobotSkill | None:
        """The robot skill that carries out `action` from `state` (what the robot believes),
        read from its effects' robot faces (`Effect.skill`): the first effect that names
        one. None when the action asks nothing of a robot (`done`); UnsupportedError when
        no skill does what it does."""
        schema = self.schemas.get(action.name)
        if schema is None:
            raise UnsupportedError(f"'{action.name}' is not an action of {self.vocabulary}")
        if len(action.args) != len(schema.params):
            raise UnsupportedError(
                f"{schema.signature} takes {len(schema.params)} argument(s), got {len(action.args)}"
            )
        binding = schema.bind(action.args)
        named = schema.held_param
        held = binding[named] if named is not None else None
        acting = [e for e in schema.effects if not EFFECTS[e.op].bookkeeping]
        for effect in acting:
            args = (binding.get(a, a) for a in effect.args)
            found = EFFECTS[effect.op].skill(state, *args, held=held)
            if found is not None:
                return found
        if not acting:
            return None
        raise UnsupportedError(f"no robot skill carries out {action}")

    def ends_plan(self, action: Action) -> bool:
        """Whether the action only ends the plan (`done`): nothing for a robot to do."""
        schema = self.schemas.get(action.name)
        return schema is not None and schema.ends_plan

    def end_action(self) -> Action:
        """The action that ends a plan in this vocabulary (`Vocabulary.end_schema`)."""
        return Action(self.vocabulary.end_schema.name)

    def action_for(self, state: WorldState, skill: RobotSkill) -> Action | None:
        """The action of this vocabulary whose robot face is `skill` in `state` (the robot
        face read backwards: what a robot's skill does in the simulated world); None when
        no action's is. Its arguments are drawn from the skill's."""
        values = list(dict.fromkeys(v for _, v in skill.args))
        for schema in self.schemas.values():
            for args in itertools.permutations(values, len(schema.params)):
                action = Action(schema.name, args)
                try:
                    if self.skill(state, action) == skill:
                        return action
                except UnsupportedError:
                    continue
        return None

    def step(self, state: WorldState, action: Action | str) -> tuple[WorldState, Failure | None]:
        """Execute one action: the new state, or the unchanged state and the failure."""
        if isinstance(action, str):
            action = parse_action(action)
        failure = self.check(state, action)
        if failure is not None:
            return state, failure
        new = state.copy()
        new.trail = (*state.trail, state)
        self._effects(new, action)
        return new, None

    def verify_plan(self, plan: PlanLike, state: WorldState | None = None) -> Verification:
        """Forward-simulate a plan; stop at the first failing step or at done().

        Steps after done() are not run: they are returned in `ignored`.
        """
        actions = parse_plan(plan)
        current = (state or self.initial_state()).copy()
        for index, action in enumerate(actions):
            failure = self.check(current, action)
            if failure is not None:
                failure = Failure(failure.cause, action, failure.facts, index)
                return Verification(actions, index, failure, current)
            self.apply(current, action)
            if current.done:
                return Verification(actions, index + 1, None, current, actions[index + 1 :])
        return Verification(actions, len(actions), None, current)

    def relaxed_run(self, plan: PlanLike, state: WorldState | None = None) -> RelaxedRun:
        """Apply a plan's effects step by step, ignoring the preconditions that fail.

        What the plan would do if every missing step (a pose, an access, an
        open) had been taken: the world it leads to decides whether the plan is
        *correct*, apart from whether it is *executable* (SayPlan Table 3). A
        step is skipped, changing nothing, when it cannot be applied at all: an
        unknown action or node, a wrong number or kind of arguments, a node
        without the affordance, a failed precondition that no earlier step
        could repair, or one whose effects would act on something that is not
        there (releasing an object the agent does not hold, or with no asset
        accessed to put it on). The run stops after done(), as `verify_plan`.
        """
        actions = parse_plan(plan)
        current = (state or self.initial_state()).copy()
        ignored: list[Failure] = []
        skipped: list[Failure] = []
        for index, action in enumerate(actions):
            first = self.check(current, action)  # malformed steps fail here, unrepairably
            unmet = []
            if first is not None and first.cause.repairable:
                unmet = list(self._unmet(current, action, self.schemas[action.name]))
            blocking = next((f for f in [first, *unmet] if f and _blocks_relaxed(f.cause)), None)
            if blocking is not None:
                skipped.append(Failure(blocking.cause, action, blocking.facts, index))
                continue
            ignored += [Failure(f.cause, action, f.facts, index) for f in unmet]
            self.apply(current, action)
            if current.done:
                break
        return RelaxedRun(actions, current, ignored, skipped)

    def run(self, plan: PlanLike, state: WorldState | None = None) -> WorldState:
        """The final world state of an executable plan; a failing plan raises PlanExecutionError."""
        result = self.verify_plan(plan, state)
        if result.failure is not None:
            raise PlanExecutionError(f"the plan is not executable: {result.feedback}")
        return result.final_state

    def offered_actions(self) -> list[str]:
        """The vocabulary's actions this scene can use, for prompts: those whose every
        parameter that needs an affordance has a node affording it (no `plug_in` where
        nothing plugs in), and those `only_with` another offered one."""
        afforded = {(n.kind, a) for n in self.graph for a in n.affordances}
        names = {name for name, s in self.schemas.items() if s.afforded(afforded)}
        return [
            name
            for name, s in self.schemas.items()
            if name in names and (not s.only_with or names.intersection(s.only_with))
        ]

    def describe_actions(self, conditions: bool = False) -> list[str]:
        """One line per action of the vocabulary, for prompts; with `conditions`, each
        line also says what must hold (the preconditions' prompt wording)."""
        lines = []
        for s in self.schemas.values():
            needs = "; ".join(s.conditions()) if conditions else ""
            lines.append(f"{s.signature}: {s.doc}" + (f" Needs: {needs}." if needs else ""))
        return lines
