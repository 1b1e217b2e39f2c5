"""The ground task (`symbolic/task.py`) and the pure-Python search (`symbolic/gbfs.py`).

Every task here is built by hand from a few facts and actions, so the plans
(and which tasks have none) are known.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ground_tasks import Builder, LateClock, chain, execute, names, trap
from sceneplan.symbolic import gbfs as gbfs_module
from sceneplan.symbolic.gbfs import INF, CompiledTask, fact_mask, gbfs
from sceneplan.symbolic.relaxed_arrays import RelaxedArrays
from sceneplan.symbolic.task import CondEffect, FactTable, GroundAction, GroundTask

# --- the task: facts, applicability, successors --------------------------------------------


def test_fact_table_interns_each_fact_once_in_order():
    table = FactTable()
    assert table(("holding", "mug")) == 0
    assert table(("state", "open", "fridge")) == 1
    assert table(("holding", "mug")) == 0
    assert table.facts == [("holding", "mug"), ("state", "open", "fridge")]
    assert table.index == {("holding", "mug"): 0, ("state", "open", "fridge"): 1}
    assert table.many([("at", "kitchen"), ("holding", "mug")]) == frozenset({2, 0})


def test_applicable_needs_every_positive_and_no_negative_precondition():
    b = Builder()
    a = b.action("open", pre=["at_fridge", "hand_free"], neg=["locked"], add=["open"])
    assert a.applicable(b.f("at_fridge", "hand_free"))
    assert a.applicable(b.f("at_fridge", "hand_free", "unrelated"))
    assert not a.applicable(b.f("at_fridge"))
    assert not a.applicable(b.f("at_fridge", "hand_free", "locked"))


def test_apply_deletes_before_it_adds():
    b = Builder()
    a = b.action("refresh", add=["p", "q"], delete=["p", "r"])
    assert a.apply(b.f("p", "r", "s")) == b.f("p", "q", "s")


def test_conditional_effects_read_the_state_before_the_action():
    b = Builder()
    a = b.action(
        "turn_on",
        add=["on"],
        delete=["off"],
        effects=[
            b.when(pre=["on"], add=["was_already_on"]),  # `on` is added by this very action
            b.when(pre=["mug_inside"], add=["mug_full"], delete=["mug_empty"]),
            b.when(neg=["off"], add=["not_off_before"]),  # `off` is deleted by this very action
        ],
    )
    assert a.apply(b.f("off", "mug_empty")) == b.f("on", "mug_empty")
    assert a.apply(b.f("off", "mug_inside", "mug_empty")) == b.f("on", "mug_inside", "mug_full")
    assert a.apply(b.f("on")) == b.f("on", "was_already_on", "not_off_before")


def test_a_conditional_add_wins_over_an_unconditional_delete():
    b = Builder()
    a = b.action("toggle", delete=["lit"], effects=[b.when(pre=["sticky"], add=["lit"])])
    assert a.apply(b.f("lit")) == frozenset()
    assert a.apply(b.f("lit", "sticky")) == b.f("lit", "sticky")


def test_goal_test_reads_positive_and_negative_goal_facts():
    b = Builder()
    task = b.task(init=["a"], goal=["a", "b"], goal_neg=["c"])
    assert task.is_goal(b.f("a", "b"))
    assert task.is_goal(b.f("a", "b", "d"))
    assert not task.is_goal(b.f("a"))
    assert not task.is_goal(b.f("a", "b", "c"))
    assert task.describe(b.f("c", "a")) == [("a",), ("c",)]


# --- the search ---------------------------------------------------------------------------


def test_gbfs_finds_the_only_plan_of_a_chain():
    task = chain(6)
    outcome = gbfs(task, timeout=10)
    assert outcome.status == "plan"
    assert names(task, outcome.plan) == [f"step{i}" for i in range(6)]
    assert task.is_goal(execute(task, outcome.plan))


def test_gbfs_returns_the_empty_plan_when_the_start_is_a_goal():
    b = Builder()
    b.action("noop", pre=["a"], add=["b"])
    outcome = gbfs(b.task(init=["a", "g"], goal=["g"]), timeout=10)
    assert (outcome.status, outcome.plan, outcome.expanded) == ("plan", [], 0)


def test_gbfs_reports_no_plan_when_the_goal_is_unreachable_even_ignoring_deletes():
    b = Builder()
    b.action("a_to_b", pre=["a"], add=["b"])
    b.action("needs_c", pre=["c"], add=["g"])
    outcome = gbfs(b.task(init=["a"], goal=["g"]), timeout=10)
    assert outcome.status == "unsolvable" and outcome.plan == []
    assert outcome.expanded == 0  # the start is a dead end for h_FF already


def test_gbfs_exhausts_every_reachable_state_before_reporting_no_plan():
    # 2^6 toggle settings times {neither, x, y}: every state is expanded exactly once
    outcome = gbfs(trap(6), timeout=30)
    assert outcome.status == "unsolvable"
    assert outcome.expanded == 2**6 * 3


def test_gbfs_honours_its_timeout():
    started = time.perf_counter()
    outcome = gbfs(trap(30), timeout=0.2)
    elapsed = time.perf_counter() - started
    assert outcome.status == "timeout" and outcome.plan == []
    assert elapsed < 2.0


def choice_tree(branching: int, depth: int) -> GroundTask:
    """`depth` levels of `branching` choices each, every path a new state, and a goal that
    looks one step away to h_FF but is blocked; no successor is a preferred one."""
    b = Builder()
    for d in range(depth):
        for i in range(branching):
            b.action(
                f"choose{d}_{i}",
                pre=[f"level{d}"],
                add=[f"level{d + 1}", f"chose{d}_{i}"],
                delete=[f"level{d}"],
            )
    b.action("make_w", neg=["blocked"], add=["w"])
    b.action("make_goal", pre=["w"], add=["goal"])
    return b.task(init=["level0", "blocked"], goal=["goal"])


@pytest.mark.parametrize("branching", [62, 64])
def test_gbfs_reads_the_clock_at_least_every_64_expansions(monkeypatch, branching):
    clock = LateClock()
    monkeypatch.setattr(gbfs_module, "time", clock)
    outcome = gbfs(choice_tree(branching, 3), timeout=10)
    assert outcome.status == "timeout"
    assert outcome.expanded <= 64


def test_gbfs_reads_the_clock_whatever_the_branching_factor(monkeypatch):
    clock = LateClock()
    monkeypatch.setattr(gbfs_module, "time", clock)
    outcome = gbfs(choice_tree(63, 3), timeout=10)  # 4,033 expansions before it times out
    assert outcome.status == "timeout"
    assert outcome.expanded <= 64


def test_gbfs_plans_around_a_negative_precondition():
    b = Builder()
    b.action("enter", pre=["at_door"], neg=["locked"], add=["inside"])
    b.action("unlock", pre=["at_door", "key"], add=["unlocked"], delete=["locked"])
    b.action("lock", pre=["at_door", "key"], add=["locked"], delete=["unlocked"])
    b.action("take_key", neg=["key"], add=["key"])
    task = b.task(init=["at_door", "locked"], goal=["inside"])
    outcome = gbfs(task, timeout=10)
    assert outcome.status == "plan"
    assert names(task, outcome.plan) == ["take_key", "unlock", "enter"]
    assert task.is_goal(execute(task, outcome.plan))


def test_gbfs_uses_a_conditional_effect_only_when_its_condition_holds():
    # turning the machine on fills the mug only if the mug is in it already
    b = Builder()
    b.action("turn_on", neg=["on"], add=["on"], effects=[b.when(pre=["mug_in"], add=["full"])])
    b.action("turn_off", pre=["on"], delete=["on"])
    b.action("put_mug", pre=["holding"], add=["mug_in"], delete=["holding"])
    task = b.task(init=["holding"], goal=["full"])
    outcome = gbfs(task, timeout=10)
    assert outcome.status == "plan"
    assert names(task, outcome.plan) == ["put_mug", "turn_on"]
    assert task.is_goal(execute(task, outcome.plan))


def test_gbfs_turns_the_machine_off_first_when_it_is_already_on():
    b = Builder()
    b.action("turn_on", neg=["on"], add=["on"], effects=[b.when(pre=["mug_in"], add=["full"])])
    b.action("turn_off", pre=["on"], delete=["on"])
    b.action("put_mug", pre=["holding"], add=["mug_in"], delete=["holding"])
    task = b.task(init=["holding", "on"], goal=["full"])
    outcome = gbfs(task, timeout=10)
    assert outcome.status == "plan"
    assert sorted(names(task, outcome.plan)) == ["put_mug", "turn_off", "turn_on"]
    assert task.is_goal(execute(task, outcome.plan))


def test_gbfs_reaches_a_negative_goal():
    b = Builder()
    b.action("tidy", pre=["clutter", "here"], delete=["clutter"])
    b.action("go", neg=["here"], add=["here"])
    task = b.task(init=["clutter"], goal_neg=["clutter"])
    outcome = gbfs(task, timeout=10)
    assert names(task, outcome.plan) == ["go", "tidy"]
    assert task.is_goal(execute(task, outcome.plan))


def test_gbfs_backs_out_of_a_dead_end_its_heuristic_cannot_see():
    # `rush` and `walk` both reach the door; only `walk` keeps the key that `open` needs
    b = Builder()
    b.action("rush", pre=["start"], add=["door"], delete=["start", "key"])
    b.action("walk", pre=["start"], add=["door"], delete=["start"])
    b.action("open", pre=["door", "key"], add=["goal"])
    task = b.task(init=["start", "key"], goal=["goal"])
    outcome = gbfs(task, timeout=10)
    assert names(task, outcome.plan) == ["walk", "open"]


# --- the heuristic ------------------------------------------------------------------------


def test_h_ff_is_zero_at_the_goal_and_infinite_at_a_dead_end():
    b = Builder()
    b.action("make_g", pre=["a"], add=["g"], delete=["a"])
    task = b.task(init=["a"], goal=["g"])
    c = CompiledTask(task)
    assert c.h_ff(fact_mask(b.f("g")))[0] == 0
    assert c.h_ff(fact_mask(b.f("g", "a")))[0] == 0
    assert c.h_ff(fact_mask(frozenset()))[0] == INF
    assert c.h_ff(fact_mask(b.f("a")))[0] == 1


def test_h_ff_counts_the_remaining_links_of_a_chain_and_prefers_the_next_one():
    task = chain(5, distractors=3)
    c = CompiledTask(task)
    by_name = {a.name: i for i, a in enumerate(task.actions)}
    for i in range(6):
        h, preferred = c.h_ff(fact_mask([task.facts.index((f"p{i}",))]))
        assert h == 5 - i
        if i < 5:
            assert by_name[f"step{i}"] in preferred
            assert not any(task.actions[p].name.startswith(("set", "clear")) for p in preferred)


def test_h_ff_counts_goal_facts_that_must_be_deleted():
    b = Builder()
    b.action("drop_a", pre=["a"], delete=["a"])
    b.action("drop_b", pre=["b"], delete=["b"])
    task = b.task(init=["a", "b"], goal_neg=["a", "b"])
    c = CompiledTask(task)
    assert c.h_ff(fact_mask(b.f("a", "b")))[0] == 2
    assert c.h_ff(fact_mask(b.f("b")))[0] == 1
    assert c.h_ff(fact_mask(frozenset()))[0] == 0


def test_h_ff_relaxes_a_conditional_effect_to_its_own_action():
    b = Builder()
    b.action("turn_on", add=["on"], effects=[b.when(pre=["mug_in"], add=["full"])])
    b.action("put_mug", pre=["holding"], add=["mug_in"])
    task = b.task(init=["holding"], goal=["full"])
    c = CompiledTask(task)
    assert c.h_ff(fact_mask(b.f("holding")))[0] == 2
    assert c.h_ff(fact_mask(b.f("mug_in")))[0] == 1
    assert c.h_ff(fact_mask(b.f("on")))[0] == INF  # no mug, nothing to fill


def test_the_heuristic_guides_the_search_straight_down_a_chain():
    # 12 toggles make 4096 settings per chain position; blind search would wander through them
    task = chain(8, distractors=12)
    outcome = gbfs(task, timeout=10)
    assert names(task, outcome.plan) == [f"step{i}" for i in range(8)]
    assert outcome.expanded <= 2 * 8
    assert outcome.evaluated <= 2 * 8


# --- against brute force --------------------------------------------------------------------

N_FACTS = 5


@st.composite
def random_tasks(draw) -> GroundTask:
    fact_set = st.frozensets(st.integers(0, N_FACTS - 1), max_size=2)
    actions = []
    for i in range(draw(st.integers(0, 6))):
        effects = tuple(
            CondEffect(draw(fact_set), draw(fact_set), draw(fact_set), draw(fact_set))
            for _ in range(draw(st.integers(0, 1)))
        )
        actions.append(
            GroundAction(
                f"a{i}",
                None,
                draw(fact_set),
                draw(fact_set),
                draw(fact_set),
                draw(fact_set),
                effects,
            )
        )
    return GroundTask(
        [(f"f{i}",) for i in range(N_FACTS)],
        draw(fact_set),
        draw(fact_set),
        draw(fact_set),
        actions,
    )


def reachable_goal(task: GroundTask) -> bool:
    seen, queue = {task.init}, deque([task.init])
    while queue:
        state = queue.popleft()
        if task.is_goal(state):
            return True
        for a in task.actions:
            if a.applicable(state):
                child = a.apply(state)
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
    return False


@settings(max_examples=300, deadline=None)
@given(random_tasks())
@pytest.mark.slow
def test_gbfs_agrees_with_breadth_first_search_on_random_tasks(task):
    outcome = gbfs(task, timeout=10)
    assert outcome.status == ("plan" if reachable_goal(task) else "unsolvable")
    if outcome.status == "plan":
        assert task.is_goal(execute(task, outcome.plan))


@st.composite
def costed_tasks(draw) -> tuple[GroundTask, int]:
    """A random task whose actions cost 1 to 3 (ties between supporters are common), and a
    state of it."""
    task = draw(random_tasks())
    costs = [draw(st.integers(1, 3)) for _ in task.actions]
    actions = [replace(a, cost=c) for a, c in zip(task.actions, costs, strict=True)]
    state = draw(st.integers(0, 2**N_FACTS - 1))
    return replace(task, actions=actions), state


@settings(max_examples=300, deadline=None)
@given(costed_tasks())
@pytest.mark.slow
def test_h_add_over_arrays_has_the_costs_and_supporters_of_the_dijkstra(drawn):
    # the arrays must choose each fact's supporter as the Dijkstra does (the first to fire
    # among the cheapest): h_FF's relaxed plan is read from them, and with another plan the
    # search, and the packaged reference plans, would change
    task, state = drawn
    plain = CompiledTask(task)
    arrays = RelaxedArrays([pre for _, pre, _ in plain.relaxed], plain.relaxed_adds, plain)
    cost, support = arrays.add_costs(gbfs_module._bits(state))
    assert (cost, support) == tuple(plain._add_costs(state, until=None))


def test_h_ff_uses_the_arrays_on_large_tasks_only(monkeypatch):
    task = chain(3)
    assert CompiledTask(task)._arrays is None
    plan = gbfs(task, timeout=10).plan
    monkeypatch.setattr(gbfs_module, "ARRAYS_MIN_RELAXED", 1)
    compiled = CompiledTask(task)
    assert compiled._arrays is not None
    assert compiled.h_ff(fact_mask(task.init)) == (3, {0, 1, 2})
    assert gbfs(task, timeout=10).plan == plan and len(plan) == 3


def test_new_costs_reach_the_arrays_built_with_the_old_ones(monkeypatch):
    """The arrays hold the relaxed actions' costs, which choose each fact's supporter: after
    `set_costs` (or in `with_costs`' copy), h_FF takes the way that is cheapest now (two
    steps at 1), not the one that was (one step, now at 5)."""
    monkeypatch.setattr(gbfs_module, "ARRAYS_MIN_RELAXED", 1)
    b = Builder()
    b.action("direct", pre=["start"], add=["goal"])
    b.action("first", pre=["start"], add=["halfway"])
    b.action("second", pre=["halfway"], add=["goal"])
    task = b.task(init=["start"], goal=["goal"])
    start = fact_mask(task.init)
    compiled = CompiledTask(task)
    assert compiled.h_ff(start) == (1, {0})
    assert compiled.with_costs([5, 1, 1]).h_ff(start) == (2, {1, 2})
    assert compiled.h_ff(start) == (1, {0})  # the copy's costs are its own
    compiled.set_costs([5, 1, 1])
    assert compiled.h_ff(start) == (2, {1, 2})
