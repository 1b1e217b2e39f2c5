"""Semantic search (SayPlan Sec. 3.3, Algorithm 1 stage 1), shared by the SayPlan family.

The model starts from the collapsed graph and, turn by turn, expands or
contracts nodes until it switches to planning. The graph starts collapsed to
its rooms (SayPlan's), or, when that is too large for a prompt, to the top
of the place hierarchy (`initial_view`, the `collapse` option;
docs/hierarchy.md), where floors, floor groups and zones expand and contract
like rooms. Each turn shows it the
instruction, the current view, the memory of expanded nodes and the feedback
of the last turn; a command that cannot be applied becomes that feedback. A
search task's turns also say what to answer with: the kind of node the task
asks for (room, asset or object) and how many.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from sceneplan.errors import BadInputError, UnknownNodeError
from sceneplan.graph.model import PLACE_KINDS, SceneGraph
from sceneplan.graph.tokens import count_tokens
from sceneplan.graph.views import GraphView, collapse, collapse_hierarchy
from sceneplan.llm.structured import parse_reply
from sceneplan.planners.base import Reply, Run
from sceneplan.planners.dialogue import Dialogue, graph_text, memory_text
from sceneplan.planners.episode import SearchTurn
from sceneplan.planners.options import AUTO_BUDGET, Collapse
from sceneplan.planners.progress import PlanEvent
from sceneplan.planners.replies import Command, FindReply, PlanningSearchReply, SearchReply
from sceneplan.planners.supports import kind_of
from sceneplan.world.domain import Cause
from sceneplan.world.task import Task

SEARCH_TURN = "sayplan_search_turn.md"
FIND_TURN = "sayplan_find_turn.md"  # a search task's turn: says what to answer with
LAST_TURN = "This is your last search turn: switch to planning mode now."


@dataclass
class SearchResult:
    """The view the search ended with, the answer named (search tasks) and how it ended."""

    view: GraphView
    answer: list[str] = field(default_factory=list)
    switched: bool = False  # the model switched to planning (else the turn cap ended it)
    plan: list[str] | None = None  # the plan the switching reply carried (`with_plan`)


def initial_view(
    graph: SceneGraph,
    how: Collapse = "auto",
    budget: int = AUTO_BUDGET,
    *,
    topology: bool = True,
) -> GraphView:
    """The view a search starts from: collapsed to rooms, or the top of the place hierarchy.

    `auto` takes the rooms view when its prompt text (with poses and links when
    `topology`) fits `budget` tokens, as the Office and Home graphs do, and
    the hierarchy otherwise. A place costs at least a token, so a graph with
    more places than the budget goes to the hierarchy without serializing them.
    """
    if how == "hierarchy":
        return collapse_hierarchy(graph)
    if how == "rooms":
        return collapse(graph)
    if sum(node.kind in PLACE_KINDS for node in graph) <= budget:
        view = collapse(graph)
        if count_tokens(graph_text(view, topology=topology)) <= budget:
            return view
    return collapse_hierarchy(graph)


def view_mode(view: GraphView) -> str:
    """`rooms` or `hierarchy`: how a view was collapsed (for the Episode and the prompts)."""
    return "rooms" if view.hierarchy is None else "hierarchy"


def is_search(run: Run) -> bool:
    """Whether the run is a search task: the task says so, or the instruction asks to find
    (`supports.kind_of`)."""
    return kind_of(run.task, run.instruction) == "search"


_KINDS = {
    "room": "room node (the room itself, not something in it)",
    "asset": "asset node (furniture or an appliance, not its room nor what is on or in it)",
    "object": "object node (the thing itself, not the asset or room it is in)",
}


def answer_with(task: Task | None) -> str:
    """What a search task's answer names: the node kind it asks for, and how many.

    >>> answer_with(None)
    'the ids of the nodes the instruction asks for (rooms, assets or objects); [] if nothing in the building answers it'
    """  # noqa: E501
    if task is None or task.answer_kind is None:
        what = "the ids of the nodes the instruction asks for (rooms, assets or objects)"
    elif task.needed == 1:
        what = f"the id of one {_KINDS[task.answer_kind]}"
    else:
        what = f"the ids of {task.needed} different nodes, each a {_KINDS[task.answer_kind]}"
    return f"{what}; [] if nothing in the building answers it"


def unusable_reply_feedback(reply: str, schema: type[BaseModel]) -> str:
    """Feedback for a reply that stayed unusable after the client's re-ask: what is wrong."""
    problems = parse_reply(reply, schema)[1] if reply.strip() else ["it was empty"]
    return (
        f"your last reply could not be used ({'; '.join(problems)}); "
        "reply with one JSON object in the format described"
    )


