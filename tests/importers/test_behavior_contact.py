"""The behavior importer's attachment, contact and placement readings (issue 31 items 2-4),
on small hand-written problems and the test taxonomy (data/taxonomy.json): each becomes
a task the oracle solves, and the simulator verifies the plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sceneplan.importers.behavior import convert, read_problem
from sceneplan.importers.behavior.taxonomy import DictTaxonomy
from sceneplan.symbolic.solver import PlanningProblem, solve
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import get_vocabulary

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def taxonomy() -> DictTaxonomy:
    return DictTaxonomy(json.loads((DATA / "taxonomy.json").read_text()))


def problem(tmp_path: Path, objects: str, init: str, goal: str):
    text = (
        "(define (problem test-0) (:domain omnigibson)\n"
        f"(:objects {objects} floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)\n"
        f"(:init {init} (inroom floor.n.01_1 living_room) (ontop agent.n.01_1 floor.n.01_1))\n"
        f"(:goal (and {goal})))\n"
    )
    path = tmp_path / "problem0.bddl"
    path.write_text(text)
    return read_problem(path)


def solved(imported, vocabulary: str = "lookplangraph") -> list[str]:
    """The oracle's plan for the imported task, checked in the simulator."""
    (task,) = imported.tasks
    actions = get_vocabulary(vocabulary)
    result = solve(PlanningProblem(imported.graph, task.goal, vocabulary=actions), 20)
    assert result.ok, result.status
    plan = [str(a) for a in result.plan]
    run = Simulator(imported.graph, actions).verify_plan(plan)
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)
    return plan


CONTACT = {
    "objects": (
        "picture.n.01_1 - picture.n.01 wall_nail.n.01_1 - wall_nail.n.01 "
        "hanger.n.02_1 - hanger.n.02 wardrobe.n.01_1 - wardrobe.n.01 "
        "table.n.02_1 - table.n.02 countertop.n.01_1 - countertop.n.01 "
        "modem.n.01_1 - modem.n.01 mail.n.04_1 mail.n.04_2 - mail.n.04 "
        "sugar_cookie.n.01_1 - sugar_cookie.n.01"
    ),
    "init": (
        "(ontop picture.n.01_1 table.n.02_1) (attached hanger.n.02_1 wardrobe.n.01_1) "
        "(ontop modem.n.01_1 table.n.02_1) (ontop mail.n.04_1 table.n.02_1) "
        "(ontop mail.n.04_2 countertop.n.01_1) (future sugar_cookie.n.01_1) "
        "(inroom wall_nail.n.01_1 living_room) (inroom wardrobe.n.01_1 living_room) "
        "(inroom table.n.02_1 living_room) (inroom countertop.n.01_1 kitchen)"
    ),
    "goal": (
        "(attached ?picture.n.01_1 ?wall_nail.n.01_1) "
        "(not (attached ?hanger.n.02_1 ?wardrobe.n.01_1)) (under ?modem.n.01_1 ?table.n.02_1) "
        "(touching ?mail.n.04_2 ?mail.n.04_1) (ontop ?sugar_cookie.n.01_1 ?table.n.02_1)"
    ),
}


@pytest.mark.slow
def test_attached_touching_and_under_map_to_the_domain(tmp_path, taxonomy):
    imported = convert(problem(tmp_path, **CONTACT), taxonomy)
    graph = imported.graph
    hanger = graph.node("hanger_1")  # attached at the start: on the wardrobe, which attaches
    assert (hanger.parent, hanger.relation.value) == ("wardrobe_1", "ontop_of")
    assert {"attach", "release"} <= set(graph.node("wardrobe_1").affordances)
    assert {"attach", "release"} <= set(graph.node("wall_nail_1").affordances)
    assert "attach" not in graph.node("table_1").affordances
    assert graph.node("floor_1").category == "floor"
    (task,) = imported.tasks
    assert task.goal == (
        "attached(picture_1, wall_nail_1) and not attached(hanger_1, wardrobe_1) and "
        "under(modem_1, table_1) and touching(mail_2, mail_1) and "
        "ontop_of(sugar_cookie_1, table_1)"
    )
    plan = solved(imported)
    assert "attach(wall_nail_1)" in plan or "put_on(wall_nail_1)" in plan
    assert "put_on(floor_1)" in plan  # the modem under the table: on the room's floor


def test_an_object_with_no_place_is_placed_by_its_category(tmp_path, taxonomy):
    imported = convert(problem(tmp_path, **CONTACT), taxonomy)
    cookie = imported.graph.node("sugar_cookie_1")  # made during the task (`future`): food
    assert (cookie.parent, cookie.relation.value) == ("countertop_1", "ontop_of")
    guessed = imported.report.counts_by["guessed"]
    assert guessed["object with no place: food on the countertop"] == 1
    # anything else with no place goes on the floor of the first room
    spec = dict(CONTACT, init=CONTACT["init"].replace("(future sugar_cookie.n.01_1)", ""))
    spec["init"] = spec["init"].replace("(ontop modem.n.01_1 table.n.02_1)", "")
    again = convert(problem(tmp_path, **spec), taxonomy)
    assert again.graph.node("modem_1").parent == "floor_living_room"
    assert again.report.counts_by["guessed"]["object with no place: on the floor of the first room"]


