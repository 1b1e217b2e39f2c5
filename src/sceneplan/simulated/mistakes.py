"""The errors the stand-in makes: each changes a drafted reply and says what it changed.

`plan_errors` and `step_errors` list, for a written plan and for one next action, the
errors that could apply to it (`Draft.errors`), from which the provider draws; the
functions below them make a near name, another action, a malformed reply.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from sceneplan.errors import PlanParseError
from sceneplan.simulated.knowledge import Knowledge
from sceneplan.simulated.profiles import MALFORMED_FORMS, Kind
from sceneplan.simulated.prompt import Draft, Prompt
from sceneplan.world.actions import Action, parse_action


def plan_errors(draft: Draft, prompt: Prompt, knowledge: Knowledge, key: str) -> None:
    """The errors a written plan (`draft.data[key]`) can carry."""
    vocabulary = prompt.vocabulary()
    simulator = knowledge.simulator(vocabulary)
    moves = knowledge.moves(vocabulary)
    steps: list[str] = draft.data[key]
    actions = [_parse(s) for s in steps]
    acting = [i for i, a in enumerate(actions) if a is not None and a.name not in moves]
    enabling = [i for i in acting if _enables(simulator, actions[i])]  # type: ignore[arg-type]
    poses = [
        i
        for i, a in enumerate(actions)
        if a is not None and a.name in moves and knowledge.is_pose(a.args[0])
    ]

    def drop(indices: list[int], what: str) -> Callable[[Random], str]:
        def make(rng: Random) -> str:
            index = rng.choice(indices)
            removed = steps.pop(index)
            return f"{what} {removed} left out"

        return make

    if acting:

        def hallucinate(rng: Random) -> str:
            index = rng.choice([i for i in acting if actions[i].args])  # type: ignore[union-attr]
            steps[index] = _with_near_name(actions[index], knowledge, rng)  # type: ignore[arg-type]
            return f"{steps[index]} for {actions[index]}"

        def wrong(rng: Random) -> str:
            index = rng.choice(acting)
            other = _other_action(actions[index], simulator, moves, rng)  # type: ignore[arg-type]
            if other is None:
                return ""
            steps[index] = other
            return f"{other} for {actions[index]}"

        if any(actions[i].args for i in acting):  # type: ignore[union-attr]
            draft.errors[Kind.HALLUCINATED_NODE] = hallucinate
        draft.errors[Kind.WRONG_ACTION] = wrong
    if enabling:
        draft.errors[Kind.MISSING_ACTION] = drop(enabling, "precondition step")
    if poses and prompt.writes_poses():
        draft.errors[Kind.MISSING_POSE] = drop(poses, "pose step")


def step_errors(
    draft: Draft,
    prompt: Prompt,
    knowledge: Knowledge,
    state: Any,
    rest: list[Action],
    put: Callable[[str], None],
) -> Draft:
    """The errors one next action can carry in `state`; `put` writes a changed action into
    the reply. Skipping a precondition step is one only where the step after it then
    cannot run."""
    if not rest:
        return draft
    vocabulary = prompt.vocabulary()
    simulator = knowledge.simulator(vocabulary)
    moves = knowledge.moves(vocabulary)
    action = rest[0]

    def put_as(text: str, detail: str) -> str:
        put(text)
        return detail

    if action.args:
        draft.errors[Kind.HALLUCINATED_NODE] = lambda rng: put_as(
            wrong := _with_near_name(action, knowledge, rng), f"{wrong} for {action}"
        )
    if action.name not in moves:
        other = _other_action(action, simulator, moves, Random(str(action)))
        if other is not None:
            draft.errors[Kind.WRONG_ACTION] = lambda rng: put_as(other, f"{other} for {action}")
    if len(rest) > 1 and _enables(simulator, action) and simulator.check(state, rest[1]):

        def skip(rng: Random) -> str:
            knowledge.skipped.add(str(action))
            return put_as(str(rest[1]), f"{rest[1]} before its precondition {action}")

        draft.errors[Kind.MISSING_ACTION] = skip
        if str(action) in knowledge.skipped:  # the belief persists: skipped again
            draft.persisting = skip
    end = str(simulator.end_action())
    draft.errors[Kind.EARLY_STOP] = lambda rng: put_as(end, f"{end} with {len(rest)} step(s) left")
    return draft


# -- what an error changes ---------------------------------------------------------------------


def near_name(node: str, knowledge: Knowledge, rng: Random) -> str:
    """A name like `node` that the scene does not have (`desk4` -> `desk7`, `fridge` ->
    `fridge2`): what a model that misremembers a node writes.

    >>> from sceneplan.datasets import load_environment
    >>> from sceneplan.world.task import Task
    >>> k = Knowledge(Task(id="t", suite="s", family="simple_planning",
    ...     environment="coffee", instruction="x", goal="open(fridge)"),
    ...     load_environment("coffee"))
    >>> near_name("fridge", k, Random(0)) in k.graph.nodes
    False
    """
    base = node.rstrip("0123456789") or node
    for number in rng.sample(range(1, 20), 19):
        candidate = f"{base}{number}"
        if candidate not in knowledge.graph.nodes:
            return candidate
    return f"{node}_x"


def _with_near_name(action: Action, knowledge: Knowledge, rng: Random) -> str:
    index = rng.randrange(len(action.args))
    args = list(action.args)
    args[index] = near_name(args[index], knowledge, rng)
    return str(Action(action.name, tuple(args)))


def _other_action(action: Action, simulator: Any, moves: frozenset[str], rng: Random) -> str | None:
    """Another action of the vocabulary on the same nodes (not a move, not the end)."""
    others = sorted(
        name
        for name, schema in simulator.schemas.items()
        if name != action.name
        and name not in moves
        and not schema.ends_plan
        and len(schema.params) == len(action.args)
        and name in simulator.offered_actions()
    )
    return str(Action(rng.choice(others), action.args)) if others else None


def _enables(simulator: Any, action: Action) -> bool:
    """Whether an action only makes another possible: its effects access an asset or open
    something (a precondition step, which a model may skip)."""
    schema = simulator.schemas.get(action.name)
    if schema is None or not schema.effects:
        return False
    return all(
        e.op == "set_accessed" or (e.op == "set_state" and e.args[1:] == ("open",))
        for e in schema.effects
    )


def _parse(step: str) -> Action | None:
    try:
        return parse_action(step)
    except PlanParseError:
        return None


# -- malformed replies -------------------------------------------------------------------------


def malformed(text: str, data: dict[str, Any], rng: Random) -> tuple[str, str]:
    """`text` (the JSON of `data`) made unusable in one of `MALFORMED_FORMS`; and which."""
    form = rng.choice(MALFORMED_FORMS)
    if form == "not_json":
        return "I will now take the next step towards the goal.", form
    if form == "missing_field" and data:
        dropped = dict(data)
        dropped.pop(rng.choice(sorted(dropped)))
        return json.dumps(dropped), form
    if form == "code_fence":
        return f"```json\n{text}\n```", form
    return f"<think>Let me look at the scene first.</think>\n{text}", "thinking"
