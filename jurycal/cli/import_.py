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

from jurycal.cli.commands import summary
from jurycal.cli.common import check_outputs, command_options, emit
from jurycal.importers import IMPORTERS, ITEM_KEYS, PARTIAL_POLICIES, import_judgments
from jurycal.io import table_format, write_table

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``import`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    formats = "; ".join(f"{name}: {imp.description}" for name, imp in IMPORTERS.items())
    parser = subparsers.add_parser(
        "import",
        parents=[command_options()],
        help=summary("import"),
        description="Read an eval tool's result files into the judgments table "
        f"(generator, item, validator, label). Formats: {formats}.",
    )
    parser.add_argument(
        "format", choices=list(IMPORTERS), metavar="FORMAT", help=f"one of {', '.join(IMPORTERS)}"
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="result files or directories")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="judgments table to write (.csv, .tsv, .parquet, .jsonl)",
    )
    parser.add_argument(
        "--human-out", metavar="H", help="write the human labels the files record here"
    )
    parser.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="numeric scores >= T are valid (defaults: inspect 0.5 for scores in [0, 1], "
        "alpaca_eval 0.5, mt_bench 7; promptfoo and deepeval use their own pass/fail)",
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
    check_outputs([p for p in map(Path, args.paths) if p.is_file()], [Path(out) for out in outputs])
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
    summary = result.summary()
    summary["output"] = str(args.output)
    summary["human_output"] = str(args.human_out) if args.human_out else None
    emit(args, _account(summary), summary)
    return 0


def _account(summary: dict[str, Any]) -> str:
    threshold = summary["threshold_used"]
    lines = [
        f"read {summary['n_votes']} votes ({summary['n_missing_labels']} without a usable "
        f"verdict) on {summary['n_items']} items: {len(summary['generators'])} generator(s), "
        f"{len(summary['validators'])} validator(s), from {len(summary['sources'])} "
        f"{summary['source_format']} file(s).",
        "threshold: "
        + (
            f"score >= {threshold:g} is valid"
            if threshold is not None
            else "none (the tool's own verdicts)"
        ),
        f"wrote {summary['output']}",
    ]
    if summary["human_output"]:
        lines.append(
            f"wrote {summary['n_human_labels']} human label(s) to {summary['human_output']}"
        )
    lines += [f"note: {note}" for note in summary["notes"]]
    if summary["unknown_fields"]:
        lines.append("unknown fields (kept out): " + ", ".join(summary["unknown_fields"]))
    return "\n".join(lines)
