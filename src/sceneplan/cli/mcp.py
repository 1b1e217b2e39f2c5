"""`sceneplan mcp`: serve one scene's graph, simulator and planner to an LLM agent over MCP.

Over stdio by default (the client starts the command), or streamable HTTP with
`--http PORT` on the loopback interface. Nothing but the protocol goes to
stdout; messages go to stderr. See docs/agents.md.
"""

from __future__ import annotations

from typing import Annotated

import typer

from sceneplan.cli.common import FaultsOpt, SeedOpt, err_console
from sceneplan.cli.limits import MAX_RUNS
from sceneplan.cli.targets import EnvOpt, TaskOpt, TasksOpt
from sceneplan.errors import BackendUnavailableError, BadInputError

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def mcp_command(
    env: EnvOpt = None,
    task: TaskOpt = None,
    tasks: TasksOpt = None,
    http: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, metavar="PORT", help="Serve streamable HTTP on this port (not stdio)."
        ),
    ] = None,
    host: Annotated[
        str, typer.Option(help="The interface --http listens on (loopback by default).")
    ] = "127.0.0.1",
    robot: Annotated[
        str | None,
        typer.Option(
            help="Offer the `execute` tool on this robot: sim, or a robot server's URL "
            "(which also needs --allow-real-robot)."
        ),
    ] = None,
    allow_real_robot: Annotated[
        bool,
        typer.Option(
            "--allow-real-robot", help="Let agents move the robot at --robot URL: it is real."
        ),
    ] = False,
    faults: FaultsOpt = "none",
    seed: SeedOpt = 0,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            help="Results store: the agent's run of --task is stored after every call, as "
            "planner mcp-agent (`sceneplan report` scores it).",
        ),
    ] = None,
    model: Annotated[
        str, typer.Option(help="The agent's model, as the store and report name it.")
    ] = "agent",
    run: Annotated[
        int, typer.Option(min=1, max=MAX_RUNS, help="The run number stored with --out.")
    ] = 1,
    vocabulary: Annotated[str, typer.Option(help="Action vocabulary.")] = "sayplan",
) -> None:
    """Serve a scene to LLM agents over MCP: its graph, the simulator, the planner."""
    try:
        from sceneplan.agents.server import build_server
    except ImportError:
        raise BackendUnavailableError(
            "sceneplan mcp needs the mcp SDK: pip install 'sceneplan[mcp]'"
        ) from None
    from sceneplan.agents.session import AgentSession
    from sceneplan.execute.run import check_robot
    from sceneplan.runs import pick_task, resolve

    chosen = pick_task(task, tasks)
    if chosen is None and env is None:
        raise BadInputError("give a scene: --env NAME_OR_FILE, or --task ID")
    if chosen is not None and env is not None and env != chosen.environment:
        raise BadInputError(
            f"task {chosen.id} is set in '{chosen.environment}', not '{env}'; leave out --env"
        )
    if robot is not None:
        robot = check_robot(robot)
        if robot != "sim" and not allow_real_robot:
            raise BadInputError(
                f"--robot {robot} is a real robot: add --allow-real-robot to let agents move it"
            )
    elif allow_real_robot:
        raise BadInputError("--allow-real-robot goes with --robot URL")
    if out is not None:
        from sceneplan.cli.eval import check_store_path

        check_store_path(out)
    setup = resolve(chosen if chosen is not None else "", env)
    session = AgentSession(
        setup,
        vocabulary=vocabulary,
        model=model,
        robot=robot,
        faults=faults,
        seed=seed,
        store=out,
        run=run,
    )
    server = build_server(session)
    try:
        if http is None:
            server.run("stdio")
        else:
            if host not in LOOPBACK:
                err_console().print(
                    f"warning: serving on {host}: anyone who reaches it can use the tools "
                    "(the server has no authentication)"
                )
            err_console().print(f"serving {setup.graph.name} on http://{host}:{http}/mcp")
            server.run("streamable-http", host=host, port=http)
    except KeyboardInterrupt:
        pass
    finally:
        session.close()


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_command)
