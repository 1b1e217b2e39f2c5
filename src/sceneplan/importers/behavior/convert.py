"""One BDDL problem as a scene graph: rooms, fixed assets, movable objects, states.

- Rooms come from `inroom` facts (the room type is the room's id).
- Fixed vs movable comes from the synset taxonomy: a `sceneObject` synset is
  an asset (fixed furniture stays fixed even when BDDL writes it `ontop` of
  the floor); anything else is an object.
- An object's parent comes from `ontop` / `inside`, and from `overlaid` /
  `draped` (cloth over a thing), read as ontop: the graph has no geometry
  (guessed, counted); an object with only an `inroom` fact goes on a
  room-floor asset (`floor_<room>`, guessed). What rests on a thing with no
  place has none either.
- States: `open` (else closed, for openable things), `toggled_on` (else off,
  for toggleable things), `folded` (else unfolded, for cloth); any other
  one-place predicate becomes a state word.
- Affordances: objects `pickup`; `open`/`close` when openable, `turn_on`/
  `turn_off` when toggleable, `fold`/`unfold` for cloth; `receptacle` for
  fillable things without a lid and for whatever the task puts things
  inside; `release` on every asset and on every object the task puts things
  on or in.
- Heat and cold sources (taxonomy `heatSource` / `coldSource`, with their
  parameters): one that needs no switching on (`requires_toggled_on` 0:
  `electric_refrigerator`) is always running, state `on`; one that acts on
  what is inside it (`requires_inside` 1) and has no lid (a toaster) holds
  things: `receptacle` and `release`. What each category does to what it
  holds is the domain's appliance table (`world.rules.APPLIANCE_FUNCTIONS`).
- Dirt: BEHAVIOR writes it as a substance covering a thing (`covered
  table.n.02_1 dust.n.01_1`). A dirt substance (`DIRT`: dust, stains, mud,
  ...) is no node; the thing it covers is `dirty` and can be wiped clean
  (affordance `wipe`), and a goal `not covered(x, dust)` is `clean(x)`. BEHAVIOR
  asks for a tool (a rag, soaked); the domain's wipe needs none.
- Other substances (water, soap, salt) are no node either: `filled`, `contains`,
  `covered`, `saturated` and `insource` with a substance are the state words of
  `world.substances` on the thing (`filled_water`), and the goal predicates
  `filled(x, water)`...; fillable things take `fill` (and objects `pour`),
  sources `source` and `pour`, particle removers (rags, brushes) `wiper` and
  `soak`, cloth `soak` (see `substance_affordances`).
- Wildcard instances (`cabinet.n.01_*`: "and any further ones in the scene")
  are dropped: the graph holds the named instances.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sceneplan.graph.io import native_node
from sceneplan.importers.base import ImportReport
from sceneplan.importers.behavior.bddl import Problem
from sceneplan.importers.behavior.taxonomy import Taxonomy
from sceneplan.importers.taxonomy import OPENS, SWITCHABLE
from sceneplan.world.substances import INSOURCE, substance_word
from sceneplan.world.substances import RELATIONS as RELATIONS_OF_SUBSTANCES

__all__ = [
    "ATTACHED",
    "COVERED",
    "DIRT",
    "SUBSTANCE_PREDICATES",
    "Scene",
    "build_scene",
    "is_dirt",
    "is_substance",
    "lemma",
    "node_ids",
    "substance_affordances",
    "substance_goal",
    "substance_state",
]

SOURCES = ("heatSource", "coldSource")  # taxonomy properties of things that heat or cool
RELATIONS = {
    "ontop": "ontop_of",
    "inside": "inside_of",
    # cloth over a thing (a tablecloth, a cover on a car, a sheet on a line): the graph has
    # no geometry, and what lies over a thing rests on it
    "overlaid": "ontop_of",
    "draped": "ontop_of",
}
SPREAD = frozenset({"overlaid", "draped"})
# BDDL state predicates and the sceneplan words for true / false
STATES = {"open": ("open", "closed"), "toggled_on": ("on", "off")}
AGENT_SYNSET = "agent.n.01"
# substances that make what they cover dirty (read as the state word `dirty`)
DIRT = frozenset(
    {
        "stain.n.01",
        "dust.n.01",
        "dirt.n.02",
        "mud.n.03",
        "mold.n.05",
        "mildew.n.02",
        "lint.n.01",
        "debris.n.01",
        "crumb.n.03",
        "breadcrumb.n.01",
        "sand.n.04",
        "grease.n.01",
        "tarnish.n.02",
        "rust.n.01",
        "fecal_matter.n.01",
        "adhesive_material.n.01",
    }
)
COVERED = "covered"
ATTACHED = "attached"  # hangs on / fastened to: on a node that affords attach
FUTURE = "future"  # a thing made during the task (no place at the start)
# taxonomy properties of food: a food with no place goes on a countertop or table
FOOD_PROPERTIES = frozenset({"cookable", "meltable", "freezable"})


def is_dirt(synset: str) -> bool:
    """Whether a substance of this synset is dirt (`covered x dust` means x is dirty)."""
    return synset in DIRT


def lemma(synset: str) -> str:
    """`carton__of__milk.n.01` -> `carton_of_milk`."""
    word = synset.split(".")[0]
    return re.sub(r"_+", "_", word).strip("_")


def node_ids(objects: dict[str, str]) -> dict[str, str]:
    """Instance -> node id: `apple.n.01_2` -> `apple_2`; lemmas shared by two synsets get the
    sense (`bow_n08_1`)."""
    senses: dict[str, set[str]] = {}
    for synset in objects.values():
        senses.setdefault(lemma(synset), set()).add(synset)
    out = {}
    for instance, synset in objects.items():
        stem = lemma(synset)
        if len(senses[stem]) > 1:
            stem += "_" + "".join(synset.split(".")[1:])
        index = instance.rsplit("_", 1)[-1] if "_" in instance else "1"
        out[instance] = f"{stem}_{index}"
    return out


@dataclass
class Scene:
    """The graph of one problem as native-format data, and what the goal needs to know."""

    nodes: list[dict[str, Any]]
    ids: dict[str, str]  # BDDL instance -> node id (wildcards and the agent left out)
    kinds: dict[str, str]  # node id -> asset | object
    synsets: dict[str, str]  # node id -> synset
    rooms: list[str]
    gaps: list[str] = field(default_factory=list)  # why the start is not expressible


@dataclass
class _Init:
    """What `:init` says of the declared things: rooms, parents, state words, gaps."""

    rooms: dict[str, str] = field(default_factory=dict)  # instance -> room
    parents: dict[str, tuple[str, str]] = field(default_factory=dict)  # -> (parent, relation)
    states: dict[str, list[str]] = field(default_factory=dict)
    hooks: set[str] = field(default_factory=set)  # what things are attached to at the start
    gaps: list[str] = field(default_factory=list)


def build_scene(
    problem: Problem, taxonomy: Taxonomy, report: ImportReport, targets: dict[str, set[str]]
) -> Scene:
    """The scene of `problem`; `targets` maps ontop_of / inside_of to the instances the goal
    puts things on or in (they get `release`, and `receptacle` for inside), `attach` to
    those it attaches things to, `under` to those it puts things under (their room gets
    a floor)."""
    objects, agent = _declared(problem, report)
    ids = node_ids(objects)
    props = {i: taxonomy.properties(s) for i, s in objects.items()}
    fixed = {i for i in objects if "sceneObject" in props[i]}
    init = _read_init(problem, objects, props, agent, fixed, report)
    rooms, parents = init.rooms, init.parents
    # rooms of fixed things written with ontop of another fixed thing
    for instance in sorted(fixed - set(rooms)):
        room = _room_through(instance, parents, rooms)
        if room is not None:
            rooms[instance] = room
    room_list = list(dict.fromkeys(rooms.values()))
    if not room_list:
        init.gaps.append("no room: no inroom fact")
        room_list = ["room"]
    _place_unplaced(objects, props, fixed, init, room_list, report)
    placed = _placed(objects, fixed, rooms, parents)
    nodes: list[dict[str, Any]] = [native_node(id=r, kind="room") for r in room_list]
    report.mapped("room", len(room_list))
    floors: dict[str, str] = {}
    kinds: dict[str, str] = {}
    hooks = init.hooks | targets.get("attach", set())
    for instance, synset in objects.items():
        where = _where(instance, synset, props[instance], fixed, placed, init, room_list, report)
        if where is None:
            continue
        kind, parent, relation = where
        if parent.startswith(_FLOOR_OF):
            room = parent[len(_FLOOR_OF) :]
            parent = floors.setdefault(room, f"floor_{room}")
        elif kind == "object":
            parent = ids[parent]
        kinds[ids[instance]] = kind
        nodes.append(
            _node(
                ids[instance],
                kind,
                parent,
                relation,
                synset,
                props[instance],
                taxonomy,
                init.states[instance],
                instance in hooks,
                instance,
                targets,
                report,
            )
        )
    for instance in targets.get("under", set()):
        room = rooms.get(instance) or _room_through(instance, parents, rooms)
        if room is not None and instance in objects and not _has_floor(room, objects, rooms):
            floors.setdefault(room, f"floor_{room}")
    for room, floor in floors.items():
        nodes.append(
            native_node(
                id=floor, kind="asset", parent=room, category="floor", affordances=["release"]
            )
        )
    agent_room = room_list[0]
    if agent is not None and agent in parents:
        agent_room = _room_through(agent, parents, rooms) or agent_room
    nodes.append(native_node(id="agent", kind="agent", parent=agent_room))
    return Scene(nodes, ids, kinds, {ids[i]: s for i, s in objects.items()}, room_list, init.gaps)


_FLOOR_OF = "floor of:"  # a parent to be: the floor node of a room


def _has_floor(room: str, objects: dict[str, str], rooms: dict[str, str]) -> bool:
    return any(lemma(s) == "floor" and rooms.get(i) == room for i, s in objects.items())


def _declared(problem: Problem, report: ImportReport) -> tuple[dict[str, str], str | None]:
    """The declared things (instance -> synset) but wildcards and the agent; the agent."""
    objects, agent = {}, None
    for instance, synset in problem.objects.items():
        if instance.endswith("_*"):
            report.dropped("wildcard instance (_*): any further ones of its kind")
            continue
        if synset == AGENT_SYNSET:
            agent = instance
            continue
        objects[instance] = synset
    return objects, agent


def _read_init(
    problem: Problem,
    objects: dict[str, str],
    props: dict[str, frozenset[str]],
    agent: str | None,
    fixed: set[str],
    report: ImportReport,
) -> _Init:
    init = _Init(states={i: [] for i in objects})
    for fact in problem.init:
        name, args = fact[0], fact[1:]
        if any(a.endswith("_*") for a in args):
            continue  # about a wildcard instance: dropped with it
        named = args[:1] if name == "inroom" else args
        if [a for a in named if a not in objects and a != agent]:
            init.gaps.append("init names an undeclared object")
            continue
        _read_fact(name, args, objects, props, agent, fixed, init, report)
    for fact in problem.negated_init:
        name, args = fact[0], fact[1:]
        if (
            (len(args) == 1 and args[0] in init.states)
            or name in RELATIONS
            or name in (ATTACHED, "inroom", "touching", "under")
            or (name == COVERED and len(args) == 2 and is_dirt(objects.get(args[1], "")))
            or substance_state(fact, objects, props) is not None
        ):
            report.mapped(f"not {name}")
        else:
            init.gaps.append(f"init uses predicate {name}")
    return init


def _read_fact(
    name: str,
    args: tuple[str, ...],
    objects: dict[str, str],
    props: dict[str, frozenset[str]],
    agent: str | None,
    fixed: set[str],
    init: _Init,
    report: ImportReport,
) -> None:
    """One `:init` fact into `init`."""
    if name == COVERED and len(args) == 2 and is_dirt(objects[args[1]]):
        init.states[args[0]].append("dirty")
        report.mapped("covered with dirt: dirty")
    elif name == "inroom" and len(args) == 2:
        if args[0] != agent:
            init.rooms[args[0]] = _room_id(args[1])
        report.mapped("inroom")
    elif (name in RELATIONS or name in (ATTACHED, "under")) and len(args) == 2:
        subject, target = args
        relation = RELATIONS.get(name, "ontop_of" if name == ATTACHED else "under")
        if subject == agent:
            init.parents.setdefault(subject, (target, relation))
            return
        if subject in fixed:
            report.guessed(f"{name} of fixed furniture (sceneObject): kept fixed in its room")
            init.parents.setdefault(subject, (target, "room_of"))
            return
        if subject in init.parents:
            report.dropped(f"{name}: a second parent of one object")
            return
        init.parents[subject] = (target, relation)
        if name == ATTACHED:
            init.hooks.add(target)
            report.mapped("attached: on a node that affords attach")
        elif name == "under":
            report.guessed("under read as on the floor of the room of what it is under")
        elif name in SPREAD:
            report.guessed(f"{name} read as ontop (the graph has no geometry)")
        else:
            report.mapped(name)
    elif name == FUTURE and len(args) == 1:
        report.mapped("future: the thing made during the task is placed by its category")
    elif (word := substance_state((name, *args), objects, props)) is not None:
        init.states[args[0]].append(word)
        report.mapped(f"{name} (a substance): state word {name}_SUBSTANCE")
    elif name in STATES and len(args) == 1:
        init.states[args[0]].append(STATES[name][0])
        report.mapped(name)
    elif len(args) == 1:
        init.states[args[0]].append(name)
        report.mapped(f"state {name}")
    else:
        init.gaps.append(f"init uses predicate {name}")


def _place_unplaced(
    objects: dict[str, str],
    props: dict[str, frozenset[str]],
    fixed: set[str],
    init: _Init,
    room_list: list[str],
    report: ImportReport,
) -> None:
    """An object BDDL gives no place (one made during the task, `future`; one only
    covered or filled) gets one by rule from its category (`PLACE_BY_CATEGORY`): food on
    a countertop or table of the scene, anything else on the floor of the first room."""
    for instance, synset in objects.items():
        if instance in fixed or instance in init.rooms or instance in init.parents:
            continue
        if is_dirt(synset) or is_substance(props[instance]):
            continue
        food = bool(FOOD_PROPERTIES & props[instance])
        surface = _food_surface(objects, fixed) if food else None
        if surface is not None:
            init.parents[instance] = (surface, "ontop_of")
            report.guessed(f"object with no place: food on the {lemma(objects[surface])}")
        else:
            init.rooms[instance] = room_list[0]
            report.guessed("object with no place: on the floor of the first room")


def _food_surface(objects: dict[str, str], fixed: set[str]) -> str | None:
    """Where food with no place goes: the first countertop, else the first table."""
    for stems in (("countertop",), ("table", "breakfast_table", "kitchen_table")):
        for instance in objects:
            if instance in fixed and lemma(objects[instance]) in stems:
                return instance
    return None


def _where(
    instance: str,
    synset: str,
    props: frozenset[str],
    fixed: set[str],
    placed: set[str],
    init: _Init,
    room_list: list[str],
    report: ImportReport,
) -> tuple[str, str, str | None] | None:
    """(kind, parent, relation) of a thing's node, or None for a thing with no node (a
    substance, what rests on a thing with no place). A parent `floor of:ROOM` is the
    room's floor node."""
    if instance in fixed:
        parent = init.rooms.get(instance)
        if parent is None:
            init.gaps.append("init: fixed furniture in no room")
            parent = room_list[0]
        report.mapped("asset (sceneObject)")
        return "asset", parent, None
    parents, rooms = init.parents, init.rooms
    if instance in parents and parents[instance][0] in placed:
        target, relation = parents[instance]
        if relation == "under":
            room = rooms.get(target) or _room_through(target, parents, rooms) or room_list[0]
            return "object", _FLOOR_OF + room, "ontop_of"
        report.mapped("object")
        return "object", target, relation
    if instance in rooms:
        report.guessed("object with only a room: on a room-floor asset")
        return "object", _FLOOR_OF + rooms[instance], "ontop_of"
    if is_dirt(synset):
        report.mapped("dirt substance: the state dirty of what it covers")
        return None
    if is_substance(props):
        report.mapped("substance: a part of the state words of what it is in or on")
        return None
    if instance in parents:
        init.gaps.append("init: an object on or in a thing with no place")
    else:
        init.gaps.append("init: an object with no place (made during the task)")
    report.dropped("object with no place in :init")
    return None


