"""``jurycal demo`` / ``make demo``: the whole pipeline on the bundled data, as one report card.

1. **Repair** (agreeableness paper section 4, App. B): 30,544 messy validator
   responses, simulated in the paper's App. A.2 format from its real votes
   (``jurycal.datasets.load_repair_sample``), become the judgments table.
2. **Ensemble** (section 4, Fig. 5): majority and minority veto over the 14
   validators; the veto's threshold picked on the human-labelled generators,
   scored leave-one-generator-out.
3. **Generators without human labels** (section 5; jurycal's transfer
   estimator): first on the judgments repaired in step 1, with five annotated
   generators calibrating and the sixth held out, beside the ensemble of step 2;
   then on the released 14 x 14 matrix, where the eight unlabelled generators
   are estimated (the paper's headline use). Each fit checks itself on its
   calibration generators, held out one at a time.
4. **One judge** (Lee et al.; Fiedler): LMArena battles judged by two weak
   LLM judges (``load_arena``); the estimand is "claude-opus-4 wins", i.e.
   theta = P(the human preferred claude-opus-4) against each of three
   opponents. Per opponent a seeded calibration third (human and judge labels)
   and a test two-thirds (judge labels only; the test items' human labels are
   shown only as the truth). Naive / Rogan-Gladen / PPI++ side by side with J
   and the warnings of Fiedler section 7, then a comparison of two opponents.
5. **Pairwise leaderboard** (the card's section 6; ``regression.pairwise``): the
   Chatbot Arena battles of prediction-powered ranking (``load_chatbot_arena``:
   12 generators, 14,947 battles, three LLM judges on every battle), with the
   human votes on a seeded sample of 1,000 battles; win rates with rank sets,
   the judges' position bias and agreement, checked against the win rates of
   all 14,947 votes.
6. **Graded scores** (the card's section 7; ``regression.scores``): HANNA's
   stories (``load_hanna``: 11 systems x 96 prompts, 20 LLM judges scoring 1-5)
   on one criterion, with the ratings of 10 stories per system: each system's
   mean human rating with its interval and rank set, beside the ratings alone,
   checked against the mean of all 96 ratings; each judge's calibration curve.

The report card is written to ``OUT_DIR/report.md`` (figures ``report-1.png``,
... beside it) and ``OUT_DIR/report.html``; ``jurycal demo`` prints its outline
and where it went.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ensemble import ensemble_precision, ensemble_rates, pick_threshold, vote, vote_matrix
from ensemble.plots import plot_threshold_sweep
from jurycal.datasets import (
    HANNA_SCALE,
    load_agreeableness_judgments,
    load_arena,
    load_chatbot_arena,
    load_confusion,
    load_hanna,
    load_human_precision,
    load_repair_sample,
    load_validator_rates,
)
from jurycal.report import (
    Report,
    add_comparison,
    add_leaderboard,
    add_pairwise_leaderboard,
    section,
)
from regression import (
    Anchors,
    ConfidenceInterval,
    TransferModel,
    compare_models,
    estimate_prevalence,
)
from regression.latent.plots import plot_validator_rates
from regression.pairwise import PairwiseModel
from regression.pairwise.board import pairwise_board
from regression.single_judge import CalibrationTable
from repair import repair_judgments

if TYPE_CHECKING:
    from regression.ranking import Leaderboard

__all__ = [
    "PAIRWISE_VOTES",
    "SCORE_CRITERION",
    "SCORE_RATINGS",
    "arena_labels",
    "arena_section",
    "calibration_split",
    "pairwise_section",
    "run_demo",
    "scores_section",
    "short_name",
]

TARGET = "claude-opus-4-20250514"
CAL_FRACTION = 1 / 3  # Fiedler App. E.3: one third calibration, two thirds test
#: The human votes the pairwise leaderboard keeps, of the 14,947 (a seeded sample: the judges matter)
PAIRWISE_VOTES = 1_000
#: The graded-scores section: HANNA's criterion, and the stories rated per system (of 96)
SCORE_CRITERION, SCORE_RATINGS = "Coherence", 10
#: How many of the 12 true win rates the 95 % intervals held over 60 seeded draws of the
#: 1,000 votes (seeds 2000-2059; the study and its command: docs/reports.md).
COVERAGE_OVER_DRAWS = "9 to 12, mean 11.2"
#: How often PPI++'s 95 % interval held the test items' human rate over 300 seeded calibration
#: splits (seeds 0-299), for every judge and opponent of step 4 (docs/reports.md).
ONE_JUDGE_COVERAGE = "0.953 to 0.960"


def arena_labels(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The arena battles as binary LaaJ data for the estimand "claude-opus-4 wins".

    Returns one row per (battle, judge): ``id``, ``judge``, ``opponent``,
    ``human`` (1 if the human preferred claude-opus-4) and ``judge_label``
    (1 if the judge picked it; NaN where the judge gave no answer).

    Examples
    --------
    >>> labels = arena_labels()
    >>> len(labels), int(labels["judge_label"].isna().sum())
    (1754, 2)
    """
    data = load_arena() if frame is None else frame
    target_is_a = data["model_a"] == TARGET
    if not (target_is_a | (data["model_b"] == TARGET)).all():
        raise ValueError(f"every battle must involve {TARGET!r}.")
    target_side = np.where(target_is_a, "A", "B")
    human = np.where(data["human_winner"] == "model_a", "A", "B") == target_side
    pick = data["judge_pick"]
    judge_label = np.where(pick.isna(), np.nan, (pick == pd.Series(target_side, index=data.index)))
    return pd.DataFrame(
        {
            "id": data["id"],
            "judge": data["judge"],
            "opponent": np.where(target_is_a, data["model_b"], data["model_a"]),
            "human": human.astype(int),
            "judge_label": judge_label.astype(float),
        }
    )


