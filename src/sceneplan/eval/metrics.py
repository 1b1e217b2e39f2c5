"""Benchmark metrics, computed from stored Episodes (never by re-running a planner).

Each function takes the `Record`s of a store and returns flat rows (plain
dicts, JSON-ready), grouped by planner and model and, where the papers do,
by environment or suite and task family. Rates count every Episode of a
group, errors included, since the papers count every task. See
docs/eval.md for the definitions.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from sceneplan.eval.annotate import changed_nodes
from sceneplan.eval.robustness import robustness
from sceneplan.eval.store import Record
from sceneplan.planners import execution
from sceneplan.planners.episode import Episode, ErrorType, Status, WorldStep
from sceneplan.planners.options import planner_label
from sceneplan.world.memory import Observation
from sceneplan.world.partial import LookScore, score_look
from sceneplan.world.vocabularies import plan_enders

__all__ = [
    "ALL_PLANNING",
    "PLANNING",
    "SEARCH",
    "apa",
    "augmentation",
    "compute",
    "cost",
    "failures",
    "graph_apa",
    "graph_success",
    "graph_tokens",
    "lookplangraph",
    "nrr",
    "overview",
    "plan_length",
    "planning",
    "repeatability",
    "repeatability_tasks",
    "sclplan",
    "search",
    "token_progression",
]

SEARCH = ("simple_search", "complex_search")
PLANNING = ("simple_planning", "long_horizon")
ALL_PLANNING = "planning"  # the family label of rows over both planning families

Row = dict[str, Any]


def compute(records: Sequence[Record]) -> dict[str, list[Row]]:
    """Every metric section."""
    return {
        "overview": overview(records),
        "search": search(records),
        "planning": planning(records),
        "lookplangraph": lookplangraph(records),
        "augmentation": augmentation(records),
        "cost": cost(records),
        "token_progression": token_progression(records),
        "repeatability": repeatability(records),
        "repeatability_tasks": repeatability_tasks(records),
        "sclplan": sclplan(records),
        "robustness": robustness(records),
        "failures": failures(records),
    }


def overview(records: Sequence[Record]) -> list[Row]:
    """Per planner and model: episodes, distinct tasks, runs, and how they ended."""
    rows = []
    for (planner, model), group in _groups(records, lambda r: _pm(r)).items():
        statuses = [r.episode.status for r in group]
        rows.append(
            {
                "planner": planner,
                "model": model,
                "episodes": len(group),
                "tasks": len({r.episode.task_id for r in group}),
                "runs": max(r.run for r in group),
                **{s.value: statuses.count(s) for s in Status},
            }
        )
    return rows


def failures(records: Sequence[Record]) -> list[Row]:
    """Each run that did not succeed, with why (`Episode.reason`), by planner, model, suite,
    task and run."""
    rows = [
        {
            "planner": planner_label(r.episode.planner, r.episode.options),
            "model": r.episode.model,
            "suite": r.suite,
            "task_id": r.episode.task_id,
            "run": r.run,
            "status": r.episode.status.value,
            "reason": r.episode.reason(),
        }
        for r in records
        if not r.episode.success
    ]
    return sorted(
        rows,
        key=lambda r: (r["planner"], r["model"], r["suite"], str(r["task_id"]), r["run"]),
    )


def search(records: Sequence[Record]) -> list[Row]:
    """SayPlan Table 1 and App. F: found, answered, explored rooms, turns.

    `found`: every room holding the answer is in the subgraph the model switched
    to planning with (and every room a "nothing matches" task says must be
    searched was expanded), over the `found_n`
    Episodes where that is known (tasks that name such rooms): Table 1's
    "finding a suitable subgraph". `answered`: the answer is right (the nodes
    of the kind asked for, as many as asked for; "nothing" only after the
    rooms to search were expanded).
    """
    rows = []
    chosen = [r for r in records if r.episode.family in SEARCH]
    for (planner, model, env, family), group in _groups(chosen, _pmef).items():
        episodes = [r.episode for r in group]
        known = [e.answer_room_explored for e in episodes if e.answer_room_explored is not None]
        rows.append(
            {
                "planner": planner,
                "model": model,
                "environment": env,
                "family": family,
                "n": len(episodes),
                "found": _rate(known),
                "found_n": len(known),
                "answered": _rate(e.answer_correct for e in episodes),
                "explored_rooms": _mean(
                    len(rooms)
                    for e in episodes
                    if (rooms := e.eval.explored_rooms if e.eval else None) is not None
                ),
                "search_turns": _mean(len(e.search) for e in episodes),
            }
        )
    return rows


def planning(records: Sequence[Record]) -> list[Row]:
    """SayPlan Table 3: correctness, executability and success, replans, error-type rates.

    Three measures, each on its own: `correctness` (the goal holds after the
    plan's relaxed execution, `Episode.correct`), `executability` (the
    simulator accepts the plan) and `success` (both the strict way: the plan
    runs and reaches the goal). Correctness is None ("-") for a group whose
    Episodes were all stored before it was measured. One row per planning
    family, and one over both (family "planning"), as Table 3 (right) gives
    the error types over all planning tasks. An error type's rate is the
    share of Episodes whose plan ended with that error.
    """
    chosen = [r for r in records if r.episode.family in PLANNING]
    both = [(r, ALL_PLANNING) for r in chosen]
    rows = []
    keyed = _groups(
        [(r, r.episode.family) for r in chosen] + both,
        lambda item: (*_pm(item[0]), item[0].episode.environment, item[1]),
    )
    for (planner, model, env, family), group in keyed.items():
        episodes = [r.episode for r, _ in group]
        n = len(episodes)
        rows.append(
            {
                "planner": planner,
                "model": model,
                "environment": env,
                "family": family,
                "n": n,
                "correctness": _rate_known([e.correct for e in episodes]),
                "executability": _rate(e.executable for e in episodes),
                "success": _rate(e.success for e in episodes),
                "replans": _mean(e.replans for e in episodes),
                **{t.value: sum(e.error_type is t for e in episodes) / n for t in ErrorType},
            }
        )
    return rows


def lookplangraph(records: Sequence[Record]) -> list[Row]:
    """LookPlanGraph App. D per suite: SR, APA, APL, NRR over the tasks with a goal.

    SR and APA compare the final graph with the goal graph (the initial graph
    after the task's reference plan, `annotate.goal_graph_scores`), as the
    paper does; an Episode without a goal graph (no reference plan, or stored
    before goal graphs were recorded) is scored by its goal formula instead.
    `scoring` says which: "goal graph", "formula" or "mixed". `sr_formula` and
    `apa_formula` are the formula's scores of all Episodes, a column of their
    own. `mismatch` names, per task, the nodes of runs that reach the goal
    formula but not the goal graph (a node the run changed that the reference
    plan does not, or the other way round).
    """
    rows = []
    chosen = [r for r in records if r.episode.goal is not None]
    for (planner, model, suite), group in _groups(chosen, lambda r: (*_pm(r), r.suite)).items():
        episodes = [r.episode for r in group]
        graphed = [_has_goal_graph(e) for e in episodes]
        scoring = "goal graph" if all(graphed) else "formula" if not any(graphed) else "mixed"
        mismatch = sorted(
            {
                f"{e.task_id}: {', '.join(mismatch)}"
                for e in episodes
                if e.goal_reached and (mismatch := _goal_mismatch(e))
            }
        )
        rows.append(
            {
                "planner": planner,
                "model": model,
                "suite": suite,
                "n": len(episodes),
                "sr": _rate(graph_success(e) for e in episodes),
                "apa": _mean(graph_apa(e) for e in episodes),
                "apl": _mean(plan_length(e) for e in episodes),
                "nrr": _mean(nrr(e) for e in episodes),
                "sr_formula": _rate(e.goal_reached for e in episodes),
                "apa_formula": _mean(apa(e) for e in episodes),
                "scoring": scoring,
                "mismatch": mismatch,
                # LookPlanGraph's correction cap (per_action, per_run); "" for other planners
                "corrections": ", ".join(sorted(_correction_caps(episodes))),
            }
        )
    return rows


def _correction_caps(episodes: Sequence[Episode]) -> set[str]:
    return {str(e.correction_cap) for e in episodes if e.correction_cap is not None}


def _has_goal_graph(episode: Episode) -> bool:
    return episode.eval is not None and episode.eval.has_goal_graph


def _goal_mismatch(episode: Episode) -> list[str]:
    """The nodes of the final graph not as the goal graph has them ([] without one)."""
    return (episode.eval.goal_mismatch or []) if episode.eval is not None else []


def graph_success(episode: Episode) -> bool | None:
    """Every node of the final graph in its goal-graph configuration (the goal formula
    reached, without a goal graph)."""
    if not _has_goal_graph(episode):
        return episode.goal_reached
    return not _goal_mismatch(episode)


def graph_apa(episode: Episode) -> float:
    """Changed nodes in their goal-graph configuration / changed nodes (0 when nothing
    changed); `apa` without a goal graph."""
    if episode.eval is None or not episode.eval.has_goal_graph:
        return apa(episode)
    changed = episode.eval.run_changed or []
    return len(episode.eval.goal_right or []) / len(changed) if changed else 0.0


def augmentation(records: Sequence[Record]) -> list[Row]:
    """LookPlanGraph Table 4 from the looks of stored Episodes: node presence, on, inside.

    Each look recorded what it could find (the visible true objects memory
    lacked) beside what perception reported. `np` is the paper's figure (004,
    Sec. 6.2): the nodes the run's looks added in the end (distinct; a
    hallucinated one counts, as a node of the final graph) over the ground
    truth's (the distinct objects its looks could find), pooled over runs;
    `np_per_look` scores each look on its own and adds them up (a node seen
    twice counts twice), as `on` and `inside` do. Rows per planner, model and
    perception.
    """
    rows = []
    looking = [r for r in records if any(_is_look(s, r.episode) for s in r.episode.steps)]
    keyed = _groups(looking, lambda r: (*_pm(r), _perception(r.episode)))
    for (planner, model, perception), group in keyed.items():
        score, looks, final, truth = LookScore(), 0, 0, 0
        for r in group:
            found, there = set(), set()
            for step in r.episode.steps:
                if _is_look(step, r.episode):
                    looks += 1
                    seen = [Observation.from_dict(o) for o in step.observations]
                    score.add(score_look(seen, step.expected))
                    there |= {item["id"] for item in step.expected}
                    found |= {o.truth or f"?{o.name}" for o in seen}
            final, truth = final + len(found), truth + len(there)
        rates = score.rates()
        rows.append(
            {
                "planner": planner,
                "model": model,
                "perception": perception,
                "looks": looks,
                "expected": score.expected,
                **rates,
                "np_per_look": rates["np"],
                "np": _share(final, truth),
                "nodes_final": final,
                "nodes_truth": truth,
            }
        )
    return rows


def _is_look(step: WorldStep, episode: Episode) -> bool:
    """A perceiver's look; a robot's step (`eval --robot`) is scored by the faults table."""
    robot = {c.step for c in episode.execute.calls} if episode.execute else set()
    return bool(step.expected or step.observations) and step.index not in robot


def _perception(episode: Episode) -> str:
    return episode.observe.perception if episode.observe is not None else ""


def apa(episode: Episode) -> float:
    """Right changed nodes / changed nodes (0 when nothing changed)."""
    changed = changed_nodes(episode.final_changes)
    right = set(episode.eval.right or () if episode.eval else ()) & changed
    return len(right) / len(changed) if changed else 0.0


def plan_length(episode: Episode) -> int:
    """Actions in the final high-level plan, `done` excluded (0 without a plan)."""
    enders = plan_enders()
    return sum(a.split("(")[0].strip() not in enders for a in episode.plan)


def nrr(episode: Episode) -> float | None:
    """Observed nodes / important nodes: those that differ between the initial and the goal
    graph (without a goal graph, those the goal formula needs changed); None when either is
    unknown or nothing is important."""
    if episode.eval is None:
        return None
    info = episode.eval
    observed = info.observed
    important = info.goal_changed if info.goal_changed is not None else info.important
    if observed is None or not important:
        return None
    return len(observed) / len(important)


def graph_tokens(environments: Iterable[str] = ("office", "home")) -> list[Row]:
    """SayPlan Table 2: tokens of each environment's full graph and of it collapsed to rooms
    (`graph.tokens.token_report`, as `sceneplan graph stats` prints); from the graphs, not
    from stored runs."""
    from sceneplan.datasets import load_environment
    from sceneplan.graph.tokens import token_report

    rows = []
    for env in environments:
        report = token_report(load_environment(env))
        full, collapsed = report.full.tokens, report.collapsed.tokens
        rows.append(
            {
                "environment": env,
                "full": full,
                "collapsed": collapsed,
                "compression": 1 - collapsed / full if full else None,
                "encoding": report.encoding,
            }
        )
    return rows


def cost(records: Sequence[Record]) -> list[Row]:
    """Per planner, model and family: means per task of calls, tokens, cost, latency, wall time."""
    rows = []
    keyed = _groups(records, lambda r: (*_pm(r), r.episode.family or ""))
    for (planner, model, family), group in keyed.items():
        episodes = [r.episode for r in group]
        rows.append(
            {
                "planner": planner,
                "model": model,
                "family": family,
                "n": len(episodes),
                "llm_calls": _mean(len(e.llm_calls) for e in episodes),
                "input_tokens": _mean(e.input_tokens for e in episodes),
                "output_tokens": _mean(e.output_tokens for e in episodes),
                "cost_usd": _unless_unpriced(_mean, episodes),
                "cost_total_usd": _unless_unpriced(sum, episodes),
                "llm_latency_s": _mean(e.llm_latency_s for e in episodes),
                "wall_time_s": _mean(e.wall_time_s for e in episodes),
            }
        )
    return rows


def token_progression(records: Sequence[Record]) -> list[Row]:
    """SayPlan Fig. 3: mean graph and prompt tokens at each search turn.

    One row per planner, model, environment and turn (1-based); `n` is how
    many Episodes reached that turn.
    """
    per: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for r in records:
        for index, turn in enumerate(r.episode.search, start=1):
            per[(*_pm(r), r.episode.environment, index)].append(
                (turn.graph_tokens, turn.prompt_tokens)
            )
    return [
        {
            "planner": planner,
            "model": model,
            "environment": env,
            "turn": turn,
            "n": len(values),
            "graph_tokens": _mean(g for g, _ in values),
            "prompt_tokens": _mean(p for _, p in values),
        }
        for (planner, model, env, turn), values in sorted(per.items())
    ]


def repeatability_tasks(records: Sequence[Record]) -> list[Row]:
    """SCLPlan Table II per task: mean and std over runs of success, tokens and env steps.

    Env steps are actions sent to the environment (`execution.env_steps`), as in
    Tables I and III; precondition checks are counted apart (`checks`).
    Std is the population std over the task's runs; tasks run once are left out.
    """
    rows = []
    keyed = _groups(records, lambda r: (*_pm(r), r.episode.task_id or ""))
    for (planner, model, task_id), group in keyed.items():
        if len(group) < 2:
            continue
        row: Row = {"planner": planner, "model": model, "task_id": task_id, "runs": len(group)}
        for name, values in _repeat_values([r.episode for r in group]).items():
            row[f"{name}_mean"] = statistics.fmean(values)
            row[f"{name}_std"] = statistics.pstdev(values)
        rows.append(row)
    return rows


def repeatability(records: Sequence[Record]) -> list[Row]:
    """SCLPlan Table II: the per-task means and stds, averaged over tasks."""
    rows = []
    per_task = repeatability_tasks(records)
    for (planner, model), group in _groups(per_task, lambda r: (r["planner"], r["model"])).items():
        row: Row = {
            "planner": planner,
            "model": model,
            "tasks": len(group),
            "runs": max(r["runs"] for r in group),
        }
        for column in group[0]:
            if column.endswith(("_mean", "_std")):
                row[column] = statistics.fmean(r[column] for r in group)
        rows.append(row)
    return rows


def _repeat_values(episodes: list[Episode]) -> dict[str, list[float]]:
    return {
        "success": [float(e.status is Status.SUCCESS) for e in episodes],
        "tokens": [float(e.input_tokens + e.output_tokens) for e in episodes],
        "steps": [float(execution.env_steps(e)) for e in episodes],
        "checks": [float(execution.checks(e)) for e in episodes],
    }


def sclplan(records: Sequence[Record]) -> list[Row]:
    """SCLPlan Tables III-IV: success, tokens, env steps, who proposed the actions, PV's help.

    Over the Episodes that record these metrics (react, react_pv, sclplan), per
    planner, model and environment. The action shares and the invalid and
    corrected rates pool the counts of the group's Episodes: `react_invalid` is
    invalid ReAct predictions / predictions, `pv_corrected` those PV made
    executable / invalid ones (None without PV). `global_plan_found` is the
    share of Episodes whose global planner found a plan (sclplan only).
    `goal_tokens`, `react_tokens` and `rooms_tokens` are the tokens per Episode
    of each phase's calls: SCLPlan's goal (Phase 1), the ReAct steps (Phase 3)
    and the choice of rooms to show when the graph is too large.
    """
    rows = []
    chosen = [r for r in records if r.episode.sclplan is not None]
    keyed = _groups(chosen, lambda r: (*_pm(r), r.episode.environment))
    for (planner, model, env), group in keyed.items():
        episodes = [r.episode for r in group]
        info = [e.sclplan for e in episodes if e.sclplan is not None]
        actions = {s: sum(i.actions.get(s, 0) for i in info) for s in execution.SOURCES}
        invalid = sum(i.react_invalid for i in info)
        corrected = [i.pv_corrected for i in info if i.pv_corrected is not None]
        found = [i.global_plan_found for i in info if i.global_plan_found is not None]
        rows.append(
            {
                "planner": planner,
                "model": model,
                "environment": env,
                "n": len(episodes),
                "success": _rate(e.status is Status.SUCCESS for e in episodes),
                "tokens": _mean(e.input_tokens + e.output_tokens for e in episodes),
                **_phase_tokens(episodes),
                "env_steps": _mean(i.env_steps for i in info),  # execution.env_steps
                "checks": _mean(execution.checks(e) for e in episodes),
                **{f"{s}_actions": _share(n, sum(actions.values())) for s, n in actions.items()},
                "react_invalid": _share(invalid, sum(i.react_predictions for i in info)),
                "pv_corrected": _share(sum(corrected), invalid) if corrected else None,
                "global_plan_found": _rate(found),
                "solver": ", ".join(sorted({i.solver for i in info if i.solver})),
            }
        )
    return rows


# The stages of the ReAct family's LLM calls (SCLPlan Phase 1, Phase 3, the scene's rooms).
PHASES = ("goal", "react", "rooms")


def _phase_tokens(episodes: Sequence[Episode]) -> dict[str, float | None]:
    """`goal_tokens`, `react_tokens`, `rooms_tokens`: each phase's tokens per Episode."""
    return {
        f"{stage}_tokens": _mean(
            sum(c.input_tokens + c.output_tokens for c in e.llm_calls if c.stage == stage)
            for e in episodes
        )
        for stage in PHASES
    }


