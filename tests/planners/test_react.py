"""The ReAct baselines against the scripted LLM server: react, react_pv, the step cap, the scene."""

import pytest

from react_script import act, field, latest, rooms, shown_nodes
from sayplan_script import COFFEE_PLAN, COFFEE_TASK
from sceneplan import runs
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError
from sceneplan.planners import Episode, Status, get_planner
from sceneplan.planners.records import SceneShown

# The coffee task written pose by pose, as react must (no path planner, no PV).
COFFEE_STEPS = [
    "access(wardrobe1)",
    "open(wardrobe1)",
    "pickup(coffee_mug)",
    "goto(pose1)",
    "goto(toms_room)",
    "goto(pose5)",
    "goto(kitchen)",
    "access(coffee_machine)",
    "release(coffee_mug)",
    "turn_on(coffee_machine)",
    "pickup(coffee_mug)",
    "goto(pose5)",
    "goto(toms_room)",
    "done()",
]


def run(scripted_llm, planner, *actions, target=COFFEE_TASK, **options) -> Episode:
    for action in actions:
        scripted_llm.enqueue_json(act(action))
    with scripted_llm.client() as llm:
        return runs.plan(get_planner(planner, **options), target, "coffee", llm)


def test_react_feeds_an_invalid_action_back_and_counts_it(scripted_llm):
    episode = run(
        scripted_llm,
        "react",
        "pickup(coffee_mug)",
        "goto(kitchen)",
        *COFFEE_STEPS,
        path_planner=False,  # moving pose by pose: a far room is an invalid action
    )

    observations = [field(r, "Observation") for r in scripted_llm.requests]
    assert observations[:4] == [
        "none yet",
        "pickup(coffee_mug) failed: coffee_mug is at wardrobe1, which has not been accessed "
        "(accessed: nothing)",
        "goto(kitchen) failed: kitchen is not reachable directly from bobs_room; go through the "
        "poses connecting them (neighbours of bobs_room: pose1)",
        "access(wardrobe1) succeeded",
    ]
    assert field(scripted_llm.requests[4], "Robot") == (
        "at bobs_room; holding nothing; accessed asset: wardrobe1"
    )
    assert [m["role"] for m in scripted_llm.requests[2]["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert episode.status is Status.SUCCESS and episode.executable and episode.goal_reached
    assert episode.plan == episode.full_plan == COFFEE_STEPS
    assert episode.action_sources == ["react"] * len(COFFEE_STEPS)
    failed = [(c.op, c.target, c.cause) for c in episode.sim_calls if not c.ok]
    assert failed == [
        ("step", "pickup(coffee_mug)", "not_accessed"),
        ("step", "goto(kitchen)", "not_adjacent"),
    ]
    metrics = episode.sclplan
    assert metrics.env_steps == len(COFFEE_STEPS) + 2
    assert metrics.fractions == {"planner": 0.0, "pv": 0.0, "react": 1.0}
    assert (metrics.react_predictions, metrics.react_invalid) == (16, 2)
    assert metrics.react_invalid_rate == 2 / 16
    assert metrics.pv_corrected is None and metrics.pv_corrected_rate is None
    assert metrics.goal is None and [c.command for c in episode.llm_calls][:2] == [
        "pickup(coffee_mug)",
        "goto(kitchen)",
    ]


def test_unusable_replies_are_invalid_predictions_with_feedback(scripted_llm):
    scripted_llm.enqueue_text("I would open the wardrobe")  # not JSON, twice (the client re-asks)
    scripted_llm.enqueue_text("open the wardrobe")
    episode = run(scripted_llm, "react", "open wardrobe1", "done()", target="Open the wardrobe.")
    observations = [field(r, "Observation") for r in scripted_llm.requests[2:]]
    assert "not valid JSON" in observations[0]
    assert "cannot parse action 'open wardrobe1'" in observations[1]
    metrics = episode.sclplan
    assert (metrics.react_predictions, metrics.react_invalid) == (3, 2)
    assert episode.plan == ["done()"] and episode.sim_calls[-1].op == "step"


def test_react_pv_inserts_the_missing_steps(scripted_llm):
    episode = run(
        scripted_llm,
        "react_pv",
        "pickup(coffee_mug)",
        "access(coffee_machine)",
        "release(coffee_mug)",
        "turn_on(coffee_machine)",
        "pickup(coffee_mug)",
        "goto(toms_room)",
        "done()",
        path_planner=False,  # PV plans the pose-level moves to the kitchen
    )
    assert episode.status is Status.SUCCESS and episode.executable and episode.goal_reached
    assert episode.plan == COFFEE_STEPS
    pv, re = "pv", "react"
    assert episode.action_sources == [pv, pv, re, pv, pv, pv, pv, re, re, re, re, pv, re, re]
    metrics = episode.sclplan
    assert (metrics.react_invalid, metrics.pv_corrected, metrics.pv_corrected_rate) == (
        3,
        3,
        1.0,
    )
    assert metrics.actions == {"planner": 0, "pv": 7, "react": 7}
    assert metrics.global_plan_found is None and metrics.symbolic_s > 0


def test_step_cap(scripted_llm):
    episode = run(scripted_llm, "react", "access(wardrobe1)", "pickup(coffee_mug)", max_steps=2)
    assert scripted_llm.pending == 0 and len(scripted_llm.requests) == 2
    assert "Step 2 of at most 2." in latest(scripted_llm.requests[1])
    assert episode.plan == ["access(wardrobe1)"] and episode.executable is False
    assert episode.failure["cause"] == "container_closed" and episode.status is Status.FAILED
    assert episode.sclplan.react_predictions == 2


def test_a_graph_over_the_budget_shows_the_rooms_asked_for(scripted_llm):
    scripted_llm.enqueue_json(rooms("bobs_room", "cellar", "pose1"))
    episode = run(scripted_llm, "react_pv", "access(coffee_machine)", "done()", graph_budget=200)
    ask = scripted_llm.requests[0]
    assert field(ask, "Instruction") == COFFEE_TASK.instruction
    assert "wardrobe1" not in latest(ask)  # collapsed: rooms and poses only
    assert {"wardrobe1", "coffee_mug"} <= shown_nodes(scripted_llm.requests[1])
    assert "coffee_machine" not in shown_nodes(scripted_llm.requests[1])
    # The robot's room is always shown: walking into the kitchen reveals it.
    assert {"wardrobe1", "coffee_machine"} <= shown_nodes(scripted_llm.requests[2])
    assert episode.scene == SceneShown(
        shown="rooms", rooms=["bobs_room"], ignored=["cellar", "pose1"]
    )
    assert (episode.llm_calls[0].stage, episode.llm_calls[0].command) == (
        "rooms",
        "rooms(bobs_room)",
    )


def test_search_tasks_are_refused(scripted_llm):
    episode = run(scripted_llm, "react", target="Find the blue mug.")
    assert episode.status is Status.ERROR and episode.error == (
        "cannot run 'Find the blue mug.': planner 'react' runs tasks that change the world, not "
        "search tasks (find X); planners that do: llm_as_planner, llm_plus_p, oracle, sayplan, "
        "sayplan_lite"
    )


@pytest.mark.parametrize(
    ("planner", "options", "message"),
    [
        ("react", {"max_steps": 0}, "'react': option 'max_steps' should be greater than or equal"),
        ("react_pv", {"pv_timeout": 0}, "'react_pv': option 'pv_timeout' should be greater than 0"),
        ("react", {"planner": "gbfs"}, "'react': no option 'planner'; options of react: "),
        ("react_pv", {"planner": "magic"}, "option 'planner' unknown symbolic planner 'magic'"),
    ],
)
def test_options_are_checked(planner, options, message):
    with pytest.raises(BadInputError, match=message):
        get_planner(planner, **options)


def test_react_goes_to_a_far_room_along_the_shortest_path(scripted_llm):
    # App. L's plan from Bob's room, rooms only, then a room that does not exist
    episode = run(scripted_llm, "react", *COFFEE_PLAN[1:10], "goto(attic)", "done()")
    system = scripted_llm.requests[0]["messages"][0]["content"]
    assert "the path through the poses on the way is planned for you" in system
    assert field(scripted_llm.requests[4], "Observation") == (
        "goto(kitchen) succeeded (via pose1, toms_room, pose5)"
    )
    assert field(scripted_llm.requests[10], "Observation").startswith(
        "goto(attic) failed: there is no node called 'attic'"
    )
    assert episode.status is Status.SUCCESS and episode.plan == COFFEE_STEPS
    assert episode.action_sources == ["react"] * len(COFFEE_STEPS)
    metrics = episode.sclplan
    # every pose is an environment step; so is the rejected goto(attic)
    assert metrics.env_steps == len(COFFEE_STEPS) + 1
    assert (metrics.react_predictions, metrics.react_invalid) == (11, 1)


def test_each_vocabulary_gets_its_own_react_prompt(scripted_llm):
    """ALFWorld has no building, poses, goto(room) nor access: its prompt says none of them."""
    scripted_llm.enqueue_json(act("go_to(desk_1)"))
    scripted_llm.enqueue_json(act("done()"))
    with scripted_llm.client() as llm:
        runs.plan(get_planner("react", max_steps=1), get_task("alfworld-pick-01"), None, llm)
        runs.plan(get_planner("react", max_steps=1), "Open the wardrobe.", "coffee", llm)
    alfworld, office = (r["messages"][0]["content"] for r in scripted_llm.requests)
    for word in ("pose", "goto(", "access", "building"):
        assert word not in alfworld.lower(), word
        assert word in office.lower(), word
    assert "receptacle" in alfworld and "- take(<o>, <r>): " in alfworld
    # each action with what it needs, from its schema's preconditions
    assert "Needs: the agent is at " in alfworld and "Needs: " in office
