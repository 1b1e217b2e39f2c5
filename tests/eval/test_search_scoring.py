"""How search runs are scored: "nothing matches" answers, answer kinds and counts, the oracle.

SayPlan Table 1 scores whether the search found the subgraph that holds what
the instruction asks for (`found`), and the answer apart from it (`answered`).
"""

from __future__ import annotations

import pytest

from sayplan_script import contract, expand, switch
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task, packaged_tasks
from sceneplan.eval.metrics import compute
from sceneplan.eval.report import render
from sceneplan.eval.runner import evaluate, load_tasks
from sceneplan.eval.store import Record, Store
from sceneplan.planners import Episode, Status, get_planner
from sceneplan.planners.outcome import finish_episode
from sceneplan.world import SAYPLAN

NOTHING_MATCHES = ["home-simple-01", "office-complex-12", "home-complex-15"]


def sayplan(scripted_llm, task) -> Episode:
    with scripted_llm.client() as llm:
        return runs.plan(get_planner("sayplan"), task, None, llm)


@pytest.mark.parametrize("task_id", NOTHING_MATCHES)
def test_nothing_at_once_scores_nothing(scripted_llm, task_id):
    scripted_llm.enqueue_json(switch([]))
    episode = sayplan(scripted_llm, get_task(task_id))
    assert episode.answer == [] and episode.explored == []
    assert episode.answer_correct is False and episode.answer_room_explored is False
    assert episode.status is Status.FAILED


@pytest.mark.parametrize("task_id", NOTHING_MATCHES)
@pytest.mark.slow
def test_nothing_after_searching_the_rooms_scores(scripted_llm, task_id):
    task = get_task(task_id)
    for room in task.must_explore:
        scripted_llm.enqueue_json(expand(room, find=True))
    scripted_llm.enqueue_json(switch([]))
    episode = sayplan(scripted_llm, task)
    assert episode.explored == task.must_explore
    assert episode.answer_correct is True and episode.answer_room_explored is True
    assert episode.status is Status.SUCCESS


def test_nothing_after_searching_only_some_rooms_does_not_score(scripted_llm):
    task = get_task("office-complex-12")  # Find me a meeting room with a RealSense camera.
    for room in task.must_explore[:3]:
        scripted_llm.enqueue_json(expand(room, find=True))
    scripted_llm.enqueue_json(switch([]))
    episode = sayplan(scripted_llm, task)
    assert episode.answer_correct is False and episode.answer_room_explored is False


def judged(task_id: str, answer: list[str], explored: list[str] | None = None) -> Episode:
    task = get_task(task_id)
    episode = Episode("p", "m", task.environment, task.instruction, task_id=task.id)
    episode.answer = answer
    episode.explored = list(task.answer_rooms) if explored is None else explored
    finish_episode(episode, task, load_environment(task.environment), None, SAYPLAN)
    return episode


@pytest.mark.parametrize(
    ("task_id", "answer", "correct"),
    [
        # "Which room is it in": the room; the suitcase that shows it is context
        ("home-simple-07", ["living_room0"], True),
        ("home-simple-07", ["living_room0", "suitcase0"], True),
        ("home-simple-07", ["suitcase0"], False),
        ("home-simple-07", ["living_room0", "bedroom0"], False),
        ("home-simple-07", ["living_room_0"], False),  # an unknown id is an answer, and wrong
        # "A vegetarian dinner ... Locate it.": the dish, not its room
        ("home-complex-14", ["vegetable_lasagna0"], True),
        ("home-complex-14", ["dining_room2"], False),
        ("home-complex-14", ["dining_room2", "vegetable_lasagna0"], True),
        # "Find me 2 bedrooms with pillows in them": answer_count 2
        ("home-simple-14", ["bedroom1", "bedroom3"], True),
        ("home-simple-14", ["bedroom1"], False),
        ("home-simple-14", ["bedroom1", "bedroom1"], False),
        ("home-simple-14", ["bedroom1", "bedroom3", "pillow0"], True),
        # "Find the desk that's most likely theirs": an asset
        ("office-complex-06", ["desk27"], True),
        ("office-complex-06", ["postdoc_bay2"], False),
        ("office-complex-06", [], False),
    ],
)
def test_answers_are_judged_by_the_kind_of_node_asked_for(task_id, answer, correct):
    episode = judged(task_id, answer)
    assert episode.answer_correct is correct
    assert episode.status is (Status.SUCCESS if correct else Status.FAILED)


