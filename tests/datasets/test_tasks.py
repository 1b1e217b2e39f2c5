import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import (
    find_task,
    get_task,
    graph_problems,
    list_suites,
    load_suite,
    load_task_file,
    packaged_tasks,
)
from sceneplan.errors import BadInputError
from sceneplan.planners import get_planner
from sceneplan.world import parse_goal
from sceneplan.world.setup import with_facts

SEARCH = """
- id: t1
  suite: mine
  family: simple_search
  environment: coffee
  instruction: Find the mug.
  answer: coffee_mug
  answer_kind: object
"""
NOTHING = SEARCH.replace("answer: coffee_mug", "answer: none")


@pytest.mark.slow
def test_packaged_suites_hold_the_90_sayplan_instructions():
    imported = {"behavior-grasif", "behavior-extended", "behavior-1k", "virtualhome-grasif"}
    imported |= {"virtualhome"}
    imported |= {"hydra-apartment", "mp3d-house"}  # tests/importers/test_spark_suites.py
    assert set(list_suites()) - imported == {
        "alfworld-valid-unseen",
        "home-moved",
        "home-search",
        "office-dynamic",
        "office-grasif",
        "office-planning",
        "office-search",
    }
    # ALFWorld: tests/alfworld; the suites of the importers: tests/importers
    tasks = [t for t in packaged_tasks() if t.suite not in {"alfworld-valid-unseen", *imported}]
    derived = [t for t in tasks if t.suite in ("office-dynamic", "office-grasif", "home-moved")]
    assert len(tasks) == 90 + len(derived)  # LookPlanGraph's suites reuse office-planning's
    assert len({t.id for t in tasks}) == len(tasks)
    families = [t.family.value for t in tasks if t not in derived]
    assert families.count("simple_search") == 30 and families.count("complex_search") == 30
    assert families.count("simple_planning") == 15 and families.count("long_horizon") == 15


# behavior-1k holds behavior-grasif's and behavior-extended's tasks again (other ids, the
# same goals and scenes): checked through those two, it would only add time
COPIES = {"behavior-1k"}


@pytest.mark.slow
def test_every_packaged_task_names_real_nodes():
    graphs = {}
    for task in (t for t in packaged_tasks() if t.suite not in COPIES):
        graph = graphs.setdefault(task.environment, load_environment(task.environment))
        for node in task.answers | set(task.answer_rooms):
            assert node in graph, f"{task.id}: unknown answer node {node}"
        if task.goal is not None:
            parse_goal(task.goal, graph)
        with_facts(graph, task.initial)


def test_every_search_task_says_what_kind_of_node_answers_it():
    graphs = {}
    for task in (t for t in packaged_tasks() if t.is_search):
        graph = graphs.setdefault(task.environment, load_environment(task.environment))
        assert task.answer_kind in ("room", "asset", "object"), task.id
        assert graph_problems(task, graph) == []


