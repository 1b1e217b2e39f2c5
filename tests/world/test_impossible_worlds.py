"""A task's start and world script are checked like a scene graph: a world that cannot be is
refused with the fact that makes it so (issue 40), in `tasks check` and before a run."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets import load_environment
from sceneplan.errors import GoalParseError
from sceneplan.world.setup import with_facts


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (["ontop_of(orange1, orange1)"], "orange1 cannot rest on or in itself"),
        (["ontop_of(fridge, kitchen_bench)"], "fridge is an asset, fixed in place"),
        (
            ["ontop_of(orange1, apple1)", "ontop_of(apple1, orange1)"],
            "orange1 rests on or in apple1, so apple1 cannot rest on or in it",
        ),
        (
            ["held(orange1)", "inside_of(orange1, fridge)"],
            "the robot holds orange1 (an earlier fact); a held object is not also placed",
        ),
    ],
)
def test_a_world_that_cannot_be_is_refused_with_its_fact(facts, message):
    with pytest.raises(GoalParseError, match=message.replace("(", r"\(").replace(")", r"\)")):
        with_facts(load_environment("office"), facts)


def test_possible_placements_still_apply():
    graph = with_facts(load_environment("office"), ["ontop_of(orange1, apple1)"])
    assert graph.node("orange1").parent == "apple1"


def test_an_impossible_world_script_is_refused_before_a_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    task = {
        "id": "t1",
        "suite": "mine",
        "family": "simple_planning",
        "instruction": "Bring me the orange.",
        "environment": "office",
        "goal": "held(orange1)",
        "initial": ["held(orange1)"],
        "world_script": ["ontop_of(orange1, kitchen_bench)"],
    }
    (tmp_path / "t.yaml").write_text(yaml.safe_dump([task]))
    runner = CliRunner()
    checked = runner.invoke(app, ["tasks", "check", "t.yaml"])
    assert checked.exit_code == 2
    assert "field 'world_script'" in checked.output and "the robot holds orange1" in checked.output
    ran = runner.invoke(app, ["plan", "--tasks", "t.yaml", "--task", "t1", "-p", "oracle"])
    assert ran.exit_code == 2
    assert "a held object is not also placed" in " ".join(ran.output.split())