def _node(
    node_id: str,
    kind: str,
    parent: str,
    relation: str | None,
    synset: str,
    p: frozenset[str],
    taxonomy: Taxonomy,
    states: list[str],
    hook: bool,
    instance: str,
    targets: dict[str, set[str]],
    report: ImportReport,
) -> dict[str, Any]:
    """One thing's node: affordances and state words from the taxonomy and `:init`."""
    source = next((taxonomy.parameters(synset, q) for q in SOURCES if q in p), None)
    holds = source is not None and source.get("requires_inside") == 1 and "openable" not in p
    affordances = _affordances(instance, kind, p, targets, holds)
    if hook:
        affordances += [a for a in ("release", "attach") if a not in affordances]
    word_states = list(dict.fromkeys(states))
    if source is not None and (
        source.get("requires_toggled_on") == 0 or (not source and "toggleable" not in p)
    ):
        word_states.append("on")  # runs without a switch (a refrigerator)
        report.mapped("heat or cold source that needs no switching on: on")
    if "dirty" in word_states:
        affordances.append("wipe")
    affordances += substance_affordances(instance, kind, p, word_states, targets)
    if "openable" in p and "open" not in word_states:
        word_states.append("closed")
    if "toggleable" in p and "on" not in word_states:
        word_states.append("off")
    if "cloth" in p and "folded" not in word_states and "unfolded" not in word_states:
        word_states.append("unfolded")  # BEHAVIOR's cloth lies spread out unless folded
    return native_node(
        id=node_id,
        kind=kind,
        parent=parent,
        relation=relation,
        category=lemma(synset),
        affordances=affordances,
        state=word_states,
    )


