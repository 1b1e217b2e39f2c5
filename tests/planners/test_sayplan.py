"""SayPlan against the scripted LLM server: semantic search, iterative replanning, failures."""

import json

import pytest

from sayplan_script import (
    COFFEE_PLAN,
    COFFEE_PLAN_NOT_OPENED,
    COFFEE_TASK,
    contents,
    contract,
    expand,
    plan,
    shown,
    switch,
)
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.datasets.tasks import get_task
from sceneplan.errors import BadInputError
from sceneplan.graph import from_dict
from sceneplan.graph.views import collapse
from sceneplan.planners import Episode, ErrorType, Status, get_planner
from sceneplan.planners.dialogue import GRAPH_MOVED
from sceneplan.planners.episode import SimCall
from sceneplan.planners.search import LAST_TURN
from sceneplan.world import LOOKPLANGRAPH, Simulator
from sceneplan.world.actions import parse_action
from scenes import kitchen_dict, node

REFRIGERATE = get_task("planning-simple-02").reference_plan


def run(scripted_llm, target, planner="sayplan", env=None, **options):
    with scripted_llm.client() as llm:
        return runs.plan(get_planner(planner, **options), target, env, llm)


def test_search_expands_contracts_and_switches_to_planning(scripted_llm):
    task = get_task("planning-simple-02")  # Refrigerate the orange left on the kitchen bench.
    for reply in (expand("cafeteria"), contract("cafeteria"), expand("kitchen"), switch()):
        scripted_llm.enqueue_json(reply)
    scripted_llm.enqueue_json(plan(*REFRIGERATE))
    episode = run(scripted_llm, task)

    # The views the model saw, step by step, are those of the graph API.
    view = collapse(load_environment("office"))
    expected = [set(view.visible_nodes())]
    view.expand("cafeteria")
    expected.append(set(view.visible_nodes()))
    view.contract("cafeteria")
    expected.append(set(view.visible_nodes()))
    view.expand("kitchen")
    expected += [set(view.visible_nodes())] * 2
    turns = [shown(request) for request in scripted_llm.requests]
    assert [t.nodes for t in turns] == expected
    assert "lunch_table" in turns[1].nodes and "lunch_table" not in turns[2].nodes
    assert {"orange1", "fridge"} <= turns[3].nodes
    assert [t.memory for t in turns] == [
        [],
        ["cafeteria"],
        ["cafeteria"],
        ["cafeteria", "kitchen"],
        ["cafeteria", "kitchen"],
    ]
    assert turns[0].feedback == "none"
    assert turns[1].feedback == "expand(cafeteria) done: it shows 7 node(s)"
    assert turns[2].feedback == "contract(cafeteria) done: it hides 7 node(s)"

    assert [(t.command, t.node, t.ok) for t in episode.search] == [
        ("expand", "cafeteria", True),
        ("contract", "cafeteria", True),
        ("expand", "kitchen", True),
        ("plan", None, True),
    ]
    assert [t.memory for t in episode.search] == [t.memory for t in turns[1:]]
    tokens = [t.graph_tokens for t in episode.search]
    assert tokens[0] == tokens[2] < tokens[1] and tokens[2] < tokens[3]  # contract undoes expand
    assert all(t.prompt_tokens > t.graph_tokens for t in episode.search)
    assert episode.explored == ["cafeteria", "kitchen"]
    assert [c.op for c in episode.sim_calls] == ["expand", "contract", "expand", "verify"]
    assert [c.command for c in episode.llm_calls] == [
        "expand(cafeteria)",
        "contract(cafeteria)",
        "expand(kitchen)",
        "planning",
        "plan",
    ]
    assert episode.status is Status.SUCCESS and episode.goal_reached
    assert episode.full_plan[:6] == [
        f"goto({p})" for p in ("pose13", "pose14", "pose23", "pose24", "pose25", "kitchen")
    ]


def test_one_dialogue_carries_the_graph_only_in_its_latest_message(scripted_llm):
    for reply in (expand("kitchen"), switch(), plan(*REFRIGERATE)):
        scripted_llm.enqueue_json(reply)
    run(scripted_llm, get_task("planning-simple-02"), dialogue="chat")
    first, second, third = (contents(r) for r in scripted_llm.requests)
    graph = json.dumps(shown(scripted_llm.requests[0]).graph, separators=(",", ":"))
    assert second[:2] == [first[0], first[1].replace(graph, GRAPH_MOVED)]
    assert len(third) == 6 and third[:3] == second[:3]
    assert [GRAPH_MOVED in text for text in third] == [False, True, False, True, False, False]
    assert json.loads(third[2])["command"] == {"name": "expand", "node": "kitchen"}
    system = first[0]
    office = Simulator(load_environment("office"))
    offered = set(office.offered_actions())
    for name, line in zip(office.schemas, office.describe_actions(), strict=True):
        assert (line in system) is (name in offered)
    assert "path planner fills in the poses" in system and '"answer"' not in system


