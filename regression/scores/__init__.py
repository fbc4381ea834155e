"""Graded scores: judges that score 1-5 or 0-1, a few human ratings, each generator's mean rating.

The engine's third outcome type (docs/design.md, "Adding an outcome type"):
:mod:`~regression.scores.table` checks the judges' scores and the human
ratings once into a :class:`ScoreTable`; :mod:`~regression.scores.predict`
predicts an output's rating from every judge's score (isotonic per judge,
stacked with non-negative weights); :mod:`~regression.scores.estimate` is the
prediction-powered estimate of a rated generator and the transport to the
unrated ones, behind :class:`ScoreModel` (:mod:`~regression.scores.model`),
its result on the result contract in :mod:`~regression.scores.result`;
:mod:`~regression.scores.suggest` chooses the outputs to rate and says how
many; :mod:`~regression.scores.simulate` simulates worlds with known truth.
"""

from regression.scores.model import FewRatingsWarning, ScoreModel, fit_scores
from regression.scores.predict import Predictor, fit_predictor
from regression.scores.result import ScoreResult
from regression.scores.suggest import plan_labels, suggest_labels
from regression.scores.table import (
    RATING_COLUMNS,
    SCORE_COLUMNS,
    ScaleWarning,
    ScoreTable,
    check_scores,
    validate_ratings,
    validate_scores,
)

__all__ = [
    "RATING_COLUMNS",
    "SCORE_COLUMNS",
    "FewRatingsWarning",
    "Predictor",
    "ScaleWarning",
    "ScoreModel",
    "ScoreResult",
    "ScoreTable",
    "check_scores",
    "fit_predictor",
    "fit_scores",
    "plan_labels",
    "suggest_labels",
    "validate_ratings",
    "validate_scores",
]
