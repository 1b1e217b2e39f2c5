"""The VirtualHome importer's readings of postures, plugs, taps and nearness, on a hand-made scene.

The scene is tests/importers/data/kitchen.vh.json (kitchen, bedroom, a table,
a fridge) with a couch, a toilet, a faucet, a plugged-out television, a dirty
plate and a cup added here; nothing needs virtualhome-eval.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sceneplan.errors import UnsupportedError
from sceneplan.importers.virtualhome import convert_task
from sceneplan.importers.virtualhome.task import PUT, SIMPLE, WASHES, verbs
from sceneplan.world.goals import parse_goal
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import LOOKPLANGRAPH, forget_action, register_action

DATA = Path(__file__).parent / "data"
ADDED = [
    # id, class, properties, states, room, ON
    (23, "plate", ["GRABBABLE", "RECIPIENT", "SURFACES"], ["DIRTY"], 1, 10),
    (24, "cup", ["GRABBABLE", "RECIPIENT"], ["CLEAN"], 1, 10),
    (30, "couch", ["SITTABLE", "LIEABLE", "SURFACES"], ["CLEAN"], 2, None),
    (31, "toilet", ["SITTABLE", "CAN_OPEN", "CONTAINERS"], ["CLOSED"], 2, None),
    (32, "faucet", ["HAS_SWITCH"], ["OFF"], 1, None),
    (33, "television", ["HAS_SWITCH", "HAS_PLUG"], ["OFF", "PLUGGED_OUT"], 2, None),
]


def scene(character_states: tuple[str, ...] = ()) -> dict[str, Any]:
    data = json.loads((DATA / "kitchen.vh.json").read_text())
    for vid, name, props, states, room, on in ADDED:
        category = "placable_objects" if "GRABBABLE" in props else "Furniture"
        data["nodes"].append(
            {
                "id": vid,
                "class_name": name,
                "category": category,
                "properties": props,
                "states": states,
            }
        )
        data["edges"].append({"from_id": vid, "relation_type": "INSIDE", "to_id": room})
        if on is not None:
            data["edges"].append({"from_id": vid, "relation_type": "ON", "to_id": on})
    for node in data["nodes"]:
        if node["category"] == "Characters":
            node["states"] = list(character_states)
    return data


def program(*lines: str) -> str:
    return "A task\nWhat the program says it does.\n\n\n" + "\n".join(lines)


def convert(goal: list[dict], lines: tuple[str, ...] = (), actions=(), data=None):
    return convert_task(
        "t", data or scene(), {"goal": goal, "actions": list(actions)}, program(*lines)
    )


def state(vid: int, word: str) -> dict:
    return {"id": vid, "class_name": "x", "state": word}


def edge(a: int, relation: str, b: int) -> dict:
    return {"from_id": a, "relation_type": relation, "to_id": b}


def test_affordances_and_posture_from_virtualhome_properties():
    g = convert([]).graph
    assert {"sit", "lie", "release"} <= set(g.node("couch_30").affordances)
    assert "sit" in g.node("toilet_31").affordances
    assert "lie" not in g.node("toilet_31").affordances
    assert "rinse" in g.node("faucet_32").affordances  # a tap: a faucet with a switch
    assert {"plug_in", "plug_out"} <= set(g.node("television_33").affordances)
    assert "wipe" in g.node("plate_23").affordances  # dirty: it can be wiped
    assert "wipe" not in g.node("cup_24").affordances
    assert "rinse" not in g.node("fridge_11").affordances
    assert g.node("agent").state == ()
    sitting = convert([], data=scene(("SITTING",))).graph
    assert sitting.node("agent").state == ("sitting",)


def test_character_on_a_couch_lying_plugged_tv_and_the_program():
    imported = convert(
        [
            state(33, "ON"),
            state(33, "PLUGGED_IN"),
            state(3, "LYING"),
            edge(3, "ON", 30),
        ],
        (
            "[WALK] <television> (1.33)",
            "[PLUGIN] <television> (1.33)",
            "[SWITCHON] <television> (1.33)",
            "[WALK] <couch> (1.30)",
            "[SIT] <couch> (1.30)",
            "[LIE] <couch> (1.30)",
        ),
    )
    (task,) = imported.tasks
    assert task.goal == "on(television_33) and plugged_in(television_33) and lying(agent)"
    # VirtualHome lies down straight from sitting; the domain stands up in between
    assert task.reference_plan == [
        "plug_in(television_33)",
        "turn_on(television_33)",
        "sit(couch_30)",
        "stand_up()",
        "lie(couch_30)",
        "done()",
    ]
    run = Simulator(imported.graph, LOOKPLANGRAPH).verify_plan(task.reference_plan)
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)


def test_character_on_a_seat_reads_as_the_posture_it_affords():
    (toilet,) = convert([edge(3, "ON", 31)]).tasks
    assert toilet.goal == "sitting(agent)"
    (couch,) = convert([edge(3, "ON", 30)]).tasks
    assert couch.goal == "(sitting(agent) or lying(agent))"
    (sofa,) = convert([state(3, "SITTING"), edge(3, "ON", 30)]).tasks
    assert sofa.goal == "sitting(agent)"
    table = convert([edge(3, "ON", 10)])
    assert table.tasks == []
    assert table.extra["gaps"] == ["goal puts the character on a thing it cannot sit or lie on"]
    lying_on_toilet = convert([state(3, "LYING"), edge(3, "ON", 31)])
    assert lying_on_toilet.extra["gaps"] == [
        "goal has the character lying on a thing it cannot be so on"
    ]
    both = convert([state(3, "LYING"), state(3, "SITTING")])
    assert both.extra["gaps"] == ["goal has the character sitting and lying"]
    awake = convert([state(3, "ASLEEP")])
    assert awake.extra["gaps"] == ["goal uses state asleep of the character"]


def test_goal_holding_at_the_start_and_standing_up():
    seated = convert([state(3, "SITTING")], data=scene(("SITTING",)))
    assert seated.tasks == [] and seated.extra["gaps"] == ["goal holds at the start"]
    (walk,) = convert(
        [edge(3, "INSIDE", 1)],
        ("[STANDUP]", "[WALK] <kitchen> (1.1)"),
        data=scene(("SITTING",)),
    ).tasks
    assert walk.goal == "agent_at(kitchen)"
    assert walk.reference_plan == ["stand_up()", "go_to(kitchen)", "done()"]


def test_close_is_nextto_between_objects_only():
    imported = convert([edge(24, "CLOSE", 22)])  # the cup close to the book on the floor
    (task,) = imported.tasks
    assert task.goal == "nextto(cup_24, book_22)"
    plan = ["go_to(kitchen)", "pick_up(cup_24)", "go_to(bedroom)", "put_on(floor_bedroom)"]
    run = Simulator(imported.graph, LOOKPLANGRAPH).verify_plan(plan)
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)
    together = convert([edge(24, "CLOSE", 20)])  # cup and mug both on the kitchen table
    assert together.extra["gaps"] == ["goal holds at the start"]
    character = convert([edge(3, "CLOSE", 24)])
    assert character.tasks == []
    assert character.extra["gaps"] == ["goal puts the character close to a thing"]
    asset = convert([edge(24, "CLOSE", 11)])
    assert asset.extra["gaps"] == ["goal puts a thing close to an asset or room"]


def test_rinse_under_a_running_faucet_and_what_does_not_translate():
    goal = [state(23, "CLEAN"), edge(23, "ON", 10)]
    imported = convert(
        goal,
        (
            "[WALK] <kitchen> (1.1)",
            "[SWITCHON] <faucet> (1.32)",
            "[GRAB] <plate> (1.23)",
            "[RINSE] <plate> (1.23)",
            "[PUTBACK] <plate> (1.23) <kitchen_table> (1.10)",
        ),
    )
    (task,) = imported.tasks
    assert task.goal == "clean(plate_23) and ontop_of(plate_23, kitchen_table_10)"
    assert task.reference_plan == [
        "go_to(kitchen)",
        "turn_on(faucet_32)",
        "pick_up(plate_23)",
        "rinse(plate_23, faucet_32)",
        "put_on(kitchen_table_10)",
        "done()",
    ]
    off = convert(
        goal, ("[WALK] <kitchen> (1.1)", "[GRAB] <plate> (1.23)", "[WASH] <plate> (1.23)")
    )
    assert off.extra["program_gap"] == "program uses WASH with no running tap in the room"
    not_held = convert(goal, ("[WALK] <kitchen> (1.1)", "[SCRUB] <plate> (1.23)"))
    assert not_held.extra["program_gap"] == "program uses SCRUB on what it does not hold"
    (wiped,) = convert(
        [state(23, "CLEAN")], ("[WALK] <kitchen> (1.1)", "[WIPE] <plate> (1.23)")
    ).tasks
    assert wiped.reference_plan == ["go_to(kitchen)", "wipe(plate_23)", "done()"]
    clean = convert([state(23, "CLEAN")], ("[WIPE] <cup> (1.24)",))
    assert clean.extra["program_gap"] == "program uses WIPE on a thing that is not dirty"


def test_goal_actions_stay_gaps():
    imported = convert([], actions=["RINSE|WASH"])
    assert imported.tasks == [] and imported.extra["gaps"] == ["goal needs action rinse"]


def test_a_guess_never_puts_an_object_where_the_goal_wants_it():
    # virtualhome-eval 419_2 "Set up table": objects with only a room edge, CLOSE to the
    # table the goal puts them on, were guessed onto it, and the goal held at the start
    elsewhere = convert([edge(22, "ON", 10)])  # the book, not close to the table: guessed
    assert elsewhere.graph.node("apple_21").parent == "kitchen_table_10"
    imported = convert(
        [edge(21, "ON", 10)],
        ("[GRAB] <apple> (1.21)", "[PUTBACK] <apple> (1.21) <kitchen_table> (1.10)"),
    )
    assert imported.graph.node("apple_21").parent == "floor_kitchen"
    (task,) = imported.tasks
    assert task.goal == "ontop_of(apple_21, kitchen_table_10)"
    assert task.reference_plan == [
        "go_to(kitchen)",
        "pick_up(apple_21)",
        "put_on(kitchen_table_10)",
        "done()",
    ]
    run = Simulator(imported.graph, LOOKPLANGRAPH).verify_plan(task.reference_plan)
    assert run.ok and parse_goal(task.goal, imported.graph).holds(run.final_state)


def test_every_verb_the_translator_handles_is_one_action_of_both_vocabularies():
    # the translator writes what the actions declare (ActionSchema.virtualhome); each verb
    # it handles must be declared, by an action taking the arguments the step gives it
    one, two = verbs(LOOKPLANGRAPH), verbs(LOOKPLANGRAPH.two_hands)
    for table in (one, two):
        assert {"WALK", "RUN", "STANDUP", *SIMPLE, *WASHES, *PUT} <= set(table)
        assert all(len(table[verb].params) == 1 for verb in (*SIMPLE, "WALK", "RUN"))
        assert all(len(table[verb].params) == 2 for verb in WASHES)
        assert table["STANDUP"].params == ()
    # one hand: a put acts on the one held object; two: it names it (PUTBACK <o> <target>)
    assert all(len(one[v].params) == 1 and len(two[v].params) == 2 for v in PUT)


def test_a_verb_two_actions_declare_is_refused():
    grab = replace(LOOKPLANGRAPH.actions["pick_up"], name="grab_it")
    register_action("lookplangraph", grab)
    try:
        with pytest.raises(UnsupportedError, match=r"pick_up and grab_it both declare .* GRAB"):
            verbs(LOOKPLANGRAPH)
    finally:
        forget_action("lookplangraph", "grab_it")
    assert verbs(LOOKPLANGRAPH)["GRAB"].name == "pick_up"


def test_a_step_on_a_thing_without_what_its_action_needs_does_not_translate():
    # sit's seat and lie's bed need the affordance the action's parameter declares
    goal = [state(33, "ON")]
    table = convert(goal, ("[WALK] <kitchen_table> (1.10)", "[SIT] <kitchen_table> (1.10)"))
    assert table.extra["program_gap"] == "program uses SIT on a thing without sit"
    toilet = convert(goal, ("[LIE] <toilet> (1.31)",))
    assert toilet.extra["program_gap"] == "program uses LIE on a thing without lie"
    (sat,) = convert(goal, ("[SIT] <toilet> (1.31)", "[SWITCHON] <television> (1.33)")).tasks
    assert sat.reference_plan == ["sit(toilet_31)", "turn_on(television_33)", "done()"]
