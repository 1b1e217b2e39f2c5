"""Axis-aligned boxes of the Stanford 3D Scene Graph data, and positions as files write them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Box", "point", "r2"]


@dataclass(frozen=True)
class Box:
    """An axis-aligned bounding box; for a room, `zmin` is the elevation of its floor."""

    xmin: float
    xmax: float
    ymin: float
    ymax: float
    zmin: float
    zmax: float

    @classmethod
    def around(cls, centre: Sequence[float], size: Sequence[float]) -> Box:
        """The box of a dataset entity from its centre and size."""
        (x, y, z), (sx, sy, sz) = centre, size
        return cls(x - sx / 2, x + sx / 2, y - sy / 2, y + sy / 2, z - sz / 2, z + sz / 2)

    @property
    def centre(self) -> tuple[float, float, float]:
        return (self.xmin + self.xmax) / 2, (self.ymin + self.ymax) / 2, (self.zmin + self.zmax) / 2

    @property
    def volume(self) -> float:
        return (self.xmax - self.xmin) * (self.ymax - self.ymin) * (self.zmax - self.zmin)

    def gaps(self, other: Box) -> tuple[float, float]:
        """Distance between the boxes along x and y; negative values are overlaps."""
        gx = max(self.xmin, other.xmin) - min(self.xmax, other.xmax)
        gy = max(self.ymin, other.ymin) - min(self.ymax, other.ymax)
        return gx, gy

    def gap(self, other: Box) -> float:
        """How far apart the boxes are (0 when they touch or overlap)."""
        gx, gy = self.gaps(other)
        return math.hypot(max(gx, 0.0), max(gy, 0.0))

    def contact_centre(self, other: Box) -> tuple[float, float]:
        """The middle of the region between (or shared by) two boxes, in xy."""
        lo_x, hi_x = sorted((max(self.xmin, other.xmin), min(self.xmax, other.xmax)))
        lo_y, hi_y = sorted((max(self.ymin, other.ymin), min(self.ymax, other.ymax)))
        return (lo_x + hi_x) / 2, (lo_y + hi_y) / 2

    def distance_to(self, x: float, y: float) -> float:
        """Horizontal distance from a point to the box (0 inside)."""
        dx = max(self.xmin - x, 0.0, x - self.xmax)
        dy = max(self.ymin - y, 0.0, y - self.ymax)
        return math.hypot(dx, dy)


def r2(value: float) -> float:
    """Round to centimetres, without negative zero."""
    return round(value, 2) + 0.0


def point(*coords: float) -> list[float]:
    """A position as written in the file."""
    return [r2(c) for c in coords]
