"""``jurycal compare``: two models judged by one judge, shared vs model-specific calibration."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import (
    ALPHA_HELP,
    N_BOOT_HELP,
    TABLE_FILE,
    add_command,
    add_seed,
    alpha_value,
    check_files,
    emit,
    n_boot_value,
    plot_path,
    save_plot,
    steps,
    summary_text,
)
from jurycal.cli.reading import (
    find_name,
    read_input,
    refuse_duplicates,
)
from regression.registry import COMPARISON_N_BOOT, SHARED_CALIBRATIONS

__all__ = ["Comparison", "compare_read", "read_comparison", "register", "run"]

if TYPE_CHECKING:
    import pandas as pd

#: The calibration rows per model, the two models' test labels (aligned by item when paired).
Comparison = tuple[dict[str, "pd.DataFrame"], "pd.Series", "pd.Series", bool]


def register(subparsers: Any) -> None:
    """Add ``compare`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "compare",
        plot=True,
        description="CALIBRATION has columns model, human, judge; TEST has model, judge and, "
        "for the paired design (both models judged on the same items, the default), item.",
        examples=[
            "jurycal compare calibration.csv test.csv --models gpt-4o claude",
            "jurycal compare calibration.csv test.csv --models gpt-4o claude --unpaired --json",
        ],
    )
    parser.add_argument(
        "calibration",
        type=Path,
        metavar="CALIBRATION",
        help=f"human-labelled items of both models (model, human, judge): {TABLE_FILE}",
    )
    parser.add_argument(
        "test",
        type=Path,
        metavar="TEST",
        help=f"the judge's labels on both models' test items (model, judge[, item]): {TABLE_FILE}",
    )
    parser.add_argument(
        "--models", nargs=2, required=True, metavar=("A", "B"), help="the two models compared"
    )
    parser.add_argument(
        "--unpaired",
        action="store_true",
        help="the two test sets are different items (default: paired on item)",
    )
    parser.add_argument(
        "--shared",
        choices=SHARED_CALIBRATIONS,
        default=SHARED_CALIBRATIONS[0],
        help="the shared calibration set beside model-specific ones: both models' items pooled "
        "(default), or model a's or b's alone",
    )
    parser.add_argument(
        "--n-boot",
        type=n_boot_value,
        default=COMPARISON_N_BOOT,
        help=f"{N_BOOT_HELP} (default {COMPARISON_N_BOOT:,})",
    )
    add_seed(parser)
    parser.add_argument("--alpha", type=alpha_value, default=0.05, help=ALPHA_HELP)
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
        if not wide.notna().all(axis=1).any():
            raise ValueError(
                f"no item of the test file {str(args.test)!r} has a judge label for both "
                f"{name_a!r} and {name_b!r}, so the paired design has nothing to pair; if the "
                "two models were judged on different items, add --unpaired."
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
    name_a, name_b = args.models
    check_files([args.calibration, args.test], [plot_path(args)])

    from regression.single_judge.plots import plot_comparison

    with steps(args, ["read", "compare (bootstrap)"]) as advance:
        advance("read")
        cal, test_a, test_b, paired = read_comparison(args)
        advance("compare (bootstrap)")
        result = compare_read(args, (cal, test_a, test_b, paired), shared=args.shared)
    payload = {
        "models": [name_a, name_b],
        "paired": paired,
        "shared_calibration": args.shared,
        "estimators": result.to_frame(result.alpha),
        "delta_j": result.delta_j.estimate,
        "delta_j_ci": list(result.delta_j.bounds(result.delta_j.alpha, result.delta_j.alternative)),
        "warnings": list(result.warnings),
    }
    written = save_plot(args, plot_comparison(result)) if plot_path(args) else None
    payload["plot"] = written
    text = summary_text(result.summary(result.alpha))
    emit(args, text, payload, warnings=result.warnings, written=[written] if written else [])
    return 0
