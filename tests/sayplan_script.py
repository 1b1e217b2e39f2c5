"""Replies of a scripted model for the SayPlan-family planners, and readers of what it was shown.

scripted_llm.enqueue_json(expand("kitchen"))
scripted_llm.enqueue_json(switch())
scripted_llm.enqueue_json(plan("goto(kitchen)", "done()"))
...
turn = shown(scripted_llm.requests[1])   # the graph, memory and feedback of request 2
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sceneplan.datasets.tasks import Task

COFFEE_TASK = Task(
    id="coffee-01",
    suite="coffee",
    family="simple_planning",
    environment="coffee",
    instruction="Make Tom a coffee and put it in his room.",
    goal="full(coffee_mug) and in_room(coffee_mug, toms_room)",
)

# SayPlan App. L: the first plan forgets to open the wardrobe the mug is in.
COFFEE_PLAN = [
    "goto(bobs_room)",
    "access(wardrobe1)",
    "open(wardrobe1)",
    "pickup(coffee_mug)",
    "goto(kitchen)",
    "access(coffee_machine)",
    "release(coffee_mug)",
    "turn_on(coffee_machine)",
    "pickup(coffee_mug)",
    "goto(toms_room)",
    "access(bed2)",
    "release(coffee_mug)",
    "done()",
]
COFFEE_PLAN_NOT_OPENED = [step for step in COFFEE_PLAN if step != "open(wardrobe1)"]


def _turn(mode: str, command: dict | None, answer: list[str] | None) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "chain_of_thought": "look where the things the task needs are likely to be",
        "reasoning": "scripted",
        "mode": mode,
        "command": command,
    }
    if answer is not None:
        reply["answer"] = answer
    return reply


def expand(node: str, *, find: bool = False) -> dict[str, Any]:
    """An exploring turn that expands `node` (`find`: a search task's turn, with an answer)."""
    return _turn("exploring", {"name": "expand", "node": node}, [] if find else None)


def contract(node: str, *, find: bool = False) -> dict[str, Any]:
    return _turn("exploring", {"name": "contract", "node": node}, [] if find else None)


def switch(answer: list[str] | None = None, plan: list[str] | None = None) -> dict[str, Any]:
    """The turn that switches to planning; a search task's carries the answer, and in
    SayPlan's one dialogue a planning task's may carry the plan."""
    reply = _turn("planning", None, answer)
    if plan is not None:
        reply["plan"] = plan
    return reply


def plan(*steps: str) -> dict[str, Any]:
    return {"chain_of_thought": "do it step by step", "reasoning": "scripted", "plan": list(steps)}


@dataclass
class Shown:
    """What one request showed the model in its latest user message."""

    text: str
    graph: dict[str, Any]
    memory: list[str]
    feedback: str

    @property
    def nodes(self) -> set[str]:
        return node_ids(self.graph)


def shown(request: dict[str, Any]) -> Shown:
    """Read the scene graph, memory and feedback of a request's latest user message."""
    text = next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return Shown(
        text,
        json.loads(fields["3D scene graph"]),
        json.loads(fields["Memory"]),
        fields["Feedback"],
    )


def contents(request: dict[str, Any]) -> list[str]:
    """The contents of all the messages of a request."""
    return [m["content"] for m in request["messages"]]


def node_ids(graph: dict[str, Any]) -> set[str]:
    """The ids of a serialized view's nodes: entries are objects, or bare ids when nothing else."""
    return {
        entry if isinstance(entry, str) else entry["id"]
        for entries in graph["nodes"].values()
        for entry in entries
    }
