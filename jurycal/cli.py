"""The ``jurycal`` command line.

Exit codes: 0 success, 1 bad input (the message names the value), 2 usage
(argparse). Every command prints a table on the terminal, or JSON with
``--json``; commands that draw take ``--plot PATH``; ``--quiet`` silences
progress bars. Each subcommand is registered in :func:`build_parser` and
implemented by a ``_cmd_*`` function returning an exit code.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.io import read_table, write_table
from regression.checks import require_columns

__all__ = ["build_parser", "main"]


def _common(*, plot: bool = False) -> argparse.ArgumentParser:
    """Options every subcommand takes (after its name)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parent.add_argument(
        "--quiet", action="store_true", default=argparse.SUPPRESS, help="silence progress bars"
    )
    if plot:
        parent.add_argument("--plot", type=Path, metavar="PNG", help="also save a figure here")
    return parent


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jurycal",
        description="Trustworthy estimates from noisy LLM judges. "
        "Tables in: CSV, TSV, Parquet or JSON Lines (by file ending).",
    )
    parser.add_argument("--quiet", action="store_true", help="silence progress bars")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser(
        "demo", parents=[_common()], help="run the whole pipeline on the bundled example data"
    )
    demo.add_argument(
        "--out", type=Path, default=Path("jurycal-demo"), help="where the report card is written"
    )
    demo.set_defaults(handler=_cmd_demo)

    judge = sub.add_parser(
        "judge",
        parents=[_common(plot=True)],
        help="one judge: naive / Rogan-Gladen / PPI++ side by side with J diagnostics",
        description="CALIBRATION has columns human, judge (1/0, bool or valid/invalid); "
        "TEST has a judge column (missing labels are dropped and counted).",
    )
    judge.add_argument("calibration", type=Path)
    judge.add_argument("test", type=Path)
    judge.add_argument(
        "--method", choices=("rogan-gladen", "ppi++", "naive"), default="rogan-gladen"
    )
    judge.add_argument("--alpha", type=float, default=0.05)
    judge.set_defaults(handler=_cmd_judge)

    compare = sub.add_parser(
        "compare",
        parents=[_common(plot=True)],
        help="two models judged by one judge: shared vs model-specific calibration, Delta J",
        description="CALIBRATION has columns model, human, judge; TEST has model, judge and, "
        "for a paired design (both models on the same items), item.",
    )
    compare.add_argument("calibration", type=Path)
    compare.add_argument("test", type=Path)
    compare.add_argument("--models", nargs=2, required=True, metavar=("A", "B"))
    compare.add_argument(
        "--unpaired", action="store_true", help="the test sets are different items"
    )
    compare.add_argument("--shared", choices=("pooled", "a", "b"), default="pooled")
    compare.add_argument("--n-boot", type=int, default=10_000)
    compare.add_argument("--seed", type=int, default=0)
    compare.add_argument("--alpha", type=float, default=0.05)
    compare.set_defaults(handler=_cmd_compare)

    report = sub.add_parser(
        "report",
        parents=[_common()],
        help="write a report card (Markdown and HTML) following Fiedler's section 7 checklist",
        description="Without --models: CALIBRATION has human, judge; TEST has judge. With "
        "--models A B: both files also have a model column (TEST an item column when paired), "
        "and the card adds the comparison with Delta J.",
    )
    report.add_argument("calibration", type=Path)
    report.add_argument("test", type=Path)
    report.add_argument("-o", "--output", type=Path, required=True, help="card.md (and card.html)")
    report.add_argument("--models", nargs=2, metavar=("A", "B"))
    report.add_argument("--unpaired", action="store_true")
    report.add_argument("--method", choices=("rogan-gladen", "ppi++"), default="rogan-gladen")
    report.add_argument("--n-boot", type=int, default=10_000)
    report.add_argument("--seed", type=int, default=0)
    report.add_argument("--alpha", type=float, default=0.05)
    report.set_defaults(handler=_cmd_report)

    count = sub.add_parser(
        "count",
        parents=[_common()],
        help="turn a judgments file of any size into generator x validator counts (streamed)",
    )
    count.add_argument("judgments", type=Path)
    count.add_argument("-o", "--output", type=Path, help="write the long counts table here")
    count.add_argument("--chunk-rows", type=int, default=1_000_000)
    count.set_defaults(handler=_cmd_count)

    for name, what in (
        ("fit", "latent-trait regression: precision per generator, TPR/TNR per validator, CIs"),
        ("estimate", "precision of a new, unannotated generator (the paper's section 5.1 use)"),
    ):
        cmd = sub.add_parser(
            name,
            parents=[_common(plot=name == "fit")],
            help=what,
            description="JUDGMENTS has generator, item, validator, label; HUMAN has "
            "generator, item, human. Anchors come from the calibration generators' labels.",
        )
        cmd.add_argument("judgments", type=Path)
        cmd.add_argument("human", type=Path)
        cmd.add_argument(
            "--calibration",
            nargs="+",
            metavar="GEN",
            help="calibration generators (default: every generator with human labels)",
        )
        if name == "estimate":
            cmd.add_argument("--generator", required=True, help="the new generator")
        cmd.add_argument("--loss", choices=("likelihood", "paper"), default="likelihood")
        cmd.add_argument("--backend", choices=("scipy", "torch"), default="scipy")
        cmd.add_argument("--restarts", type=int, default=25)
        cmd.add_argument(
            "--interval",
            choices=("auto", "profile", "parametric", "nonparametric", "items", "none"),
            default="auto",
            help="precision intervals (auto: quasi-profile likelihood for the likelihood "
            "loss, nonparametric bootstrap for the paper loss; items: bootstrap of each "
            "generator's items, covering the correlation of an item's votes across validators)",
        )
        cmd.add_argument("--n-boot", type=int, default=200, help="bootstrap replicates")
        cmd.add_argument("--alpha", type=float, default=0.05)
        cmd.add_argument("--seed", type=int, default=0)
        cmd.add_argument("--report", type=Path, help="also write a report card (.md and .html)")
        cmd.set_defaults(handler=_cmd_fit if name == "fit" else _cmd_estimate)

    from ensemble import METRICS, RULES
    from repair import PAPER_LEVELS

    rep = sub.add_parser(
        "repair",
        parents=[_common()],
        help="repair raw validator outputs into the judgments table, accounting for every pair",
        description="GEN_ITEMS has columns generator, task, item, line, feedback; "
        "VALIDATOR_OUTPUTS has generator, task, validator, raw (the validator's whole response).",
    )
    rep.add_argument("generator_items", type=Path)
    rep.add_argument("validator_outputs", type=Path)
    rep.add_argument("-o", "--output", type=Path, required=True, help="the judgments table")
    rep.add_argument(
        "--repairs",
        choices=("all", *PAPER_LEVELS),
        default="all",
        help="which repairs: all (default) or one of the paper's four levels",
    )
    rep.add_argument("--fuzzy-threshold", type=float, default=85.0)
    rep.add_argument("--report", type=Path, help="also write the per-validator report table here")
    rep.set_defaults(handler=_cmd_repair)

    vote = sub.add_parser(
        "vote",
        parents=[_common()],
        help="label items by majority / supermajority / minority veto; precision per generator",
        description="JUDGMENTS has columns generator, item, validator, label (1/0/missing).",
    )
    vote.add_argument("judgments", type=Path)
    vote.add_argument("--rule", choices=RULES, default="majority")
    vote.add_argument("--threshold", type=int, help="k (default: the rule's own)")
    vote.add_argument("--missing", choices=("ignore",), help="apply the rule to the votes cast")
    vote.add_argument("--human", type=Path, help="human labels (generator, item, human): TPR/TNR")
    vote.add_argument("-o", "--output", type=Path, help="write the item labels here")
    vote.set_defaults(handler=_cmd_vote)

    pick = sub.add_parser(
        "pick-threshold",
        parents=[_common(plot=True)],
        help="choose a rule's threshold on human-labelled generators (leave-one-generator-out)",
    )
    pick.add_argument("judgments", type=Path)
    pick.add_argument("human", type=Path, help="human labels: generator, item, human")
    pick.add_argument("--rule", choices=RULES, default="minority_veto")
    pick.add_argument("--metric", choices=METRICS, default="max_abs_error")
    pick.add_argument("--missing", choices=("ignore",))
    pick.set_defaults(handler=_cmd_pick_threshold)
    return parser


