"""VirtualHome (virtualhome-eval) scene graphs, goals and programs as graphs and tasks.

`import_(path)` reads a VirtualHome graph file (`{nodes, edges}`, or
virtualhome-eval's `{init_graph, final_graph}`, whose initial graph is
used) into a scene graph (`scene`). `convert_task` adds a task: the goal of
virtualhome-eval's LTL file (`task`), and the program as reference plan
where it translates. A task is given only when the domain expresses its goal
and start now; the `gaps` of `Imported.extra` say why not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sceneplan.errors import SceneplanError
from sceneplan.graph.io import from_dict
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.virtualhome.scene import build_scene, check_graph, give_two_hands
from sceneplan.importers.virtualhome.task import (
    HOLDS_TWO,
    goal_holds,
    parse_program,
    translate_goal,
    translate_program,
)
from sceneplan.textinput import read_json
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.task import Family, Task
from sceneplan.world.vocabularies import LOOKPLANGRAPH

__all__ = ["convert_task", "import_", "read_graph"]


def read_graph(path: str | Path) -> dict[str, Any]:
    """The (initial) VirtualHome graph of a file."""
    path = Path(path)
    data = read_json(path, "the VirtualHome graph")
    if isinstance(data, dict) and "init_graph" in data:
        data = data["init_graph"]
    check_graph(data, str(path))
    return data


def import_(path: str | Path, *, name: str | None = None) -> Imported:
    """A VirtualHome graph file as a scene graph (no task: see `convert_task`)."""
    path = Path(path)
    report = ImportReport("virtualhome")
    scene = build_scene(read_graph(path), report, str(path))
    graph = _graph(scene.nodes, name or path.stem, str(path), scene.links)
    return Imported(graph, report, extra={"gaps": scene.gaps})


def _graph(
    nodes: list[dict[str, Any]], name: str, source: str, links: list[list[str]] | None = None
):
    return from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": name,
            "description": "A VirtualHome scene (virtualhome-eval, TrimmedTestScene1)",
            "nodes": nodes,
            "links": links or [],
        },
        source,
    )


def _placements(vh_goal: dict[str, Any]) -> frozenset[tuple[Any, Any]]:
    """The (thing, target) pairs a goal puts on or in something."""
    return frozenset(
        (item.get("from_id"), item["to_id"])
        for item in vh_goal.get("goal", ())
        if item.get("relation_type") in ("ON", "INSIDE")
    )


def convert_task(
    task_id: str,
    graph_data: dict[str, Any],
    vh_goal: dict[str, Any],
    program: str,
    *,
    suite: str = "virtualhome",
    environment: str | None = None,
    source: str = "<virtualhome>",
) -> Imported:
    """One virtualhome-eval task: graph, task (if expressible), and in `extra` the gaps,
    the translated program (or why it does not translate)."""
    report = ImportReport("virtualhome")
    wanted = _placements(vh_goal)
    scene = build_scene(graph_data, report, source, frozenset(t for _, t in wanted), wanted)
    vh = check_graph(graph_data, source)
    environment = environment or f"virtualhome-{task_id}"
    graph = _graph(scene.nodes, environment, source, scene.links)
    goal_text, goal_gaps = translate_goal(vh_goal, scene, vh)
    gaps = scene.gaps + goal_gaps
    title, description, steps = parse_program(program)
    room_of = {n.id: graph.room_of(n.id) for n in graph if graph.room_of(n.id)}
    # VirtualHome's character has two hands; the agent gets them where the task needs
    # them: the start or the goal holds two objects, or the program holds two at once
    why_two = "the goal holds two objects" if goal_holds(vh_goal) > 1 else None
    plan, why = translate_program(steps, scene, room_of, graph.hands == 2 or why_two is not None)
    if why == HOLDS_TWO:
        why_two = why
        plan, why = translate_program(steps, scene, room_of, two_handed=True)
    if why_two is not None and graph.hands == 1:
        give_two_hands(scene.nodes, report, why_two)
        graph = _graph(scene.nodes, environment, source, scene.links)
    notes: dict[str, Any] = {"gaps": gaps, "program": plan, "program_gap": why}
    if not gaps:
        try:
            goal = parse_goal(goal_text, graph)
        except SceneplanError as exc:
            gaps.append(f"goal does not parse: {str(exc).splitlines()[0]}")
            goal = None
        if goal is not None and goal.holds(Simulator(graph, LOOKPLANGRAPH).initial_state()):
            gaps.append("goal holds at the start")
    if plan is not None and not gaps:
        run = Simulator(graph, LOOKPLANGRAPH).verify_plan(plan)
        if not run.ok:
            notes["program"], notes["program_gap"] = (
                None,
                (
                    f"translated program fails: {run.failure.cause.value}"
                    if run.failure
                    else "fails"
                ),
            )
        elif not parse_goal(goal_text, graph).holds(run.final_state):
            notes["program"], notes["program_gap"] = None, "translated program misses the goal"
    tasks = []
    if not gaps:
        text = title if not description else f"{title}. {description}"
        tasks.append(
            Task(
                id=f"virtualhome-{task_id}",
                suite=suite,
                family=Family.SIMPLE_PLANNING if goal_text.count("(") <= 3 else Family.LONG_HORIZON,
                environment=environment,
                instruction=" ".join(text.split()),
                source=f"virtualhome-eval 0.1.1, scene_1 task {task_id}",
                goal=goal_text,
                reference_plan=notes["program"] or [],
            )
        )
    for gap in gaps:
        report.dropped(f"task: {gap}")
    notes["gaps"] = gaps
    return Imported(graph, report, tasks, notes)
