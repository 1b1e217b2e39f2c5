"""LookPlanGraph: one action at a time on a memory graph that looking augments.

Algorithm 1 of the paper (§4): memory M starts as the static scene (rooms
and assets, no movable objects). Until the model says `done`:

1. the model proposes the next move from M (filtered to the robot's room and
   the objects it touched, §4.2), the instruction and the last feedback;
2. the simulator checks it against M; a failure goes back as feedback, at
   most `max_corrections` times (5: §6.2 caps replanning at five across all
   methods) for each action, as Algorithm 1 puts this loop inside each
   action (`corrections=per_action`), or in the whole run (`per_run`);
3. the valid move runs in the true world (ENV); if the world refuses it
   because M had something wrong, M is corrected and the refusal is the
   next feedback;
4. a look (`look_on`, `look_inside`) asks perception (a VLM on a camera
   image, or the simulated camera) what is there; new objects join M (§4.3).

The paper's memory lists every room. In a building too large for that (the
`collapse` option, as SayPlan's: docs/hierarchy.md) it lists the top of the
place hierarchy instead, floor groups, floors and zones with a summary each,
and the model may also `expand` or `contract` one of them to show or hide
the rooms under it. Such a move changes only what the prompt shows: it runs
nothing, but it is a step of the loop, so it counts toward `max_steps`.
"""

from __future__ import annotations

import itertools
from typing import Literal

from pydantic import Field

from sceneplan.errors import BadInputError, PlanParseError
from sceneplan.graph.views import GraphView
from sceneplan.planners.base import Planner, Run
from sceneplan.planners.dialogue import Dialogue, render
from sceneplan.planners.observing import ObserveOptions, Observer
from sceneplan.planners.options import ViewOptions
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.replies import NextMove, NextMoveReply
from sceneplan.planners.search import initial_view, unusable_reply_feedback
from sceneplan.planners.shared import MAX_STEPS, actions_text
from sceneplan.planners.supports import Supports
from sceneplan.world.actions import Action, parse_action
from sceneplan.world.vocabularies import LOOKPLANGRAPH


