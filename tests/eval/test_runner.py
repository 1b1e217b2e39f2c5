"""The runner against the scripted LLM server: end to end, errors, resume, models, skipping."""

from __future__ import annotations

import json

import pytest

from eval_helpers import REFERENCE_PLAN, without_timings
from sceneplan.datasets.tasks import load_task_file
from sceneplan.errors import BadInputError, ModelNotConfiguredError
from sceneplan.eval.metrics import compute
from sceneplan.eval.runner import Spec, evaluate, load_tasks, plan_jobs, refusals
from sceneplan.eval.store import Key, Store
from sceneplan.planners.base import Planner
from sceneplan.planners.episode import Status
from sceneplan.planners.supports import Supports
from sceneplan.world import SAYPLAN


def statuses(store: Store) -> dict[tuple[str, str, str], str]:
    return {(r.episode.task_id, r.episode.planner, r.episode.model): r.episode.status.value
            for r in store.records()}  # fmt: skip


def test_end_to_end_with_scripted_replies(coffee_tasks, scripted_llm, toys, tmp_path):
    for answer in (["coffee_mug"], ["fridge"], REFERENCE_PLAN, ["done"]):
        scripted_llm.enqueue_json({"answer": answer}, input_tokens=30, output_tokens=5)
    tasks = load_tasks([str(coffee_tasks)])
    model = scripted_llm.model
    with Store(tmp_path / "r.db") as store:
        totals = evaluate(tasks, ["toy_asking", "toy_reference"], [model], store,
                          concurrency=1, settings=scripted_llm.settings())  # fmt: skip
        assert statuses(store) == {
            ("coffee-search-01", "toy_asking", model): "success",
            ("coffee-search-02", "toy_asking", model): "failed",
            ("coffee-plan-01", "toy_asking", model): "success",
            ("coffee-plan-02", "toy_asking", model): "failed",
            **{(t.id, "toy_reference", "none"): "success" for t in tasks},
        }
        asked = [r.episode for r in store.records() if r.episode.planner == "toy_asking"]
    assert (totals.total, totals.done, totals.skipped, totals.failed, totals.errors) == (
        8,
        8,
        0,
        2,
        0,
    )
    assert (totals.input_tokens, totals.output_tokens) == (120, 20)
    assert all(e.input_tokens == 30 and len(e.llm_calls) == 1 for e in asked)
    assert [
        json.loads(json.dumps(r["messages"]))[-1]["content"] for r in scripted_llm.requests
    ] == [t.instruction for t in tasks]


@pytest.mark.slow
def test_one_client_per_model_and_model_less_planners_once(
    coffee_tasks, scripted_llm, toys, tmp_path
):
    for _ in range(8):
        scripted_llm.enqueue_json({"answer": ["done"]})
    models = [scripted_llm.model, scripted_llm.anthropic_model]
    with Store(tmp_path / "r.db") as store:
        tasks = load_tasks([str(coffee_tasks)])
        totals = evaluate(tasks, ["toy_asking", "toy_reference"], models, store, concurrency=3,
                          settings=scripted_llm.settings())  # fmt: skip
        keys = store.keys()
    assert totals.done == len(keys) == 4 * 2 + 4
    assert {k.model for k in keys if k.planner == "toy_reference"} == {"none"}
    assert {k.model for k in keys if k.planner == "toy_asking"} == set(models)
    assert sorted(set(scripted_llm.paths)) == ["/v1/chat/completions", "/v1/messages"]


def test_runs_concurrently_up_to_the_limit(coffee_tasks, toys, tmp_path, monkeypatch):
    monkeypatch.setenv("SCENEPLAN_TOY_DELAY", "0.02")
    with Store(tmp_path / "r.db") as store:
        evaluate(load_tasks([str(coffee_tasks)]), ["toy_reference"], [], store,
                 runs=3, concurrency=3)  # fmt: skip
        assert len(store) == 12
    assert toys.ReferencePlanner.peak == 3


