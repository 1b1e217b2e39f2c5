"""The 30 SayPlan Office planning tasks: goals and reference plans in the simulator.

Every goal parses against the graph and is false at the start; every
reference plan, expanded to corridor poses by the navigator, executes and
reaches its goal. A catalogue of other plans checks that goals accept every
correct outcome an instruction allows and reject the wrong ones.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from sceneplan.datasets.tasks import Task, load_task_file
from sceneplan.graph import NodeKind, SceneGraph, load
from sceneplan.nav import Navigator
from sceneplan.world import Simulator, WorldState, parse_goal, parse_plan
from sceneplan.world.setup import with_facts

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATASETS = REPO / "src" / "sceneplan" / "datasets"
OFFICE_JSON = DATASETS / "environments" / "office.json"
PLANNING_YAML = DATASETS / "tasks" / "office_planning.yaml"
TASKS_BY_ID = {t.id: t for t in load_task_file(PLANNING_YAML)}


@pytest.fixture(scope="module")
def office() -> SceneGraph:
    return load(OFFICE_JSON)


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_task_file(PLANNING_YAML)}


def task_graph(office: SceneGraph, task_id: str) -> SceneGraph:
    """The office as the task starts: the shared graph with the task's `initial` facts."""
    initial = TASKS_BY_ID[task_id].initial
    return with_facts(office, initial) if initial else office


def start_state(sim: Simulator, task_id: str) -> WorldState:
    """The initial world of a task."""
    return Simulator(task_graph(sim.graph, task_id)).initial_state()


def run(office: SceneGraph, task_id: str, plan) -> WorldState:
    """Expand a room-level plan to poses and execute it; fail the test if it breaks."""
    graph = task_graph(office, task_id)
    sim = Simulator(graph)
    result = sim.verify_plan(Navigator(graph).expand_plan(plan), sim.initial_state())
    assert result.ok, f"{task_id}: {result.feedback}"
    return result.final_state


# -- the file -------------------------------------------------------------------


def test_file_shape(tasks: dict[str, Task]):
    assert len(tasks) == 30
    assert Counter(t.family.value for t in tasks.values()) == {
        "simple_planning": 15,
        "long_horizon": 15,
    }
    for task_id, task in tasks.items():
        simple = task.family.value == "simple_planning"
        assert task_id.startswith("planning-simple-" if simple else "planning-long-")
        assert task.suite == "office-planning"
        assert task.environment == "office"
        assert task.source == ("SayPlan App. C.3" if simple else "SayPlan App. C.4")


@pytest.mark.parametrize(
    "task_id",
    [f"planning-simple-{i:02}" for i in range(1, 16)]
    + [f"planning-long-{i:02}" for i in range(1, 16)],
)
def test_reference_plan_reaches_a_goal_that_is_false_at_start(
    office: SceneGraph, tasks: dict[str, Task], task_id: str
):
    task = tasks[task_id]
    goal = parse_goal(task.goal, office)
    sim = Simulator(office)
    assert not goal.holds(start_state(sim, task_id)), f"{task_id} is solved before it starts"
    actions = parse_plan(task.reference_plan)
    assert str(actions[-1]) == "done()"
    for action in actions:
        if action.name == "goto":
            assert office.nodes[action.args[0]].kind is NodeKind.ROOM, "goto rooms only"
    final = run(office, task_id, task.reference_plan)
    assert goal.holds(final), f"{task_id}: {goal.explain(final)}"


def test_held_task_needs_its_start(office: SceneGraph, tasks: dict[str, Task]):
    sim = Simulator(office)
    plan = Navigator(office).expand_plan(tasks["planning-simple-15"].reference_plan)
    result = sim.verify_plan(plan)
    assert not result.ok and result.failure.action.name == "release"


# -- goals accept every correct outcome and reject wrong ones ------------------------
#
# For every task, plans that do what the instruction says in another way than
# the reference plan (among them the paper's own App. G plans) reach the goal,
# and plans that visibly leave out part of the instruction do not. All of
# them execute: the goal, not the simulator, tells them apart.

