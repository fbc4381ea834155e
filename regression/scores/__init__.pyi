from .model import FewRatingsWarning, ScoreModel, fit_scores
from .predict import Predictor, fit_predictor
from .result import ScoreResult
from .suggest import plan_labels, suggest_labels
from .table import (
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
