"""Repair of messy validator outputs into the judgments table (agreeableness paper, §4, App. B.2-B.3).

The public names are listed once, in ``__init__.pyi``, and load on first use
(``lazy_loader.attach_stub``), so ``import repair`` loads none of its modules.

>>> from repair import repair_judgments, ALL, PAPER_LEVELS
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
