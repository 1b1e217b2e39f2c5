"""PDDL export of the one world domain, of a problem (scene + state + goal), and of plans.

The domain is written from the same action schemas the simulator runs
(`world.domain`): each precondition and effect is the PDDL face of the
primitive it names (`world.rules`), defined beside the simulator's face of
the same primitive. The tests in `tests/symbolic/test_pddl_differential.py`
hold the two to the same verdicts, for every primitive of every vocabulary.

The domain is ADL (`forall`/`when`/`exists`, negative and disjunctive
conditions, equality). Derived facts the simulator computes by walking the
containment tree are fluents here, maintained by the effects (containment
changes only by picking up and putting down):
- `(below ?d ?y)`: d rests on or in y at any depth (y an asset or object);
- `(enclosed ?d ?c)`: d is below c and the link into c is `inside_of`; an
  object is accessible when no enclosing container is closed;
- `(located ?d ?r)`: d rests, at any depth, on an asset of room r;
- `(accessed ?a)`: a is the accessed asset; `(accessed AGENT)` (the agent's
  own node): none is;
- `(shut ?d)`: a closed container encloses d (kept by opening and closing).

What the simulator's action leaves implicit but its PDDL needs (the place the
agent leaves, the room it is in, the accessed asset) is a hidden parameter of
the PDDL action, bound by a precondition (`HIDDEN`): a grounder makes one
operator per value where a quantified effect would make a conditional effect
per object, and a validator reads one atom where it would walk every object.
`plan_pddl` fills them in by running the plan; `plan_from_pddl` drops them.

The problem stays linear in the building and cheap to ground: appliance
functions are unary static facts by category (`(makes_hot microwave)`,
`(takes_full mug)`), not one per appliance and object; and what an action
still quantifies over (what a carried object carries, appliance functions)
ranges over the narrowest type that can hold it. When no object takes things
(`release`), objects are only ever put on assets, so only objects nested in or
carrying objects at the start (type `nest`) can ever be below an object (with
object receptacles, every object that may be nested or carry is a `nest`);
assets are `surface` (no container, no appliance), `device` (containers) or
`F_appliance` (appliances of function F).
`export_pddl(..., scope=...)` writes the problem of a focused scope
(`symbolic.scope`): its nodes only, with a macro move between any two of its
places, as the solver itself plans.

Every face returns an expression tree (`world.pddl_expr`), never text. The
package, one module per job: `node_types` (the type hierarchy, a node's type),
`hidden` (hidden parameters), `domain` (actions from their schemas),
`simplify` (a domain and goal folded for one problem, on the trees), `goal`
(the goal language as a tree), `problem` (facts, `export_pddl`,
`focused_problem`), `focus` (the focused problem's nodes), `plans` (plans
both ways) and `write`, the one writer of PDDL text. PDDL text that comes from
outside (a user's goal, a planner's output) is read by `textinput.parse_sexp`.

>>> from sceneplan.datasets import load_environment
>>> files = export_pddl(load_environment("coffee"), "full(coffee_mug)")
>>> "(:action pickup" in files.domain and "(:goal (is_full coffee_mug))" in files.problem
True
"""

from sceneplan.symbolic.pddl.domain import (
    PREDICATES,
    check_name,
    domain_affordances,
    domain_pddl,
    domain_words,
    export_vocabulary,
    primitive_predicates,
    primitives_of,
)
from sceneplan.symbolic.pddl.goal import EXPAND_UP_TO, GoalText, translate_goal
from sceneplan.symbolic.pddl.hidden import HIDDEN, HIDDEN_BY_NAME, Hidden, hidden_terms
from sceneplan.symbolic.pddl.node_types import (
    PARAM_TYPE,
    PDDL_TYPE,
    has_receptacles,
    pddl_type,
    type_tree,
)
from sceneplan.symbolic.pddl.plans import plan_from_pddl, plan_pddl
from sceneplan.symbolic.pddl.problem import (
    FILE_NAMES,
    PDDLFiles,
    export_pddl,
    focused_problem,
    state_facts,
    static_facts,
)
from sceneplan.symbolic.pddl.simplify import SceneTypes, scene_types
from sceneplan.symbolic.pddl.write import expression

__all__ = [
    "EXPAND_UP_TO",
    "FILE_NAMES",
    "HIDDEN",
    "HIDDEN_BY_NAME",
    "PARAM_TYPE",
    "PDDL_TYPE",
    "PREDICATES",
    "GoalText",
    "Hidden",
    "PDDLFiles",
    "SceneTypes",
    "check_name",
    "domain_affordances",
    "domain_pddl",
    "domain_words",
    "export_pddl",
    "export_vocabulary",
    "expression",
    "focused_problem",
    "has_receptacles",
    "hidden_terms",
    "pddl_type",
    "plan_from_pddl",
    "plan_pddl",
    "primitive_predicates",
    "primitives_of",
    "scene_types",
    "state_facts",
    "static_facts",
    "translate_goal",
    "type_tree",
]
