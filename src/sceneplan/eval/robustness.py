"""How each method holds up as the simulated stand-in model errs more (`--llm simulated:...`).

One row per method (planner with its options: `sayplan[max_replans=0]` is SayPlan without
its replanning) and error rate of the stand-in: success and executability over its
episodes, the errors injected, and how many were malformed replies the client had to
repair or re-ask. The plot is success against error rate, one line per method; the
recovery a loop buys is the gap between a method and its loop-off option.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sceneplan.eval.store import Record
from sceneplan.planners.options import planner_label
from sceneplan.simulated.profiles import Kind, parse_profile

Row = dict[str, Any]
PREFIX = "simulated:"
# (a method with its loop, the same method without it, the loop): the recovery it buys
LOOPS = (
    ("sayplan", "sayplan[max_replans=0]", "iterative replanning"),
    ("react_pv", "react", "precondition verification"),
    ("lookplangraph", "lookplangraph[max_corrections=0]", "corrections"),
)


def robustness(records: Sequence[Record]) -> list[Row]:
    """Success and executability per method and stand-in error rate (other models left out)."""
    groups: dict[tuple[str, float], list[Any]] = defaultdict(list)
    for record in records:
        episode = record.episode
        if not episode.model.startswith(PREFIX):
            continue
        rate = parse_profile(episode.model.removeprefix(PREFIX)).rate
        groups[(planner_label(episode.planner, episode.options), rate)].append(episode)
    rows = []
    for (method, rate), episodes in sorted(groups.items()):
        injected = [e for ep in episodes for e in ep.simulated_errors or []]
        n = len(episodes)
        rows.append(
            {
                "method": method,
                "error_rate": rate,
                "n": n,
                "success": sum(ep.status.value == "success" for ep in episodes) / n,
                "executable": sum(bool(ep.executable) for ep in episodes) / n,
                "injected": len(injected),
                "malformed": sum(e["kind"] == Kind.MALFORMED.value for e in injected),
            }
        )
    return rows


def markdown(rows: list[Row]) -> str:
    """The report section, or '' without runs of the stand-in."""
    if not rows:
        return ""
    lines = [
        "## Robustness to model errors (simulated stand-in)",
        "",
        "| Method | Error rate | n | Success | Executable | Errors injected | Malformed |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {r['method']} | {r['error_rate']:g} | {r['n']} | {r['success']:.0%} | "
        f"{r['executable']:.0%} | {r['injected']} | {r['malformed']} |"
        for r in rows
    ]
    found = {(r["method"], r["error_rate"]): r for r in rows}
    recovery = [
        f"| {loop} | {rate:g} | {found[(on, rate)]['success'] - found[(off, rate)]['success']:+.0%}"
        f" | {found[(on, rate)]['executable'] - found[(off, rate)]['executable']:+.0%} |"
        for on, off, loop in LOOPS
        for rate in sorted({r["error_rate"] for r in rows})
        if (on, rate) in found and (off, rate) in found
    ]
    if recovery:
        lines += [
            "",
            "What each loop buys (the method with it, less the same method without it):",
            "",
            "| Loop | Error rate | Success | Executable |",
            "| --- | --- | --- | --- |",
            *recovery,
        ]
    return "\n".join(lines)


def draw(rows: list[Row], figure: Any) -> bool:
    """Success against error rate, one line per method; False without data."""
    if not rows:
        return False
    axes = figure.subplots()
    lines: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        lines[r["method"]].append((r["error_rate"], r["success"]))
    for method, points in sorted(lines.items()):
        xs, ys = zip(*sorted(points), strict=True)
        axes.plot(xs, ys, marker="o", label=method)
    axes.set_xlabel("stand-in error rate (per reply)")
    axes.set_ylabel("success")
    axes.set_ylim(0, 1.05)
    axes.set_title("Success against model error rate")
    axes.legend(fontsize="small")
    return True
