"""Dataset statistics of task suites, as LookPlanGraph's Table 1 reports them.

Per suite: the number of tasks, and per task on average the rooms and the
nodes of its world (poses left out, as the paper's graphs have none) and the
actions of its reference plan (`done` left out). A task's world is its
environment with its `initial` facts and `world_script` applied.

>>> row = suite_stats(load_suite("office-grasif"))
>>> row["tasks"], row["rooms"], row["nodes"]
(25, 37, 200)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from sceneplan.datasets.registry import load_environment
from sceneplan.datasets.tasks import Task, load_suite
from sceneplan.graph.model import NodeKind, SceneGraph
from sceneplan.world.setup import with_facts
from sceneplan.world.vocabularies import plan_enders

__all__ = ["load_suite", "suite_stats"]


def suite_stats(tasks: Sequence[Task]) -> dict[str, Any]:
    """Tasks, and mean rooms, nodes (no poses) and reference-plan actions per task."""
    graphs: dict[str, SceneGraph] = {}
    rooms, nodes, actions = [], [], []
    enders = plan_enders()
    for task in tasks:
        if task.environment not in graphs:
            graphs[task.environment] = load_environment(task.environment)
        graph = graphs[task.environment]
        if task.initial or task.world_script:
            graph = with_facts(graph, [*task.initial, *task.world_script])
        counts = graph.counts()
        rooms.append(counts[NodeKind.ROOM.value])
        nodes.append(len(graph) - counts[NodeKind.POSE.value])
        steps = (step.split("(")[0].strip() for step in task.reference_plan)
        actions.append(sum(name not in enders for name in steps))
    return {
        "tasks": len(tasks),
        "rooms": statistics.mean(rooms) if tasks else None,
        "nodes": statistics.mean(nodes) if tasks else None,
        "actions": statistics.mean(actions) if tasks else None,
    }
