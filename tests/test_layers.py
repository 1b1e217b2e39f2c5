"""Lower layers never import higher ones (DESIGN.md, 'The house')."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sceneplan"

# What each part may import, besides itself, sceneplan.errors and sceneplan.plugins.
ALLOWED = {
    "graph": set(),
    "world": {"graph"},
    "nav": {"graph", "world"},
    "llm": set(),
    "datasets": {"graph"},
    "symbolic": {"graph", "world", "nav"},
    "planners": {"graph", "world", "nav", "symbolic", "llm", "datasets"},
    "eval": {"graph", "world", "nav", "symbolic", "llm", "datasets", "planners"},
}


def imported_parts(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "sceneplan" and len(parts) > 1:
                out.add(parts[1])
    return out


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_no_upward_imports(part):
    files = [PACKAGE / "nav.py"] if part == "nav" else sorted((PACKAGE / part).rglob("*.py"))
    assert files
    allowed = ALLOWED[part] | {part, "errors", "plugins"}
    for path in files:
        bad = imported_parts(path) - allowed
        assert not bad, f"{path.relative_to(PACKAGE)} imports sceneplan.{', '.join(sorted(bad))}"
