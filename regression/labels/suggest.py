"""Which items to label next: drawn at random, favouring the items the judges predict least surely."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from regression.checks import check_budget
from regression.core.sampling import BudgetWarning, design_probabilities, systematic_sample
from regression.labels.design import PROBABILITY_COLUMN, LabelDesign, label_design
from regression.labels.plan import drawn_design, predicted_width
from regression.labels.predict import predict_generator

__all__ = ["split_budget", "suggest_labels"]


def split_budget(
    widths: dict[str, np.ndarray], capacity: dict[str, int], budget: int, step: int
) -> dict[str, int]:
    """Give ``budget`` labels, ``step`` at a time, to the generator whose predicted width is largest.

    ``widths[g][k]`` is g's predicted width after ``k * step`` more labels;
    ``capacity[g]`` its unlabelled items. Exactly ``min(budget, sum(capacity))``
    labels are given.

    Examples
    --------
    >>> split_budget({"a": np.array([0.2, 0.1]), "b": np.array([0.3, 0.1])}, {"a": 5, "b": 3}, 7, 2)
    {'a': 5, 'b': 2}
    """
    given = dict.fromkeys(widths, 0)
    left = min(budget, sum(capacity.values()))
    while left > 0:
        open_ = [g for g in widths if given[g] < capacity[g]]
        g = max(open_, key=lambda g: widths[g][min(given[g] // step, len(widths[g]) - 1)])
        take = min(step, left, capacity[g] - given[g])
        given[g] += take
        left -= take
    return given


def suggest_labels(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame | None,
    budget: int,
    generators: list[str] | None = None,
    seed: int | None = None,
    *,
    design: LabelDesign | None = None,
) -> pd.DataFrame:
    """The items to label next: ``generator, item, inclusion_probability``.

    Each generator's unlabelled items are drawn by systematic pi-ps sampling
    with probabilities proportional to ``sqrt(q(1 - q))`` of the predicted
    human label ``q`` (Zrnic & Candes, 2024, Active Statistical Inference: the variance-optimal
    active rule for the mean), mixed half and half with the uniform design so
    that every item keeps at least half its uniform chance, a blind spot of the
    judges included (:func:`~regression.core.sampling.active_probabilities`), or uniformly where
    that is predicted no narrower (:func:`~regression.labels.plan.drawn_design`,
    the rule the plan's active figure follows). The budget is split
    among the generators greedily, to the one whose predicted interval is
    widest; the table has exactly ``budget`` rows, or every unlabelled item
    with a :class:`BudgetWarning` when there are fewer. Label the rows and pass them back, column and all, as
    ``human_labels`` (with the earlier labels).

    Parameters
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``.
    human_labels : DataFrame or None
        The labels held so far (and their ``inclusion_probability``).
    budget : int
        Labels to buy; the table has exactly this many rows (fewer only when
        the generators have fewer unlabelled items, with a :class:`BudgetWarning`).
    generators : list of str, optional
        Where to spend it; default every generator that is not fully labelled.
    seed : int, optional
        Seeds the draw.

    Returns
    -------
    DataFrame
        ``generator, item, inclusion_probability``; never an item already labelled.

    Raises
    ------
    ValueError
        A budget that is not a positive integer, an unknown generator, or bad
        judgments / labels (see :func:`~regression.labels.design.label_design`).

    Notes
    -----
    The probabilities are those of this draw among the generator's unlabelled
    items. For a generator that had no labels before they are the items'
    inclusion probabilities; for one that had, the estimate treats the union
    as one sample with these probabilities for the new rows, an approximation
    (plan one round per generator where you can).
    """
    budget = check_budget(budget)
    design = label_design(judgments, human_labels) if design is None else design
    chosen = (
        [g for g in design.roles.index if design.roles[g] != "calibration"]
        if generators is None
        else list(generators)
    )
    unknown = [g for g in chosen if g not in design.roles.index]
    if unknown:
        raise ValueError(f"generator {unknown[0]!r} has no judgments.")
    rng = np.random.default_rng(seed)
    human = design.items["human"].to_numpy(dtype=float)
    pools: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    widths: dict[str, np.ndarray] = {}
    step = max(1, budget // 200)
    for g in chosen:
        rows = design.rows(g)
        has_labels = np.isfinite(human).any()
        q = predict_generator(design, g)[0] if has_labels else np.full(rows.size, 0.5)
        free = np.isnan(human[rows])
        pools[g] = (rows[free], q[free])
        done = int((~free).sum())
        grid = np.minimum(done + step * np.arange(int(free.sum()) // step + 2), rows.size)
        # the width of the draw drawn_design will choose: the narrower of the two
        widths[g] = np.minimum(predicted_width(q, grid, "active"), predicted_width(q, grid))
    capacity = {g: pools[g][0].size for g in chosen}
    if sum(capacity.values()) < budget:
        warnings.warn(
            f"budget {budget:,} is more than the {sum(capacity.values()):,} unlabelled items of "
            f"{', '.join(map(str, chosen)) or 'the generators'}: suggesting every one of them.",
            BudgetWarning,
            stacklevel=2,
        )
    split = split_budget(widths, capacity, int(budget), step)
    frames = []
    for g in chosen:
        rows, q = pools[g]
        n = split[g]
        if n == 0:
            continue
        pi = design_probabilities(q, n, drawn_design(q, n))
        picks = systematic_sample(pi, rng)
        frames.append(
            pd.DataFrame(
                {
                    "generator": design.items["generator"].to_numpy()[rows[picks]],
                    "item": design.items["item"].to_numpy()[rows[picks]],
                    PROBABILITY_COLUMN: pi[picks],
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=["generator", "item", PROBABILITY_COLUMN])
    return pd.concat(frames, ignore_index=True)
