"""Reports of a results store: Markdown tables shaped like the papers', CSV and JSON.

The Markdown report puts the papers' published numbers (`published.yaml`)
next to the measured ones: SayPlan Table 1 (search success) as extra
columns, SayPlan Table 3 (planning) and LookPlanGraph Table 2 (SR, APA, APL,
NRR) as extra rows below the planner they correspond to, and SCLPlan's
Tables II-IV with the paper's rows below the measured ones (its numbers are
on ALFWorld and AI2Thor; rendered by `sclplan_tables`, the same functions as
`--table sclplan-2|3`). SayPlan Table 2 (`--table sayplan-2`) is measured on
the graphs.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from sceneplan.errors import BadInputError
from sceneplan.eval import robustness
from sceneplan.eval.metrics import ALL_PLANNING, SEARCH, Row, graph_tokens
from sceneplan.eval.sclplan_tables import TABLES as SCLPLAN_TABLES
from sceneplan.eval.sclplan_tables import table2 as _repeat
from sceneplan.eval.sclplan_tables import table3 as _sclplan
from sceneplan.eval.tables import num, pct, published, table
from sceneplan.planners.episode import ErrorType
from sceneplan.plugins import unknown_name

FORMATS = ("md", "csv", "json")
IDENTITY = ("planner", "model", "environment", "suite", "family", "task_id", "turn")

_ERROR_HEADERS = {
    ErrorType.MISSING_ACTION: "Missing action",
    ErrorType.MISSING_POSE: "Missing pose",
    ErrorType.WRONG_ACTION: "Wrong action",
    ErrorType.INCOMPLETE_SEARCH: "Incomplete search",
    ErrorType.HALLUCINATED_NODE: "Hallucinated nodes",
}


def render(
    metrics: dict[str, list[Row]],
    fmt: str = "md",
    title: str = "results",
    table_name: str | None = None,
) -> str:
    """The report in one of FORMATS; `table_name` (Markdown only) picks one of TABLES."""
    if table_name is not None and table_name not in TABLES:
        raise unknown_name("table", table_name, [*TABLES, "faults"])
    if table_name is not None and fmt != "md":
        raise BadInputError("--table prints a Markdown table: leave out --format, or use md")
    if fmt == "md":
        return markdown(metrics, title, table_name)
    if fmt == "csv":
        return csv_text(flatten(metrics))
    if fmt == "json":
        return json.dumps({"metrics": metrics, "published": published()}, indent=2) + "\n"
    raise unknown_name("report format", fmt, FORMATS)


def flatten(metrics: dict[str, list[Row]]) -> list[Row]:
    """One row per (section, group, metric): the long format of CSV and comparisons."""
    out = []
    for section, rows in metrics.items():
        for row in rows:
            ident = {k: row.get(k, "") for k in IDENTITY}
            for name, value in row.items():
                if name not in IDENTITY:
                    out.append({"section": section, **ident, "metric": name, "value": value})
    return out


def csv_text(rows: Sequence[Row], values: Sequence[str] = ("value",)) -> str:
    """Long-format rows as CSV; unknown values are empty cells."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["section", *IDENTITY, "metric", *values])
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)
    return buffer.getvalue()


def markdown(metrics: dict[str, list[Row]], title: str, table_name: str | None = None) -> str:
    """The Markdown report: one section per table that has data (or only `table_name`)."""
    parts = [f"# sceneplan results: {title}", _overview(metrics["overview"])]
    builds = [
        *(_table1, _search_details, _table3, _lookplangraph, _lookplangraph3),
        *(_lookplangraph4, _cost, _tokens, _repeat, _sclplan, _robustness, _failures),
    ]
    if table_name is not None:
        parts, builds = [f"# sceneplan results: {title}"], [TABLES[table_name]]
    for build in builds:
        section = build(metrics)
        if section:
            parts.append(section)
        elif table_name is not None:
            parts.append(f"The store holds no results for table {table_name}.")
    parts.append(_sources())
    return "\n\n".join(parts) + "\n"


