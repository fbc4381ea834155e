"""Graded scores from the command line: ``jurycal rank SCORES HUMAN`` and its kin.

A table with ``generator, item, validator, score`` and no ``label`` is a score table
(:func:`is_score_table`): each judge's numeric score of each output, on
the judge's own scale. ``rank``, ``estimate``, ``suggest``, ``plan`` and ``report`` tell it
by its columns, as they tell pairwise verdicts, and read HUMAN as the human ratings
(``generator, item, human`` on the rating scale, optionally ``inclusion_probability``).
The rating scale is declared (``--scale LOW HIGH``) or, if not, taken from the ratings
with a note on stderr. The estimate is each generator's mean human rating
(:class:`regression.ScoreModel`, docs/scores.md).

This module imports nothing heavy: ``jurycal rank --help`` loads it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.errors import FileError, Source, in_file

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FIT_OPTIONS",
    "SCORE_HELP",
    "Scale",
    "ScoreFit",
    "fit_scores",
    "plan_text",
    "run_score_estimate",
    "run_score_plan",
    "run_score_rank",
    "run_score_report",
    "run_score_suggest",
    "write_score_card",
    "add_scale_option",
    "is_score_input",
    "is_score_table",
    "print_note",
    "read_scores",
    "refuse_options",
    "refuse_scale",
    "score_sources",
]

#: A rating scale: its lowest and highest rating.
Scale = tuple[float, float]


class _ScaleAction(argparse.Action):
    """``--scale LOW HIGH``: two finite numbers, LOW below HIGH, checked by the parser (exit 2)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        texts = list(values) if isinstance(values, (list, tuple)) else [values]
        numbers = []
        for text in texts:
            try:
                number = float(str(text))
            except ValueError:
                parser.error(f"argument --scale: {text!r} is not a number")
            if not math.isfinite(number):
                parser.error(f"argument --scale: {text!r} is not a finite number")
            numbers.append(number)
        low, high = numbers
        if not low < high:
            parser.error(f"argument --scale: LOW ({low:g}) must be below HIGH ({high:g})")
        setattr(namespace, self.dest, (low, high))


def add_scale_option(parser: argparse.ArgumentParser) -> None:
    """``--scale LOW HIGH``, the rating scale of a score table's human ratings."""
    parser.add_argument(
        "--scale",
        nargs=2,
        action=_ScaleAction,
        metavar=("LOW", "HIGH"),
        help="score tables: the scale of the human ratings, e.g. --scale 1 5 (default: the "
        "lowest and highest rating given, with a note); a rating outside it is an error",
    )


#: What a score table is, for the commands' descriptions.
SCORE_HELP = (
    "Score tables: a first file with generator, item, validator, score (no label) holds the "
    "judges' numeric scores, each judge on its own scale; HUMAN then holds human ratings "
    "(generator, item, human on the rating scale, optionally inclusion_probability) and the "
    "estimate is each generator's mean human rating, the judges' scores sharpening the "
    "ratings (docs/scores.md); --scale LOW HIGH declares the rating scale."
)


def refuse_scale(args: argparse.Namespace, path: Path) -> None:
    """Refuse ``--scale`` with a table that is not a score table (it sets nothing there),
    naming the columns it has."""
    if getattr(args, "scale", None) is not None:
        from jurycal.io import table_columns
        from regression.checks import missing_columns_message
        from regression.scores import SCORE_COLUMNS

        columns = table_columns(path)
        if not set(SCORE_COLUMNS) <= set(columns):  # not a score table: what it lacks
            reason = missing_columns_message(repr(str(path)), SCORE_COLUMNS, columns)
        else:
            reason = f"{str(path)!r} has a label column: it is a judgments table."
        raise ValueError(
            "--scale sets the rating scale of a score table (generator, item, validator, "
            f"score); {reason}"
        )


