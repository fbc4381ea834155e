"""``jurycal fit``, ``estimate`` and ``rank``: many judges, with the estimator ``--estimator`` names.

``fit`` estimates every generator's precision g (and every validator's TPR /
TNR) from the judgments, anchored on the calibration generators' human labels
(agreeableness paper, section 5); ``estimate`` adds a generator without human
labels of its own to a fit on the others (the paper's section 5.1 use);
``rank`` turns a fit into a leaderboard. The estimators are
:data:`regression.registry.REGISTRY`'s; both files are read, checked and
encoded once (:func:`read_design`) and the checked design is what the
estimator fits.
"""

from __future__ import annotations

import argparse
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import (
    ALPHA_HELP,
    MAX_RESTARTS,
    N_BOOT_HELP,
    add_command,
    add_files,
    add_seed,
    alpha_value,
    check_files,
    emit,
    n_boot_value,
    plot_path,
    progress_setting,
    restarts_value,
    save_plot,
    steps,
    summary_text,
    transfer_bias_value,
)
from jurycal.cli.errors import located
from jurycal.cli.pairwise import add_rank_arguments, pairwise_inputs, run_pairwise_rank
from jurycal.cli.ranking import asked_pairs, pair_value, pairs_text
from jurycal.cli.reading import (
    find_name,
    read_votes,
    vote_sources,
)
from jurycal.cli.report import REPORT_HELP
from jurycal.cli.scores import (
    SCORE_HELP,
    add_scale_option,
    is_score_input,
    refuse_scale,
    run_score_estimate,
    run_score_rank,
)
from regression.registry import (
    BACKENDS,
    DEFAULT,
    DEFAULT_N_BOOT,
    DEFAULT_RESTARTS,
    INTERVAL_METHODS,
    REGISTRY,
)

if TYPE_CHECKING:
    import pandas as pd

    from regression.results import Result, Summary

__all__ = [
    "LIKELIHOOD_DEFAULTS",
    "make_model",
    "read_design",
    "register",
    "run_estimate",
    "run_fit",
    "run_rank",
]


