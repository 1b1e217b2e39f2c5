"""ALFWorld's observation sentences (what the ReAct family shows in an ALFWorld room), one
per kind of action, written out by hand in ALFWorld's grammar: `alfworld_text.observe`
reads which sentence from what the action's schema does, not from its name."""

import pytest

from sceneplan.datasets.tasks import get_task
from sceneplan.runs import resolve
from sceneplan.world import alfworld_text
from sceneplan.world.actions import parse_action
from sceneplan.world.simulator import Simulator
from sceneplan.world.vocabularies import ALFWORLD

HEAT_01 = [
    (
        "go_to(sinkbasin_1)",
        "You arrive at sinkbasin 1. On the sinkbasin 1, you see a apple 3, a egg 3, "
        "a glassbottle 2, a potato 3, and a spoon 2.",
    ),
    ("take(apple_3, sinkbasin_1)", "You pick up the apple 3 from the sinkbasin 1."),
    ("clean(apple_3, sinkbasin_1)", "You clean the apple 3 using the sinkbasin 1."),
    ("go_to(microwave_1)", "You arrive at microwave 1. The microwave 1 is closed."),
    (
        "open(microwave_1)",
        "You open the microwave 1. The microwave 1 is open. In it, you see nothing.",
    ),
    ("heat(apple_3, microwave_1)", "You heat the apple 3 using the microwave 1."),
    ("close(microwave_1)", "You close the microwave 1."),
    ("go_to(fridge_1)", "You arrive at fridge 1. The fridge 1 is closed."),
    ("cool(apple_3, fridge_1)", "You cool the apple 3 using the fridge 1."),
    ("examine(apple_3)", "This is a cool and clean apple 3."),
    (
        "go_to(countertop_2)",
        "You arrive at countertop 2. On the countertop 2, you see a creditcard 2, a knife 1, "
        "a knife 2, a statue 1, and a tomato 3.",
    ),
    ("put(apple_3, countertop_2)", "You put the apple 3 in/on the countertop 2."),
    ("take(knife_1, countertop_2)", "You pick up the knife 1 from the countertop 2."),
    ("slice(tomato_3, knife_1)", "You sliced the tomato 3 with the knife 1."),
    (
        "examine(countertop_2)",
        "On the countertop 2, you see a creditcard 2, a knife 2, a statue 1, a tomato 3, "
        "and a apple 3.",
    ),
    ("done", "You are done."),
]
LOOK_01 = [
    (
        "go_to(desk_1)",
        "You arrive at desk 1. On the desk 1, you see a bowl 1, a desklamp 1, a mug 1, "
        "and a pencil 1.",
    ),
    ("toggle(desklamp_1)", "You turn on the desklamp 1."),
    ("use(desklamp_1)", "You turn off the desklamp 1."),
]


@pytest.mark.parametrize(
    ("task_id", "steps"), [("alfworld-heat-01", HEAT_01), ("alfworld-look-01", LOOK_01)]
)
def test_each_kind_of_action_says_alfworlds_sentence(task_id, steps):
    simulator = Simulator(resolve(get_task(task_id)).graph, ALFWORLD)
    state = simulator.initial_state()
    for step, sentence in steps:
        action = parse_action(step)
        after, failure = simulator.step(state, action)
        assert failure is None, failure.message
        schema = simulator.schemas[action.name]
        assert alfworld_text.observe(state, action, after, schema) == sentence
        state = after
