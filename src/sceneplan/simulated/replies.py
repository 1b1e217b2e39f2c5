"""The stand-in's correct reply to each planner's request, in the planner's own schema.

The correct reply is built from what the stand-in knows (`Knowledge`): the search turn
that expands the next room the task needs or switches to planning, the plan to the goal,
the next action from the state the prompt shows. Each comes with the errors that could be
made in it (`mistakes`), from which the provider draws.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from random import Random
from typing import Any

from sceneplan.graph.model import NodeKind, Relation
from sceneplan.planners.shared import action_doing
from sceneplan.simulated.knowledge import Knowledge
from sceneplan.simulated.mistakes import near_name, plan_errors, step_errors
from sceneplan.simulated.profiles import Kind
from sceneplan.simulated.prompt import THOUGHT, Draft, Prompt
from sceneplan.world.actions import Action
from sceneplan.world.vocabulary import Vocabulary


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
            plan_errors(draft, prompt, knowledge, "plan")

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
    plan_errors(draft, prompt, knowledge, "plan")
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
    return step_errors(Draft(data), prompt, knowledge, state, rest, put)


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
    return step_errors(Draft(data), prompt, knowledge, state, rest, set_move)


def _next_actions(
    prompt: Prompt, knowledge: Knowledge, vocabulary: Vocabulary, plan: list[Action] | None
) -> list[Action]:
    """The plan from here, its first step the one to take now (with a path planner, the
    poses on the way are left to it)."""
    plan = plan or []
    if prompt.writes_poses():
        return plan
    moves = knowledge.moves(vocabulary)
    return [a for a in plan if not (a.name in moves and knowledge.is_pose(a.args[0]))]


def _touched(
    knowledge: Knowledge, vocabulary: Vocabulary, action: Action
) -> tuple[list[str], list[str]]:
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


def _towards_look(knowledge: Knowledge, vocabulary: Vocabulary, state: Any, node: str) -> Action:
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
