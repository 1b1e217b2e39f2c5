"""ALFWorld ends an episode the moment the task's goal holds, for every method alike
(react, react_pv, sclplan), with no done() and SCLPlan's step cap."""

import pytest

from react_script import act, field, goal
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.planners import Status, get_planner
from sceneplan.planners.execution import env_steps
from sceneplan.planners.react_loop import paper_solver

PICK = ["go_to(shelf_2)", "take(mug_1, shelf_2)", "go_to(desk_1)", "put(mug_1, desk_1)"]
UNSOLVABLE = "at(mug_1, desk_1) and at(mug_1, desk_2)"  # sclplan's GSP finds no plan


def play(scripted_llm, planner: str, actions: list[str], **options):
    """`planner` on alfworld-pick-01 ("put a mug in desk.") with a model that plays `actions`
    (sclplan's goal requests answered with a goal its planner cannot solve)."""
    for action in actions:
        if planner == "sclplan":
            scripted_llm.enqueue_json(goal(UNSOLVABLE))
        scripted_llm.enqueue_json(act(action))
    with scripted_llm.client() as llm:
        return runs.plan(get_planner(planner, **options), get_task("alfworld-pick-01"), None, llm)


@pytest.mark.parametrize("planner", ["react", "react_pv", "sclplan"])
def test_the_same_actions_give_every_method_the_same_steps_and_success(scripted_llm, planner):
    episode = play(scripted_llm, planner, PICK)
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert env_steps(episode) == 4 and episode.sclplan.env_steps == 4
    assert episode.plan == PICK and episode.action_sources == ["react"] * 4
    if planner != "react":  # PV and the global plan: one solver, named in the report
        assert episode.sclplan.solver == paper_solver()
    system = scripted_llm.requests[-1]["messages"][0]["content"]
    assert "done" not in system and "ends by itself" in system


def test_the_episode_ends_when_the_goal_holds_and_no_step_follows(scripted_llm):
    # the model would take the mug back: ALFWorld has ended the game before it is asked
    episode = play(scripted_llm, "react", [*PICK, "take(mug_1, desk_1)", "done()"])
    assert episode.status is Status.SUCCESS and episode.plan == PICK
    assert [c.stage for c in episode.llm_calls] == ["react"] * 4
    assert len(scripted_llm.requests) == 4


def test_done_is_no_environment_step_and_ends_no_game_that_is_not_won(scripted_llm):
    episode = play(scripted_llm, "react", [*PICK[:2], "done()"])
    assert episode.status is Status.FAILED and not episode.goal_reached
    assert env_steps(episode) == 2 and episode.plan == PICK[:2]


def test_the_step_cap_in_alfworld_is_sclplans_and_an_option_overrides_it(scripted_llm):
    episode = play(scripted_llm, "react", ["go_to(shelf_2)"] * 25)
    assert len(episode.llm_calls) == 25 and episode.status is Status.FAILED
    scripted_llm.requests.clear()
    episode = play(scripted_llm, "react", ["go_to(shelf_2)"] * 2, max_steps=2)
    assert len(episode.llm_calls) == 2


def test_a_global_plan_stops_where_the_environment_ends_the_episode(scripted_llm):
    # the written goal asks for more than the task (drawer 1 open too): ALFWorld ends
    # the game once the mug is on the desk, before the plan goes to the drawer
    scripted_llm.enqueue_json(goal("at(mug_1, desk_1) and open(drawer_1)"))
    with scripted_llm.client() as llm:
        episode = runs.plan(get_planner("sclplan"), get_task("alfworld-pick-01"), None, llm)
    assert episode.status is Status.SUCCESS, episode.error or episode.goal_unmet
    assert episode.plan == PICK and episode.action_sources == ["planner"] * 4


@pytest.mark.parametrize("planner", ["react_pv", "sclplan"])
def test_alfworlds_prompts_speak_only_alfworlds_terms(scripted_llm, planner):
    play(scripted_llm, planner, PICK[:2], max_steps=2)
    said = "\n".join(m["content"] for r in scripted_llm.requests for m in r["messages"])
    for word in ("accessed", "affordances", "release", "pickup", "ontop_of", "inside_of"):
        assert word not in said, word
    assert "done()" not in said and "done" not in said.split("## Actions")[-1]
    react = [r for r in scripted_llm.requests if "Observation" in r["messages"][-1]["content"]]
    assert field(react[0], "Robot") == "at no receptacle yet; carrying nothing"
    assert field(react[1], "Robot") == "at shelf_2; carrying nothing"
    assert '"id":"mug_1","on":"shelf_2"' in react[0]["messages"][-1]["content"]
