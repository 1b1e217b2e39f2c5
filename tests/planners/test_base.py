"""The shared planner machinery, through a tiny planner that verifies a fixed plan."""

import json
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import BaseModel

from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.errors import BadInputError, LLMUnavailableError, UnsupportedError
from sceneplan.graph import to_dict
from sceneplan.planners import (
    Episode,
    ErrorType,
    Planner,
    Reply,
    Status,
    get_planner,
    planner_class,
)
from sceneplan.planners.observing import PartialOptions
from sceneplan.planners.outcome import classify
from sceneplan.planners.sayplan import SayPlan
from sceneplan.planners.supports import Supports
from sceneplan.world import ALFWORLD, LOOKPLANGRAPH, SAYPLAN, Cause
from sceneplan.world.task import Task
from sceneplan.world.vocabularies import LOOKPLANGRAPH_TWO_HANDS

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
        super().__init__()
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
    episode = FixedPlanner(FIXED).plan(coffee_task(), load_environment("coffee"))
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
    episode = runs.plan(FixedPlanner(plan), coffee_task())
    assert episode.executable and episode.goal_reached is False
    assert episode.goal_unmet == ["full(coffee_mug) is false"]
    assert episode.status is Status.FAILED and episode.error_type is ErrorType.MISSING_ACTION


def test_failed_verification_is_classified_from_the_cause():
    episode = runs.plan(FixedPlanner(FIXED.replace("open(wardrobe1) > ", "")), coffee_task())
    assert episode.executable is False and episode.error_type is ErrorType.MISSING_ACTION
    bad = FixedPlanner(FIXED.replace("goto(kitchen)", "goto(cellar)"))
    episode = runs.plan(bad, coffee_task())
    assert episode.error_type is ErrorType.HALLUCINATED_NODE
    assert classify(Cause.NOT_ADJACENT) is ErrorType.MISSING_POSE
    assert classify("no_affordance") is ErrorType.WRONG_ACTION


def test_every_cause_has_an_error_type():
    for cause in Cause.all():
        assert isinstance(classify(cause), ErrorType)


def test_errors_end_the_run_but_keep_what_was_recorded():
    down = LLMUnavailableError("cannot reach the OpenAI-compatible server at http://127.0.0.1:9")
    episode = runs.plan(FixedPlanner(FIXED, fail_with=down), coffee_task())
    assert episode.status is Status.ERROR and "cannot reach" in episode.error
    assert episode.executable and len(episode.sim_calls) == 1


def test_instruction_matching_a_packaged_task_is_checked_as_that_task():
    episode = runs.plan(FixedPlanner("done"), "Find me a bottle of wine.", "home")
    assert episode.task_id == "home-simple-02" and episode.answer_correct is False


def test_free_search_succeeds_when_it_names_something():
    class Answering(FixedPlanner):
        async def _run(self, run):
            run.episode.answer = list(self.fixed.split())

    episode = runs.plan(Answering("coffee_mug"), "Where is a blue mug?", "coffee")
    assert episode.task_id is None and episode.status is Status.SUCCESS
    assert runs.plan(Answering(""), "Where is a blue mug?", "coffee").status is Status.FAILED


def test_bad_requests():
    with pytest.raises(BadInputError, match="needs an environment"):
        runs.plan(FixedPlanner("done"), "Do something unheard of.")
    with pytest.raises(
        BadInputError, match=r"^unknown planner 'magic' \(known: llm_as_planner, .*sayplan"
    ):
        get_planner("magic")


def test_planners_take_a_graph_and_say_where_names_are_resolved():
    with pytest.raises(BadInputError, match=r"not 'coffee'.*sceneplan\.runs\.plan"):
        FixedPlanner("done").plan("Make coffee.", "coffee")


