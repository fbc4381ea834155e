"""Which battles to send to human voters next: drawn at random, favouring those that narrow the win rates most."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from regression.checks import PROBABILITY_COLUMN
from regression.labels.plan import systematic_sample
from regression.labels.suggest import BudgetWarning
from regression.pairwise.plan import battle_variance, chosen_generators, vote_probabilities
from regression.pairwise.table import check_pairwise

__all__ = ["SUGGESTED_COLUMNS", "suggest_labels"]

#: The columns of :func:`suggest_labels`' table.
SUGGESTED_COLUMNS = ("item", "generator_a", "generator_b", PROBABILITY_COLUMN)


def suggest_labels(
    verdicts: pd.DataFrame,
    human: pd.DataFrame | None,
    budget: int,
    *,
    generators: list[str] | None = None,
    seed: int = 0,
) -> pd.DataFrame:
    """The battles to send to human voters next: ``item, generator_a, generator_b, inclusion_probability``.

    The draw minimises the predicted sum over ``generators`` of the variances
    of their win rates. A battle counts for both its generators, so battle
    ``b`` enters that sum as ``(1 - pi_b) / pi_b v_b w_b``, with ``v_b`` the
    predicted variance of its prediction-powered residual from the
    cross-fitted judges (:func:`~regression.pairwise.plan.battle_variance`)
    and ``w_b = sum 1 / N_g^2`` over its generators among ``generators``
    (``N_g`` the battles ``g`` played): the battles the judges predict least
    surely and those of generators with few battles weigh most. The
    variance-optimal draw of ``budget`` battles has ``pi_b`` proportional to
    ``sqrt(v_b w_b)`` (Zrnic & Candes, 2024, Active Statistical Inference);
    the draw is that, with a floor so every battle has ``pi_b > 0``, by
    systematic pi-ps sampling (exactly ``budget`` battles), or uniform where
    that is predicted no worse
    (:func:`~regression.pairwise.plan.vote_probabilities`).

    Vote the rows and pass them back, ``inclusion_probability`` and all, with
    the earlier votes given ``inclusion_probability`` 1: the probabilities are
    those of this draw among the unvoted battles, so the estimate holds the
    earlier votes fixed and is design-unbiased given them. (A large earlier
    sample then counts only for its own battles: buy a batch at least as large
    as the votes held.)

    Parameters
    ----------
    verdicts, human : DataFrame
        As for :func:`~regression.pairwise.check_pairwise`; ``human`` the votes held (or None).
    budget : int
        Votes to buy: the table has exactly this many rows, or every unvoted
        battle of ``generators`` with a :class:`~regression.labels.suggest.BudgetWarning`
        when there are fewer.
    generators : list of str, optional
        Whose win rates to narrow (a battle is a candidate when one of its
        generators is here); default every generator.
    seed : int
        Seeds the cross-fitted predictor's folds and the draw.

    Returns
    -------
    DataFrame
        :data:`SUGGESTED_COLUMNS`, the pair oriented as the battle's first verdict row; never a
        battle already voted.

    Raises
    ------
    ValueError
        A budget that is not a positive integer, an unknown generator, bad tables.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(6, 600, 60, seed=0)
    >>> picks = suggest_labels(world.verdicts, world.human, 100, seed=1)
    >>> len(picks), list(picks.columns)
    (100, ['item', 'generator_a', 'generator_b', 'inclusion_probability'])
    """
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise ValueError(f"budget must be a positive integer; got {budget!r}.")
    table = check_pairwise(verdicts, human)
    chosen = np.zeros(len(table.generators), dtype=bool)
    chosen[slice(None) if generators is None else chosen_generators(table, generators)] = True
    played = np.bincount(table.battle_a, minlength=chosen.size) + np.bincount(
        table.battle_b, minlength=chosen.size
    )
    share = np.where(chosen, 1.0 / np.maximum(played, 1) ** 2, 0.0)
    weight = share[table.battle_a] + share[table.battle_b]
    candidates = np.flatnonzero(np.isnan(table.human) & (weight > 0))
    if candidates.size < budget:
        warnings.warn(
            f"budget {budget} is more than the {candidates.size} unvoted battles of the "
            "generators asked for: suggesting every one of them.",
            BudgetWarning,
            stacklevel=2,
        )
    v = battle_variance(table, seed=seed)[candidates] * weight[candidates]
    if candidates.size == 0:
        return pd.DataFrame(columns=list(SUGGESTED_COLUMNS))
    pi, _ = vote_probabilities(v, min(int(budget), candidates.size))
    picks = systematic_sample(pi, np.random.default_rng(seed))
    rows = table.battles.iloc[candidates[picks]].reset_index(drop=True)
    return rows.assign(**{PROBABILITY_COLUMN: pi[picks]})
