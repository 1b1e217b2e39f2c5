"""Iterative replanning (SayPlan Sec. 3.3, Algorithm 1 stage 2), shared by the SayPlan family.

The model writes a high-level plan over the explored subgraph; the path
planner inserts the poses between rooms; the simulator verifies the result;
its feedback goes back to the model; until the plan verifies or the replans
run out (SayPlan: a first plan and up to 5 replans, Tables 17-18). With no
replans and no path planner this is LLM-As-Planner; with no replans and the
path planner, LLM+P. In a Markovian dialogue (the model sees only the latest
turn) the feedback also quotes the plan it is about.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sceneplan.errors import PlanParseError, UnreachableError
from sceneplan.graph.views import GraphView
from sceneplan.planners.base import Run
from sceneplan.planners.dialogue import Dialogue, graph_text, memory_text
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.replies import PlanReply
from sceneplan.planners.search import unusable_reply_feedback
from sceneplan.world.actions import Action, parse_plan
from sceneplan.world.simulator import Failure

PLAN_TURN = "sayplan_plan_turn.md"

# Judges one plan (as the model wrote it): the feedback for the next round, "" when it passed.
Judge = Callable[[list[str]], Awaitable[str]]


async def replan(
    run: Run,
    dialogue: Dialogue,
    judge: Judge,
    *,
    view: Callable[[], GraphView],
    max_replans: int,
    topology: bool = True,
    first_plan: list[str] | None = None,
    passed: str = "plan verified",
) -> bool:
    """SayPlan's replanning (Algorithm 1 stage 2): ask, judge, feed back; True once a plan passed.

    Each round shows the model `view()` with the last feedback and asks for a plan
    (`first_plan`: the first round judges it without asking); `judge` says what
    was wrong with it. An unusable reply is judged too: its feedback says so. In
    a Markovian dialogue the feedback also quotes the plan it is about. Every
    round ends with a verify event (`passed` its message when the plan passed).
    `episode.replans` counts the rounds after the first, as SayPlan's Tables
    17-18 do (0 when the first plan passes; `max_replans` when none did).
    """
    episode = run.episode
    feedback = ""
    for round_ in range(1, max_replans + 2):
        episode.replans = round_ - 1
        if round_ == 1 and first_plan:
            steps: list[str] | None = list(first_plan)
        else:
            steps, feedback = await _ask(run, dialogue, view(), topology, feedback, round_)
        if steps is not None:
            run.emit(PlanEvent("plan", "plan", round_, " > ".join(steps), data={"plan": steps}))
            feedback = await judge(steps)
            if feedback and dialogue.markov:
                feedback = f"{feedback} (in your last plan: {' > '.join(steps)})"
        data = {"full_plan": episode.full_plan}
        run.emit(
            PlanEvent("verify", "plan", round_, feedback or passed, ok=not feedback, data=data)
        )
        if not feedback:
            return True
    return False


async def _ask(
    run: Run,
    dialogue: Dialogue,
    view: GraphView,
    topology: bool,
    feedback: str,
    round_: int,
) -> tuple[list[str] | None, str]:
    """Ask for a plan over `view` given the last feedback: its steps, or None and why not."""
    dialogue.user_turn(
        PLAN_TURN,
        graph=graph_text(view, topology=topology),
        instruction=run.instruction,
        memory=memory_text(view),
        feedback=feedback or "none",
    )
    run.emit(PlanEvent("ask", "plan", round_, "waiting for the model's plan"))
    reply = await run.ask("plan", dialogue.snapshot(), PlanReply)
    if reply.text:
        dialogue.assistant(reply.text)
    if reply.parsed is None:
        return None, unusable_reply_feedback(reply.text, PlanReply)
    reply.call.command = "plan"
    return list(reply.parsed.plan), ""


async def iterative_replanning(
    run: Run,
    dialogue: Dialogue,
    view: GraphView,
    *,
    max_replans: int,
    path_planner: bool,
    topology: bool = True,
    first_plan: list[str] | None = None,
) -> None:
    """Replan on a fully known graph: the simulator verifies each plan (with the path
    planner's poses inserted when `path_planner`); fill the Episode's plans and
    `run.final_state`.

    `first_plan`: the plan the search's last reply carried (SayPlan's one reply that
    switches and plans); the first round verifies it without asking. The Episode
    keeps the last plan the simulator judged.
    """

    async def judge(steps: list[str]) -> str:
        return _verify(run, steps, path_planner)

    await replan(
        run,
        dialogue,
        judge,
        view=lambda: view,
        max_replans=max_replans,
        topology=topology,
        first_plan=first_plan,
    )


def _verify(run: Run, steps: list[str], path_planner: bool) -> str:
    """Expand and verify one plan, record it in the Episode; the feedback, empty if it verified."""
    episode = run.episode
    episode.plan = steps
    try:
        actions = parse_plan(steps)
        full = run.navigator.expand_plan(actions) if path_planner else actions
    except (PlanParseError, UnreachableError) as exc:
        # Nothing ran: the world stays as it was, and no simulator cause applies.
        run.record_sim("verify", " > ".join(steps), False, str(exc))
        episode.full_plan, episode.action_sources = [], []
        episode.executable, episode.failure = False, None
        run.final_state = run.simulator.initial_state()
        return str(exc)
    result = run.verify(full)
    episode.plan = [str(a) for a in actions]
    episode.full_plan = [str(a) for a in full]
    episode.action_sources = _sources(actions, full)
    episode.executable = result.ok
    episode.failure = result.failure.to_dict() if result.failure else None
    run.final_state = result.final_state
    return "" if result.failure is None else _feedback(result.failure, episode.action_sources)


def _feedback(failure: Failure, sources: list[str]) -> str:
    """The simulator's feedback, counting steps as the model wrote them.

    The model never saw the poses the path planner inserted, so a failure is
    numbered by the model's own steps; one on an inserted move says so.
    """
    index = failure.index or 0  # verify_plan numbers every failure
    written = sources[: index + 1].count("llm")
    if sources[index] == "llm":
        return f"step {written} {failure.action}: {failure.reason}"
    return f"on the way to step {written + 1}, {failure.action}: {failure.reason}"


def _sources(plan: list[Action], full: list[Action]) -> list[str]:
    """Per action of the expanded plan: "llm" if the model wrote it, "nav" if the path planner did.

    The path planner keeps every action of the plan, in order, and ends each
    inserted path with the model's own goto.
    """
    sources, written = [], iter(plan)
    wanted = next(written, None)
    for action in full:
        if action == wanted:
            sources.append("llm")
            wanted = next(written, None)
        else:
            sources.append("nav")
    return sources