APPG: dict[str, str] = {
    e["task"]: e["plan"]
    for e in yaml.safe_load((HERE / "data" / "appg_plans.yaml").read_text("utf-8"))
    if e["plan"]
}
KITCHEN_FRIDGE = "goto(kitchen) > access(fridge) > open(fridge)"
HEAT_NOODLES = (
    f"{KITCHEN_FRIDGE} > pickup(noodles) > access(microwave) > open(microwave) > "
    "release(noodles) > close(microwave) > turn_on(microwave) > turn_off(microwave)"
)
HOT_NOODLES_IN_HAND = f"{HEAT_NOODLES} > open(microwave) > pickup(noodles)"
CUPBOARD2 = "goto(supplies_station) > access(cupboard2) > open(cupboard2)"
PLATE_TO_KITCHEN = "goto(cafeteria) > access(lunch_table) > pickup(plate) > goto(kitchen)"
PHONE = "goto(peters_office) > access(desk2) > pickup(phone)"
TO_PETER = "goto(peters_office) > access(desk2)"
KEBAB_IN_MICROWAVE = (
    f"{KITCHEN_FRIDGE} > pickup(chicken_kebab) > access(microwave) > open(microwave) > "
    "release(chicken_kebab) > close(microwave)"
)
BAGEL = f"{KITCHEN_FRIDGE} > pickup(salmon_bagel)"
OPEN_BINS = (
    "goto(kitchen) > access(compost_bin) > open(compost_bin) > access(recycling_bin) > "
    "open(recycling_bin) > access(rubbish_bin) > open(rubbish_bin)"
)
BREAD = "goto(kitchen) > access(kitchen_bench) > pickup(bread) > goto(cafeteria) > "


def water_trips(count: int) -> str:
    trip = "access(cupboard2) > pickup(bottled_water{n}) > goto(meeting_room1) > access(table5)"
    steps = [
        f"{trip.format(n=n)} > release(bottled_water{n}) > goto(supplies_station)"
        for n in range(1, count + 1)
    ]
    return f"{CUPBOARD2} > " + " > ".join(steps)


def bins_plan(scraps_to: str) -> str:
    """The peel and the core out of the recycling into `scraps_to`, the bottle recycled."""
    moves = [
        ("orange_peel", "recycling_bin", scraps_to),
        ("apple_core", "recycling_bin", scraps_to),
        ("plastic_bottle", "rubbish_bin", "recycling_bin"),
    ]
    steps = [
        f"access({a}) > pickup({item}) > access({b}) > release({item})" for item, a, b in moves
    ]
    return " > ".join([OPEN_BINS, *steps])


def tshirt_trips(which: list[tuple[int, str, str]]) -> str:
    return " > ".join(
        f"goto({bay}) > access({desk}) > pickup(complimentary_tshirt{n}) > goto(admin) > "
        f"access(shelf) > release(complimentary_tshirt{n})"
        for n, bay, desk in which
    )


TSHIRTS = [
    (1, "phd_bay1", "desk9"),
    (2, "phd_bay1", "desk10"),
    (3, "phd_bay2", "desk15"),
    (4, "phd_bay2", "desk18"),
    (6, "phd_bay2", "desk18"),
    (5, "phd_bay4", "desk25"),
]

