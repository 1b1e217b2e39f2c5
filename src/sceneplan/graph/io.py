"""Reading and writing scene graphs: the native JSON format and the SayPlan import.

Loading validates the whole file and raises one GraphValidationError listing
every problem, each naming the file, the node and the field. A node rejected for
a bad field is reported once: links and parents that name it are not reported
again as naming an unknown node.
"""

from __future__ import annotations

import functools
import json
import operator
import types
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from sceneplan.errors import BadInputError, GraphValidationError
from sceneplan.graph.bulk import FORMAT_NAME, FORMAT_VERSION, clean_nodes, decode_clean
from sceneplan.graph.model import (
    ALLOWED_PARENTS,
    FIELD_NAMES,
    NODE_FIELDS,
    NODE_ID_RULE,
    PLACE_KINDS,
    POSITION_LENGTHS,
    TWO_HANDED,
    AlsoInFiles,
    Node,
    NodeKind,
    Relation,
    SceneGraph,
    gc_paused,
    hands_of,
    is_node_id,
)
from sceneplan.graph.sayplan_format import from_sayplan_dict
from sceneplan.textinput import parse_json, read_bytes, shown, syntax_error, write_text


@functools.cache
def node_record() -> type[Any]:
    """The pydantic model of one node as written in a file (built on first use).

    It is derived from `Node`: Node's fields, by their names in files, with the
    types a JSON file gives them (`_as_written`). Only the node-by-node validator
    uses it: a valid file never loads pydantic here.
    """
    from pydantic import ConfigDict, create_model

    fields: dict[str, Any] = {
        field.encode_name: (
            _as_written(field.type),
            ... if field.required else [] if field.default == () else field.default,
        )
        for field in NODE_FIELDS
    }
    return create_model(
        "_NodeRecord",
        __config__=ConfigDict(extra="forbid"),
        __doc__="The typed fields of one node as written in a file.",
        **fields,
    )


def _as_written(annotation: Any) -> Any:
    """The pydantic type of a Node field's value in a JSON file.

    A tuple is a list, a float must be finite (Python's json reads NaN), a
    length is left to the validator's own message, and a type marked
    `AlsoInFiles` is taken too (to be reported).
    """
    from pydantic import FiniteFloat

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        marks = [mark.type for mark in annotation.__metadata__ if isinstance(mark, AlsoInFiles)]
        return functools.reduce(operator.or_, marks, _as_written(args[0]))
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, map(_as_written, args))
    if origin is tuple:
        return list[_as_written(args[0])]  # type: ignore[misc]
    return FiniteFloat if annotation is float else annotation


def load(path: str | Path) -> SceneGraph:
    """Load a scene graph file (native format, or the SayPlan appendix format)."""
    path = Path(path)
    raw = read_bytes(path, "scene graph file")
    with gc_paused():  # once for parse and build: each resume scans what was allocated
        clean = decode_clean(raw)
        if clean is not None:
            del raw
            return SceneGraph.from_node_dict(
                clean.nodes, clean.links, name=clean.name, description=clean.description
            )
        # Anything msgspec or the bulk checks refuse: parse to plain objects, and the
        # reference validator finds and words every problem.
        try:
            data = _fast_json(raw)
        except ValueError:  # orjson refuses more than json does: let json decide and word it
            data = _parse_text(path, raw)
        del raw
        return _from_parsed(data, str(path), owned=True)


def _fast_json(raw: bytes) -> Any:
    """orjson's parse: about 1.5x faster than json's, the same objects for any file both take.

    orjson refuses what RFC 8259 does (NaN, a BOM, lone surrogates, integers beyond
    64 bits), which json accepts or words in its own way: load then falls back to json.
    """
    import orjson

    return orjson.loads(raw)


