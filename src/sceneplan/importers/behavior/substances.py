"""What a BEHAVIOR goal asks of substances, for the importer (see `convert.substance_goal`).

`substance_targets`: the things the goal fills or soaks (they get `fill` / `soak`
even when the taxonomy does not say fillable or cloth). `substance_gaps`: why a
goal's substance cannot come about (nothing in the scene holds or gives it).
"""

from __future__ import annotations

from sceneplan.importers.behavior.convert import Scene, lemma
from sceneplan.importers.behavior.goal import Ground, atoms
from sceneplan.world.substances import (
    CONTAINS,
    COVERED,
    FILLED,
    HELD_IN,
    INSOURCE,
    SATURATED,
    substance_word,
)

__all__ = ["substance_gaps", "substance_targets"]


def substance_targets(goal: Ground, substances: dict[str, str]) -> dict[str, set[str]]:
    """`fill`: instances a positive goal atom fills or puts a substance in; `soak`: those it
    soaks; `coat`: those it covers or uncovers."""
    out: dict[str, set[str]] = {"fill": set(), "soak": set(), "coat": set()}
    for atom, negated in atoms(goal):
        if len(atom) != 4 or atom[3] not in substances:
            continue
        if atom[1] == COVERED:
            out["coat"].add(atom[2])
        elif negated:
            continue
        elif atom[1] in (FILLED, CONTAINS):
            out["fill"].add(atom[2])
        elif atom[1] == SATURATED:
            out["soak"].add(atom[2])
    return out


def substance_gaps(goal: Ground, substances: dict[str, str], scene: Scene) -> list[str]:
    """A positive goal atom putting a substance somewhere (filled, contains, saturated,
    covered) needs something of the scene to hold or give that substance at the start."""
    words = {w for n in scene.nodes for w in n.get("state", ())}
    gaps = []
    for atom, negated in atoms(goal):
        if negated or len(atom) != 4 or atom[3] not in substances:
            continue
        if atom[1] not in (FILLED, CONTAINS, SATURATED, COVERED):
            continue
        m = lemma(substances[atom[3]])
        have = {substance_word(r, m) for r in (*HELD_IN, INSOURCE)}
        if not have & words and substance_word(atom[1], m) not in words:
            gaps.append(
                f"goal needs {atom[1]} with a substance nothing of the scene holds or gives"
            )
    return gaps
