"""Pairwise verdicts: a judge sees two answers to one prompt and says which is better, or a tie.

:mod:`~regression.pairwise.verdicts` holds the verdict vocabulary (the words
the eval tools write, read as ``"a"``, ``"b"`` or ``"tie"``);
:mod:`~regression.pairwise.table` checks the judges' verdicts and the human
votes once into a :class:`PairwiseTable`; :mod:`~regression.pairwise.predict`
predicts a battle's human verdict from the judges'; :mod:`~regression.pairwise.win_rate`
estimates each generator's win rate (:class:`PairwiseModel`), its result on the
result contract in :mod:`~regression.pairwise.result`.
:mod:`~regression.pairwise.suggest` chooses the battles to send to human voters
and :mod:`~regression.pairwise.plan` says how many votes a width needs;
:mod:`~regression.pairwise.simulate` simulates arenas with known win rates.
"""

from regression.pairwise.plan import plan_labels
from regression.pairwise.result import PairwiseWinRates
from regression.pairwise.suggest import suggest_labels
from regression.pairwise.table import (
    HUMAN_VERDICT_COLUMNS,
    VERDICT_COLUMNS,
    BattleError,
    PairwiseTable,
    check_pairwise,
)
from regression.pairwise.verdicts import (
    POSITIONS,
    VERDICT_WORDS,
    VERDICTS,
    VerdictError,
    verdict_words,
)
from regression.pairwise.win_rate import ESTIMANDS, FewVotesWarning, PairwiseModel, win_rates

__all__ = [
    "ESTIMANDS",
    "HUMAN_VERDICT_COLUMNS",
    "POSITIONS",
    "VERDICTS",
    "VERDICT_COLUMNS",
    "VERDICT_WORDS",
    "BattleError",
    "FewVotesWarning",
    "PairwiseModel",
    "PairwiseTable",
    "PairwiseWinRates",
    "VerdictError",
    "check_pairwise",
    "plan_labels",
    "suggest_labels",
    "verdict_words",
    "win_rates",
]