def is_score_table(columns: Iterable[str]) -> bool:
    """Whether a table with these columns holds judges' scores (``generator, item, validator,
    score`` and no ``label``): the rule by which the commands tell a score table from a
    judgments table (``label``; an import's judgments carry the raw grade in ``score``) and
    pairwise verdicts (:func:`jurycal.cli.reading.is_pairwise`).

    Examples
    --------
    >>> is_score_table(["generator", "item", "validator", "score"])
    True
    >>> is_score_table(["generator", "item", "validator", "label", "score"])
    False
    """
    from regression.scores import SCORE_COLUMNS

    names = set(columns)
    return set(SCORE_COLUMNS) <= names and "label" not in names


def is_score_input(path: Path) -> bool:
    """Whether the table at ``path`` is a score table (reads its header only, once the file is
    known readable: :func:`jurycal.cli.common.check_files` names a missing file or a directory)."""
    from jurycal.cli.common import check_files
    from jurycal.io import table_columns

    check_files([path])
    return is_score_table(table_columns(path))


def refuse_options(args: argparse.Namespace, options: Sequence[str], path: Path) -> None:
    """Refuse the options of ``options`` given with a score table, rather than ignore them.

    Raises
    ------
    ValueError
        Naming the options given and the score table.
    """
    given = [name for name in options if getattr(args, name, None) not in (None, False, [])]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ValueError(
            f"{flags} set(s) a judgments fit; {str(path)!r} is a score table (generator, item, "
            "validator, score), estimated by each generator's mean human rating with --scale, "
            "--alpha and --seed (docs/scores.md)."
        )


def read_scores(
    scores_path: Path, human_path: Path | None, declared: Scale | None
) -> tuple[pd.DataFrame, pd.DataFrame | None, Scale, str | None]:
    """The score table and the human ratings, read as every command reads (names as text, items
    of one type, one row per key) and checked by the library's validators
    (:func:`regression.scores.validate_scores`, :func:`regression.scores.validate_ratings`),
    with the rating scale: declared, or taken from the ratings with the note to print.
    Without ratings (``suggest``'s first draw) the scale must be declared.

    Raises
    ------
    ValueError
        A file that cannot be read, a missing column, no rows, a repeated key (both lines),
        a score or a rating that is missing or not a number, a rating outside the declared
        scale or on an output no judge scored: each naming the file, its 1-based line and
        the column.
    """
    import warnings

    from jurycal.cli.reading import read_input, refuse_duplicates, same_item_type
    from jurycal.io import table_columns
    from regression.errors import InputError
    from regression.scores import (
        RATING_COLUMNS,
        SCORE_COLUMNS,
        ScaleWarning,
        validate_ratings,
        validate_scores,
    )

    scores = read_input(scores_path, "score file", SCORE_COLUMNS, check_labels=False)
    refuse_duplicates(scores, ["generator", "item", "validator"], scores_path, "score file")
    if human_path is None:
        if declared is None:
            raise ValueError(
                f"{str(scores_path)!r} is a score table and no ratings are given: declare the "
                "rating scale with --scale LOW HIGH."
            )
        try:
            return validate_scores(scores), None, declared, None
        except InputError as err:
            raise in_file(err, scores_path, "score file") from None
    if "score" in table_columns(human_path) and "human" not in table_columns(human_path):
        raise FileError(
            f"{str(human_path)!r} is a score table; give the judges' scores first, then the "
            "human ratings (generator, item, human).",
            file=human_path,
        )
    human = read_input(human_path, "rating file", RATING_COLUMNS, check_labels=False)
    refuse_duplicates(human, ["generator", "item"], human_path, "rating file")
    scores, human = same_item_type(scores, human)
    try:
        scores = validate_scores(scores)
    except InputError as err:
        raise in_file(err, scores_path, "score file") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ScaleWarning)
        try:
            human, scale = validate_ratings(human, declared, scores)
        except InputError as err:
            raise in_file(err, human_path, "rating file") from None
    note = None
    if declared is None:
        note = " ".join(str(w.message) for w in caught if issubclass(w.category, ScaleWarning))
        note = note.replace("(scale=(low, high))", "(--scale LOW HIGH)")
    return scores, human, scale, note or None


def print_note(note: str | None) -> None:
    """A note on stderr, as ``jurycal: note: ...``."""
    if note:
        print(f"jurycal: note: {note}", file=sys.stderr)


