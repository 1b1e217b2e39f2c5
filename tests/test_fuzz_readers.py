"""Fuzzing every reader of outside input: only sceneplan's own errors may come out.

One test per reader (scene graph, task file, goal, PDDL goal, s-expression, BDDL,
ALFWorld game, Spark-DSG, Matterport3D .house, Stanford 3DSG, VirtualHome, label
space, LLM config, plan file, robot reply, model reply). Each feeds the reader
inputs hypothesis makes, some of them a valid input with one part replaced by
junk, random bytes, or brackets that do not balance, and accepts a result or a
SceneplanError (which the CLI prints as one line), nothing else; the goal readers
only a GoalParseError, which is what SCLPlan feeds back to the model. Kept small:
every test here together runs in well under a minute.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sceneplan.errors import GoalParseError, SceneplanError

EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "importers" / "data"

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["room", "object", "asset", "pose", "kitchen", "-1", "1e400", "NaN"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


def _latin1(data: bytes) -> str:
    return data.decode("latin-1")


def _file(data: bytes | str, suffix: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    path = folder / f"input{suffix}"
    path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    return path


def _only_our_errors(read: Any, *args: Any, **kwargs: Any) -> None:
    with contextlib.suppress(SceneplanError):  # anything else fails the test
        read(*args, **kwargs)


# text that is mostly brackets, some of them left open or closed twice, with words between
brackets = st.lists(
    st.sampled_from(["(", ")", "((", "))", " ", "and", "?x", "-", ";", "\n", "9" * 5000]),
    max_size=40,
).map("".join)
texts = st.one_of(brackets, st.text(max_size=60), st.binary(max_size=60).map(_latin1))


@st.composite
def mutated(draw: st.DrawFn, valid: Any) -> Any:
    """`valid` (JSON-like) with one value somewhere in it replaced by junk."""
    value = json.loads(json.dumps(valid))
    holder, key = None, None
    node = value
    for _ in range(draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            key = draw(st.integers(0, len(node) - 1))
        else:
            break
        holder, node = node, node[key]
    junk = draw(json_values)
    if holder is None:
        return junk
    holder[key] = junk
    return value


GRAPH = json.loads((ROOT / "examples" / "two_rooms.json").read_text())


@EXAMPLES
@given(st.one_of(mutated(GRAPH), json_values.map(lambda v: {"nodes": v})))
@pytest.mark.slow
def test_scene_graph(data):
    from sceneplan.graph.io import load

    _only_our_errors(load, _file(json.dumps(data), ".json"))


@EXAMPLES
@given(st.binary(max_size=200))
def test_scene_graph_bytes(data):
    from sceneplan.graph.io import load

    _only_our_errors(load, _file(data, ".json"))


TASK = {
    "id": "t1",
    "suite": "mine",
    "family": "simple_planning",
    "instruction": "Put the mug away.",
    "environment": "coffee",
    "goal": "full(coffee_mug)",
}


@EXAMPLES
@given(st.one_of(mutated([TASK]), json_values))
def test_task_file(data):
    import yaml

    from sceneplan.datasets.tasks import check_task_file

    _only_our_errors(check_task_file, _file(yaml.safe_dump(data), ".yaml"))


GOAL_WORDS = [
    "(", ")", ",", ":", "not", "and", "or", "implies", "then", "forall", "exists", "forn",
    "forpairs", "fornpairs", "in", "m", "mug", "coffee_mug", "full", "held", "inside_of",
    "kind:object", "kind:bogus", "true", "false", "2", "0", "99999999999", "fridge", "open",
]  # fmt: skip


@EXAMPLES
@given(st.lists(st.sampled_from(GOAL_WORDS), max_size=30), st.text(max_size=10))
def test_goal(words, noise):
    from sceneplan.datasets import load_environment
    from sceneplan.world import parse_goal

    graph = load_environment("coffee")
    _only_our_errors(parse_goal, " ".join(words), graph)
    _only_our_errors(parse_goal, " ".join(words) + noise, graph)


PDDL_WORDS = [
    "(", ")", "and", "or", "not", "imply", "exists", "forall", "=", "?o", "?r", "-", "object",
    "receptacle", "mug", "(objectType ?o MugType)", "inReceptacle", "isClean", "holds",
    "full", "coffee_mug", "fridge", "inside_of", "agent_near", "()", "((", "))", ";",
]  # fmt: skip


@EXAMPLES
@given(st.lists(st.sampled_from(PDDL_WORDS), max_size=40), texts, st.integers(0, 3000))
def test_pddl_goal(words, noise, depth):
    """What SCLPlan's model writes: only a GoalParseError, which it feeds back to the model."""
    from sceneplan.datasets import load_environment
    from sceneplan.symbolic.goal_reader import read_goal

    graph = load_environment("coffee")
    for text in (
        "(" + " ".join(words) + ")",
        "(" + " ".join(words) + noise,
        "(not " * depth + "(full coffee_mug)" + ")" * depth,
    ):
        with contextlib.suppress(GoalParseError):
            read_goal(text, graph)