SIMPLE_PLANNING: list[tuple[str, str, bool]] = [
    # close Jason's cabinet
    ("planning-simple-01", APPG["planning-simple-01"], True),
    ("planning-simple-01", "goto(jasons_office) > access(cabinet5)", False),
    # refrigerate the orange: in the fridge, and the fridge shut
    ("planning-simple-02", APPG["planning-simple-02"], True),
    (
        "planning-simple-02",
        "goto(kitchen) > access(kitchen_bench) > pickup(orange1) > access(fridge) > "
        "open(fridge) > release(orange1)",
        False,
    ),  # fridge left open
    (
        "planning-simple-02",
        "goto(kitchen) > access(kitchen_bench) > pickup(orange1) > access(freezer) > "
        "open(freezer) > release(orange1) > close(freezer)",
        False,
    ),
    # take care of the dirty plate: washed, or loaded for the next wash
    ("planning-simple-03", APPG["planning-simple-03"], True),
    (
        "planning-simple-03",
        f"{PLATE_TO_KITCHEN} > access(dishwasher) > open(dishwasher) > release(plate) > "
        "close(dishwasher)",
        True,
    ),
    (
        "planning-simple-03",
        f"{PLATE_TO_KITCHEN} > access(cabinet) > open(cabinet) > release(plate) > close(cabinet)",
        False,
    ),  # put away dirty
    ("planning-simple-03", f"{PLATE_TO_KITCHEN} > access(kitchen_bench) > release(plate)", False),
    # the document on Will's desk
    ("planning-simple-04", APPG["planning-simple-04"], True),
    (
        "planning-simple-04",
        "goto(printing_zone2) > access(printer2) > pickup(document) > goto(wills_office) > "
        "access(cabinet4) > open(cabinet4) > release(document)",
        False,
    ),
    # a healthy snack: fruit or vegetables fit to eat, on Peter's desk
    (
        "planning-simple-05",
        "goto(kitchen) > access(kitchen_bench) > pickup(kale_leaves2) > "
        f"{TO_PETER} > release(kale_leaves2)",
        True,
    ),  # App. G's LLM-As-Planner choice
    (
        "planning-simple-05",
        f"goto(cafeteria) > access(serving_counter) > pickup(banana2) > {TO_PETER} > "
        "release(banana2)",
        True,
    ),
    (
        "planning-simple-05",
        f"goto(kitchen) > access(kitchen_bench) > pickup(orange1) > {TO_PETER} > release(orange1)",
        True,
    ),
    (
        "planning-simple-05",
        f"{KITCHEN_FRIDGE} > pickup(tomato) > {TO_PETER} > release(tomato)",
        True,
    ),
    ("planning-simple-05", APPG["planning-simple-05"], False),  # back in the cabinet
    (
        "planning-simple-05",
        f"goto(kitchen) > access(kitchen_bench) > pickup(banana1) > {TO_PETER} > release(banana1)",
        False,
    ),  # unripe
    (
        "planning-simple-05",
        "goto(dimitys_office) > access(cabinet3) > open(cabinet3) > pickup(apple2) > "
        f"{TO_PETER} > release(apple2)",
        False,
    ),  # rotten
    (
        "planning-simple-05",
        f"{CUPBOARD2} > pickup(biscuits) > {TO_PETER} > release(biscuits)",
        False,
    ),
    # hide a valuable: shut away in Peter's office, nothing kept in hand
    ("planning-simple-06", APPG["planning-simple-06"], True),
    (
        "planning-simple-06",
        "goto(peters_office) > access(desk2) > pickup(wallet) > access(cabinet2) > "
        "open(cabinet2) > release(wallet) > close(cabinet2)",
        True,
    ),
    (
        "planning-simple-06",
        f"{PHONE} > access(cabinet2) > open(cabinet2) > release(phone)",
        False,
    ),  # left open
    (
        "planning-simple-06",
        f"{PHONE} > goto(kitchen) > access(rubbish_bin) > open(rubbish_bin) > release(phone) > "
        "close(rubbish_bin)",
        False,
    ),  # thrown away
    (
        "planning-simple-06",
        f"{PHONE} > goto(kitchen) > access(cabinet) > open(cabinet) > release(phone) > "
        "close(cabinet)",
        False,
    ),  # out of his reach
    (
        "planning-simple-06",
        f"{PHONE} > access(cabinet2) > open(cabinet2) > release(phone) > close(cabinet2) > "
        "access(desk2) > pickup(wallet)",
        False,
    ),  # walks off with the wallet
    # wipe the shelf: something to wipe with, brought to it
    ("planning-simple-07", APPG["planning-simple-07"], True),
    (
        "planning-simple-07",
        "goto(kitchen) > access(kitchen_bench) > pickup(sponge) > goto(admin) > access(shelf) > "
        "release(sponge)",
        True,
    ),
    (
        "planning-simple-07",
        "goto(supplies_station) > access(cupboard1) > open(cupboard1) > pickup(paper_towel) > "
        "goto(admin)",
        False,
    ),
    # stop the dripping coffee machine
    ("planning-simple-08", APPG["planning-simple-08"], True),
    ("planning-simple-08", "goto(kitchen) > access(coffee_machine) > pickup(mug1)", False),
    # Will's drone, not any drone
    ("planning-simple-09", APPG["planning-simple-09"], True),
    (
        "planning-simple-09",
        "goto(phd_bay3) > access(desk20) > pickup(drone1) > goto(wills_office) > access(desk4) > "
        "release(drone1)",
        False,
    ),
    # the monitor into Filipe's office
    ("planning-simple-10", APPG["planning-simple-10"], True),
    (
        "planning-simple-10",
        "goto(jasons_office) > access(desk5) > pickup(monitor) > goto(wills_office) > "
        "access(desk4) > release(monitor)",
        False,
    ),
    # the parcel of LiDARs into the mobile robotics lab
    ("planning-simple-11", APPG["planning-simple-11"], True),
    (
        "planning-simple-11",
        "goto(lobby) > access(shelf2) > pickup(parcel) > goto(manipulation_lab) > "
        "access(workbench) > release(parcel)",
        False,
    ),
    # check the coffee machine: run it (a mug fills), leave it off
    ("planning-simple-12", APPG["planning-simple-12"], True),
    (
        "planning-simple-12",
        "goto(nikos_office) > access(desk1) > pickup(coffee_mug) > goto(kitchen) > "
        "access(coffee_machine) > release(coffee_mug) > turn_on(coffee_machine) > "
        "turn_off(coffee_machine)",
        True,
    ),
    ("planning-simple-12", "goto(kitchen) > access(coffee_machine)", False),  # not checked
    (
        "planning-simple-12",
        "goto(kitchen) > access(coffee_machine) > turn_on(coffee_machine)",
        False,
    ),  # left running
    # heat the kebab
    ("planning-simple-13", APPG["planning-simple-13"], True),
    ("planning-simple-13", KEBAB_IN_MICROWAVE, False),  # never switched on
    # dispose of the smelly bagel: compost or rubbish, not recycling
    ("planning-simple-14", APPG["planning-simple-14"], True),
    (
        "planning-simple-14",
        f"{BAGEL} > access(rubbish_bin) > open(rubbish_bin) > release(salmon_bagel)",
        True,
    ),
    (
        "planning-simple-14",
        f"{BAGEL} > access(recycling_bin) > open(recycling_bin) > release(salmon_bagel)",
        False,
    ),
    ("planning-simple-14", f"{BAGEL} > close(fridge)", False),  # still held
    # the plastic wrapper in the rubbish or the recycling, not the compost
    ("planning-simple-15", APPG["planning-simple-15"], True),
    (
        "planning-simple-15",
        "goto(kitchen) > access(rubbish_bin) > open(rubbish_bin) > release(sweet_wrapper)",
        True,
    ),
    (
        "planning-simple-15",
        "goto(kitchen) > access(compost_bin) > open(compost_bin) > release(sweet_wrapper)",
        False,
    ),
    (
        "planning-simple-15",
        "goto(kitchen) > access(kitchen_bench) > release(sweet_wrapper)",
        False,
    ),
]

