"""docs/domain.md and docs/goals.md say what the registries say, and their example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sceneplan.graph import from_dict
from sceneplan.world import Simulator
from sceneplan.world.docs import SECTIONS, render, sections
from sceneplan.world.primitives import Cause, forget_primitive
from sceneplan.world.vocabularies import forget_action
from scenes import kitchen_dict

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("name", ["domain.md", "goals.md"])
def test_generated_tables_are_current(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    assert sections(text), f"{name} has no generated section"
    assert render(text) == text, (
        f"docs/{name} is stale: run python -m sceneplan.world.docs docs/domain.md docs/goals.md"
    )


def test_every_generated_section_appears_in_the_docs():
    text = "".join((DOCS / n).read_text(encoding="utf-8") for n in ("domain.md", "goals.md"))
    assert set(sections(text)) == set(SECTIONS)


def test_the_tables_name_every_action_primitive_and_predicate():
    text = (DOCS / "domain.md").read_text(encoding="utf-8")
    for needle in ("`place` | effect", "`in_room_of` | test", "`not_adjacent` | missing_pose"):
        assert needle in text, needle
    goals = (DOCS / "goals.md").read_text(encoding="utf-8")
    assert "| `in_room(x, r)` |" in goals and "| `WORD(x)` |" in goals


def test_the_extension_example_runs():
    text = (DOCS / "domain.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    try:
        exec(compile(code, "docs/domain.md", "exec"), {})
        data = kitchen_dict()
        for node in data["nodes"]:
            if node["id"] == "bench":
                node["affordances"] = [*node["affordances"], "scrub"]
                node["state"] = ["dirty"]
        sim = Simulator(from_dict(data, "scrubable"))
        plan = "goto(pose1) > goto(pose2) > goto(kitchen) > access(bench) > scrub(bench)"
        result = sim.verify_plan(plan)
        assert result.ok and "clean" in result.final_state.states("bench")
        assert sim.verify_plan(f"{plan} > scrub(bench)").feedback.endswith("bench is not dirty")
    finally:
        forget_action("sayplan", "scrub")
        forget_primitive("soiled")
        forget_primitive("scrub_clean")
        Cause.forget("not_dirty")
