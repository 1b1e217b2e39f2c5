"""ALFWorld games (`game.tw-pddl`) to scene graphs with a formal goal (docs/alfworld.md).

An ALFWorld game is JSON with the ALFRED PDDL domain, a PDDL problem (objects,
receptacles, init facts, goal) and a TextWorld grammar whose `task` rule is
the sentence ALFWorld shows ("Your task is to: put a clean apple in fridge.").
The packed form of `../shared/data/alfworld` (`{"game": {...}, "task_type": ...}`,
optionally gzipped) is read too.

Mapping:
- one room (`room`, marked `alfworld` so planners use the ALFWorld actions);
  the agent stands in it at no receptacle;
- each receptacle is an asset named as ALFWorld names it at run time
  (`Cabinet|...` -> `cabinet_1`, numbered per name in ALFWorld's order);
  openable ones can be opened and start closed (open if the problem says
  `opened`); microwaves heat, fridges cool, sinks and sink basins clean;
- each object with an `inReceptacle` fact rests on that receptacle
  (`inside_of` an openable one, else `ontop_of`); an object in several
  receptacles (a shelf inside a desk) rests on the first that does not open,
  else the first; objects with no receptacle (windows, chairs, blinds) are
  dropped, as ALFWorld cannot take them either;
- affordances from the problem's flags (pickupable, heatable, coolable,
  cleanable, sliceable, toggleable; knives `cut`), lamps start off, and each
  receptacle has a `holds_CATEGORY` attribute per object category its type can
  hold (the problem's `canContain` table, over every object type it declares);
- the goal, written over categories with quantifiers, e.g.
  `exists r in fridge: exists o in apple: (at(o, r) and clean(o))`.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError
from sceneplan.graph.io import from_dict, native_node
from sceneplan.importers.base import Imported, ImportReport
from sceneplan.importers.taxonomy import OPENS
from sceneplan.textinput import parse_json, parse_sexp, read_bytes, show_sexp
from sceneplan.world.alfworld import ALFWORLD, HOLDS, MARK
from sceneplan.world.task import Family, Task

__all__ = [
    "Game",
    "alfred_pddl",
    "alfred_plan",
    "import_",
    "read_game",
    "task_type_of",
    "validate_in_alfred",
]

ROOM = "room"
AGENT = "agent"
TASK_TYPES = (
    "pick_and_place_simple",
    "look_at_obj_in_light",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_two_obj_and_place",
)
# receptacle types whose receptacles give a held object a state (ALFRED's domain)
_TOOLS = {"microwave": "heat", "fridge": "cool", "sink": "clean", "sinkbasin": "clean"}
_KNIVES = {"knife", "butterknife"}
_FLAGS = {
    "pickupable": "pickup",
    "heatable": "heat",
    "coolable": "cool",
    "cleanable": "clean",
    "sliceable": "slice",
    "toggleable": "toggle",
}
_STATES = {"isHot": "hot", "isCool": "cold", "isClean": "clean", "isSliced": "sliced"}
_GOAL_WORDS = {"isClean": "clean", "isHot": "hot", "isCool": "cold", "isSliced": "sliced"}


@dataclass(frozen=True)
class Game:
    """The parts of a game file the importer reads."""

    problem: str
    grammar: str
    task_type: str | None = None  # given by the packed form; else read off the goal
    source: str = ""
    domain: str = ""


def read_game(path: str | Path) -> Game:
    """A `game.tw-pddl` (or the packed `.json.gz` form), or one clear message."""
    path = Path(path)
    raw = read_bytes(path)
    what = (
        f"{path}: not an ALFWorld game file (expected game.tw-pddl: JSON with "
        "'pddl_problem' and 'grammar')"
    )
    try:
        raw = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    except (OSError, EOFError, zlib.error) as exc:
        raise BadInputError(f"{path}: a damaged or truncated gzip file ({exc})") from None
    try:
        data = parse_json(raw, str(path))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadInputError(what + ": not JSON") from None
    if isinstance(data, dict) and isinstance(data.get("game"), dict):
        outer, data = data, data["game"]
    else:
        outer = {}
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), str) for k in ("pddl_problem", "grammar")
    ):
        found = ", ".join(sorted(data)) if isinstance(data, dict) else type(data).__name__
        raise BadInputError(f"{what}; found {found or 'nothing'}")
    domain = data["pddl_domain"] if isinstance(data.get("pddl_domain"), str) else ""
    return Game(data["pddl_problem"], data["grammar"], outer.get("task_type"), path.name, domain)


# -- PDDL ------------------------------------------------------------------------------


# the predicates whose facts and goal atoms the importer reads two arguments of
_BINARY = {"objectType", "receptacleType", "canContain", "inReceptacle", "receptacleAtLocation",
           "atLocation", "holds", "="}  # fmt: skip


def _sexp(text: str, source: str) -> list:
    """The problem as nested lists of tokens (`textinput.parse_sexp`), of the shape the
    importer reads: names in :objects, facts of names in :init, one :goal formula whose
    atoms are names; else one BadInputError naming the part."""
    named = f"{source}: the PDDL problem" if source else "the PDDL problem"
    problem = parse_sexp(text, named)
    if not all(isinstance(t, str) for t in _section(problem, ":objects")):
        raise BadInputError(f"{named}: :objects holds a list; write names and '- type'")
    for fact in _section(problem, ":init"):
        _check_atom(fact, named, ":init")
    goal = _section(problem, ":goal")
    if len(goal) != 1:
        raise BadInputError(f"{named}: :goal holds {len(goal)} formulas; write one")
    for atom in _atoms(goal[0], named):
        _check_atom(atom, named, ":goal")
    return problem


def _check_atom(atom: Any, named: str, where: str) -> None:
    if not (isinstance(atom, list) and len(atom) >= 2 and all(isinstance(a, str) for a in atom)):
        raise BadInputError(f"{named}: {where}: {show_sexp(atom)} is not a fact (name args...)")
    if atom[0] in _BINARY and len(atom) != 3:
        raise BadInputError(f"{named}: {where}: ({atom[0]} ...) takes two arguments")


def _section(problem: list, name: str) -> list:
    for part in problem:
        if isinstance(part, list) and part and part[0] == name:
            return part[1:]
    raise BadInputError(f"the PDDL problem has no {name} section")


def _declared(objects: list) -> dict[str, str]:
    """Object name -> PDDL type, from `a b - type` lists."""
    out: dict[str, str] = {}
    pending: list[str] = []
    items = iter(objects)
    for token in items:
        if token == "-":
            kind = next(items)
            out.update(dict.fromkeys(pending, kind))
            pending = []
        else:
            pending.append(token)
    return out


def alfworld_names(ids: list[str]) -> dict[str, str]:
    """ALFWorld's run-time names (its `Demangler`, no shuffling) as node ids.

    Ids are sorted; per name (the part before `_bar_`, plus "basin" for sink
    and bathtub basins) the numbers 1..n are handed out from the top down, so
    the first id in sorted order gets the highest number.

    >>> alfworld_names(["Cup_bar_2", "Cup_bar_1", "Sink_bar_1_bar_SinkBasin"])
    {'Cup_bar_1': 'cup_2', 'Cup_bar_2': 'cup_1', 'Sink_bar_1_bar_SinkBasin': 'sinkbasin_1'}
    """
    ordered = sorted(i for i in set(ids) if "_bar_" in i)

    def stem(node_id: str) -> str:
        name = node_id.split("_bar_", 1)[0].lower()
        return name + "basin" if "basin" in node_id.lower() else name

    left = {name: list(range(1, n + 1)) for name, n in Counter(map(stem, ordered)).items()}
    return {i: f"{stem(i)}_{left[stem(i)].pop()}" for i in ordered}


def task_type_of(goal: list) -> str:
    """The ALFWorld task type a goal has the shape of."""
    atoms = {a[0] for a in _atoms(goal)}
    objects = {a[1] for a in _atoms(goal) if a[0] == "objectType"}
    if "isToggled" in atoms:
        return "look_at_obj_in_light"
    for word, kind in (("isClean", "clean"), ("isHot", "heat"), ("isCool", "cool")):
        if word in atoms:
            return f"pick_{kind}_then_place_in_recep"
    return "pick_two_obj_and_place" if len(objects) > 1 else "pick_and_place_simple"


def _atoms(expr: Any, source: str = "the PDDL goal") -> list[list[str]]:
    """Every atom of a goal, through and/or/not/exists/forall."""
    if not isinstance(expr, list) or not expr:
        raise BadInputError(f"{source}: :goal: {show_sexp(expr)} is not a formula")
    head = expr[0]
    if head in ("and", "or"):
        return [a for part in expr[1:] for a in _atoms(part, source)]
    if head == "not" and len(expr) == 2:
        return _atoms(expr[1], source)
    if head in ("exists", "forall") and len(expr) == 3:
        return _atoms(expr[2], source)
    if head in ("not", "exists", "forall"):
        raise BadInputError(f"{source}: :goal: ({head} ...) has {len(expr) - 1} parts")
    return [expr]


# -- the graph -------------------------------------------------------------------------


def build(game: Game, name: str, report: ImportReport) -> tuple[dict[str, Any], str, str]:
    """The native graph dict, the goal text and the instruction of a game."""
    problem = _sexp(game.problem, game.source)
    facts = _facts(problem, game.source)
    nodes = [native_node(id=ROOM, kind="room", attributes=[MARK])]
    nodes.append(native_node(id=AGENT, kind="agent", parent=ROOM))
    nodes += _receptacle_nodes(facts)
    report.mapped("receptacle", len(facts.receptacles))
    nodes += _object_nodes(facts, report)
    graph = {"format": "sceneplan-graph", "version": 1, "name": name, "nodes": nodes, "links": []}
    goal = _goal(_section(problem, ":goal")[0], {n["id"] for n in nodes}, game.source)
    return graph, goal, _instruction(game)


@dataclass(frozen=True)
class _Facts:
    """What a game's PDDL problem says about its receptacles and objects."""

    names: dict[str, str]  # PDDL object -> node id (`alfworld_names`)
    types: dict[str, str]  # receptacle or object -> its PDDL type
    receptacles: list[str]
    objects: list[str]  # the movable ones (ALFWorld's `_bar_` ids)
    flags: dict[str, set[str]]  # object -> its one-argument facts (`openable`, `isHot`...)
    can_contain: set[tuple[str, str]]  # (receptacle type, object type)
    inside: dict[str, list[str]]  # object -> the receptacles it is in
    openable: set[str]  # the receptacles that open


