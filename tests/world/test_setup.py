import pytest

from sceneplan.errors import GoalParseError
from sceneplan.graph.model import Relation
from sceneplan.world import Simulator
from sceneplan.world.setup import with_facts
from scenes import kitchen


def test_facts_change_the_start():
    graph = with_facts(
        kitchen(),
        ["held(apple)", "inside_of(plate, dishwasher)", "agent_at(kitchen)", "clean(plate)"],
    )
    state = Simulator(graph).initial_state()
    assert state.held == ("apple",) and state.relation("apple") is Relation.HELD
    assert state.parent("plate") == "dishwasher" and state.states("plate") == {"clean"}
    assert state.agent_at == "kitchen"
    assert graph.node("plate").parent == "dishwasher"
    assert kitchen().node("plate").parent == "bench"  # the original is untouched


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (["held(apple)", "held(mug)"], "the agent already holds apple"),
        (["agent_at(desk)"], "the agent stands in a room or at a pose"),
        (["closed(fridge) and open(bench)"], "must be a single predicate"),
        (
            ["attr(mug, red)"],
            "use ontop_of, inside_of, attached, held, agent_at, filled, contains, covered, "
            "saturated, insource or a state word",
        ),
        (["held(spoon)"], "unknown node 'spoon'"),
    ],
)
def test_bad_facts_name_the_problem(facts, message):
    with pytest.raises(GoalParseError, match=message):
        with_facts(kitchen(), facts)


def test_an_initial_fact_may_bring_a_state_word_the_graph_lacks():
    from sceneplan.datasets import load_environment

    graph = with_facts(load_environment("coffee"), ["rotten(coffee_mug)"])
    assert "rotten" in graph.node("coffee_mug").state
