"""The home-moved suite: what scripts/build_home_moved.py writes, and what it promises."""

import importlib.util
import sys
from pathlib import Path

from sceneplan.datasets.tasks import load_suite
from sceneplan.runs import resolve
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.state import WorldState

REPO = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = REPO / "scripts" / "build_home_moved.py"
TASKS = load_suite("home-moved")


def test_build_script_check_passes():
    spec = importlib.util.spec_from_file_location("build_home_moved", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_home_moved"] = module
    try:
        spec.loader.exec_module(module)
        assert module.main(["--check"]) == 0
    finally:
        del sys.modules["build_home_moved"]


def test_each_task_is_stale_on_the_map_and_four_goals_hold_there_only():
    assert len(TASKS) >= 10
    memory_only = 0
    for task in TASKS:
        setup = resolve(task)
        goal = parse_goal(task.goal, setup.graph)
        assert task.memory == "prior" and setup.prior is not None
        assert not goal.holds(WorldState(setup.graph)), task.id
        stale = task.reference_plan
        if stale == ["done()"]:
            memory_only += 1
            assert goal.holds(WorldState(setup.prior)), task.id
        else:
            assert Simulator(setup.prior).verify_plan(stale).ok, task.id
            assert not Simulator(setup.graph).verify_plan(stale).ok, task.id
    assert memory_only == 4