def _facts(problem: list, source: str) -> _Facts:
    """The problem's objects and :init facts, checked: every receptacle has a type."""
    declared = _declared(_section(problem, ":objects"))
    facts = [f for f in _section(problem, ":init") if isinstance(f, list) and f]
    names = alfworld_names([a for f in facts for a in f[1:]])
    types = {f[1]: f[2] for f in facts if f[0] in ("objectType", "receptacleType")}
    receptacles = [i for i, t in declared.items() if t == "receptacle"]
    objects = [i for i, t in declared.items() if t == "object" and "_bar_" in i]
    flags: dict[str, set[str]] = {}
    for f in facts:
        if len(f) == 2:
            flags.setdefault(f[1], set()).add(f[0])
    can_contain = {(f[1], f[2]) for f in facts if f[0] == "canContain"}
    inside: dict[str, list[str]] = {}
    for f in facts:
        if f[0] == "inReceptacle":
            if f[2] not in receptacles:
                raise BadInputError(
                    f"{source}: the fact (inReceptacle {f[1]} {f[2]}) names receptacle "
                    f"'{f[2]}', which the problem does not declare as a receptacle"
                )
            inside.setdefault(f[1], []).append(f[2])
    for r in receptacles:
        if r not in types or r not in names:
            raise BadInputError(f"{source}: receptacle '{r}' has no receptacleType")
    openable = {r for r in receptacles if "openable" in flags.get(r, ())}
    return _Facts(names, types, receptacles, objects, flags, can_contain, inside, openable)