def short_name(generator: str) -> str:
    """An arena generator's name without its date and variant, for tables and figures.

    Examples
    --------
    >>> short_name("claude-opus-4-20250514"), short_name("qwen3-235b-a22b-no-thinking")
    ('claude-opus-4', 'qwen3-235b')
    """
    return generator.split("-2025")[0].replace("-a22b-no-thinking", "")


def calibration_split(labels: pd.DataFrame, seed: int) -> pd.Series:
    """Per opponent, a seeded calibration third of the battle ids (the same battles for both judges)."""
    rng = np.random.default_rng(seed)
    is_cal = pd.Series(False, index=labels.index)
    for _, group in labels.groupby("opponent", sort=True):
        ids = np.sort(group["id"].unique())
        cal_ids = rng.choice(ids, size=round(CAL_FRACTION * ids.size), replace=False)
        is_cal[group.index] = group["id"].isin(cal_ids)
    return is_cal


def _with_interval(
    estimate: float, ci: ConfidenceInterval | tuple[float, float], digits: int = 2
) -> str:
    """``0.41 [0.30, 0.52]``; an estimate that is not defined (J <= 0) reads ``undefined``."""
    point = "undefined" if np.isnan(estimate) else f"{estimate:.{digits}f}"
    return f"{point} [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _repair_section(report: Report, quiet: bool) -> pd.DataFrame:
    items, outputs = load_repair_sample()
    judgments, repair_report = repair_judgments(items, outputs, progress=not quiet)
    summary = repair_report.to_frame()
    overall = summary.loc["all"]
    note = (
        f"{len(outputs):,} raw validator responses for {len(items):,} feedback items "
        f"became {len(judgments):,} (item, validator) judgments, every pair accounted for. "
        f"Missing labels: {overall['rate_before']:.1%} as produced, "
        f"{overall['rate_after']:.1%} after repair (the paper: 9.4 % -> 3.2 %). "
        f"{len(repair_report.unmatched_entries):,} validator entries matched no item and "
        "are listed in the repair report, not dropped."
    )
    tables = {"Pairs by failure type": repair_report.by_failure().reset_index()}
    report.add(section("1. Repair of validator outputs", [note], tables))
    report.highlight(
        f"missing labels {overall['rate_before']:.1%} as produced, {overall['rate_after']:.1%} "
        f"after repair ({len(judgments):,} judgments)"
    )
    return judgments


