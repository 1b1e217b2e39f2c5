"""Bounded prompts at any size: the hierarchical view at 100 / 1,000 / 10,000 rooms.

Run `python benchmarks/hierarchy.py [--sizes 100 1000 10000]`. For each synthetic
building (benchmarks/synthetic.py, 40 assets and objects per room):
- rooms view: the tokens of SayPlan's collapse to rooms (what `collapse=rooms` shows);
- depth: the containers above a room in the place hierarchy (building, floor
  groups, floors, zones);
- initial view: the tokens of the graph the search starts from (`--collapse`, as
  the planners' option: auto by default),
  and of SayPlan's whole first request (system prompt and first search turn);
- the scripted search: from the initial view, reach the ground floor's first
  room (expanding each container on its way, then the room), then leave it,
  contracting what it leaves up to the container the two rooms share, and reach
  the top floor's last room the same way, then switch to planning. `max view`
  and `max prompt` are the largest graph text and whole request along the way;
  `turns` counts the search turns to the last room (its expands and the
  switch), the figure that should grow with the depth, not with the rooms.
Then the collapsed Office and Home graphs (SayPlan's Table 2 figure for the
Office is 878 tokens).
Targets (issue 15): the initial prompt <= 2,000 tokens at every size (its graph
and the whole request are both printed); every view the scripted search passes
through <= 4,000 tokens; turns grow with depth. The graph is what grows with
the building; the rest of a request (the static system prompt, about 1,500
tokens with the actions the scene affords, and the turn's frame) does not.
"""

from __future__ import annotations

import argparse
import json
import time

from synthetic import first_and_last_room, synthetic_building  # benchmarks/ is sys.path[0]

from sceneplan.datasets import load_environment
from sceneplan.graph import SceneGraph, collapse, count_tokens, from_dict, view_to_text
from sceneplan.graph.views import GraphView
from sceneplan.planners.dialogue import Dialogue, graph_text, memory_text, render
from sceneplan.planners.search import SEARCH_TURN, initial_view
from sceneplan.planners.shared import actions_text
from sceneplan.world import Simulator

SIZES = (100, 1_000, 10_000)
INITIAL_TARGET = 2000
VIEW_TARGET = 4000
OFFICE_TARGET, HOME_TARGET = 878, 1817
INSTRUCTION = "Bring the apple from the last room of the top floor to the first room."


def system_prompt(graph: SceneGraph, view: GraphView) -> str:
    """SayPlan's search system prompt for `view`, as the planner writes it."""
    mode = "rooms" if view.hierarchy is None else "hierarchy"
    return render(
        "sayplan_system.md",
        view=render(f"sayplan_view_{mode}.md"),
        actions=actions_text(Simulator(graph)),
        navigation=render("sayplan_nav_path_planner.md"),
        answer="",
        example_plan=render("sayplan_example_plan.md"),
    )


def request_tokens(system: str, view: GraphView, feedback: str = "none") -> tuple[int, int]:
    """Tokens of the graph text, and of the whole Markovian request that shows it."""
    graph = graph_text(view)
    dialogue = Dialogue(system, markov=True)
    dialogue.user_turn(
        SEARCH_TURN,
        graph=graph,
        instruction=INSTRUCTION,
        memory=memory_text(view),
        feedback=feedback,
    )
    return count_tokens(graph), dialogue.tokens()


def path_down(view: GraphView, room: str) -> list[str]:
    """The containers to expand, top down, to show `room`, then the room."""
    above = view.hierarchy.ancestors(room) if view.hierarchy else []
    return [a for a in reversed(above) if a not in view.expanded] + [room]


def scripted_search(graph: SceneGraph, view: GraphView, system: str) -> dict[str, int]:
    """Reach the first room, contract back to what it shares with the last, reach the last."""
    first, last = first_and_last_room(sum(1 for n in graph if n.kind.value == "room"))
    views, prompts = [], []

    def show() -> None:
        g, p = request_tokens(system, view)
        views.append(g)
        prompts.append(p)

    show()
    for node in path_down(view, first):
        view.expand(node)
        show()
    shared = set(view.hierarchy.ancestors(last)) if view.hierarchy else set()
    leaving = [first, *(view.hierarchy.ancestors(first) if view.hierarchy else [])]
    for node in leaving:
        if node in shared:
            break
        view.contract(node)
        show()
    turns = 0
    for node in path_down(view, last):
        view.expand(node)
        turns += 1
        show()
    turns += 1  # the switch to planning
    return {"max view": max(views), "max prompt": max(prompts), "turns": turns}


def measure(rooms: int, how: str = "auto") -> dict[str, object]:
    started = time.perf_counter()
    graph = from_dict(synthetic_building(rooms))
    row: dict[str, object] = {"rooms": rooms}
    row["rooms view"] = count_tokens(view_to_text(collapse(graph)))
    view = initial_view(graph, how)
    row["view"] = "rooms" if view.hierarchy is None else "hierarchy"
    row["depth"] = view.hierarchy.depth() if view.hierarchy else 1
    system = system_prompt(graph, view)
    row["initial view"], row["initial prompt"] = request_tokens(system, view)
    row.update(scripted_search(graph, view, system))
    row["s"] = round(time.perf_counter() - started, 1)
    return row


def table(rows: list[dict[str, object]]) -> str:
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        cells = [f"{v:,}" if isinstance(v, int) else str(v) for v in row.values()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument(
        "--collapse",
        choices=("auto", "rooms", "hierarchy"),
        default="auto",
        help="the view the search starts from, as the planners' option (default auto)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = [measure(n, args.collapse) for n in args.sizes]
    office = count_tokens(view_to_text(collapse(load_environment("office"))))
    home = count_tokens(view_to_text(collapse(load_environment("home"))))
    if args.json:
        print(json.dumps({"sizes": rows, "office": office, "home": home}, indent=2))
        return
    print(table(rows))
    ok = all(r["initial view"] <= INITIAL_TARGET and r["max view"] <= VIEW_TARGET for r in rows)
    print(
        f"\ntargets: initial view <= {INITIAL_TARGET:,}, max view <= {VIEW_TARGET:,} tokens: "
        f"{'met' if ok else 'NOT met'}"
    )
    print(f"collapsed Office: {office} tokens (target <= {OFFICE_TARGET})")
    print(f"collapsed Home: {home} tokens (target <= {HOME_TARGET})")


if __name__ == "__main__":
    main()
