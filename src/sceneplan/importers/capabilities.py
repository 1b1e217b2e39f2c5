"""What the world domain can do right now, asked of the domain itself.

Importers include a task only when the domain can express its goal and its
start; what they cannot express is counted by reason. The answers come from
the domain at run time (its goal predicates, the state words its actions and
appliances give, and tiny plans run through the simulator), never from a
list written here, so a build rerun after the domain grows includes more.

>>> can_place("ontop_of", "asset", ("release",))
>>> achievable("open"), achievable("glittering")
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from sceneplan.graph.io import from_dict
from sceneplan.world.actions import Action
from sceneplan.world.goals import parse_goal, state_words
from sceneplan.world.predicates import PREDICATES
from sceneplan.world.primitives import RobotSkill
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import LOOKPLANGRAPH

__all__ = ["achievable", "can_place", "has_predicate", "lacks_setter", "placement_gap"]

# The vocabulary of the importers' tasks (their reference plans) and of the probes here.
VOCABULARY = LOOKPLANGRAPH


def has_predicate(name: str) -> bool:
    """Whether the goal language has a predicate of that name (`nextto`, `ontop_of`)."""
    return name in PREDICATES


@cache
def achievable(word: str) -> bool:
    """Whether some action or appliance of the domain can make a node `word`."""
    return word in _achievable_words()


@cache
def _achievable_words() -> frozenset[str]:
    empty = from_dict({"format": "sceneplan-graph", "version": 1, "nodes": []})
    return frozenset(state_words(empty))


@cache
def can_place(
    relation: str, target_kind: str, affordances: tuple[str, ...], state: tuple[str, ...] = ()
) -> str | None:
    """None when an object can be put `relation` (ontop_of / inside_of) a node like this one,
    else why not (the simulator's feedback).

    The target is an asset of the room, or an object on a table there, with
    these affordances and state; the plan picks a cup up and puts it there
    (opening the target first when it is closed), in the LookPlanGraph
    vocabulary, and must end with the relation holding.
    """
    if target_kind not in ("asset", "object"):
        return f"things are put on assets or objects, not on {target_kind}s"
    nodes = [
        {"id": "room", "kind": "room"},
        {"id": "table", "kind": "asset", "parent": "room", "affordances": ["release"]},
        {
            "id": "cup",
            "kind": "object",
            "parent": "table",
            "relation": "ontop_of",
            "affordances": ["pickup"],
        },
        {"id": "agent", "kind": "agent", "parent": "room"},
    ]
    target = {
        "id": "target",
        "kind": target_kind,
        "affordances": list(affordances),
        "state": list(state),
    }
    if target_kind == "asset":
        target["parent"] = "room"
    else:
        target.update(parent="table", relation="ontop_of")
    nodes.insert(3, target)
    graph = from_dict({"format": "sceneplan-graph", "version": 1, "nodes": nodes}, "<probe>")
    skills = [
        _skill("pick", object="cup"),
        _skill("place", object="cup", asset="target", relation=relation),
    ]
    if "closed" in state and "open" in affordances:
        skills.insert(0, _skill("open", target="target"))
    simulator = Simulator(graph, VOCABULARY)
    plan = _actions(simulator, skills)
    if isinstance(plan, str):
        return plan
    verb = plan[-1].name
    try:
        run = simulator.verify_plan(plan)
    except Exception as exc:  # the domain refuses the plan's very form
        return f"{verb} on {target_kind}s: {exc}"
    if not run.ok:
        return run.failure.reason if run.failure else "refused"
    if not parse_goal(f"{relation}(cup, target)", graph).holds(run.final_state):
        return f"{verb}(target) does not leave the cup {relation} it"
    return None


def placement_gap(relation: str, node: dict, kind: str) -> str | None:
    """`can_place` for a node as an importer writes it (a dict with its affordances and
    state), of kind `kind`: None, or why nothing can be put `relation` it."""
    affordances, state = tuple(node.get("affordances", ())), tuple(node.get("state", ()))
    return can_place(relation, kind, affordances, state)


def lacks_setter(word: str, affordances: Collection[str]) -> str | None:
    """The action that makes a node `word`, when every action of the vocabulary that does
    needs an affordance the node lacks (`open` of a box that cannot open); else None."""
    found = VOCABULARY.givers(word)
    if not found or any(g.target.affordance in (None, *affordances) for g in found):
        return None
    return found[0].action


def _skill(name: str, **args: str) -> RobotSkill:
    """A robot skill (`execute.skills`) over these named arguments."""
    return RobotSkill(name, tuple(args.items()))


def _actions(simulator: Simulator, skills: list[RobotSkill]) -> list[Action] | str:
    """The actions of the simulator's vocabulary that carry out these robot skills one after
    the other (`Simulator.action_for`), or why there is none for one of them."""
    state, actions = simulator.initial_state(), []
    for skill in skills:
        action = simulator.action_for(state, skill)
        if action is None:
            return f"no action of {simulator.vocabulary} does the robot's {skill.skill}"
        simulator.apply(state, action)
        actions.append(action)
    return actions