def test_a_task_that_raises_is_recorded_and_the_run_completes(coffee_tasks, toys, tmp_path):
    with Store(tmp_path / "r.db") as store:
        totals = evaluate(load_tasks([str(coffee_tasks)]), ["toy_broken"], [], store)
        got = {r.episode.task_id: r.episode for r in store.records()}
    assert totals.done == 4 and totals.errors == 2
    assert got["coffee-plan-02"].status is Status.ERROR
    assert got["coffee-plan-02"].error == "RuntimeError: planner bug"
    assert got["coffee-search-02"].error == "RuntimeError: planner bug"
    assert got["coffee-plan-01"].status is Status.FAILED  # the others ran


def test_every_problem_of_the_tasks_is_reported_before_any_run(coffee_tasks, toys, tmp_path):
    broken = tmp_path / "tasks.yaml"
    broken.write_text(
        coffee_tasks.read_text() + "\n- {id: lost-01, suite: coffee-mini, family: simple_planning, "
        "environment: nowhere/graph.json, instruction: Do it., goal: 'true'}\n"
        "- {id: bad-02, suite: coffee-mini, family: simple_planning, environment: coffee,\n"
        "   instruction: Do it., goal: 'full(coffee_mug', initial: ['held(cofee_mug)'],\n"
        "   reference_plan: ['goto(kitchn)', 'pickup coffee_mug']}\n"
    )
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(BadInputError) as info:
            evaluate(load_tasks([str(broken)]), ["toy_broken"], [], store)
        assert len(store) == 0
    lines = str(info.value).splitlines()
    assert lines[0] == "5 problem(s) in the task files"
    at = f"  - {broken}: "
    assert lines[1] == (
        f"{at}task 'lost-01': field 'environment': cannot read scene graph file "
        "nowhere/graph.json: No such file or directory"
    )
    assert lines[2].startswith(f"{at}task 'bad-02': field 'initial': ") and "cofee_mug" in lines[2]
    assert lines[3].startswith(f"{at}task 'bad-02': field 'goal': ")
    assert lines[4].startswith(
        f"{at}task 'bad-02': field 'reference_plan': step 1 'goto(kitchn)': unknown node 'kitchn'"
    )
    assert lines[5].startswith(f"{at}task 'bad-02': field 'reference_plan': step 2: ")
    # the runner checks them too, for tasks made in code
    with Store(tmp_path / "r.db") as store, pytest.raises(BadInputError, match="in the tasks"):
        evaluate([t for t in load_task_file(broken) if t.id != "bad-02"], ["toy_broken"], [], store)


def test_interrupted_run_resumes_without_duplicates(coffee_tasks, toys, tmp_path):
    tasks = load_tasks([str(coffee_tasks)])
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(KeyboardInterrupt):
            evaluate(tasks, ["toy_interrupting"], [], store, runs=2, concurrency=2)
        stored = len(store)
        assert 0 < stored < 8  # what finished before Ctrl-C (in-flight runs are lost)
        toys.InterruptingPlanner.budget = 100
        totals = evaluate(tasks, ["toy_interrupting"], [], store, runs=2, concurrency=2)
        assert (totals.skipped, totals.done) == (stored, 8 - stored)
        assert len(store) == len(store.keys()) == 8
        resumed = compute(store.records())
        again = evaluate(tasks, ["toy_interrupting"], [], store, runs=2)
        assert (again.skipped, again.done) == (8, 0)
    with Store(tmp_path / "fresh.db") as fresh:
        evaluate(tasks, ["toy_interrupting"], [], fresh, runs=2)
        assert without_timings(compute(fresh.records())) == without_timings(resumed)