def test_graph_problems_name_task_field_and_node(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(
        SEARCH.replace("answer: coffee_mug", "answer: [kitchen, ghost]")
        + "  answer_rooms: [fridge]\n"
    )
    (task,) = load_task_file(path)
    assert graph_problems(task, load_environment("coffee")) == [
        "task 't1': field 'answer': no node 'ghost' in the graph",
        "task 't1': field 'answer': kitchen is a room, but answer_kind is object",
        "task 't1': field 'answer_rooms': fridge is an asset, not a room",
    ]


def test_nothing_matches_tasks_name_the_rooms_to_search():
    nothing = {t.id: t for t in packaged_tasks() if t.has_no_answer}
    assert set(nothing) == {"home-simple-01", "office-complex-12", "home-complex-15"}
    assert nothing["office-complex-12"].must_explore == [f"meeting_room{i}" for i in range(1, 5)]
    assert nothing["home-complex-15"].must_explore == ["closet0", "closet1"]
    home = load_environment("home")  # Find me a FooBar: every room that holds something
    rooms = [n.id for n in home if n.kind.value == "room"]
    holding = {r for r in rooms if set(home.descendants(r)) - {"agent"}}
    assert set(nothing["home-simple-01"].must_explore) == holding and len(holding) == 22
    # SayPlan's search can expand them all and answer within its default turn cap
    assert len(holding) + 1 <= get_planner("sayplan").options.max_search_turns


@pytest.mark.parametrize(
    ("task_id", "kind", "answer"),
    [
        ("home-complex-11", "room", {"dining_room0"}),  # "Find somewhere I can heat up my food"
        ("home-complex-14", "object", {"vegetable_lasagna0"}),  # "... Locate it." (the dinner)
        ("home-simple-07", "room", {"living_room0"}),  # "Which room is it in"
        ("office-complex-06", "asset", {"desk27"}),  # "Find the desk ..."
    ],
)
def test_answer_kind_follows_the_question(task_id, kind, answer):
    task = get_task(task_id)
    assert (task.answer_kind, task.answers) == (kind, answer)


def test_user_task_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(SEARCH)
    (task,) = load_suite(str(path))
    assert task.answers == {"coffee_mug"} and task.is_search
    assert get_task("planning-simple-01").family.value == "simple_planning"
    assert find_task("  find me a bottle of WINE. ", "home").id == "home-simple-02"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2", "not valid YAML"),
        ("a: 1", "a task file is a YAML list of tasks"),
        (
            SEARCH.replace("  answer: coffee_mug\n", ""),
            "task 't1': field 'task': a search task needs 'answer'",
        ),
        (
            SEARCH.replace("simple_search", "simple_planning").replace(
                "  answer: coffee_mug\n", ""
            ),
            "a planning task needs 'goal'",
        ),
        (SEARCH + SEARCH, "task 't1': field 'id': duplicate task id"),
        (SEARCH.replace("family: simple_search", "family: easy"), "task 't1': field 'family'"),
        (SEARCH + "  colour: red\n", "task 't1': field 'colour': no such field"),
        (
            SEARCH.replace("  instruction: Find the mug.\n", ""),
            "task 't1': field 'instruction': missing",
        ),
        (
            SEARCH.replace("  answer_kind: object\n", ""),
            "task 't1': field 'task': a search task needs 'answer_kind': room, asset or object",
        ),
        (SEARCH.replace("answer_kind: object", "answer_kind: thing"), "field 'answer_kind'"),
        (NOTHING, "a task whose answer is none needs 'must_explore'"),
        (
            NOTHING + "  must_explore: [kitchen]\n  answer_rooms: [kitchen]\n",
            "a task whose answer is none has no answer_count or answer_rooms",
        ),
        (
            SEARCH + "  answer_count: 2\n",
            "answer_count is 2, but 'answer' lists only 1 distinct node(s)",
        ),
        (
            SEARCH + "  answer_count: 0\n",
            "field 'answer_count': must be a whole number of at least 1",
        ),
        (
            SEARCH.replace("simple_search", "simple_planning").replace(
                "  answer: coffee_mug\n", "  goal: held(coffee_mug)\n"
            ),
            "a planning task has no answer_kind (search fields)",
        ),
    ],
)
def test_bad_task_files_name_file_task_and_field(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(BadInputError) as info:
        load_task_file(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_unknown_names():
    with pytest.raises(BadInputError, match=r"unknown suite 'nope'.*office-search"):
        load_suite("nope")
    with pytest.raises(BadInputError, match="unknown task 'nope'"):
        get_task("nope")
    with pytest.raises(BadInputError, match="cannot read task file"):
        load_task_file("/nonexistent/tasks.yaml")


def test_tasks_cli():
    runner = CliRunner()
    listed = runner.invoke(app, ["tasks", "list", "office-planning", "--json"])
    assert listed.exit_code == 0 and len(json.loads(listed.stdout)) == 30
    shown = runner.invoke(app, ["tasks", "show", "planning-simple-15"])
    assert shown.exit_code == 0 and "held(sweet_wrapper)" in shown.stdout
    missing = runner.invoke(app, ["tasks", "show", "nope"])
    assert missing.exit_code == 2 and "error: unknown task 'nope'" in missing.stderr


def test_task_is_defined_in_world_and_re_exported_here():
    from sceneplan.datasets import tasks
    from sceneplan.world import task

    assert tasks.Task is task.Task and tasks.Family is task.Family
    source = Path(task.__file__).read_text(encoding="utf-8")
    assert "import yaml" not in source and "open(" not in source  # pure data, no file loading


BAD_WORLD = """
- {id: a, suite: s, family: simple_planning, environment: coffee, instruction: x,
   goal: 'full(cofee_mug)', reference_plan: ['goto(kitchn)']}
- {id: b, suite: s, family: long_horizon, environment: coffee, instruction: y}
- {id: c, suite: s, family: simple_planning, environment: nowhere, instruction: z,
   goal: 'closed(fridge)'}
- {id: d, suite: s, family: simple_search, environment: coffee, instruction: w,
   answer: [teapot], answer_kind: object}
"""


def test_tasks_check_lists_every_problem_of_a_file_at_once(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_WORLD)
    result = CliRunner().invoke(app, ["tasks", "check", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0] == f"error: {path}: 5 problem(s)"
    assert lines[1] == "  - task 'b': field 'task': a planning task needs 'goal' " \
        "(a goal formula)"  # fmt: skip
    assert lines[2].startswith("  - task 'a': field 'goal': goal 'full(cofee_mug)': unknown node")
    assert "field 'reference_plan': step 1 'goto(kitchn)': unknown node 'kitchn'" in lines[3]
    assert lines[4].startswith("  - task 'c': field 'environment': unknown environment 'nowhere'")
    assert lines[5] == "  - task 'd': field 'answer': no node 'teapot' in the graph"


@pytest.mark.slow
def test_tasks_check_passes_a_good_file_and_every_packaged_suite():
    good = CliRunner().invoke(app, ["tasks", "check", str(Path(__file__).parent / "x.yaml")])
    assert good.exit_code == 2 and "no such task file" in good.stderr
    for suite in sorted(set(list_suites()) - COPIES):
        result = CliRunner().invoke(app, ["tasks", "check", suite])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"{suite}: ") and "no problems" in result.stdout
