"""BEHAVIOR-1K activities (BDDL problems of the `bddl` package) as scene graphs and tasks.

`import_(path)` reads one `problem0.bddl`: the scene (see `convert`), the
goal with its quantifiers written out (see `goal`), and an instruction made
from the goal by templates (see `instructions`). The task is given only when
the domain can express the whole problem now; otherwise the `gaps` of
`Imported.extra` say why not (e.g. "goal uses predicate sliced"), and a rerun after the
domain grows may include it. Fixed vs movable comes from the synset
taxonomy (`sceneObject`), which needs the `behavior` extra (`bddl`) unless a
`taxonomy` is given.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sceneplan.errors import SceneplanError
from sceneplan.graph.io import from_dict
from sceneplan.graph.model import SceneGraph
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.behavior.bddl import Problem, parse_problem
from sceneplan.importers.behavior.convert import (
    ATTACHED,
    COVERED,
    RELATIONS,
    SPREAD,
    STATES,
    Scene,
    build_scene,
    is_dirt,
    is_substance,
    node_ids,
    substance_goal,
)
from sceneplan.importers.behavior.goal import GoalTooLarge, Ground, atoms, ground_goal, render
from sceneplan.importers.behavior.instructions import instruction
from sceneplan.importers.behavior.substances import substance_gaps, substance_targets
from sceneplan.importers.behavior.taxonomy import Taxonomy, default_taxonomy
from sceneplan.importers.capabilities import (
    achievable,
    has_predicate,
    lacks_setter,
    placement_gap,
)
from sceneplan.textinput import read_text
from sceneplan.world.goals import parse_goal
from sceneplan.world.rules import APPLIANCE_FUNCTIONS
from sceneplan.world.state import EXCLUSIVE_STATES, WorldState
from sceneplan.world.task import Family, Task

__all__ = ["convert", "import_", "read_problem"]

LONG_HORIZON_ATOMS = 4  # goals with at least this many atoms count as long-horizon


def read_problem(path: str | Path) -> Problem:
    """The BDDL problem in the file `path`; BadInputError when it cannot be read or parsed."""
    path = Path(path)
    return parse_problem(read_text(path, "the BDDL problem"), str(path))


def import_(
    path: str | Path,
    *,
    taxonomy: Taxonomy | None = None,
    suite: str = "behavior",
    environment: str | None = None,
) -> Imported:
    """One BDDL problem file as a graph, and its task when the domain can express it."""
    return convert(read_problem(path), taxonomy or default_taxonomy(), suite, environment)


def convert(
    problem: Problem, taxonomy: Taxonomy, suite: str = "behavior", environment: str | None = None
) -> Imported:
    """A parsed problem as graph, task (or none) and report; the `gaps` of its `extra` list
    what the domain cannot express."""
    report = ImportReport("behavior")
    for synset in dict.fromkeys(problem.objects.values()):
        taxonomy.properties(synset)  # an unknown synset is one clear error, here
    declared = {i: s for i, s in problem.objects.items() if not i.endswith("_*")}
    things = {i: s for i, s in declared.items() if s != "agent.n.01"}
    ids = node_ids(things)

    def members(synset: str) -> list[str]:
        return [i for i, s in things.items() if taxonomy.is_a(s, synset)]

    gaps: list[str] = []
    goal: Ground | None
    try:
        goal = ground_goal(problem.goal, members, set(declared), problem.source)
    except GoalTooLarge:
        goal = None
        gaps.append("goal too large once its quantifiers are written out")
    dirt = {i for i, s in things.items() if is_dirt(s)}
    substances = {i: s for i, s in things.items() if is_substance(taxonomy.properties(s))}
    targets = _targets(goal, things, taxonomy, dirt, gaps)
    targets |= substance_targets(goal, substances) if goal else {}
    scene = build_scene(problem, taxonomy, report, targets)
    gaps += scene.gaps
    if goal is not None:
        gaps += _unpowered(goal, scene, ids)
    environment = environment or f"behavior-{problem.name}"
    graph = _graph(problem, scene, environment, report)
    tasks = []
    if goal is not None:
        goal = _readings(goal, report, lambda i: taxonomy_fixed(taxonomy, things.get(i)))
        gaps += substance_gaps(goal, substances, scene)

        def atom_text(a: Ground) -> str:
            text = substance_goal(a, substances, ids, scene.kinds)
            return _atom_text(a, scene, ids, gaps, dirt) if text in (None, "false") else text

        goal_text = render(goal, atom_text)
        gaps = list(dict.fromkeys(gaps))
        if not gaps:
            try:
                if parse_goal(goal_text, graph).holds(WorldState(graph)):
                    gaps.append("goal holds at the start")  # nothing to do: no task
            except SceneplanError as exc:
                gaps.append(f"goal does not parse: {str(exc).splitlines()[0]}")
        if not gaps:
            count = sum(1 for _ in atoms(goal))
            text = instruction(problem.name.replace("_", " "), problem.goal, ids, members)
            tasks.append(
                Task(
                    id=f"behavior-{problem.name}",
                    suite=suite,
                    family=Family.LONG_HORIZON
                    if count >= LONG_HORIZON_ATOMS
                    else Family.SIMPLE_PLANNING,
                    environment=environment,
                    instruction=text,
                    source=f"BEHAVIOR-1K, bddl activity_definitions/{problem.name}/problem0.bddl",
                    goal=goal_text,
                )
            )
    for gap in gaps:
        report.dropped(f"task: {gap}")
    return Imported(graph, report, tasks, extra={"gaps": gaps, "activity": problem.name})


def _targets(
    goal: Ground | None, things: dict[str, str], taxonomy: Taxonomy, dirt: set[str], gaps: list[str]
) -> dict[str, set[str]]:
    """The nodes the goal puts things on, in, attaches things to or under (by relation), so
    that the scene gives them the affordance; a goal that makes a thing dirty is a gap."""
    targets: dict[str, set[str]] = {"ontop_of": set(), "inside_of": set(), "attach": set()}
    targets["under"] = set()
    for atom, negated in atoms(goal) if goal else ():
        if atom[1] in RELATIONS and not negated and len(atom) == 4:
            targets[RELATIONS[atom[1]]].add(atom[3])
            if atom[1] in SPREAD and not taxonomy_fixed(taxonomy, things.get(atom[3])):
                targets["ontop_of"].add(atom[2])  # the cloth a thing is wrapped in
        if atom[1] in (ATTACHED, "under") and not negated and len(atom) == 4:
            targets["attach" if atom[1] == ATTACHED else "under"].add(atom[3])
        if _dirties(atom, dirt) and not negated:
            gaps.append("goal makes a thing dirty (no action does)")
    return targets


def _graph(problem: Problem, scene: Scene, environment: str, report: ImportReport) -> SceneGraph:
    """The scene as a graph named `environment`, its rooms joined by the hall."""
    hall, links = _hall(scene.rooms, report)
    return from_dict(
        {
            "format": "sceneplan-graph",
            "version": 1,
            "name": environment,
            "description": f"BEHAVIOR-1K activity {problem.name} (bddl problem0)",
            "nodes": [*scene.nodes, *hall],
            "links": links,
        },
        problem.source,
    )


def taxonomy_fixed(taxonomy: Taxonomy, synset: str | None) -> bool:
    """Whether the synset is fixed furniture (a `sceneObject`)."""
    return synset is not None and "sceneObject" in taxonomy.properties(synset)


def _readings(goal: Ground, report: ImportReport, fixed: Callable[[str], bool]) -> Ground:
    """The goal with the importer's readings of BDDL's spatial words applied:

    - a thing is beside itself (`nextto(x, x)`: true, as bddl's distance test makes
      it): BDDL's quantifiers range over the instance a body names (`forn (2) (?t -
      trouser) (nextto ?t trouser_1)` counts trouser_1), and the graph's `nextto` never
      holds of one node (`touching(x, x)` stays false: a body is not in contact with
      itself);
    - `nextto(x, y)` where the goal stacks y on an object z (a plate on a plate on a
      mat): x beside y or beside what y is stacked on (a stack stands where its base
      does), so a napkin on the table is beside the plates stacked on the mat there;
    - `overlaid(x, y)` / `draped(x, y)` with y an object, wanted true: x on y, or y on
      x (the thing wrapped in the cloth: one napkin wrapped round a knife and a spoon);
      wanted false, x is not on y.
    Each reading used is counted as a guess."""
    stacked = {
        a[2]: a[3]
        for a, negated in _required(goal)
        if a[1] in ("ontop", "inside") and not negated and len(a) == 4 and not fixed(a[3])
    }

    def read(g: Ground, negated: bool = False) -> Ground:
        if g[0] == "atom":
            return _reading(g, stacked, report, fixed, negated)
        if g[0] == "not":
            return ("not", read(g[1], not negated))
        return (g[0], [read(part, negated) for part in g[1]])

    return read(goal)


def _reading(
    atom: Ground,
    stacked: dict[str, str],
    report: ImportReport,
    fixed: Callable[[str], bool],
    negated: bool,
) -> Ground:
    name, args = atom[1], atom[2:]
    if name == "nextto" and len(args) == 2 and args[0] == args[1]:
        report.guessed(f"{name} of a thing with itself: true")
        return ("and", [])
    if name == "nextto" and len(args) == 2 and args[1] in stacked:
        bases: list[str] = []
        current = args[1]
        while current in stacked and stacked[current] not in (args[1], *bases):
            current = stacked[current]
            bases.append(current)
        report.guessed("nextto a stacked thing: beside it or beside what it is stacked on")
        return ("or", [atom, *(("atom", "nextto", args[0], b) for b in bases)])
    if name in SPREAD and len(args) == 2 and not fixed(args[1]) and not negated:
        report.guessed(f"{name} read as on top, either way round (a thing wrapped in cloth)")
        return ("or", [("atom", "ontop", *args), ("atom", "ontop", args[1], args[0])])
    return atom


def _hall(rooms: list[str], report: ImportReport) -> tuple[list[dict], list[list[str]]]:
    """BDDL says nothing of doors: the rooms of a problem open onto one pose, `hall`."""
    if len(rooms) < 2:
        return [], []
    report.guessed("hall pose joining the rooms (BDDL has no doors)")
    return [{"id": "hall", "kind": "pose"}], [[room, "hall"] for room in rooms]


def _unpowered(goal: Ground, scene: Scene, ids: dict[str, str]) -> list[str]:
    """Why a state the goal needs cannot come about: only appliances give (or take away)
    `hot`, `frozen`, `cooked`..., and no appliance of the scene gives it."""
    given = {w for n in scene.nodes for w in APPLIANCE_FUNCTIONS.get(n.get("category", ""), ())}
    start = {n["id"]: set(n.get("state", ())) for n in scene.nodes}
    made = {w for words in APPLIANCE_FUNCTIONS.values() for w in words}
    gaps = []
    for atom, negated in _required(goal):
        if len(atom) != 3 or ids.get(atom[2]) not in start:
            continue
        word = EXCLUSIVE_STATES.get(atom[1]) if negated else atom[1]
        holds = (atom[1] not in start[ids[atom[2]]]) if negated else word in start[ids[atom[2]]]
        if word in made and word not in given and not holds:
            need = f"not {atom[1]}" if negated else word
            gaps.append(f"goal needs {need}: no appliance of the scene gives {word}")
    return gaps


def _required(goal: Ground, negated: bool = False) -> list[tuple[Ground, bool]]:
    """The atoms every state meeting the goal has (through `and` and `not` of an atom)."""
    if goal[0] == "atom":
        return [(goal, negated)]
    if goal[0] == "not" and goal[1][0] == "atom":
        return [(goal[1], not negated)]
    if goal[0] == "and" and not negated:
        return [a for part in goal[1] for a in _required(part)]
    return []


def _dirties(atom: Ground, dirt: set[str]) -> bool:
    """`covered x dust`: x is dirty (the dirt substance is no node)."""
    return atom[1] == COVERED and len(atom) == 4 and atom[3] in dirt


def _atom_text(
    atom: Ground, scene: Scene, ids: dict[str, str], gaps: list[str], dirt: set[str]
) -> str:
    if _dirties(atom, dirt):
        atom = ("atom", "dirty", atom[2])
        if ids.get(atom[2]) in scene.kinds:
            return f"dirty({ids[atom[2]]})"  # wanting it clean: wipe sets clean, not dirty
    terms: tuple[str, ...] = atom[2:]
    name, args = atom[1], [ids.get(a, a) for a in terms]
    missing = [a for a in args if a not in scene.kinds]
    if missing:
        if not any(gap.startswith("init:") for gap in gaps):
            gaps.append("goal names an object with no place in the scene")
        return "false"
    if name in RELATIONS and len(args) == 2:
        relation = RELATIONS[name]
        subject, target = args
        if scene.kinds[subject] == "asset":
            gaps.append("goal moves fixed furniture (a sceneObject)")
        node = next(n for n in scene.nodes if n["id"] == target)
        why = placement_gap(relation, node, scene.kinds[target])
        if why is not None:
            where = "on" if relation == "ontop_of" else "in"
            gaps.append(f"goal puts things {where} {scene.kinds[target]}s: {why}")
        # BEHAVIOR's `inside` is a body's: a pizza on a plate in the fridge is inside it
        return f"{'inside' if name == 'inside' else relation}({subject}, {target})"
    if name in (ATTACHED, "touching", "under", "nextto") and len(args) == 2:
        subject, other = args
        if scene.kinds[subject] == "asset" and (
            name != "touching" or scene.kinds[other] == "asset"
        ):
            gaps.append("goal moves fixed furniture (a sceneObject)")
        return f"{name}({subject}, {other})"
    if name in STATES and len(args) == 1:
        node = next(n for n in scene.nodes if n["id"] == args[0])
        word = STATES[name][0]
        if (verb := lacks_setter(word, node.get("affordances", ()))) is not None:
            gaps.append(f"goal needs {verb} on a thing that cannot (taxonomy: not {name}able)")
        return f"{word}({args[0]})"
    if len(args) == 1:
        if not achievable(name):
            gaps.append(f"goal uses predicate {name}")
        return f"{name}({args[0]})"
    if not has_predicate(name):
        gaps.append(f"goal uses predicate {name}")
    return f"{name}({', '.join(args)})"