def score_sources(scores_path: Path, human_path: Path | None) -> list[Source]:
    """The score and rating files for :func:`jurycal.cli.errors.located`: the library names the
    table of each error (``"scores"``, ``"ratings"``), else the column places it."""
    sources = [Source(scores_path, "score file", ("score", "validator"), "scores")]
    if human_path is not None:
        columns = ("human", "inclusion_probability", "item", "generator")
        sources.insert(0, Source(human_path, "rating file", columns, "ratings"))
    return sources


# rank's and estimate's options that set a judgments fit or a pairwise board: refused with scores
FIT_OPTIONS = (
    "calibration",
    "shared_items",
    "transfer_bias",
    "estimator",
    "backend",
    "restarts",
    "n_boot",
    "estimand",
    "interval",
)


@dataclass(frozen=True)
class ScoreFit:
    """A fitted score table: the result, the tables read, the rating scale and its note."""

    result: Any
    scores: pd.DataFrame
    human: pd.DataFrame
    scale: Scale
    note: str | None


def fit_scores(
    scores_path: Path,
    human_path: Path | None,
    *,
    scale: Scale | None,
    seed: int,
    usage: str,
) -> ScoreFit:
    """Read, check (once) and fit the score table at ``scores_path`` with the ratings at
    ``human_path``, on the rating scale declared (``scale``) or taken from the ratings. An
    input error is placed at its file's line; the scale's note is printed on stderr.

    Raises
    ------
    ValueError
        No HUMAN (``usage`` says the command's form), a file error (:func:`read_scores`,
        :func:`rating_scale`), or the library's, placed in its file.
    """
    import warnings

    from jurycal.cli.errors import located

    if human_path is None:
        raise ValueError(
            f"{str(scores_path)!r} is a score table: give the human ratings too (generator, "
            f"item, human on the rating scale): {usage}."
        )
    scores, human, bounds, note = read_scores(scores_path, human_path, scale)
    assert human is not None  # human_path is given
    print_note(note)
    from regression.scores import ScoreModel

    with warnings.catch_warnings(), located(score_sources(scores_path, human_path)):
        warnings.simplefilter("ignore")  # every warning is on the result, printed by emit
        result = ScoreModel(seed=seed).fit_table(scores, human, scale=bounds)
    return ScoreFit(result, scores, human, bounds, note)


def write_score_card(
    path: Path, fit: ScoreFit, board: Any, summary: Any, *, figure: Any = None
) -> tuple[Any, list[Path]]:
    """The card of a score table (``rank --report`` and ``report``): the leaderboard of mean
    ratings with its figure, each judge's calibration curve, the judges' diagnostics."""
    from jurycal.report import Report, add_leaderboard, section
    from jurycal.score_figures import calibration_plot, score_plot

    result = fit.result
    card = Report("jurycal report card: mean human ratings from judges' scores")
    add_leaderboard(card, board, summary=summary, figure=figure or score_plot(board))
    card.add(
        section(
            "The judges",
            [
                "Per judge: the outputs it scored and of them rated, the rank correlation of its "
                "score with the rating, its weight in the stacked predictor (near 0: it adds "
                "nothing to the others) and the span of ratings its curve reaches.",
                "Per generator: the weight on the judges' prediction (lam; 0 is the ratings "
                "alone), the ratings the judges are worth, and whether the calibration carried "
                "over from the other generators lands in its own interval.",
            ],
            {"judges": result.judges(), "generators": result.diagnostics()},
        ),
        2,
    )
    card.figure(
        calibration_plot(
            fit.scores, fit.human, scale=fit.scale, fitted=result.calibration_curves()
        ),
        "Each judge's calibration: the mean human rating of the rated outputs per judge score "
        "(blue, deciles past ten distinct scores, 95 % bands) and the monotone curve the "
        "estimate uses (orange steps); a flat curve is a judge that predicts nothing.",
    )
    return card, card.write(path)