async def semantic_search(
    run: Run,
    dialogue: Dialogue,
    *,
    find: bool,
    max_turns: int,
    topology: bool = True,
    view: GraphView | None = None,
    with_plan: bool = False,
) -> SearchResult:
    """Run the search in `dialogue`; record every turn in the Episode and `explored`.

    `find` asks for the answer nodes of a search task when the model stops.
    `with_plan` (a planning task in SayPlan's one dialogue): the reply that switches
    to planning may carry the first plan, as in the paper, saving a call.
    `view` is where the search starts (default: collapsed to rooms); the
    Episode's `view` says which it was.
    """
    view = view if view is not None else collapse(run.graph)
    run.episode.view = view_mode(view)
    schema = FindReply if find else PlanningSearchReply if with_plan else SearchReply
    template, asked = SEARCH_TURN, {}
    if find:
        template, asked = FIND_TURN, {"answer_with": answer_with(run.task)}
    feedback = ""
    try:
        for turn in range(1, max_turns + 1):
            if turn == max_turns:
                feedback = f"{feedback} {LAST_TURN}".strip()
            graph = graph_text(view, topology=topology)
            dialogue.user_turn(
                template,
                graph=graph,
                instruction=run.instruction,
                memory=memory_text(view),
                feedback=feedback or "none",
                **asked,
            )
            tokens = (count_tokens(graph), dialogue.tokens())
            record = SearchTurn(turn, "invalid", None, False, "", *tokens)
            run.emit(PlanEvent("ask", "search", turn, "waiting for the model"))
            reply = await run.ask("search", dialogue.snapshot(), schema)
            if reply.text:
                dialogue.assistant(reply.text)
            answer = _take_turn(run, view, record, reply, schema)
            run.episode.search.append(record)
            data = {"command": record.command, "node": record.node, "memory": record.memory}
            if answer is not None:
                data["answer"] = answer
                run.emit(PlanEvent("answer", "search", turn, record.feedback, data=data))
                carried = getattr(reply.parsed, "plan", None) or None
                return SearchResult(view, answer, switched=True, plan=carried)
            run.emit(PlanEvent("search", "search", turn, record.feedback, record.ok, data))
            feedback = record.feedback
        return SearchResult(view)
    finally:
        run.episode.explored = view.memory
        # the nodes it expanded and still shows: what planning goes on with (Table 1's found)
        run.episode.subgraph = [n for n in view.expanded if n in set(view.memory)]


def _take_turn(
    run: Run,
    view: GraphView,
    record: SearchTurn,
    reply: Reply[SearchReply],
    schema: type[SearchReply],
) -> list[str] | None:
    """Act on one reply and fill in its turn; the answer if the model switched to planning.

    The answer is empty for planning tasks; None means the search goes on.
    """
    call, parsed = reply.call, reply.parsed
    answer = None
    if parsed is None:
        record.feedback = unusable_reply_feedback(reply.text, schema)
    elif parsed.mode == "planning":
        answer = list(parsed.answer) if isinstance(parsed, FindReply) else []
        call.command = "planning"
        record.command, record.ok = ("answer" if schema is FindReply else "plan"), True
        record.feedback = f"switched to planning after {record.turn} turn(s)"
        if schema is FindReply:
            record.feedback += f"; answer: {', '.join(answer) or 'nothing'}"
    elif parsed.command is None:
        record.feedback = "in exploring mode, give a command (expand or contract a node)"
    else:
        call.command = str(parsed.command)
        record.command, record.node = parsed.command.name, parsed.command.node
        record.ok, record.feedback = _apply(run, view, parsed.command)
    record.memory = view.memory
    return answer


def _apply(run: Run, view: GraphView, command: Command) -> tuple[bool, str]:
    """Apply an expand or contract; a failure's message is the feedback."""
    try:
        if command.name == "expand":
            changed, verb = view.expand(command.node), "shows"
        else:
            changed, verb = view.contract(command.node), "hides"
    except BadInputError as exc:  # an unknown node, or one the view cannot expand/contract
        cause = Cause.UNKNOWN_NODE.value if isinstance(exc, UnknownNodeError) else None
        run.record_sim(command.name, command.node, False, str(exc), cause)
        return False, str(exc)
    message = f"{command} done: it {verb} {len(changed)} node(s)"
    run.record_sim(command.name, command.node, True, message)
    return True, message
