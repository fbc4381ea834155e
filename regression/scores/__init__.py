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

import lazy_loader

# lazy, like the other packages: a command that only asks whether a table is a score table
# (jurycal rank on pairwise verdicts) does not load the estimator, scipy.optimize or scipy.stats
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
