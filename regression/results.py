"""One result base for every estimate.

Every estimator's result (single-judge Rogan-Gladen and PPI++, ensemble
precision, the latent-trait fit, the transfer estimator, the partial-label
estimate, the pairwise fits, a comparison of two models, a leaderboard) is a
:class:`Result`, so that a caller (the CLI, the report, a notebook) never
branches on a result's type. A result defines

* ``interval(alpha=0.05, *, alternative="two-sided")``: the one interval
  spelling, a DataFrame indexed by what was estimated (generators for a
  multi-generator result) with the columns :data:`INTERVAL_COLUMNS`
  (``estimate, low, high, method``) and, where they apply, :data:`ROLE_COLUMNS`
  (``role, n_labels``); build it with :func:`interval_frame`;
* ``diagnostics()``: a DataFrame of the checks that say when not to trust it;
* ``method``: the estimator's name, one of :data:`METHODS`, spelled one way;
* ``covers``: a sentence, what the interval accounts for (a typed field: a
  DataFrame's ``attrs`` do not survive most pandas operations);
* ``warnings``: the warnings raised while fitting, as text, kept on the result;
* ``title``: the title of its summary;

and the base builds the rest from them, once:

* ``to_frame(alpha=0.05)``: ``interval(alpha)`` with the result's per-row
  ``details(alpha)`` beside it (the counts behind each estimate, ...);
* ``summary(alpha=0.05)``: a :class:`Summary` (text, Markdown or HTML) of
  ``to_frame(alpha)``, the ``summary_tables(alpha)`` (by default
  ``diagnostics()``) and the ``summary_notes(alpha)`` (by default the level and
  what the interval covers).

``SUMMARY_OPTIONS`` (a class attribute) names the keyword options a result's
``summary`` takes beyond ``alpha``, so that a caller (the CLI) passes each
result the options it has without naming its type. Multi-generator results also
answer ``joint_error()`` (a :class:`JointError`, the joint distribution of the
estimates' errors, which comparisons and rank sets need because the
generators' errors move together).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

__all__ = [
    "INTERVAL_COLUMNS",
    "METHODS",
    "ROLES",
    "ROLE_MEANINGS",
    "ROLE_COLUMNS",
    "JointError",
    "Result",
    "Summary",
    "TABLE_WRAPPER",
    "interval_frame",
    "flat_table",
    "with_roles",
]

#: The columns every ``interval()`` has, in this order.
INTERVAL_COLUMNS = ("estimate", "low", "high", "method")
#: The columns a multi-generator ``interval()`` adds: the row's role and the human labels it used.
ROLE_COLUMNS = ("role", "n_labels")
#: A generator's role, spelt one way on every surface (``interval()``, ``to_frame()``, the
#: command line's text and JSON, the report card), with what each means.
ROLE_MEANINGS = {
    "calibration": "human labels that anchor the judges (used by the fit)",
    "held out": "labelled, but left out of the fit; its labels check the estimate",
    "partially labelled": "some of its items labelled; the labels enter its own estimate",
    "unlabelled": "no human label; estimated from the judges and the other generators",
    "transported": "no human rating; the judges' calibration carried over from the rated "
    "generators, within a transport bound learnt from them",
}
#: The roles, in the order of :data:`ROLE_MEANINGS`.
ROLES = tuple(ROLE_MEANINGS)

#: The class of the element every HTML table sits in, which scrolls it sideways on a narrow screen.
TABLE_WRAPPER = "table-scroll"

#: Every estimator's name, as ``method`` spells it everywhere (interval tables, reports, CLI).
METHODS = {
    "naive": "the judge's raw share of positive verdicts",
    "rogan-gladen": "Rogan-Gladen correction (Lee et al., eq. (7))",
    "ppi++": "PPI++ with power tuning (Angelopoulos et al., 2023)",
    "labels_only": "the mean of the human labels alone",
    "ensemble": "share of items the voting ensemble calls valid",
    "likelihood": "latent-trait fit, binomial likelihood",
    "paper": "latent-trait fit, the paper's loss (App. C.4, eqs. (11)-(13))",
    "transfer": "transfer estimator for new generators (stacked hierarchical and offset)",
    "hierarchical": "hierarchical judges",
    "offset": "offset-corrected mean of judges",
    "rogan_gladen_pooled": "Rogan-Gladen pooled over the calibration generators",
    "calibration_mean": "calibration mean",
    "mean_of_judges": "mean of judges",
    "partial": "prediction-powered estimate from partial labels",
    "transported": "the judges' calibration to the ratings carried over from the rated generators",
    "wilson": "a share of item counts with its Wilson score interval",
    "agresti-caffo": "Youden's J with the Agresti-Caffo interval (Lee et al., eqs. (10)-(11))",
    "bootstrap": "percentile bootstrap (Fiedler App. E.4)",
    "comparison": "Delta theta by four estimators side by side (Fiedler Table 2)",
    "rg-shared": "Delta theta, Rogan-Gladen with one shared calibration table (Fiedler section 6)",
    "rg-model-specific": "Delta theta, Rogan-Gladen with each model's calibration (Fiedler section 6)",
    "ppi++-model-specific": "Delta theta, PPI++ with each model's calibration (Fiedler section 6)",
}


def interval_frame(
    index: Sequence[Any] | pd.Index,
    estimate: Any,
    low: Any,
    high: Any,
    method: str | Sequence[str],
    *,
    role: Sequence[str] | None = None,
    n_labels: Any = None,
    index_name: str | None = "generator",
) -> pd.DataFrame:
    """The table every ``interval()`` returns.

    Parameters
    ----------
    index : sequence
        What each row estimates (generators, usually).
    estimate, low, high : array-like
        One value per row; NaN where there is no bound.
    method : str or sequence of str
        A name in :data:`METHODS`, for every row or one per row.
    role : sequence of str, optional
        One of :data:`ROLES` per row; given together with ``n_labels``.
    n_labels : array-like, optional
        The human labels each row used.

    Raises
    ------
    ValueError
        An unknown method or role, or ``role`` without ``n_labels`` (or back).

    Examples
    --------
    >>> interval_frame(["a", "b"], [0.9, 0.8], [0.85, 0.7], [0.95, 0.9], "transfer",
    ...                role=["calibration", "unlabelled"], n_labels=[120, 0])
               estimate   low  high    method         role  n_labels
    generator
    a               0.9  0.85  0.95  transfer  calibration       120
    b               0.8  0.70  0.90  transfer   unlabelled         0
    """
    rows = pd.Index(index, name=index_name)
    methods = [method] * len(rows) if isinstance(method, str) else list(method)
    unknown = sorted(set(methods) - set(METHODS))
    if unknown:
        raise ValueError(f"method {unknown[0]!r} is not one of {sorted(METHODS)}.")
    table = pd.DataFrame(
        {
            "estimate": np.asarray(estimate, dtype=float).reshape(-1),
            "low": np.asarray(low, dtype=float).reshape(-1),
            "high": np.asarray(high, dtype=float).reshape(-1),
            "method": methods,
        },
        index=rows,
    )
    if (role is None) != (n_labels is None):
        raise ValueError("give role and n_labels together, or neither.")
    if role is not None:
        bad = sorted(set(role) - set(ROLES))
        if bad:
            raise ValueError(f"role {bad[0]!r} is not one of {list(ROLES)}.")
        table["role"] = list(role)
        table["n_labels"] = np.asarray(n_labels, dtype=int).reshape(-1)
    return table


class Result:
    """The base of every result: :meth:`to_frame` and :meth:`summary` from :meth:`interval` and :meth:`diagnostics`.

    A subclass defines :meth:`interval`, :meth:`diagnostics`, ``method``,
    ``covers``, ``warnings`` and ``title`` (fields or properties), and where it
    has more to say, :meth:`details`, :meth:`summary_tables` and
    :meth:`summary_notes` (see the module docstring).
    """

    #: The keyword options :meth:`summary` takes beyond ``alpha`` (the CLI reads this).
    SUMMARY_OPTIONS: ClassVar[tuple[str, ...]] = ()
    #: The name of the :meth:`to_frame` table in :meth:`summary`.
    ESTIMATES: ClassVar[str] = "estimates"
    #: The options of :meth:`to_frame` (and :meth:`summary`) that are the interval's
    #: settings: they go to :meth:`interval`, the others to :meth:`details`.
    INTERVAL_OPTIONS: ClassVar[tuple[str, ...]] = ()

    # fields or properties of the subclass, declared for the type checker only: a value here
    # would become the default of a subclass's dataclass field
    if TYPE_CHECKING:

        @property
        def method(self) -> str:
            """The estimator's name, one of :data:`METHODS`."""

        @property
        def covers(self) -> str:
            """What the interval accounts for, in a sentence."""

        @property
        def warnings(self) -> tuple[str, ...]:
            """The warnings raised while fitting."""

        @property
        def title(self) -> str:
            """The title of :meth:`summary`."""

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Columns :data:`INTERVAL_COLUMNS` (and :data:`ROLE_COLUMNS` where they apply) at level ``1 - alpha``."""
        raise NotImplementedError(f"{type(self).__name__} does not define interval.")

    def diagnostics(self) -> pd.DataFrame:
        """The checks that say when not to trust the estimate."""
        raise NotImplementedError(f"{type(self).__name__} does not define diagnostics.")

    def details(self, alpha: float = 0.05) -> pd.DataFrame | None:
        """Per-row columns :meth:`to_frame` shows beside the interval at ``alpha``, indexed as it is (None: none)."""
        return None

    def summary_tables(self, alpha: float) -> dict[str, pd.DataFrame]:
        """The tables :meth:`summary` shows after the estimates: :meth:`diagnostics`."""
        return {"diagnostics": self.diagnostics()}

    def summary_notes(self, alpha: float) -> tuple[str, ...]:
        """The notes of :meth:`summary`: the level and what the interval covers."""
        return (f"{1 - alpha:.0%} intervals cover {self.covers}.",)

    def to_frame(self, alpha: float = 0.05, **options: Any) -> pd.DataFrame:
        """One row per estimate: :meth:`interval` at ``alpha`` and the :meth:`details` beside it.

        ``options``: the interval's settings (``INTERVAL_OPTIONS``) go to :meth:`interval`,
        the others to :meth:`details`. A column both give is the details' (they may know
        more: a held-out generator's role).
        """
        settings = {k: v for k, v in options.items() if k in self.INTERVAL_OPTIONS}
        rest = {k: v for k, v in options.items() if k not in self.INTERVAL_OPTIONS}
        table = self.interval(alpha, **settings)
        details = self.details(alpha, **rest)
        if details is None:
            return table
        shared = table.columns.intersection(details.columns)
        table = table.copy()
        for column in shared:
            table[column] = details[column].reindex(table.index)
        return table.join(details.drop(columns=shared))

    def summary(self, alpha: float = 0.05, **options: Any) -> Summary:
        """The report: :meth:`to_frame`, the :meth:`summary_tables`, the :meth:`summary_notes`, the warnings.

        ``options``: the keywords the result's ``SUMMARY_OPTIONS`` name, for :meth:`to_frame`,
        :meth:`summary_tables` and :meth:`summary_notes`.
        """
        unknown = sorted(set(options) - set(self.SUMMARY_OPTIONS))
        if unknown:
            raise TypeError(
                f"{type(self).__name__}.summary() takes no option {unknown[0]!r}; its options "
                f"are {list(self.SUMMARY_OPTIONS)}."
            )
        # a result with SUMMARY_OPTIONS takes them as keywords of these three
        frame = self.to_frame(alpha, **options)
        return Summary(
            self.title,
            {self.ESTIMATES: frame, **self.summary_tables(alpha, **options)},
            notes=tuple(self.summary_notes(alpha, **options)),
            warnings=tuple(self.warnings),
        )


@dataclass(frozen=True, eq=False)
class JointError:
    """The joint distribution of a multi-generator result's errors.

    Comparisons and rank sets need it: the generators share judges and
    calibration, so their errors move together and a difference is known
    better (or worse) than the marginal intervals suggest.

    Attributes
    ----------
    estimate : Series
        The point estimates, indexed by generator.
    covariance : DataFrame
        Generators x generators: the estimated covariance of the errors.
    df : float
        Degrees of freedom of the reference t distribution (``inf``: normal).
    draws : ndarray, optional
        ``(n_draws, G)`` draws of the error (estimate minus truth) when the
        joint law is not normal; a procedure uses them in place of the
        covariance where given.
    covers : str
        What the joint error accounts for.
    reasons : mapping of generator to str
        Why a generator has no interval (a non-finite estimate or variance),
        in plain words; rank sets give it the full range and this reason.
    """

    estimate: pd.Series
    covariance: pd.DataFrame
    df: float = float("inf")
    draws: np.ndarray | None = field(default=None, repr=False)
    covers: str = ""
    reasons: Mapping[Any, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        index = self.estimate.index
        if not (self.covariance.index.equals(index) and self.covariance.columns.equals(index)):
            raise ValueError(
                "the covariance must be indexed by the estimate's generators both ways."
            )
        if self.draws is not None and np.shape(self.draws)[1:] != (len(index),):
            raise ValueError(
                f"draws must have shape (n_draws, {len(index)}); got {np.shape(self.draws)}."
            )


@dataclass(frozen=True)
class Summary:
    """A result's report, rendered by whoever shows it (statsmodels' ``Summary`` is the model).

    Attributes
    ----------
    title : str
    tables : mapping of str to DataFrame
        Named tables, in order.
    notes : tuple of str
        Sentences worth reading (what the interval covers, the self-check).
    warnings : tuple of str

    Examples
    --------
    >>> s = Summary("Precision", {"estimates": pd.DataFrame({"estimate": [0.9]}, index=["a"])},
    ...             notes=("95 % intervals",), warnings=("few labels",))
    >>> print(s.as_markdown())
    ## Precision
    <BLANKLINE>
    95 % intervals
    <BLANKLINE>
    ### estimates
    <BLANKLINE>
    |    | estimate |
    |:---|---------:|
    | a  |   0.9000 |
    <BLANKLINE>
    **Warnings:**
    <BLANKLINE>
    - few labels
    """

    title: str
    tables: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def as_text(self, digits: int = 4) -> str:
        """Plain text, as a terminal shows it: fixed-width tables (:func:`regression.text_table.text_table`)."""
        from regression.text_table import text_table

        lines = [self.title, "=" * len(self.title)]
        for name, table in self.tables.items():
            lines += ["", f"{name}:", text_table(table, digits, empty=f"(no {name})")]
        if self.notes:
            lines.append("")
            lines += list(self.notes)
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)

    def as_markdown(self, digits: int = 4, level: int = 2) -> str:
        """Markdown, as a report or an issue shows it: the title at heading ``level``, the
        notes, each table under a heading one level down, the warnings (repeats said once)."""
        parts = [f"{'#' * level} {self.title}"]
        if self.notes:
            parts.append("\n\n".join(self.notes))
        for name, table in self.tables.items():
            parts += [f"{'#' * (level + 1)} {name}", _markdown_table(table, digits)]
        warnings = _grouped(self.warnings)
        if warnings:
            parts.append("**Warnings:**\n\n" + "\n".join(f"- {w}" for w in warnings))
        return "\n\n".join(parts)

    def as_html(self, digits: int = 4, level: int = 2) -> str:
        """An HTML fragment, as a notebook or the HTML report shows it (headings as in
        :meth:`as_markdown`; a missing value shows as ``-``)."""
        esc = html.escape
        parts = [f"<h{level}>{esc(self.title)}</h{level}>"]
        parts += [f"<p>{esc(note)}</p>" for note in self.notes]
        for name, table in self.tables.items():
            parts.append(f"<h{level + 1}>{esc(name)}</h{level + 1}>")
            parts.append(_html_table(table, digits))
        warnings = _grouped(self.warnings)
        if warnings:
            items = "".join(f"<li>{esc(w)}</li>" for w in warnings)
            parts.append(f'<div class="warning"><strong>Warnings</strong><ul>{items}</ul></div>')
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.as_text()

    def _repr_html_(self) -> str:
        return self.as_html()

    def _repr_markdown_(self) -> str:
        return self.as_markdown()


def _grouped(warnings: Sequence[str]) -> list[str]:
    """Each distinct warning once, in order, with how often it was raised."""
    counts: dict[str, int] = {}
    for text in warnings:
        counts[text] = counts.get(text, 0) + 1
    return [text if n == 1 else f"{text} ({n} times)" for text, n in counts.items()]


def _markdown_table(table: pd.DataFrame, digits: int) -> str:
    from regression.text_table import table_cells

    if len(table) == 0:
        return "(no rows)"
    header, rows, right = table_cells(table, digits)
    widths = [max([len(h), 2] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(values: Iterable[str]) -> str:
        cells = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, right, strict=True)
        ]
        return "| " + " | ".join(cells) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if num else (":" + "-" * (w + 1))
            for w, num in zip(widths, right, strict=True)
        )
        + "|"
    )
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def _html_table(table: pd.DataFrame, digits: int) -> str:
    from regression.text_table import table_cells

    if len(table) == 0:
        return "<p>(no rows)</p>"
    header, rows, right = table_cells(table, digits)
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{esc(c)}</td>' if num else f"<td>{esc(c)}</td>"
            for c, num in zip(row, right, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    # the wrapper scrolls a wide table within itself (styled inline: a notebook has no card's CSS)
    return (
        f'<div class="{TABLE_WRAPPER}" style="overflow-x:auto;max-width:100%">'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def flat_table(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a meaningful index (named, or not 0..n-1) turned into a column.

    Examples
    --------
    >>> flat_table(pd.DataFrame({"rms": [0.02]}, index=pd.Index(["transfer"], name="method")))
         method   rms
    0  transfer  0.02
    """
    return table if _plain_range(table.index) and table.index.name is None else table.reset_index()