@EXAMPLES
@given(texts)
def test_sexp(text):
    from sceneplan.textinput import parse_sexp, show_sexp

    with contextlib.suppress(SceneplanError):
        assert parse_sexp(show_sexp(parse_sexp(text))) == parse_sexp(text)


BDDL_WORDS = [
    "(", ")", "define", "problem", "p", ":domain", "d", ":objects", "apple.n.01_1", "-",
    "apple.n.01", "table.n.02_1", "table.n.02", ":init", "ontop", "inside", "not", ":goal",
    "and", "or", "forall", "exists", "forn", "fornpairs", "?x", "1", "agent.n.01_1",
    "floor.n.01_1", "inroom", "kitchen", "cooked",
]  # fmt: skip
BDDL = (DATA / "put_away.bddl").read_text()


@EXAMPLES
@given(st.lists(st.sampled_from(BDDL_WORDS), max_size=60), st.integers(0, len(BDDL)))
def test_bddl(words, cut):
    from sceneplan.importers.behavior import convert, default_taxonomy
    from sceneplan.importers.behavior.bddl import parse_problem

    def read(text: str) -> None:
        convert(parse_problem(text, "fuzz.bddl"), default_taxonomy())

    _only_our_errors(read, " ".join(words))
    _only_our_errors(read, BDDL[:cut] + " ".join(words) + BDDL[cut:])


@EXAMPLES
@given(texts, st.integers(0, len(BDDL)))
def test_bddl_text(noise, cut):
    from sceneplan.importers.behavior import read_problem

    _only_our_errors(read_problem, _file(BDDL[:cut] + noise + BDDL[cut:], ".bddl"))
    _only_our_errors(read_problem, _file(noise, ".bddl"))


ALFWORLD = ROOT.parent / "shared" / "data" / "alfworld" / "valid_unseen"


@EXAMPLES
@given(st.lists(st.sampled_from(PDDL_WORDS + BDDL_WORDS), max_size=40), texts, st.data())
def test_alfworld_game(words, noise, data):
    import gzip

    from sceneplan.importers.alfworld import import_

    games = sorted(ALFWORLD.glob("*.json.gz"))[:1]
    if not games:
        pytest.skip("needs ../shared/data/alfworld")
    game = json.loads(gzip.decompress(games[0].read_bytes()))["game"]
    problem = game["pddl_problem"]
    cut = data.draw(st.integers(0, len(problem)))
    for junk in (" ".join(words), noise):
        game["pddl_problem"] = problem[:cut] + junk + problem[cut:]
        _only_our_errors(import_, _file(json.dumps(game), ".tw-pddl"))
    _only_our_errors(import_, _file(noise, ".tw-pddl"))


@EXAMPLES
@given(st.one_of(mutated(json.loads((DATA / "two_nodes.dsg.json").read_text())), json_values))
@pytest.mark.slow
def test_spark_dsg(data):
    pytest.importorskip("spark_dsg")
    from sceneplan.importers.spark_dsg import import_

    _only_our_errors(import_, _file(json.dumps(data), ".json"))


HOUSE = (DATA / "two_rooms.house").read_text().splitlines()


@EXAMPLES
@given(
    st.integers(0, len(HOUSE) - 1),
    st.integers(0, 30),
    st.sampled_from(["", "-", "x", "1e400", "nan", "-1", "99999", "9" * 5000]),
    st.integers(0, len(HOUSE)),
)
def test_house(line, field, junk, keep):
    pytest.importorskip("spark_dsg")
    from sceneplan.importers.mp3d import import_

    lines = list(HOUSE)
    words = lines[line].split()
    if field < len(words):
        words[field] = junk
    lines[line] = " ".join(words)
    _only_our_errors(import_, _file("\n".join(lines[: max(keep, 1)]) + "\n", ".house"))


