"""Combining many judges' votes: majority, supermajority and minority veto (agreeableness paper, section 4).

``vote`` labels items by a rule over the validators' votes; ``ensemble_precision``
and ``ensemble_rates`` say what the labels give (precision per generator, TPR /
TNR / PPV / NPV against humans, Wilson intervals); ``sweep_thresholds`` and
``pick_threshold`` choose a rule's threshold on calibration generators
(leave-one-generator-out); ``simulate_votes`` draws data with correlated
validators and missing votes. Figures live in ``ensemble.plots``.

The public names are listed once, in ``__init__.pyi``, and load on first use
(``lazy_loader.attach_stub``), so ``import ensemble`` (and a
``jurycal`` command's ``--help``) imports neither pandas nor scipy.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