def _receptacle_nodes(facts: _Facts) -> list[dict[str, Any]]:
    """An asset per receptacle, in the room, by id: what it affords, its state, what it holds."""
    nodes = []
    for r in sorted(facts.receptacles, key=lambda i: facts.names[i]):
        affordances = ["release"]
        if r in facts.openable:
            affordances += OPENS
        tool = _TOOLS.get(_category(facts.types[r]))
        if tool:
            affordances.append(tool)
        opened = "opened" in facts.flags.get(r, ())
        state = (["open"] if opened else ["closed"]) if r in facts.openable else []
        kind = facts.types[r]
        holds = sorted({HOLDS + _category(ot) for rt, ot in facts.can_contain if rt == kind})
        nodes.append(
            native_node(
                id=facts.names[r],
                kind="asset",
                parent=ROOM,
                affordances=affordances,
                state=state,
                attributes=holds,
            )
        )
    return nodes


def _object_nodes(facts: _Facts, report: ImportReport) -> list[dict[str, Any]]:
    """An object per movable object, on (or in, if it opens) a receptacle it is in."""
    nodes = []
    for o in sorted(facts.objects, key=lambda i: facts.names.get(i, i)):
        holders = facts.inside.get(o)
        if not holders:
            report.dropped("object in no receptacle (a fixture ALFWorld cannot take)")
            continue
        parent = next((r for r in holders if r not in facts.openable), holders[0])
        if len(holders) > 1:
            report.guessed("object in several receptacles: rests on one")
        own = facts.flags.get(o, set())
        affordances = [a for flag, a in _FLAGS.items() if flag in own]
        if facts.names[o].rsplit("_", 1)[0] in _KNIVES:  # its category
            affordances.append("cut")
        state = [word for flag, word in _STATES.items() if flag in own]
        if "toggleable" in own:
            state.append("on" if "isOn" in own else "off")
        nodes.append(
            native_node(
                id=facts.names[o],
                kind="object",
                parent=facts.names[parent],
                relation="inside_of" if parent in facts.openable else "ontop_of",
                affordances=affordances,
                state=state,
            )
        )
        report.mapped("object")
    return nodes


