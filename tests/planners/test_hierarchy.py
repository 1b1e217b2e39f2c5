"""Bounded prompts at 10,000 rooms: the hierarchical view, and the SayPlan family using it.

The 10,000-room building (benchmarks/synthetic.py) is built once for the module.
The bounds checked are issue 15's targets with a margin: benchmarks/hierarchy.py
prints the measured figures (about 450 tokens for the initial view, 2,600 for
the largest view of the scripted search).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from sayplan_script import expand, plan, shown, switch
from sceneplan import runs
from sceneplan.graph import SceneGraph, count_tokens, from_dict
from sceneplan.graph.views import GraphView
from sceneplan.planners import Status, get_planner
from sceneplan.planners.dialogue import graph_text
from sceneplan.planners.search import initial_view
from sceneplan.world.task import Task

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
ROOMS = 10_000
INITIAL_BOUND = 2000  # issue 15: the initial prompt's graph
VIEW_BOUND = 4000  # issue 15: every view of a search that contracts what it leaves


def _synthetic() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_hierarchy_synthetic", BENCHMARKS / "synthetic.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SYNTHETIC = _synthetic()


@pytest.fixture(scope="module")
def building() -> SceneGraph:
    return from_dict(SYNTHETIC.synthetic_building(ROOMS))


@pytest.fixture(scope="module")
def target(building) -> tuple[str, str, str]:
    """The top floor's last room, an object on a surface in it, and that surface."""
    room = SYNTHETIC.first_and_last_room(ROOMS)[1]
    nodes = building.nodes
    obj = next(
        nodes[n]
        for n in building.descendants(room)
        if nodes[n].kind.value == "object" and nodes[n].relation.value == "ontop_of"
    )
    return room, obj.id, obj.parent


def path_down(view: GraphView, node: str) -> list[str]:
    """What to expand, top down, to show `node`, then `node`."""
    return [a for a in reversed(view.hierarchy.ancestors(node)) if a not in view.expanded] + [node]


def tokens(view: GraphView) -> int:
    return count_tokens(graph_text(view))


@pytest.mark.slow
def test_the_initial_view_of_10000_rooms_is_small_and_hierarchical(building):
    view = initial_view(building)
    assert view.hierarchy is not None  # auto: the rooms view cannot fit
    assert tokens(view) <= INITIAL_BOUND
    kinds = [view.kind(n) for n in view.visible_nodes()]
    assert kinds == ["building", "agent", *["floor_group"] * 10]  # groups of ten floors
    assert initial_view(building, "hierarchy").visible_nodes() == view.visible_nodes()


@pytest.mark.slow
def test_a_scripted_search_that_contracts_what_it_leaves_stays_bounded(building, target):
    view = initial_view(building)
    first = SYNTHETIC.first_and_last_room(ROOMS)[0]
    sizes = [tokens(view)]
    down = path_down(view, first)
    for node in down:
        view.expand(node)
        sizes.append(tokens(view))
    assert first in view.expanded and len(down) == view.hierarchy.depth()  # the building is open
    for node in reversed(down):  # leave, contracting all the way up
        view.contract(node)
        sizes.append(tokens(view))
    assert view.visible_nodes() == initial_view(building).visible_nodes()
    down = path_down(view, target[0])
    for node in down:
        view.expand(node)
        sizes.append(tokens(view))
    assert {target[1], target[2]} <= set(view.visible_nodes())
    assert max(sizes) <= VIEW_BOUND
    # the turns to reach a room are the hierarchy's depth, not the rooms
    assert len(down) == view.hierarchy.depth() == 4  # a floor group, a floor, a zone, the room


@pytest.mark.slow
def test_sayplan_solves_a_task_on_10000_rooms_through_the_loopback_model(
    scripted_llm, building, target
):
    room, obj, surface = target
    task = Task(
        id="hierarchy-10k",
        suite="synthetic",
        family="simple_planning",
        environment="synthetic_10000",
        instruction=f"Pick up {obj} from the {room}.",
        goal=f"held({obj})",
    )
    down = path_down(initial_view(building), room)
    for node in down:
        scripted_llm.enqueue_json(expand(node))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(
        plan(f"goto({room})", f"access({surface})", f"pickup({obj})", "done()")
    )
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sayplan"), task, building, llm)

    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    assert episode.view == "hierarchy"
    assert episode.explored == down
    assert [t.ok for t in episode.search] == [True] * len(down) + [True]
    assert max(t.graph_tokens for t in episode.search) <= VIEW_BOUND
    assert episode.search[0].graph_tokens <= INITIAL_BOUND
    first = shown(scripted_llm.requests[0])
    assert room not in first.nodes and down[0] in first.nodes
    assert "floor groups (runs of floors)" in scripted_llm.requests[0]["messages"][0]["content"]
    assert obj in shown(scripted_llm.requests[len(down)]).nodes
    assert len(episode.full_plan) > 4  # the path planner inserted the poses up 99 floors


@pytest.mark.slow
def test_sayplan_lite_searches_the_hierarchy_without_poses(scripted_llm, building, target):
    room, obj, surface = target
    down = path_down(initial_view(building, topology=False), room)
    for node in down:
        scripted_llm.enqueue_json(expand(node, find=True))
    scripted_llm.enqueue_json(switch([obj]))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sayplan_lite"), f"Find {obj}.", building, llm)
    assert episode.answer == [obj]
    assert episode.view == "hierarchy"
    last = shown(scripted_llm.requests[-1])
    assert "pose" not in last.graph["nodes"] and "links" not in last.graph
    assert surface in last.nodes


@pytest.mark.slow
def test_lookplangraph_expands_zones_then_goes_to_the_room(scripted_llm, building, target):
    room, obj, surface = target

    def move(name: str, node: str = "") -> dict:
        return {
            "chain_of_thought": ["scripted"],
            "next_move": {"function_name": name, "function_target": node},
        }

    down = path_down(initial_view(building, topology=False), room)[:-1]
    for node in down:
        scripted_llm.enqueue_json(move("expand", node))
    for reply in (
        move("go_to", room),
        move("look_on", surface),
        move("pick_up", obj),
        move("done"),
    ):
        scripted_llm.enqueue_json(reply)
    planner = get_planner("lookplangraph", perception="simulated:perfect")
    with scripted_llm.client() as llm:
        episode = planner.plan(f"Pick up {obj} from the {room}.", building, llm)
    assert episode.executable, episode.failure
    assert episode.plan == [f"go_to({room})", f"look_on({surface})", f"pick_up({obj})", "done()"]
    prompts = [r["messages"][-1]["content"] for r in scripted_llm.requests]
    assert f'"{room}"' not in prompts[0] and f'"{room}"' in prompts[len(down)]
    assert all(count_tokens(p) <= VIEW_BOUND for p in prompts)
    assert (
        "expand(<floor group, floor or zone>)" in scripted_llm.requests[0]["messages"][0]["content"]
    )
