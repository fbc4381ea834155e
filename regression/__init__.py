"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the latent-trait regression
over the generator x validator matrix (agreeableness paper, section 5).
"""

from regression.intervals import ConfidenceInterval, wald_interval, wilson_interval

__all__ = ["ConfidenceInterval", "wald_interval", "wilson_interval"]