def register(subparsers: Any) -> None:
    """Add ``fit``, ``estimate`` and ``rank`` to the ``jurycal`` subparsers."""
    for name, handler in (("fit", run_fit), ("estimate", run_estimate), ("rank", run_rank)):
        parser = add_command(
            subparsers,
            name,
            plot=name != "estimate",
            description="JUDGMENTS has generator, item, validator, label; HUMAN has "
            "generator, item, human (and inclusion_probability for items drawn by suggest). "
            "Roles: calibration (labels that anchor the judges), held out (labelled but left "
            "out of the fit, to check it), partially labelled, unlabelled.",
            examples=EXAMPLES[name],
        )
        if name == "rank":  # judgments, or pairwise verdicts (jurycal.cli.pairwise)
            add_rank_arguments(parser)
        else:
            add_files(parser, "judgments", "human")
        parser.add_argument(
            "--calibration",
            nargs="+",
            metavar="GEN",
            help="the calibration generators (default: every generator whose judged items are "
            "all labelled; with --estimator likelihood or paper, every generator with labels); "
            "another labelled generator is held out",
        )
        if name == "estimate":
            parser.add_argument(
                "--generator", required=True, metavar="NAME", help="the new generator"
            )
        else:
            parser.add_argument(
                "--shared-items",
                action="store_true",
                help="an item id names the same prompt for every generator: comparisons keep "
                "the pairing (calibration labels paired on shared items; the item bootstrap "
                "redraws prompts)",
            )
        if name == "rank":
            parser.add_argument(
                "--pairs",
                nargs="+",
                metavar="A:B",
                type=pair_value,
                help="intervals for these pairs, holding for all of them at once (default: "
                "the step-down decisions of every pair, those the rank sets rest on)",
            )
            parser.add_argument(
                "--one-at-a-time",
                action="store_true",
                help="pair intervals each at the level alone, not simultaneous (those of "
                "--pairs, else of every pair)",
            )
        parser.add_argument(
            "--transfer-bias",
            type=transfer_bias_value,
            default=None,
            metavar="{none,held-out,NUMBER}",
            help="what a partially labelled generator's interval assumes of the transfer "
            "estimate's bias: none (default; the interval holds whatever the bias), held-out "
            "(at most the transfer's largest held-out error on the calibration generators, plus "
            "its sampling error) or a bound as a fraction (0.05: 5 points); see docs/labels.md",
        )
        parser.add_argument(
            "--estimator",
            choices=tuple(REGISTRY),
            default=None,
            help="; ".join(
                f"{name}{' (default)' if name == DEFAULT else ''}: {entry.help}"
                for name, entry in REGISTRY.items()
            )
            + " (the options below apply to the latent-trait fits only)",
        )
        parser.add_argument(
            "--backend",
            choices=BACKENDS,
            help=f"the optimiser's library (default {LIKELIHOOD_DEFAULTS['backend']}; torch needs the extra: pip install 'jurycal[torch]')",
        )
        parser.add_argument(
            "--restarts",
            type=restarts_value,
            help=f"restarts of the optimiser, 1 to {MAX_RESTARTS:,} "
            f"(default {LIKELIHOOD_DEFAULTS['restarts']})",
        )
        if name == "rank":
            # a leaderboard's intervals come from the joint error (a bootstrap, for these fits)
            parser.set_defaults(interval=None)
        else:
            parser.add_argument(
                "--interval",
                choices=(*INTERVAL_METHODS, "none"),
                help="precision intervals (default auto: quasi-profile likelihood for the "
                "likelihood loss, nonparametric bootstrap for the paper loss; items: bootstrap "
                "of each generator's items, covering the correlation of an item's votes across "
                "validators)",
            )
        parser.add_argument(
            "--n-boot",
            type=n_boot_value,
            help=f"{N_BOOT_HELP} (default {LIKELIHOOD_DEFAULTS['n_boot']})",
        )
        parser.add_argument("--alpha", type=alpha_value, default=0.05, help=ALPHA_HELP)
        add_seed(parser)
        parser.add_argument("--report", type=Path, metavar="CARD", help=REPORT_HELP)
        if name != "fit":  # a score table (jurycal.cli.scores): the human ratings' scale
            add_scale_option(parser)
            parser.description = f"{parser.description}\n\n{textwrap.fill(SCORE_HELP, 79)}"
            parser.epilog = (
                f"{parser.epilog}\n  jurycal {name} scores.csv ratings.csv --scale 1 5"
                + (" --generator new-model" if name == "estimate" else " --json")
            )
        parser.set_defaults(handler=handler)


#: One example per use, for each command's ``--help``.
EXAMPLES = {
    "fit": [
        "jurycal fit judgments.csv human.csv",
        "jurycal fit judgments.csv human.csv --calibration gpt-4o claude --report fit.md",
        "jurycal fit judgments.csv human.csv --estimator likelihood --restarts 50 --plot fit.png",
    ],
    "estimate": [
        "jurycal estimate judgments.csv human.csv --generator new-model",
        "jurycal estimate judgments.csv human.csv --generator new-model --json",
    ],
    "rank": [
        "jurycal rank judgments.csv human.csv --report leaderboard.md",
        "jurycal rank judgments.csv human.csv --pairs gpt-4o:claude --one-at-a-time",
    ],
}


#: The defaults of the options of the likelihood and paper-loss fits, as the registry declares them.
LIKELIHOOD_DEFAULTS = {
    "backend": BACKENDS[0],
    "restarts": DEFAULT_RESTARTS,
    "interval": INTERVAL_METHODS[0],
    "n_boot": DEFAULT_N_BOOT,
}
#: The options that are estimator settings -> the setting (the rest are the result's options).
SETTING_OF = {
    "backend": "backend",
    "restarts": "n_restarts",
    "seed": "seed",
    "transfer_bias": "transfer_bias",
}


