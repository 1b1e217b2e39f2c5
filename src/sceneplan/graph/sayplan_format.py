"""Import of the scene-graph format printed in the SayPlan paper's appendix.

That format groups nodes by kind (`{"nodes": {"room": [...], ...}}`) and lists
every edge as a string `"a<->b"`. It is converted to a native-format dict,
which the native validator then checks.
"""

from __future__ import annotations

import re
from typing import Any

from sceneplan.errors import GraphValidationError
from sceneplan.textinput import shown

# Node ids as the native format allows them (graph.model.NODE_ID).
_RELATION_STATE = re.compile(r"^\s*(ontop_of|inside_of)\(\s*([\w\-.]+)\s*\)\s*$")
_LINK = re.compile(r"^\s*([\w\-.]+)\s*(?:<->|↔|\+)\s*([\w\-.]+)\s*$")
_PLACES = ("room", "pose")
_MEANINGLESS_STATES = {"free", ""}


def from_sayplan_dict(data: dict[str, Any], source: str) -> dict[str, Any]:
    """Convert a SayPlan-style graph dict into the native format."""
    problems: list[str] = []
    groups: dict[str, list] = data["nodes"]
    kind_of: dict[str, str] = {}
    records: list[dict[str, Any]] = []
    for kind, items in groups.items():
        if not isinstance(items, list):
            problems.append(f"nodes.{kind}: must be a list of node objects")
            continue
        for raw in items:
            record = _convert(kind, raw, problems)
            if record is not None:
                kind_of[record["id"]] = record["kind"]
                records.append(record)
    by_id = {r["id"]: r for r in records}
    links: list[list[str]] = []
    containers: dict[str, list[str]] = {}
    raw_links = data.get("links", [])
    if not isinstance(raw_links, list):
        problems.append("field 'links' must be a list of 'a<->b' strings")
        raw_links = []
    for raw in raw_links:
        match = _LINK.match(raw) if isinstance(raw, str) else None
        if match is None:
            problems.append(f"link {shown(raw)}: expected the form 'a<->b'")
            continue
        a, b = match.groups()
        kinds = (kind_of.get(a), kind_of.get(b))
        if None in kinds:
            unknown = a if kinds[0] is None else b
            problems.append(f"link '{a}<->{b}': unknown node '{unknown}'")
        elif kinds[0] in _PLACES and kinds[1] in _PLACES:
            links.append([a, b])
        elif "object" in kinds:
            obj, other = (a, b) if kinds[0] == "object" and kinds[1] != "object" else (b, a)
            containers.setdefault(obj, []).append(other)
    for obj, parents in containers.items():
        record = by_id[obj]
        given = record.get("parent")
        unique = list(dict.fromkeys(parents))
        if given is None:
            record["parent"] = unique if len(unique) > 1 else unique[0]
            record.setdefault("relation", "ontop_of")
        elif any(p != given for p in unique):
            record["parent"] = [given, *[p for p in unique if p != given]]
    if problems:
        raise GraphValidationError(source, problems)
    return {
        "format": "sceneplan-graph",
        "version": 1,
        "name": data.get("name", ""),
        "nodes": records,
        "links": links,
    }


def _convert(kind: str, raw: Any, problems: list[str]) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        problems.append(f"nodes.{kind}: entry {shown(raw)} has no string 'id'")
        return None
    out: dict[str, Any] = {"id": raw["id"], "kind": kind}
    for key, value in raw.items():
        if key == "id":
            continue
        if key in ("room", "location", "floor", "building"):
            out["parent"] = value
        elif key == "state":
            _convert_state(out, value)
        elif key in ("attributes", "affordances"):
            out[key] = [value] if isinstance(value, str) else value
        else:
            out[key] = value
    return out


def _convert_state(out: dict[str, Any], value: Any) -> None:
    words = [value] if isinstance(value, str) else list(value or [])
    kept = []
    for word in words:
        match = _RELATION_STATE.match(word) if isinstance(word, str) else None
        if match:
            out["relation"], out["parent"] = match.groups()
        elif word not in _MEANINGLESS_STATES:
            kept.append(word)
    if kept:
        out["state"] = kept
