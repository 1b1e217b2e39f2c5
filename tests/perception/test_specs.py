"""get_perception: the spec strings, and one clear error for each bad one."""

from __future__ import annotations

import pytest

from sceneplan.errors import BadInputError
from sceneplan.perception import PRESETS, Noise, SimulatedPerception, get_perception
from sceneplan.perception.vlm import CameraImage, VLMPerception


@pytest.mark.parametrize(
    ("spec", "noise", "seed", "name"),
    [
        ("simulated", Noise(), 0, "simulated:perfect"),
        ("simulated:perfect", Noise(), 0, "simulated:perfect"),
        (" simulated:gpt4o-like ", PRESETS["gpt4o-like"], 0, "simulated:gpt4o-like"),
        (
            "simulated:gpt4o-like,seed=3",
            PRESETS["gpt4o-like"],
            3,
            "simulated:gpt4o-like,seed=3",
        ),
        (
            "simulated:miss=0.3,swap=0.1,seed=7",
            Noise(miss=0.3, swap_on=0.1, swap_inside=0.1),
            7,
            "simulated:miss=0.3,swap_on=0.1,swap_inside=0.1,seed=7",
        ),
        (
            "simulated:gpt4o-like, miss=0, synonym=0.5",
            PRESETS["gpt4o-like"].with_(miss=0, synonym=0.5),
            0,
            None,
        ),
        ("simulated:swap=0.2,swap_on=0", Noise(swap_inside=0.2), 0, None),
        # ';' separates the parts too, as inside an eval planner spec
        ("simulated:gpt4o-like;seed=3", PRESETS["gpt4o-like"], 3, "simulated:gpt4o-like,seed=3"),
    ],
)
def test_specs(spec, noise, seed, name):
    perception = get_perception(spec)
    assert isinstance(perception, SimulatedPerception)
    assert (perception.noise, perception.seed) == (noise, seed)
    if name is not None:
        assert perception.name == name
    assert get_perception(perception.name).noise == noise  # the name is a spec


@pytest.mark.parametrize(
    ("spec", "words", "lists_allowed"),
    [
        ("simulated:gpt5-like", "'gpt5-like' is not a preset or KEY=VALUE", True),
        ("simulated:miss=0.1,perfect", "'perfect' is a preset, which must come first", True),
        ("simulated:miss=1.5", "miss must be a number from 0 to 1, got '1.5'", False),
        ("simulated:miss=lots", "got 'lots'", False),
        ("simulated:miss=nan", "got 'nan'", False),
        ("simulated:blur=0.1", "unknown key 'blur'", True),
        ("simulated:seed=-1", "seed must be a whole number >= 0, got '-1'", False),
        ("simulated:seed=1.5", "got '1.5'", False),
        ("camera", "unknown perception 'camera'", True),
        ("vlm:gpt-4o", "vlm takes no options", False),
    ],
)
def test_bad_specs_name_the_bad_part(spec, words, lists_allowed):
    with pytest.raises(BadInputError) as info:
        get_perception(spec)
    message = str(info.value)
    assert words in message
    if lists_allowed:
        for allowed in ("perfect", "gpt4o-like", "miss", "swap_inside", "seed", "vlm"):
            assert allowed in message


def test_vlm_needs_a_model_and_a_camera(scripted_llm):
    with pytest.raises(BadInputError, match="needs llm and camera"):
        get_perception("vlm")
    with scripted_llm.client() as llm:
        with pytest.raises(BadInputError, match=r"needs camera: .*docs/perception.md"):
            get_perception("vlm", llm=llm)
        perception = get_perception(
            "vlm", llm=llm, camera=lambda *_: CameraImage(b"x", "image/png")
        )
    assert isinstance(perception, VLMPerception)
    assert perception.name == f"vlm:{scripted_llm.model}"


def test_a_perception_with_knobs_fits_in_an_eval_planner_spec():
    from sceneplan.planners import get_planner
    from sceneplan.planners.options import parse_spec

    name, raw = parse_spec("lookplangraph[perception=simulated:gpt4o-like;seed=3,max_steps=40]")
    planner = get_planner(name, raw)
    assert planner.options.max_steps == 40
    perception = get_perception(planner.options.perception)  # as the run makes it
    assert (perception.noise, perception.seed) == (PRESETS["gpt4o-like"], 3)
