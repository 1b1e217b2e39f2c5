"""The MCP server: an `AgentSession`'s operations as tools, the suites as resources, a prompt.

Built on the official `mcp` SDK's `MCPServer` (the `mcp` extra). Tools are
plain functions whose parameters and return types declare their schemas;
a `SceneplanError` raised for bad input becomes a tool error carrying its
message, and arguments that do not fit a schema (wrong types, strings past
the limits of `agents.models`) are refused by the SDK before any work, as
tool errors too. A middleware records every tool call and its result in the
session (`AgentSession.record_call`), refused ones included.

No `from __future__ import annotations` here: the SDK reads the tools'
annotations at run time.
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from string import Template
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from sceneplan.agents.models import (
    MAX_NODE,
    MAX_QUERY,
    MAX_SOLVE_S,
    MAX_STEPS,
    Answered,
    Execution,
    Found,
    GoalCheck,
    GoalText,
    NodeId,
    PlanSteps,
    Solution,
    Verdict,
    View,
)
from sceneplan.agents.session import AgentSession
from sceneplan.datasets import list_environments
from sceneplan.datasets.tasks import get_task, list_suites, load_suite
from sceneplan.errors import SceneplanError
from sceneplan.planners.shared import actions_text
from sceneplan.world import Task

NAME = "sceneplan"
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
SIMULATED = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


@contextmanager
def _reported_as(kind: type[Exception]) -> Iterator[None]:
    """Bad input (a `SceneplanError`) as the SDK's error `kind` (a tool or resource error),
    with the CLI's message: the client gets it as the call's error, the server goes on."""
    try:
        yield
    except SceneplanError as exc:
        raise kind(str(exc)) from None


def build_server(session: AgentSession) -> MCPServer[Any]:
    """The server of one scene: `execute` only when the session has a robot."""
    server: MCPServer[Any] = MCPServer(
        NAME,
        title="sceneplan: scene graph, simulator and planner",
        instructions=agent_prompt(session),
        log_level="WARNING",
    )

    @server.tool(annotations=READ_ONLY)
    def graph_view() -> View:
        """The scene graph as the agent sees it now: collapsed to its rooms (SayPlan's
        start), with the nodes expanded so far; `memory` lists them."""
        with _reported_as(ToolError):
            return session.view()

    @server.tool(annotations=SIMULATED)
    def expand(node: NodeId) -> View:
        """Show the assets and objects of a room (or what a floor or zone holds)."""
        with _reported_as(ToolError):
            return session.expand(node)

    @server.tool(annotations=SIMULATED)
    def contract(node: NodeId) -> View:
        """Hide what `expand` showed under a node; it stays in `memory`."""
        with _reported_as(ToolError):
            return session.contract(node)

    @server.tool(annotations=READ_ONLY)
    def find(
        query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY)],
        kind: Annotated[
            str | None,
            Field(max_length=MAX_NODE, description="room, asset, object, pose or floor"),
        ] = None,
    ) -> Found:
        """Nodes whose id contains `query` or whose category is `query`, with their room,
        state and affordances, whether or not the view shows them."""
        with _reported_as(ToolError):
            return session.find(query, kind)

    @server.tool(annotations=SIMULATED)
    def verify_plan(plan: PlanSteps) -> Verdict:
        """Run a plan in the scene-graph simulator: the path planner fills in the poses,
        then every step's preconditions are checked. The feedback names the failing step
        and why. The last plan verified is the agent's answer to a planning task."""
        with _reported_as(ToolError):
            return session.verify_plan(plan)

    @server.tool(annotations=READ_ONLY)
    def solve(
        goal: GoalText | None = None,
        timeout: Annotated[float, Field(gt=0, le=MAX_SOLVE_S)] = 10.0,
    ) -> Solution:
        """A plan that reaches a formal goal (default: this task's), found by the symbolic
        planner and verified; `reason` says why there is none."""
        with _reported_as(ToolError):
            return session.solve(goal, timeout)

    @server.tool(annotations=READ_ONLY)
    def check_goal(goal: GoalText | None = None, plan: PlanSteps | None = None) -> GoalCheck:
        """Whether a formal goal (default: this task's) holds at the start, or after a
        plan; `unmet` lists the parts that do not hold."""
        with _reported_as(ToolError):
            return session.check_goal(goal, plan)

    @server.tool(annotations=SIMULATED)
    def answer(
        nodes: Annotated[
            list[Annotated[str, Field(max_length=MAX_NODE)]], Field(max_length=MAX_STEPS)
        ],
    ) -> Answered:
        """Name the node ids that answer a search instruction ("find me ..."); [] for none."""
        with _reported_as(ToolError):
            return session.answer(nodes)

    if session.robot is not None:
        real = session.robot.strip() != "sim"

        about = (
            "Run a plan (default: the last one verified) on the robot, skill by skill, "
            "observing and replanning on the way; the executor's record. "
        ) + ("The robot is REAL: every step moves it." if real else "The robot is simulated.")
        acts = ToolAnnotations(read_only_hint=False, destructive_hint=real, open_world_hint=real)

        @server.tool(description=about, annotations=acts)
        async def execute(plan: PlanSteps | None = None) -> Execution:
            with _reported_as(ToolError):
                return await session.execute(plan)

    _resources(server, session)

    @server.prompt(name="sayplan_agent")
    def sayplan_agent(instruction: str = "") -> str:
        """Instructions for an agent planning with these tools, SayPlan's way: search the
        collapsed graph, plan, verify, correct."""
        return agent_prompt(session, instruction or None)

    server.middleware.append(_Recorder(session))
    return server


