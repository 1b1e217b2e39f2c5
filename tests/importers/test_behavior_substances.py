"""BEHAVIOR's substances in the importer: start facts as substance state words, the
affordances they give, goal atoms as the substance goal predicates, and the oracle solving
the converted task (world/substances.py has the domain's side)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sceneplan.importers.behavior import convert, read_problem
from sceneplan.importers.behavior.taxonomy import DictTaxonomy
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.vocabularies import LOOKPLANGRAPH

DATA = Path(__file__).parent / "data"
THING = ["rigidBody"]


@pytest.fixture
def taxonomy() -> DictTaxonomy:
    return DictTaxonomy(
        {
            "bucket.n.01": [*THING, "fillable"],
            "bowl.n.01": [*THING, "fillable"],
            "rag.n.01": ["cloth", "particleRemover"],
            "salt_shaker.n.01": THING,
            "sink.n.01": ["sceneObject", "fillable", "toggleable", "particleSource"],
            "countertop.n.01": ["sceneObject"],
            "floor.n.01": ["sceneObject"],
            "water.n.06": ["liquid", "physicalSubstance", "substance"],
            "salt.n.02": ["physicalSubstance", "substance"],
            "agent.n.01": [],
        }
    )


def test_substances_are_state_words_and_affordances(taxonomy):
    imported = convert(read_problem(DATA / "water_chores.bddl"), taxonomy)
    graph = imported.graph
    assert "water_1" not in graph and "salt_1" not in graph  # substances are no nodes
    assert set(graph.node("sink_1").state) == {"insource_water", "off"}
    assert "covered_water" in graph.node("countertop_1").state
    assert {"fill", "source"} <= set(graph.node("sink_1").affordances)
    assert {"pour", "source"} <= set(graph.node("salt_shaker_1").affordances)
    assert {"soak", "wiper"} <= set(graph.node("rag_1").affordances)
    assert "coat" in graph.node("countertop_1").affordances
    assert imported.extra["gaps"] == []
    (task,) = imported.tasks
    assert task.goal == (
        "filled(bucket_1, water) and saturated(rag_1, water) and contains(bowl_1, salt) "
        "and not covered(countertop_1, water)"
    )


@pytest.mark.slow
def test_the_oracle_solves_the_converted_task(taxonomy):
    imported = convert(read_problem(DATA / "water_chores.bddl"), taxonomy)
    (task,) = imported.tasks
    result = solve(PlanningProblem(imported.graph, task.goal, vocabulary=LOOKPLANGRAPH), 120)
    assert result.ok, result.status
    assert {"fill", "soak", "pour", "wipe_with", "turn_on"} <= {a.name for a in result.plan}
    run = Simulator(imported.graph, LOOKPLANGRAPH).verify_plan([str(a) for a in result.plan])
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)


def test_a_substance_nothing_gives_is_a_gap_not_a_task(taxonomy, tmp_path):
    text = (DATA / "water_chores.bddl").read_text()
    text = text.replace("(insource sink.n.01_1 water.n.06_1)", "")
    text = text.replace("(covered countertop.n.01_1 water.n.06_1)", "")
    path = tmp_path / "dry.bddl"
    path.write_text(text)
    imported = convert(read_problem(path), taxonomy)
    assert imported.tasks == []
    assert imported.extra["gaps"] == [
        "goal needs filled with a substance nothing of the scene holds or gives",
        "goal needs saturated with a substance nothing of the scene holds or gives",
    ]