def make_model(args: argparse.Namespace) -> Any:
    """The estimator ``--estimator`` names, with the settings given; fills the other defaults.

    The estimator refuses a setting it has not (:func:`regression.registry.make_estimator`,
    the one place), reported here by its option; ``--interval`` and ``--n-boot``
    are refused where the estimator's result takes no interval options.

    Raises
    ------
    ValueError
        An option the estimator has not, naming it.
    """
    from regression.registry import make_estimator

    args.estimator = args.estimator or DEFAULT
    entry = REGISTRY[args.estimator]
    given = [name for name in LIKELIHOOD_DEFAULTS if getattr(args, name) is not None]
    refused = [
        name
        for name in given
        if (name in SETTING_OF and SETTING_OF[name] not in entry.settings)
        or (name not in SETTING_OF and "method" not in entry.load_result().SUMMARY_OPTIONS)
    ]
    if refused:
        options = ", ".join("--" + name.replace("_", "-") for name in refused)
        raise ValueError(
            f"{options} set(s) the likelihood and paper-loss fits; the {args.estimator} "
            "estimator has no optimiser and its interval comes from its own held-out errors. "
            "Add --estimator likelihood (or paper) to use them."
        )
    if args.transfer_bias is not None and "transfer_bias" not in entry.settings:
        raise ValueError(
            f"--transfer-bias applies to the partially labelled generators of the transfer "
            f"estimator; the {args.estimator} estimator takes every labelled generator as "
            "calibration."
        )
    for name, value in LIKELIHOOD_DEFAULTS.items():
        if getattr(args, name) is None and name not in refused:
            setattr(args, name, value)
    settings = {
        setting: getattr(args, option)
        for option, setting in SETTING_OF.items()
        if setting in entry.settings
    }
    return make_estimator(args.estimator, **settings)


def read_design(args: argparse.Namespace) -> tuple[pd.DataFrame, pd.DataFrame, Any]:
    """Both files read, checked and encoded once: the :class:`~regression.labels.LabelDesign`.

    Returns the judgments as read, the checked human labels (``human`` 1.0 /
    0.0) and the design.

    The files are read without the label checks of :func:`read_votes`; the
    labels are converted and checked once, here, by the library
    (:func:`~regression.data.checked_human_labels`,
    :func:`~regression.labels.label_design`), and its error names the file and line
    (:func:`jurycal.cli.errors.located`).
    """
    from regression.data import checked_human_labels
    from regression.labels import label_design

    judgments, human = read_votes(args.judgments, args.human, check=False)
    assert human is not None  # a path was given
    with located(_sources(args)):
        labels = checked_human_labels(human)
        design = label_design(judgments, labels)
    return judgments, labels.labels, design


def _read_and_fit(args: argparse.Namespace, advance: Any) -> tuple[Any, list[str], Any]:
    """The steps "read" and "fit": both files, the calibration generators, the fitted estimator.

    Returns the label design, the calibration generators and the fitted result.
    """
    model = make_model(args)
    advance("read")
    _, _, design = read_design(args)
    with located(_sources(args)):
        calibration = _calibration(args, design)
    advance("fit")
    with warnings.catch_warnings(), located(_sources(args)):
        warnings.simplefilter("ignore")  # every warning is on the result and printed below
        result = model.fit_table(
            design,
            None,
            calibration,
            shared_items=args.shared_items,
        )
    return design, calibration, result


def _check_outputs(args: argparse.Namespace) -> None:
    check_files([args.judgments, args.human], [plot_path(args)], card=args.report)


def _sources(args: argparse.Namespace) -> list[tuple[Path, str, tuple[str, ...]]]:
    return vote_sources(args.judgments, args.human)


def _calibration(args: argparse.Namespace, design: Any) -> list[str]:
    """The calibration generators: ``--calibration`` checked against both files, or the default.

    The default with the transfer estimator: every generator whose judged
    items are all labelled (one with some labelled is partially labelled,
    :mod:`regression.labels`); with the likelihood or paper loss, every
    generator with human labels.
    """
    labelled = design.encoded.human["generator"].unique()
    if not args.calibration:
        if args.estimator != "transfer":
            return sorted(str(g) for g in labelled)
        return sorted(design.calibration)
    where_human = f"the human-label file {str(args.human)!r}"
    where_votes = f"the judgments file {str(args.judgments)!r}"
    for name in args.calibration:
        find_name(name, labelled, "calibration generator", where_human)
        find_name(name, design.encoded.generators, "calibration generator", where_votes)
    return list(dict.fromkeys(args.calibration))


