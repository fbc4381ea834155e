"""Pairwise verdicts: a judge sees two answers to one prompt and says which is better, or a tie.

:mod:`~regression.pairwise.verdicts` holds the verdict vocabulary (the words
the eval tools write, read as ``"a"``, ``"b"`` or ``"tie"``);
:mod:`~regression.pairwise.table` checks the judges' verdicts and the human
votes once into a :class:`PairwiseTable`; :mod:`~regression.pairwise.predict`
predicts a battle's human verdict from the judges'; :mod:`~regression.pairwise.win_rate`
estimates each generator's win rate and :mod:`~regression.pairwise.davidson` its
Bradley-Terry-Davidson strength, both behind :class:`PairwiseModel`
(:mod:`~regression.pairwise.model`), their results on the result contract (and ranked
through :mod:`regression.ranking`) in :mod:`~regression.pairwise.result`, their
leaderboard (the generators an interval can rank, every generator's row, the summary)
in :mod:`~regression.pairwise.board`.
:mod:`~regression.pairwise.suggest` chooses the battles to send to human voters
and :mod:`~regression.pairwise.plan` says how many votes a width needs;
:mod:`~regression.pairwise.simulate` simulates arenas with known win rates.
"""

from regression.pairwise.davidson import bradley_terry
from regression.pairwise.model import PairwiseModel
from regression.pairwise.plan import plan_labels
from regression.pairwise.result import (
    FewVotesWarning,
    PairwiseResult,
    PairwiseStrengths,
    PairwiseWinRates,
)
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
from regression.pairwise.win_rate import win_rates

__all__ = [
    "HUMAN_VERDICT_COLUMNS",
    "POSITIONS",
    "VERDICTS",
    "VERDICT_COLUMNS",
    "VERDICT_WORDS",
    "BattleError",
    "FewVotesWarning",
    "PairwiseModel",
    "PairwiseResult",
    "PairwiseStrengths",
    "PairwiseTable",
    "PairwiseWinRates",
    "VerdictError",
    "bradley_terry",
    "check_pairwise",
    "plan_labels",
    "suggest_labels",
    "verdict_words",
    "win_rates",
]