def _resources(server: MCPServer[Any], session: AgentSession) -> None:
    @server.resource("sceneplan://environments", mime_type="application/json")
    def environments() -> str:
        """The packaged environments (names for `sceneplan mcp --env`)."""
        return json.dumps(list_environments())

    @server.resource("sceneplan://suites", mime_type="application/json")
    def suites() -> str:
        """The packaged task suites."""
        return json.dumps(list_suites())

    @server.resource("sceneplan://suites/{suite}", mime_type="application/json")
    def suite(suite: str) -> str:
        """A suite's tasks: id, family, environment and instruction."""
        with _reported_as(ResourceError):
            tasks = load_suite(suite)
        fields = {"id", "family", "environment", "instruction"}
        return json.dumps([{k: v for k, v in t.to_dict().items() if k in fields} for t in tasks])

    @server.resource("sceneplan://tasks/{task_id}", mime_type="application/json")
    def task(task_id: str) -> str:
        """A task's instruction and formal goal (what an agent is given, not its answers)."""
        with _reported_as(ResourceError):
            return json.dumps(task_brief(get_task(task_id)))

    @server.resource("sceneplan://task", mime_type="application/json")
    def this_task() -> str:
        """This server's task (`--task`), or its instruction and environment."""
        if session.task is not None:
            return json.dumps(task_brief(session.task))
        return json.dumps({"instruction": session.instruction, "environment": session.graph.name})


# What an agent may read of a task: the answers, their rooms and the reference plan stay out.
BRIEF = {
    "id",
    "suite",
    "family",
    "environment",
    "instruction",
    "goal",
    "answer_kind",
    "answer_count",
}


def task_brief(task: Task) -> dict[str, Any]:
    """A task as an agent is given it: its instruction and formal goal, not its answers."""
    return {k: v for k, v in task.to_dict().items() if k in BRIEF and v is not None}


def agent_prompt(session: AgentSession, instruction: str | None = None) -> str:
    """The prompt for an agent on this server's scene (`agents/prompts/agent.md`)."""
    text = (resources.files("sceneplan.agents") / "prompts" / "agent.md").read_text("utf-8")
    goal = session.task.goal if session.task is not None and instruction is None else None
    if session.robot is None:
        execute = ""
    else:
        where = "a simulated robot" if session.robot.strip() == "sim" else "a REAL robot"
        execute = (
            f"7. `execute` runs a verified plan on {where}. Call it only when the user asks "
            "for the plan to be carried out.\n"
        )
    return Template(text).substitute(
        instruction=instruction or session.instruction or "(given by the user)",
        goal=f"Formal goal: {goal}\n" if goal else "",
        actions="\n".join(f"   {line}" for line in actions_text(session.simulator).splitlines()),
        execute=execute,
    )


class _Recorder:
    """Middleware: every tool call with its result (or error) goes into the session's record."""

    def __init__(self, session: AgentSession) -> None:
        self.session = session

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = dict(ctx.params or {})
        tool, arguments = str(params.get("name", "")), params.get("arguments")
        try:
            result = await call_next(ctx)
        except Exception as exc:  # refused before the tool ran: malformed params
            self.session.record_call(tool, arguments, False, str(exc))
            raise
        data = (
            result.model_dump(by_alias=True, exclude_none=True)
            if isinstance(result, BaseModel)
            else dict(result or {})
        )
        ok = not data.get("isError", False)
        content = data.get("structuredContent")
        if content is None:
            content = "\n".join(c.get("text", "") for c in data.get("content", []))
        self.session.record_call(tool, arguments, ok, content)
        return result
