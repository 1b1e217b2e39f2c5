"""An Episode as the viewer's page reads it: search turns, plan steps, memory vs the true world.

Nothing here trusts the page to recompute the world: the search is replayed
on `GraphView` (the views the model saw), the plan is stepped through the
`Simulator` (each step's result and where the robot is), and a partially
observing run is replayed through `PartialWorld` with the observations it
recorded, so each step shows what memory believed next to the true world.
"""

from __future__ import annotations

from typing import Any

from sceneplan.errors import SceneplanError
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.graph.views import collapse, collapse_hierarchy
from sceneplan.nav import Navigator
from sceneplan.planners.episode import Episode, LLMCall
from sceneplan.world.actions import parse_action
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import PartialWorld
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH, SAYPLAN
from sceneplan.world.vocabulary import Vocabulary

_TEXT_CAP = 6000  # characters of one reply shown; the trace file has the rest


def episode_data(
    episode: Episode, graph: SceneGraph, prior: SceneGraph | None = None
) -> dict[str, Any]:
    """Everything the page shows of one run on `graph` (the run's start graph)."""
    return {
        "summary": _summary(episode),
        "search": search_turns(episode, graph),
        "plan": plan_steps(episode, graph),
        "memory": memory_steps(episode, graph, prior) if episode.steps else None,
    }


def _summary(episode: Episode) -> dict[str, Any]:
    keep = (
        *("planner", "model", "environment", "instruction", "task_id", "family", "status"),
        *("error", "executable", "correct", "goal", "goal_reached", "goal_unmet", "answer"),
        *("answer_correct", "replans", "explored", "llm_calls", "input_tokens", "output_tokens"),
        *("cost_usd", "wall_time_s", "error_type", "options"),
    )
    summary = episode.summary()
    return {key: summary.get(key) for key in keep}


# -- search ------------------------------------------------------------------------------


def search_turns(episode: Episode, graph: SceneGraph) -> dict[str, Any]:
    """Each turn as the model had it: the view it was shown (`open` rooms, `visible` nodes,
    its tokens), its reasoning, the command it chose and what that did (`open_after`).

    The search is replayed from the view it started from: the rooms view, or the top
    of the place hierarchy (floor groups, floors, zones) when `episode.view` says so."""
    hierarchical = episode.view == "hierarchy"
    view = collapse_hierarchy(graph) if hierarchical else collapse(graph)
    calls = [c for c in episode.llm_calls if c.stage == "search"]
    turns = []
    replayed = True
    for number, turn in enumerate(episode.search):
        shown = {"open": _open_rooms(graph, view.expanded), "visible": len(view)}
        if turn.ok and turn.command in ("expand", "contract") and turn.node is not None:
            try:
                getattr(view, turn.command)(turn.node)
            except SceneplanError:
                replayed = False  # the trace is of another graph: keep showing what it says
        call = calls[number] if number < len(calls) else None
        turns.append(
            {
                "turn": turn.turn,
                "command": turn.command,
                "node": turn.node,
                "ok": turn.ok,
                "feedback": turn.feedback,
                "graph_tokens": turn.graph_tokens,
                "prompt_tokens": turn.prompt_tokens,
                "memory": list(turn.memory),
                **shown,
                "open_after": _open_rooms(graph, view.expanded),
                **_reasoning(call),
            }
        )
    return {"turns": turns, "replayed": replayed}


def _open_rooms(graph: SceneGraph, expanded: list[str]) -> list[str]:
    """The open rooms; a hierarchical view's open groups and zones are not graph nodes."""
    nodes = graph.nodes
    return [n for n in expanded if n in nodes and nodes[n].kind is NodeKind.ROOM]


def _reasoning(call: LLMCall | None) -> dict[str, Any]:
    """The model's words for one call: its chain of thought and reasoning, or its raw reply."""
    if call is None:
        return {"thought": "", "reasoning": "", "reply": "", "error": None}
    parsed = call.parsed if isinstance(call.parsed, dict) else {}
    thought = parsed.get("chain_of_thought", "")
    if isinstance(thought, list):
        thought = "\n".join(str(t) for t in thought)
    reply = "" if parsed else call.reply[:_TEXT_CAP]
    return {
        "thought": str(thought)[:_TEXT_CAP],
        "reasoning": str(parsed.get("reasoning", ""))[:_TEXT_CAP],
        "reply": reply,
        "error": call.error,
    }


