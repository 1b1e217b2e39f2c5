"""What a command that runs still imports: no pydantic for text and flag values, no networkx
for loading a graph.

Structural checks (which modules a call imports), not timings: those are in
benchmarks/startup.py.
"""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()


def modules_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return set(done.stdout.split("\n")[-2].split())


def test_a_command_with_text_arguments_and_flags_imports_no_pydantic():
    code = (
        "import sys\n"
        "from sceneplan.cli import main\n"
        "sys.argv = ['sceneplan', 'verify', 'coffee', 'goto(kitchen) > done', '--no-expand']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert "pydantic" not in modules_after(code)


def test_loading_a_graph_imports_no_networkx_until_a_networkx_graph_is_asked_for():
    code = (
        "from sceneplan.datasets import load_environment\n"
        "graph = load_environment('office')\n"
        "assert graph.linked('pose8', 'pose7') and graph.children('kitchen')\n"
    )
    assert "networkx" not in modules_after(code)


def test_numbers_still_go_through_typers_checks():
    for runs in ("zero", "0"):  # not a number; below the minimum of 1
        result = runner.invoke(app, ["eval", "office", "--runs", runs])
        assert result.exit_code == 2 and "--runs" in result.output, result.output


def test_text_values_arrive_unchanged():
    plan = "goto(kitchen) > access(coffee_machine) > done"
    result = runner.invoke(app, ["verify", "coffee", plan, "--vocabulary", "sayplan"])
    assert result.exit_code == 0, result.output
    assert "executable" in result.output
    result = runner.invoke(app, ["verify", "coffee", plan, "--vocabulary", "nonsense"])
    assert result.exit_code != 0


def test_verifying_a_room_level_plan_imports_no_networkx():
    """Navigation (pose insertion) and the simulator's adjacency read the graph's own links."""
    code = (
        "import sys\n"
        "from sceneplan.cli import main\n"
        "sys.argv = ['sceneplan', 'verify', 'coffee', "
        "'goto(kitchen) > access(fridge) > open(fridge) > goto(pose1) > done']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert "networkx" not in modules_after(code)
