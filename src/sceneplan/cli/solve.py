"""`sceneplan solve`: plan to a goal with the symbolic planner, offline, no LLM."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.text import Text

from sceneplan.cli.common import JsonOpt, console
from sceneplan.cli.pddl import GoalOpt, GoalTaskOpt, SceneArg, planning_start
from sceneplan.symbolic.solver import DEFAULT_PLANNER, PlanningProblem, SolveStatus, solve
from sceneplan.world import Simulator, parse_goal
from sceneplan.world.why import why_no_plan

# Exit status when no plan is found; 0 is a plan that reaches the goal, 2 bad input.
EXIT_NO_PLAN = 1
EXIT_TIMEOUT = 3


def positive_seconds(value: float | None) -> float | None:
    """A typer callback: a time limit must be a finite number of seconds above zero."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise typer.BadParameter(f"must be a positive, finite number of seconds, not {value}")
    return value


def solve_command(
    env: SceneArg,
    goal: GoalOpt = None,
    task: GoalTaskOpt = None,
    planner: Annotated[
        str, typer.Option(help="Back end: gbfs, wastar, astar, bfsf (LAPKT), or a plugin's.")
    ] = DEFAULT_PLANNER,
    optimal: Annotated[
        bool,
        typer.Option(
            "--optimal",
            help="A shortest plan (A* with an admissible heuristic); may need a larger --timeout.",
        ),
    ] = False,
    timeout: Annotated[
        float,
        typer.Option(
            callback=positive_seconds, help="CPU seconds for grounding and search (above 0)."
        ),
    ] = 30.0,
    as_json: JsonOpt = False,
) -> None:
    """Find a plan for a goal; print it, its verification in the simulator and the goal check.

    A plan's moves cost the steps a robot takes; the plan found is shortened
    by removing every detour and step that nothing needs. With --optimal the
    plan is a shortest one (among plans through the part of the building the
    planner searched, printed as its scope).

    Exit status: 0 when a plan reaches the goal; 1 when no plan exists (the
    whole graph was searched), with the reason when the scene shows it: the
    thing is fixed, nothing there accepts it, its room cannot be reached from
    the robot's start, or no room holds it; 2 on bad input (an unknown node or predicate in
    the goal, a bad option); 3 when the search ran out of time (try a larger
    --timeout).
    """
    graph, goal_text = planning_start(env, task, goal, required=True)
    assert goal_text is not None  # required=True
    formula = parse_goal(goal_text, graph)
    # --optimal is the `astar` back end (what solve(..., optimal=True) runs)
    planner = "astar" if optimal else planner
    result = solve(PlanningProblem(graph, formula), timeout=timeout, planner=planner)
    simulator = Simulator(graph)
    verification = simulator.verify_plan(result.plan)
    reached = result.ok and formula.holds(verification.final_state)
    why = [] if result.ok else why_no_plan(graph, formula)
    if as_json:
        out = result.to_dict() | {
            "goal": str(formula),
            "verification": verification.to_dict(),
            "goal_reached": reached,
        }
        if why:
            out["why"] = why
        print(json.dumps(out, indent=2))
    else:
        console().print(Text.assemble(("goal: ", "bold"), str(formula)))
        if result.ok:
            console().print(Text.assemble(("plan: ", "bold"), " > ".join(map(str, result.plan))))
            verdict = (
                "[bold green]executable[/]" if verification.ok else "[bold red]not executable[/]"
            )
            console().print(f"{verdict} ({verification.executed} steps): {verification.feedback}")
            console().print("goal reached" if reached else "[bold red]goal not reached[/]")
            if result.stats.get("optimal"):
                console().print(f"shortest plan: {len(result.plan)} steps")
        elif result.status is SolveStatus.TIMEOUT:
            console().print(
                f"[bold red]timeout[/]: no plan found within {timeout:g} s of CPU; "
                "try a larger --timeout" + (" or drop --optimal" if optimal else "")
            )
        else:
            console().print(
                "[bold red]no plan exists[/]: "
                + ("; ".join(why) if why else "the goal cannot be reached from this state"),
                soft_wrap=True,
            )
        console().print(
            f"{result.planner} on the {result.scope} scope: grounding {result.grounding_s:.3f} s, "
            f"search {result.search_s:.3f} s, validation {result.validation_s:.3f} s"
        )
    if result.status is SolveStatus.TIMEOUT:
        raise typer.Exit(EXIT_TIMEOUT)
    if not reached:
        raise typer.Exit(EXIT_NO_PLAN)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
