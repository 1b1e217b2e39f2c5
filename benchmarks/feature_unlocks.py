"""How many BEHAVIOR-1K and VirtualHome tasks each domain feature unlocks (issue 14).

    python benchmarks/feature_unlocks.py [--only behavior|virtualhome] [--per-task FILE]
        [--not-landed FEATURE ...]

needs ``pip install -e '.[behavior]'`` (bddl) and ``pip install -e '.[virtualhome]'``
(virtualhome-eval); without them it exits 2 naming the extra to install.

Every task the build scripts consider is read: each BEHAVIOR-1K activity of the
installed bddl (``problem0.bddl``) and each virtualhome-eval scene-1 task. A
task *needs* tokens: what its goal and start use (``goal:nextto``,
``state:sitting``, ``edge:character-on``, ``logic:forpairs``...). A feature
(`FEATURES`, data: its name and the tokens it makes expressible in each source)
covers tokens; `BASE` holds what needs no feature (things put on or in
furniture, rooms, held things, ``and``/``or``/``not``/``forall``/``exists``).
Tokens no feature covers, and what the importer refuses for other reasons
than a predicate (a substance with no place, fixed furniture moved, a goal
naming a dropped node...), are *missing*: such a task is expressible with no
feature set the script knows. A task is expressible with features F when it
misses nothing and every feature it needs is in F.

What a task uses is read with the importers' own readers (`read_problem`,
`ground_goal`, `convert`; `convert_task`, the build scripts' task lists), and
the reasons the importers give (``extra["gaps"]``) supply the missing
blockers and the two-hands cases. Following the importer, a BEHAVIOR start
fact of one argument is a state word and needs no feature, and VirtualHome's
start states are state words too.

The output: the base count; the features in the greedy order (each step adds
the feature that makes the most further tasks expressible), each with its
marginal and cumulative count; which features the domain has today (asked of
the domain: the SayPlan vocabulary's actions, the state words its actions
and appliances give, the goal language's predicates and forms, tiny plans
through the simulator) and the count expressible with exactly those; the
packaged suites' sizes beside it, with what the difference is made of; and
the top missing tokens.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sceneplan.importers.behavior.convert import DIRT

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = REPO_ROOT / "scripts"


@dataclass(frozen=True)
class Feature:
    """One domain feature: the tokens it makes expressible, and how to ask the domain
    whether it has it (`probes`: all must pass; see `landed`)."""

    name: str
    issue: bool  # named in issue 14
    behavior: frozenset[str]
    virtualhome: frozenset[str]
    probes: tuple[tuple[str, str], ...]
    note: str = ""


def _f(
    name: str,
    issue: bool,
    behavior: Iterable[str],
    virtualhome: Iterable[str],
    probes: Iterable[tuple[str, str]],
    note: str = "",
) -> Feature:
    return Feature(name, issue, frozenset(behavior), frozenset(virtualhome), tuple(probes), note)


FEATURES: tuple[Feature, ...] = (
    _f(
        "open/close",
        False,
        ["goal:open"],
        ["state:open", "state:closed"],
        [("action", "open"), ("action", "close")],
    ),
    _f(
        "on/off (switches)",
        False,
        ["goal:toggled_on"],
        ["state:on", "state:off", "verb:turn_off"],
        [("action", "turn_on"), ("action", "turn_off")],
    ),
    _f(
        "things on/in objects (receptacles)",
        True,
        ["goal:ontop-object", "goal:inside-object"],
        ["edge:on-object", "edge:inside-object"],
        [("place", "ontop_of"), ("place", "inside_of")],
        "the goal puts things on or in a movable thing (a basket, a plate)",
    ),
    _f(
        "forn/forpairs goals",
        True,
        ["logic:forn", "logic:forpairs", "logic:fornpairs"],
        [],
        [("goal", "forn 1 c in cup: held(c)"), ("goal", "forpairs c in cup, t in table: true")],
        "the behavior importer also writes them out over the instances",
    ),
    _f(
        "ordered goals (then)",
        True,
        [],
        ["logic:then"],
        [("goal", "held(cup) then handempty()")],
        "every 'then' of virtualhome-eval orders a goal action (see goal actions)",
    ),
    _f(
        "plugged_in (plug_in/plug_out)",
        True,
        [],
        ["state:plugged_in", "state:plugged_out"],
        [("action", "plug_in"), ("action", "plug_out")],
    ),
    _f(
        "sitting/lying (sit/lie/stand_up)",
        True,
        [],
        ["state:sitting", "state:lying", "edge:character-on", "edge:character-inside"],
        [("action", "sit"), ("action", "lie"), ("action", "stand_up")],
        "VirtualHome's character ON/INSIDE a thing is taken as sitting or lying on it",
    ),
    _f(
        "clean/dirty (wipe/rinse)",
        True,
        ["goal:covered-dirt", "init:covered-dirt"],
        ["state:clean", "state:dirty", "verb:rinse", "verb:wipe"],
        [("action", "wipe"), ("action", "rinse"), ("word", "clean"), ("word", "dirty")],
        "BEHAVIOR writes dirt as (covered x dust) with a dirt substance (DIRT)",
    ),
    _f("cooked (appliances)", True, ["goal:cooked"], ["state:cooked"], [("word", "cooked")]),
    _f("hot (appliances)", False, ["goal:hot"], ["state:hot"], [("word", "hot")]),
    _f("frozen", True, ["goal:frozen"], ["state:frozen"], [("word", "frozen")]),
    _f(
        "nextto",
        True,
        ["goal:nextto"],
        ["edge:close"],
        [("predicate", "nextto")],
        "VirtualHome's CLOSE edges of a goal are all character CLOSE thing",
    ),
    _f(
        "folded/unfolded (fold/unfold)",
        False,
        ["goal:folded", "goal:unfolded"],
        [],
        [("action", "fold"), ("action", "unfold")],
        "BEHAVIOR's cloth (towels, shirts, sheets)",
    ),
    _f(
        "overlaid/draped (read as ontop)",
        False,
        ["goal:overlaid", "goal:overlaid-object", "goal:draped", "goal:draped-object"],
        [],
        [("place", "ontop_of")],
        "cloth over a thing rests on it: the graph has no geometry",
    ),
    _f(
        "substances (fill/pour/sprinkle/soak/wipe_with)",
        False,
        [
            *(f"goal:{r}" for r in ("filled", "contains", "covered", "saturated", "insource")),
            *(f"init:{r}" for r in ("filled", "contains", "covered", "saturated", "insource")),
            "init: a substance (water, soap, ...): no node of a scene graph",
        ],
        [],
        [
            *(("action", a) for a in ("fill", "pour", "sprinkle", "soak", "wipe_with")),
            *(("predicate", p) for p in ("filled", "contains", "covered", "saturated")),
            ("predicate", "insource"),
        ],
        "issue 31: water, soap, salt... as state words of what holds, covers or gives them "
        "(world/substances.py); dirt stays clean/dirty",
    ),
    _f(
        "attached (attach)",
        False,
        ["goal:attached", "init:attached"],
        [],
        [("action", "attach"), ("predicate", "attached")],
        "hanging or fastening: on a node that affords attach (a nail, a hook, a jar)",
    ),
    _f(
        "touching",
        False,
        ["goal:touching"],
        [],
        [("predicate", "touching")],
        "one rests directly on or in the other, or both side by side",
    ),
    _f(
        "under",
        False,
        ["goal:under", "init:under"],
        [],
        [("predicate", "under")],
        "on the floor of the room of the furniture (the graph has no heights)",
    ),
    _f(
        "objects with no place (by category)",
        False,
        ["init:no-place"],
        [],
        [("importer", "FOOD_PROPERTIES")],
        "a thing BDDL places nowhere (made during the task): food on a counter, else the floor",
    ),
    _f("two hands", True, [], ["two-hands"], [("hands", "")]),
    _f(
        "goal actions",
        False,
        [],
        ["goal-action"],
        [("predicate", "did")],
        "virtualhome-eval goals that an action happen (DRINK, TYPE, RINSE|WASH, ...)",
    ),
)

BASE: dict[str, frozenset[str]] = {
    "behavior": frozenset({"goal:ontop", "goal:inside"}),
    "virtualhome": frozenset(
        {"edge:on", "edge:inside", "edge:inside-room", "edge:holds", "verb:pick_up"}
    ),
}
BASE_TEXT = {
    "behavior": "things on/in furniture, rooms; and/or/not/forall/exists",
    "virtualhome": "ON/INSIDE furniture or a room, HOLDS one thing",
}

# BEHAVIOR substances that cleaning removes: (covered x stain) is x dirty (the importer's)
SUBSTANCE = frozenset({"substance", "physicalSubstance", "visualSubstance"})
# VirtualHome goal actions -> the domain's actions (an action of a goal says "A|B": either)
VERBS = {"GRAB": "pick_up", "SWITCHOFF": "turn_off", "RINSE": "rinse", "WIPE": "wipe"}
# importer gaps that the tokens above already say (anything else is a blocker)
BEHAVIOR_TOKEN_GAPS = ("goal uses predicate", "init uses predicate", "init: a substance")
VIRTUALHOME_TOKEN_GAPS = (
    "goal needs action",
    "goal uses state",
    "goal uses relation",
    "goal puts the character",
    "goal holds two objects",
    "init: the character holds two objects",
)


# ---------------------------------------------------------------- counting (pure)


@dataclass(frozen=True)
class Need:
    """What one task needs: features, and what no feature gives (`missing`)."""

    task: str
    features: frozenset[str] = frozenset()
    missing: frozenset[str] = frozenset()


@dataclass
class Ladder:
    """The greedy order: `steps` are (feature, marginal, cumulative)."""

    total: int
    base: int
    steps: list[tuple[str, int, int]] = field(default_factory=list)


def expressible(need: Need, features: Iterable[str]) -> bool:
    return not need.missing and need.features <= frozenset(features)


def count(needs: Sequence[Need], features: Iterable[str]) -> int:
    have = frozenset(features)
    return sum(1 for n in needs if expressible(n, have))


def greedy(needs: Sequence[Need], features: Sequence[str]) -> Ladder:
    """Add, one at a time, the feature that makes the most further tasks expressible.

    Ties go to the feature more tasks need (that could become expressible with
    it later), then to the earlier one in `features`. Every feature is placed,
    those that unlock nothing last with marginal 0.
    """
    have: set[str] = set()
    ladder = Ladder(len(needs), count(needs, have))
    current = ladder.base
    left = list(features)
    possible = [n for n in needs if not n.missing]
    while left:
        best = max(left, key=lambda f: _score(f, needs, possible, have, current, left))
        left.remove(best)
        have.add(best)
        now = count(needs, have)
        ladder.steps.append((best, now - current, now))
        current = now
    return ladder


def _score(
    feature: str,
    needs: Sequence[Need],
    possible: Sequence[Need],
    have: set[str],
    current: int,
    order: list[str],
) -> tuple[int, int, int]:
    gained = count(needs, have | {feature}) - current
    wanted = sum(1 for n in possible if feature in n.features and not n.features <= have)
    return gained, wanted, -order.index(feature)


def needs_of(tokens: Iterable[str], source: str, features: Sequence[Feature] = FEATURES):
    """The features `tokens` need and the tokens no feature (nor the base) covers."""
    want: set[str] = set()
    missing: set[str] = set()
    for token in tokens:
        if token in BASE.get(source, ()):
            continue
        by = [f.name for f in features if token in getattr(f, source)]
        if by:
            want.update(by)
        else:
            missing.add(token)
    return frozenset(want), frozenset(missing)


def top_missing(needs: Sequence[Need], n: int = 15) -> list[tuple[str, int]]:
    return _ranked(token for need in needs for token in need.missing)[:n]


def _ranked(items: Iterable[str]) -> list[tuple[str, int]]:
    """Counts, most first, ties by name (the same order on every run)."""
    return sorted(Counter(items).items(), key=lambda kv: (-kv[1], kv[0]))


# ---------------------------------------------------------------- the domain today


def landed(feature: Feature) -> bool:
    """Whether the domain has the feature now (every probe passes)."""
    return all(_probe(kind, arg) for kind, arg in feature.probes)


def _probe(kind: str, arg: str) -> bool:
    from sceneplan.importers.capabilities import achievable, can_place, has_predicate
    from sceneplan.world import SAYPLAN

    if kind == "action":
        return arg in SAYPLAN.actions
    if kind == "word":
        return achievable(arg)
    if kind == "predicate":
        return has_predicate(arg)
    if kind == "place":
        inside = arg == "inside_of"
        affordances = ("pickup", "receptacle", "release") if inside else ("pickup", "release")
        return can_place(arg, "object", affordances) is None
    if kind == "goal":
        from sceneplan.errors import SceneplanError
        from sceneplan.world.goals import parse_goal

        try:
            parse_goal(arg, _probe_graph())
        except SceneplanError:
            return False
        return True
    if kind == "importer":
        import importlib

        return hasattr(importlib.import_module("sceneplan.importers.behavior.convert"), arg)
    if kind == "hands":
        from sceneplan.world import LOOKPLANGRAPH
        from sceneplan.world.simulator import Simulator

        run = Simulator(_probe_graph(), LOOKPLANGRAPH).verify_plan(["pick_up(cup)", "pick_up(mug)"])
        return run.ok
    raise ValueError(f"unknown probe {kind}")


def _probe_graph():
    from sceneplan.graph.io import from_dict

    things = [
        {"id": i, "kind": "object", "parent": "table", "relation": "ontop_of", "category": i}
        | {"affordances": ["pickup"]}
        for i in ("cup", "mug")
    ]
    nodes = [
        {"id": "room", "kind": "room"},
        {"id": "table", "kind": "asset", "parent": "room", "affordances": ["release"]},
        *things,
        {"id": "agent", "kind": "agent", "parent": "room"},
    ]
    return from_dict({"format": "sceneplan-graph", "version": 1, "nodes": nodes}, "<probe>")


# ---------------------------------------------------------------- reading the sources


@dataclass
class Read:
    """One source's tasks: needs, and whether the importer takes each task today."""

    needs: list[Need]
    imported: dict[str, list[str]]  # task -> the importer's gaps (empty: it takes it)


