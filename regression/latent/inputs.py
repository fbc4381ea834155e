"""What a latent-trait fit was given, kept on its result for the interval's bootstrap and profile."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from regression.data.anchors import Anchors
from regression.latent.data import LatentData, latent_data
from regression.latent.items import ItemVotes

__all__ = ["FitInputs"]


@dataclass(frozen=True, eq=False)
class FitInputs:
    """What a fit was given, kept so the result can refit (bootstrap, new generators).

    Attributes
    ----------
    rates : DataFrame
        Generators x validators, NaN where absent.
    n : DataFrame or None
        Items behind each cell; None when the fit had no counts.
    anchors : Anchors
    equal_weights : bool
        True when no counts were given.
    items : ItemVotes or None
        The encoded votes and human labels (``fit_table`` only): the item
        bootstrap resamples them.
    """

    rates: pd.DataFrame
    n: pd.DataFrame | None
    anchors: Anchors
    equal_weights: bool
    items: ItemVotes | None = None

    def data(self) -> LatentData:
        """The :class:`LatentData` the fit minimised its loss on."""
        return latent_data(self.rates, self.n, self.anchors)