def _summary(
    args: argparse.Namespace,
    result: Result,
    human: pd.DataFrame,
    calibration: Sequence[str],
) -> Summary:
    """The result's summary, with the interval ``--interval`` asks for.

    Each result class names the options its ``summary`` takes
    (``SUMMARY_OPTIONS``): the latent-trait fits take the interval settings;
    the transfer estimator has one interval of its own (``make_model``
    refuses those settings with it), so it is given none of them. ``human``:
    the checked labels (1.0 / 0.0), converted once on reading.
    """
    offered: dict[str, Any] = {
        "truth": human.groupby("generator")["human"].mean(),
        "method": None if args.interval == "none" else args.interval,
        "n_boot": args.n_boot,
        "seed": args.seed,
        "calibration": calibration,
        "progress": progress_setting(args),
    }
    options = {name: offered[name] for name in type(result).SUMMARY_OPTIONS}
    return result.summary(args.alpha, **options)


def _output(result: Result, summary: Summary) -> tuple[str, dict[str, Any]]:
    """The summary as text, and as JSON: every table by name, the notes, the warnings."""
    from regression.results import flat_table

    payload: dict[str, Any] = {"method": result.method, "covers": result.covers}
    for name, table in summary.tables.items():
        key = "generators" if name == "precision" else name.replace("-", "_")
        payload[key] = flat_table(table)
    payload["diagnostics"] = flat_table(result.diagnostics())
    payload.update(notes=list(summary.notes), warnings=list(summary.warnings), plot=None)
    return summary_text(summary), payload


def _write_card(
    args: argparse.Namespace,
    summary: Summary,
    result: Result,
    human: pd.DataFrame,
    figure: Any = None,
) -> list[Path]:
    """The card of ``--report``: the summary and the fit's figure (``figure``, built once for the
    card and ``--plot``; else drawn here)."""
    if args.report is None:
        return []
    from jurycal.report import Report, add_fit

    card = Report("jurycal report card: many judges")
    add_fit(card, summary, result, human, alpha=args.alpha, figure=figure)
    return card.write(args.report)


def run_fit(args: argparse.Namespace) -> int:
    """Fit the latent-trait model and print (or write) its table, validators and diagnostics."""
    _check_outputs(args)
    with steps(args, ["read", "fit", "intervals", "write"]) as advance:
        design, calibration, result = _read_and_fit(args, advance)
        human = design.encoded.human
        advance("intervals")
        summary = _summary(args, result, human, calibration)
        advance("write")
        text, payload = _output(result, summary)
        figure = None
        if args.report is not None or plot_path(args) is not None:
            from jurycal.report import fit_figure

            figure = fit_figure(summary, result, human, alpha=args.alpha)
        written = _write_card(args, summary, result, human, figure)
        if plot_path(args) is not None:
            payload["plot"] = save_plot(args, figure)
            written.append(payload["plot"])
    emit(args, text, payload, warnings=summary.warnings, written=written)
    return 0


def run_rank(args: argparse.Namespace) -> int:
    """Fit, then the leaderboard: rank sets, could-be-best and the pairs' differences."""
    from regression.ranking import leaderboard
    from regression.ranking.plot import plot_board

    if is_score_input(args.judgments):
        return run_score_rank(args)
    refuse_scale(args, args.judgments)
    if pairwise_inputs(args):
        return run_pairwise_rank(args)
    _check_outputs(args)
    with steps(args, ["read", "fit", "rank", "write"]) as advance:
        _, _, result = _read_and_fit(args, advance)
        advance("rank")
        # each result names the options of its joint error (a latent-trait fit's bootstrap)
        offered = {"n_boot": args.n_boot, "progress": progress_setting(args)}
        joint_options = {k: offered[k] for k in type(result).JOINT_OPTIONS if k in offered}
        # one joint error (for a latent-trait fit, one bootstrap) for the board and the pairs
        joint = result.joint_error(seed=args.seed, **joint_options)
        board = leaderboard(result, args.alpha, seed=args.seed, joint=joint)
        pairs, level = asked_pairs(args, board, "this fit")
        summary = board.summary(board.alpha, top=args.top)
        advance("write")
        # the summary and the figure are built once, for the card and for stdout and --plot
        figure = (
            plot_board(board, top=args.top)
            if args.report is not None or plot_path(args) is not None
            else None
        )
        written: list[Path] = []
        if args.report is not None:
            from jurycal.report import Report, add_leaderboard

            card = Report("jurycal report card: leaderboard")
            add_leaderboard(card, board, top=args.top, summary=summary, figure=figure)
            written += card.write(args.report)
        plot = save_plot(args, figure) if plot_path(args) is not None else None
        written += [plot] if plot is not None else []
    payload = {
        "method": result.method,
        "covers": board.covers,
        "alpha": args.alpha,
        "leaderboard": board.table,
        "pairs": pairs,
        "pairs_level": level,
        "could_be_best": [g for g in board.table.index[board.table["could_be_best"]]],
        "warnings": list(result.warnings),
        "plot": plot,
    }
    text = summary_text(summary) + pairs_text(args, pairs, level)
    emit(args, text, payload, warnings=result.warnings, written=written)
    return 0