# --- output -----------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    if isinstance(value, pd.DataFrame):
        return [_jsonable(r) for r in value.reset_index().to_dict(orient="records")]
    if isinstance(value, pd.Series):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _emit(args: argparse.Namespace, text: str, payload: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(_jsonable(payload), indent=2))
    else:
        print(text)


def _save_plot(args: argparse.Namespace, figure: Any) -> None:
    if getattr(args, "plot", None) is None:
        return
    import matplotlib.pyplot as plt

    figure.savefig(args.plot, dpi=120, bbox_inches="tight")
    plt.close(figure)
    if not args.json:
        print(f"figure written to {args.plot}")


# --- commands -----------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    from jurycal.demo import run_demo

    text = run_demo(quiet=args.quiet, out_dir=args.out)
    _emit(args, text, {"report": str(args.out / "report.md"), "markdown": text})
    return 0


def _cmd_judge(args: argparse.Namespace) -> int:
    from regression import estimate_prevalence
    from regression.plots import plot_single_judge

    calibration = read_table(args.calibration)
    require_columns(calibration, ["human", "judge"], f"calibration file {str(args.calibration)!r}")
    test = read_table(args.test)
    require_columns(test, ["judge"], f"test file {str(args.test)!r}")
    result = estimate_prevalence(calibration, test["judge"], args.alpha, method=args.method)
    payload = {
        "method": result.method,
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
        "estimators": result.to_frame(),
        "warnings": list(result.warnings),
    }
    _emit(args, result.summary(), payload)
    _save_plot(args, plot_single_judge(result))
    return 0


