"""`sceneplan llm`: check that a chat model is configured and answers."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from sceneplan.errors import LLMError
from sceneplan.llm import LLMClient, load_settings

console = Console(highlight=False)

llm_app = typer.Typer(
    help="Check the chat models sceneplan plans with (see docs/llm.md).",
    no_args_is_help=True,
)

CHECK_PROMPT = [
    {"role": "system", "content": "You are a connectivity check. Answer in one word."},
    {"role": "user", "content": "Reply with the single word: ok"},
]


@llm_app.command("check")
def check(
    model: Annotated[
        str | None,
        typer.Argument(help="PROVIDER:MODEL, e.g. ollama:qwen2.5:7b; default: the configured one."),
    ] = None,
    timeout: Annotated[
        float | None, typer.Option(help="Seconds to wait for the answer.", min=0.001)
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Send one tiny request (never cached) and report success, latency and the reply."""
    settings = load_settings(timeout=timeout)
    # A check should be quick to say no: at most one retry, and nothing cached or recorded.
    settings = settings.model_copy(
        update={"cache": False, "transcript": None, "max_retries": min(settings.max_retries, 1)}
    )
    name = model or settings.model
    try:
        with LLMClient(model, settings=settings) as llm:
            name = llm.model
            response = llm.complete(CHECK_PROMPT)
    except LLMError as exc:
        if not as_json:
            raise
        print(json.dumps({"ok": False, "model": name, "error": str(exc)}, indent=2))
        raise typer.Exit(2) from None
    usage = response.usage
    if as_json:
        report = {
            "ok": True,
            "model": response.model,
            "served_model": response.served_model,
            "reply": response.text,
            **usage.to_dict(),
        }
        print(json.dumps(report, indent=2))
        return
    console.print(
        Text.assemble(
            ("ok ", "bold green"),
            (response.model, "bold"),
            f" answered in {usage.latency_s:.2f} s",
            f" (served as {response.served_model}; "
            f"{usage.input_tokens} tokens in, {usage.output_tokens} out)",
        )
    )
    console.print(Text.assemble(("reply: ", "bold"), response.text.strip()))


def register(app: typer.Typer) -> None:
    """Add the `llm` commands to the root app."""
    app.add_typer(llm_app, name="llm")