def _category(pddl_type: str) -> str:
    """`CounterTopType` -> `countertop`: the category of ALFWorld's name for the type."""
    return pddl_type.removesuffix("Type").lower()


def _instruction(game: Game) -> str:
    match = re.search(r'"task"\s*:\s*\[\s*\{\s*"rhs"\s*:\s*"([^"]*)"', game.grammar)
    if match is None:
        raise BadInputError(f"{game.source}: the grammar has no 'task' sentence")
    return match.group(1).removeprefix("Your task is to: ").strip()


# -- the goal --------------------------------------------------------------------------


def _goal(goal: list, node_ids: set[str], source: str) -> str:
    """The PDDL goal in sceneplan's goal language, over the scene's categories."""
    atoms = _atoms(goal)
    typed = {a[1]: a[2] for a in atoms if a[0] in ("objectType", "receptacleType")}
    categories = {i.rsplit("_", 1)[0] for i in node_ids}
    names: dict[str, str] = {}
    quantifiers = []
    for variable, pddl_type in typed.items():
        cat = _category(pddl_type)
        if cat not in categories:
            raise BadInputError(
                f"{source}: the goal names the type {pddl_type}, but the scene has no {cat}"
            )
        names[variable] = re.sub(r"\W", "", variable) or "x"
        quantifiers.append(f"exists {names[variable]} in {cat}: ")
    located = {a[1]: a[2] for a in atoms if a[0] == "receptacleAtLocation"}
    agent_at = {a[2] for a in atoms if a[0] == "atLocation"}
    body = []

    def var(v: str) -> str:
        if v not in names:
            raise BadInputError(
                f"{source}: the goal's variable {v} has no objectType or receptacleType"
            )
        return names[v]

    for atom in atoms:
        head, args = atom[0], atom[1:]
        if head in ("objectType", "receptacleType", "receptacleAtLocation", "atLocation"):
            continue
        if head in _FLAGS:
            continue  # static; the action that gives the state needs the same affordance
        if head == "inReceptacle" and args[1] in names:
            body.append(f"at({var(args[0])}, {var(args[1])})")
        elif head == "inReceptacle" and located.get(args[1]) in agent_at:
            body.append(f"agent_near({var(args[0])})")
        elif head in _GOAL_WORDS:
            body.append(f"{_GOAL_WORDS[head]}({var(args[0])})")
        elif head == "isToggled":
            body.append(f"on({var(args[0])})")
        elif head == "holds":
            body.append(f"held({var(args[1])})")
        elif head == "=":
            body.append(f"not is({var(args[0])}, {var(args[1])})")
        else:
            raise BadInputError(f"{source}: the goal's ({' '.join(atom)}) has no translation")
    return "".join(quantifiers) + "(" + " and ".join(body) + ")"


