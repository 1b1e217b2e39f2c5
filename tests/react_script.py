"""Replies of a scripted model for the ReAct-family planners, and readers of what it was shown.

scripted_llm.enqueue_json(goal("closed(fridge)"))
scripted_llm.enqueue_json(act("pickup(coffee_mug)"))
...
latest(scripted_llm.requests[1])   # the newest user message of request 2
"""

from __future__ import annotations

import json
import re
from typing import Any


def goal(text: str) -> dict[str, Any]:
    return {"reasoning": "what the finished task looks like", "goal": text}


def act(action: str) -> dict[str, Any]:
    return {"thought": "scripted", "action": action}


def rooms(*ids: str) -> dict[str, Any]:
    return {"reasoning": "scripted", "rooms": list(ids)}


def latest(request: dict[str, Any]) -> str:
    """The newest user message of a request."""
    return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")


def field(request: dict[str, Any], name: str) -> str:
    """One `Name: value` line of the newest user message (`Observation`, `Robot`, ...)."""
    match = re.search(rf"^{name}: (.*)$", latest(request), re.MULTILINE)
    assert match is not None, f"no {name} line in {latest(request)!r}"
    return match.group(1)


def shown_nodes(request: dict[str, Any], name: str = "Scene graph now") -> set[str]:
    """Ids of the nodes in the scene graph of the newest user message."""
    graph = json.loads(field(request, name))
    return node_ids(graph)


def node_ids(graph: dict[str, Any]) -> set[str]:
    """The ids of a serialized view's nodes: entries are objects, or bare ids when nothing else."""
    return {
        entry if isinstance(entry, str) else entry["id"]
        for entries in graph["nodes"].values()
        for entry in entries
    }
