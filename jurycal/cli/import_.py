"""``jurycal import FORMAT PATH... -o OUT``: an eval tool's result files to the table jurycal reads.

Each format declares the table it writes (:data:`jurycal.importers.names.IMPORT_TABLES`):
Inspect AI logs, promptfoo results, DeepEval test runs, AlpacaEval annotations
or MT-Bench judgments give the judgments table (and, with ``--human-out``, the
human labels the files record); AlpacaEval and MT-Bench pairs, Arena-Hard-Auto
judgments and arena battle tables give the pairwise verdicts that ``jurycal
rank`` reads (and, with ``--human-out``, the human votes). The command says
what it read: counts, missing verdicts, unknown fields and notes; ``--json``
prints the same account as one JSON object. Bad input raises ``ValueError``,
which the ``jurycal`` entry point reports as a one-line error with exit code 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.common import add_command, check_files, emit, number_value, seed_value
from jurycal.formats import table_format
from jurycal.importers.names import IMPORT_TABLES, ITEM_KEYS, PARTIAL_POLICIES

__all__ = ["FORMAT_TABLE", "register", "run"]

#: Each format and the table it writes (a key of :data:`IMPORT_TABLES`).
FORMAT_TABLE = {name: table for table, (_, names) in IMPORT_TABLES.items() for name in names}

#: The command's format options and the keyword each is to the importers; a format takes those
#: its registry entry lists (``Importer.options``), and the others are refused by name.
FORMAT_OPTIONS = {
    "threshold": "--threshold",
    "partial": "--partial",
    "item_key": "--item-key",
    "generator": "--generator",
    "baseline": "--baseline",
    "seed": "--annotator-seed",
    "validator": "--validator",
    "item_column": "--item-column",
}


def _formats_help() -> str:
    """Which formats give which table, for ``--help``."""
    return "; ".join(f"{', '.join(names)} give {what}" for what, names in IMPORT_TABLES.values())


def register(subparsers: Any) -> None:
    """Add the ``import`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    parser = add_command(
        subparsers,
        "import",
        description="Read an eval tool's result files into the table jurycal reads. "
        f"{_formats_help()}. A directory is searched for the tool's own file names at every "
        "depth (AlpacaEval's results/<model>/<annotator>/annotations.json); "
        "docs/importers.md says what each format reads.",
        examples=[
            "jurycal import inspect logs/ -o judgments.csv",
            "jurycal import mt_bench gpt-4_single.jsonl -o judgments.parquet --threshold 8",
            "jurycal import alpaca_eval annotations.json -o judgments.csv --human-out human.csv",
            "jurycal import mt_bench_scores model_judgment/gpt-4_single.jsonl -o scores.csv",
            "jurycal import alpaca_eval_pairs results/ -o verdicts.csv",
            "jurycal import arena_hard data/arena-hard-v0.1/model_judgment -o verdicts.csv",
            "jurycal import arena clean_battle.json -o votes.csv   # human votes",
        ],
    )
    parser.add_argument(
        "format",
        choices=tuple(FORMAT_TABLE),
        metavar="FORMAT",
        help=f"the tool that wrote the files: {_formats_help()}",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="result files or directories")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="the table to write (.csv, .tsv, .parquet, .jsonl): the judgments table or the "
        "pairwise verdicts, as the format gives (arena without --validator: the human votes)",
    )
    parser.add_argument(
        "--human-out",
        metavar="H",
        help="also write the human labels or votes the files record here",
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
        help="alpaca_eval / mt_bench / arena_hard: the reference model (default: "
        "generator_1 / model_2 / the files' baseline when it is one model)",
    )
    parser.add_argument(
        "--annotator-seed",
        type=seed_value,
        metavar="N",
        help="alpaca_eval_pairs: the annotator's seed, for the order shown where the file does "
        "not record it (default 0, AlpacaEval's)",
    )
    parser.add_argument(
        "--validator",
        metavar="NAME",
        help="arena: the winners are this judge's verdicts (default: human votes)",
    )
    parser.add_argument(
        "--item-column",
        metavar="COLUMN",
        help="arena: the column naming each battle's prompt (default: the first of "
        "question_id, id, uid, item the table has)",
    )
    parser.add_argument(
        "--duplicates",
        choices=("error", "last"),
        default="error",
        help="a record read twice: refuse (default) or keep the last record read, as FastChat "
        "does with the judgments a re-run appends",
    )
    parser.set_defaults(handler=run)


def _format_options(args: argparse.Namespace, accepted: tuple[str, ...]) -> dict[str, Any]:
    """The format options given, as the importer's keywords; one it does not take is refused."""
    given = {
        key: getattr(args, flag.lstrip("-").replace("-", "_"))
        for key, flag in FORMAT_OPTIONS.items()
    }
    given = {key: value for key, value in given.items() if value is not None}
    foreign = [FORMAT_OPTIONS[key] for key in given if key not in accepted]
    if foreign:
        takes = ", ".join(FORMAT_OPTIONS[key] for key in accepted if key in FORMAT_OPTIONS)
        which = (
            f"{foreign[0]} is not an option"
            if len(foreign) == 1
            else f"{', '.join(foreign)} are not options"
        )
        raise ValueError(f"{which} of format {args.format} (its options: {takes or 'none'}).")
    return given


def run(args: argparse.Namespace) -> int:
    """Import, write the table the format gives, print the account; returns the exit code (0).

    Raises
    ------
    ValueError
        For an output path that is also an input, an output ending no table
        format has, an option the format does not take, files that are not the
        format (``ImportFormatError``), or files holding no verdict.
    """
    outputs = outputs_of(args)
    for out in outputs:
        table_format(out)  # refuse an unknown ending before reading anything
    check_files([p for p in map(Path, args.paths) if not p.is_dir()], [Path(o) for o in outputs])
    if FORMAT_TABLE[args.format] == "scores":
        return _run_scores(args)
    if FORMAT_TABLE[args.format] == "pairwise":
        return _run_pairwise(args)

    from jurycal.importers import IMPORTERS, import_judgments
    from jurycal.io import write_table

    options = _format_options(args, ("threshold", *IMPORTERS[args.format].options))
    threshold = options.pop("threshold", None)
    result = import_judgments(
        args.format, args.paths, threshold, duplicates=args.duplicates, **options
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
    emit(args, _account_text(account), account, written=outputs_of(args))
    return 0


def _run_pairwise(args: argparse.Namespace) -> int:
    """Import the pairwise verdicts (and human votes); write them, print the account."""
    from jurycal.importers.pairwise import PAIRWISE_IMPORTERS, import_pairwise
    from jurycal.io import write_table

    options = _format_options(args, PAIRWISE_IMPORTERS[args.format].options)
    result = import_pairwise(args.format, args.paths, duplicates=args.duplicates, **options)
    votes_only = result.verdicts.empty and not result.human.empty
    if votes_only and args.human_out:
        raise ValueError(
            f"the {args.format} files hold human votes only, written to -o; --human-out has "
            "nothing to write (give --validator NAME to read the winners as a judge's verdicts)."
        )
    if result.verdicts.empty and result.human.empty:
        raise ValueError(
            f"found no verdict and no human vote in {', '.join(result.sources)}"
            + (f" ({'; '.join(result.notes)})" if result.notes else "")
            + "."
        )
    write_table(result.human if votes_only else result.verdicts, args.output)
    if args.human_out:
        write_table(result.human, args.human_out)
    account = result.account()
    account["table"] = "human votes" if votes_only else "pairwise verdicts"
    voted = result.human[["generator_a", "generator_b"]].to_numpy().ravel()
    account["n_voted_generators"] = len(set(map(str, voted)))
    account["output"] = str(args.output)
    account["human_output"] = str(args.human_out) if args.human_out else None
    emit(args, _pairwise_text(account), account, written=outputs_of(args))
    return 0


def outputs_of(args: argparse.Namespace) -> list[str]:
    """The files ``jurycal import`` writes: ``-o`` and, when given, ``--human-out``."""
    return [args.output] + ([args.human_out] if args.human_out else [])


def _pairwise_text(account: dict[str, Any]) -> str:
    words = account["verdicts"]
    counted = ", ".join(f"{word} {n:,}" for word, n in words.items() if word != "none")
    lines = []
    if account["table"] == "human votes":
        lines.append(
            f"read {account['n_human_votes']:,} human votes on battles of "
            f"{account['n_voted_generators']:,} generator(s), from {len(account['sources']):,} "
            f"{account['source_format']} file(s): the human votes table "
            "(item, generator_a, generator_b, human)."
        )
    else:
        lines += [
            f"read {account['n_verdicts']:,} verdicts ({counted}; {words['none']:,} without a "
            f"usable verdict) on {account['n_battles']:,} battles: "
            f"{len(account['generators']):,} generator(s), {len(account['validators']):,} "
            f"judge(s), from {len(account['sources']):,} {account['source_format']} file(s).",
            "the pairwise verdicts table (item, generator_a, generator_b, validator, verdict, "
            "position): jurycal rank VERDICTS [HUMAN] reads it.",
        ]
        if account["human_output"]:
            lines.append(f"{account['n_human_votes']:,} human vote(s)")
    lines += [f"note: {note}" for note in account["notes"]]
    if account["unknown_fields"]:
        lines.append("unknown fields (kept out): " + ", ".join(account["unknown_fields"]))
    return "\n".join(lines)


def _account_text(account: dict[str, Any]) -> str:
    threshold = account["threshold_used"]
    lines = [
        f"read {account['n_votes']:,} votes ({account['n_missing_labels']:,} without a usable "
        f"verdict) on {account['n_items']:,} items: {len(account['generators']):,} generator(s), "
        f"{len(account['validators']):,} validator(s), from {len(account['sources']):,} "
        f"{account['source_format']} file(s).",
        "threshold: "
        + (
            f"score >= {threshold:g} is valid"
            if threshold is not None
            else "none (the tool's own verdicts)"
        ),
    ]
    if account["human_output"]:
        lines.append(f"{account['n_human_labels']:,} human label(s)")
    lines += [f"note: {note}" for note in account["notes"]]
    if account["unknown_fields"]:
        lines.append("unknown fields (kept out): " + ", ".join(account["unknown_fields"]))
    return "\n".join(lines)


def _run_scores(args: argparse.Namespace) -> int:
    """Import the judges' numeric scores; write the score table, print the account."""
    from jurycal.importers import SCORE_IMPORTERS, import_scores
    from jurycal.io import write_table

    refused = [("--threshold", args.threshold), ("--human-out", args.human_out)]
    refused += [("--partial", args.partial), ("--baseline", args.baseline)]
    given = [option for option, value in refused if value is not None]
    if given:
        raise ValueError(
            f"{', '.join(given)} set(s) a judgments import; {args.format} writes the judges' "
            "scores as they are (a score table has no threshold and no human labels: give the "
            "human ratings as their own file, generator, item, human)."
        )
    result = import_scores(
        args.format,
        args.paths,
        duplicates=args.duplicates,
        item_key=args.item_key,
        generator=args.generator,
    )
    assert result.scores is not None  # import_scores refuses files without scores
    scores = result.scores
    write_table(scores, args.output)
    scale = SCORE_IMPORTERS[args.format].scale
    account: dict[str, Any] = {
        "source_format": result.source_format,
        "sources": list(result.sources),
        "n_scores": int(len(scores)),
        "n_items": int(scores[["generator", "item"]].drop_duplicates().shape[0]),
        "generators": sorted(map(str, scores["generator"].unique())),
        "validators": sorted(map(str, scores["validator"].unique())),
        "score_range": [float(scores["score"].min()), float(scores["score"].max())],
        "tool_scale": list(scale) if scale is not None else None,
        "unknown_fields": list(result.unknown_fields),
        "notes": list(result.notes),
        "output": str(args.output),
    }
    lines = [
        f"read {account['n_scores']:,} scores on {account['n_items']:,} items: {len(account['generators']):,} generator(s), "
        f"{len(account['validators']):,} judge(s), from {len(account['sources']):,} "
        f"{args.format} file(s).",
        f"scores from {account['score_range'][0]:g} to {account['score_range'][1]:g}"
        + (f" (the tool's scale {scale[0]:g}-{scale[1]:g})" if scale is not None else "")
        + "; each judge keeps its own scale.",
    ]
    lines += [f"note: {note}" for note in account["notes"]]
    if account["unknown_fields"]:
        lines.append("unknown fields (kept out): " + ", ".join(account["unknown_fields"]))
    emit(args, "\n".join(lines), account, written=[args.output])
    return 0