def _build_module(name: str):
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return __import__(name)


def behavior_tokens(problem, taxonomy, gaps: Sequence[str]) -> set[str]:
    """What one BDDL problem uses, as tokens (see the module docstring)."""
    from sceneplan.errors import SceneplanError
    from sceneplan.importers.behavior.convert import RELATIONS
    from sceneplan.importers.behavior.goal import GoalTooLarge, atoms, ground_goal

    synset = problem.objects
    tokens: set[str] = set()
    things = {i: s for i, s in synset.items() if not i.endswith("_*") and s != "agent.n.01"}

    def members(of: str) -> list[str]:
        return [i for i, s in things.items() if taxonomy.is_a(s, of)]

    def fixed(instance: str) -> bool:
        return "sceneObject" in taxonomy.properties(synset.get(instance, "agent.n.01"))

    try:
        declared = {i for i in synset if not i.endswith("_*")}
        goal = ground_goal(problem.goal, members, declared, problem.source)
    except (GoalTooLarge, SceneplanError):
        goal = None  # the importer's gaps say why
    for atom, negated in atoms(goal) if goal else ():
        name, args = atom[1], atom[2:]
        if name in RELATIONS and len(args) == 2:
            on_object = not negated and not fixed(args[1])
            tokens.add(f"goal:{name}" + ("-object" if on_object else ""))
        elif name == "covered" and len(args) == 2:
            tokens.add("goal:covered" + ("-dirt" if synset.get(args[1]) in DIRT else ""))
        else:
            tokens.add(f"goal:{name}")
    tokens |= {f"logic:{h}" for h in _heads(problem.goal) if h in ("forn", "forpairs", "fornpairs")}
    placed: set[str] = set()  # what a (positive) start fact puts somewhere
    used_otherwise: set[str] = set()  # substances used otherwise than as dirt
    positive = [(fact, True) for fact in problem.init]
    for fact, true in positive + [(fact, False) for fact in problem.negated_init]:
        name, args = fact[0], fact[1:]
        if any(a.endswith("_*") for a in args):
            continue  # about a wildcard instance: the importer drops it
        if name in ("inroom", "attached", "under", *RELATIONS) and len(args) == 2:
            if true:
                placed.add(args[0])
            if name in ("attached", "under"):
                tokens.add(f"init:{name}")
        elif name == "covered" and len(args) == 2 and synset.get(args[1]) in DIRT:
            tokens.add("init:covered-dirt")
            continue
        elif len(args) != 1:
            tokens.add(f"init:{name}")
        used_otherwise.update(args[1:])
    for instance, of in things.items():
        if instance in placed:
            continue
        if not (taxonomy.properties(of) & SUBSTANCE):
            if "sceneObject" not in taxonomy.properties(of):
                tokens.add("init:no-place")  # placed by its category (the importer's guess)
            continue
        if of in DIRT and instance not in used_otherwise:
            continue  # a dirt substance: dirty / clean with the clean/dirty feature
        tokens.add("init: a substance (water, soap, ...): no node of a scene graph")
    tokens |= {g for g in gaps if not g.startswith(BEHAVIOR_TOKEN_GAPS)}
    return tokens