class LookPlanGraph(Planner):
    """LookPlanGraph: next-move loop on a memory graph, checked by the simulator, looks augment."""

    name = "lookplangraph"
    vocabulary = LOOKPLANGRAPH
    supports = Supports(tasks={"planning"})  # it acts to reach a goal, never answers a search

    class Options(ObserveOptions, ViewOptions):
        """LookPlanGraph's options: perception and memory, the view, the caps on moves and
        corrections."""

        max_steps: int = Field(MAX_STEPS, ge=1, description="cap on actions run (moves taken)")
        max_corrections: int = Field(
            5,
            ge=0,
            description="re-asks after the simulator refuses a move (§6.2: replanning is "
            "capped at five across all methods)",
        )
        corrections: Literal["per_action", "per_run"] = Field(
            "per_action",
            description="per_action: max_corrections re-asks for each action (Algorithm 1's "
            "feedback loop is inside each action); per_run: for the whole run",
        )

    options: Options

    async def _run(self, run: Run) -> None:
        """Algorithm 1: propose a move on memory, check it, run it in the world, until done."""
        observer = Observer.start(run, self.options, self.perception)
        options = self.options
        view = initial_view(
            observer.memory.graph, options.collapse, options.collapse_budget, topology=False
        )
        hierarchical = view.hierarchy is not None
        observer.places = view if hierarchical else None
        run.episode.view = "hierarchy" if hierarchical else "rooms"
        system = render(
            "lookplangraph_system.md",
            actions=actions_text(run.simulator),
            view="\n\n" + render("lookplangraph_view_hierarchy.md") if hierarchical else "",
        )
        feedback, last = "none yet", "none yet"
        run.episode.corrections = 0  # re-asks after a refusal, in the whole run
        run.episode.correction_cap = self.options.corrections  # the report names it
        try:
            for step in range(1, self.options.max_steps + 1):
                action, shown = await self._propose(run, observer, system, feedback, last, step)
                if isinstance(action, NextMove):  # expand or contract: only the view changes
                    last, feedback = str(action), _change_view(run, view, action)
                    run.emit(PlanEvent("search", "act", step, feedback))
                    continue
                if action is None:  # corrections used up: memory kept refusing
                    run.episode.executable = False
                    return
                outcome = await observer.act(action, shown=shown)  # ENV(action), and looks
                last, feedback = str(action), observer.feedback(outcome)
                run.emit(PlanEvent("verify", "act", step, feedback, outcome.ok))
                if outcome.ok and run.simulator.ends_plan(action):
                    run.episode.executable = True
                    return
            run.episode.executable = False
            run.episode.failure = {"cause": None, "message": "step cap reached before done"}
        finally:
            observer.finish()

    async def _propose(
        self, run: Run, observer: Observer, system: str, feedback: str, last: str, step: int
    ) -> tuple[Action | NextMove | None, list[str]]:
        """Ask for a move until memory finds it plausible (Alg. 1, lines 5-8).

        An expand or contract of the hierarchical view comes back as it was written.
        """
        last_failure = None
        episode, cap = run.episode, self.options.max_corrections
        total = self.options.corrections == "per_run"
        for attempt in itertools.count():
            if attempt:  # a re-ask after a refusal or an unusable reply
                made = episode.corrections or 0
                if (made if total else attempt - 1) >= cap:
                    break
                episode.corrections = made + 1
            graph, shown = observer.scene()
            dialogue = Dialogue(system)
            dialogue.user(
                render(
                    "lookplangraph_turn.md",
                    instruction=run.instruction,
                    graph=graph,
                    last=last,
                    feedback=feedback,
                    step=str(step),
                    max_steps=str(self.options.max_steps),
                )
            )
            run.emit(PlanEvent("ask", "act", step, "waiting for the next move"))
            reply = await run.ask("act", dialogue.snapshot(), NextMoveReply)
            if reply.parsed is None:
                feedback = unusable_reply_feedback(reply.text, NextMoveReply)
                continue
            move = reply.parsed.next_move
            if observer.places is not None and move.function_name.strip() in _VIEW_MOVES:
                reply.call.command = str(move)
                return move, shown
            try:
                action = parse_action(str(reply.parsed.next_move))
            except PlanParseError as exc:
                feedback = str(exc)
                continue
            if run.simulator.ends_plan(action):
                action = run.simulator.end_action()  # the paper's done(<node>) names any node
            reply.call.command = str(action)
            last_failure = observer.check(action)  # Sim(M, action)
            if last_failure is None:
                return action, shown
            feedback = last_failure.message
        run.episode.failure = (
            last_failure.to_dict()
            if last_failure is not None
            else {"cause": None, "message": f"no usable move: {feedback}"}
        )
        return None, []


_VIEW_MOVES = ("expand", "contract")


def _change_view(run: Run, view: GraphView, move: NextMove) -> str:
    """Expand or contract a floor group, floor or zone of the places view; the feedback.

    Rooms are not expanded here: going to a room shows its assets.
    """
    name, node = move.function_name.strip(), move.function_target.strip()
    try:
        if view.hierarchy is None or not view.hierarchy.is_container(node):
            view.visible(node)  # an unknown id says so, with close names
            raise BadInputError(
                f"cannot {name} '{node}': only floor groups, floors and zones can be "
                f"{name}ed here; go_to a room to see what is in it"
            )
        changed = view.expand(node) if name == "expand" else view.contract(node)
    except BadInputError as exc:
        run.record_sim(name, node, False, str(exc))
        return str(exc)
    message = f"{name}({node}) done: it {'shows' if name == 'expand' else 'hides'} "
    message += f"{len(changed)} node(s)"
    run.record_sim(name, node, True, message)
    return message