def test_resolution_applies_the_initial_facts_to_a_copy():
    graph = load_environment("coffee")
    task = replace(coffee_task(), initial=["held(coffee_mug)"])
    setup = runs.resolve(task, graph)
    assert setup.task is task and setup.graph is not graph
    assert setup.graph.nodes["coffee_mug"].relation != graph.nodes["coffee_mug"].relation
    plain = runs.resolve("Do something unheard of.", graph)
    assert plain.target == "Do something unheard of." and plain.task is None
    assert plain.graph is graph
    assert runs.resolve(coffee_task()).graph.name == "coffee"  # the task's own environment


def test_a_graph_file_without_a_name_is_named_by_its_path(tmp_path):
    data = to_dict(load_environment("coffee"))
    data.pop("name")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    episode = runs.plan(FixedPlanner("done"), "Do nothing.", str(path))
    assert episode.environment == str(path)


class Said(BaseModel):
    word: str


class Asking(Planner):
    """Asks twice; keeps what each reply record says."""

    name = "asking"
    replies: ClassVar[list[Reply]] = []

    async def _run(self, run):
        for stage in ("first", "second"):
            reply = await run.ask(stage, [{"role": "user", "content": f"{stage} word?"}], Said)
            reply.call.command = f"read {stage}"
            Asking.replies.append(reply)


def test_ask_returns_the_call_it_recorded(scripted_llm):
    scripted_llm.enqueue_json({"word": "yes"})
    scripted_llm.enqueue_text("no json")  # unusable, and again after the re-ask
    scripted_llm.enqueue_text("still none")
    Asking.replies = []
    with scripted_llm.client() as llm:
        episode = runs.plan(Asking(), "Say a word.", "coffee", llm)
    first, second = Asking.replies
    assert first.ok and first.parsed == Said(word="yes") and first.call is episode.llm_calls[0]
    assert first.call.parsed == {"word": "yes"} and first.text == first.call.reply
    assert not second.ok and second.parsed is None and second.call is episode.llm_calls[1]
    assert second.text == "still none" and second.call.error
    assert [c.command for c in episode.llm_calls] == ["read first", "read second"]


def test_no_planner_reads_the_episodes_call_list():
    planners = Path(__file__).parents[2] / "src" / "sceneplan" / "planners"
    for path in planners.glob("*.py"):
        assert "llm_calls[" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize(
    ("name", "on_memory"),
    [
        ("sayplan", "SayPlanOnMemory"),
        ("sayplan_lite", "SayPlanLiteOnMemory"),
        ("oracle", "OracleOnMemory"),
    ],
)
def test_observe_partial_picks_the_planners_algorithm_on_memory_under_the_same_name(
    name, on_memory
):
    full, partial = get_planner(name), get_planner(name, observe="partial")
    assert type(partial).__name__ == on_memory and isinstance(partial, type(full))
    assert partial.name == full.name == name
    assert type(full).__name__ != on_memory
    assert partial.actions is LOOKPLANGRAPH  # the vocabulary that looks
    direct = planner_class(name)({"observe": "partial"})  # as the CLI builds it
    assert type(direct) is type(partial)


class CountedOptions(PartialOptions):
    """SayPlan's partial-observation options, counting each time they are read."""

    reads: ClassVar[list[dict]] = []

    @classmethod
    def build(cls, planner, values):
        cls.reads.append(dict(values))
        return super().build(planner, values)


class Counted(Planner):
    name = "counted"
    needs_llm = False
    Options = CountedOptions

    async def _run(self, run):
        run.episode.plan = ["done"]


class CountedOnMemory(Counted):
    pass


Counted.on_memory = CountedOnMemory


@pytest.mark.parametrize(
    ("given", "values", "chosen"),
    [
        (None, {}, Counted),
        ({"observe": "partial"}, {}, CountedOnMemory),
        (None, {"observe": "partial", "memory": "prior"}, CountedOnMemory),
        (None, {"perception": "simulated:miss=0.2"}, Counted),
    ],
)
def test_a_planner_that_may_plan_on_memory_reads_its_options_once(given, values, chosen):
    CountedOptions.reads.clear()
    planner = Counted(given, **values)
    assert type(planner) is chosen
    assert len(CountedOptions.reads) == 1
    assert planner.options.changed() == {**(given or {}), **values}
    assert planner.perception is None  # a spec is an option, not a Perception


