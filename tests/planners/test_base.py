"""The shared planner machinery, through a tiny planner that verifies a fixed plan."""

import json

import pytest

from sceneplan.datasets.tasks import Task
from sceneplan.errors import BadInputError, LLMUnavailableError
from sceneplan.planners import Episode, ErrorType, Planner, Status, get_planner
from sceneplan.planners.outcome import classify
from sceneplan.world import Cause

FIXED = (
    "goto(bobs_room) > access(wardrobe1) > open(wardrobe1) > pickup(coffee_mug) > "
    "goto(kitchen) > access(coffee_machine) > release(coffee_mug) > "
    "turn_on(coffee_machine) > pickup(coffee_mug) > goto(toms_room) > access(bed2) > "
    "release(coffee_mug) > done"
)


class FixedPlanner(Planner):
    name = "fixed"
    needs_llm = False

    def __init__(self, plan: str, fail_with: Exception | None = None):
        self.fixed, self.fail_with = plan, fail_with

    async def _run(self, run):
        run.episode.plan = self.fixed.split(" > ")
        full = run.navigator.expand_plan(run.episode.plan)
        run.episode.full_plan = [str(a) for a in full]
        result = run.verify(full)
        run.episode.executable = result.ok
        run.episode.failure = result.failure.to_dict() if result.failure else None
        run.final_state = result.final_state
        if self.fail_with is not None:
            raise self.fail_with


def coffee_task(goal="full(coffee_mug) and in_room(coffee_mug, toms_room)"):
    return Task(
        id="coffee-01",
        suite="coffee",
        family="simple_planning",
        environment="coffee",
        instruction="Make Tom a coffee and put it in his room.",
        goal=goal,
    )


def test_success_with_goal_check_and_json_round_trip():
    episode = FixedPlanner(FIXED).plan(coffee_task())
    assert episode.status is Status.SUCCESS
    assert episode.executable and episode.goal_reached and episode.goal_unmet == []
    assert episode.full_plan[4:8] == [
        "goto(pose1)",
        "goto(toms_room)",
        "goto(pose5)",
        "goto(kitchen)",
    ]
    assert episode.sim_calls[0].op == "verify" and episode.sim_calls[0].ok
    data = json.loads(json.dumps(episode.to_dict()))
    assert Episode.from_dict(data) == episode
    assert episode.summary()["status"] == "success"


def test_executable_but_goal_missed_is_a_missing_action():
    plan = FIXED.replace("turn_on(coffee_machine) > ", "")
    episode = FixedPlanner(plan).plan(coffee_task())
    assert episode.executable and episode.goal_reached is False
    assert episode.goal_unmet == ["full(coffee_mug) is false"]
    assert episode.status is Status.FAILED and episode.error_type is ErrorType.MISSING_ACTION


def test_failed_verification_is_classified_from_the_cause():
    episode = FixedPlanner(FIXED.replace("open(wardrobe1) > ", "")).plan(coffee_task())
    assert episode.executable is False and episode.error_type is ErrorType.MISSING_ACTION
    episode = FixedPlanner(FIXED.replace("goto(kitchen)", "goto(cellar)")).plan(coffee_task())
    assert episode.error_type is ErrorType.HALLUCINATED_NODE
    assert classify(Cause.NOT_ADJACENT) is ErrorType.MISSING_POSE
    assert classify("no_affordance") is ErrorType.WRONG_ACTION


def test_every_cause_has_an_error_type():
    for cause in Cause:
        assert isinstance(classify(cause), ErrorType)


def test_errors_end_the_run_but_keep_what_was_recorded():
    down = LLMUnavailableError("cannot reach the OpenAI-compatible server at http://127.0.0.1:9")
    episode = FixedPlanner(FIXED, fail_with=down).plan(coffee_task())
    assert episode.status is Status.ERROR and "cannot reach" in episode.error
    assert episode.executable and len(episode.sim_calls) == 1


def test_instruction_matching_a_packaged_task_is_checked_as_that_task():
    episode = FixedPlanner("done").plan("Find me a bottle of wine.", "home")
    assert episode.task_id == "home-simple-02" and episode.answer_correct is False


def test_free_search_succeeds_when_it_names_something():
    class Answering(FixedPlanner):
        async def _run(self, run):
            run.episode.answer = list(self.fixed.split())

    episode = Answering("coffee_mug").plan("Where is a blue mug?", "coffee")
    assert episode.task_id is None and episode.status is Status.SUCCESS
    assert Answering("").plan("Where is a blue mug?", "coffee").status is Status.FAILED


def test_bad_requests():
    with pytest.raises(BadInputError, match="needs an environment"):
        FixedPlanner("done").plan("Do something unheard of.")
    with pytest.raises(BadInputError, match="unknown planner 'magic'"):
        get_planner("magic")