def _parse_text(path: Path, raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(
            f"cannot read scene graph file {path}: not UTF-8 text (byte {exc.start})"
        ) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
    try:
        return parse_json(text, str(path))
    except json.JSONDecodeError as exc:
        raise syntax_error("JSON", str(path), exc) from None


def from_dict(data: Any, source: str = "<graph>") -> SceneGraph:
    """Validate a parsed file and build the graph; detects the SayPlan format by its shape."""
    return _from_parsed(data, source, owned=False)


def _from_parsed(data: Any, source: str, owned: bool) -> SceneGraph:
    """`from_dict`; when `owned`, the parsed lists are emptied once read, to lower peak memory."""
    if not isinstance(data, dict):
        raise GraphValidationError(source, ["the top level must be a JSON object"])
    if isinstance(data.get("nodes"), dict):
        data = from_sayplan_dict(data, source)
    problems: list[str] = []
    for key in ("name", "description"):
        if not isinstance(data.get(key, ""), str):
            problems.append(f"field '{key}' must be a string, found {shown(data[key])}")
    if data.get("format") != FORMAT_NAME:
        problems.append(
            f"field 'format' must be '{FORMAT_NAME}', found {shown(data.get('format'))}"
        )
    elif data.get("version") != FORMAT_VERSION:
        problems.append(
            f"field 'version' must be {FORMAT_VERSION}, found {shown(data.get('version'))} "
            "(this sceneplan reads version 1)"
        )
    raw_nodes, raw_links = data.get("nodes"), data.get("links", [])
    if not isinstance(raw_nodes, list):
        problems.append("field 'nodes' must be a list of node objects")
        raise GraphValidationError(source, problems)
    if not isinstance(raw_links, list):
        problems.append("field 'links' must be a list of [a, b] pairs")
        raw_links = []
    with gc_paused():
        clean = clean_nodes(raw_nodes, raw_links)
        nodes, links = clean or validate_by_node(raw_nodes, raw_links, problems)
        if owned:  # the nodes and links are copied: free the parsed ones before building
            raw_nodes.clear()
            raw_links.clear()
        if problems:
            raise GraphValidationError(source, problems)
        return SceneGraph.from_node_dict(
            nodes,
            links,
            name=str(data.get("name", "")),
            description=str(data.get("description", "")),
        )


def validate_by_node(
    raw_nodes: list, raw_links: list, problems: list[str]
) -> tuple[dict[str, Node], list[tuple[str, str]]]:
    """The valid nodes and links, with a message in `problems` for each problem found.

    The reference validator: node by node, with a pydantic model per node. It
    runs when the bulk check (`bulk.clean_nodes`) finds anything wrong, to find
    and word every problem; tests check that both accept the same files.
    """
    rejected: set[str] = set()
    nodes = _parse_nodes(raw_nodes, problems, rejected)
    links = _parse_links(raw_links, nodes, problems, rejected)
    _check_structure(nodes, problems, rejected)
    return nodes, links


def _parse_nodes(raw_nodes: list, problems: list[str], rejected: set[str]) -> dict[str, Node]:
    """The valid nodes by id; the ids of nodes rejected for a bad field go to `rejected`."""
    from pydantic import ValidationError

    model = node_record()
    nodes: dict[str, Node] = {}
    for index, raw in enumerate(raw_nodes):
        label = _label(raw, index)
        if not isinstance(raw, dict):
            problems.append(f"{label}: must be a JSON object")
            continue
        if isinstance(raw.get("id"), str):
            rejected.add(raw["id"])  # until the node is accepted below
            if not is_node_id(raw["id"]):
                problems.append(
                    f"{label}: field 'id': {shown(raw['id'])} is not a valid node id; "
                    + NODE_ID_RULE
                )
                continue
        try:
            record = model.model_validate(raw)
        except ValidationError as exc:
            reported: set[str] = set()
            for err in exc.errors():
                field = ".".join(str(part) for part in err["loc"][:1]) or "?"
                if field not in reported:  # a union (parent) fails once per alternative
                    reported.add(field)
                    problems.append(f"{label}: field '{field}': {_pydantic_message(err, field)}")
            continue
        if record.id in nodes:
            problems.append(f"node '{record.id}': field 'id': duplicate id")
            continue
        if record.position is not None and len(record.position) not in POSITION_LENGTHS:
            problems.append(
                f"{label}: field 'position': must be [x, y] or [x, y, z] in metres, "
                f"found {len(record.position)} number(s)"
            )
            continue
        if isinstance(record.parent, list):
            if len(record.parent) > 1:
                problems.append(
                    f"node '{record.id}': field 'parent': {record.kind.value} has two parents "
                    f"({', '.join(record.parent)}); a node has exactly one"
                )
                continue
            record.parent = record.parent[0] if record.parent else None
        rejected.discard(record.id)
        nodes[record.id] = Node(*map(_as_held, _record_values(record)))
    return nodes


_record_values = operator.attrgetter(*FIELD_NAMES)  # a record's values in Node's order


def _as_held(value: Any) -> Any:
    """A validated field's value as a Node holds it: a list as a tuple."""
    return tuple(value) if isinstance(value, list) else value


def _label(raw: Any, index: int) -> str:
    if isinstance(raw, dict) and isinstance(raw.get("id"), str):
        return f"node '{raw['id']}'" if raw["id"].strip() else f"node #{index} (empty id)"
    return f"node #{index} (no id)"


def _pydantic_message(err: Mapping[str, Any], field: str = "") -> str:
    if field == "parent" and err["type"] != "missing":
        return f"must be the id of one node, found {shown(err.get('input'))}"
    if err["type"] == "missing":
        return "missing required field"
    if err["type"] == "extra_forbidden":
        return "unknown field"
    if err["type"] == "enum":
        return f"unknown value {shown(err.get('input'))}; expected one of {err['ctx']['expected']}"
    return err["msg"]


def _parse_links(
    raw_links: list, nodes: dict[str, Node], problems: list[str], rejected: set[str]
) -> list[tuple[str, str]]:
    links: list[tuple[str, str]] = []
    for index, raw in enumerate(raw_links):
        if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, str) for x in raw)):
            problems.append(f"link #{index}: must be a pair of node ids, found {shown(raw)}")
            continue
        bad = False
        for end in raw:
            if end in rejected and end not in nodes:
                bad = True  # its node is reported already
            elif end not in nodes:
                problems.append(f"link #{index} {raw[0]}<->{raw[1]}: unknown node '{end}'")
                bad = True
            elif nodes[end].kind not in PLACE_KINDS:
                problems.append(
                    f"link #{index} {raw[0]}<->{raw[1]}: '{end}' is "
                    f"{nodes[end].kind.with_article}; links join rooms and poses only"
                )
                bad = True
        if not bad:
            links.append((raw[0], raw[1]))
    return links


