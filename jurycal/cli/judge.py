"""``jurycal judge``: one judge, PPI++ / Rogan-Gladen / naive side by side (Lee et al.; Fiedler)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import (
    ALPHA_HELP,
    add_command,
    add_files,
    alpha_value,
    check_files,
    emit,
    plot_path,
    save_plot,
    summary_text,
)
from jurycal.cli.errors import Source, located
from jurycal.cli.reading import (
    find_name,
    read_input,
)
from regression.registry import (
    BOUNDED_INTERVAL_METHODS,
    SINGLE_JUDGE_DEFAULT,
    SINGLE_JUDGE_METHODS,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MODEL_COLUMNS", "read_single", "register", "run", "select_model"]

#: Columns that can say which model a row's response came from.
MODEL_COLUMNS = ("model", "generator")


def register(subparsers: Any) -> None:
    """Add ``judge`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "judge",
        plot=True,
        description="CALIBRATION has columns human, judge (1/0, true/false or valid/invalid); "
        "TEST has a judge column (missing labels are dropped and counted). A file with a "
        "model (or generator) column naming more than one model needs --model.",
        examples=[
            "jurycal judge calibration.csv test.csv",
            "jurycal judge calibration.csv test.csv --method rogan-gladen --alpha 0.1 --json",
            "jurycal judge calibration.csv test.csv --model gpt-4o --plot judge.png",
        ],
    )
    add_files(parser, "calibration", "test")
    parser.add_argument(
        "--method",
        choices=tuple(SINGLE_JUDGE_METHODS),
        default=SINGLE_JUDGE_DEFAULT,
        help=f"the reported estimator (default {SINGLE_JUDGE_DEFAULT}: "
        f"{SINGLE_JUDGE_METHODS[SINGLE_JUDGE_DEFAULT].help}); all are shown",
    )
    parser.add_argument(
        "--interval",
        choices=BOUNDED_INTERVAL_METHODS,
        default=BOUNDED_INTERVAL_METHODS[0],
        help=f"the ppi++ interval (default {BOUNDED_INTERVAL_METHODS[0]}: the CLT's, floored "
        "where the labels show no judge error; betting: holds at any number of labels, wider; "
        "normal: the CLT's alone, which can undercover from few labels)",
    )
    parser.add_argument("--model", metavar="NAME", help="use only this model's rows of both files")
    parser.add_argument("--alpha", type=alpha_value, default=0.05, help=ALPHA_HELP)
    parser.set_defaults(handler=run)


def select_model(frame: pd.DataFrame, model: str | None, what: str) -> pd.DataFrame:
    """The rows of ``model``; refuse a file that pools several models when none is named."""
    for column in MODEL_COLUMNS:
        if column not in frame.columns:
            continue
        names = frame[column].dropna().unique()
        if model is not None:
            find_name(model, names, column, what)
            return frame[frame[column] == model]
        if len(names) > 1:
            shown = ", ".join(repr(str(n)) for n in sorted(map(str, names))[:8])
            raise ValueError(
                f"{what} holds {len(names)} {column}s ({shown}); one judge estimates one "
                "model's prevalence: pick one with --model, or use `jurycal compare`."
            )
        return frame
    if model is not None:
        raise ValueError(f"--model {model!r} given, but {what} has no model or generator column.")
    return frame


def read_single(
    calibration_path: Path, test_path: Path, model: str | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The calibration rows (``human, judge``) and the test rows (``judge``) of one model."""
    calibration = read_input(calibration_path, "calibration file", ["human", "judge"])
    calibration = select_model(calibration, model, f"calibration file {str(calibration_path)!r}")
    test = read_input(test_path, "test file", ["judge"])
    return calibration, select_model(test, model, f"test file {str(test_path)!r}")


def run(args: argparse.Namespace) -> int:
    """Estimate the test set's prevalence with the judge calibrated on human labels."""
    check_files([args.calibration, args.test], [plot_path(args)])

    from regression import estimate_prevalence
    from regression.single_judge.plots import plot_single_judge

    calibration, test = read_single(args.calibration, args.test, args.model)
    sources = [
        Source(args.calibration, "calibration file", ("human",), rows=calibration.index),
        Source(args.test, "test file", ("judge",), rows=test.index),
    ]
    with located(sources):
        result = estimate_prevalence(
            calibration,
            test["judge"],
            args.alpha,
            method=args.method,
            interval_method=args.interval,
        )
    payload = {
        "method": result.method,
        "interval_method": result.ppi.interval_method if result.method == "ppi++" else None,
        "model": args.model,
        "estimate": result.estimate,
        "ci": list(result.bounds(result.alpha, result.alternative)),
        "covers": result.covers,
        "n": result.n,
        "n_dropped": result.n_dropped,
        "m0": result.m0,
        "m1": result.m1,
        "tpr": result.tpr,
        "tnr": result.tnr,
        "youden_j": result.youden_j,
        "youden_j_ci": list(result.youden.bounds(result.youden.alpha, result.youden.alternative)),
        "estimators": result.estimators(args.alpha),
        "warnings": list(result.warnings),
    }
    written = save_plot(args, plot_single_judge(result)) if plot_path(args) else None
    payload["plot"] = written
    text = summary_text(result.summary(args.alpha))
    emit(args, text, payload, warnings=result.warnings, written=[written] if written else [])
    return 0