def test_replanning_feeds_the_simulators_feedback_back(scripted_llm):
    # SayPlan App. L: the mug is in Bob's closed wardrobe; the first plan forgets to open it.
    for reply in (expand("toms_room"), expand("kitchen"), expand("bobs_room"), switch()):
        scripted_llm.enqueue_json(reply)
    scripted_llm.enqueue_json(plan(*COFFEE_PLAN_NOT_OPENED))
    scripted_llm.enqueue_json(plan(*COFFEE_PLAN))
    episode = run(scripted_llm, COFFEE_TASK)

    feedback = "step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed"
    quoted = f" (in your last plan: {' > '.join(COFFEE_PLAN_NOT_OPENED)})"
    assert shown(scripted_llm.requests[4]).feedback == "none"
    assert shown(scripted_llm.requests[5]).feedback == feedback + quoted
    assert episode.status is Status.SUCCESS and episode.executable and episode.goal_reached
    assert episode.replans == 1 and episode.plan == COFFEE_PLAN
    assert episode.full_plan[4:8] == [
        "goto(pose1)",
        "goto(toms_room)",
        "goto(pose5)",
        "goto(kitchen)",
    ]
    assert episode.action_sources[3:8] == ["llm", "nav", "nav", "nav", "llm"]
    verifies = [c for c in episode.sim_calls if c.op == "verify"]
    assert [(c.ok, c.cause) for c in verifies] == [(False, "container_closed"), (True, None)]
    assert episode.failure is None and episode.error_type is None
    assert episode.final_changes["state"]["coffee_mug"] == ["full"]
    assert Episode.from_dict(json.loads(json.dumps(episode.to_dict()))) == episode


def test_feedback_counts_the_models_own_steps(scripted_llm):
    # In the pose-level plan the failing pickup is step 7; the model wrote it as step 3.
    task = get_task("planning-simple-02")
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan("goto(kitchen)", "access(fridge)", "pickup(orange1)", "done()"))
    scripted_llm.enqueue_json(plan(*REFRIGERATE))
    episode = run(scripted_llm, task)
    assert episode.sim_calls[0].feedback.startswith("step 8 pickup(orange1)")
    assert shown(scripted_llm.requests[2]).feedback.startswith(
        "step 3 pickup(orange1): orange1 is at"
    )
    assert episode.status is Status.SUCCESS


def test_invalid_search_commands_become_feedback(scripted_llm):
    scripted_llm.enqueue_json(expand("cellar"))  # hallucinated
    scripted_llm.enqueue_json(expand("wardrobe1"))  # an asset
    bad = expand("kitchen")
    bad["command"]["name"] = "teleport"  # unknown command, then again after the client's re-ask
    scripted_llm.enqueue_json(bad)
    scripted_llm.enqueue_json(bad)
    scripted_llm.enqueue_text("I would look in the kitchen next.")  # not JSON, twice
    scripted_llm.enqueue_text("Kitchen, please.")
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(expand("kitchen"))  # already expanded
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan(*COFFEE_PLAN))
    episode = run(scripted_llm, COFFEE_TASK)

    assert [(t.command, t.node, t.ok) for t in episode.search] == [
        ("expand", "cellar", False),
        ("expand", "wardrobe1", False),
        ("invalid", None, False),
        ("invalid", None, False),
        ("expand", "kitchen", True),
        ("expand", "kitchen", False),
        ("plan", None, True),
    ]
    feedback = [t.feedback for t in episode.search]
    assert feedback[0].startswith("unknown node 'cellar'")
    assert "cannot expand 'wardrobe1': it is an asset" in feedback[1]
    assert "command.name: Input should be 'expand' or 'contract'" in feedback[2]
    assert "not valid JSON" in feedback[3]
    assert feedback[5] == "cannot expand 'kitchen': it is already expanded"
    # Each turn's feedback is what the model sees next (requests 4 and 6 are the client's re-asks).
    first_asks = [shown(r) for i, r in enumerate(scripted_llm.requests[:10]) if i not in (3, 5)]
    assert [s.feedback for s in first_asks[1:7]] == feedback[:6]
    assert episode.sim_calls[0].cause == "unknown_node" and episode.sim_calls[1].cause is None
    unusable = [c for c in episode.llm_calls if c.error]
    assert len(unusable) == 2 and unusable[1].reply == "Kitchen, please."
    assert episode.explored == ["kitchen"] and episode.status is Status.SUCCESS