def test_a_subclass_that_names_no_algorithm_on_memory_of_its_own_is_refused_on_memory():
    class Careful(SayPlan):
        name = "careful"

    assert type(Careful()) is Careful
    with pytest.raises(UnsupportedError, match=r"'careful' has no algorithm on memory of its own"):
        Careful(observe="partial")


def test_bad_options_of_a_planner_that_may_plan_on_memory_are_one_error_read_once():
    CountedOptions.reads.clear()
    with pytest.raises(BadInputError, match=r"^planner 'counted': no option 'depth'; options"):
        Counted(observe="partial", depth=3)
    assert len(CountedOptions.reads) == 1
    with pytest.raises(BadInputError, match="planner 'sayplan': option 'observe'"):
        get_planner("sayplan", observe="sideways")


class SayPlanActionsOnly(Planner):
    """Would plan with ALFWorld's actions in an ALFWorld room, but supports only SayPlan's."""

    name = "sayplan_actions_only"
    needs_llm = False
    scene_actions = True
    supports = Supports(vocabularies={SAYPLAN})
    runs: ClassVar[int] = 0

    async def _run(self, run):
        SayPlanActionsOnly.runs += 1
        run.episode.plan = ["done"]


def test_what_a_planner_does_not_support_is_refused_before_its_run():
    planner = SayPlanActionsOnly()
    alfworld = load_environment("alfworld-clean-01")
    reason = "planner 'sayplan_actions_only' plans with the sayplan actions, not alfworld's"
    assert planner.refusal(None, "Clean the mug.", alfworld) == reason
    assert planner.refusal(None, "Clean the mug.") is None  # no world: no vocabulary to check
    assert planner.refusal(None, "Go.", load_environment("coffee")) is None
    episode = planner.plan("Clean the mug.", alfworld)
    assert episode.status is Status.ERROR and SayPlanActionsOnly.runs == 0
    assert episode.error == f"cannot run 'Clean the mug.': {reason}"
    assert planner.plan("Go.", load_environment("coffee")).plan == ["done"]
    assert SayPlanActionsOnly.runs == 1


def test_the_flag_s_former_name_alfworld_actions_still_works_and_says_what_to_use_instead():
    with pytest.warns(DeprecationWarning, match="set scene_actions instead") as caught:

        class OldFlag(FixedPlanner):
            alfworld_actions = True

    assert len(caught) == 1 and caught[0].filename == __file__  # points at the class
    assert OldFlag.scene_actions and not FixedPlanner.scene_actions
    alfworld = load_environment("alfworld-clean-01")
    assert OldFlag("done").vocabulary_for(alfworld) is ALFWORLD
    assert FixedPlanner("done").vocabulary_for(alfworld) is SAYPLAN
    assert OldFlag("done").vocabulary_for(load_environment("coffee")) is SAYPLAN


def test_a_supported_vocabulary_is_the_object_and_brings_its_two_handed_form():
    supports = Supports(vocabularies={LOOKPLANGRAPH})
    assert supports.vocabularies == {LOOKPLANGRAPH, LOOKPLANGRAPH_TWO_HANDS}
    assert supports.refusal("p", "planning", LOOKPLANGRAPH_TWO_HANDS) is None
    assert supports.refusal("p", "planning", LOOKPLANGRAPH) is None
    assert supports.refusal("p", "planning", SAYPLAN) == (
        "planner 'p' plans with the lookplangraph actions, not sayplan's"
    )
    assert Supports().refusal("p", "planning", ALFWORLD) is None  # None: any vocabulary