# -- plan --------------------------------------------------------------------------------


def plan_steps(episode: Episode, graph: SceneGraph) -> dict[str, Any]:
    """The final plan stepped through the simulator from the start graph.

    Each step has its result and the places the robot passes (`path`, room to
    room through poses). Stepping stops at the first failing step, as the
    simulator's verification does; later steps are `not run`. The recorded
    failure's message is kept when it names the same action.
    """
    actions = episode.full_plan or episode.plan
    sources = episode.action_sources if episode.full_plan else []
    vocabulary = _vocabulary(actions)
    simulator = Simulator(graph, vocabulary)
    navigator = Navigator(graph)
    state: WorldState | None = WorldState(graph)
    here = graph.agent.parent if graph.has_agent else None
    steps: list[dict[str, Any]] = []
    failing = None
    for index, text in enumerate(actions):
        step: dict[str, Any] = {
            "index": index,
            "action": text,
            "source": sources[index] if index < len(sources) else "",
            "result": "not run",
            "feedback": "",
            "at": here,
            "path": [],
        }
        steps.append(step)
        if state is None:
            continue
        try:
            action = parse_action(text)
            new_state, failure = simulator.step(state, action)
        except SceneplanError as exc:
            new_state, failure, message = state, None, str(exc)
        else:
            message = failure.reason if failure is not None else ""
        if failure is not None or message:
            step.update(result="failed", feedback=f"step {index + 1} {text}: {message}")
            failing, state = index, None
            continue
        step["result"] = "ok"
        moved_to = new_state.agent_at if new_state.graph.has_agent else None
        if moved_to is not None and moved_to != here:
            step["path"] = _path(navigator, here, moved_to)
            here = moved_to
        step["at"] = here
        state = new_state
        if state.done:
            state = None
    recorded = episode.failure or {}
    if failing is not None and recorded.get("action") == actions[failing]:
        steps[failing]["feedback"] = recorded.get("message") or steps[failing]["feedback"]
    return {
        "steps": steps,
        "failing": failing,
        "vocabulary": vocabulary.name,
        "recorded_failure": recorded.get("message"),
        "start": graph.agent.parent if graph.has_agent else None,
        "rounds": _rounds(episode),
    }


def _vocabulary(actions: list[str]) -> Vocabulary:
    """SayPlan's vocabulary when every action is one of SayPlan's, else LookPlanGraph's."""
    names = set()
    for text in actions:
        try:
            names.add(parse_action(text).name)
        except SceneplanError:
            continue
    return SAYPLAN if names <= set(SAYPLAN.actions) else LOOKPLANGRAPH


def _path(navigator: Navigator, start: str | None, end: str) -> list[str]:
    if start is None:
        return [end]
    try:
        return navigator.shortest_path(start, end)
    except SceneplanError:
        return [start, end]


def _rounds(episode: Episode) -> list[dict[str, Any]]:
    """Each plan the model wrote and what the simulator said of it, in order."""
    calls = [c for c in episode.llm_calls if c.stage not in ("search",)]
    verifies = [c for c in episode.sim_calls if c.op == "verify"]
    rounds = []
    for number, call in enumerate(calls):
        parsed = call.parsed if isinstance(call.parsed, dict) else {}
        plan = parsed.get("plan")
        verify = verifies[number] if number < len(verifies) and plan is not None else None
        rounds.append(
            {
                "stage": call.stage,
                "command": call.command,
                "plan": [str(p) for p in plan] if isinstance(plan, list) else None,
                "verdict": verify.feedback if verify is not None else None,
                "ok": verify.ok if verify is not None else None,
                **_reasoning(call),
            }
        )
    return rounds


# -- memory vs the true world --------------------------------------------------------------


