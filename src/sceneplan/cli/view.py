"""`sceneplan view`: one self-contained HTML page of a scene graph, a run, or a stored run.

    sceneplan view office
    sceneplan view my_graph.json
    sceneplan view --episode run.json          # from `sceneplan plan ... --trace run.json`
    sceneplan view --store results.db --task planning-long-03 --planner sayplan

The page needs no network; `--serve` also serves it on 127.0.0.1 and opens
the browser. Exit status 2 on bad input (a missing file, an unknown task, a
malformed episode), with one message.
"""

from __future__ import annotations

import re
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sceneplan.cli.common import console
from sceneplan.cli.limits import MAX_RUNS
from sceneplan.cli.paths import ForceOpt, check_output_file
from sceneplan.errors import BadInputError
from sceneplan.textinput import write_text

if TYPE_CHECKING:
    from sceneplan.viewer.sources import Shown


def view(
    env: Annotated[
        str | None,
        typer.Argument(
            metavar="ENV_OR_FILE", help="A packaged environment or a scene-graph file to show."
        ),
    ] = None,
    episode: Annotated[
        Path | None,
        typer.Option("--episode", help="A trace file (`sceneplan plan ... --trace FILE`)."),
    ] = None,
    store: Annotated[
        str | None,
        typer.Option("--store", help="A results store (`sceneplan eval --out`): a file or a URL."),
    ] = None,
    task: Annotated[
        str | None, typer.Option("--task", "-t", help="With --store: the task.")
    ] = None,
    planner: Annotated[
        str | None, typer.Option("--planner", "-p", help="With --store: the planner.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="With --store: the model, when several ran.")
    ] = None,
    run: Annotated[
        int | None,
        typer.Option(
            "--run", min=0, max=MAX_RUNS, help="With --store: the run (default: the first)."
        ),
    ] = None,
    graph_env: Annotated[
        str | None,
        typer.Option(
            "--env",
            "-e",
            help="With --episode or --store: the graph the run started in, when the recorded "
            "environment cannot be loaded here.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The HTML file to write (default: view-NAME.html here)."),
    ] = None,
    serve: Annotated[
        bool,
        typer.Option("--serve", help="Also serve the page on 127.0.0.1 and open the browser."),
    ] = False,
    port: Annotated[int, typer.Option(min=0, max=65535, help="With --serve (0: any free).")] = 0,
    force: ForceOpt = False,
) -> None:
    """Write one self-contained HTML page showing a scene graph, or a run on it."""
    from sceneplan.viewer import render_page  # the viewer loads the whole stack: only when asked

    if out is not None:  # before any work: a bad path costs nothing
        check_output_file(out, "the page", force=force)
    shown, name = _what(env, episode, store, task, planner, model, run, graph_env)
    path = out if out is not None else Path(f"view-{_slug(name)}.html")
    check_output_file(path, "the page", force=force)
    html = render_page(shown)
    write_text(path, html, "the page")
    if shown.note:
        console().print(shown.note)
    console().print(f"wrote {path} ({len(html.encode('utf-8')) / 1e6:.2f} MB)")
    if serve:
        _serve(html, port)


def _what(
    env: str | None,
    episode: Path | None,
    store: str | None,
    task: str | None,
    planner: str | None,
    model: str | None,
    run: int | None,
    graph_env: str | None,
) -> tuple[Shown, str]:
    """What to show, from exactly one of ENV_OR_FILE, --episode and --store."""
    from sceneplan.viewer.sources import from_environment, from_episode, from_store, read_episode

    given = [
        label
        for label, value in (("ENV_OR_FILE", env), ("--episode", episode), ("--store", store))
        if value is not None
    ]
    if len(given) != 1:
        raise BadInputError(
            "give one of ENV_OR_FILE, --episode FILE, or --store FILE --task ID --planner NAME"
            + (f" (got {' and '.join(given)})" if given else "")
        )
    if store is None and any(v is not None for v in (task, planner, model, run)):
        raise BadInputError("--task, --planner, --model and --run go with --store")
    if graph_env is not None and env is not None:
        raise BadInputError("--env goes with --episode or --store; give the graph as ENV_OR_FILE")
    if env is not None:
        return from_environment(env), Path(env).stem if env.endswith(".json") else env
    if episode is not None:
        return from_episode(read_episode(episode), graph_env), episode.stem
    assert store is not None
    if task is None or planner is None:
        raise BadInputError("--store needs --task ID and --planner NAME")
    found, note = from_store(store, task, planner, model, run)
    return from_episode(found, graph_env, note), f"{task}-{planner}"


def _slug(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("_") or "page"


def _serve(html: str, port: int) -> None:
    from sceneplan.viewer.serve import serve_in_background

    try:
        server, address = serve_in_background(html, port)
    except OSError as exc:
        raise BadInputError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror}") from None
    console().print(f"serving {address} (Ctrl-C stops)")
    webbrowser.open(address)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()


def register(app: typer.Typer) -> None:
    app.command("view")(view)