def import_(path: str | Path, *, name: str | None = None) -> Imported:
    """An ALFWorld game as a scene graph with one task (its goal and instruction)."""
    path = Path(path)
    game = read_game(path)
    report = ImportReport("alfworld")
    stem = name or re.sub(r"[^a-z0-9_]+", "_", path.name.split(".")[0].lower()).strip("_")
    data, goal, instruction = build(game, stem or "alfworld", report)
    graph = from_dict(data, str(path))
    task = Task(
        id=stem or "alfworld",
        suite="alfworld",
        family=Family.SIMPLE_PLANNING,
        environment=graph.name,
        instruction=instruction,
        goal=goal,
        source=f"ALFWorld game {path.name}",
        note=game.task_type or task_type_of(_section(_sexp(game.problem, game.source), ":goal")[0]),
    )
    return Imported(graph, report, [task])


# -- back to ALFRED: plans in the original domain (the cross-check of docs/alfworld.md) ----

# Type names ALFRED's domain uses as constants, declared by its problems as objects.
_CONSTANTS = {
    "SinkType": "rtype",
    "SinkBasinType": "rtype",
    "MicrowaveType": "rtype",
    "FridgeType": "rtype",
    "KnifeType": "otype",
    "ButterKnifeType": "otype",
}
# Actions a validator cannot type-check (they set `checked` of a location or an agent)
# and plans never need.
_UNCHECKED = ("look", "inventory", "examineReceptacle", "examineObject")


def alfred_pddl(game: Game) -> tuple[str, str]:
    """The game's own domain and problem, made readable by strict validators:
    comments, action costs and the four `checked`-only actions dropped, the type
    names the domain mentions declared as its constants (and not again in the problem)."""
    domain = re.sub(r";[^\n]*", "", game.domain)
    for name in _UNCHECKED:
        domain = _drop_block(domain, r"\(:action\s+" + name + r"\b")
    # action costs are not part of validity: drop them and the numeric functions
    domain = re.sub(r"\(increase \(total-cost\)[^()]*\)", "", domain)
    domain = _drop_block(domain, r"\(:functions\b").replace(":action-costs", "")
    problem = game.problem
    declared = _declared(_section(_sexp(problem, game.source), ":objects"))
    constants = []
    for name, kind in _CONSTANTS.items():
        if declared.get(name, kind) != kind:  # e.g. SinkType, an otype in some problems:
            domain = re.sub(rf"\b{name}\b", f"{name}_{kind}", domain)  # no fact names it
            constants.append(f"{name}_{kind} - {kind}")
            continue
        problem = re.sub(rf"^\s*{name}\s+-\s+\w+\s*$", "", problem, flags=re.M)
        constants.append(f"{name} - {kind}")
    header = f"(:constants {' '.join(constants)})\n (:predicates"
    domain = domain.replace("(:predicates", header, 1)
    # objects in no fact (the problems declare one per type, e.g. `Apple - object`) cannot
    # satisfy any goal literal: leaving them out keeps the validator's quantifiers small
    facts = _section(_sexp(problem, game.source), ":init")
    used = {a for f in facts if isinstance(f, list) for a in f[1:]}
    for name, kind in declared.items():
        if kind == "object" and name not in used:
            problem = re.sub(rf"^\s*{name}\s+-\s+object\s*$", "", problem, flags=re.M)
    return domain, problem


