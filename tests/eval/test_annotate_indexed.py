"""The metrics' graph facts, answered from indexes and the states' changes, equal the scans
they replace: a quantifier's members by scanning every node's category, the literals by
substituting each member into the body, the differing nodes by comparing every node."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sceneplan.eval.annotate as annotate_module
import sceneplan.graph.model as model
from sceneplan.datasets.tasks import Task, load_suite
from sceneplan.eval.annotate import differing, goal_state, literals, node_config
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.runs import resolve
from sceneplan.world.goal_forms import nnf, substitute
from sceneplan.world.goals import (
    And,
    Atom,
    Formula,
    Implies,
    Not,
    Or,
    Quantified,
    members,
    parse_goal,
    walk,
)
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState

SEEN = (NodeKind.ASSET, NodeKind.OBJECT)


# -- the definitions by scanning, as the metrics were first written ------------------


def scanned_members(selector: str, graph: SceneGraph) -> list[str]:
    if selector.startswith("kind:"):
        kind = NodeKind(selector.split(":", 1)[1])
        return [n.id for n in graph if n.kind is kind]
    return [n.id for n in graph if n.category == selector]


def substituted_literals(formula: Formula, state: WorldState) -> list:
    def deciding(f: Formula) -> list:
        match f:
            case Atom():
                return [(f.predicate.subject_of(f.args), f.holds(state))]
            case Not(body=Atom() as atom):
                return [(atom.predicate.subject_of(atom.args), not atom.holds(state))]
            case And(parts=parts):
                return [lit for part in parts for lit in deciding(part)]
            case Or(parts=parts):
                return choose([deciding(part) for part in parts])
            case Implies(left=left, right=right):
                return deciding(right) if left.holds(state) else []
            case Quantified(universal=universal, var=var, body=body):
                options = [
                    deciding(substitute(body, {var: x}))
                    for x in scanned_members(f.selector, state.graph)
                ]
                return [lit for o in options for lit in o] if universal else choose(options)
        return []

    def choose(options: list[list]) -> list:
        for option in options:
            if all(holds for _, holds in option):
                return option
        return min(options, key=lambda o: sum(not holds for _, holds in o), default=[])

    return deciding(nnf(formula, keep_implies=True))


def scanned_differing(a: WorldState, b: WorldState) -> set[str]:
    return {
        n.id for n in a.graph if n.kind in SEEN and node_config(a, n.id) != node_config(b, n.id)
    }


# -- packaged tasks whose goals quantify, with the states they are judged in ----------


def quantified_tasks() -> list[Task]:
    suites = ("office-planning", "office-grasif", "hydra-apartment", "mp3d-house")
    tasks = [
        t
        for suite in suites
        for t in load_suite(suite)
        if t.goal and ("forall" in t.goal or "exists" in t.goal)
    ]
    return tasks + load_suite("alfworld-valid-unseen")[:3]


TASKS = quantified_tasks()


@cache
def start_graph(task_id: str) -> SceneGraph:
    return resolve(next(t for t in TASKS if t.id == task_id)).graph


def test_the_sample_has_quantifiers_and_goal_graphs():
    with_goal_graph = [t for t in TASKS if isinstance(goal_state(t, start_graph(t.id)), WorldState)]
    assert len(TASKS) >= 30 and len(with_goal_graph) >= 25


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_members_literals_and_differing_equal_the_scans(task: Task):
    graph = start_graph(task.id)
    goal = parse_goal(task.goal, graph)
    selectors = {f.selector for f in walk(goal) if isinstance(f, Quantified)}
    for selector in {*selectors, *(n.category for n in graph), *(f"kind:{k}" for k in NodeKind)}:
        assert members(selector, graph) == scanned_members(selector, graph)
    start = WorldState(graph)
    states = [start]
    reached = goal_state(task, graph)
    if isinstance(reached, WorldState):
        states.append(reached)
        assert differing(start, reached) == scanned_differing(start, reached)
        assert differing(reached, start) == scanned_differing(reached, start)
    for state in states:
        assert literals(goal, state) == substituted_literals(goal, state)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_on_changed_states_too(data):
    """Objects moved onto other assets, state words set: the answers still equal the scans."""
    task = data.draw(st.sampled_from(TASKS), label="task")
    graph = start_graph(task.id)
    objects = [n.id for n in graph.of_kind(NodeKind.OBJECT)]
    assets = [n.id for n in graph.of_kind(NodeKind.ASSET)]
    words = sorted(EXCLUSIVE_STATES)
    a, b = WorldState(graph), WorldState(graph)
    for state in (a, b):
        for _ in range(data.draw(st.integers(0, 6), label="changes")):
            node = data.draw(st.sampled_from(objects + assets), label="node")
            if node in objects and data.draw(st.booleans(), label="move"):
                parent = data.draw(st.sampled_from([graph.nodes[node].parent, *assets]))
                relation = data.draw(st.sampled_from([Relation.ONTOP_OF, Relation.INSIDE_OF]))
                state.move(node, parent, relation)  # type: ignore[arg-type]
            else:
                state.set_state(node, data.draw(st.sampled_from(words), label="word"))
    assert differing(a, b) == scanned_differing(a, b)
    goal = parse_goal(task.goal, graph)
    assert literals(goal, b) == substituted_literals(goal, b)


# -- what the answers cost ---------------------------------------------------------------


def test_differing_reads_only_the_nodes_a_state_changed(monkeypatch):
    graph = start_graph(TASKS[0].id)
    start, after = WorldState(graph), WorldState(graph)
    after.set_state("cabinet5", "closed" if "open" in start.states("cabinet5") else "open")
    read: list[str] = []

    def counted(state: WorldState, node: str):
        read.append(node)
        return node_config(state, node)

    monkeypatch.setattr(annotate_module, "node_config", counted)
    assert differing(start, after) == {"cabinet5"}
    assert set(read) == {"cabinet5"}  # not every asset and object of the building


def test_a_category_is_indexed_once_per_graph(monkeypatch):
    loaded = start_graph(TASKS[0].id)
    graph = SceneGraph.from_nodes(list(loaded), loaded.links())  # a new graph, no index yet
    named = model.default_category
    calls: list[str] = []

    def counted(node_id: str) -> str:
        calls.append(node_id)
        return named(node_id)

    monkeypatch.setattr(model, "default_category", counted)
    assert graph.with_category("cabinet")
    once = len(calls)
    assert graph.with_category("chair") and members("cabinet", graph) and len(calls) == once
    assert once <= len(graph)  # one look at each node, not one per question


def test_a_goal_text_is_parsed_once():
    text = "forall c in cabinet: closed(c)"
    assert parse_goal(text) is parse_goal(text)