def _plain_range(index: pd.Index) -> bool:
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1


def with_roles(
    table: pd.DataFrame,
    truth: pd.Series | Mapping[str, float],
    n: pd.DataFrame | None,
    calibration: Iterable[str],
) -> pd.DataFrame:
    """Add ``human, n, role, abs_error`` to a ``generator, estimate[, low, high]`` table.

    ``human`` is ``truth`` where known; ``n`` the most items any validator
    labelled for the generator (NaN without counts); ``role`` is
    ``calibration`` (in ``calibration``), ``held out`` (a human precision the
    fit did not use) or ``unlabelled`` (:data:`ROLES`); ``abs_error`` is set on held-out rows.
    The columns come in the order ``generator, role, estimate, ...``.
    """
    table = table.copy()
    generators = pd.Index(table["generator"])
    table["human"] = pd.Series(truth, dtype=float).reindex(generators).to_numpy()
    table["n"] = np.nan if n is None else n.reindex(generators).max(axis=1).to_numpy()
    table["role"] = np.where(
        table["generator"].isin(list(calibration)),
        "calibration",
        np.where(table["human"].notna(), "held out", "unlabelled"),
    )
    table["abs_error"] = np.where(
        table["role"] == "held out", (table["estimate"] - table["human"]).abs(), np.nan
    )
    first = ["generator", "role", "estimate"]
    return table[first + [c for c in table.columns if c not in first]]