def _heads(expr: Any) -> Iterable[str]:
    if isinstance(expr, list) and expr:
        if isinstance(expr[0], str):
            yield expr[0]
        for sub in expr[1:]:
            yield from _heads(sub)


def read_behavior(progress: Callable[[str], None]) -> Read:
    import bddl

    from sceneplan.errors import SceneplanError
    from sceneplan.importers.behavior import convert, read_problem
    from sceneplan.importers.behavior.taxonomy import default_taxonomy

    taxonomy = default_taxonomy()
    folder = Path(bddl.__file__).parent / "activity_definitions"
    activities = sorted(p.name for p in folder.iterdir() if (p / "problem0.bddl").is_file())
    needs, imported = [], {}
    for number, activity in enumerate(activities, 1):
        if number % 200 == 0:
            progress(f"  ... behavior {number} of {len(activities)}")
        try:
            problem = read_problem(folder / activity / "problem0.bddl")
            gaps = list(convert(problem, taxonomy).extra["gaps"])
        except SceneplanError as exc:
            reason = f"import: {str(exc).splitlines()[0].split(': ', 1)[-1]}"
            needs.append(Need(activity, missing=frozenset({reason})))
            imported[activity] = [reason]
            continue
        imported[problem.name] = gaps  # the importer's task id: behavior-<name>
        want, missing = needs_of(behavior_tokens(problem, taxonomy, gaps), "behavior")
        needs.append(Need(problem.name, want, missing))
    return Read(needs, imported)


