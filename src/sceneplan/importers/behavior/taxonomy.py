"""Synset properties: what decides fixed vs movable and the affordances of BEHAVIOR objects.

`BddlTaxonomy` reads the taxonomy of the installed `bddl` package (the
`behavior` extra); `DictTaxonomy` takes a mapping, for tests and for users
without bddl.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Protocol

from sceneplan.errors import BackendUnavailableError, BadInputError

__all__ = ["BddlTaxonomy", "DictTaxonomy", "Taxonomy", "default_taxonomy"]


class Taxonomy(Protocol):
    """What the importer asks of a synset taxonomy."""

    def properties(self, synset: str) -> frozenset[str]:
        """The synset's properties (`sceneObject`, `openable`, ...); BadInputError if unknown."""
        ...

    def parameters(self, synset: str, prop: str) -> Mapping[str, float]:
        """The parameters of one of the synset's properties (`heatSource`:
        `requires_inside`, `temperature`, ...); empty when none are known."""
        ...

    def is_a(self, synset: str, ancestor: str) -> bool:
        """Whether `synset` is `ancestor` or one of its descendants."""
        ...


class DictTaxonomy:
    """A taxonomy from a mapping synset -> properties (and optional parents)."""

    def __init__(
        self,
        properties: Mapping[str, frozenset[str] | set[str] | list[str]],
        parents: Mapping[str, str] | None = None,
        parameters: Mapping[tuple[str, str], Mapping[str, float]] | None = None,
    ):
        self._props = {k: frozenset(v) for k, v in properties.items()}
        self._parents = dict(parents or {})
        self._params = dict(parameters or {})

    def properties(self, synset: str) -> frozenset[str]:
        if synset not in self._props:
            raise BadInputError(f"unknown synset '{synset}': not in the taxonomy given")
        return self._props[synset]

    def parameters(self, synset: str, prop: str) -> Mapping[str, float]:
        return self._params.get((synset, prop), {})

    def is_a(self, synset: str, ancestor: str) -> bool:
        current: str | None = synset
        while current is not None:
            if current == ancestor:
                return True
            current = self._parents.get(current)
        return False


class BddlTaxonomy:
    """The synset taxonomy of the installed `bddl` package."""

    def __init__(self) -> None:
        try:
            import bddl
            from bddl.object_taxonomy import ObjectTaxonomy
        except ImportError:
            raise BackendUnavailableError(
                "the behavior importer needs the bddl package's synset taxonomy: "
                "pip install 'sceneplan[behavior]'"
            ) from None
        self.version = getattr(bddl, "__version__", "?")
        self._tax = ObjectTaxonomy()

    def properties(self, synset: str) -> frozenset[str]:
        if not self._tax.is_valid_synset(synset):
            raise BadInputError(
                f"unknown synset '{synset}': not in the taxonomy of bddl {self.version}"
            )
        return frozenset(self._tax.get_abilities(synset))

    def parameters(self, synset: str, prop: str) -> Mapping[str, float]:
        if not self._tax.is_valid_synset(synset):
            return {}
        return self._tax.get_abilities(synset).get(prop) or {}

    def is_a(self, synset: str, ancestor: str) -> bool:
        if synset == ancestor:
            return True
        if not (self._tax.is_valid_synset(synset) and self._tax.is_valid_synset(ancestor)):
            return False
        return self._tax.is_descendant(synset, ancestor)


@cache
def default_taxonomy() -> BddlTaxonomy:
    """The bddl taxonomy, loaded once (about 0.2 s)."""
    return BddlTaxonomy()