def memory_steps(
    episode: Episode, graph: SceneGraph, prior: SceneGraph | None = None
) -> dict[str, Any]:
    """Each step of a partially observing run, with what memory held and the true world had.

    Memory starts as the run's did (the prior map when the run's memory held
    objects, else the static scene) and is replayed with the recorded
    observations. Per step, `room` is the agent's room and `rows` compare the
    objects there: where memory put each one and where it truly is.
    """
    vocabulary = _vocabulary([s.action for s in episode.steps])
    mapped = prior if prior is not None else graph
    known_at_start = episode.observe.memory if episode.observe is not None else []
    memory = Memory.prior(mapped) if known_at_start else Memory.static(mapped)
    world: PartialWorld | None = PartialWorld(WorldState(graph), memory, vocabulary)
    calls = [c for c in episode.llm_calls if c.stage == "act"]  # LookPlanGraph's moves
    taken = 0
    out = []
    for step in episode.steps:
        # the replies that led to this step: those memory refused, then the one it ran
        chosen = next(
            (n for n in range(taken, len(calls)) if calls[n].command == step.action), None
        )
        asked = calls[taken : chosen + 1] if chosen is not None else []
        taken = chosen + 1 if chosen is not None else taken
        record: dict[str, Any] = {
            "index": step.index,
            "action": step.action,
            "executed": step.executed,
            "ok": step.ok,
            "feedback": step.feedback,
            "cause": step.cause,
            "agent_at": step.agent_at,
            "observations": [_observed(o) for o in step.observations],
            "added": step.added,
            "forgotten": step.forgotten,
            "corrected": step.corrected,
            "shown": step.shown,
            "refused": [c.command or c.reply[:200] for c in asked[:-1]],
            **_reasoning(asked[-1] if asked else None),
        }
        if world is not None:
            try:
                outcome = world.execute(step.action, index=step.index)
                if outcome.look is not None:
                    seen = [Observation.from_dict(o) for o in step.observations]
                    world.look(*outcome.look, seen)
                if outcome.ok != step.ok:
                    raise ValueError("the replay disagrees with the trace")
                record.update(_compare(world))
            except (SceneplanError, ValueError, KeyError, TypeError):
                world = None  # the trace is of another world: show what it recorded
        out.append(record)
    return {"steps": out, "replayed": world is not None, "vocabulary": vocabulary.name}


def _observed(observation: dict[str, Any]) -> str:
    name = observation.get("id") or observation.get("name") or "?"
    where = observation.get("related_to")
    relation = (observation.get("relation") or "").replace("_of", "").replace("ontop", "on")
    states = ", ".join(observation.get("states") or [])
    return f"{name} {relation} {where}".strip() + (f" ({states})" if states else "")


def _compare(world: PartialWorld) -> dict[str, Any]:
    """The objects in the agent's room: where memory puts each, and where it truly is."""
    truth, memory = world.truth, world.memory
    room = truth.room_of(truth.agent_id) or truth.agent_at
    rows: dict[str, dict[str, Any]] = {}
    for node in truth.graph.of_kind(NodeKind.OBJECT):
        if truth.room_of(node.id) == room:
            rows[node.id] = {"object": node.id, "memory": None, "truth": _place(truth, node.id)}
    for mine in memory.objects():
        true_id = memory.true_id(mine)
        in_room = memory.state.room_of(mine) == room
        if not in_room and true_id not in rows:
            continue
        truly = _place_or_none(truth, true_id)
        if truly is not None and truth.room_of(true_id) != room:
            truly += f", in {truth.room_of(true_id) or truth.agent_at}"
        row = rows.setdefault(true_id, {"object": true_id, "memory": None, "truth": truly})
        row["memory"] = (
            _place(memory.state, mine)
            if in_room
            else "elsewhere: " + (memory.state.room_of(mine) or "?")
        )
        if mine != true_id:
            row["object"] = f"{mine} ({true_id})"
    for row in rows.values():
        row["status"] = (
            "unknown"
            if row["memory"] is None
            else "not there"
            if row["truth"] is None
            else "same"
            if row["memory"] == row["truth"]
            else "differs"
        )
    order = {"differs": 0, "not there": 1, "unknown": 2, "same": 3}  # what memory has wrong first
    listed = sorted(rows.values(), key=lambda row: order[row["status"]])
    return {"room": room, "rows": listed, "memory_size": len(memory.objects())}


def _place(state: WorldState, node: str) -> str:
    parent, relation = state.parent(node), state.relation(node)
    words = {"ontop_of": "on", "inside_of": "inside", "held": "held by"}
    return f"{words.get(relation.value, relation.value) if relation else 'in'} {parent}"


def _place_or_none(state: WorldState, node: str) -> str | None:
    return _place(state, node) if node in state.graph else None
