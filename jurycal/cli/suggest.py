"""``jurycal suggest`` and ``jurycal plan``: which items to label next, and how many labels a width needs.

``suggest`` draws the items whose human label the judges predict least surely
(:func:`regression.suggest_labels`) and writes ``generator, item,
inclusion_probability``: label them, add a ``human`` column and pass the rows,
probability column and all, with the earlier labels as the human-label file of
``jurycal fit`` / ``estimate``. ``plan`` prints the labels each generator needs
for a target interval width, drawn uniformly or by ``suggest``
(:func:`regression.plan_labels`).

A JUDGMENTS file with the columns ``generator_a, generator_b`` is a pairwise
verdict table (:func:`jurycal.cli.reading.is_pairwise`, the rule of ``rank``), its
``--labels`` the human votes: ``suggest`` then draws battles
(:func:`regression.pairwise.suggest_labels`, ``item, generator_a, generator_b,
inclusion_probability``) and ``plan`` gives the human votes each generator's
win rate needs (:func:`regression.pairwise.plan_labels`).
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import (
    ALPHA_HELP,
    TABLE_FILE,
    add_command,
    add_seed,
    alpha_value,
    check_files,
    emit,
    positive_int,
    steps,
    width_value,
)
from jurycal.cli.errors import located
from jurycal.cli.pairwise import pairwise_sources
from jurycal.cli.reading import (
    is_pairwise,
    read_votes,
    vote_sources,
)
from jurycal.cli.scores import (
    SCORE_HELP,
    add_scale_option,
    is_score_input,
    plan_text,
    refuse_scale,
    run_score_plan,
    run_score_suggest,
)
from regression.registry import PAIRWISE_OBJECTIVES

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["register", "run_plan", "run_suggest"]


def register(subparsers: Any) -> None:
    """Add ``suggest`` and ``plan`` to the ``jurycal`` subparsers."""
    examples = {
        "suggest": [
            "jurycal suggest judgments.csv --labels human.csv --budget 200 -o to_label.csv",
            "jurycal suggest judgments.csv --budget 50 --generator gpt-4o --width 0.08",
            "jurycal suggest verdicts.csv --labels votes.csv --budget 100 -o to_vote.csv",
            "jurycal suggest scores.csv --labels ratings.csv --scale 1 5 --budget 40 -o to_rate.csv",
        ],
        "plan": [
            "jurycal plan judgments.csv --labels human.csv --width 0.08",
            "jurycal plan judgments.csv --width 0.1 --generator gpt-4o --json",
            "jurycal plan verdicts.csv --labels votes.csv --width 0.1",
            "jurycal plan scores.csv --labels ratings.csv --scale 1 5 --width 0.1",
        ],
    }
    for name in ("suggest", "plan"):
        parser = add_command(
            subparsers,
            name,
            description="JUDGMENTS has generator, item, validator, label; --labels has generator, "
            "item, human (and inclusion_probability where a draw of suggest chose them). A "
            "JUDGMENTS with generator_a and generator_b holds pairwise verdicts (item, "
            "generator_a, generator_b, validator, verdict) and --labels the human votes (item, "
            "generator_a, generator_b, human): battles to vote and human votes needed.",
            examples=examples[name],
        )
        parser.add_argument(
            "judgments",
            type=Path,
            metavar="JUDGMENTS",
            help="the validators' votes (generator, item, validator, label), or the judges' "
            f"pairwise verdicts (item, generator_a, generator_b, validator, verdict): {TABLE_FILE}",
        )
        parser.add_argument(
            "--labels",
            type=Path,
            metavar="HUMAN",
            help="the human labels held so far (generator, item, human), or the human votes "
            f"(item, generator_a, generator_b, human): {TABLE_FILE}",
        )
        parser.add_argument(
            "--generator",
            nargs="+",
            metavar="GEN",
            help="where to spend the labels (default: every generator not fully labelled)",
        )
        width_help = (
            "target width of the interval, a fraction in (0, 1) (0.08 = 8 points; for a score "
            "table, of the rating scale: 0.1 on 1-5 is 0.4 rating points)"
        )
        if name == "suggest":
            parser.add_argument(
                "--budget",
                type=positive_int,
                required=True,
                metavar="N",
                help="human labels to buy, a whole number of items",
            )
            parser.add_argument(
                "--objective",
                choices=PAIRWISE_OBJECTIVES,
                default=None,
                help="pairwise verdicts only: what the votes are drawn to narrow, 'win rates' "
                "(default: the generators' win rates) or 'undecided pairs' (the differences "
                "the leaderboard leaves undecided; needs votes held, docs/pairwise.md)",
            )
            add_seed(parser)
            parser.add_argument(
                "-o",
                "--output",
                type=Path,
                metavar="TO_LABEL",
                help="write the items to label here (generator, item, inclusion_probability)",
            )
            parser.add_argument(
                "--width",
                type=width_value,
                metavar="W",
                help=width_help + "; also print the labels it needs (as jurycal plan)",
            )
            parser.set_defaults(handler=run_suggest)
        else:
            parser.add_argument(
                "--width", type=width_value, required=True, metavar="W", help=width_help
            )
            parser.set_defaults(handler=run_plan)
        parser.add_argument("--alpha", type=alpha_value, default=0.05, help=ALPHA_HELP)
        add_scale_option(parser)
        parser.description = f"{parser.description}\n\n{textwrap.fill(SCORE_HELP, 79)}"


#: Why a pairwise plan asks for about as many new votes as a fresh sample would.
HELD_VOTES_NOTE = (
    "The votes held (n_labels) stay fixed and stand only for their own battles: the new votes "
    "are drawn among the others, and the interval rests on them (docs/pairwise.md)."
)
#: The plan's note where the votes so far are one uniform draw (regression.pairwise.plan.uniform_votes).
ONE_DRAW_NOTE = (
    "The votes so far (n_labels) are one uniform draw: new votes drawn uniformly among the other "
    "battles join them as one uniform draw (uniform), none held; an active draw would hold them "
    "fixed, standing only for their own battles, so active is never planned above uniform "
    "(docs/pairwise.md)."
)


def votes_note(plan: Any) -> str:
    """The note under a pairwise plan: the votes so far joined as one draw, or held."""
    return ONE_DRAW_NOTE if plan.attrs.get("one_draw") else HELD_VOTES_NOTE


def _plan_text(
    table: Any, width: float, alpha: float, what: str = "labels", held_note: str = ""
) -> str:
    """The plan as text; ``held_note`` under it where a generator has outcomes held."""
    from regression.text_table import text_table

    lines = [
        f"{what} needed for a {1 - alpha:.0%} interval at most {100 * width:.1f} points wide "
        "(uniform: a random sample; active: drawn by jurycal suggest):",
        text_table(table, digits=3, empty="no generator to plan for."),
    ]
    if held_note and len(table) and (table["n_labels"] > 0).any():
        lines.append(held_note)
    return "\n".join(lines)


def _pairwise(args: argparse.Namespace) -> tuple[pd.DataFrame, pd.DataFrame | None] | None:
    """The pairwise verdicts and human votes when JUDGMENTS is a pairwise table, else None."""
    from jurycal.cli.pairwise import read_pairwise
    from jurycal.io import table_columns

    if not is_pairwise(table_columns(args.judgments)):
        return None
    usage = f"jurycal {args.command} VERDICTS --labels HUMAN"
    return read_pairwise(args.judgments, args.labels, usage)


#: What the output of ``suggest`` calls its rows, per kind of input.
_WORDS = {
    "labels": {
        "rows": "items to label",
        "count": "items",
        "per": "per generator:",
        "none": "no item to label: every judged item of the generators asked for is labelled.",
        "next": "label the rows of {path}, add a human column and pass them, "
        "inclusion_probability and all, with your earlier labels",
        "needed": "labels",
        "held": "",
    },
    "ratings": {
        "rows": "outputs to rate",
        "count": "outputs",
        "per": "per generator:",
        "none": "no output to rate: every scored output of the generators asked for is rated.",
        "next": "rate the rows of {path}, add a human column (on the rating scale) and pass "
        "them, inclusion_probability and all, with your earlier ratings",
        "needed": "human ratings",
        "held": "",
    },
    "votes": {
        "rows": "battles to vote",
        "count": "battles",
        "per": "per generator (a battle counts for both):",
        "none": "no battle to vote: every battle of the generators asked for has a human vote.",
        "next": "vote the battles of {path}, add a human column (a, b or tie) and pass them, "
        "inclusion_probability and all, with your earlier votes given inclusion_probability 1",
        "needed": "human votes",
        "held": HELD_VOTES_NOTE,
    },
    "one draw": {
        "next": "vote the battles of {path}, add a human column (a, b or tie) and pass them with "
        "your earlier votes as one uniform draw: every vote, old and new, with the "
        "inclusion_probability of {path}, or none with the column",
    },
}


def _emit_suggestion(
    args: argparse.Namespace,
    table: pd.DataFrame,
    counts: pd.Series,
    plan: pd.DataFrame | None,
    words: dict[str, str],
    *,
    objective: str | None = None,
    one_draw: bool | None = None,
    plan_as_text: str | None = None,
) -> int:
    """Print (or write with ``-o``) the rows ``suggest`` drew, their counts and the plan;
    ``objective``: what a pairwise draw narrowed (text and JSON); ``one_draw``: whether a
    pairwise draw joins the earlier votes as one uniform draw (JSON); ``plan_as_text``: the
    plan's text where it is not :func:`_plan_text`'s (ratings)."""
    from jurycal.io import write_table
    from regression.text_table import text_table

    lines = (
        [
            f"{len(table):,} {words['rows']} (budget {args.budget:,}), {words['per']}",
            text_table(counts.rename(words["count"]).to_frame()),
        ]
        if len(table)
        else [words["none"]]
    )
    payload: dict[str, Any] = {"items": table, "per_generator": counts.to_dict()}
    if objective is not None:
        lines.insert(0, f"drawn to narrow: the {objective}")
        payload["objective"] = objective
    if one_draw is not None:
        payload["one_draw"] = one_draw
        if one_draw:
            lines.insert(
                1,
                "drawn uniformly, to join your earlier votes (a uniform draw) as one uniform "
                "draw: held fixed, they would stand only for their own battles",
            )
    if args.output is not None:
        write_table(table, args.output)
        lines.append("next: " + words["next"].format(path=args.output))
    elif len(table):
        lines += ["", text_table(table)]
    if plan is not None:
        lines += [
            "",
            plan_as_text
            or _plan_text(plan, args.width, args.alpha, words["needed"], words["held"]),
        ]
        payload["plan"] = plan.reset_index()
    payload["output"] = args.output
    emit(args, "\n".join(lines), payload, written=[args.output] if args.output else [])
    return 0


def _suggest_pairwise(
    args: argparse.Namespace, verdicts: pd.DataFrame, human: pd.DataFrame | None
) -> int:
    import pandas as pd

    from regression.pairwise import plan_labels, suggest_labels

    plan = None
    with located(pairwise_sources(args.judgments, args.labels)):
        table = suggest_labels(
            verdicts,
            human,
            args.budget,
            generators=args.generator,
            objective=args.objective or PAIRWISE_OBJECTIVES[0],
            alpha=args.alpha,
            seed=args.seed,
        )
        if args.width is not None:
            plan = plan_labels(verdicts, human, args.width, args.alpha, args.generator)
    sides = pd.Series([*table["generator_a"], *table["generator_b"]], dtype=object)
    counts = sides.value_counts().sort_index().rename_axis("generator")
    one_draw = bool(table.attrs["one_draw"])
    words = {
        **_WORDS["votes"],
        **(_WORDS["one draw"] if one_draw else {}),
        "held": votes_note(plan) if plan is not None else HELD_VOTES_NOTE,
    }
    return _emit_suggestion(
        args, table, counts, plan, words, objective=table.attrs["objective"], one_draw=one_draw
    )


def run_suggest(args: argparse.Namespace) -> int:
    """Draw the items to label next; print them, or write them with ``-o``."""
    check_files([args.judgments, args.labels], [args.output])
    if is_score_input(args.judgments):
        draw, plan, scale = run_score_suggest(args)
        shown = None if plan is None else plan_text(plan, args.width, scale, args.alpha)
        counts = draw.groupby("generator").size()
        return _emit_suggestion(args, draw, counts, plan, _WORDS["ratings"], plan_as_text=shown)
    refuse_scale(args, args.judgments)

    pairwise = _pairwise(args)
    if pairwise is not None:
        return _suggest_pairwise(args, *pairwise)
    if args.objective is not None:
        raise ValueError(
            f"--objective {args.objective!r} chooses what a pairwise draw narrows; "
            f"{str(args.judgments)!r} holds judgments, whose draw narrows each generator's "
            "precision"
        )

    from regression import plan_labels, suggest_labels

    with steps(args, ["read", "suggest"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.labels)
        advance("suggest")
        with located(vote_sources(args.judgments, args.labels)):
            table = suggest_labels(judgments, human, args.budget, args.generator, args.seed)
    plan = None
    if args.width is not None:
        with located(vote_sources(args.judgments, args.labels)):
            plan = plan_labels(judgments, human, args.width, args.alpha, args.generator)
    return _emit_suggestion(args, table, table.groupby("generator").size(), plan, _WORDS["labels"])


def run_plan(args: argparse.Namespace) -> int:
    """Print the labels each generator needs for ``--width``."""
    check_files([args.judgments, args.labels])
    if is_score_input(args.judgments):
        ratings, scale = run_score_plan(args)
        text = plan_text(ratings, args.width, scale, args.alpha)
        emit(args, text, {"plan": ratings.reset_index(), "scale": list(scale)})
        return 0
    refuse_scale(args, args.judgments)
    pairwise = _pairwise(args)
    if pairwise is not None:
        from regression.pairwise import plan_labels as plan_votes

        with located(pairwise_sources(args.judgments, args.labels)):
            votes = plan_votes(*pairwise, args.width, args.alpha, args.generator)
        text = _plan_text(votes, args.width, args.alpha, "human votes", votes_note(votes))
        emit(args, text, {"plan": votes.reset_index()})
        return 0

    from regression import plan_labels

    with steps(args, ["read", "plan"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.labels)
        advance("plan")
        with located(vote_sources(args.judgments, args.labels)):
            table = plan_labels(judgments, human, args.width, args.alpha, args.generator)
    emit(args, _plan_text(table, args.width, args.alpha), {"plan": table.reset_index()})
    return 0