def virtualhome_tokens(
    vh_goal: dict[str, Any], tl_goal: str | None, init: dict[str, Any], gaps: Sequence[str]
) -> set[str]:
    """What one virtualhome-eval task uses, as tokens (see the module docstring)."""
    nodes = {n["id"]: n for n in init["nodes"]}

    def kind(vid: Any) -> str:
        node = nodes.get(vid, {})
        category = node.get("category")
        if category == "Characters":
            return "agent"
        if category == "Rooms":
            return "room"
        return "object" if "GRABBABLE" in node.get("properties", ()) else "asset"

    tokens: set[str] = set()
    for item in vh_goal.get("goal", ()):
        if "state" in item:
            tokens.add(f"state:{str(item['state']).lower()}")
            continue
        relation, a, b = item.get("relation_type"), item["from_id"], item["to_id"]
        if relation in ("HOLDS_RH", "HOLDS_LH"):
            tokens.add("edge:holds")
        elif relation in ("ON", "INSIDE") and kind(a) == "agent":
            tokens.add(f"edge:character-{relation.lower()}")
        elif relation in ("ON", "INSIDE") and kind(b) == "agent":
            continue  # the importer's gap says it (things on the character)
        elif relation in ("ON", "INSIDE") and kind(b) == "room":
            tokens.add(f"edge:{relation.lower()}-room")
        elif relation in ("ON", "INSIDE"):
            tokens.add(f"edge:{relation.lower()}" + ("-object" if kind(b) == "object" else ""))
        else:
            tokens.add(f"edge:{str(relation).lower()}")
    for action in vh_goal.get("actions", ()):
        tokens.add("goal-action")
        verbs = [VERBS[a] for a in action.split("|") if a in VERBS]
        tokens.add(f"verb:{verbs[0]}" if verbs else f"action:{action.lower()}")
    if tl_goal and " then " in tl_goal:
        tokens.add("logic:then")
    if any(g.startswith(("goal holds two objects", "init: the character holds two")) for g in gaps):
        tokens.add("two-hands")
    tokens |= {g for g in gaps if not g.startswith(VIRTUALHOME_TOKEN_GAPS)}
    return tokens


