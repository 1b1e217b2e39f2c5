"""The public names of `sceneplan.graph`, for type checkers and for `lazy_loader.attach_stub`,
which makes each one import its module on first use (see __init__.py)."""

from .io import from_dict as from_dict
from .io import load as load
from .io import save as save
from .io import to_dict as to_dict
from .model import Node as Node
from .model import NodeKind as NodeKind
from .model import Relation as Relation
from .model import SceneGraph as SceneGraph
from .serialize import ViewPart as ViewPart
from .serialize import view_parts as view_parts
from .serialize import view_to_dict as view_to_dict
from .serialize import view_to_text as view_to_text
from .serialize import visible_links as visible_links
from .tokens import TokenReport as TokenReport
from .tokens import TokenRow as TokenRow
from .tokens import count_tokens as count_tokens
from .tokens import token_report as token_report
from .views import GraphView as GraphView
from .views import collapse as collapse
from .views import full_view as full_view