LONG_HORIZON: list[tuple[str, str, bool]] = [
    # the noodles: heated, then put down somewhere to eat
    ("planning-long-01", APPG["planning-long-01"], True),
    (
        "planning-long-01",
        f"{HOT_NOODLES_IN_HAND} > goto(robot_lounge1) > access(coffee_table) > release(noodles)",
        True,
    ),
    (
        "planning-long-01",
        f"{HOT_NOODLES_IN_HAND} > goto(meeting_room3) > access(table1) > release(noodles)",
        True,
    ),
    (
        "planning-long-01",
        f"{HOT_NOODLES_IN_HAND} > goto(wills_office) > access(desk4) > release(noodles)",
        True,
    ),
    ("planning-long-01", HEAT_NOODLES, False),  # still in the microwave
    (
        "planning-long-01",
        f"{KITCHEN_FRIDGE} > pickup(noodles) > goto(cafeteria) > access(lunch_table) > "
        "release(noodles)",
        False,
    ),  # cold
    (
        "planning-long-01",
        f"{HOT_NOODLES_IN_HAND} > goto(admin) > access(shelf) > release(noodles)",
        False,
    ),
    (
        "planning-long-01",
        f"{HOT_NOODLES_IN_HAND} > goto(mobile_robotics_lab) > access(table4) > release(noodles)",
        False,
    ),  # a lab bench
    # the rotting fruit, in the correct bin
    ("planning-long-02", APPG["planning-long-02"], True),
    (
        "planning-long-02",
        "goto(dimitys_office) > access(cabinet3) > open(cabinet3) > pickup(apple2) > "
        "goto(kitchen) > access(recycling_bin) > open(recycling_bin) > release(apple2)",
        False,
    ),
    # the dishes washed, the cutlery then in the drawer
    ("planning-long-03", APPG["planning-long-03"], False),  # put away unwashed
    (
        "planning-long-03",
        "goto(cafeteria) > access(lunch_table) > pickup(plate) > goto(kitchen) > "
        "access(dishwasher) > open(dishwasher) > release(plate) > goto(cafeteria) > "
        "access(lunch_table) > pickup(fork) > goto(kitchen) > access(dishwasher) > "
        "release(fork) > goto(cafeteria) > access(lunch_table) > pickup(knife) > "
        "goto(kitchen) > access(dishwasher) > release(knife) > close(dishwasher) > "
        "turn_on(dishwasher) > turn_off(dishwasher)",
        False,
    ),  # washed, the cutlery left in the dishwasher
    # the document filed away in Will's office, the thesis on his desk
    ("planning-long-04", APPG["planning-long-04"], True),
    (
        "planning-long-04",
        "goto(printing_zone2) > access(printer2) > pickup(document) > goto(wills_office) > "
        "access(desk4) > release(document) > access(cabinet4) > open(cabinet4) > "
        "pickup(undergrad_thesis1) > access(desk4) > release(undergrad_thesis1)",
        False,
    ),  # not filed
    # Niko's coffee: a full mug on his desk
    ("planning-long-05", APPG["planning-long-05"], True),
    (
        "planning-long-05",
        "goto(kitchen) > access(coffee_machine) > turn_on(coffee_machine) > "
        "turn_off(coffee_machine) > pickup(mug1) > goto(nikos_office) > access(desk1) > "
        "release(mug1)",
        True,
    ),
    (
        "planning-long-05",
        "goto(nikos_office) > access(desk1) > pickup(coffee_mug) > goto(kitchen) > "
        "access(coffee_machine) > release(coffee_mug) > pickup(coffee_mug) > "
        "goto(nikos_office) > access(desk1) > release(coffee_mug)",
        False,
    ),  # the machine never switched on
    # the wrong bins: no food in the recycling, the bottle recycled
    ("planning-long-06", bins_plan("compost_bin"), True),  # banana peel left in the rubbish
    ("planning-long-06", bins_plan("rubbish_bin"), True),
    ("planning-long-06", APPG["planning-long-06"], False),
    (
        "planning-long-06",
        f"{OPEN_BINS} > access(rubbish_bin) > pickup(plastic_bottle) > access(recycling_bin) > "
        "release(plastic_bottle)",
        False,
    ),  # the food left in the recycling
    # the can thrown away, something to clean with left with Tobi
    (
        "planning-long-07",
        "goto(tobis_office) > access(desk38) > pickup(soda_can) > goto(kitchen) > "
        "access(rubbish_bin) > open(rubbish_bin) > release(soda_can) > access(kitchen_bench) > "
        "pickup(sponge) > goto(tobis_office) > access(desk38) > release(sponge)",
        True,
    ),
    (
        "planning-long-07",
        "goto(tobis_office) > access(desk38) > pickup(soda_can) > goto(kitchen) > "
        "access(compost_bin) > open(compost_bin) > release(soda_can) > access(kitchen_bench) > "
        "pickup(sponge) > goto(tobis_office) > access(desk38) > release(sponge)",
        False,
    ),  # a can in the compost
    (
        "planning-long-07",
        "goto(tobis_office) > access(desk38) > pickup(soda_can) > goto(kitchen) > "
        "access(recycling_bin) > open(recycling_bin) > release(soda_can) > "
        "access(kitchen_bench) > pickup(sponge) > goto(tobis_office)",
        False,
    ),  # still held
    # a sandwich's ingredients: bread and a filling on the lunch table
    ("planning-long-08", APPG["planning-long-08"], True),
    (
        "planning-long-08",
        f"{BREAD}access(lunch_table) > release(bread) > {KITCHEN_FRIDGE} > pickup(cheese) > "
        "goto(cafeteria) > access(lunch_table) > release(cheese)",
        True,
    ),  # a cheese sandwich
    (
        "planning-long-08",
        f"{BREAD}access(lunch_table) > release(bread) > goto(kitchen) > access(kitchen_bench) > "
        "pickup(butter) > goto(cafeteria) > access(lunch_table) > release(butter)",
        False,
    ),  # no filling
    (
        "planning-long-08",
        f"{BREAD}access(serving_counter) > release(bread) > {KITCHEN_FRIDGE} > pickup(cheese) > "
        "goto(cafeteria) > access(serving_counter) > release(cheese)",
        False,
    ),  # not on the lunch table
    # the delegation: supplies-room snacks and soft drinks only
    ("planning-long-09", APPG["planning-long-09"], True),
    (
        "planning-long-09",
        f"{CUPBOARD2} > pickup(potato_chips) > goto(meeting_room3) > access(table1) > "
        "release(potato_chips) > goto(supplies_station) > access(cupboard2) > "
        "pickup(bottled_water4) > goto(meeting_room3) > access(table1) > "
        "release(bottled_water4)",
        True,
    ),
    (
        "planning-long-09",
        f"{CUPBOARD2} > pickup(biscuits) > goto(meeting_room3) > access(table1) > "
        "release(biscuits) > goto(supplies_station) > access(cupboard2) > "
        "pickup(sparkling_wine) > goto(meeting_room3) > access(table1) > "
        "release(sparkling_wine)",
        False,
    ),
    (
        "planning-long-09",
        f"{CUPBOARD2} > pickup(biscuits) > goto(meeting_room3) > access(table1) > "
        "release(biscuits) > goto(tobis_office) > access(desk38) > pickup(pepsi) > "
        "goto(meeting_room3) > access(table1) > release(pepsi)",
        False,
    ),
    # one bottle per attendee: exactly three
    ("planning-long-10", APPG["planning-long-10"], True),
    ("planning-long-10", water_trips(2), False),
    ("planning-long-10", water_trips(4), False),
    # empty the dishwasher into the right places
    ("planning-long-11", APPG["planning-long-11"], True),
    (
        "planning-long-11",
        "goto(kitchen) > access(dishwasher) > open(dishwasher) > pickup(plate2) > "
        "access(cabinet) > open(cabinet) > release(plate2) > access(dishwasher) > "
        "pickup(bowl) > access(cabinet) > release(bowl)",
        False,
    ),  # the spoon left in
    # all six T-shirts on the admin shelf
    ("planning-long-12", APPG["planning-long-12"], True),
    ("planning-long-12", tshirt_trips(TSHIRTS[:5]), False),  # five of six
    # an apple from Peter and a pepsi from Tobi, to the lunch table
    (
        "planning-long-13",
        "goto(peters_office) > access(cabinet2) > open(cabinet2) > pickup(apple3) > "
        "goto(cafeteria) > access(lunch_table) > release(apple3)",
        False,
    ),  # no pepsi
    (
        "planning-long-13",
        "goto(tobis_office) > access(desk38) > pickup(pepsi) > goto(cafeteria) > "
        "access(lunch_table) > release(pepsi) > goto(kitchen) > access(kitchen_bench) > "
        "pickup(apple1) > goto(cafeteria) > access(lunch_table) > release(apple1)",
        False,
    ),  # not Peter's apple
    # Dimity's buzzer, left in Niko's office
    ("planning-long-14", APPG["planning-long-14"], True),
    (
        "planning-long-14",
        "goto(dimitys_office) > access(desk3) > pickup(buzzer) > goto(nikos_office) > "
        "access(desk1) > release(buzzer)",
        True,
    ),
    (
        "planning-long-14",
        "goto(dimitys_office) > access(desk3) > pickup(buzzer) > goto(tobis_office) > "
        "access(desk38) > release(buzzer)",
        False,
    ),
    # Will's rotten apple thrown away, a fresh apple in its place
    (
        "planning-long-15",
        "goto(wills_office) > access(cabinet4) > open(cabinet4) > pickup(apple4) > "
        "goto(kitchen) > access(rubbish_bin) > open(rubbish_bin) > release(apple4) > "
        "goto(peters_office) > access(cabinet2) > open(cabinet2) > pickup(apple3) > "
        "goto(wills_office) > access(desk4) > release(apple3)",
        True,
    ),
    (
        "planning-long-15",
        "goto(wills_office) > access(cabinet4) > open(cabinet4) > pickup(apple4) > "
        "goto(kitchen) > access(recycling_bin) > open(recycling_bin) > release(apple4) > "
        "access(kitchen_bench) > pickup(apple1) > goto(wills_office) > access(desk4) > "
        "release(apple1)",
        False,
    ),  # the recycling
    (
        "planning-long-15",
        "goto(wills_office) > access(cabinet4) > open(cabinet4) > pickup(apple4) > "
        "goto(kitchen) > access(compost_bin) > open(compost_bin) > release(apple4) > "
        "access(kitchen_bench) > pickup(apple1) > goto(wills_office)",
        False,
    ),  # the fresh apple still in hand
]