def read_virtualhome(progress: Callable[[str], None]) -> Read:
    from sceneplan.importers.virtualhome import convert_task

    build = _build_module("build_virtualhome")
    root = build.package_dir()
    goals = json.loads((root / build.GOALS).read_text(encoding="utf-8"))["scene_1"]
    entries = sorted(
        ((tid, spec) for tasks in goals.values() for tid, spec in tasks.items()),
        key=lambda e: tuple(int(x) for x in e[0].split("_")),
    )
    needs, imported = [], {}
    for number, (tid, spec) in enumerate(entries, 1):
        if number % 100 == 0:
            progress(f"  ... virtualhome {number} of {len(entries)}")
        base = root / build.DATA
        init = json.loads(
            (base / "init_and_final_graphs" / build.SCENE / f"file{tid}.json").read_text(
                encoding="utf-8"
            )
        )["init_graph"]
        program = (base / "executable_programs" / build.SCENE / f"file{tid}.txt").read_text(
            encoding="utf-8", errors="replace"
        )
        gaps = list(convert_task(tid, init, spec["vh_goal"], program).extra["gaps"])
        imported[tid] = gaps
        tokens = virtualhome_tokens(spec["vh_goal"], spec.get("tl_goal"), init, gaps)
        want, missing = needs_of(tokens, "virtualhome")
        needs.append(Need(tid, want, missing))
    return Read(needs, imported)