def terminal_summary(summary: Any, judges: pd.DataFrame, generators: pd.DataFrame) -> Any:
    """The leaderboard's summary as ``rank`` prints it: each generator's ``judges_worth`` beside
    its row and the judges' table below, as a pairwise leaderboard shows them (the card has
    both in its own section); ``judges`` and ``generators``: the result's ``judges()`` and
    ``diagnostics()``, as the JSON gives them."""
    import dataclasses

    # whole ratings, as a pairwise leaderboard counts whole votes
    worth = generators["judges_worth"].round().astype("Int64")
    board = summary.tables["leaderboard"]
    tables = {
        "leaderboard": board.join(worth.reindex(board.index)),
        **{name: table for name, table in summary.tables.items() if name != "leaderboard"},
        "judges": judges,
    }
    columns = (
        "judges_worth: the human ratings the judges are worth to a generator's interval (0: "
        "they add nothing; below 0: its interval is wider than the ratings' own). Judges: "
        "spearman is the rank correlation of a judge's score with the rating on the rated "
        "outputs, weight its weight in the stacked predictor (0: it adds nothing to the "
        "others), calibrated_range the span of ratings its curve maps its scores to."
    )
    return dataclasses.replace(summary, tables=tables, notes=(*summary.notes, columns))


def run_score_rank(args: argparse.Namespace) -> int:
    """``rank SCORES HUMAN``: the leaderboard of mean human ratings, with intervals and rank sets."""
    from jurycal.cli.common import check_files, emit, plot_path, save_plot, summary_text
    from jurycal.score_figures import score_plot

    refuse_options(args, (*FIT_OPTIONS, "pairs", "one_at_a_time"), args.judgments)
    check_files([args.judgments, args.human], [plot_path(args)], card=args.report)
    fit = fit_scores(
        args.judgments,
        args.human,
        scale=args.scale,
        seed=args.seed,
        usage="jurycal rank SCORES HUMAN",
    )
    board = fit.result.leaderboard(args.alpha, seed=args.seed)
    summary = board.summary(board.alpha, top=args.top)
    figure = score_plot(board) if args.report is not None or plot_path(args) is not None else None
    written: list[Path] = []
    if args.report is not None:
        written += write_score_card(args.report, fit, board, summary, figure=figure)[1]
    plot = save_plot(args, figure) if plot_path(args) is not None else None
    written += [plot] if plot is not None else []
    payload = {
        "method": fit.result.method,
        "covers": board.covers,
        "alpha": args.alpha,
        "scale": list(fit.scale),
        "scale_from": "ratings" if fit.note else "declared",
        "leaderboard": board.table,
        "pairs": board.pairs,
        "pairs_level": board.procedure,
        "could_be_best": [g for g in board.table.index[board.table["could_be_best"]]],
        "judges": fit.result.judges(),
        "generators": fit.result.diagnostics(),
        "warnings": list(fit.result.warnings),
        "plot": plot,
    }
    text = summary_text(terminal_summary(summary, payload["judges"], payload["generators"]))
    emit(args, text, payload, warnings=fit.result.warnings, written=written)
    return 0


def run_score_estimate(args: argparse.Namespace) -> int:
    """``estimate SCORES HUMAN --generator NAME``: one generator's mean rating with its interval."""
    from jurycal.cli.common import check_files, emit, summary_text
    from jurycal.cli.reading import find_name

    refuse_options(args, FIT_OPTIONS, args.judgments)
    check_files([args.judgments, args.human])
    fit = fit_scores(
        args.judgments,
        args.human,
        scale=args.scale,
        seed=args.seed,
        usage="jurycal estimate SCORES HUMAN --generator NAME",
    )
    table = fit.result.interval(args.alpha)
    new = find_name(
        args.generator, table.index, "generator", f"the score file {str(args.judgments)!r}"
    )
    row = table.loc[new]
    n_rated = int((fit.human["generator"] == new).sum())
    own = fit.scores[fit.scores["generator"] == new]
    head = (
        f"{new}: mean rating {row['estimate']:.4f} [{row['low']:.4f}, {row['high']:.4f}] "
        f"({1 - args.alpha:.0%} interval, scale {fit.scale[0]:g} to {fit.scale[1]:g}) from "
        f"{n_rated:,} human rating(s) of its {own['item'].nunique():,} outputs, scored by "
        f"{own['validator'].nunique():,} judge(s); {row['method']}."
    )
    summary = fit.result.summary(args.alpha)
    payload = {
        "generator": new,
        "estimate": row,
        "scale": list(fit.scale),
        "scale_from": "ratings" if fit.note else "declared",
        "alpha": args.alpha,
        "intervals": table,
        "n_human_ratings": n_rated,
        "warnings": list(fit.result.warnings),
    }
    text = "\n".join([head, "", summary_text(summary)])
    emit(args, text, payload, warnings=fit.result.warnings)
    return 0


