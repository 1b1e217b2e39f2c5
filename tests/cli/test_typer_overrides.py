"""What cli/__init__.py changes of typer, through public methods only: help in click's words,
and text values that skip typer's pydantic adapter yet behave as typer's own."""

from __future__ import annotations

import re
from typing import Annotated

import typer
from typer.testing import CliRunner

from sceneplan.cli import app
from source_scan import lines_matching

runner = CliRunner()


def test_a_required_text_argument_left_out_is_typers_missing_argument():
    result = runner.invoke(app, ["verify", "coffee"])
    assert result.exit_code == 2
    assert "Missing argument 'plan'" in result.output
    assert "Usage: sceneplan verify [OPTIONS] ENV PLAN" in result.output  # click's words


SEEN: list[str | None] = []


def remember(value: str | None) -> str | None:
    SEEN.append(value)
    return value.upper() if value else value


demo = typer.Typer()


@demo.command()
def run(
    name: Annotated[str | None, typer.Option(callback=remember)] = None,
    loud: bool = False,
) -> None:
    print(f"name={name} loud={loud}")


def test_a_text_options_callback_sees_the_value_and_none_when_left_out():
    SEEN.clear()
    assert runner.invoke(demo, ["--name", "tom", "--loud"]).output == "name=TOM loud=True\n"
    assert runner.invoke(demo, []).output == "name=None loud=False\n"
    assert SEEN == ["tom", None]


def test_no_module_touches_a_private_name_of_typer_or_click():
    private = re.compile(
        r"\b(typer|click)(\.\w+)*\._\w|from (typer|click)(\.\w+)*\._\w|_TyperParameter"
    )
    assert lines_matching(private) == []
