"""``jurycal import FORMAT PATH... -o OUT``: an eval tool's result files to the judgments table.

Reads Inspect AI logs, promptfoo results, DeepEval test runs, AlpacaEval
annotations or MT-Bench judgments (:mod:`jurycal.importers`), writes the
judgments table (and, with ``--human-out``, the human labels the files
record), and says what it read: counts, missing labels, the threshold used,
unknown fields and notes. ``--json`` prints the same account as one JSON
object. Bad input raises ``ValueError``, which the ``jurycal`` entry point
reports as a one-line error with exit code 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.common import add_command, check_files, emit, number_value
from jurycal.formats import table_format
from jurycal.importers.names import IMPORTER_NAMES, ITEM_KEYS, PARTIAL_POLICIES

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``import`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    parser = add_command(
        subparsers,
        "import",
        description="Read an eval tool's result files into the judgments table "
        f"(generator, item, validator, label). Formats: {', '.join(IMPORTER_NAMES)} "
        "(docs/importers.md says what each reads).",
        examples=[
            "jurycal import inspect logs/ -o judgments.csv",
            "jurycal import mt_bench gpt-4_single.jsonl -o judgments.parquet --threshold 8",
            "jurycal import alpaca_eval annotations.json -o judgments.csv --human-out human.csv",
        ],
    )
    parser.add_argument(
        "format",
        choices=IMPORTER_NAMES,
        metavar="FORMAT",
        help=f"the tool that wrote the files: one of {', '.join(IMPORTER_NAMES)}",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="result files or directories")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="the judgments table to write (.csv, .tsv, .parquet, .jsonl)",
    )
    parser.add_argument(
        "--human-out",
        metavar="H",
        help="write the human labels the files record here (generator, item, human)",
    )
    parser.add_argument(
        "--threshold",
        type=number_value,
        metavar="T",
        help="numeric scores >= T are valid, on the tool's own score scale (defaults: inspect "
        "0.5 for scores in [0, 1], alpaca_eval 0.5, mt_bench 7 on its 1-10 scale; promptfoo and "
        "deepeval use their own pass/fail)",
    )
    parser.add_argument(
        "--partial",
        choices=PARTIAL_POLICIES,
        help="inspect: read a partial grade P as missing (default), valid or invalid",
    )
    parser.add_argument(
        "--item-key",
        choices=ITEM_KEYS,
        help="promptfoo: key items by test index (default) or a hash of the test's vars",
    )
    parser.add_argument(
        "--generator",
        metavar="NAME",
        help="deepeval: the model that wrote the outputs (needed when the run "
        "did not log hyperparameters 'model')",
    )
    parser.add_argument(
        "--baseline",
        metavar="NAME",
        help="alpaca_eval / mt_bench pairwise: the reference model (default: "
        "generator_1 / model_2 when it is one model)",
    )
    parser.add_argument(
        "--duplicates",
        choices=("error", "last"),
        default="error",
        help="a (generator, item, validator) read twice: refuse (default) or keep the last "
        "record read, as FastChat does with the judgments a re-run appends",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Import, write the tables, print the account; returns the exit code (0).

    Raises
    ------
    ValueError
        For an output path that is also an input, an output ending no table
        format has, files that are not the format (``ImportFormatError``), or
        files holding no judge votes.
    """
    outputs = [args.output] + ([args.human_out] if args.human_out else [])
    for out in outputs:
        table_format(out)  # refuse an unknown ending before reading anything
    check_files([p for p in map(Path, args.paths) if not p.is_dir()], [Path(o) for o in outputs])

    from jurycal.importers import import_judgments
    from jurycal.io import write_table

    result = import_judgments(
        args.format,
        args.paths,
        args.threshold,
        duplicates=args.duplicates,
        partial=args.partial,
        item_key=args.item_key,
        generator=args.generator,
        baseline=args.baseline,
    )
    if result.judgments.empty:
        raise ValueError(
            f"found no judge votes in {', '.join(result.sources)}"
            + (f" ({'; '.join(result.notes)})" if result.notes else "")
            + "."
        )
    write_table(result.judgments, args.output)
    if args.human_out:
        write_table(result.human, args.human_out)
    account = result.account()
    account["output"] = str(args.output)
    account["human_output"] = str(args.human_out) if args.human_out else None
    emit(args, _account_text(account), account, written=outputs)
    return 0


def _account_text(account: dict[str, Any]) -> str:
    threshold = account["threshold_used"]
    lines = [
        f"read {account['n_votes']} votes ({account['n_missing_labels']} without a usable "
        f"verdict) on {account['n_items']} items: {len(account['generators'])} generator(s), "
        f"{len(account['validators'])} validator(s), from {len(account['sources'])} "
        f"{account['source_format']} file(s).",
        "threshold: "
        + (
            f"score >= {threshold:g} is valid"
            if threshold is not None
            else "none (the tool's own verdicts)"
        ),
    ]
    if account["human_output"]:
        lines.append(f"{account['n_human_labels']} human label(s)")
    lines += [f"note: {note}" for note in account["notes"]]
    if account["unknown_fields"]:
        lines.append("unknown fields (kept out): " + ", ".join(account["unknown_fields"]))
    return "\n".join(lines)