def _drop_block(text: str, start: str) -> str:
    """`text` without the parenthesised block that begins where `start` matches."""
    match = re.search(start, text)
    if match is None:
        return text
    depth, end = 0, match.start()
    for end in range(match.start(), len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            break
    return text[: match.start()] + text[end + 1 :]


# ALFRED's action for an ALFWorld action that sets a state word, and which of its arguments
# ALFRED's takes in which order (the receptacle that heats, cools or cleans comes first)
_ALFRED_STATES = {
    "open": ("OpenObject", (0,)),
    "closed": ("CloseObject", (0,)),
    "hot": ("HeatObject", (1, 0)),
    "cold": ("CoolObject", (1, 0)),
    "clean": ("CleanObject", (1, 0)),
    "sliced": ("SliceObject", (0, 1)),
}


def alfred_plan(game: Game, plan: list[str]) -> list[str]:
    """A plan of the ALFWorld vocabulary as ALFRED actions (PDDL plan lines, lower case):
    `go_to(r)` is GotoLocation to r's location, `put(o, r)` is PutObject with both types,
    `toggle(x)` is ToggleObject with the receptacle x is in, and so on: read from each
    action's effect, not its name."""
    from sceneplan.world.actions import parse_plan

    problem = _sexp(game.problem, game.source)
    facts = [f for f in _section(problem, ":init") if isinstance(f, list) and f]
    original = {v: k for k, v in alfworld_names([a for f in facts for a in f[1:]]).items()}
    types = {f[1]: f[2] for f in facts if f[0] in ("objectType", "receptacleType")}
    location = {f[1]: f[2] for f in facts if f[0] == "receptacleAtLocation"}
    agent, here = next((f[1], f[2]) for f in facts if f[0] == "atLocation")
    parent: dict[str, str] = {}
    for f in facts:
        if f[0] == "inReceptacle":
            parent.setdefault(f[1], f[2])
    schemas = ALFWORLD.actions
    out = []
    for action in parse_plan(plan):
        schema = schemas[action.name]
        if schema.ends_plan:
            break
        a = [original[x] for x in action.args]
        effect = schema.effects[0]  # what the action does, as ALFRED's actions tell it
        if effect.op == "set_accessed":  # going to a receptacle
            step: tuple[Any, ...] = ("GotoLocation", agent, here, location[a[0]], a[0])
            here = location[a[0]]
        elif effect.op == "grab":
            step = ("PickupObject", agent, here, a[0], a[1])
            parent.pop(a[0], None)
        elif effect.op == "place_at_accessed":
            step = ("PutObject", agent, here, a[0], a[1], types[a[0]], types[a[1]])
            parent[a[0]] = a[1]
        elif effect.op == "alfworld_switch":
            step = ("ToggleObject", agent, here, a[0], parent[a[0]])
        elif effect.op == "set_state" and effect.args[-1] in _ALFRED_STATES:
            verb, order = _ALFRED_STATES[effect.args[-1]]
            step = (verb, agent, here, *(a[i] for i in order))
        else:
            continue  # examine changes nothing
        out.append("(" + " ".join(step).lower() + ")")
    return out


def validate_in_alfred(game: Game, plan: list[str]) -> tuple[bool, str]:
    """Whether the plan, as ALFRED actions, is valid and reaches the game's own PDDL goal,
    checked by unified-planning on the original domain and problem; and why not."""
    try:
        from unified_planning.engines.plan_validator import SequentialPlanValidator
        from unified_planning.engines.results import ValidationResultStatus
        from unified_planning.io import PDDLReader
        from unified_planning.shortcuts import get_environment
    except ImportError:
        raise BackendUnavailableError(
            "checking plans in ALFRED's domain needs unified-planning: pip install unified-planning"
        ) from None
    get_environment().credits_stream = None
    domain, problem_text = alfred_pddl(game)
    reader = PDDLReader()
    problem = reader.parse_problem_string(domain, problem_text)
    steps = alfred_plan(game, plan)
    up_plan = reader.parse_plan_string(problem, "\n".join(steps) + "\n")
    result = SequentialPlanValidator().validate(problem, up_plan)
    ok = result.status is ValidationResultStatus.VALID
    return ok, "valid" if ok else f"{result.reason}: {result.inapplicable_action or ''}"