def test_attaching_to_what_does_not_attach_is_fixed_furniture_or_a_gap(tmp_path, taxonomy):
    spec = dict(CONTACT, goal="(attached ?wardrobe.n.01_1 ?wall_nail.n.01_1)")
    imported = convert(problem(tmp_path, **spec), taxonomy)
    assert imported.tasks == []
    assert "goal moves fixed furniture (a sceneObject)" in imported.extra["gaps"]


def test_nextto_a_stack_is_beside_its_base(tmp_path, taxonomy):
    # set_a_dinner_table: the napkin on the table beside a plate stacked on a plate on a mat;
    # read as "on the same thing as plate_2" it must be on plate_1 and on the table at once
    objects = (
        "plate.n.04_1 plate.n.04_2 - plate.n.04 place_mat.n.01_1 - place_mat.n.01 "
        "napkin.n.01_1 - napkin.n.01 table.n.02_1 table.n.02_2 - table.n.02"
    )
    init = (
        "(ontop place_mat.n.01_1 table.n.02_2) (ontop plate.n.04_1 table.n.02_2) "
        "(ontop plate.n.04_2 table.n.02_2) (ontop napkin.n.01_1 table.n.02_2) "
        "(inroom table.n.02_1 living_room) (inroom table.n.02_2 living_room)"
    )
    goal = (
        "(ontop ?place_mat.n.01_1 ?table.n.02_1) (ontop ?plate.n.04_1 ?place_mat.n.01_1) "
        "(ontop ?plate.n.04_2 ?plate.n.04_1) (ontop ?napkin.n.01_1 ?table.n.02_1) "
        "(nextto ?napkin.n.01_1 ?plate.n.04_2)"
    )
    imported = convert(problem(tmp_path, objects, init, goal), taxonomy)
    (task,) = imported.tasks
    assert (
        "(nextto(napkin_1, plate_2) or nextto(napkin_1, plate_1) or nextto(napkin_1, place_mat_1))"
    ) in task.goal
    solved(imported)


@pytest.mark.slow
def test_overlaid_wraps_either_way_round(tmp_path, taxonomy):
    # wrap_silverware: each napkin overlaid on a knife and on a spoon; read as ontop, a
    # napkin would lie on two things at once
    objects = (
        "napkin.n.01_1 napkin.n.01_2 - napkin.n.01 table_knife.n.01_1 table_knife.n.01_2 - "
        "table_knife.n.01 tablespoon.n.02_1 tablespoon.n.02_2 - tablespoon.n.02 "
        "cabinet.n.01_1 - cabinet.n.01"
    )
    init = " ".join(
        f"(inside {thing} cabinet.n.01_1)"
        for thing in objects.split()
        if thing.endswith(("_1", "_2")) and not thing.startswith("cabinet")
    )
    init += " (open cabinet.n.01_1) (inroom cabinet.n.01_1 living_room)"
    goal = " ".join(
        f"(forpairs (?napkin.n.01 - napkin.n.01) (?{k} - {k}) "
        f"(and (overlaid ?napkin.n.01 ?{k}) (inside ?{k} ?cabinet.n.01_1)))"
        for k in ("table_knife.n.01", "tablespoon.n.02")
    )
    imported = convert(problem(tmp_path, objects, init, goal), taxonomy)
    assert "ontop_of(table_knife_1, napkin_1)" in imported.tasks[0].goal
    guessed = imported.report.counts_by["guessed"]
    assert guessed["overlaid read as on top, either way round (a thing wrapped in cloth)"] >= 1
    plan = solved(imported)
    assert sum(step.startswith("put_") for step in plan) >= 2


def test_a_thing_is_next_to_itself_in_a_quantifier(tmp_path, taxonomy):
    # sorting_clothes: `forn (2) (?t - trouser) (or (nextto ?t trouser_1) (nextto ?t
    # trouser_2))` counts each trouser beside itself; as false, the trousers must share a
    # support and the goal's other half splits them: no plan
    objects = "trouser.n.01_1 trouser.n.01_2 - trouser.n.01 cabinet.n.01_1 - cabinet.n.01 "
    objects += "table.n.02_1 - table.n.02"
    init = (
        "(ontop trouser.n.01_1 table.n.02_1) (ontop trouser.n.01_2 table.n.02_1) "
        "(inroom table.n.02_1 living_room) (inroom cabinet.n.01_1 living_room)"
    )
    goal = (
        "(forn (2) (?trouser.n.01 - trouser.n.01) (or (nextto ?trouser.n.01 ?trouser.n.01_1) "
        "(nextto ?trouser.n.01 ?trouser.n.01_2))) (inside ?trouser.n.01_1 ?cabinet.n.01_1) "
        "(not (inside ?trouser.n.01_2 ?cabinet.n.01_1))"
    )
    imported = convert(problem(tmp_path, objects, init, goal), taxonomy)
    (task,) = imported.tasks
    assert "nextto(trouser_1, trouser_1)" not in task.goal
    assert imported.report.counts_by["guessed"]["nextto of a thing with itself: true"] == 2
    solved(imported)