def _read_comparison(args: argparse.Namespace) -> tuple[dict[str, pd.DataFrame], Any, Any, bool]:
    """The calibration rows per model and the two models' test labels (aligned when paired)."""
    name_a, name_b = args.models
    calibration = read_table(args.calibration)
    require_columns(
        calibration, ["model", "human", "judge"], f"calibration file {str(args.calibration)!r}"
    )
    test = read_table(args.test)
    paired = not args.unpaired
    require_columns(
        test, ["model", "judge"] + (["item"] if paired else []), f"test file {str(args.test)!r}"
    )
    for name in (name_a, name_b):
        for frame, what in ((calibration, "calibration"), (test, "test")):
            if not (frame["model"].astype(str) == name).any():
                known = sorted(frame["model"].astype(str).unique())
                raise ValueError(
                    f"model {name!r} has no rows in the {what} file; models there: {known}."
                )
    cal = {m: calibration[calibration["model"].astype(str) == m] for m in (name_a, name_b)}
    if paired:
        duplicated = test.duplicated(["model", "item"])
        if duplicated.any():
            row = test[duplicated].iloc[0]
            raise ValueError(
                f"test file has more than one row for model {row['model']!r}, item {row['item']!r}."
            )
        wide = (
            test.assign(model=test["model"].astype(str))
            .pivot(index="item", columns="model", values="judge")
            .reindex(columns=[name_a, name_b])
        )
        test_a, test_b = wide[name_a], wide[name_b]
    else:
        test_a = test.loc[test["model"].astype(str) == name_a, "judge"]
        test_b = test.loc[test["model"].astype(str) == name_b, "judge"]
    return cal, test_a, test_b, paired


def _cmd_compare(args: argparse.Namespace) -> int:
    from regression import compare_models
    from regression.plots import plot_comparison

    name_a, name_b = args.models
    cal, test_a, test_b, paired = _read_comparison(args)
    result = compare_models(
        test_a,
        test_b,
        cal[name_a],
        cal[name_b],
        args.alpha,
        paired=paired,
        shared_calibration=args.shared,
        n_boot=args.n_boot,
        seed=args.seed,
        labels=(name_a, name_b),
    )
    payload = {
        "models": [name_a, name_b],
        "paired": paired,
        "shared_calibration": args.shared,
        "estimators": result.to_frame(),
        "delta_j": result.delta_j.estimate,
        "delta_j_ci": list(result.delta_j.ci),
        "warnings": list(result.warnings),
    }
    _emit(args, result.summary(), payload)
    _save_plot(args, plot_comparison(result))
    return 0


