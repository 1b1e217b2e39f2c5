"""Environments and task suites: the packaged ones and importers."""

import lazy_loader

# Each public name is imported from its module on first use (PEP 562), as the stub
# __init__.pyi beside this file lists them: importing the package alone loads none of them.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