# -- sections ---------------------------------------------------------------------


_OVERVIEW = ("planner", "model", "episodes", "tasks", "runs", "success", "failed", "error")


def _overview(rows: list[Row]) -> str:
    if not rows:
        return "The store holds no results yet."
    return table(
        ["Planner", "Model", "Episodes", "Tasks", "Runs", "Success", "Failed", "Errors"],
        [[r[k] for k in _OVERVIEW] for r in rows],
    )


def _table1(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["search"]
    if not rows:
        return ""
    paper = published()["sayplan_table1"]
    methods = paper["methods"]
    columns = sorted({(r["planner"], r["model"]) for r in rows})
    cells = {(r["environment"], r["family"], r["planner"], r["model"]): r for r in rows}
    body = []
    for env, family in sorted(
        {(r["environment"], r["family"]) for r in rows}, key=lambda k: (k[0], SEARCH.index(k[1]))
    ):
        line = [env, _label(family)]
        for measure, n in (("answered", "n"), ("found", "found_n")):
            for planner, model in columns:
                r = cells.get((env, family, planner, model))
                line.append(f"{pct(r[measure])} of {r[n]}" if r else "-")
        known = paper["values"].get(env, {}).get(family, {})
        line += [pct(known.get(m)) for m in methods]
        body.append(line)
    headers = ["Environment", "Subtask"]
    headers += [f"{p} ({m}) answered" for p, m in columns]
    headers += [f"{p} ({m}) found" for p, m in columns]
    headers += [f"{m} [paper]" for m in methods]
    return (
        "## Semantic search success (SayPlan Table 1)\n\n"
        "*found*: the search expanded the rooms holding the answer (the paper's measure, "
        "beside its numbers); *answered*: the answer itself is right.\n\n" + table(headers, body)
    )


def _search_details(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["search"]
    if not rows:
        return ""
    return "### Search details\n\n" + table(
        [
            *("Planner", "Model", "Environment", "Subtask", "n", "Answered", "Found"),
            *("Explored rooms", "Search turns"),
        ],
        [
            [
                *(r["planner"], r["model"], r["environment"], _label(r["family"]), r["n"]),
                pct(r["answered"]),
                f"{pct(r['found'])} of {r['found_n']}",
                num(r["explored_rooms"]),
                num(r["search_turns"]),
            ]
            for r in rows
        ],
    )


def _table3(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["planning"]
    if not rows:
        return ""
    paper = published()["sayplan_table3"]
    cells = {(r["planner"], r["model"], r["environment"], r["family"]): r for r in rows}
    groups = sorted({(r["planner"], r["model"], r["environment"]) for r in rows})

    def measured(planner: str, model: str, env: str) -> list[str]:
        def get(family: str, name: str) -> str:
            r = cells.get((planner, model, env, family))
            return pct(r[name]) if r else "-"

        return [
            planner,
            model,
            env,
            *(get(f, m) for f in ("simple_planning", "long_horizon") for m in _MEASURES),
            *(get(ALL_PLANNING, t.value) for t in ErrorType),
            num(cells[(planner, model, env, ALL_PLANNING)]["replans"]),
        ]

    def quoted(entry: dict[str, Any]) -> list[str]:
        return [
            f"{entry['method']} [paper]",
            "GPT-4",
            paper["environment"],
            *(pct(entry[f].get(m)) for f in ("simple_planning", "long_horizon") for m in _MEASURES),
            *(pct(entry["errors"][t.value]) for t in ErrorType),
            "-",
        ]

    body = _interleave(groups, paper["rows"], measured, quoted)
    headers = ["Planner", "Model", "Environment"]
    headers += [f"{f} {m}" for f in ("Simple", "Long") for m in ("corr", "exec", "success")]
    headers += [*(_ERROR_HEADERS[t] for t in ErrorType), "Replans"]
    return (
        "## Causal planning (SayPlan Table 3)\n\n"
        "*corr*: the goal holds after the plan's effects, failed preconditions ignored; "
        "*exec*: the simulator accepts the plan; *success*: both, the plan runs and reaches "
        "the goal (the paper reports corr and exec).\n\n" + table(headers, body)
    )


_MEASURES = ("correctness", "executability", "success")
_LPG = ("sr", "apa", "apl", "nrr")
_LPG_FORMULA = ("sr_formula", "apa_formula")


def _table2(metrics: dict[str, list[Row]]) -> str:
    """SayPlan Table 2: tokens of the full and the collapsed Office and Home graphs, beside
    the paper's (measured from the graphs: no stored run is needed)."""
    rows = metrics.get("graph_tokens") or graph_tokens()
    paper = {r["environment"]: r for r in published()["sayplan_table2"]["rows"]}
    body = []
    for r in rows:
        body.append(
            [r["environment"], f"{r['full']:,}", f"{r['collapsed']:,}", pct(r["compression"])]
        )
        quoted = paper.get(r["environment"])
        if quoted is not None:
            body.append(
                [
                    f"{r['environment']} [paper]",
                    f"{quoted['full']:,}",
                    f"{quoted['collapsed']:,}",
                    pct(quoted["compression"]),
                ]
            )
    encoding = rows[0]["encoding"] if rows else ""
    return (
        "## Scene graph tokens, full vs collapsed (SayPlan Table 2)\n\n"
        f"Tokens ({encoding}) of the whole graph and of the graph collapsed to its rooms "
        "(`sceneplan graph stats ENV`).\n\n"
        + table(["Environment", "Full graph", "Collapsed graph", "Compression"], body)
    )


def _lookplangraph(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["lookplangraph"]
    if not rows:
        return ""
    paper = published()["lookplangraph_table2"]
    datasets = {d.get("suite"): d for d in paper["datasets"] if d.get("suite")}
    body = []
    notes = []
    for suite in sorted({r["suite"] for r in rows}):
        for r in (r for r in rows if r["suite"] == suite):
            body.append(
                [
                    *(suite, r["planner"], r["model"], r["n"]),
                    *(num(r[k]) for k in _LPG),
                    *(num(r.get(k)) for k in _LPG_FORMULA),
                    r.get("scoring", "formula"),
                ]
            )
            notes += [
                f"- {suite}, {r['planner']} ({r['model']}): {m}" for m in r.get("mismatch", [])
            ]
        if suite in datasets:
            body += _quoted_lpg(datasets[suite], paper["model"])
    for dataset in paper["datasets"]:
        if dataset.get("suite") not in {r["suite"] for r in rows}:
            body += _quoted_lpg(dataset, paper["model"])
    headers = ["Dataset", "Planner", "Model", "n", "SR", "APA", "APL", "NRR"]
    text = (
        "## LookPlanGraph metrics (LookPlanGraph Table 2, App. D)\n\n"
        "SR and APA compare the final graph with the goal graph (the initial graph after the "
        "task's reference plan), as the paper does; NRR: observed nodes / nodes that differ "
        "between the initial and goal graphs. SR (formula) and APA (formula) score the task's "
        "goal formula instead.\n\n"
        + table([*headers, "SR (formula)", "APA (formula)", "Scoring"], body)
    )
    caps = [f"{r['planner']} ({r['model']}): {r['corrections'].replace('_', ' ')}"
            for r in rows if r.get("corrections")]  # fmt: skip
    if caps:
        text += "\n\nCorrection cap of each row: " + "; ".join(dict.fromkeys(caps)) + "."
    if notes:
        text += (
            "\n\nRuns that reach the goal formula but not the goal graph (the nodes that "
            "differ from it):\n" + "\n".join(notes)
        )
    return text


def _lookplangraph1(metrics: dict[str, list[Row]]) -> str:
    """Dataset statistics of the suites (LookPlanGraph Table 1), from `metrics["datasets"]`."""
    return datasets_table(metrics.get("datasets", []))


def datasets_table(rows: Sequence[Row]) -> str:
    """Suites' tasks and mean rooms, nodes and actions per task, beside LookPlanGraph Table 1."""
    if not rows:
        return ""
    paper = published()["lookplangraph_table1"]
    body = [[r["suite"], r["tasks"], *(num(r[k]) for k in _DATA[1:])] for r in rows]
    body += [
        [f"{e['dataset']} [paper]", e["tasks"], *(num(e[k]) for k in _DATA[1:])]
        for e in paper["rows"]
    ]
    return "## Datasets (LookPlanGraph Table 1)\n\nPer task: rooms, nodes without poses, and " + (
        "actions of the reference plan (`done` left out).\n\n"
        + table(["Suite", "Tasks", "Rooms", "Nodes", "Actions"], body)
    )


_DATA = ("tasks", "rooms", "nodes", "actions")


def _lookplangraph3(metrics: dict[str, list[Row]]) -> str:
    """APA per planner and model on the Office suite, pivoted as LookPlanGraph Table 3."""
    paper = published()["lookplangraph_table3"]
    rows = [r for r in metrics["lookplangraph"] if r["suite"] == paper["suite"]]
    if not rows:
        return ""
    models = list(dict.fromkeys(r["model"] for r in rows))
    body = []
    for planner in dict.fromkeys(r["planner"] for r in rows):
        apa_of = {r["model"]: r["apa"] for r in rows if r["planner"] == planner}
        body.append(
            [planner, *(num(apa_of.get(m)) for m in models), *(["-"] * len(paper["models"]))]
        )
    for entry in paper["rows"]:
        quoted = [num(entry["apa"].get(m)) for m in paper["models"]]
        body.append([f"{entry['method']} [paper]", *(["-"] * len(models)), *quoted])
    headers = ["Planner", *models, *(f"{m} [paper]" for m in paper["models"])]
    return (
        f"## Plan accuracy per model (LookPlanGraph Table 3, suite {paper['suite']})\n\n"
        + table(headers, body)
    )


def _lookplangraph4(metrics: dict[str, list[Row]]) -> str:
    """Graph augmentation accuracy of the looks (LookPlanGraph Table 4)."""
    rows = metrics.get("augmentation", [])
    if not rows:
        return ""
    paper = published()["lookplangraph_table4"]
    body = [
        [
            *(r["planner"], r["model"], r["perception"], r["looks"]),
            *(num(r[k]) for k in _AUG),
            num(r.get("np_per_look")),
        ]
        for r in rows
    ]
    body += [
        [f"{e['method']} [paper]", "-", "-", "-", *(num(e[k]) for k in _AUG), "-"]
        for e in paper["rows"]
    ]
    return (
        "## Graph augmentation (LookPlanGraph Table 4)\n\nNP, as the paper: the nodes the "
        "looks added to the final graph over the ground truth's (the objects the looks could "
        "see); On / Inside: objects resting that way reported with the right relation and "
        "support, per look; NP per look: objects found of those each look could see, added "
        "up over the looks.\n\n"
        + table(
            ["Planner", "Model", "Perception", "Looks", "NP", "On", "Inside", "NP per look"],
            body,
        )
    )


_AUG = ("np", "on", "inside")


def _quoted_lpg(dataset: dict[str, Any], model: str) -> list[list[str]]:
    return [
        [
            *(f"{dataset['dataset']} [paper]", e["method"], model, "-"),
            *(num(e[k]) for k in _LPG),
            *("-", "-", "goal graph"),
        ]
        for e in dataset["rows"]
    ]


def _cost(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["cost"]
    if not rows:
        return ""
    return "## Cost per task\n\n" + table(
        [
            *("Planner", "Model", "Family", "n", "LLM calls", "Input tokens", "Output tokens"),
            *("Cost (USD)", "Total cost (USD)", "LLM latency (s)", "Wall time (s)"),
        ],
        [
            [
                *(r["planner"], r["model"], _label(r["family"]), r["n"], num(r["llm_calls"])),
                *(num(r["input_tokens"], 0), num(r["output_tokens"], 0)),
                *(_usd(r["cost_usd"]), _usd(r["cost_total_usd"])),
                *(num(r["llm_latency_s"]), num(r["wall_time_s"])),
            ]
            for r in rows
        ],
    )


def _usd(value: float | None) -> str:
    """A cost; 'n/a' when unknown (a model without a price), never 0."""
    return "n/a" if value is None else num(value, 4)


def _tokens(metrics: dict[str, list[Row]]) -> str:
    rows = metrics["token_progression"]
    if not rows:
        return ""
    series: dict[tuple[str, str, str], list[Row]] = {}
    for r in rows:
        series.setdefault((r["planner"], r["model"], r["environment"]), []).append(r)
    body = [
        [
            *key,
            len(turns),
            *(", ".join(num(t[k], 0) for t in turns) for k in ("graph_tokens", "prompt_tokens")),
        ]
        for key, turns in series.items()
    ]
    headers = ["Planner", "Model", "Environment", "Turns", "Graph tokens by turn"]
    return "## Token progression during search (SayPlan Fig. 3)\n\n" + table(
        [*headers, "Prompt tokens by turn"], body
    )


def _failures(metrics: dict[str, list[Row]]) -> str:
    """Each run that did not succeed, and why (`Episode.reason`)."""
    rows = metrics.get("failures", [])
    if not rows:
        return ""
    return "## Runs that did not succeed\n\n" + table(
        ["Planner", "Model", "Task", "Run", "Status", "Reason"],
        [
            [r["planner"], r["model"], r["task_id"], r["run"], r["status"], _cell(r["reason"])]
            for r in rows
        ],
    )


def _cell(text: str | None) -> str:
    """Text as one Markdown table cell: on one line, its bars escaped."""
    return " ".join(str(text or "").split()).replace("|", "\\|")


def _sources() -> str:
    lines = ["Published numbers ([paper] rows and columns):"]
    for entry in published().values():
        source = entry["source"]
        note = f" Note: {entry['note']}" if entry.get("note") else ""
        lines.append(f"- {source['table']}. {source['paper']}.{note}")
    return "\n".join(lines)


# -- helpers ----------------------------------------------------------------------


def _interleave(
    groups: list[tuple[str, str, str]],
    quoted: list[dict[str, Any]],
    render_measured: Callable[..., list[str]],
    render_quoted: Callable[[dict[str, Any]], list[str]],
) -> list[list[str]]:
    """Measured rows, each planner's followed by the published rows for it; the rest last."""
    body, shown = [], set()
    for index, group in enumerate(groups):
        body.append(render_measured(*group))
        last_of_planner = index + 1 == len(groups) or groups[index + 1][0] != group[0]
        if last_of_planner:
            for i, entry in enumerate(quoted):
                if entry["planner"] == group[0]:
                    body.append(render_quoted(entry))
                    shown.add(i)
    body += [render_quoted(e) for i, e in enumerate(quoted) if i not in shown]
    return body


def _label(family: str) -> str:
    return family.replace("_", " ").capitalize() if family else "-"


def _robustness(metrics: dict[str, list[Row]]) -> str:
    return robustness.markdown(metrics.get("robustness", []))


# `sceneplan report --table NAME`: one table alone.
TABLES = {
    "sayplan-1": _table1,
    "sayplan-2": _table2,
    "sayplan-3": _table3,
    "lookplangraph-1": _lookplangraph1,
    "lookplangraph-2": _lookplangraph,
    "lookplangraph-3": _lookplangraph3,
    "lookplangraph-4": _lookplangraph4,
    "robustness": _robustness,
    "failures": _failures,
}
TABLES.update(SCLPLAN_TABLES)  # sclplan-1|2|3 (eval/sclplan_tables.py)