# ---------------------------------------------------------------- report


SUITES = {
    "behavior": ("build_behavior", "behavior-", ("behavior-grasif", "behavior-extended")),
    "virtualhome": ("build_virtualhome", "virtualhome-", ("virtualhome-grasif", "virtualhome")),
}


def left_out(script: str, suite: str) -> list[tuple[int, str]]:
    """The left-out reasons a build script wrote in a suite file's header."""
    path = _build_module(script).TASK_FILES[suite]
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#") or line.startswith("# Programs of"):
            break
        match = re.match(r"#\s+(\d+)\s+(.*)", line)
        if match:
            out.append((int(match.group(1)), match.group(2)))
    return out


def report(
    source: str,
    title: str,
    read: Read,
    features: Sequence[Feature],
    not_landed: Iterable[str] = (),
) -> list[str]:
    """The printed table of one source, and how its counts meet the packaged suites."""
    from sceneplan.datasets.tasks import load_suite

    names = [f.name for f in features if getattr(f, source)]
    forced = set(not_landed)
    have = {f.name: landed(f) and f.name not in forced for f in features}
    ladder = greedy(read.needs, names)
    width = max(len(n) for n in names) + 2
    lines = [f"{title}: {ladder.total} tasks", ""]
    lines.append(f"  {'base: ' + BASE_TEXT[source]:<{width + 28}}{ladder.base:6d}")
    lines.append(
        f"  {'':4}{'feature':<{width}}{'landed':>7}{'issue':>7}{'marginal':>10}{'cum.':>6}"
    )
    for i, (name, marginal, cumulative) in enumerate(ladder.steps, 1):
        feature = next(f for f in features if f.name == name)
        yes = ("yes" if have[name] else "NO") + ("*" if name in forced else "")
        issue = "14" if feature.issue else "-"
        lines.append(f"  {i:2d}. {name:<{width}}{yes:>7}{issue:>7}{marginal:10d}{cumulative:6d}")
    if forced:
        lines.append(f"  (* taken as not landed: --not-landed {' '.join(sorted(forced))})")
    on = [n for n in names if have[n]]
    with_landed = {n.task for n in read.needs if expressible(n, on)}
    impossible = [n for n in read.needs if n.missing]
    script, prefix, suites = SUITES[source]
    sizes = {s: len(load_suite(s)) for s in suites}
    in_suites = {t.id.removeprefix(prefix) for s in suites for t in load_suite(s)}
    takes = {t for t, gaps in read.imported.items() if not gaps}
    lines += [
        "",
        f"  expressible with all {len(names)} features: {ladder.steps[-1][2]}",
        f"  expressible with the landed features ({len(on)}): {len(with_landed)}",
        "  packaged suites: "
        + " + ".join(f"{s} {n}" for s, n in sizes.items())
        + f" = {sum(sizes.values())}",
        "  how the landed count meets the suites:",
        f"    the importer takes today: {len(takes)} "
        f"({len(with_landed & takes)} of them landed-expressible here)",
    ]
    refused = with_landed - takes
    if refused:
        lines.append(
            f"    landed-expressible, refused by the importer: {len(refused)} (the domain has "
            "the feature, the importer does not map it yet), its reasons:"
        )
        reasons = _ranked(r for t in refused for r in set(read.imported[t]))
        lines += [f"      {n:4d}  {r}" for r, n in reasons]
    extra = takes - with_landed
    if extra:
        why = _ranked(
            r
            for need in read.needs
            if need.task in extra
            for r in (need.missing or {f"needs {f}" for f in need.features if f not in on})
        )
        lines.append(f"    taken by the importer, not landed-expressible here: {len(extra)}")
        lines += [f"      {n:4d}  {r}" for r, n in why]
    by_task = {n.task: n for n in read.needs}
    headers = [(n, r) for s in suites for n, r in left_out(script, s)]
    oracle = [(n, r) for n, r in headers if r.startswith("oracle")]
    newer = sorted(takes - in_suites)
    fresh: Counter = Counter()  # tasks the build's domain refused (its header says so)
    for task in newer:
        late = [f for f in features if f.name in by_task[task].features and _refused(f, headers)]
        if late:
            fresh[late[0].name] += 1
    rest = len(newer) - sum(fresh.values())
    lines.append(f"    taken today but in no packaged suite: {len(newer)}")
    lines += [
        f"      {n:4d}  need {f}, which the suites' headers name as a reason left out "
        "(landed after the suites were built)"
        for f, n in _ranked(fresh.elements())
    ]
    lines.append(
        f"      {rest:4d}  the rest; the suites' headers count {sum(n for n, _ in oracle)} "
        "left out by the oracle: "
        + ", ".join(f"{r.removeprefix('oracle: ')} {n}" for n, r in oracle)
    )
    stale = sorted(in_suites - takes)
    if stale:
        lines.append(f"    in a suite but not taken by the importer today: {len(stale)}")
    lines += ["", f"  not expressible with all features ({len(impossible)} tasks): top missing"]
    lines += [f"    {n:4d}  {token}" for token, n in top_missing(impossible)]
    return lines


