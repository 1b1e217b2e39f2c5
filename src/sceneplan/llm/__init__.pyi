"""The public names of `sceneplan.llm`, for type checkers and for `lazy_loader.attach_stub`,
which makes each one import its module on first use (see __init__.py)."""

from .client import LLMClient as LLMClient
from .client import Response as Response
from .config import LLMSettings as LLMSettings
from .config import load_settings as load_settings
from .messages import Message as Message
from .registry import PROVIDER_NAMES as PROVIDER_NAMES
from .usage import CallRecord as CallRecord
from .usage import Ledger as Ledger
from .usage import Usage as Usage