def test_unusable_plan_reply_is_a_round_with_feedback(scripted_llm):
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_text("goto kitchen then fridge")
    scripted_llm.enqueue_text("sorry: goto kitchen")
    scripted_llm.enqueue_json(plan("goto kitchen"))  # JSON, but not an action
    scripted_llm.enqueue_json(plan(*REFRIGERATE))
    episode = run(scripted_llm, get_task("planning-simple-02"))
    assert "not valid JSON" in shown(scripted_llm.requests[3]).feedback
    assert "cannot parse action 'goto kitchen'" in shown(scripted_llm.requests[4]).feedback
    assert episode.replans == 2 and episode.status is Status.SUCCESS
    assert [c.ok for c in episode.sim_calls] == [False, True]


def test_a_room_no_path_reaches_is_feedback(scripted_llm):
    data = kitchen_dict()
    data["nodes"].append(node("attic", "room"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan("goto(attic)", "done()"))
    scripted_llm.enqueue_json(plan("goto(kitchen)", "access(bench)", "pickup(apple)", "done()"))
    episode = run(scripted_llm, "Fetch the apple.", env=from_dict(data, "tiny"))
    feedback = shown(scripted_llm.requests[2]).feedback
    assert feedback.startswith("no path from office to attic")
    raw = feedback.removesuffix(" (in your last plan: goto(attic) > done())")
    assert episode.sim_calls[0] == SimCall("verify", "goto(attic) > done()", False, raw)
    assert episode.executable and episode.status is Status.SUCCESS and episode.replans == 1


def test_hallucinated_node_in_the_last_plan_is_classified(scripted_llm):
    scripted_llm.enqueue_json(switch())
    bad = [s.replace("toms_room", "tims_room") for s in COFFEE_PLAN]
    scripted_llm.enqueue_json(plan(*bad))
    scripted_llm.enqueue_json(plan(*bad))
    episode = run(scripted_llm, COFFEE_TASK, max_replans=1)
    assert "there is no node called 'tims_room'" in shown(scripted_llm.requests[2]).feedback
    assert episode.executable is False and episode.error_type is ErrorType.HALLUCINATED_NODE
    assert episode.status is Status.FAILED and episode.failure["cause"] == "unknown_node"


def test_a_first_plan_and_five_replans_at_most(scripted_llm):
    """SayPlan Tables 17-18: "5 was the maximum number of replanning steps"; a run that
    never verifies counts 5 replans."""
    forgot_access = [s for s in COFFEE_PLAN if s != "access(bed2)"]
    scripted_llm.enqueue_json(switch())
    for _ in range(7):
        scripted_llm.enqueue_json(plan(*forgot_access))
    episode = run(scripted_llm, COFFEE_TASK, dialogue="chat")
    assert scripted_llm.pending == 1 and len(scripted_llm.requests) == 7
    assert episode.replans == 5 and episode.executable is False
    assert len([c for c in episode.sim_calls if c.op == "verify"]) == 6
    assert episode.failure["cause"] == "nothing_accessed"
    assert episode.error_type is ErrorType.MISSING_ACTION and episode.status is Status.FAILED
    # The world as it was when the plan failed: a full mug in hand, in Tom's room.
    assert episode.final_changes["state"]["coffee_mug"] == ["full"]
    assert episode.final_changes["moved"]["agent"]["parent"] == "toms_room"
    assert episode.goal_reached  # the held mug is in his room, but the plan never ran through


def test_turn_cap_ends_the_search_with_a_warning(scripted_llm):
    for room in ("kitchen", "bobs_room"):
        scripted_llm.enqueue_json(expand(room))
    scripted_llm.enqueue_json(plan(*COFFEE_PLAN))
    episode = run(scripted_llm, COFFEE_TASK, max_search_turns=2)
    assert LAST_TURN not in shown(scripted_llm.requests[0]).feedback
    assert shown(scripted_llm.requests[1]).feedback.endswith(LAST_TURN)
    assert [t.command for t in episode.search] == ["expand", "expand"]
    assert episode.explored == ["kitchen", "bobs_room"] and episode.status is Status.SUCCESS


@pytest.mark.parametrize(
    ("answer", "correct", "room_explored"),
    [(["wine_bottle0"], True, True), (["bottle0"], False, True)],
)
def test_search_task_ends_with_the_answer(scripted_llm, answer, correct, room_explored):
    task = get_task("home-simple-02")  # Find me a bottle of wine.
    scripted_llm.enqueue_json(expand("kitchen1", find=True))
    scripted_llm.enqueue_json(expand("dining_room1", find=True))
    scripted_llm.enqueue_json(switch(answer))
    episode = run(scripted_llm, task)
    assert '"answer"' in scripted_llm.requests[0]["messages"][0]["content"]
    assert episode.answer == answer and episode.answer_correct is correct
    assert episode.answer_room_explored is room_explored
    assert episode.plan == [] and all(c.stage == "search" for c in episode.llm_calls)
    assert episode.search[-1].command == "answer"
    assert episode.status is (Status.SUCCESS if correct else Status.FAILED)


def test_free_instruction_asking_to_find_is_a_search(scripted_llm):
    scripted_llm.enqueue_json(expand("bobs_room", find=True))
    scripted_llm.enqueue_json(switch(["coffee_mug"]))
    episode = run(scripted_llm, "Find the blue mug.", env="coffee")
    assert episode.task_id is None and episode.answer == ["coffee_mug"]
    answer_with = shown(scripted_llm.requests[0]).text.splitlines()[1]
    assert answer_with.startswith("Answer with: the ids of the nodes the instruction asks for")


@pytest.mark.parametrize("planner", ["sayplan", "sayplan_lite"])
@pytest.mark.parametrize(
    ("task_id", "asked"),
    [
        ("home-simple-07", "the id of one room node (the room itself, not something in it)"),
        ("office-complex-06", "the id of one asset node (furniture or an appliance, not its"),
        ("office-simple-02", "the id of one object node (the thing itself, not the asset or"),
        ("home-simple-14", "the ids of 2 different nodes, each a room node"),
    ],
)
def test_search_prompt_says_what_kind_of_node_to_answer_with(scripted_llm, planner, task_id, asked):
    task = get_task(task_id)
    scripted_llm.enqueue_json(expand(task.answer_rooms[0], find=True))
    scripted_llm.enqueue_json(switch([]))
    run(scripted_llm, task, planner)
    assert len(scripted_llm.requests) == 2
    for request in scripted_llm.requests:
        turn = shown(request).text.splitlines()
        assert turn[1].startswith(f"Answer with: {asked}") and turn[1].endswith(
            "; [] if nothing in the building answers it"
        )
    system = scripted_llm.requests[0]["messages"][0]["content"]
    assert '"node": "lounge"}, "answer": []}' in system  # an exploring turn
    assert '"mode": "planning", "command": null, "answer": ["soda_can"]}' in system
    for example in (line for line in system.splitlines() if '"answer": [' in line):
        json.loads(example)  # the examples are replies the schema accepts


def test_server_failing_mid_run_ends_in_error_keeping_the_trace(scripted_llm):
    scripted_llm.enqueue_json(expand("kitchen"))
    for _ in range(3):  # the first attempt and two retries
        scripted_llm.enqueue_status(503)
    episode = run(scripted_llm, COFFEE_TASK)
    assert episode.status is Status.ERROR and "503" in episode.error
    assert len(episode.search) == 1 and episode.explored == ["kitchen"]
    assert len(episode.llm_calls) == 1 and episode.sim_calls[0].op == "expand"


def test_a_markovian_dialogue_sends_the_static_prompt_and_the_latest_turn(scripted_llm):
    """SayPlan Sec. 3.2: the memory input stands in for the interaction history."""
    for reply in (expand("kitchen"), switch(), plan(*COFFEE_PLAN_NOT_OPENED), plan(*COFFEE_PLAN)):
        scripted_llm.enqueue_json(reply)
    episode = run(scripted_llm, COFFEE_TASK)
    assert [len(r["messages"]) for r in scripted_llm.requests] == [2, 2, 2, 2]
    system = contents(scripted_llm.requests[0])[0]
    assert all(contents(r)[0] == system for r in scripted_llm.requests)
    turn = shown(scripted_llm.requests[2])
    assert turn.memory == ["kitchen"] and turn.feedback == "none"
    assert "Make Tom a coffee" in contents(scripted_llm.requests[3])[1]
    assert shown(scripted_llm.requests[3]).feedback.endswith(
        f"(in your last plan: {' > '.join(COFFEE_PLAN_NOT_OPENED)})"
    )
    assert episode.status is Status.SUCCESS and episode.replans == 1


def test_the_same_failing_plan_asks_the_same_question(scripted_llm):
    """Markovian replanning with unchanged feedback repeats a temperature-0 request, which
    the response cache answers: the rounds still count, the server is not asked again."""
    forgot_access = [s for s in COFFEE_PLAN if s != "access(bed2)"]
    scripted_llm.enqueue_json(switch())
    for _ in range(2):
        scripted_llm.enqueue_json(plan(*forgot_access))
    episode = run(scripted_llm, COFFEE_TASK)
    assert len(scripted_llm.requests) == 3 and episode.replans == 5
    plans = [c for c in episode.llm_calls if c.stage == "plan"]
    assert len(plans) == 6 and [c.cached for c in plans] == [False, False, *[True] * 4]


def test_options_are_checked():
    with pytest.raises(BadInputError, match="option 'max_replans' should be greater than or"):
        get_planner("sayplan", max_replans=-1)
    with pytest.raises(BadInputError, match="option 'max_search_turns' should be greater than"):
        get_planner("sayplan_lite", max_search_turns=0)
    with pytest.raises(BadInputError, match="'llm_plus_p': no option 'max_replans'"):
        get_planner("llm_plus_p", max_replans=2)
    with pytest.raises(BadInputError, match="option 'dialogue' should be 'markov' or 'chat'"):
        get_planner("sayplan", dialogue="history")


def test_the_reply_that_switches_to_planning_carries_the_plan(scripted_llm):
    """SayPlan (000, Algorithm 1): one reply switches and plans, one call fewer than asking."""
    task = get_task("planning-simple-02")
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch(plan=list(REFRIGERATE)))
    one = run(scripted_llm, task)
    system = scripted_llm.requests[0]["messages"][0]["content"]
    assert '"mode": "planning", "command": null, "plan": ["action(node)"' in system
    assert scripted_llm.requests[0]["response_format"]["json_schema"]["schema"]["required"] == [
        *("chain_of_thought", "reasoning", "mode", "command", "plan")
    ]
    assert one.status is Status.SUCCESS and one.plan == list(REFRIGERATE)
    assert [c.stage for c in one.llm_calls] == ["search", "search"]