# -- substances (world/substances.py) -------------------------------------------------------

SUBSTANCE_PREDICATES = frozenset(RELATIONS_OF_SUBSTANCES)
SUBSTANCE_PROPERTIES = frozenset({"substance", "physicalSubstance", "visualSubstance"})


def is_substance(props: frozenset[str]) -> bool:
    """Whether a synset with these taxonomy properties is a substance (water, dust, salt)."""
    return bool(props & SUBSTANCE_PROPERTIES)


def substance_state(
    fact: tuple[str, ...], objects: dict[str, str], props: dict[str, frozenset[str]]
) -> str | None:
    """The state word of a start fact that puts a substance in, on or out of a thing
    (`filled bucket.n.01_1 water.n.06_1` -> `filled_water` of the bucket), else None."""
    name, args = fact[0], fact[1:]
    if name not in SUBSTANCE_PREDICATES or len(args) != 2:
        return None
    if args[0] not in objects or args[1] not in objects or not is_substance(props[args[1]]):
        return None
    return substance_word(name, lemma(objects[args[1]]))


def substance_affordances(
    instance: str,
    kind: str,
    props: frozenset[str],
    states: list[str],
    targets: dict[str, set[str]],
) -> list[str]:
    """What substances let a thing do: `fill` (a fillable thing, or one the goal fills),
    `pour` (an object that holds or gives a substance), `source` (gives one), `coat`
    (covered with a substance, or one the goal covers), `wiper` (a particle remover: rag,
    sponge, brush), `soak` (a remover or cloth, or what the goal soaks).
    `targets["fill"]` / `["soak"]` / `["coat"]`: what the goal fills, soaks or covers."""
    gives = any(w.startswith(f"{INSOURCE}_") for w in states)
    fillable = "fillable" in props or instance in targets.get("fill", ())
    out = ["fill"] if fillable else []
    if kind == "object" and (fillable or gives):
        out.append("pour")
    if gives:
        out.append("source")
    covered = any(w.startswith(f"{COVERED}_") for w in states)
    if covered or instance in targets.get("coat", ()):
        out.append("coat")
    if "particleRemover" in props:
        out.append("wiper")
    if "particleRemover" in props or "cloth" in props or instance in targets.get("soak", ()):
        out.append("soak")
    return out


