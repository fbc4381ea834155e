"""Pairwise verdicts: a judge sees two answers to one prompt and says which is better, or a tie.

:mod:`~regression.pairwise.verdicts` holds the verdict vocabulary (the words
the eval tools write, read as ``"a"``, ``"b"`` or ``"tie"``);
:mod:`~regression.pairwise.table` checks the judges' verdicts and the human
votes once into a :class:`PairwiseTable`.
"""

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

__all__ = [
    "HUMAN_VERDICT_COLUMNS",
    "POSITIONS",
    "VERDICTS",
    "VERDICT_COLUMNS",
    "VERDICT_WORDS",
    "BattleError",
    "PairwiseTable",
    "VerdictError",
    "check_pairwise",
    "verdict_words",
]