def test_a_switch_without_the_plan_is_asked_for_it(scripted_llm):
    scripted_llm.enqueue_json(expand("kitchen"))
    scripted_llm.enqueue_json(switch())
    scripted_llm.enqueue_json(plan(*REFRIGERATE))
    episode = run(scripted_llm, get_task("planning-simple-02"))
    assert episode.status is Status.SUCCESS and episode.plan == list(REFRIGERATE)
    assert [c.stage for c in episode.llm_calls] == ["search", "search", "plan"]  # one more


def test_sayplan_star_is_sayplan_without_poses_with_put_on(scripted_llm):
    """LookPlanGraph's SayPlan* (004, §6.1): no pose nodes, put_on/put_inside, full graph."""
    task = get_task("grasif-office-01")
    steps = [s for s in task.reference_plan]
    scripted_llm.enqueue_json(expand(task_rooms(task)[0]))
    scripted_llm.enqueue_json(switch(plan=steps))
    episode = run(scripted_llm, task, actions="lookplangraph")
    system = scripted_llm.requests[0]["messages"][0]["content"]
    assert "put_on(" in system and "access(" not in system and "goto(" not in system
    assert not any(n.startswith("pose") for n in shown(scripted_llm.requests[0]).nodes)
    assert episode.status is Status.SUCCESS and episode.full_plan == steps  # no poses added
    assert episode.options == {"actions": "lookplangraph"}


def test_the_papers_sayplan_star_rows_name_that_setup():
    from sceneplan.eval.report import published
    from sceneplan.planners.options import parse_spec

    rows = [r for d in published()["lookplangraph_table2"]["datasets"] for r in d["rows"]]
    rows += published()["lookplangraph_table3"]["rows"]
    specs = {r["planner"] for r in rows if r["method"] == "SayPlan*"}
    assert specs == {"sayplan[actions=lookplangraph]"}
    name, options = parse_spec(specs.pop())
    assert get_planner(name, options).actions is LOOKPLANGRAPH


def task_rooms(task) -> list[str]:
    graph = runs.resolve(task).graph
    return [graph.room_of(a.args[0]) for a in map(parse_action, task.reference_plan) if a.args]
