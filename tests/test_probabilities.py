"""Named probabilities: one check, one set of names and one text form for faults and noise."""

import math

import pytest

from sceneplan.errors import BadInputError
from sceneplan.execute.faults import KINDS, Faults
from sceneplan.perception import Noise, get_perception
from sceneplan.probabilities import is_probability


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        *[(0, True), (1, True), (0.5, True), (-0.01, False), (1.01, False), (math.nan, False)],
        *[(True, False), (False, False), ("0.5", False), (None, False)],
    ],
)
def test_a_probability_is_a_number_not_a_bool_from_0_to_1(value, ok):
    assert is_probability(value) is ok


@pytest.mark.parametrize("kind", [Faults, Noise])
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "between 0 and 1, got 1.5"),
        (math.nan, "between 0 and 1, got nan"),
        (True, "a number, got True"),
        ("0.1", "a number, got '0.1'"),
    ],
)
def test_both_sets_refuse_a_value_that_is_not_a_probability_naming_the_field(kind, value, message):
    name = kind.names()[1]
    with pytest.raises(BadInputError, match=f"^{kind.NOUN} {name} must be {message}$"):
        kind(**{name: value})


def test_the_names_are_the_fields_in_order():
    assert KINDS == Faults.names() == ("moved", "grasp", "stuck", "blocked")
    assert Noise.names()[:3] == ("miss", "swap_on", "swap_inside") and len(Noise.names()) == 7


def test_any_and_perfect_say_whether_one_value_is_not_0():
    assert not Faults().any and Faults(blocked=0.01).any
    assert Noise().perfect and not Noise(synonym=0.2).perfect


def test_the_text_form_lists_the_values_that_are_not_0_and_reads_back():
    faults = Faults(moved=0.25, stuck=1)
    assert str(faults) == "moved:0.25,stuck:1" and Faults.parse(str(faults)) == faults
    assert str(Faults()) == "none" and Faults.parse(str(Faults())) == Faults()
    noise = Noise(miss=0.3, state=0.05)
    assert str(noise) == "miss:0.3,state:0.05" and Noise.parse(str(noise)) == noise
    assert get_perception("simulated:miss=0.3,state=0.05").name == "simulated:" + ",".join(
        noise.pairs("=")
    )


def test_parse_names_the_bad_entry_and_the_known_names():
    with pytest.raises(BadInputError, match=r"unknown noise knob 'blur' in 'blur:0\.1'; the noise"):
        Noise.parse("blur:0.1")
    with pytest.raises(BadInputError, match=r"miss, swap_on, .* \(e\.g\. miss:0\.3,swap_on:0\.1\)"):
        Noise.parse("blur:0.1")
    with pytest.raises(BadInputError, match=r"^fault 'stuck' in --faults 'stuck:-1' needs a prob"):
        Faults.parse("stuck:-1")
