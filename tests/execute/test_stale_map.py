"""Plans on a stale map: belief from the prior, the robot in the true world (issue 28)."""

import asyncio

import pytest

from execute_helpers import stale_task
from sceneplan.datasets.tasks import get_task
from sceneplan.execute import Executor, SimulatedRobot, SymbolicReplanner, execute, search
from sceneplan.execute.belief import Belief
from sceneplan.graph.model import SceneGraph
from sceneplan.planners import get_planner
from sceneplan.planners.episode import Episode, Status
from sceneplan.planners.records import Confirmation
from sceneplan.runs import aplan
from sceneplan.symbolic.solver import PlanningProblem, solve


def test_a_goal_that_holds_only_in_memory_is_solved_by_looking_and_replanning(ring):
    # the map has the box on the shelf, as the goal wants; someone put it on the bench
    task = stale_task("ontop_of(box, shelf)", "ontop_of(box, bench)")
    closed = asyncio.run(execute(get_planner("oracle"), task, ring))
    record = closed.execute
    assert record.rounds[0].plan == []  # on the map, the goal holds already
    assert record.confirmed == [Confirmation(node="box", asset="shelf", step=0)]
    assert closed.status is Status.SUCCESS and closed.goal_reached
    kinds = [(u.kind, u.node) for u in record.updates if u.node == "box"]
    assert kinds[:2] == [("missing", "box"), ("found", "box")]
    assert record.corrections >= 2 and record.looks >= 1
    assert [r.source for r in record.rounds] == ["planner", "search", "symbolic"]
    opened = asyncio.run(execute(get_planner("oracle"), task, ring, closed_loop=False))
    assert opened.status is Status.FAILED and opened.goal_unmet == ["ontop_of(box, shelf) is false"]


def test_the_partially_observing_oracle_confirms_a_goal_memory_alone_vouches_for(ring):
    task = stale_task("ontop_of(box, shelf)", "ontop_of(box, bench)")
    planner = get_planner("oracle", {"observe": "partial", "memory": "prior"})
    episode = asyncio.run(aplan(planner, task, ring))
    assert episode.goal_reached, episode.failure
    looks = [s.action for s in episode.steps if s.action.startswith("look_")]
    assert looks[0] == "look_on(shelf)" and "box" in episode.steps[1].forgotten


def test_the_planner_and_the_belief_start_from_the_prior_and_the_robot_from_the_truth():
    task = get_task("dynamic-office-01")  # orange1 moved from the kitchen bench to table5
    closed = asyncio.run(execute(get_planner("oracle"), task))
    record = closed.execute
    assert "access(kitchen_bench)" in record.rounds[0].plan  # planned on the map
    assert closed.status is Status.SUCCESS
    found = record.searches[0]
    assert found.found and found.lost == ["orange1"] and found.order == "greedy"
    assert record.corrections > 0 and record.looks == sum(s.calls for s in record.searches)
    assert record.failed_steps == sum(not c.ok for c in record.calls)
    opened = asyncio.run(execute(get_planner("oracle"), task, closed_loop=False))
    assert opened.status is Status.FAILED and opened.execute.corrections == 0


@pytest.mark.slow
def test_the_likely_search_looks_at_fewer_assets_than_the_nearest_first_one():
    task = get_task("dynamic-office-07")
    looked = {}
    for order in search.ORDERS:
        episode = asyncio.run(execute(get_planner("oracle"), task, search=order))
        assert episode.status is Status.SUCCESS
        looked[order] = episode.execute.searches[0]
    assert looked["likely"].looked < looked["nearest"].looked
    assert looked["likely"].calls < looked["nearest"].calls


def test_a_search_that_spends_its_budget_says_so(ring, monkeypatch):
    nodes = [n for n in ring if n.id != "box"]
    truth = SceneGraph.from_nodes(nodes, ring.links(), ring.name)
    monkeypatch.setattr(search, "MIN_SEARCH_CALLS", 2)
    monkeypatch.setattr(search, "CALLS_PER_PLACE", 0)
    goal = "ontop_of(box, desk)"
    robot = SimulatedRobot(truth, known=ring)
    executor = Executor(robot, ring, goal=goal, replanner=SymbolicReplanner(goal))
    plan = solve(PlanningProblem(ring, goal)).plan
    episode = Episode(planner="oracle", model="none", environment="ring", instruction="box")
    asyncio.run(executor.run(plan, episode))
    stopped = episode.execute.stopped
    assert stopped.startswith("the search for box spent its budget of 2 skill calls")


def test_the_likely_order_puts_a_kind_that_holds_such_things_first(ring):
    # a second box lives in the locker: a lost box is looked for in lockers before benches
    data = [n for n in ring]
    extra = next(n for n in data if n.id == "box").with_(
        id="box2", parent="locker", explicit_category="box"
    )
    graph = SceneGraph.from_nodes([*data, extra], ring.links(), ring.name)
    belief = Belief(graph)
    belief._forget("box")
    order = search.search_order(belief, ["box"])
    assert order[0] == ("store", None)  # where it was believed
    looks = [asset for _, asset in order if asset is not None]
    assert looks.index("locker") < looks.index("bench")
    assert search.same_kind(belief, ["box"]) == {"locker"}


@pytest.mark.parametrize("order", ["sideways"])
def test_an_unknown_search_order_is_refused(ring, order):
    from sceneplan.errors import BadInputError

    with pytest.raises(BadInputError, match="unknown search order 'sideways'"):
        Executor(SimulatedRobot(ring), ring, search=order)


def test_a_likely_search_asks_the_llm_where_to_look_when_there_is_one(ring, scripted_llm):
    # the box went into the closed locker in hall_b: by the map alone, the likely order
    # opens closed storage of another kind last; the LLM names hall_b, searched whole
    task = stale_task("ontop_of(box, desk)", "inside_of(box, locker)", ("closed(locker)",))
    scripted_llm.enqueue_json({"rooms": ["hall_b", "attic"]})
    with scripted_llm.client() as llm:
        guided = asyncio.run(execute(get_planner("oracle"), task, ring, llm, search="likely"))
    search = guided.execute.searches[0]
    assert guided.status is Status.SUCCESS and search.found
    assert search.llm_rooms == ["hall_b"] and search.llm_note is None  # attic: no room
    assert guided.llm_calls[0].stage == "search"
    assert "box (a box, last seen on shelf)" in scripted_llm.requests[0]["messages"][-1]["content"]
    alone = asyncio.run(execute(get_planner("oracle"), task, ring, search="likely"))
    assert alone.execute.searches[0].llm_rooms is None
    assert search.calls < alone.execute.searches[0].calls


def test_a_search_goes_on_by_the_map_when_the_llm_answers_nothing_usable(ring, scripted_llm):
    task = stale_task("ontop_of(box, desk)", "ontop_of(box, bench)")
    scripted_llm.enqueue_json({"rooms": ["attic"]})
    with scripted_llm.client() as llm:
        episode = asyncio.run(execute(get_planner("oracle"), task, ring, llm))
    search = episode.execute.searches[0]
    assert episode.status is Status.SUCCESS
    assert search.llm_rooms == [] and search.llm_note == "the LLM named no room of the map"
