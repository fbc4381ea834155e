"""What every figure does to stay legible on a card: a legend beside the data, ticks that do not collide.

Every figure of jurycal (``regression.*.plots``, :mod:`regression.ranking.plot`,
``ensemble.plots``) places its legend with :func:`legend_outside` and thins a
numeric axis with :func:`readable_ticks`; matplotlib is imported inside, so
importing :mod:`regression` never loads it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TICK_SPACING", "legend_outside", "readable_ticks"]

#: Inches of axis per numeric tick label: room for a label such as ``0.825`` at 10 pt and a gap.
TICK_SPACING = 0.7


def legend_outside(axes: Any, **options: Any) -> Any:
    """The legend to the right of ``axes``, outside its frame, so that it covers no point or interval.

    A figure saved with ``bbox_inches="tight"`` (:meth:`jurycal.report.Report.figure`,
    ``--plot``) grows to hold it. ``options`` go to :meth:`matplotlib.axes.Axes.legend`
    (``fontsize`` defaults to 8). Returns the legend, or None where nothing is labelled.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots()
    >>> _ = axes.plot([0, 1], [0, 1], label="line")
    >>> legend = legend_outside(axes)
    >>> bool(legend.get_bbox_to_anchor().x0 > axes.get_window_extent().x1)
    True
    >>> plt.close(figure)
    """
    if not axes.get_legend_handles_labels()[0]:
        return None
    options = {"fontsize": 8, **options}
    return axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **options)


def readable_ticks(axes: Any, axis: str = "x") -> None:
    """At most one numeric tick label per :data:`TICK_SPACING` inches of ``axis``, on round values.

    The axis's length is read from its figure as drawn (call it after the
    figure's size is set). A categorical axis (names) is left alone: its
    labels are rotated where they are drawn.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots(figsize=(3, 2))
    >>> _ = axes.plot([0.8, 1.0], [0, 1])
    >>> readable_ticks(axes)
    >>> len([t for t in axes.get_xticks() if 0.8 <= t <= 1.0]) <= 3
    True
    >>> plt.close(figure)
    """
    from matplotlib.ticker import MaxNLocator

    box = axes.get_position()
    width, height = axes.figure.get_size_inches()
    length = box.width * width if axis == "x" else box.height * height
    bins = max(2, int(length / TICK_SPACING))
    target = axes.xaxis if axis == "x" else axes.yaxis
    target.set_major_locator(MaxNLocator(nbins=bins, steps=[1, 2, 2.5, 5, 10]))
