"""Joining the pieces of a Hydra graph that its own edges leave apart.

Hydra links places to their neighbours as it explores; a partial run (or a
room detection that cut a corridor) can leave rooms with their places in a
piece no edge joins to the rest. Two pieces are joined by a link between their
closest places (or rooms) when these are no farther apart than the longest
place-place edge Hydra itself drew in the file: a gap of that size is one the
robot crossed elsewhere. Pieces farther apart stay apart. Each join, and each
piece left apart, is a note of the report (its counts are the file's nodes).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

from sceneplan.importers.base import ImportReport

__all__ = ["join_pieces"]

DEFAULT_REACH = 2.0  # metres, when the file has no place-place edge to measure


def join_pieces(
    positions: Mapping[str, Sequence[float] | None],
    links: set[tuple[str, str]],
    rooms: set[str],
    poses: set[str],
    report: ImportReport,
) -> None:
    """Add to `links` the joins between pieces (rooms and poses by id), counted and noted."""
    places = {n for n in rooms | poses if positions.get(n) is not None}
    pose_links = [math.dist(_xyz(positions, a), _xyz(positions, b)) for a, b in links
                  if a in poses and b in poses and a in places and b in places]  # fmt: skip
    reach = max(pose_links, default=DEFAULT_REACH) or DEFAULT_REACH
    piece = {n: n for n in rooms | poses}

    def find(n: str) -> str:
        while piece[n] != n:
            piece[n] = piece[piece[n]]
            n = piece[n]
        return n

    for a, b in links:
        if a in piece and b in piece:
            piece[find(a)] = find(b)
    if len({find(n) for n in piece}) == 1:
        return
    for distance, a, b in _close_pairs(positions, places, reach):
        if find(a) != find(b):
            piece[find(a)] = find(b)
            links.add((min(a, b), max(a, b)))
            report.notes.append(
                f"{a} - {b}: joins two pieces no edge of the file joins ({distance:.1f} m apart, "
                f"within the file's longest place edge, {reach:.1f} m)"
            )
    apart: dict[str, list[str]] = defaultdict(list)
    for room in sorted(rooms):
        apart[find(room)].append(room)
    if len(apart) > 1:
        main = max(apart.values(), key=len)
        for members in apart.values():
            if members is not main:
                report.notes.append(
                    f"{', '.join(members)} stay apart: no place of theirs is within "
                    f"{reach:.1f} m (the file's longest place edge) of the rest"
                )


def _xyz(positions: Mapping[str, Sequence[float] | None], n: str) -> tuple[float, ...]:
    where = positions[n]
    assert where is not None
    return tuple(float(v) for v in where[:3])


def _close_pairs(
    positions: Mapping[str, Sequence[float] | None], places: set[str], reach: float
) -> list[tuple[float, str, str]]:
    """Pairs of places at most `reach` apart, closest first (a grid of `reach`-sized cells)."""
    cells: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for n in sorted(places):
        cells[tuple(math.floor(v / reach) for v in _xyz(positions, n))].append(n)
    pairs = []
    for cell, members in cells.items():
        near = [
            m
            for offset in _offsets(len(cell))
            for m in cells.get(tuple(c + o for c, o in zip(cell, offset, strict=True)), ())
        ]
        for a in members:
            for b in near:
                if a < b:
                    distance = math.dist(_xyz(positions, a), _xyz(positions, b))
                    if distance <= reach:
                        pairs.append((distance, a, b))
    return sorted(set(pairs))


def _offsets(dimensions: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(dimensions):
        out = [(*o, d) for o in out for d in (-1, 0, 1)]
    return out
