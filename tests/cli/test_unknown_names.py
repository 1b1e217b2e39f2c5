"""A name of any registry that is none of its names: one wording, the closest name, exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sceneplan.cli import app

runner = CliRunner()

CASES = [
    (
        ["plan", "-p", "sayplna", "--env", "coffee", "--llm", "ollama:m", "Go."],
        "planner 'sayplna' (did you mean 'sayplan'? known: llm_as_planner, llm_plus_p, ",
    ),
    (
        ["eval", "-s", "office-planning", "-p", "orcale"],
        "planner 'orcale' (did you mean 'oracle'? known: llm_as_planner, ",
    ),
    (
        ["llm", "check", "olama:qwen2.5:7b"],
        "LLM provider 'olama' (did you mean 'ollama'? known: openai, ollama, vllm, ",
    ),
    (
        ["graph", "import", "--from", "behaviour", "IN", "out.json"],
        "importer 'behaviour' (did you mean 'behavior'? known: stanford3dsg, behavior, ",
    ),
    (
        ["solve", "coffee", "--goal", "full(coffee_mug)", "--planner", "gbf"],
        "symbolic planner 'gbf' (did you mean 'gbfs'? known: gbfs, wastar, astar, bfsf)",
    ),
    (
        ["plan", "-p", "oracle", "-o", "planner=astra", "--env", "coffee", "Go."],
        "symbolic planner 'astra' (did you mean 'astar'? known: gbfs, wastar, astar, bfsf)",
    ),
    (
        ["graph", "stats", "cofee"],
        "environment 'cofee' (did you mean 'coffee'? known: coffee, home, ",
    ),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_an_unknown_name_is_one_line_with_the_closest_name(args, message, tmp_path):
    source = tmp_path / "IN"
    source.write_text("(define)\n", encoding="utf-8")
    args = [str(source) if a == "IN" else a for a in args]
    result = runner.invoke(app, [*args, *(["--out", str(tmp_path / "r.db")] * (args[0] == "eval"))])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert "unknown " + message in lines[0]