def _check_structure(nodes: dict[str, Node], problems: list[str], rejected: set[str]) -> None:
    """Parents exist and have the right kind; relations fit; containment has no cycle."""
    agents = [n.id for n in nodes.values() if n.kind is NodeKind.AGENT]
    if len(agents) > 1:
        problems.append(
            f"the graph has {len(agents)} agent nodes ({', '.join(agents)}); at most one"
        )
    broken: set[str] = set()
    for node in nodes.values():
        where = f"node '{node.id}'"
        allowed = ALLOWED_PARENTS[node.kind]
        if node.parent is None:
            if None not in allowed:
                problems.append(
                    f"{where}: field 'parent': missing required field for {node.kind.with_article}"
                )
                broken.add(node.id)
        elif allowed == {None}:
            problems.append(
                f"{where}: field 'parent': {node.kind.with_article} has no parent; "
                f"remove the field (found '{node.parent}')"
            )
            broken.add(node.id)
        elif node.parent not in nodes and node.parent in rejected:
            broken.add(node.id)  # the parent's own problem is reported already
        elif node.parent not in nodes:
            problems.append(f"{where}: field 'parent': unknown parent '{node.parent}'")
            broken.add(node.id)
        elif nodes[node.parent].kind not in allowed:
            want = " or ".join(sorted(k.with_article for k in allowed if k is not None))
            problems.append(
                f"{where}: field 'parent': '{node.parent}' is "
                f"{nodes[node.parent].kind.with_article}; "
                f"the parent of {node.kind.with_article} must be {want}"
            )
            broken.add(node.id)
        if node.kind is NodeKind.OBJECT:
            _check_relation(node, nodes, problems)
        elif node.relation is not None:
            problems.append(f"{where}: field 'relation': only objects have a relation")
    _check_cycles(nodes, broken, problems)
    _check_hands(nodes, problems)


def _check_hands(nodes: dict[str, Node], problems: list[str]) -> None:
    """The agent holds no more objects than it has hands (`SceneGraph.hands`)."""
    held = [n.id for n in nodes.values() if n.relation is Relation.HELD and n.parent in nodes]
    for agent in (n for n in nodes.values() if n.kind is NodeKind.AGENT):
        mine = [h for h in held if nodes[h].parent == agent.id]
        hands = hands_of(agent)
        if len(mine) > hands:
            fix = (
                f"give it the attribute '{TWO_HANDED}' or put all but one down"
                if hands == 1
                else "put all but two down"
            )
            problems.append(
                f"node '{agent.id}': holds {len(mine)} objects ({', '.join(mine)}) with "
                f"{'one hand' if hands == 1 else 'two hands'}; {fix}"
            )


