"""Matching perceived names to known categories."""

from __future__ import annotations

import pytest

from sceneplan.errors import BadInputError
from sceneplan.perception.names import (
    NameMatcher,
    SynonymTable,
    match_category,
    normalise,
    singulars,
    synonyms,
)

KNOWN = ["mug", "bottled_water", "apple", "coffee_machine", "knife", "box", "potted_plant"]


@pytest.mark.parametrize(
    ("name", "category"),
    [
        ("mug", "mug"),
        ("Coffee mug", "mug"),  # a modifier dropped
        ("mugs", "mug"),  # plural
        ("mug 2", "mug"),  # a number
        ("the mug #3", "mug"),
        ("apple 1", "apple"),  # App. B numbers objects
        ("apples", "apple"),
        ("knives", "knife"),
        ("boxes", "box"),
        ("water bottle", "bottled_water"),  # synonym
        ("cup", "mug"),  # synonym of a known category
        ("houseplant", "potted_plant"),
        ("red apple", "apple"),
        ("coffee machin", "coffee_machine"),  # close spelling
        ("fruit", None),  # a broader word names no category
        ("object", None),
        ("", None),
        ("  ", None),
    ],
)
def test_names_match_known_categories(name, category):
    assert NameMatcher(KNOWN).match(name) == category


def test_an_exact_category_wins_over_a_synonym():
    assert match_category("cup", ["mug", "cup"]) == "cup"
    assert match_category("cup", ["mug"]) == "mug"
    assert match_category("dish", ["plate"]) == "plate"
    assert match_category("dish", ["bowl", "plate"]) == "bowl"  # the table's first


def test_a_head_noun_names_the_one_category_ending_in_it():
    assert match_category("mug", ["coffee_mug", "plate"]) == "coffee_mug"
    assert match_category("mug", ["coffee_mug", "tea_mug"]) is None


def test_normalise_and_singulars():
    assert normalise("A Coffee-Mug (2)") == "coffee_mug"
    assert normalise("bottle3") == "bottle"
    assert singulars("glasses") == ["glasses", "glass"]
    assert singulars("cherries")[-1] == "cherry"
    assert singulars("bus") == ["bus"]


def test_every_synonym_in_the_table_matches_its_category_back():
    table = synonyms()
    for category, names in table.synonyms.items():
        for name in names:
            assert match_category(name, [category]) == category, (name, category)


def test_broader_words_name_no_category_of_the_table():
    table = synonyms()
    categories = set(table.synonyms) | {c for cs in table.broader.values() for c in cs}
    for word in table.broader:
        assert word not in table.by_synonym, word
        assert NameMatcher(categories).match(word) is None, word
    assert table.broader_of("banana") == ("fruit",)
    assert "mug" in table.common


def test_a_bad_table_is_a_clear_error():
    with pytest.raises(BadInputError, match="not a sceneplan-synonyms file"):
        SynonymTable.from_dict({"synonyms": {}})
    with pytest.raises(BadInputError, match="list of names"):
        SynonymTable.from_dict({"format": "sceneplan-synonyms", "synonyms": {"mug": 3}})
