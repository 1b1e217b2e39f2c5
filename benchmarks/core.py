"""Core speed benchmark: load, views, prompt text, tokens and paths on synthetic buildings.

Run `python benchmarks/core.py [--quick]`. Each column comes from one function in
MEASUREMENTS; add a measurement by writing one more function there.
Targets: expand/contract under 1 ms and a 50-step verify_plan under 5 ms at
10,000 rooms; the collapsed view's text
and time must not grow with the number of hidden objects (second table).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from synthetic import (
    first_and_last_room,
    room_id,
    synthetic_building,
)  # run as a script: benchmarks/ is sys.path[0]

from sceneplan.graph import SceneGraph, collapse, count_tokens, from_dict, view_to_text
from sceneplan.graph.model import NodeKind
from sceneplan.nav import Navigator
from sceneplan.world import Action, Simulator

SIZES = (10, 100, 1_000, 10_000)
ITEMS_PER_ROOM = 40
HIDDEN_SWEEP = (10, 40, 80)  # items per room for the hidden-objects table
SWEEP_ROOMS = 1_000


@dataclass
class Case:
    """One synthetic building, with its file dict and the loaded graph."""

    rooms: int
    items_per_room: int
    data: dict[str, Any]
    graph: SceneGraph = field(init=False)

    def __post_init__(self) -> None:
        self.graph = from_dict(self.data)


def best_of(action: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


# -- measurements: each takes a Case and returns {column: formatted value} -------------


def nodes(case: Case) -> dict[str, str]:
    return {"nodes": f"{len(case.graph):,}"}


def load(case: Case) -> dict[str, str]:
    return {"load s": f"{best_of(lambda: from_dict(case.data), repeat=1):.2f}"}


def collapse_view(case: Case) -> dict[str, str]:
    return {"collapse ms": f"{best_of(lambda: collapse(case.graph)) * 1e3:.1f}"}


def expand_contract(case: Case, samples: int = 200) -> dict[str, str]:
    """Mean time of one expand or contract of a room (each reveals about 40 nodes)."""
    view = collapse(case.graph)
    rng = random.Random(1)
    rooms = [room_id(rng.randrange(case.rooms)) for _ in range(samples)]
    times = []
    for room in rooms:
        start = time.perf_counter()
        view.expand(room)
        view.contract(room)
        times.append((time.perf_counter() - start) / 2)
    return {"expand/contract ms": f"{statistics.mean(times) * 1e3:.3f}"}


def serialize_collapsed(case: Case) -> dict[str, str]:
    view = collapse(case.graph)
    text = view_to_text(view)
    return {
        "serialize ms": f"{best_of(lambda: view_to_text(view)) * 1e3:.2f}",
        "text chars": f"{len(text):,}",
    }


def collapsed_tokens(case: Case) -> dict[str, str]:
    return {"tokens": f"{count_tokens(view_to_text(collapse(case.graph))):,}"}


def path_query(case: Case) -> dict[str, str]:
    """Dijkstra between the two farthest rooms (first of floor 0, last of the top floor)."""
    a, b = first_and_last_room(case.rooms)
    seconds = best_of(lambda: nx.dijkstra_path(case.graph.topology, a, b, weight="weight"))
    return {"path ms": f"{seconds * 1e3:.2f}"}


def fifty_step_plan(graph: SceneGraph) -> list[Action]:
    """An executable 50-step plan: fetch objects room by room along the corridor."""
    sim, nav = Simulator(graph), Navigator(graph)
    state, plan, holding = sim.initial_state(), [], False
    rooms = [n.id for n in graph.of_kind(NodeKind.ROOM)]
    for room in rooms[1:] + rooms * 5:  # back and forth when the building is small
        if room == state.agent_at:
            continue
        steps = nav.expand_plan([f"goto({room})"], start=state.agent_at)
        for asset in graph.children(room):
            things = graph.children(asset)
            if not things:
                continue
            steps.append(Action("access", (asset,)))
            if "closed" in graph.nodes[asset].state:
                steps.append(Action("open", (asset,)))
            thing = state.held[0] if state.held else things[0]
            steps.append(Action("release" if holding else "pickup", (thing,)))
            break
        for action in steps:
            state, failure = sim.step(state, action)
            assert failure is None, failure.message
            plan.append(action)
        holding = bool(state.held)
        if len(plan) >= 50:
            return plan[:50]
    raise ValueError("the building is too small for a 50-step plan")


def verify_plan(case: Case) -> dict[str, str]:
    """Forward simulation of an executable 50-step plan (parsed actions, poses included)."""
    sim = Simulator(case.graph)
    plan = fifty_step_plan(case.graph)
    assert sim.verify_plan(plan).ok
    return {"verify 50 ms": f"{best_of(lambda: sim.verify_plan(plan), repeat=20) * 1e3:.3f}"}


MEASUREMENTS: list[Callable[[Case], dict[str, str]]] = [
    nodes,
    load,
    collapse_view,
    expand_contract,
    serialize_collapsed,
    collapsed_tokens,
    path_query,
    verify_plan,
]

HIDDEN_MEASUREMENTS: list[Callable[[Case], dict[str, str]]] = [
    nodes,
    serialize_collapsed,
    collapsed_tokens,
    expand_contract,
]


def table(rows: list[dict[str, str]]) -> str:
    """A plain text table with right-aligned columns."""
    columns = list(rows[0])
    widths = [max(len(c), *(len(r[c]) for r in rows)) for c in columns]
    lines = ["  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(r[c].rjust(w) for c, w in zip(columns, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def run(sizes: tuple[int, ...], sweep_rooms: int) -> None:
    rows = []
    for rooms in sizes:
        case = Case(rooms, ITEMS_PER_ROOM, synthetic_building(rooms, ITEMS_PER_ROOM))
        row = {"rooms": f"{rooms:,}"}
        for measure in MEASUREMENTS:
            row.update(measure(case))
        rows.append(row)
        print(f"  done: {rooms:,} rooms", file=sys.stderr, flush=True)
    print(f"Synthetic buildings, {ITEMS_PER_ROOM} assets and objects per room\n")
    print(table(rows))
    rows = []
    for items in HIDDEN_SWEEP:
        case = Case(sweep_rooms, items, synthetic_building(sweep_rooms, items))
        row = {"items/room": str(items)}
        for measure in HIDDEN_MEASUREMENTS:
            row.update(measure(case))
        rows.append(row)
    print(f"\nCollapsed view of {sweep_rooms:,} rooms as hidden assets and objects grow\n")
    print(table(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the sizes up to 1,000 rooms")
    args = parser.parse_args()
    run(SIZES[:3] if args.quick else SIZES, 100 if args.quick else SWEEP_ROOMS)


if __name__ == "__main__":
    main()