def judge(office: SceneGraph, tasks: dict[str, Task], task_id: str, plan: str) -> bool:
    goal = parse_goal(tasks[task_id].goal, office)
    return goal.holds(run(office, task_id, plan))


def case_id(case: tuple[str, str, bool]) -> str:
    return f"{case[0].removeprefix('planning-')}-{'accept' if case[2] else 'reject'}"


@pytest.mark.parametrize(("family", "table"), [("simple", SIMPLE_PLANNING), ("long", LONG_HORIZON)])
def test_every_goal_is_judged_both_ways(tasks: dict[str, Task], family: str, table: list):
    ids = {t for t in tasks if t.startswith(f"planning-{family}-")}
    assert {task_id for task_id, _, _ in table} == ids
    rejected = {task_id for task_id, _, accepted in table if not accepted}
    assert rejected == ids, f"no rejected plan for {sorted(ids - rejected)}"
    accepted = {task_id for task_id, _, ok in table if ok}
    # planning-long-03 and long-13 have no correct App. G plan; their reference plans serve
    assert ids - accepted <= {"planning-long-03", "planning-long-13"}


@pytest.mark.parametrize(
    ("task_id", "plan", "accepted"), SIMPLE_PLANNING, ids=[case_id(c) for c in SIMPLE_PLANNING]
)
def test_simple_planning_goals_judge_real_plans(
    office: SceneGraph, tasks: dict[str, Task], task_id: str, plan: str, accepted: bool
):
    assert judge(office, tasks, task_id, plan) is accepted


@pytest.mark.parametrize(
    ("task_id", "plan", "accepted"), LONG_HORIZON, ids=[case_id(c) for c in LONG_HORIZON]
)
def test_long_horizon_goals_judge_real_plans(
    office: SceneGraph, tasks: dict[str, Task], task_id: str, plan: str, accepted: bool
):
    assert judge(office, tasks, task_id, plan) is accepted