def _ensemble_section(report: Report, judgments: pd.DataFrame, human: pd.DataFrame) -> pd.Series:
    """Majority and the picked minority veto; returns the veto's precision per generator."""
    truth = load_human_precision()
    matrix = vote_matrix(judgments)
    choice = pick_threshold(matrix, human, "minority_veto", precision=truth)
    rows, precisions = [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # items without any vote are counted in the table
        for rule, k in (("majority", None), ("minority_veto", choice.threshold)):
            labels = vote(matrix, rule, k)
            precision = precisions[rule] = ensemble_precision(labels).to_frame()["estimate"]
            rates = ensemble_rates(labels, human)
            error = (precision - truth).abs()
            rows.append(
                {
                    "rule": rule if k is None else f"{rule} (n = {k})",
                    "max_abs_error": error.max(),
                    "mean_abs_error": error.mean(),
                    "tpr": float(rates.tpr.estimate),
                    "tnr": float(rates.tnr.estimate),
                }
            )
    note = (
        "Per-generator precision (fraction labelled valid) of two ensembles over the 14 "
        "validators, on the repaired judgments, against the human-labelled precision. "
        f"The veto threshold n = {choice.threshold} was picked on the six annotated "
        f"generators; leave-one-generator-out max error {choice.held_out_max_abs_error:.3f} "
        "(the paper picked n = 4: 2.8 %)."
    )
    tables = {"Error against the human-labelled precision": pd.DataFrame(rows)}
    report.add(section("2. Ensemble voting", [note], tables))
    report.highlight(
        f"minority veto, n = {choice.threshold} picked: max error "
        f"{choice.held_out_max_abs_error:.3f} leaving one generator out (majority: "
        f"{rows[0]['max_abs_error']:.3f} in sample)"
    )
    report.figure(
        plot_threshold_sweep(choice.sweep, "max_abs_error"),
        "Ensemble error against threshold (agreeableness Fig. 5)",
    )
    return precisions["minority_veto"]


def _regression_section(
    report: Report, judgments: pd.DataFrame, human: pd.DataFrame, veto: pd.Series
) -> None:
    truth = load_human_precision()
    held_out = "gpt-4-turbo"
    calibration = [g for g in truth.index if g in set(judgments["generator"]) and g != held_out]
    result = TransferModel().fit_table(judgments, human, calibration)
    row = result.to_frame(truth=truth).loc[held_out]
    note = (
        f"The judgments repaired in step 1, with the human labels of {len(calibration)} "
        f"generators; {held_out}'s labels are held out. jurycal's default estimator (judges "
        "whose TPR / TNR move between generators, docs/new-generators.md) puts it at "
        f"{row['estimate']:.3f} [{row['low']:.3f}, {row['high']:.3f}] against the human "
        f"{truth[held_out]:.3f}; the minority veto of step 2 says {veto[held_out]:.3f}. "
        f"95 % intervals covering {result.covers}."
    )
    tables = {"Self-check": result.self_check.reset_index()}
    notes = [note, "Self-check: " + result.self_check_text()]
    report.add(section("3. Precision of generators without human labels", notes, tables))
    report.highlight(
        f"{held_out}, its labels held out: "
        f"{_with_interval(row['estimate'], (row['low'], row['high']), 3)}, "
        f"human {truth[held_out]:.3f}"
    )
    _released_matrix(report, truth)
    _leaderboard_section(report, judgments, human)


def _leaderboard_section(report: Report, judgments: pd.DataFrame, human: pd.DataFrame) -> None:
    """Rank sets and decided pairs with three calibration generators (docs/ranking.md)."""
    calibration = ["claude_3_opus", "gpt-4-turbo", "gpt-4o"]
    labelled = human[human["generator"].isin(calibration)]
    board = TransferModel().fit_table(judgments, labelled, calibration).leaderboard()
    note = (
        f"The same estimator with the labels of {', '.join(calibration)} only. The rank sets "
        "hold for every generator at once; a pair is decided where its simultaneous interval "
        "for the difference excludes 0 (docs/ranking.md)."
    )
    report.add(section("4. Leaderboard: which generators are better than which", [note]))
    add_leaderboard(report, board, level=3)
    report.highlight(f"first: {_leader(board)}")
    decided = int((board.pairs["decided"] != "undecided").sum())
    report.highlight(f"{decided} of {len(board.pairs)} pairs decided")


def _leader(board: Leaderboard) -> str:
    """The board's first row: its estimate with its interval and rank set."""
    name, row = board.table.index[0], board.table.iloc[0]
    ranks = f"{row['low_rank']}" + (
        "" if row["low_rank"] == row["high_rank"] else f"-{row['high_rank']}"
    )
    interval = _with_interval(row["estimate"], (row["low"], row["high"]), 3)
    return f"{name} {interval}, rank set {ranks}"


def _released_matrix(report: Report, truth: pd.Series, level: str = "none") -> None:
    """The paper's headline use: the eight unlabelled generators of the released matrix."""
    rates, confusion = load_validator_rates(level), load_confusion(level)
    annotated = list(truth.index)
    anchors = Anchors.from_confusion(
        confusion, calibration_generators=annotated, precision=truth[annotated].to_dict()
    )
    result = TransferModel().fit(rates, anchors=anchors)
    table = result.to_frame(truth=truth)[["role", "estimate", "low", "high", "human", "n"]]
    # the diagnostics' note reads the same for every row but its share, in follows_judges
    diagnostics = result.diagnostics()
    table["follows_judges"] = diagnostics["follows_judges"]
    first = table.index[table["role"] != "calibration"][0]
    note = (
        f"The released 14 x 14 matrix (repair level '{level}'): anchored on all six "
        "annotated generators, the eight unlabelled ones are estimated; each row says how "
        "much its estimate rests on the judges. Self-check: " + result.self_check_text()
    )
    how = f"How each row rests on the judges, e.g. {first}: {diagnostics.loc[first, 'note']}."
    # the released matrix gives rates, not counts: the fit's advice to pass counts cannot be taken
    kept = [w for w in result.warnings if not w.startswith("no counts given")]
    if len(kept) < len(result.warnings):
        how += " The released matrix gives rates, not counts, so every cell weighs the same."
    tables = {"The eight unlabelled generators": table[table["role"] != "calibration"]}
    report.add(section("The released 14 x 14 matrix", [note, how], tables, kept), level=3)
    best = table[table["role"] != "calibration"]["estimate"].idxmax()
    report.highlight(
        f"released matrix, highest of the eight unlabelled: {best} "
        f"{_with_interval(table.loc[best, 'estimate'], (table.loc[best, 'low'], table.loc[best, 'high']), 3)}"
    )
    report.figure(
        plot_validator_rates(confusion),
        "Validators' pooled TPR against TNR on the annotated generators (agreeableness Fig. 4)",
    )


def arena_section(report: Report, seed: int, n_boot: int) -> None:
    """Step 4 of the demo: one weak judge on the LMArena battles, every estimator side by side.

    The calibration third is drawn with ``seed``; the comparison's bootstrap
    takes ``n_boot`` replicates. The same seed gives the same section.
    """
    labels = arena_labels()
    is_cal = calibration_split(labels, seed)
    opponents = sorted(labels["opponent"].unique())
    short = {o: short_name(o) for o in opponents}
    report.add(
        section(
            "5. One judge: LMArena battles",
            [
                f"Estimand: theta = P(human prefers {TARGET}) against each opponent. Per opponent, a "
                f"seeded {CAL_FRACTION:.0%} calibration split (human and judge labels) and a test "
                "split (judge labels only; 'truth' is the human win rate on the test items). "
                "Intervals (95 %): naive covers test sampling only and estimates the judge's pick "
                "rate, not theta; Rogan-Gladen (Lee et al. eqs. 8-12) and PPI++ cover test and "
                "calibration sampling."
            ],
        )
    )
    tables: dict[tuple[str, str], CalibrationTable] = {}
    tests: dict[tuple[str, str], pd.Series] = {}
    results: dict[tuple[str, str], Any] = {}
    truths: dict[tuple[str, str], float] = {}
    for judge in sorted(labels["judge"].unique()):
        rows, notes = [], []
        for opp in opponents:
            subset = labels[(labels["judge"] == judge) & (labels["opponent"] == opp)]
            cal, test = subset[is_cal[subset.index]], subset[~is_cal[subset.index]]
            table = CalibrationTable.from_labels(cal["human"], cal["judge_label"])
            res = estimate_prevalence(table, test["judge_label"])
            tables[judge, opp], tests[judge, opp] = table, test["judge_label"]
            results[judge, opp], truths[judge, opp] = res, test["human"].mean()
            rows.append(
                {
                    "opponent": short[opp],
                    "truth": test["human"].mean(),
                    "naive": _with_interval(res.naive.estimate, res.naive.bounds()),
                    "rogan_gladen": _with_interval(
                        res.rogan_gladen.estimate, res.rogan_gladen.bounds()
                    ),
                    "ppi++": _with_interval(res.ppi.estimate, res.ppi.bounds()),
                    "tpr": res.tpr,
                    "tnr": res.tnr,
                    "J": res.youden_j,
                    "m1/m0": f"{res.m1}/{res.m0}",
                }
            )
            notes += [f"{short[opp]}: {w}" for w in res.warnings]
        estimates = {"Estimates per opponent (95% intervals)": pd.DataFrame(rows)}
        report.add(section(f"Judge {judge}", (), estimates, notes), level=3)
    a, b = opponents[0], opponents[1]
    judge = sorted(labels["judge"].unique())[-1]
    comparison = compare_models(
        tests[judge, a],
        tests[judge, b],
        tables[judge, a],
        tables[judge, b],
        paired=False,
        n_boot=n_boot,
        seed=seed,
        labels=(short[a], short[b]),
    )
    add_comparison(report, comparison, level=3)
    res = results[judge, a]
    low, high = res.ppi.bounds()
    held = (
        ""
        if low <= truths[judge, a] <= high
        else f"; outside its interval on this split, as 1 in 20 is: over 300 seeded splits "
        f"PPI++ held it {ONE_JUDGE_COVERAGE} of the time for every judge and opponent"
    )
    report.highlight(
        f"{judge} on {short[a]}, PPI++: {_with_interval(res.ppi.estimate, (low, high))}, "
        f"human {truths[judge, a]:.2f} (the judge's raw rate "
        f"{_with_interval(res.naive.estimate, res.naive.bounds())}){held}"
    )
    ppi = next(e for e in comparison.estimates if e.method == "ppi++-model-specific")
    report.highlight(
        f"Delta theta {short[a]} - {short[b]} by {ppi.method}: "
        f"{_with_interval(ppi.estimate, ppi.bounds(), 3)}"
    )


def pairwise_section(report: Report, seed: int, n_votes: int = PAIRWISE_VOTES) -> None:
    """Step 6 of the demo: Chatbot Arena battles as pairwise verdicts, ranked by win rate.

    The three judges' verdicts on every battle and the human votes on a sample
    of ``n_votes`` battles drawn with ``seed`` (:mod:`regression.pairwise`); the
    win rates from every vote are the truth the intervals are checked against.
    """
    verdicts, human = load_chatbot_arena()
    voted = human.sample(n_votes, random_state=seed)
    result = PairwiseModel(seed=seed).fit_table(verdicts, voted)
    board = pairwise_board(result, seed=seed)
    truth = PairwiseModel(judges=False).fit_table(verdicts, human).estimate  # every battle voted
    interval = result.interval().loc[truth.index]
    inside = int(((interval["low"] <= truth) & (truth <= interval["high"])).sum())
    if board is None:  # only a fit without human votes has no board; the demo has 1,000
        raise RuntimeError("the demo's pairwise fit gave no leaderboard")
    sets = board.table
    true_rank = truth.rank(ascending=False).reindex(sets.index)
    ranked = int(((sets["low_rank"] <= true_rank) & (true_rank <= sets["high_rank"])).sum())
    agreement = result.diagnostics()["agreement"].drop("human voters")
    worth = result.worth()
    notes = [
        f"{len(human):,} battles of LMSYS Chatbot Arena among {len(truth)} generators, each "
        f"judged by {verdicts['validator'].nunique()} LLMs (the data of prediction-powered "
        "ranking, Chatzi et al. 2024; docs/pairwise.md), and the human votes on a sample of "
        f"{n_votes:,} of them drawn with seed {seed}. The other {len(human) - n_votes:,} votes "
        "are held back, as an arena that pays for a few votes would not have them, and give the "
        "truth below. Win rates over the battles, prediction-powered; the rank sets hold for "
        "all generators at once.",
        f"First: {_leader(board)} (win rate over the battles); "
        f"{int((board.pairs['decided'] != 'undecided').sum())} of {len(board.pairs)} pairs "
        f"decided. Checked against the win rates of all {len(human):,} votes: {inside} of "
        f"{len(truth)} generators lie in their 95 % intervals on this one draw of the votes, and "
        f"{ranked} of {len(truth)} true ranks lie in their rank sets. One draw's count varies: "
        f"95 % intervals miss {0.05 * len(truth):.1f} of {len(truth)} on average"
        + (
            f", and over 60 seeded draws of {n_votes:,} votes these held {COVERAGE_OVER_DRAWS} "
            "(docs/reports.md). "
            if n_votes == PAIRWISE_VOTES
            else ". "
        )
        + "The judges agree with the human votes on "
        f"{100 * agreement.min():.0f}-{100 * agreement.max():.0f} % of the voted battles and "
        f"are worth {worth.min():.0f} to {worth.max():.0f} human votes to a generator's "
        f"interval (judges_worth), beside its {result.n_labels.min():,}-"
        f"{result.n_labels.max():,}: they sharpen the human votes, which still carry the "
        "estimate.",
    ]
    report.add(section("6. Pairwise leaderboard: Chatbot Arena, three judges", notes))
    add_pairwise_leaderboard(report, result, board, level=3)
    report.highlight(f"first: {_leader(board)}")
    over_draws = (
        f" (over 60 seeded draws: {COVERAGE_OVER_DRAWS})" if n_votes == PAIRWISE_VOTES else ""
    )
    report.highlight(
        f"{inside} of {len(truth)} true win rates (all {len(human):,} votes) in their 95 % "
        f"intervals on this draw{over_draws}; {ranked} of {len(truth)} true ranks in their rank "
        "sets"
    )


def scores_section(
    report: Report,
    seed: int,
    n_ratings: int = SCORE_RATINGS,
    criterion: str = SCORE_CRITERION,
) -> str:
    """Step 7 of the demo: HANNA's stories, 20 LLM judges' 1-5 scores and a few human ratings.

    On ``criterion``, each system's mean human rating (the mean of three crowd ratings per
    story, on 1-5) from the 20 judges' scores of all 96 stories and the ratings of
    ``n_ratings`` stories per system drawn with ``seed`` (:class:`regression.scores.ScoreModel`),
    beside the ratings alone; the mean of all 96 ratings is the truth the intervals are
    checked against. Returns the section's key number, one line.
    """
    from jurycal.score_figures import calibration_plot, score_plot
    from regression.scores import ScoreModel

    scores, human = load_hanna(criterion)
    rated = human.groupby("generator", sort=False).sample(n_ratings, random_state=seed)
    result = ScoreModel(seed=seed).fit_table(scores, rated, scale=HANNA_SCALE)
    alone = ScoreModel(judges=False, seed=seed).fit_table(scores, rated, scale=HANNA_SCALE)
    truth = human.groupby("generator", sort=False)["human"].mean()
    interval, bare = result.interval(), alone.interval()
    inside = int(((interval["low"] <= truth) & (truth <= interval["high"])).sum())
    ratio = float((interval["high"] - interval["low"]).mean() / (bare["high"] - bare["low"]).mean())
    board = result.leaderboard(seed=seed)
    top = board.table.index[0]
    row = board.table.loc[top]
    key = (
        f"{criterion}, {n_ratings} ratings per system: {top} first, mean rating "
        f"{row['estimate']:.2f} [{row['low']:.2f}, {row['high']:.2f}] (all 96 ratings: "
        f"{truth[top]:.2f}); the intervals are {ratio:.2f}x as wide as the ratings alone's"
    )
    notes = [
        f"HANNA (Chhun et al. 2022, 2024; regression/datasets/README.md): {len(truth)} systems "
        f"(the human-written story among them) each wrote a story for the same 96 prompts; "
        f"{scores['validator'].nunique()} LLM-judge configurations scored every story 1-5 on "
        f"{criterion}, and three crowd raters rated it. The ratings of {n_ratings} stories per "
        f"system, drawn with seed {seed}, are kept; the other {96 - n_ratings} per system are "
        "held back and give the truth below. The estimate is each system's mean rating, "
        "prediction-powered: the judges' scores, calibrated to the ratings by a monotone curve "
        "each and stacked, sharpen the ratings (docs/scores.md).",
        f"{key}. Against the means of all 96 ratings, {inside} of {len(truth)} systems lie in "
        "their 95 % intervals (one draw of the ratings: each interval misses one draw in 20).",
    ]
    report.add(section(f"7. Graded scores: HANNA stories, {criterion}, 20 judges", notes))
    add_leaderboard(report, board, level=3, figure=score_plot(board))
    report.figure(
        calibration_plot(scores, rated, scale=HANNA_SCALE, fitted=result.calibration_curves()),
        "Each judge's calibration on the rated stories: the mean rating per judge score (blue, "
        "95 % bands) and the monotone curve the estimate uses (orange steps).",
    )
    report.highlight(key)
    return key


def run_demo(
    quiet: bool = False,
    *,
    out_dir: str | Path = "jurycal-demo",
    seed: int = 2026,
    n_boot: int = 10_000,
) -> tuple[Report, list[Path]]:
    """Run the whole pipeline on the bundled data; write the report card.

    Parameters
    ----------
    quiet : bool
        Silence the progress bars.
    out_dir : str or Path, keyword-only
        Where ``report.md`` (with its figures) and ``report.html`` are written.
    seed : int, keyword-only
        Seed of the arena calibration/test split and of every bootstrap.
    n_boot : int, keyword-only
        Bootstrap replicates of the arena comparison.

    Returns
    -------
    Report
        The report card.
    list of Path
        The files written: ``report.md``, its figures, ``report.html``.
    """
    import matplotlib

    matplotlib.use("Agg")
    report = Report("jurycal demo: the whole pipeline on bundled data")
    judgments = _repair_section(report, quiet)
    _, human = load_agreeableness_judgments("feedback+lines+labels")
    veto = _ensemble_section(report, judgments, human)
    _regression_section(report, judgments, human, veto)
    arena_section(report, seed, n_boot)
    pairwise_section(report, seed)
    scores_section(report, seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)  # `jurycal demo` makes --out (default jurycal-demo)
    return report, report.write(out / "report.md")
