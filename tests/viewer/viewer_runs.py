"""Runs the viewer tests show: a SayPlan search ending in a failing plan, a partially observing run.

Both are made by the real code paths: the SayPlan run by the planner against
the scripted LLM server, the partially observing one by `PartialWorld` with
perfect simulated perception, recorded step by step as the Observer records
LookPlanGraph's steps.
"""

from __future__ import annotations

from sayplan_script import COFFEE_PLAN_NOT_OPENED, COFFEE_TASK, contract, expand, plan, switch
from sceneplan import runs
from sceneplan.datasets import load_environment
from sceneplan.graph.model import NodeKind, Relation, SceneGraph
from sceneplan.planners import Episode, get_planner
from sceneplan.planners.episode import WorldStep
from sceneplan.planners.records import ObserveStart
from sceneplan.world.memory import Memory, Observation
from sceneplan.world.partial import PartialWorld, visible
from sceneplan.world.state import WorldState
from sceneplan.world.vocabularies import LOOKPLANGRAPH

SEARCH = [expand("kitchen"), contract("kitchen"), expand("bobs_room"), expand("kitchen"), switch()]
FAILING_FEEDBACK = "step 3 pickup(coffee_mug): coffee_mug is inside wardrobe1, which is closed"


def failing_sayplan_episode(scripted_llm) -> Episode:
    """SayPlan on the coffee scene: four search turns, then one plan that forgets to open the
    wardrobe the mug is in, with no replanning: the plan fails at step 3 (SayPlan App. L)."""
    for reply in SEARCH:
        scripted_llm.enqueue_json(reply)
    scripted_llm.enqueue_json(plan(*COFFEE_PLAN_NOT_OPENED))
    with scripted_llm.client() as llm:
        return runs.plan(get_planner("sayplan", max_replans=0), COFFEE_TASK, None, llm)


# The coffee mug was in Bob's wardrobe when the map was made; it is now on Tom's bed.
PARTIAL_ACTIONS = [
    "go_to(bobs_room)",
    "open(wardrobe1)",
    "pick_up(coffee_mug)",  # memory allows it; the true world refuses: memory was stale
    "look_inside(wardrobe1)",
    "go_to(toms_room)",
    "look_on(bed2)",
    "pick_up(coffee_mug)",
]


def partial_run() -> tuple[SceneGraph, SceneGraph, Episode]:
    """(true world, the map as last made, the Episode of PARTIAL_ACTIONS)."""
    prior = load_environment("coffee")
    moved = WorldState(prior)
    moved.move("coffee_mug", "bed2", Relation.ONTOP_OF)
    truth = moved.to_graph()
    memory = Memory.prior(prior)
    world = PartialWorld(WorldState(truth), memory, LOOKPLANGRAPH)
    episode = Episode(
        planner="lookplangraph",
        model="scripted",
        environment="coffee",
        instruction="Bring me the coffee mug.",
        observe=ObserveStart(perception="simulated:perfect", memory=memory.objects()),
    )
    for index, text in enumerate(PARTIAL_ACTIONS):
        outcome = world.execute(text, index=index)
        observations: list[Observation] = []
        if outcome.look is not None:
            asset, relation = outcome.look
            for node in visible(world.truth, asset, relation):
                seen = world.truth.graph.nodes[node]
                assert seen.kind is NodeKind.OBJECT
                observations.append(
                    Observation(
                        name=node,
                        category=seen.category,
                        relation=world.truth.relation(node),
                        related_to=world.truth.parent(node),
                        states=tuple(sorted(world.truth.states(node))),
                        truth=node,
                        id=node,
                    )
                )
            outcome.change += world.look(asset, relation, observations)
        if outcome.ok:
            episode.plan.append(str(outcome.executed))
            episode.full_plan.append(str(outcome.executed))
        episode.steps.append(
            WorldStep(
                index=index,
                action=text,
                executed=str(outcome.executed) if outcome.ok else None,
                ok=outcome.ok,
                feedback=outcome.feedback,
                cause=outcome.failure.cause.value if outcome.failure else None,
                agent_at=world.truth.agent_at,
                observations=[o.to_dict() for o in observations],
                added=list(outcome.change.added),
                forgotten=list(outcome.change.forgotten),
                corrected=list(outcome.change.corrected),
            )
        )
    return truth, prior, episode


def _move(name: str, target: str = "") -> dict:
    return {
        "chain_of_thought": [f"next: {name}({target})"],
        "next_move": {"function_name": name, "function_target": target},
    }


LOOKPLANGRAPH_REPLIES = [
    _move("go_to", "kitchen"),
    _move("pick_up", "orange1"),  # memory has no orange yet: refused, asked again
    _move("look_on", "kitchen_bench"),
    _move("pick_up", "orange1"),
    _move("open", "fridge"),
    _move("put_inside", "fridge"),
    _move("close", "fridge"),
    _move("done"),
]


def lookplangraph_episode(scripted_llm) -> Episode:
    """LookPlanGraph refrigerating the orange: its first pick-up refused by memory, then a look."""
    for reply in LOOKPLANGRAPH_REPLIES:
        scripted_llm.enqueue_json(reply)
    with scripted_llm.client() as llm:
        return runs.plan(
            get_planner("lookplangraph", perception="simulated:perfect"),
            "Refrigerate the orange left on the kitchen bench.",
            "office",
            llm,
        )
