"""The fast paths of graph loading: whole-column checks that accept only clean files.

`decode_clean` decodes a native file's bytes straight into `Node`s with msgspec
(types, enums, unknown fields and position lengths checked in C while parsing,
with no dict per node); `clean_nodes` does the same for node and link
lists already parsed into dicts (`from_dict`). Both then check the rest a
column at a time (every id, every kind, every parent...) with set and map
operations that run in C, and build the nodes without a per-node validation
object. They are stricter than the per-node validator in `io.py`, never more
lenient: they answer None for any file they are not sure of (a wrong type
anywhere, an int where a bool could hide, a cycle, a duplicate, JSON that
msgspec words differently from json) and the per-node validator then runs and
words every problem. So a valid file loads fast and a bad one gets exactly the
messages it always got.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, Literal, NamedTuple, get_type_hints

from sceneplan.graph.model import (
    ALLOWED_PARENTS,
    FIELD_NAMES,
    NODE_FIELDS,
    PLACE_KINDS,
    POSITION_LENGTHS,
    Node,
    NodeKind,
    Relation,
)

FORMAT_NAME = "sceneplan-graph"  # the native format's name and version, as files carry them
FORMAT_VERSION = 1
FIELDS = frozenset(FIELD_NAMES)  # the fields a node may have in a file
_KINDS = {kind.value: kind for kind in NodeKind}
_RELATIONS: dict[str | None, Relation | None] = {r.value: r for r in Relation} | {None: None}
_ID_CHAR = re.compile(r"[\w\-.]")  # one character of graph.model.NODE_ID
_ASCII_ID_BYTES = bytes(c for c in range(128) if _ID_CHAR.fullmatch(chr(c)))
_NONE = type(None)
_STR_OR_NONE = frozenset({str, _NONE})
_LISTS = frozenset({list, tuple})
_NO_LIST: list = []  # the value of a list field a node leaves out (never changed)
_NUMBERS = frozenset({float, int})


class _NoNode:
    kind = None  # the kind of the parent of a node that has none


_NO_NODE = _NoNode()

# (kind, relation, kind of parent) triples that pass every structure check.
_FITS = frozenset(
    (kind, relation, parent)
    for kind in NodeKind
    for parent in ALLOWED_PARENTS[kind]
    for relation in (
        ((Relation.HELD,) if parent is NodeKind.AGENT else (Relation.ONTOP_OF, Relation.INSIDE_OF))
        if kind is NodeKind.OBJECT
        else (None,)
    )
)


def clean_nodes(
    raw_nodes: list, raw_links: list
) -> tuple[dict[str, Node], list[tuple[str, str]]] | None:
    """The nodes by id and the links of a file with no problem at all, else None."""
    if not raw_nodes:
        return None
    try:
        # Each error is a value no valid file has: a non-dict node (dict.get refuses it),
        # a non-string id (str.join refuses it), an unknown kind (KeyError)...
        return _clean_nodes(raw_nodes, raw_links)
    except (TypeError, KeyError, OverflowError):
        return None


def _clean_nodes(
    raw_nodes: list, raw_links: list
) -> tuple[dict[str, Node], list[tuple[str, str]]] | None:
    keys = set(chain.from_iterable(raw_nodes))
    if not keys <= FIELDS:
        return None
    n = len(raw_nodes)
    columns: dict[str, list] = {}  # each field's values, by its name in Node
    for field in NODE_FIELDS:
        if field.encode_name not in keys and field.name not in _REQUIRED:
            columns[field.name] = [field.default] * n  # no node gives it
            continue
        given = map(dict.get, raw_nodes, repeat(field.encode_name), repeat(_ABSENT[field.name]))
        column = _CHECK[field.name](given)
        if column is None:
            return None
        columns[field.name] = column
    ids, kinds = columns["id"], columns["kind"]
    parents, relations = columns["parent"], columns["relation"]
    by_id = dict(zip(ids, map(Node, *columns.values()), strict=True))
    if len(by_id) != n:  # a duplicate id
        return None
    if not _structure_fits(by_id, kinds, parents, relations):
        return None
    links = _links(raw_links, by_id)
    if links is None:
        return None
    return by_id, links


class CleanFile(NamedTuple):
    """A native file that passed every check: its header, nodes by id and links."""

    name: str
    description: str
    nodes: dict[str, Node]
    links: list[tuple[str, str]]


def decode_clean(raw: bytes) -> CleanFile | None:
    """The contents of a native-format file with no problem at all, else None.

    msgspec decodes the nodes straight into `Node`s (a Struct that forbids unknown
    fields), checking every field's type while it parses; ids, parents and links
    are then checked a column at a time.
    """
    import msgspec

    try:
        data = _file_decoder().decode(raw)
    except (msgspec.DecodeError, ValueError, RecursionError):  # any refusal (bad UTF-8...)
        return None
    nodes: list[Node] = data.nodes
    ids = list(map(_node_id, nodes))
    if not nodes or not _valid_ids(ids):
        return None
    by_id = dict(zip(ids, nodes, strict=True))
    if len(by_id) != len(nodes):  # a duplicate id
        return None
    kinds, parents = list(map(_kind, nodes)), list(map(_parent, nodes))
    if not _structure_fits(by_id, kinds, parents, list(map(_relation, nodes))):
        return None
    ends = set(chain.from_iterable(data.links))
    if not set(map(_kind, map(by_id.get, ends, repeat(_NO_NODE)))) <= PLACE_KINDS:
        return None
    return CleanFile(data.name, data.description, by_id, data.links)


@functools.cache
def _file_decoder() -> Any:
    """msgspec's decoder of a native file (built on first use).

    Unknown top-level fields are ignored, as the reference validator ignores them.
    A format or version that is not exactly the native one (even `1.0`) is left
    to the reference validator.
    """
    import msgspec

    native_file = msgspec.defstruct(
        "NativeFile",
        [
            ("format", Literal[FORMAT_NAME]),
            ("version", Literal[FORMAT_VERSION]),
            ("nodes", list[Node]),
            ("links", list[tuple[str, str]], []),
            ("name", str, ""),
            ("description", str, ""),
        ],
    )
    return msgspec.json.Decoder(native_file)


def _only(types: Iterable[object], allowed: Iterable[object]) -> bool:
    return set(types) <= set(allowed)


def _valid_ids(ids: list) -> bool:
    """Every id is a string matching NODE_ID: not empty, and only id characters."""
    joined = "\n".join(ids)  # TypeError unless every id is a string
    if not all(ids) or joined.count("\n") != len(ids) - 1:
        return False
    if joined.isascii():  # the usual case: delete every id byte, and only newlines remain
        rest = joined.encode("ascii").translate(None, _ASCII_ID_BYTES)
        return rest.count(b"\n") == len(rest)
    return all(_ID_CHAR.fullmatch(c) for c in set(joined) - {"\n"})


def _tuples(lists: Iterable) -> list[tuple[str, ...]] | None:
    """Lists of strings as tuples, or None if one is not a list of strings."""
    # list.__iter__ refuses anything but a list (TypeError): a string or a dict would
    # otherwise pass as a tuple of its characters or keys.
    tuples = list(map(tuple, map(list.__iter__, lists)))
    if not _only(map(type, set(chain.from_iterable(tuples))), {str}):
        return None
    return tuples


def _positions(column: list) -> list[tuple[float, ...] | None] | None:
    """Positions as tuples of floats, or None if one is not 2 or 3 finite numbers."""
    given = [p for p in column if p is not None]
    if not _only(map(type, given), _LISTS) or not _only(map(len, given), POSITION_LENGTHS):
        return None
    numbers = list(chain.from_iterable(given))
    if not _only(map(type, numbers), _NUMBERS) or not all(map(math.isfinite, numbers)):
        return None  # math.isfinite raises OverflowError for an int too large for a float
    return [None if p is None else tuple(map(float, p)) for p in column]


def _ids(values: Iterable) -> list | None:
    ids = list(values)
    return ids if _valid_ids(ids) else None


def _optional_strings(values: Iterable) -> list | None:
    column = list(values)
    return column if _only(map(type, column), _STR_OR_NONE) else None


# How the column of each type of Node field is checked and converted, from the values the
# parsed nodes give (None: not a clean file). A list field's value is a tuple in a Node.
# Raising TypeError, KeyError or OverflowError also means "not clean" (see clean_nodes).
_COLUMN_OF: dict[Any, Callable[[Iterable], list | None]] = {
    str: _ids,
    NodeKind: lambda values: list(map(_KINDS.__getitem__, values)),
    Relation | None: lambda values: list(map(_RELATIONS.__getitem__, values)),
    str | None: _optional_strings,
    tuple[str, ...]: _tuples,
    tuple[float, ...] | None: lambda values: _positions(list(values)),
}
# Each field's check, by its type without Annotated marks: a field of a new type
# fails here, at import, until _COLUMN_OF has a check for it.
_CHECK = {name: _COLUMN_OF[hint] for name, hint in get_type_hints(Node).items()}
_REQUIRED = frozenset(field.name for field in NODE_FIELDS if field.required)
# The value a field has in a parsed node that leaves it out, as a file would write it.
_ABSENT = {
    field.name: None if field.required else _NO_LIST if field.default == () else field.default
    for field in NODE_FIELDS
}


_kind = attrgetter("kind")
_node_id = attrgetter("id")
_parent = attrgetter("parent")
_relation = attrgetter("relation")


def _structure_fits(by_id: dict[str, Node], kinds: list, parents: list, relations: list) -> bool:
    """Parents exist with an allowed kind, relations fit, one agent at most, no cycle."""
    if kinds.count(NodeKind.AGENT) > 1 or relations.count(Relation.HELD) > 1:
        return False  # (two held objects: the per-node check asks whether it has two hands)
    # A missing parent and one that is not a node both give the kind None: count them.
    parent_kinds = list(map(_kind, map(by_id.get, parents, repeat(_NO_NODE))))
    if parent_kinds.count(None) != parents.count(None):  # a parent that is not a node
        return False
    triples = set(zip(kinds, relations, parent_kinds, strict=True))
    if not triples <= _FITS:
        return False
    if (NodeKind.OBJECT, Relation.ONTOP_OF, NodeKind.OBJECT) not in triples and (
        NodeKind.OBJECT,
        Relation.INSIDE_OF,
        NodeKind.OBJECT,
    ) not in triples:
        return True
    # Only objects may have a parent of their own kind, so only they can form a cycle.
    nested = {
        node.id: node.parent
        for node, parent_kind in zip(by_id.values(), parent_kinds, strict=True)
        if node.kind is NodeKind.OBJECT and parent_kind is NodeKind.OBJECT
    }
    return not _has_cycle(nested)


def _has_cycle(parent_of: dict[str, str | None]) -> bool:
    done: set[str] = set()
    for start in parent_of:
        path: set[str] = set()
        current: str | None = start
        while current is not None and current not in done:
            if current in path:
                return True
            path.add(current)
            current = parent_of.get(current)
        done.update(path)
    return False


def _links(raw_links: list, by_id: dict[str, Node]) -> list[tuple[str, str]] | None:
    """The links as pairs, or None unless each is a list of two ids of rooms or poses."""
    if not raw_links:
        return []
    if not _only(map(type, raw_links), {list}) or not _only(map(len, raw_links), {2}):
        return None
    ends = set(chain.from_iterable(raw_links))
    if not _only(map(type, ends), {str}):
        return None
    if not set(map(_kind, map(by_id.get, ends, repeat(_NO_NODE)))) <= PLACE_KINDS:
        return None
    return list(map(tuple, raw_links))
