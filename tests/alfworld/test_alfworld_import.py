"""The importer: bad input in one clear message each; the game's own goal, checked by
unified-planning in ALFRED's domain; the packaged suite rebuilt exactly from the data."""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError
from sceneplan.importers.alfworld import import_, read_game, validate_in_alfred

ROOT = Path(__file__).resolve().parents[2]
FIRST = "look_at_obj_in_light-AlarmClock-None-DeskLamp-308__trial_T20190908_222917_366542"


def game_file(data_dir: Path, tmp_path: Path, change=None) -> Path:
    packed = json.loads(
        gzip.decompress((data_dir / "valid_unseen" / f"{FIRST}.json.gz").read_bytes())
    )
    game = packed["game"]
    if change:
        change(game)
    path = tmp_path / "game.tw-pddl"
    path.write_text(json.dumps(game))
    return path


def test_a_file_of_another_format_is_refused_in_one_message(tmp_path):
    path = tmp_path / "scene.json"
    path.write_text(json.dumps({"nodes": []}))
    with pytest.raises(BadInputError, match=r"not an ALFWorld game file.*found nodes"):
        import_(path)
    path.write_text("(define (problem p))")
    with pytest.raises(BadInputError, match=r"not an ALFWorld game file.*not JSON"):
        import_(path)


def test_graph_import_from_alfworld_writes_graph_and_task_and_refuses_other_files(
    data_dir, tmp_path
):
    from typer.testing import CliRunner

    from sceneplan.cli import app

    out, tasks = tmp_path / "g.json", tmp_path / "t.yaml"
    args = ["graph", "import", "--from", "alfworld"]
    result = CliRunner().invoke(
        app, [*args, str(game_file(data_dir, tmp_path)), str(out), "--tasks", str(tasks)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["format"] == "sceneplan-graph"
    assert "agent_near" in tasks.read_text()  # examine in light: the goal is written out
    other = tmp_path / "scene.json"
    other.write_text(json.dumps({"nodes": []}))
    result = CliRunner().invoke(app, [*args, str(other), str(tmp_path / "o.json")])
    assert result.exit_code == 2 and "not an ALFWorld game file" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o.json").exists()


def test_an_unknown_goal_type_and_a_missing_receptacle_are_refused(data_dir, tmp_path):
    def unknown(game):
        game["pddl_problem"] = game["pddl_problem"].replace(
            "(objectType ?o AlarmClockType)", "(objectType ?o UnicornType)"
        )

    with pytest.raises(BadInputError, match="type UnicornType, but the scene has no unicorn"):
        import_(game_file(data_dir, tmp_path, unknown))

    def missing(game):
        game["pddl_problem"] = game["pddl_problem"].replace(
            "Safe_bar__minus_02_dot_18_bar__plus_00_dot_00_bar__plus_02_dot_58 - receptacle", ""
        )

    with pytest.raises(BadInputError, match=r"names receptacle 'Safe_bar.*does not declare"):
        import_(game_file(data_dir, tmp_path, missing))


def test_a_game_file_imports_as_the_packaged_task(data_dir, tmp_path):
    imported = import_(game_file(data_dir, tmp_path))
    task = get_task("alfworld-look-01")
    assert imported.tasks[0].goal == task.goal and imported.tasks[0].instruction == task.instruction
    assert imported.report.counts()["dropped"] > 0  # windows, blinds: in no receptacle


@pytest.mark.parametrize(
    ("task_id", "trial"),
    [
        ("alfworld-pick-01", "pick_and_place_simple"),
        ("alfworld-clean-01", "pick_clean_then_place_in_recep"),
        ("alfworld-heat-01", "pick_heat_then_place_in_recep"),
        ("alfworld-cool-01", "pick_cool_then_place_in_recep"),
        ("alfworld-look-01", "look_at_obj_in_light"),
    ],
)
@pytest.mark.slow
def test_the_oracles_plan_reaches_the_games_own_goal_in_alfreds_domain(data_dir, task_id, trial):
    pytest.importorskip("unified_planning", reason="the cross-check needs unified-planning")
    task = get_task(task_id)
    name = task.source.split()[-1].replace("/", "__") + ".json.gz"
    game = read_game(data_dir / "valid_unseen" / name)
    plan = runs.plan("oracle", task).plan
    assert validate_in_alfred(game, plan) == (True, "valid")
    if task_id == "alfworld-pick-01":  # one step short: the goal is not reached
        assert validate_in_alfred(game, plan[:-1])[0] is False


@pytest.mark.slow
def test_the_build_script_reproduces_the_packaged_files(data_dir):
    spec = importlib.util.spec_from_file_location(
        "build_alfworld", ROOT / "scripts" / "build_alfworld.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_alfworld"] = module
    try:
        spec.loader.exec_module(module)
        assert module.main([str(data_dir), "--check"]) == 0
    finally:
        del sys.modules["build_alfworld"]
