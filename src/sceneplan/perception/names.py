"""Matching a perceived name ("Coffee mug", "cups", "mug 2") to a known category.

A perceiver names what it sees in its own words; memory and goals speak in
categories (`mug`, `bottled_water`). `NameMatcher(categories).match(name)`
tries, in order: the name itself after normalising (lower case, words joined
by `_`, articles and trailing numbers dropped), its singular, a synonym from
the packaged table (`synonyms.yaml`), the same for the name without its
leading modifiers ("red apple" -> "apple"), the one category with the same
head noun ("mug" -> "coffee_mug"), and a close spelling ("bananna"). It
returns None when nothing matches: a vague word ("fruit", "object") names
no category.

>>> matcher = NameMatcher(["mug", "bottled_water", "apple", "coffee_machine"])
>>> [matcher.match(n) for n in ("Coffee mug", "cups", "mug 2", "water bottle", "apples")]
['mug', 'mug', 'mug', 'bottled_water', 'apple']
>>> matcher.match("coffee machin"), matcher.match("fruit")
('coffee_machine', None)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from sceneplan.errors import BadInputError

__all__ = ["NameMatcher", "SynonymTable", "match_category", "normalise", "singulars", "synonyms"]

_WORD = re.compile(r"[a-z]+[0-9]*|[0-9]+")
_LEADING = frozenset({"a", "an", "the", "some", "one", "two", "three", "several", "few", "many"})
CLOSE_CUTOFF = 0.85
"""How alike (difflib ratio) a misspelt name must be to a category to match it."""


def normalise(name: str) -> str:
    """A name as a category would spell it: lower case, words joined by `_`, no count or number.

    >>> normalise("  The Coffee-Mug #2 "), normalise("apple_3"), normalise("T-shirt")
    ('coffee_mug', 'apple', 't_shirt')
    """
    words = _WORD.findall(str(name).lower().replace("_", " "))
    while words and words[0] in _LEADING:
        words.pop(0)
    while words and words[-1].isdigit():
        words.pop()
    if words:
        words[-1] = words[-1].rstrip("0123456789") or words[-1]
    return "_".join(words)


def singulars(key: str) -> list[str]:
    """The normalised name, then the singular forms its last word may have.

    >>> singulars("knives"), singulars("berries"), singulars("glass"), singulars("tomatoes")
    (['knives', 'knife', 'knif'], ['berries', 'berry'], ['glass'], ['tomatoes', 'tomato'])
    """
    head, _, last = key.rpartition("_")
    prefix = f"{head}_" if head else ""
    forms = [last]
    if len(last) > 4 and last.endswith("ies"):
        forms.append(last[:-3] + "y")
    elif len(last) > 3 and last.endswith("ves"):
        forms += [last[:-3] + "fe", last[:-3] + "f"]
    elif last.endswith(("oes", "ches", "shes", "sses", "xes", "zes")) and len(last) > 3:
        forms.append(last[:-2])
    elif len(last) > 2 and last.endswith("s") and not last.endswith(("ss", "us", "is")):
        forms.append(last[:-1])
    return [prefix + form for form in dict.fromkeys(forms)]


@dataclass(frozen=True)
class SynonymTable:
    """The packaged names table: synonyms of categories, broader words, common objects."""

    synonyms: dict[str, tuple[str, ...]]
    """canonical category -> other names for it (normalised)"""
    broader: dict[str, tuple[str, ...]]
    """broader word -> the categories it covers"""
    common: tuple[str, ...]
    """movable objects found in most homes and offices"""
    by_synonym: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    """a name -> the categories it may stand for, in table order"""

    def __post_init__(self) -> None:
        inverted: dict[str, list[str]] = {}
        for canonical, names in self.synonyms.items():
            for name in names:
                if canonical not in inverted.setdefault(name, []):
                    inverted[name].append(canonical)
        object.__setattr__(self, "by_synonym", {k: tuple(v) for k, v in inverted.items()})

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "synonyms table") -> SynonymTable:
        if not isinstance(data, dict) or data.get("format") != "sceneplan-synonyms":
            raise BadInputError(f"{source}: not a sceneplan-synonyms file")
        try:
            synonyms = {
                normalise(k): tuple(normalise(v) for v in values)
                for k, values in (data.get("synonyms") or {}).items()
            }
            broader = {
                normalise(k): tuple(normalise(v) for v in values)
                for k, values in (data.get("broader") or {}).items()
            }
            common = tuple(normalise(v) for v in data.get("common") or ())
        except (AttributeError, TypeError) as exc:
            raise BadInputError(f"{source}: each entry must be a list of names ({exc})") from None
        return cls(synonyms, broader, common)

    def names_for(self, category: str) -> tuple[str, ...]:
        """Other names of a category: its synonyms, else those of its head noun."""
        key = normalise(category)
        if key in self.synonyms:
            return self.synonyms[key]
        return self.synonyms.get(key.rpartition("_")[2], ())

    def broader_of(self, category: str) -> tuple[str, ...]:
        """The broader words that cover a category ("fruit" for apple)."""
        key = normalise(category)
        return tuple(word for word, covered in self.broader.items() if key in covered)


@cache
def synonyms() -> SynonymTable:
    """The table shipped with sceneplan (`perception/synonyms.yaml`)."""
    text = (resources.files("sceneplan.perception") / "synonyms.yaml").read_text("utf-8")
    return SynonymTable.from_dict(yaml.safe_load(text), "perception/synonyms.yaml")


class NameMatcher:
    """Matches perceived names to a fixed set of categories (results are remembered)."""

    def __init__(self, categories: Iterable[str], table: SynonymTable | None = None) -> None:
        self.table = table if table is not None else synonyms()
        self.categories: tuple[str, ...] = tuple(dict.fromkeys(c for c in categories if c))
        self._exact: dict[str, str] = {}
        for category in self.categories:
            for form in singulars(normalise(category)):
                self._exact.setdefault(form, category)
        self._by_head: dict[str, list[str]] = {}
        for category in self.categories:
            head = singulars(normalise(category).rpartition("_")[2])[-1]
            self._by_head.setdefault(head, []).append(category)
        self._memo: dict[str, str | None] = {}

    def match(self, name: str) -> str | None:
        """The category `name` stands for, or None."""
        if name in self._memo:
            return self._memo[name]
        found = self._match(normalise(name))
        self._memo[name] = found
        return found

    def _match(self, key: str) -> str | None:
        if not key:
            return None
        words = key.split("_")
        for start in range(len(words)):
            found = self._known(" ".join(words[start:]).replace(" ", "_"))
            if found is not None:
                return found
        head = singulars(words[-1])[-1]
        if len(self._by_head.get(head, ())) == 1:
            return self._by_head[head][0]
        close = difflib.get_close_matches(key, list(self._exact), n=1, cutoff=CLOSE_CUTOFF)
        return self._exact[close[0]] if close else None

    def _known(self, key: str) -> str | None:
        """A category that `key` (or its singular) is, or that it is a synonym of."""
        forms = singulars(key)
        for form in forms:
            if form in self._exact:
                return self._exact[form]
        by_synonym = self.table.by_synonym
        for form in forms:
            for canonical in by_synonym.get(form, ()):
                for canonical_form in singulars(canonical):
                    if canonical_form in self._exact:
                        return self._exact[canonical_form]
        return None


def match_category(name: str, categories: Iterable[str]) -> str | None:
    """The category of `categories` that `name` stands for, or None (see `NameMatcher`).

    >>> match_category("Paper towels", ["paper_towel", "towel"])
    'paper_towel'
    """
    return NameMatcher(categories).match(name)