def _read_judgments(path: Path) -> pd.DataFrame:
    judgments = read_table(path)
    require_columns(
        judgments, ["generator", "item", "validator", "label"], f"judgments file {str(path)!r}"
    )
    return judgments


def _read_human(path: Path) -> pd.DataFrame:
    human = read_table(path)
    require_columns(human, ["generator", "item", "human"], f"human-label file {str(path)!r}")
    return human


def _cmd_report(args: argparse.Namespace) -> int:
    from jurycal.report import Report, add_comparison, add_single_judge
    from regression import compare_models, estimate_prevalence

    card = Report("jurycal report card")
    if args.models is None:
        calibration = read_table(args.calibration)
        test = read_table(args.test)
        require_columns(test, ["judge"], f"test file {str(args.test)!r}")
        result = estimate_prevalence(calibration, test["judge"], args.alpha, method=args.method)
        add_single_judge(card, result)
    else:
        name_a, name_b = args.models
        cal, test_a, test_b, paired = _read_comparison(args)
        for name, test in ((name_a, test_a), (name_b, test_b)):
            result = estimate_prevalence(cal[name], test.dropna(), args.alpha, method=args.method)
            add_single_judge(card, result, name=name)
        comparison = compare_models(
            test_a,
            test_b,
            cal[name_a],
            cal[name_b],
            args.alpha,
            paired=paired,
            n_boot=args.n_boot,
            seed=args.seed,
            labels=(name_a, name_b),
        )
        add_comparison(card, comparison)
    written = card.write_both(args.output)
    _emit(
        args,
        card.to_markdown() + "\n" + "\n".join(f"written: {p}" for p in written),
        {"written": [str(p) for p in written], "markdown": card.to_markdown()},
    )
    return 0


def _cmd_repair(args: argparse.Namespace) -> int:
    from repair import ALL, PAPER_LEVELS, repair_judgments

    items = read_table(args.generator_items)
    outputs = read_table(args.validator_outputs)
    repairs = ALL if args.repairs == "all" else PAPER_LEVELS[args.repairs]
    judgments, report = repair_judgments(
        items,
        outputs,
        fuzzy_threshold=args.fuzzy_threshold,
        repairs=repairs,
        progress=not args.quiet,
    )
    write_table(judgments, args.output)
    summary = report.summary()
    if args.report is not None:
        write_table(summary.reset_index(), args.report)
    overall = summary.loc["all"]
    text = "\n".join(
        [
            f"{len(judgments)} (generator item, validator) pairs written to {args.output}",
            f"missing labels: {overall['rate_before']:.1%} as produced -> "
            f"{overall['rate_after']:.1%} after repairs ({args.repairs})",
            f"{len(report.unmatched_entries)} validator entries matched no item; "
            f"{len(report.unparseable_outputs)} outputs unparseable (both listed in the report)",
            "",
            summary.to_string(float_format=lambda v: f"{v:.4f}"),
            "",
            "by failure type (pairs):",
            report.by_failure().to_string(),
        ]
    )
    payload = {
        "pairs": len(judgments),
        "output": str(args.output),
        "summary": summary,
        "by_failure": report.by_failure(),
        "n_unmatched_entries": len(report.unmatched_entries),
        "n_unparseable_outputs": len(report.unparseable_outputs),
    }
    _emit(args, text, payload)
    return 0


def _long_counts(counts: Any) -> pd.DataFrame:
    """One row per (generator, validator) cell with at least one label."""
    long = pd.DataFrame(
        {
            "n_valid": counts.n_valid.stack(),
            "n_labeled": counts.n_labeled.stack(),
        }
    ).reset_index()
    return long[long["n_labeled"] > 0].reset_index(drop=True)


def _cmd_count(args: argparse.Namespace) -> int:
    from jurycal.io import count_judgments

    counts = count_judgments(args.judgments, chunk_rows=args.chunk_rows, progress=not args.quiet)
    long = _long_counts(counts)
    if args.output is not None:
        write_table(long, args.output)
    rates = counts.rates
    text = "\n".join(
        [
            f"{int(long['n_labeled'].sum()):,} labels in {len(long):,} cells "
            f"({len(rates.index)} generators x {len(rates.columns)} validators)",
            "",
            "fraction labelled valid (generators x validators):",
            rates.to_string(float_format=lambda v: f"{v:.3f}"),
        ]
        + ([f"counts written to {args.output}"] if args.output is not None else [])
    )
    _emit(args, text, {"counts": long})
    return 0