def substance_goal(
    atom: tuple, objects: dict[str, str], ids: dict[str, str], kinds: dict[str, str]
) -> str | None:
    """A goal atom relating a thing to a substance in the goal language (`filled(bucket_1,
    water)`); None for any other atom (dirt is the caller's: `dirty`)."""
    name, args = atom[1], atom[2:]
    if name not in SUBSTANCE_PREDICATES or len(args) != 2 or args[1] not in objects:
        return None
    if name == COVERED and is_dirt(objects[args[1]]):
        return None
    node = ids.get(args[0])
    if node not in kinds:
        return "false"
    return f"{name}({node}, {lemma(objects[args[1]])})"


def _placed(
    objects: dict[str, str],
    fixed: set[str],
    rooms: dict[str, str],
    parents: dict[str, tuple[str, str]],
) -> set[str]:
    """The instances that get a place: fixed furniture, what is in a room, and what rests
    on or in a placed thing (a curtain draped on a rod that has no place has none)."""
    placed = set(fixed) | {i for i in objects if i in rooms}
    grown = True
    while grown:
        grown = False
        for instance in objects:
            if instance not in placed and parents.get(instance, ("",))[0] in placed:
                placed.add(instance)
                grown = True
    return placed


def _room_id(room: str) -> str:
    return re.sub(r"[^a-z0-9_]+", "_", room.lower())


def _room_through(
    instance: str, parents: dict[str, tuple[str, str]], rooms: dict[str, str]
) -> str | None:
    seen = set()
    current = instance
    while current not in rooms:
        if current in seen or current not in parents:
            return None
        seen.add(current)
        current = parents[current][0]
    return rooms[current]


def _affordances(
    instance: str,
    kind: str,
    props: frozenset[str],
    targets: dict[str, set[str]],
    holds: bool = False,
) -> list[str]:
    out = ["pickup"] if kind == "object" else []
    if "openable" in props:
        out += OPENS
    if "toggleable" in props:
        out += SWITCHABLE
    if "cloth" in props:
        out += ["fold", "unfold"]
    inside = holds or instance in targets.get("inside_of", ())
    if ("fillable" in props or inside) and "openable" not in props:
        out.append("receptacle")
    if kind == "asset" or inside or instance in targets.get("ontop_of", ()):
        out.append("release")
    return out