def _refused(feature: Feature, headers: Sequence[tuple[int, str]]) -> bool:
    """Whether a header's left-out reason names one of the feature's words."""
    words = {
        re.split(r"[:]", t)[-1].split("-")[0].lower()
        for t in feature.behavior | feature.virtualhome
        if not t.startswith(("verb:", "logic:"))
    }
    return any(
        re.search(rf"\b(predicate|state|relation) {re.escape(w)}\b", r.lower())
        for _, r in headers
        for w in words
    )


def missing_extras(only: str | None) -> list[str]:
    wanted = {"behavior": ("bddl", "behavior"), "virtualhome": ("virtualhome_eval", "virtualhome")}
    return [
        f"{module.replace('_', '-')} (pip install -e '.[{extra}]')"
        for source, (module, extra) in wanted.items()
        if (only in (None, source)) and importlib.util.find_spec(module) is None
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("behavior", "virtualhome"))
    parser.add_argument("--per-task", type=Path, help="write each task's needs as JSON here")
    parser.add_argument(
        "--not-landed",
        nargs="*",
        default=[],
        metavar="FEATURE",
        help="take these features as not landed whatever the domain says (e.g. nextto)",
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.not_landed) - {f.name for f in FEATURES})
    if unknown:
        known = ", ".join(repr(f.name) for f in FEATURES)
        print(
            f"feature_unlocks: unknown feature {unknown[0]!r}; features: {known}", file=sys.stderr
        )
        return 2
    absent = missing_extras(args.only)
    if absent:
        print(f"feature_unlocks: not installed: {'; '.join(absent)}", file=sys.stderr)
        return 2

    def progress(text: str) -> None:
        print(text, file=sys.stderr)

    from importlib.metadata import version

    per_task: dict[str, Any] = {}
    blocks = []
    if args.only in (None, "behavior"):
        read = read_behavior(progress)
        title = f"BEHAVIOR-1K (bddl {version('bddl')}, problem0 of every activity)"
        blocks.append(report("behavior", title, read, FEATURES, args.not_landed))
        per_task["behavior"] = _dump(read)
    if args.only in (None, "virtualhome"):
        read = read_virtualhome(progress)
        title = f"VirtualHome (virtualhome-eval {version('virtualhome-eval')}, scene 1)"
        blocks.append(report("virtualhome", title, read, FEATURES, args.not_landed))
        per_task["virtualhome"] = _dump(read)
    print("\n\n".join("\n".join(b) for b in blocks))
    if args.per_task:
        args.per_task.write_text(json.dumps(per_task, indent=1, sort_keys=True), encoding="utf-8")
    return 0


def _dump(read: Read) -> dict[str, Any]:
    return {
        n.task: {
            "features": sorted(n.features),
            "missing": sorted(n.missing),
            "importer_gaps": read.imported[n.task],
        }
        for n in read.needs
    }


if __name__ == "__main__":
    sys.exit(main())
