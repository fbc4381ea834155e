"""Importers for the eval tools people already use: their result files in, the judgments table out.

One module per format (``inspect_log``, ``promptfoo``, ``deepeval``,
``alpaca_eval``, ``mt_bench``); each reader returns an :class:`ImportResult`
with the judgments table (``generator, item, validator, label``), any human
labels the file records, the threshold applied to numeric scores, the fields
it did not know and notes on what the file could not say.
:func:`import_judgments` and :data:`IMPORTERS` pick a reader by name.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
