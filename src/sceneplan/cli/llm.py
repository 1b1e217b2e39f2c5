"""`sceneplan llm`: check that a chat model is configured and answers as planning needs."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.text import Text

from sceneplan.cli.common import JsonOpt, console, err_console
from sceneplan.errors import LLMError
from sceneplan.llm import load_settings
from sceneplan.llm.check import CheckReport, ProbeStatus, check_model

llm_app = typer.Typer(
    help="Check the chat models sceneplan plans with (see docs/llm.md).",
    no_args_is_help=True,
)

_STYLES = {
    ProbeStatus.OK: "bold green",
    ProbeStatus.REFUSED: "yellow",
    ProbeStatus.BAD_REPLY: "bold red",
    ProbeStatus.FAILED: "bold red",
    ProbeStatus.NOT_TRIED: "dim",
}


@llm_app.command("check")
def check(
    model: Annotated[
        str | None,
        typer.Argument(
            help="PROVIDER:MODEL, e.g. ollama:qwen2.5:7b; default: the configured one.",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds the whole check may take, retries and waits included "
            "(default: the configured timeout).",
            min=0.001,
            show_default=False,
        ),
    ] = None,
    max_wait: Annotated[
        float | None,
        typer.Option(
            help="Longest wait granted to a server's Retry-After, in seconds "
            "(default: retry_after_max, else backoff_max, of the config).",
            min=0.0,
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Ask the model in each structured mode planning may use, and say which work.

    Three tiny requests, never cached: a JSON-schema reply (json_schema), JSON
    mode (json_object) and plain text with the schema in the prompt (prompt).
    Planning uses the first the server does not refuse, so that one must give
    the JSON asked for; an empty reply or an HTML page does not count. Exit
    status 0 when planning can use the model, 2 otherwise.
    """
    if model is not None and not model.strip():
        raise typer.BadParameter(
            "is empty; write PROVIDER:MODEL, e.g. ollama:qwen2.5:7b", param_hint="'MODEL'"
        )
    if timeout is not None and not math.isfinite(timeout):
        raise typer.BadParameter(f"{timeout} is not a number of seconds", param_hint="'--timeout'")
    settings = load_settings(retry_after_max=max_wait)
    total = timeout if timeout is not None else settings.timeout
    # A check should be quick to say no: at most one retry.
    settings = settings.model_copy(update={"max_retries": min(settings.max_retries, 1)})
    name = model or settings.model
    try:
        name = model or settings.default_model()
        report = check_model(
            name,
            settings,
            total_timeout=total,
            on_wait=lambda message: err_console().print(
                Text("waiting: ", style="yellow") + message
            ),
        )
    except LLMError as exc:
        if not as_json:
            raise
        print(json.dumps({"ok": False, "model": name, "error": str(exc)}, indent=2))
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        _print_report(report)
    if not report.ok:
        raise typer.Exit(2)


def _print_report(report: CheckReport) -> None:
    served = f" (served as {report.served_model})" if report.served_model else ""
    console().print(Text.assemble(("model ", "bold"), report.model, served))
    width = max(len(p.mode) for p in report.probes)
    for probe in report.probes:
        line = Text(f"  {probe.mode:<{width}}  ")
        line.append(f"{probe.status:<9}", style=_STYLES[probe.status])
        if probe.latency_s is not None:
            line.append(
                f"  {probe.latency_s:.2f} s, {probe.input_tokens} tokens in, "
                f"{probe.output_tokens} out"
            )
        if probe.detail:
            line.append(f"  {probe.detail}")
        console().print(line)
    if report.ok:
        console().print(
            Text.assemble(
                ("ok ", "bold green"), f"planning will use {report.planning_mode} replies"
            )
        )
    else:
        err_console().print(Text("error: ", style="bold red") + Text(report.problem or ""))


def register(app: typer.Typer) -> None:
    """Add the `llm` commands to the root app."""
    app.add_typer(llm_app, name="llm")
