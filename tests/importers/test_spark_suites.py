"""The hydra-apartment and mp3d-house environments and suites: packaged data, planned on.

These need neither spark_dsg nor the source files (the scenes are shipped as
native graphs); only the rebuild check does, and it skips without them.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from react_script import goal
from sayplan_script import expand, plan, switch
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task, load_suite
from sceneplan.graph import NodeKind
from sceneplan.planners import Status, get_planner
from sceneplan.runs import resolve
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "spark-dsg"
SUITES = ("hydra-apartment", "mp3d-house")


def move(name: str, target: str = "") -> dict:
    return {
        "chain_of_thought": [f"next: {name}({target})"],
        "next_move": {"function_name": name, "function_target": target},
    }


@pytest.mark.parametrize("suite", SUITES)
def test_suite_size_kinds_and_reference_plans(suite):
    tasks = load_suite(suite)
    assert len(tasks) >= 10
    graph = load_environment(suite)
    for task in tasks:
        run = Simulator(graph).verify_plan(task.reference_plan)
        assert run.ok, (task.id, run.feedback)
        formula = parse_goal(task.goal, graph)
        assert formula.holds(run.final_state), task.id
        assert not formula.holds(Simulator(graph).initial_state()), task.id
    kinds = {t.source.split("(")[-1].rstrip(")") for t in tasks}
    expected = {"fetch-and-place", "switch"}
    if suite == "mp3d-house":
        expected = {"open-close", "switch", "multi-room"}
    assert expected <= kinds


@pytest.mark.parametrize("suite", SUITES)
def test_the_oracle_solves_every_task(suite):
    oracle = get_planner("oracle", timeout=60)
    for task in load_suite(suite):
        setup = resolve(task)
        episode = oracle.plan(setup.target, setup.graph)
        assert episode.success, (task.id, episode.failure)


def test_the_scenes_hold_what_the_importers_made():
    apartment = load_environment("hydra-apartment")
    lamps = [n for n in apartment if n.category == "lamp"]
    assert len(lamps) == 2 and all(n.kind is NodeKind.OBJECT for n in lamps)
    assert apartment.counts()["pose"] == 181
    house = load_environment("mp3d-house")
    assert house.counts()["room"] == 10 and house.node("agent").parent == "entryway6"


def _run(scripted_llm, planner, task_id, **options):
    with scripted_llm.client() as llm:
        return runs.plan(get_planner(planner, **options), get_task(task_id), None, llm)


# SayPlan, LookPlanGraph and SCLPlan on one task of each scene, through the loopback server.
SPEAKER = "mp3d-house-06"  # Move the speaker from the TV room to the living room's coffee table.
LAMP = "hydra-apartment-02"  # Turn on the lamp on the small table.


def test_sayplan_on_both_scenes(scripted_llm):
    for reply in (expand("room0"), switch()):
        scripted_llm.enqueue_json(reply)
    scripted_llm.enqueue_json(plan("goto(room0)", "access(table24)", "turn_on(lamp11)", "done()"))
    episode = _run(scripted_llm, "sayplan", LAMP)
    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    for reply in (expand("tv_room4"), expand("living_room7"), switch()):
        scripted_llm.enqueue_json(reply)
    steps = ["goto(tv_room4)", "access(tv_stand92)", "pickup(speaker94)", "goto(living_room7)"]
    scripted_llm.enqueue_json(
        plan(*steps, "access(coffee_table132)", "release(speaker94)", "done()")
    )
    episode = _run(scripted_llm, "sayplan", SPEAKER)
    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    assert any(step.startswith("goto(door") for step in episode.full_plan)  # via a door


@pytest.mark.slow
def test_lookplangraph_on_both_scenes(scripted_llm):
    for reply in (
        move("go_to", "room0"),
        move("look_on", "table24"),
        move("turn_on", "lamp11"),
        move("done"),
    ):
        scripted_llm.enqueue_json(reply)
    episode = _run(scripted_llm, "lookplangraph", LAMP, perception="simulated:perfect")
    assert episode.status is Status.SUCCESS, episode.error or episode.failure
    for reply in (
        move("go_to", "tv_room4"),
        move("look_on", "tv_stand92"),
        move("pick_up", "speaker94"),
        move("go_to", "living_room7"),
        move("put_on", "coffee_table132"),
        move("done"),
    ):
        scripted_llm.enqueue_json(reply)
    episode = _run(scripted_llm, "lookplangraph", SPEAKER, perception="simulated:perfect")
    assert episode.status is Status.SUCCESS, episode.error or episode.failure


def test_sclplan_on_both_scenes(scripted_llm):
    scripted_llm.enqueue_json(goal("on(lamp11)"))
    episode = _run(scripted_llm, "sclplan", LAMP)
    assert episode.status is Status.SUCCESS and episode.goal_reached
    scripted_llm.enqueue_json(goal("ontop_of(speaker94, coffee_table132)"))
    episode = _run(scripted_llm, "sclplan", SPEAKER)
    assert episode.status is Status.SUCCESS and episode.goal_reached
    assert episode.sclplan.global_plan_found


@pytest.mark.skipif(
    importlib.util.find_spec("spark_dsg") is None or not DATA.is_dir(),
    reason="the rebuild needs spark_dsg and ../shared/data/spark-dsg",
)
@pytest.mark.slow
def test_build_script_check_passes():
    script = ROOT / "scripts" / "build_spark.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check", "--data", str(DATA)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "12 tasks solved and verified" in result.stdout
