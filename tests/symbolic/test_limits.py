"""The solver on deeply nested containment: shared chains, no recursion limit, a memory budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.graph import load
from sceneplan.symbolic.grounding import Grounder, GroundingLimitError
from sceneplan.symbolic.scope import focused_scope
from sceneplan.symbolic.solver import PlanningProblem, SolveStatus, solve
from sceneplan.world import Simulator
from sceneplan.world.goal_forms import ground, literals, wrong_literals
from sceneplan.world.goals import parse_goal
from sceneplan.world.state import WorldState

pytestmark = pytest.mark.slow  # solves to the limits

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "two_rooms.json"


def nested(tmp_path: Path, count: int) -> Path:
    """two_rooms with `count` boxes nested inside the fridge: box1 in it, box2 in box1, ..."""
    graph = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    parent = "fridge"
    for i in range(1, count + 1):
        box = {"id": f"box{i}", "kind": "object", "parent": parent, "relation": "inside_of"}
        graph["nodes"].insert(-1, box | {"affordances": ["pickup", "receptacle"]})
        parent = f"box{i}"
    path = tmp_path / f"nested{count}.json"
    path.write_text(json.dumps(graph), encoding="utf-8")
    return path


def test_nested_objects_share_the_chains_of_what_holds_them(tmp_path):
    graph = load(nested(tmp_path, 40))
    state = WorldState(graph)
    goal = ground(parse_goal("inside_of(box40, fridge)", graph), graph)
    scope = focused_scope(state, [a for a, _ in wrong_literals(goal, state)], literals(goal))
    grounder = Grounder(state, scope)
    chains = grounder.chains("box40")
    # held, on or in the fridge, or where it is with each box above it held or moved
    assert len(chains) == 3 * 40
    assert {c.asset for c in chains} == {None, "fridge"}
    assert len(grounder._chain_cache) == 40  # one set per box: made once, shared
    result = solve(PlanningProblem(graph, "inside_of(box40, fridge)"))
    assert result.status is SolveStatus.PLAN
    assert Simulator(graph).verify_plan(result.plan).ok


def test_three_thousand_nested_objects_stop_at_the_budget_with_one_clear_error(tmp_path):
    path = nested(tmp_path, 3000)
    graph = load(path)
    with pytest.raises(GroundingLimitError, match="too large to plan") as caught:
        solve(PlanningProblem(graph, "inside_of(box3000, fridge)"))
    assert "inside or on" in str(caught.value) and "docs/symbolic.md" in str(caught.value)
    # a goal that needs none of them is planned as before
    result = solve(PlanningProblem(graph, "open(fridge)"))
    assert [str(a) for a in result.plan][-1] == "open(fridge)"
    done = CliRunner().invoke(app, ["solve", str(path), "--goal", "inside_of(box3000, fridge)"])
    assert done.exit_code == 2, done.output
    assert done.output.startswith("error: this problem is too large to plan")
    assert "Traceback" not in done.output


def test_running_out_of_memory_is_one_clear_error(tmp_path):
    path = nested(tmp_path, 150)  # about 1 GB to ground, under the budget
    code = (
        "import resource, sys\n"
        "from sceneplan.cli import main\n"
        "import sceneplan.cli.solve, sceneplan.symbolic.solver\n"
        "with open('/proc/self/statm') as f:\n"
        "    pages = int(f.read().split()[0])\n"
        "limit = pages * resource.getpagesize() + 150 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        f"sys.argv = ['sceneplan', 'solve', {str(path)!r}, '--goal', 'inside_of(box150, fridge)']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: this problem is too large to plan in the memory")
    assert "Traceback" not in done.stderr
