"""The difference between two result stores, metric by metric (`sceneplan report --compare`)."""

from __future__ import annotations

import json

from sceneplan.eval.metrics import Row
from sceneplan.eval.report import FORMATS, IDENTITY, csv_text, flatten, num, table
from sceneplan.plugins import unknown_name

# The sections compared; per-turn and per-task rows stay in the single-store report.
SECTIONS = ("overview", "search", "planning", "lookplangraph", "cost", "repeatability")


def compare(a: dict[str, list[Row]], b: dict[str, list[Row]]) -> list[Row]:
    """Rows of (section, group, metric, a, b, delta) for every numeric metric in either.

    Groups match on planner, model and scope. When each store ran a planner
    with one model, and the models differ, that planner's groups match
    across the two models, labelled `A-MODEL -> B-MODEL`.
    """
    paired = _paired_models(a, b)
    values: dict[tuple, dict[str, float | None]] = {}
    for side, metrics in (("a", a), ("b", b)):
        for row in flatten({s: metrics[s] for s in SECTIONS}):
            if isinstance(row["value"], bool) or not isinstance(row["value"], int | float):
                continue
            row["model"] = paired.get(row["planner"], row["model"])
            key = (row["section"], *(row[k] for k in IDENTITY), row["metric"])
            values.setdefault(key, {})[side] = row["value"]
    out = []
    for key in sorted(values, key=lambda k: (SECTIONS.index(k[0]), *map(str, k[1:]))):
        va, vb = values[key].get("a"), values[key].get("b")
        delta = vb - va if va is not None and vb is not None else None
        section, *ident, metric = key
        out.append(
            {
                "section": section,
                **dict(zip(IDENTITY, ident, strict=True)),
                "metric": metric,
                "a": va,
                "b": vb,
                "delta": delta,
            }
        )
    return out


def _paired_models(a: dict[str, list[Row]], b: dict[str, list[Row]]) -> dict[str, str]:
    """planner -> 'model A -> model B' for planners run with one, different, model in each."""
    models: list[dict[str, set[str]]] = [{}, {}]
    for side, metrics in zip(models, (a, b), strict=True):
        for row in metrics["overview"]:
            side.setdefault(row["planner"], set()).add(row["model"])
    return {
        planner: f"{next(iter(ma))} -> {next(iter(mb))}"
        for planner, ma in models[0].items()
        if (mb := models[1].get(planner)) and len(ma) == len(mb) == 1 and ma != mb
    }


def render_compare(rows: list[Row], fmt: str, names: tuple[str, str]) -> str:
    """The comparison as Markdown (one table per section), CSV or JSON."""
    if fmt == "json":
        return json.dumps({"a": names[0], "b": names[1], "rows": rows}, indent=2) + "\n"
    if fmt == "csv":
        return csv_text(rows, values=("a", "b", "delta"))
    if fmt != "md":
        raise unknown_name("report format", fmt, FORMATS)
    parts = [f"# sceneplan comparison\n\nA = {names[0]}, B = {names[1]}; Δ = B - A."]
    for section in SECTIONS:
        chosen = [r for r in rows if r["section"] == section]
        if not chosen:
            continue
        body = [
            [_group(r), r["metric"], num(r["a"], 4), num(r["b"], 4), _signed(r["delta"])]
            for r in chosen
        ]
        parts.append(f"## {section}\n\n" + table(["Group", "Metric", "A", "B", "Δ"], body))
    return "\n\n".join(parts) + "\n"


def _group(row: Row) -> str:
    return " / ".join(str(row[k]) for k in IDENTITY if row[k] not in ("", None))


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+,.4f}"