def run_estimate(args: argparse.Namespace) -> int:
    """Fit on the other generators with ``--generator`` added, and say what adding it moved."""
    from regression.data import counts_from_encoded

    if is_score_input(args.judgments):
        return run_score_estimate(args)
    refuse_scale(args, args.judgments)
    model = make_model(args)
    _check_outputs(args)
    with steps(args, ["read", "fit", "intervals"]) as advance:
        advance("read")
        _, human, design = read_design(args)
        new = find_name(
            args.generator,
            design.encoded.generators,
            "generator",
            f"the judgments file {str(args.judgments)!r}",
        )
        with located(_sources(args)):
            calibration = [g for g in _calibration(args, design) if g != new]
        if not calibration:
            raise ValueError(
                f"no calibration generator besides {new!r}: the human-label file "
                f"{str(args.human)!r} must label at least one other generator."
            )
        advance("fit")
        with warnings.catch_warnings(), located(_sources(args)):
            warnings.simplefilter("ignore")  # every warning is on the result and printed below
            counts = counts_from_encoded(design.encoded)
            result, shift = _fit_with(args, model, design, counts, calibration, new)
        advance("intervals")
        summary = _summary(args, result, human, calibration)
        table = summary.tables["precision"]
    text, payload = _output(result, summary)
    row = table.loc[new]
    n_votes = int(counts.n_labelled.loc[new].sum())
    n_human = int((human["generator"] == new).sum())
    bounds = [row.get("low"), row.get("high")]
    finite = all(b is not None and b == b for b in bounds)  # NaN != NaN: no interval
    interval = f" [{bounds[0]:.4f}, {bounds[1]:.4f}]" if finite else " (no interval)"
    if n_human and row.get("role") == "partially labelled":
        worth = result.partial.worth().loc[new]
        own = (
            f", {n_human:,} human labels of its own (a sample of its items) and what the other "
            f"generators teach: the judges are worth {worth['judges_worth']:.0f} more labels, the "
            f"other generators {worth['transfer_worth']:.0f} (effective sample size "
            f"{worth['n_eff']:.0f}; {worth['guarantee']})"
        )
    elif n_human:
        own = (
            f"; its {n_human:,} human labels (precision {row['human']:.4f}) were left out of "
            f"the fit, so its error {row['abs_error']:.4f} is an honest check"
        )
    else:
        own = " and no human label of its own"
    # a shift under the printed precision reads "less than 0.0001", not "at most 0.0000"
    moved = f"at most {shift:.4f}" if shift >= 0.00005 else "less than 0.0001"
    head = (
        f"{new}: precision {row['estimate']:.4f}{interval} from {n_votes:,} validator labels"
        f"{own}; adding it moved the other generators' estimates by {moved}."
    )
    payload["new_generator"] = new
    payload["n_human_labels"] = n_human
    written = _write_card(args, summary, result, human)
    emit(args, "\n".join([head, "", text]), payload, warnings=summary.warnings, written=written)
    return 0


def _fit_with(
    args: argparse.Namespace,
    model: Any,
    design: Any,
    counts: Any,
    calibration: list[str],
    new: str,
) -> tuple[Any, float]:
    """The fit of the others with ``new`` added, and how far adding it moved them.

    One fit of the other generators, then ``add_generators``: a refit with the
    new row (section 5.1 of the agreeableness paper; the latent-trait fits
    start from the first fit's estimates) that keeps the partial labels and
    the item votes of ``design`` (``counts``: its counts, for the new row).
    """
    base = model.fit_table(design.without([new]), None, calibration)
    rows = [new]
    result = model.add_generators(
        base, counts.rates.loc[rows], counts.n_labelled.loc[rows].astype(float), design=design
    )
    return result, float((result.precision.drop(new) - base.precision).abs().max())