def test_llm_errors_are_stored_and_can_be_retried(coffee_tasks, scripted_llm, toys, tmp_path):
    task = load_tasks([str(coffee_tasks)])[:1]
    for _ in range(3):  # the first try and two retries
        scripted_llm.enqueue_status(503)
    settings = scripted_llm.settings()
    key = Key("coffee-search-01", "toy_asking", scripted_llm.model, 1)
    with Store(tmp_path / "r.db") as store:
        evaluate(task, ["toy_asking"], [scripted_llm.model], store, settings=settings)
        [record] = store.records()
        assert record.episode.status is Status.ERROR and "503" in record.episode.error
        assert (
            evaluate(task, ["toy_asking"], [scripted_llm.model], store, settings=settings).done == 0
        )
        scripted_llm.enqueue_json({"answer": ["coffee_mug"]})
        totals = evaluate(task, ["toy_asking"], [scripted_llm.model], store, settings=settings,
                          retry_errors=True)  # fmt: skip
        assert totals.done == 1 and store.keys(with_status={Status.SUCCESS}) == {key}
        assert len(store) == 1


def test_a_model_is_needed_only_by_planners_that_use_one(coffee_tasks, toys, tmp_path):
    tasks = load_tasks([str(coffee_tasks)])
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(ModelNotConfiguredError, match="no LLM configured"):
            evaluate(tasks, ["toy_reference", "toy_asking"], [], store)
        assert len(store) == 0
        assert evaluate(tasks, ["toy_reference"], [], store).done == 4


def test_bad_requests_fail_before_any_work(coffee_tasks, toys, tmp_path):
    tasks = load_tasks([str(coffee_tasks)])
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(BadInputError, match="unknown planner 'magic'"):
            evaluate(tasks, ["toy_reference", "magic"], [], store)
        with pytest.raises(BadInputError, match="PROVIDER:MODEL"):
            evaluate(tasks, ["toy_asking"], ["gpt-4o"], store)
        assert len(store) == 0
    with pytest.raises(BadInputError, match="unknown suite 'nope'"):
        load_tasks(["nope"])


def test_search_tasks_that_disagree_with_their_graph_fail_before_any_work(coffee_tasks, tmp_path):
    text = coffee_tasks.read_text().replace("answer_kind: room", "answer_kind: asset")
    text = text.replace("answer_rooms: [bobs_room]", "answer_rooms: [wardrobe1]")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text)
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(BadInputError) as info:
            evaluate(load_tasks([str(wrong)]), ["oracle"], [], store)
        assert len(store) == 0
    assert str(info.value) == (
        "2 problem(s) in the task files\n"
        f"  - {wrong}: task 'coffee-search-01': field 'answer_rooms': wardrobe1 is an asset, "
        "not a room\n"
        f"  - {wrong}: task 'coffee-search-02': field 'answer': kitchen is a room, "
        "but answer_kind is asset"
    )


def test_tasks_can_be_picked_by_id(coffee_tasks):
    tasks = load_tasks([str(coffee_tasks), "home-search"], ["home-simple-02", "coffee-plan-01"])
    assert [t.id for t in tasks] == ["coffee-plan-01", "home-simple-02"]
    with pytest.raises(BadInputError, match="task\\(s\\) nope-01 not in suite\\(s\\) home-search"):
        load_tasks(["home-search"], ["home-simple-02", "nope-01"])


def test_repeated_runs_ask_the_model_again(scripted_llm, toys, coffee_tasks, tmp_path):
    task = load_tasks([str(coffee_tasks)])[:1]
    for _ in range(3):
        scripted_llm.enqueue_json({"answer": ["coffee_mug"]})
    settings = scripted_llm.settings()
    with Store(tmp_path / "r.db") as store:
        evaluate(task, ["toy_asking"], [scripted_llm.model], store, runs=3, concurrency=1,
                 settings=settings)  # fmt: skip
        assert len(store) == 3
    assert len(scripted_llm.requests) == 3  # not answered from the response cache
    with Store(tmp_path / "again.db") as store:  # a new store: run 1 comes from the cache
        evaluate(task, ["toy_asking"], [scripted_llm.model], store, settings=settings)
    assert len(scripted_llm.requests) == 3


