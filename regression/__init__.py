"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the estimators of the
generators' precision chosen by name (:mod:`regression.registry`), the
transfer estimator for new generators and the latent-trait regression over the
generator x validator matrix (agreeableness paper, section 5).

The public names are listed once, in ``__init__.pyi``, and load on first use
(``lazy_loader.attach_stub``), so ``import regression`` is cheap and a
command that needs one estimator does not pay for the others. The rest is
imported from its own module (``regression.single_judge``, ``regression.latent``,
...); simulators are under :mod:`regression.simulate`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