@EXAMPLES
@given(
    st.one_of(
        json_values,
        mutated({"label_names": [{"label": 1, "name": "cup"}, {"label": 2, "name": "bed"}]}),
    )
)
@pytest.mark.slow
def test_label_space(data):
    import yaml

    from sceneplan.importers.spark_dsg import read_labelspace

    _only_our_errors(read_labelspace, _file(yaml.safe_dump(data), ".yaml"))


VH_GRAPH = json.loads((DATA / "kitchen.vh.json").read_text())


@EXAMPLES
@given(st.one_of(mutated(VH_GRAPH), json_values), st.binary(max_size=60))
def test_virtualhome_and_stanford3dsg(data, noise):
    from sceneplan.importers import stanford3dsg, virtualhome

    for read in (virtualhome.import_, stanford3dsg.import_):
        _only_our_errors(read, _file(json.dumps(data), ".json"))
        _only_our_errors(read, _file(noise, ".json"))


@EXAMPLES
@given(st.binary(max_size=80), texts)
def test_user_files_as_bytes(noise, text):
    """Task files, label spaces and plan files of random bytes or unbalanced brackets."""
    import yaml

    from sceneplan.cli.verify import read_plan_argument
    from sceneplan.datasets.tasks import check_task_file
    from sceneplan.importers.spark_dsg import read_labelspace

    for data in (noise, text, yaml.safe_dump([TASK]) + text):
        _only_our_errors(check_task_file, _file(data, ".yaml"))
        _only_our_errors(read_labelspace, _file(data, ".yaml"))
        _only_our_errors(read_plan_argument, f"@{_file(data, '.txt')}")
        _only_our_errors(read_plan_argument, f"@{_file('[' + text, '.json')}")


CONFIG_LINES = [
    "[llm]", "[llm.providers.ollama]", "[llm.prices]", "[llm.providers]", "model = 'ollama:m'",
    "timeout = inf", "timeout = -1", "timeout = 1e999", "max_retries = 99999999999999999999",
    "concurrency = 0", "cache = 'yes'", "base_url = 3", "base_url = 'http://[::1'",
    "llm = 1", "x = [[[[1]]]]", "providers = {}", "api_key = ''", "'' = 1",
]  # fmt: skip


@EXAMPLES
@given(st.lists(st.sampled_from(CONFIG_LINES), max_size=8), st.binary(max_size=20))
def test_config(lines, noise):
    from sceneplan.llm import load_settings

    _only_our_errors(load_settings, _file("\n".join(lines) + "\n", ".toml"))
    _only_our_errors(load_settings, _file("\n".join(lines).encode() + noise, ".toml"))


REPLY = {
    "ok": False,
    "reason": "not_found",
    "at": "kitchen",
    "seen": [{"id": "mug", "parent": "table", "relation": "on", "new": True, "category": "cup"}],
    "surfaces": [{"asset": "table", "relation": "on"}],
    "states": {"fridge": ["open"]},
}


@EXAMPLES
@given(st.one_of(mutated(REPLY), json_values))
def test_robot_reply(data):
    from sceneplan.datasets import load_environment
    from sceneplan.execute.belief import Belief
    from sceneplan.execute.skills import Skill, SkillCall, SkillResult

    call = SkillCall(Skill.LOOK, {"asset": "kitchen_bench", "relation": "on"})

    def read(value: Any) -> None:
        Belief(load_environment("coffee")).observe(call, SkillResult.from_dict(value, call))

    _only_our_errors(read, data)


@EXAMPLES
@given(
    st.one_of(mutated({"reasoning": "r", "plan": ["goto(kitchen)"]}), json_values),
    st.text(max_size=20),
)
def test_model_reply(data, noise):
    from sceneplan.llm.structured import parse_reply
    from sceneplan.planners.replies import PlanReply

    text = json.dumps(data)
    for reply in (text, noise + text + noise, "```json\n" + text):
        parse_reply(reply, PlanReply, lenient=True)  # a result or problems: never an exception