def _latent_model(args: argparse.Namespace) -> Any:
    from regression import LatentTraitModel

    return LatentTraitModel(
        loss=args.loss, n_restarts=args.restarts, backend=args.backend, seed=args.seed
    )


def _latent_output(
    args: argparse.Namespace, result: Any, human: pd.DataFrame, calibration: Sequence[str]
) -> tuple[str, dict[str, Any]]:
    """The per-generator table (with intervals and roles), validators and diagnostics."""
    from jurycal.report import latent_trait_table

    truth = human.groupby("generator")["human"].mean()
    table = latent_trait_table(
        result,
        truth,
        calibration,
        alpha=args.alpha,
        interval=None if args.interval == "none" else args.interval,
        n_boot=args.n_boot,
        seed=args.seed,
    )
    validators = pd.DataFrame({"tpr": result.tpr, "tnr": result.tnr, "youden_j": result.youden_j})
    diagnostics = {
        "loss": result.loss_name,
        "training_loss": result.loss,
        "converged": result.converged,
        "restarts_at_best": f"{result.n_restarts_converged_to_best} of {result.n_restarts}",
        "dispersion": result.dispersion,
    }
    lines = [
        f"latent-trait fit ({result.loss_name} loss, {args.backend}): training loss "
        f"{result.loss:.4f}, converged {result.converged}, restarts at the best loss "
        f"{diagnostics['restarts_at_best']}, Pearson dispersion {result.dispersion:.2f} "
        "(about 1 when the model holds)",
        "",
        table.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
        "",
        validators.to_string(float_format=lambda v: f"{v:.3f}"),
    ]
    lines += [f"warning: {w}" for w in result.warnings]
    payload = {
        "generators": table,
        "validators": validators,
        "diagnostics": diagnostics,
        "warnings": list(result.warnings),
    }
    return "\n".join(lines), payload


def _write_latent_report(args: argparse.Namespace, result: Any, table: pd.DataFrame) -> list[str]:
    if args.report is None:
        return []
    from jurycal.report import Report, add_latent_trait

    card = Report("jurycal report card: latent-trait regression")
    add_latent_trait(card, result, table)
    return [f"written: {path}" for path in card.write_both(args.report)]


def _calibration(args: argparse.Namespace, human: pd.DataFrame) -> list[str]:
    return list(args.calibration) if args.calibration else sorted(human["generator"].unique())


def _cmd_fit(args: argparse.Namespace) -> int:
    judgments, human = _read_judgments(args.judgments), _read_human(args.human)
    calibration = _calibration(args, human)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every warning is on the result and printed below
        result = _latent_model(args).fit_table(judgments, human, calibration)
    text, payload = _latent_output(args, result, human, calibration)
    written = _write_latent_report(args, result, payload["generators"])
    _emit(args, "\n".join([text, *written]), payload)
    if getattr(args, "plot", None) is not None:
        from regression.plots import plot_latent_fit

        _save_plot(args, plot_latent_fit(result, human))
    return 0


