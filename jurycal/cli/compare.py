"""``jurycal compare``: two models judged by one judge, shared vs model-specific calibration."""

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
    n_boot_value,
    plot_path,
    read_input,
    refuse_duplicates,
    save_plot,
    steps,
)

__all__ = ["Comparison", "compare_read", "read_comparison", "register", "run"]

#: The calibration rows per model, the two models' test labels (aligned by item when paired).
Comparison = tuple[dict[str, pd.DataFrame], pd.Series, pd.Series, bool]


def register(subparsers: Any) -> None:
    """Add ``compare`` to the ``jurycal`` subparsers."""
    from regression.single_judge import SHARED_CALIBRATIONS

    parser = subparsers.add_parser(
        "compare",
        parents=[command_options(plot=True)],
        help=summary("compare"),
        description="CALIBRATION has columns model, human, judge; TEST has model, judge and, "
        "for a paired design (both models on the same items), item.",
    )
    parser.add_argument("calibration", type=Path)
    parser.add_argument("test", type=Path)
    parser.add_argument("--models", nargs=2, required=True, metavar=("A", "B"))
    parser.add_argument("--unpaired", action="store_true", help="the test sets are different items")
    parser.add_argument("--shared", choices=SHARED_CALIBRATIONS, default="pooled")
    parser.add_argument("--n-boot", type=n_boot_value, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--alpha", type=alpha_value, default=0.05)
    parser.set_defaults(handler=run)


def read_comparison(args: argparse.Namespace) -> Comparison:
    """Read ``args.calibration`` and ``args.test`` for the models ``args.models``."""
    name_a, name_b = args.models
    if name_a == name_b:
        raise ValueError(f"--models names {name_a!r} twice; compare two different models.")
    paired = not args.unpaired
    calibration = read_input(args.calibration, "calibration file", ["model", "human", "judge"])
    test = read_input(args.test, "test file", ["model", "judge"] + (["item"] if paired else []))
    for frame, path, what in (
        (calibration, args.calibration, "calibration"),
        (test, args.test, "test"),
    ):
        for name in (name_a, name_b):
            find_name(name, frame["model"].dropna(), "model", f"the {what} file {str(path)!r}")
    cal = {m: calibration[calibration["model"] == m] for m in (name_a, name_b)}
    if paired:
        refuse_duplicates(test, ["model", "item"], args.test, "test file")
        wide = test.pivot(index="item", columns="model", values="judge").reindex(
            columns=[name_a, name_b]
        )
        return cal, wide[name_a], wide[name_b], True
    test_a = test.loc[test["model"] == name_a, "judge"]
    test_b = test.loc[test["model"] == name_b, "judge"]
    return cal, test_a, test_b, False


def compare_read(args: argparse.Namespace, comparison: Comparison, *, shared: str) -> Any:
    """:func:`regression.compare_models` on what :func:`read_comparison` read."""
    from regression import compare_models

    name_a, name_b = args.models
    cal, test_a, test_b, paired = comparison
    return compare_models(
        test_a,
        test_b,
        cal[name_a],
        cal[name_b],
        args.alpha,
        paired=paired,
        shared_calibration=shared,
        n_boot=args.n_boot,
        seed=args.seed,
        labels=(name_a, name_b),
    )


def run(args: argparse.Namespace) -> int:
    """Compare the two models' prevalences and the judge's J on each."""
    from regression.single_judge.plots import plot_comparison

    name_a, name_b = args.models
    check_outputs([args.calibration, args.test], [plot_path(args)])
    with steps(args, ["read", "compare (bootstrap)"]) as advance:
        advance("read")
        cal, test_a, test_b, paired = read_comparison(args)
        advance("compare (bootstrap)")
        result = compare_read(args, (cal, test_a, test_b, paired), shared=args.shared)
    payload = {
        "models": [name_a, name_b],
        "paired": paired,
        "shared_calibration": args.shared,
        "estimators": result.to_frame(),
        "delta_j": result.delta_j.estimate,
        "delta_j_ci": list(result.delta_j.ci),
        "warnings": list(result.warnings),
    }
    lines = [str(result.summary())]
    if plot_path(args) is not None:
        lines.append(str(save_plot(args, plot_comparison(result))))
        payload["plot"] = str(plot_path(args))
    emit(args, "\n".join(lines), payload)
    return 0