# -- helpers ----------------------------------------------------------------------


def _pm(record: Record) -> tuple[str, str]:
    """The planner (with its non-default options, `sclplan[planner=bfsf]`) and the model."""
    episode = record.episode
    return planner_label(episode.planner, episode.options), episode.model


def _pmef(record: Record) -> tuple[str, str, str, str]:
    return (*_pm(record), record.episode.environment, record.episode.family or "")


def _groups(items: Iterable[Any], key: Callable[[Any], Hashable]) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = defaultdict(list)
    for item in items:
        out[key(item)].append(item)
    return dict(sorted(out.items()))


def _rate(values: Iterable[bool | None]) -> float | None:
    """Share of True; None (unknown, e.g. after an error) counts as not achieved."""
    values = list(values)
    return sum(v is True for v in values) / len(values) if values else None


def _rate_known(values: list[bool | None]) -> float | None:
    """`_rate`, or None when no value is known (a measure the Episodes predate)."""
    return None if all(v is None for v in values) else _rate(values)


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _unless_unpriced(
    combine: Callable[[list[float]], float | None], episodes: Sequence[Episode]
) -> float | None:
    """`combine` of the episodes' costs; None (unknown, never 0) when one has no price."""
    costs = [e.cost_usd for e in episodes]
    if None in costs:
        return None
    value = combine([c for c in costs if c is not None])
    return None if value is None else float(value)


def _mean(values: Iterable[float | int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.fmean(known) if known else None