def test_planner_options_make_another_setup_and_resume(coffee_tasks, tmp_path):
    tasks = [t for t in load_tasks([str(coffee_tasks)]) if not t.is_search]
    specs = ["oracle", "oracle[timeout=5]", "oracle[timeout=60]"]  # 60 is the default
    with Store(tmp_path / "r.db") as store:
        totals = evaluate(tasks, specs, [], store)
        assert (totals.total, totals.done) == (4, 4)
        keys = store.keys()
        assert {k.options for k in keys} == {"{}", '{"timeout":5.0}'}
        stored = {(r.episode.task_id, json.dumps(r.episode.options)) for r in store.records()}
        assert ("coffee-plan-01", '{"timeout": 5.0}') in stored
        again = evaluate(tasks, ["oracle[timeout=5.0]"], [], store)
        assert (again.skipped, again.done) == (2, 0)
        rows = compute(store.records())["overview"]
    assert [(r["planner"], r["episodes"], r["success"]) for r in rows] == [
        ("oracle", 2, 2),
        ("oracle[timeout=5]", 2, 2),
    ]


def test_a_bad_planner_option_fails_before_any_work(coffee_tasks, tmp_path):
    tasks = load_tasks([str(coffee_tasks)])
    with Store(tmp_path / "r.db") as store:
        with pytest.raises(BadInputError, match="planner 'oracle': option 'timeout' should be"):
            evaluate(tasks, ["oracle", "oracle[timeout=-1]"], [], store)
        with pytest.raises(BadInputError, match="planner 'oracle': no option 'max_steps'"):
            evaluate(tasks, ["oracle[max_steps=3]"], [], store)
        assert len(store) == 0


def test_cpu_bound_planners_run_in_processes_with_the_same_results(tmp_path):
    from sceneplan.eval.runner import Spec, _pool, load_specs, plan_jobs

    tasks = load_tasks(["office-planning"], ["planning-simple-01", "planning-simple-02"])
    oracle, toy = load_specs(["oracle"])[0], Spec("toy_reference", needs_llm=False)
    assert oracle.cpu_bound and not toy.cpu_bound
    jobs = plan_jobs(tasks, [oracle], [], 1)
    pool = _pool(jobs, 2, 4)
    assert pool is not None
    pool.shutdown()
    assert _pool(jobs, 1, 4) is None and _pool(plan_jobs(tasks, [toy], [], 1), 2, 4) is None
    results = []
    for processes in (1, 2):
        db = tmp_path / f"p{processes}.db"
        totals = evaluate(tasks, ["oracle"], [], db, processes=processes)
        assert (totals.done, totals.errors) == (2, 0)
        with Store(db) as store:
            results.append([(r.key, r.episode.plan, r.episode.status) for r in store.records()])
    assert results[0] == results[1] and all(plan for _, plan, _ in results[0])
    with pytest.raises(BadInputError, match="--processes"):
        evaluate(tasks, ["oracle"], [], tmp_path / "x.db", processes=0)


class SayPlanActionsOnly(Planner):
    """Plans with ALFWorld's actions in an ALFWorld room, which it does not support."""

    name = "sayplan_actions_only"
    needs_llm = False
    scene_actions = True
    supports = Supports(vocabularies={SAYPLAN})

    async def _run(self, run):
        run.episode.plan = ["done"]


def test_refusals_read_the_vocabulary_of_each_tasks_world_and_say_it_once_per_suite(coffee_tasks):
    tasks = [*load_tasks(["alfworld-valid-unseen"], ["alfworld-look-01", "alfworld-clean-01"])]
    tasks += load_task_file(coffee_tasks)
    spec = Spec("sayplan_actions_only", needs_llm=False, built=SayPlanActionsOnly())
    refused, lines = refusals(tasks, [spec])
    assert refused == {(spec, "alfworld-look-01"), (spec, "alfworld-clean-01")}
    assert lines == [
        "sayplan_actions_only skips 2 task(s) of alfworld-valid-unseen: planner "
        "'sayplan_actions_only' plans with the sayplan actions, not alfworld's"
    ]
    jobs = plan_jobs(tasks, [spec], [], 1, refused)
    assert [job.task.id for job in jobs] == [t.id for t in tasks if t.suite == "coffee-mini"]
