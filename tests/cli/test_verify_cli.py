import json

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()
FIRST = (
    "goto(bobs_room) > access(wardrobe1) > pickup(coffee_mug) > goto(kitchen) > "
    "access(coffee_machine) > release(coffee_mug) > turn_on(coffee_machine) > "
    "turn_off(coffee_machine) > pickup(coffee_mug) > goto(toms_room) > "
    "access(wardrobe2) > release(coffee_mug) > done"
)
FIXED = FIRST.replace("access(wardrobe1) >", "access(wardrobe1) > open(wardrobe1) >")


def test_first_coffee_plan_fails_with_feedback():
    result = runner.invoke(app, ["verify", "coffee", FIRST])
    assert result.exit_code == 1
    assert "not executable" in result.stdout
    assert (
        "step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed"
        in result.stdout
    )


def test_corrected_plan_verifies_with_poses_inserted():
    result = runner.invoke(app, ["verify", "coffee", FIXED])
    assert result.exit_code == 0, result.output
    assert "executable" in result.stdout
    assert "goto(pose1) > goto(toms_room) > goto(pose5) > goto(kitchen)" in result.stdout


def test_json_output_and_plan_files(tmp_path):
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(FIXED.split(" > ")))
    result = runner.invoke(app, ["verify", "coffee", str(plan_file), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["plan"][0] == "goto(bobs_room)"
    text_file = tmp_path / "plan.txt"
    text_file.write_text(FIRST.replace(" > ", "\n"))
    report = json.loads(runner.invoke(app, ["verify", "coffee", str(text_file), "--json"]).stdout)
    assert report["failure"]["cause"] == "container_closed" and report["failure"]["index"] == 2


def test_bad_inputs_are_one_line_errors(tmp_path):
    result = runner.invoke(app, ["verify", "coffee", "goto(kitchen) > pickup(mug"])
    assert result.exit_code == 2
    assert "error: step 2: cannot parse action 'pickup(mug'" in result.stderr
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["verify", "no_such_env", "done"])
    assert result.exit_code == 2 and "error:" in result.stderr and "coffee" in result.stderr
    broken = tmp_path / "plan.json"
    broken.write_text("[not json")
    result = runner.invoke(app, ["verify", "coffee", str(broken)])
    assert result.exit_code == 2 and "not a valid JSON list of actions" in result.stderr


def test_goto_with_an_extra_argument_is_not_executable():
    result = runner.invoke(app, ["verify", "coffee", "goto(kitchen, bobs_room)"])
    assert result.exit_code == 1, result.output
    assert "not executable" in result.stdout
    assert "goto(kitchen, bobs_room)" in result.stdout and "argument" in result.stdout


@pytest.mark.parametrize("plan", ["", "   ", " > > ", "[]"])
def test_an_empty_plan_is_an_input_error(plan):
    result = runner.invoke(app, ["verify", "coffee", plan])
    assert result.exit_code == 2, result.output
    assert "error: the plan is empty" in result.stderr and "executable" not in result.stdout


def test_an_empty_plan_file_is_an_input_error(tmp_path):
    empty = tmp_path / "plan.txt"
    empty.write_text("\n  \n")
    result = runner.invoke(app, ["verify", "coffee", f"@{empty}"])
    assert result.exit_code == 2 and "the plan is empty" in result.stderr


def test_steps_after_done_are_named_in_a_warning():
    result = runner.invoke(app, ["verify", "coffee", "done > goto(kitchen) > access(fridge)"])
    assert result.exit_code == 0, result.output
    assert "warning: 2 steps after done() not run: goto(kitchen) > access(fridge)" in (
        result.stderr
    )
    report = json.loads(
        runner.invoke(app, ["verify", "coffee", "done > goto(kitchen)", "--json"]).stdout
    )
    assert report["ignored"] == ["goto(kitchen)"]
    assert "warning" not in runner.invoke(app, ["verify", "coffee", FIXED]).stderr


def test_plan_files_given_with_at_or_as_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.txt").write_text(FIXED)
    for argument in ("@plan.txt", "plan.txt", str(tmp_path / "plan.txt")):
        result = runner.invoke(app, ["verify", "coffee", argument])
        assert result.exit_code == 0, (argument, result.output)


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("missing.txt", "no such file: missing.txt"),
        ("plans/x.json", "no such file: plans/x.json"),
        # @FILE always names a file: read_text's message, as for every file read
        ("@missing.txt", "cannot read plan file missing.txt: No such file or directory"),
        ("@done", "cannot read plan file done: No such file or directory"),
    ],
)
def test_a_missing_plan_file_says_no_such_file(argument, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["verify", "coffee", argument])
    assert result.exit_code == 2, result.output
    assert f"error: {message}" in result.stderr
    assert "cannot parse" not in result.stderr


def test_a_missing_separator_is_hinted():
    result = runner.invoke(app, ["verify", "coffee", "goto(kitchen) access(fridge)"])
    assert result.exit_code == 2, result.output
    assert "e.g. 'goto(kitchen) > access(fridge)'" in result.stderr