def _cmd_estimate(args: argparse.Namespace) -> int:
    from regression import counts_from_judgments

    judgments, human = _read_judgments(args.judgments), _read_human(args.human)
    new = args.generator
    is_new = judgments["generator"].astype(str) == new
    if not is_new.any():
        known = sorted(judgments["generator"].astype(str).unique())
        raise ValueError(f"generator {new!r} has no judgments; generators there: {known}.")
    calibration = [g for g in _calibration(args, human) if g != new]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every warning is on the result and printed below
        base = _latent_model(args).fit_table(judgments[~is_new], human, calibration)
        new_counts = counts_from_judgments(judgments[is_new])
        if args.interval == "items":
            # add_generators keeps no item votes; the same model fitted to the whole table does.
            result = _latent_model(args).fit_table(judgments, human, calibration)
        else:
            result = base.add_generators(new_counts.rates, new_counts.n_labeled.astype(float))
    text, payload = _latent_output(args, result, human, calibration)
    row = payload["generators"].set_index("generator").loc[new]
    shift = (result.precision.drop(new) - base.precision).abs().max()
    head = (
        f"{new}: precision {row['estimate']:.4f}"
        + (f" [{row['low']:.4f}, {row['high']:.4f}]" if "low" in row else "")
        + f" from {int(new_counts.n_labeled.to_numpy().sum()):,} validator labels and no human "
        f"label of its own; adding it moved the other generators' estimates by at most {shift:.4f}."
    )
    payload["new_generator"] = new
    written = _write_latent_report(args, result, payload["generators"])
    _emit(args, "\n".join([head, "", text, *written]), payload)
    return 0


def _cmd_vote(args: argparse.Namespace) -> int:
    from ensemble import ensemble_precision, ensemble_rates, tally_votes, vote, vote_matrix

    judgments = _read_judgments(args.judgments)
    matrix = vote_matrix(judgments)
    tally = tally_votes(matrix)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        labels = vote(matrix, args.rule, args.threshold, args.missing)
    precision = ensemble_precision(labels).to_frame()
    lines = [
        f"rule {args.rule}, threshold {args.threshold or 'default'}, missing votes: "
        f"{'ignored (fraction of votes cast)' if args.missing else 'count as neither'}",
        f"{len(matrix)} items x {matrix.shape[1]} validators; "
        f"{tally.missing_fraction:.1%} of votes missing; {tally.n_no_vote} item(s) with no vote",
        "",
        "precision per generator (fraction labelled valid; Wilson 95% interval, item sampling only):",
        precision.to_string(float_format=lambda v: f"{v:.4f}"),
    ]
    payload: dict[str, Any] = {
        "rule": args.rule,
        "threshold": args.threshold,
        "missing_fraction": tally.missing_fraction,
        "n_no_vote": tally.n_no_vote,
        "precision": precision,
        "warnings": [str(w.message) for w in caught],
    }
    if args.human is not None:
        rates = ensemble_rates(labels, _read_human(args.human)).to_frame()
        lines += ["", "against human labels:", rates.to_string(float_format=lambda v: f"{v:.4f}")]
        payload["rates"] = rates
    lines += [f"warning: {w.message}" for w in caught]
    if args.output is not None:
        write_table(pd.Series(labels, index=matrix.index, name="label").reset_index(), args.output)
        lines.append(f"item labels written to {args.output}")
    _emit(args, "\n".join(lines), payload)
    return 0


def _cmd_pick_threshold(args: argparse.Namespace) -> int:
    from ensemble import pick_threshold, vote_matrix
    from ensemble.plots import plot_threshold_sweep

    matrix = vote_matrix(_read_judgments(args.judgments))
    choice = pick_threshold(
        matrix, _read_human(args.human), args.rule, args.metric, missing=args.missing
    )
    sweep = choice.sweep[choice.sweep["rule"] == args.rule]
    text = "\n".join(
        [
            f"rule {args.rule}: threshold {choice.threshold} minimises {args.metric} on the "
            f"calibration generators (in-sample {choice.in_sample_score:.4f}; optimistic)",
            f"held out (threshold chosen without each generator): max abs error "
            f"{choice.held_out_max_abs_error:.4f}, mean {choice.held_out_mean_abs_error:.4f}",
            "",
            choice.held_out.to_string(float_format=lambda v: f"{v:.4f}"),
            "",
            "sweep:",
            sweep.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
        ]
    )
    payload = {
        "rule": args.rule,
        "metric": args.metric,
        "threshold": choice.threshold,
        "in_sample_score": choice.in_sample_score,
        "held_out_max_abs_error": choice.held_out_max_abs_error,
        "held_out": choice.held_out,
        "sweep": sweep,
    }
    _emit(args, text, payload)
    _save_plot(args, plot_threshold_sweep(choice.sweep, args.metric))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "quiet"):
        args.quiet = False
    try:
        return int(args.handler(args))
    except ValueError as err:
        print(f"jurycal: error: {err}", file=sys.stderr)
        return 1
