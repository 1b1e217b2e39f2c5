"""The public names of `sceneplan.world`, for type checkers and for `lazy_loader.attach_stub`,
which makes each one import its module on first use (see __init__.py)."""

from .actions import Action as Action
from .actions import parse_action as parse_action
from .actions import parse_plan as parse_plan
from .alfworld import ALFWORLD as ALFWORLD
from .domain import ActionSchema as ActionSchema
from .goals import Formula as Formula
from .goals import parse_goal as parse_goal
from .primitives import Cause as Cause
from .simulator import Failure as Failure
from .simulator import Simulator as Simulator
from .simulator import Verification as Verification
from .state import WorldState as WorldState
from .task import Family as Family
from .task import Task as Task
from .vocabularies import LOOKPLANGRAPH as LOOKPLANGRAPH
from .vocabularies import SAYPLAN as SAYPLAN
from .vocabularies import VOCABULARIES as VOCABULARIES
from .vocabularies import get_vocabulary as get_vocabulary
from .vocabulary import Vocabulary as Vocabulary