def run_score_report(args: argparse.Namespace) -> int:
    """``report SCORES HUMAN -o CARD``: the card ``rank SCORES HUMAN --report`` writes."""
    from jurycal.cli.common import emit, summary_text
    from regression.ranking.board import SHOWN

    options = ("models", "unpaired", "method", "n_boot", "estimand")
    refuse_options(args, options, args.calibration)
    fit = fit_scores(
        args.calibration,
        args.test,
        scale=args.scale,
        seed=args.seed,
        usage="jurycal report SCORES HUMAN -o CARD",
    )
    board = fit.result.leaderboard(args.alpha, seed=args.seed)
    summary = board.summary(board.alpha, top=SHOWN if args.top is None else args.top)
    card, written = write_score_card(args.output, fit, board, summary)
    payload = {"written": written, "markdown": card.to_markdown(stem=written[0].stem)}
    emit(args, summary_text(summary), payload, warnings=fit.result.warnings, written=written)
    return 0


def run_score_suggest(
    args: argparse.Namespace,
) -> tuple[pd.DataFrame, pd.DataFrame | None, Scale]:
    """``suggest SCORES [--labels HUMAN] --budget N``: the outputs to rate next
    (:func:`regression.scores.suggest_labels`) and, with ``--width`` (a share of the rating
    scale), the plan. Returns the draw, the plan and the scale, for ``suggest``'s output."""
    import warnings

    from jurycal.cli.errors import located
    from regression.scores import plan_labels, suggest_labels

    refuse_options(args, ("objective",), args.judgments)
    scores, human, scale, note = read_scores(args.judgments, args.labels, args.scale)
    print_note(note)
    with warnings.catch_warnings(), located(score_sources(args.judgments, args.labels)):
        warnings.simplefilter("ignore")
        table = suggest_labels(
            scores, human, args.budget, scale=scale, generators=args.generator, seed=args.seed
        )
        plan = None
        if args.width is not None:
            plan = plan_labels(
                scores,
                human,
                args.width * (scale[1] - scale[0]),
                scale=scale,
                alpha=args.alpha,
                generators=args.generator,
            )
    return table, plan, scale


def run_score_plan(args: argparse.Namespace) -> tuple[pd.DataFrame, Scale]:
    """``plan SCORES [--labels HUMAN] --width W``: the ratings each generator needs for an
    interval at most ``W`` of the rating scale wide (:func:`regression.scores.plan_labels`)."""
    import warnings

    from jurycal.cli.errors import located
    from regression.scores import plan_labels

    scores, human, scale, note = read_scores(args.judgments, args.labels, args.scale)
    print_note(note)
    with warnings.catch_warnings(), located(score_sources(args.judgments, args.labels)):
        warnings.simplefilter("ignore")
        table = plan_labels(
            scores,
            human,
            args.width * (scale[1] - scale[0]),
            scale=scale,
            alpha=args.alpha,
            generators=args.generator,
        )
    return table, scale


def plan_text(table: pd.DataFrame, width: float, scale: Scale, alpha: float) -> str:
    """The plan of ratings as text: the width in rating points and as a share of the scale."""
    from regression.text_table import text_table

    points = width * (scale[1] - scale[0])
    return "\n".join(
        [
            f"human ratings needed for a {1 - alpha:.0%} interval at most {points:.3g} rating "
            f"points wide ({100 * width:.1f} % of the scale {scale[0]:g} to {scale[1]:g}; "
            "uniform: a random sample; active: drawn by jurycal suggest):",
            text_table(table, digits=3, empty="no generator to plan for."),
        ]
    )