def test_found_and_answered_are_separate():
    guessed = judged("office-simple-02", ["carrot"], explored=[])  # Find me a carrot.
    assert guessed.answer_correct is True and guessed.answer_room_explored is False
    looked = judged("office-simple-02", ["banana1"], explored=["kitchen"])
    assert looked.answer_correct is False and looked.answer_room_explored is True


SEARCH_TASKS = [t for t in packaged_tasks() if t.is_search]


@pytest.mark.slow
def test_the_oracle_scores_every_search_column_in_full(tmp_path):
    assert len(SEARCH_TASKS) == 60
    with Store(tmp_path / "oracle.db") as store:
        totals = evaluate(load_tasks(["office-search", "home-search"]), ["oracle"], [], store)
        records = store.records()
    assert (totals.done, totals.failed, totals.errors) == (60, 0, 0)
    metrics = compute(records)
    rows = metrics["search"]
    families = ("simple_search", "complex_search")
    assert {(r["environment"], r["family"]) for r in rows} == {
        (env, family) for env in ("home", "office") for family in families
    }
    for row in rows:
        assert row["n"] == 15 and row["found_n"] == 15, row
        assert (row["answered"], row["found"]) == (1.0, 1.0), row
        assert row["explored_rooms"] >= 1
    for record in records:
        task = get_task(record.episode.task_id)
        assert set(task.must_explore) <= set(record.episode.explored)
    text = render(metrics, "md")
    table1 = text.split("## Semantic search success (SayPlan Table 1)")[1].split("\n#")[0]
    body = [line for line in table1.splitlines() if line.startswith("| ")][1:]
    assert len(body) == 4 and all("| 100.0% of 15 | 100.0% of 15 |" in line for line in body)


def test_answering_nothing_at_once_scores_zero_in_the_benchmark(scripted_llm, tmp_path):
    tasks = [get_task(t) for t in NOTHING_MATCHES]
    for _ in tasks:
        scripted_llm.enqueue_json(switch([]))
    with Store(tmp_path / "none.db") as store:
        evaluate(tasks, ["sayplan"], [scripted_llm.model], store, concurrency=1,
                 settings=scripted_llm.settings())  # fmt: skip
        rows = compute(store.records())["search"]
    assert len(rows) == 3 and sum(r["n"] for r in rows) == 3
    assert all((r["answered"], r["found"]) == (0.0, 0.0) for r in rows)


def test_a_room_expanded_then_contracted_before_the_switch_is_not_found(scripted_llm):
    """Table 1's found is the subgraph the model switched to planning with: the banana's
    kitchen, expanded and contracted again, is not in it; the right answer still counts."""
    task = get_task("office-simple-02")  # Find me a carrot. (the kitchen has a banana, ...)
    room = task.answer_rooms[0] if task.answer_rooms else "kitchen"
    scripted_llm.enqueue_json(expand(room, find=True))
    scripted_llm.enqueue_json(contract(room, find=True))
    scripted_llm.enqueue_json(switch(sorted(task.answers)[: task.needed]))
    episode = sayplan(scripted_llm, task)
    assert episode.explored == [room] and episode.subgraph == []
    assert episode.answer_room_explored is False and episode.answer_correct is True
    metrics = compute([Record("office-search", 1, episode)])
    [row] = metrics["search"]
    assert (row["found"], row["answered"]) == (0.0, 1.0)


def test_a_room_still_expanded_at_the_switch_is_found(scripted_llm):
    task = get_task("office-simple-02")
    room = task.answer_rooms[0] if task.answer_rooms else "kitchen"
    scripted_llm.enqueue_json(expand(room, find=True))
    scripted_llm.enqueue_json(switch(sorted(task.answers)[: task.needed]))
    episode = sayplan(scripted_llm, task)
    assert episode.subgraph == [room] and episode.answer_room_explored is True
