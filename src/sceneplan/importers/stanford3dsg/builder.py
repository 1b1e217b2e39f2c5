"""What the Stanford 3D Scene Graph builder accumulates: nodes, links, boxes, the report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sceneplan.importers.base import ImportReport
from sceneplan.importers.stanford3dsg.classes import ClassSpec
from sceneplan.importers.stanford3dsg.geometry import Box, point

__all__ = ["Builder"]


@dataclass
class Builder:
    """Accumulates nodes and links in output order."""

    nodes: list[dict[str, Any]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    counters: Counter = field(default_factory=Counter)
    room_boxes: dict[str, Box] = field(default_factory=dict)
    asset_boxes: dict[str, Box] = field(default_factory=dict)
    room_of: dict[str, str] = field(default_factory=dict)
    pose_count: int = 0
    classes: dict[str, ClassSpec] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    report: ImportReport = field(default_factory=lambda: ImportReport("stanford3dsg"))

    def add(self, node: dict[str, Any]) -> dict[str, Any]:
        """Append a node; ids must be unique."""
        if node["id"] in self.by_id:
            raise ValueError(f"duplicate node id {node['id']}")
        self.nodes.append(node)
        self.by_id[node["id"]] = node
        return node

    def next_id(self, stem: str) -> str:
        """`stem` numbered from 0 in creation order (`chair0`, `chair1`, ...)."""
        index = self.counters[stem]
        self.counters[stem] += 1
        return f"{stem}{index}"

    def add_pose(self, floor: str, x: float, y: float, z: float) -> str:
        """A new pose node `poseN` on a floor; returns its id."""
        pose_id = f"pose{self.pose_count}"
        self.pose_count += 1
        self.add({"id": pose_id, "kind": "pose", "parent": floor, "position": point(x, y, z)})
        return pose_id
