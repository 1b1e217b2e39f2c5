"""The stand-in's replies: the correct one in the planner's own reply schema, and its errors.

A request is recognised by its reply schema (the planners' `replies` and
`react_replies` models, by title) and read like a model reads it: the instruction, the
graph, the memory of a search, the robot line. The correct reply is built from what the
stand-in knows (`Knowledge`); each error that could apply to it is a function that
changes the reply and says how (`Draft.errors`), from which `perturb` draws.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from sceneplan.errors import PlanParseError
from sceneplan.graph.model import NodeKind, Relation
from sceneplan.planners.dialogue import render
from sceneplan.planners.shared import action_doing
from sceneplan.simulated.knowledge import Knowledge
from sceneplan.simulated.profiles import MALFORMED_FORMS, Kind
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.domain import VOCABULARIES

_FIELD = re.compile(
    r"^(Instruction|3D scene graph|Scene graph now|Scene graph|Memory graph|Memory|Robot"
    r"|Feedback|Observation|Collapsed scene graph): (.*)$",
    re.MULTILINE,
)
_LISTED = re.compile(r"^- ([a-z_]+)\(", re.MULTILINE)
THOUGHT = "The scene shows what is needed; this is the next step towards the goal."


@dataclass
class Prompt:
    """What the stand-in reads in a request: the reply asked for, the system prompt and the
    labelled fields of the latest turn that carries the instruction."""

    schema: str
    system: str
    fields: dict[str, str]

    @classmethod
    def read(cls, messages: Sequence[tuple[str, str]], schema: str) -> Prompt:
        system = next((text for role, text in messages if role == "system"), "")
        turn = next(
            (
                text
                for role, text in reversed(messages)
                if role == "user" and "Instruction:" in text
            ),
            "",
        )
        return cls(schema, system, {m.group(1): m.group(2) for m in _FIELD.finditer(turn)})

    @property
    def instruction(self) -> str:
        return self.fields.get("Instruction", "").strip()

    def vocabulary(self) -> str:
        """The vocabulary whose actions the system prompt lists (the fewest unknown names,
        then the most known ones, then the smallest vocabulary)."""
        listed = set(_LISTED.findall(self.system))
        names = list(VOCABULARIES)

        def score(name: str) -> tuple[int, int, int]:
            actions = set(VOCABULARIES[name])
            return (len(listed - actions), -len(listed & actions), len(actions))

        return min(names, key=score) if listed else "sayplan"

    def writes_poses(self) -> bool:
        """Whether the model is told to move pose by pose (no path planner)."""
        return any(render(t) in self.system for t in ("sayplan_nav_poses.md", "react_nav_poses.md"))


@dataclass
class Draft:
    """A correct reply, and the errors that could be made in it: kind -> a function that
    makes that error in `data` and says what it changed."""

    data: dict[str, Any]
    errors: dict[Kind, Callable[[Random], str]] = field(default_factory=dict)
    persisting: Callable[[Random], str] | None = None  # an error the model keeps making


def draft(prompt: Prompt, knowledge: Knowledge) -> Draft:
    """The correct reply to `prompt`, with its possible errors."""
    builder = _BUILDERS.get(prompt.schema)
    if builder is None:  # a schema of no planner: an empty object of it
        return Draft({})
    return builder(prompt, knowledge)


# -- the SayPlan family: search turns and plans ------------------------------------------


def _search(prompt: Prompt, knowledge: Knowledge) -> Draft:
    vocabulary = prompt.vocabulary()
    try:
        memory = set(json.loads(prompt.fields.get("Memory", "[]")))
    except ValueError:
        memory = set()
    todo = [room for room in knowledge.needed_rooms(vocabulary) if room not in memory]
    data: dict[str, Any] = {"chain_of_thought": THOUGHT, "reasoning": THOUGHT}
    find = prompt.schema == "FindReply"
    with_plan = prompt.schema == "PlanningSearchReply"
    draft = Draft(data)

    def switch() -> None:
        data.update(mode="planning", command=None)
        if find:
            data["answer"] = knowledge.answer()
        if with_plan:
            data["plan"] = _plan_text(prompt, knowledge)
            _plan_errors(draft, prompt, knowledge, "plan")

    if todo:
        data.update(mode="exploring", command={"name": "expand", "node": todo[0]})
        if find:
            data["answer"] = []
        if with_plan:
            data["plan"] = None
        command = data["command"]

        def hallucinate(rng: Random) -> str:
            wrong = near_name(command["node"], knowledge, rng)
            command["node"] = wrong
            return f"expand({wrong}) for expand({todo[0]})"

        def stop_early(rng: Random) -> str:
            switch()
            return f"switched to planning with {len(todo)} room(s) unexplored: {', '.join(todo)}"

        def wrong_command(rng: Random) -> str:
            command["name"] = "contract"
            return f"contract({todo[0]}) for expand({todo[0]})"

        draft.errors.update(
            {
                Kind.HALLUCINATED_NODE: hallucinate,
                Kind.EARLY_STOP: stop_early,
                Kind.WRONG_ACTION: wrong_command,
            }
        )
        return draft
    switch()
    if find and data["answer"]:

        def wrong_answer(rng: Random) -> str:
            wrong = near_name(data["answer"][0], knowledge, rng)
            data["answer"] = [wrong, *data["answer"][1:]]
            return f"answer {wrong}"

        draft.errors[Kind.HALLUCINATED_NODE] = wrong_answer
    return draft


def _plan(prompt: Prompt, knowledge: Knowledge) -> Draft:
    data = {
        "chain_of_thought": THOUGHT,
        "reasoning": THOUGHT,
        "plan": _plan_text(prompt, knowledge),
    }
    draft = Draft(data)
    _plan_errors(draft, prompt, knowledge, "plan")
    return draft


def _plan_text(prompt: Prompt, knowledge: Knowledge) -> list[str]:
    """The plan to the goal from the start, as the prompt asks for it: with every pose, or
    with the rooms only (the path planner fills in the poses)."""
    vocabulary = prompt.vocabulary()
    plan = knowledge.plan(vocabulary) or []
    if not prompt.writes_poses():
        moves = knowledge.moves(vocabulary)
        plan = [a for a in plan if not (a.name in moves and knowledge.is_pose(a.args[0]))]
    return [str(a) for a in plan]


def _plan_errors(draft: Draft, prompt: Prompt, knowledge: Knowledge, key: str) -> None:
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


# -- next-action loops: ReAct (react, react_pv, SCLPlan) and LookPlanGraph ------------------


def _react(prompt: Prompt, knowledge: Knowledge) -> Draft:
    vocabulary = prompt.vocabulary()
    state = knowledge.state_shown(
        prompt.fields.get("Scene graph now", "{}"), prompt.fields.get("Robot"), vocabulary
    )
    rest = _next_actions(prompt, knowledge, vocabulary, knowledge.plan(vocabulary, state))
    end = str(knowledge.simulator(vocabulary).end_action())
    data = {"thought": THOUGHT, "action": str(rest[0]) if rest else end}
    put = lambda a: data.update(action=a)  # noqa: E731
    return _step_errors(Draft(data), prompt, knowledge, state, rest, put)


def _lookplangraph(prompt: Prompt, knowledge: Knowledge) -> Draft:
    vocabulary = prompt.vocabulary()
    graph = prompt.fields.get("Memory graph", "{}")
    state = knowledge.state_shown(graph, None, vocabulary)
    rest = _next_actions(prompt, knowledge, vocabulary, knowledge.plan(vocabulary, state))
    if rest:
        shown = knowledge.shown_nodes(graph)
        named, reached = _touched(knowledge, vocabulary, rest[0])
        unseen = [n for n in named if n not in shown]
        # what an appliance acts on is looked at only where nothing must be opened for it
        unseen += [n for n in reached if n not in shown and _in_sight(knowledge, state, n)]
        if unseen:
            rest = [_towards_look(knowledge, vocabulary, state, unseen[0])]
    end = knowledge.simulator(vocabulary).end_action()
    move: dict[str, str] = {}
    data = {"chain_of_thought": THOUGHT, "next_move": move}

    def set_move(text: str) -> None:
        name, _, args = text.partition("(")
        move.update(function_name=name, function_target=args.rstrip(")"))

    set_move(str(rest[0]) if rest else str(end))
    return _step_errors(Draft(data), prompt, knowledge, state, rest, set_move)


def _next_actions(
    prompt: Prompt, knowledge: Knowledge, vocabulary: str, plan: list[Action] | None
) -> list[Action]:
    """The plan from here, its first step the one to take now (with a path planner, the
    poses on the way are left to it)."""
    plan = plan or []
    if prompt.writes_poses():
        return plan
    moves = knowledge.moves(vocabulary)
    return [a for a in plan if not (a.name in moves and knowledge.is_pose(a.args[0]))]


def _touched(knowledge: Knowledge, vocabulary: str, action: Action) -> tuple[list[str], list[str]]:
    """The objects an action acts on: those it names, and those the goal names (by id or
    category) in or on an appliance it switches on (whose effect reaches them)."""
    graph, schemas = knowledge.graph, knowledge.simulator(vocabulary).schemas
    named = [a for a in action.args if a in graph.nodes and graph.nodes[a].kind is NodeKind.OBJECT]
    reached: list[str] = []
    schema = schemas.get(action.name)
    if schema is not None and any(e.op == "apply_appliance" for e in schema.effects):
        words = set(re.findall(r"\w+", knowledge.task.goal or ""))
        reached = [
            c
            for c in graph.children(action.args[0])
            if graph.nodes[c].kind is NodeKind.OBJECT and {c, graph.nodes[c].category} & words
        ]
    return named, reached


def _in_sight(knowledge: Knowledge, state: Any, node: str) -> bool:
    """Whether a look can show `node` without opening anything."""
    holder = knowledge.graph.nodes[node].parent or ""
    inside = knowledge.graph.nodes[node].relation is Relation.INSIDE_OF
    return not (inside and "closed" in state.states(holder))


def _towards_look(knowledge: Knowledge, vocabulary: str, state: Any, node: str) -> Action:
    """The next step towards seeing `node`, which memory lacks: go to the room of what
    holds it, open that if it is closed, look on or inside it (as the oracle does)."""
    simulator = knowledge.simulator(vocabulary)
    truth = knowledge.graph
    holder = truth.nodes[node].parent or ""
    relation = truth.nodes[node].relation or Relation.ONTOP_OF
    room = truth.room_of(holder)
    if room is not None and truth.room_of(state.agent_at) != room and state.agent_at != room:
        return action_doing(simulator, "move_agent", room)
    if relation is Relation.INSIDE_OF and "closed" in state.states(holder):
        return action_doing(simulator, "set_state", holder, "open")
    return action_doing(simulator, "observe", holder, relation.value)


def _step_errors(
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


# -- SCLPlan's goal, ReAct's rooms -------------------------------------------------------------


def _goal(prompt: Prompt, knowledge: Knowledge) -> Draft:
    goal = knowledge.task.goal or "true"
    data = {"reasoning": THOUGHT, "goal": goal}
    draft = Draft(data)
    named = [n for n in re.findall(r"[A-Za-z_][\w]*", goal) if n in knowledge.graph.nodes]
    objects = [n for n in named if knowledge.graph.nodes[n].kind is NodeKind.OBJECT]
    if objects:

        def wrong_object(rng: Random) -> str:
            node = rng.choice(objects)
            kind = knowledge.graph.nodes[node].kind
            others = sorted(n.id for n in knowledge.graph if n.kind is kind and n.id not in named)
            if not others:
                return ""
            other = rng.choice(others)
            data["goal"] = re.sub(rf"\b{re.escape(node)}\b", other, goal)
            return f"{other} for {node} in the goal"

        draft.errors[Kind.WRONG_GOAL] = wrong_object
    if named:

        def hallucinate(rng: Random) -> str:
            node = rng.choice(named)
            wrong = near_name(node, knowledge, rng)
            data["goal"] = re.sub(rf"\b{re.escape(node)}\b", wrong, goal)
            return f"{wrong} for {node} in the goal"

        draft.errors[Kind.HALLUCINATED_NODE] = hallucinate
    return draft


def _rooms(prompt: Prompt, knowledge: Knowledge) -> Draft:
    rooms = knowledge.needed_rooms(prompt.vocabulary())
    if knowledge.task.is_search:
        rooms = []
    return Draft({"reasoning": THOUGHT, "rooms": rooms})


_BUILDERS: dict[str, Callable[[Prompt, Knowledge], Draft]] = {
    "SearchReply": _search,
    "PlanningSearchReply": _search,
    "FindReply": _search,
    "PlanReply": _plan,
    "ActionReply": _react,
    "NextMoveReply": _lookplangraph,
    "GoalReply": _goal,
    "RoomsReply": _rooms,
}


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