def _check_relation(node: Node, nodes: dict[str, Node], problems: list[str]) -> None:
    where = f"node '{node.id}'"
    if node.relation is None:
        problems.append(f"{where}: field 'relation': missing required field for an object")
        return
    parent = nodes.get(node.parent or "")
    if parent is None:
        return
    held = node.relation is Relation.HELD
    if held != (parent.kind is NodeKind.AGENT):
        problems.append(
            f"{where}: field 'relation': '{node.relation.value}' does not fit parent "
            f"'{parent.id}' ({parent.kind.value}); 'held' is for objects whose parent is the agent"
        )


def _check_cycles(nodes: dict[str, Node], broken: set[str], problems: list[str]) -> None:
    done: set[str] = set()
    for start in nodes:
        path: list[str] = []
        on_path: set[str] = set()
        current: str | None = start
        while current is not None and current not in done and current not in broken:
            if current in on_path:
                cycle = [*path[path.index(current) :], current]
                problems.append(
                    f"node '{current}': field 'parent': containment cycle " + " -> ".join(cycle)
                )
                break
            path.append(current)
            on_path.add(current)
            parent = nodes[current].parent
            current = parent if parent in nodes else None
        done.update(path)


def planning_problems(graph: SceneGraph) -> list[str]:
    """What a well-formed graph still lacks for planning (verify, solve, pddl, plan, execute).

    A graph file may load (`graph stats`, `graph show` and `view` take it)
    yet have nothing to plan in: `graph check` counts these as problems, so
    that it passes exactly the files every planning command accepts.
    """
    problems = []
    if not graph.of_kind(NodeKind.ROOM):
        problems.append("no room: a scene graph needs at least one node of kind 'room'")
    if not graph.has_agent:
        problems.append(
            "no agent: planning needs one node of kind 'agent' with a room as its parent, "
            'e.g. {"id": "agent", "kind": "agent", "parent": "kitchen"}'
        )
    return problems


def to_dict(graph: SceneGraph) -> dict[str, Any]:
    """The native-format dict of a graph; `from_dict(to_dict(g))` rebuilds it exactly."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": graph.name,
        "description": graph.description,
        "nodes": [node_to_dict(node) for node in graph],
        "links": [list(edge) for edge in graph.links()],
    }


FIELD_ORDER = FIELD_NAMES  # the order of a node's fields in native files


def native_node(**fields: Any) -> dict[str, Any]:
    """A node dict as written in native files: fields in FIELD_ORDER, empty ones left out.

    >>> native_node(kind="room", id="kitchen", parent=None, state=())
    {'id': 'kitchen', 'kind': 'room'}
    """
    unknown = set(fields) - set(FIELD_ORDER)
    if unknown:
        raise BadInputError(f"node {shown(fields.get('id'))}: unknown fields {sorted(unknown)}")
    return _written([(key, fields.get(key)) for key in FIELD_ORDER])


def node_to_dict(node: Node) -> dict[str, Any]:
    """One node as written in a native file: fields at their defaults are left out."""
    return _written(msgspec.to_builtins(node).items())


_EMPTY: tuple[object, ...] = ("", (), [])


def _written(fields: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The fields with a value, tuples as lists, in the order given."""
    return {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in fields
        if value is not None and value not in _EMPTY
    }


def save(graph: SceneGraph, path: str | Path) -> None:
    """Write a graph in the native format (see `format_text`)."""
    write_text(path, format_text(to_dict(graph)), "the graph file")


def format_text(data: dict[str, Any]) -> str:
    """Native-format JSON text that diffs well: one node per line, four links per line."""

    def enc(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    lines += [
        f" {enc(key)}: {enc(data[key])},"
        for key in ("format", "version", "name", "description")
        if key in data
    ]
    lines.append(' "nodes": [')
    lines.append(",\n".join(f"  {enc(node)}" for node in data["nodes"]))
    lines.append(" ],")
    lines.append(' "links": [')
    links = [enc(link) for link in data["links"]]
    rows = [", ".join(links[i : i + 4]) for i in range(0, len(links), 4)]
    lines.append(",\n".join(f"  {row}" for row in rows))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"
