"""``jurycal judge``: one judge, naive / Rogan-Gladen / PPI++ side by side (Lee et al.)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.cli.commands import summary
from jurycal.cli.common import (
    alpha_value,
    check_outputs,
    command_options,
    emit,
    find_name,
    plot_path,
    read_input,
    save_plot,
)

__all__ = ["MODEL_COLUMNS", "read_single", "register", "run", "select_model"]

#: Columns that can say which model a row's response came from.
MODEL_COLUMNS = ("model", "generator")


def register(subparsers: Any) -> None:
    """Add ``judge`` to the ``jurycal`` subparsers."""
    from regression.single_judge import METHODS

    parser = subparsers.add_parser(
        "judge",
        parents=[command_options(plot=True)],
        help=summary("judge"),
        description="CALIBRATION has columns human, judge (1/0, bool or valid/invalid); "
        "TEST has a judge column (missing labels are dropped and counted). A file with a "
        "model (or generator) column naming more than one model needs --model.",
    )
    parser.add_argument("calibration", type=Path)
    parser.add_argument("test", type=Path)
    parser.add_argument("--method", choices=METHODS, default="rogan-gladen")
    parser.add_argument("--model", help="use only this model's rows of both files")
    parser.add_argument("--alpha", type=alpha_value, default=0.05)
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
    from regression import estimate_prevalence
    from regression.single_judge.plots import plot_single_judge

    check_outputs([args.calibration, args.test], [plot_path(args)])
    calibration, test = read_single(args.calibration, args.test, args.model)
    result = estimate_prevalence(calibration, test["judge"], args.alpha, method=args.method)
    payload = {
        "method": result.method,
        "model": args.model,
        "estimate": result.estimate,
        "ci": list(result.ci),
        "covers": result.covers,
        "n": result.n,
        "n_dropped": result.n_dropped,
        "m0": result.m0,
        "m1": result.m1,
        "tpr": result.tpr,
        "tnr": result.tnr,
        "youden_j": result.youden_j,
        "youden_j_ci": list(result.youden.ci),
        "estimators": result.to_frame(args.alpha),
        "warnings": list(result.warnings),
    }
    lines = [result.summary(args.alpha).as_text()]
    if plot_path(args) is not None:
        written = save_plot(args, plot_single_judge(result))
        payload["plot"] = str(plot_path(args))
        lines.append(str(written))
    emit(args, "\n".join(lines), payload)
    return 0
