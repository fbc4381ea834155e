"""The bundled example data, loaded as pandas tables.

Everything here ships inside the package (``regression/datasets/``; provenance in
``regression/datasets/README.md``), so nothing reads outside the installed package.
The data sit at the stages' floor so that the stages' tests and doctests load them
without the application; ``jurycal.datasets`` gives users the same loaders.

The sources:

* ``agreeableness``: the released numbers of *Beyond Consensus: Mitigating the
  Agreeableness Bias in LLM Judge Evaluations* (ai-cet/llm-judge-calibration,
  MIT licence, commit 1891c43): 14 generators x 14 validators.
* ``arena``: LMArena battles judged by gpt-4o-mini and gpt-5.2 beside the human
  vote (yiqunchen/debias-llm-as-a-judge, MIT licence, commit 4b4879a).
* ``chatbot_arena``: 14,947 Chatbot Arena battles of 12 models with the human
  vote and three LLM judges' verdicts on every battle, the data of
  *Prediction-Powered Ranking of Large Language Models* (Chatzi et al., NeurIPS
  2024; Networks-Learning/prediction-powered-ranking, MIT licence).
* ``hanna``: 1,056 stories (11 systems x 96 prompts) rated 1-5 on 6 criteria by
  3 crowd raters and scored by 20 LLM-judge configurations (HANNA, Chhun et al.,
  COLING 2022 and TACL 2024; dig-team/hanna-benchmark-asg, MIT licence): graded
  scores with human ratings.

The messy validator responses that ``repair.repair_judgments`` takes are repair's
(:func:`repair.datasets.load_repair_sample`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import pandas as pd

__all__ = [
    "ANNOTATED_GENERATORS",
    "CHATBOT_ARENA_JUDGES",
    "HANNA_CRITERIA",
    "HANNA_JUDGES",
    "HANNA_SCALE",
    "REPAIR_LEVELS",
    "VOTE_REPAIR_LEVELS",
    "load_agreeableness_judgments",
    "load_arena",
    "load_arena_pairwise",
    "load_chatbot_arena",
    "load_confusion",
    "load_hanna",
    "load_hanna_raters",
    "load_human_precision",
    "load_item_votes",
    "load_models",
    "load_paper_ensemble_errors",
    "load_paper_regression_errors",
    "load_validator_rates",
]

#: The paper's four data versions, from outputs as produced to all repairs applied, by the
#: names of its released files: the keys of ``repair.PAPER_LEVELS``, whose values are the
#: repairs that make each version (a test holds the two equal; regression imports no stage).
REPAIR_LEVELS = ("none", "feedback", "feedback+lines", "feedback+lines+labels")
#: The levels for which item-level votes were released.
VOTE_REPAIR_LEVELS = REPAIR_LEVELS[1:]

#: The six human-annotated generators, in the order of the paper's released code
#: (``src/config.py``, ``MODELS_GEN``): ``itertools.combinations`` over it gives
#: the calibration subsets of ``paper_regression_errors.csv`` in the file's order.
ANNOTATED_GENERATORS = (
    "gpt-4o",
    "gpt-4-turbo",
    "claude_3_opus",
    "gemini-1.5-pro",
    "qwen-coder-plus",
    "deepseek-chat",
)

_ITEM_VOTE_META = ("repair_level", "generator", "task", "item", "line_number", "feedback", "human")


def _read(name: str, **kwargs: Any) -> pd.DataFrame:
    with resources.as_file(resources.files(__name__) / name) as path:
        return pd.read_csv(path, **kwargs)


def _check_level(repair_level: str, allowed: tuple[str, ...]) -> None:
    if repair_level not in allowed:
        raise ValueError(
            f"repair_level ({repair_level!r}) not recognized; must be one of {allowed}."
        )


def load_models() -> pd.DataFrame:
    """The 14 models: ``model``, ``annotated`` (has human labels), ``human_precision`` (paper Table 1)."""
    return _read("agreeableness/models.csv")


def load_human_precision() -> pd.Series:
    """Paper Table 1: the human-labelled precision of the six annotated generators, by generator.

    Examples
    --------
    >>> float(load_human_precision()["gpt-4-turbo"])
    0.871
    """
    models = load_models().set_index("model")["human_precision"].dropna()
    return models.rename_axis("generator").rename("human_precision")


def load_validator_rates(repair_level: str = "none") -> pd.DataFrame:
    """The paper's matrix P: generators (rows) x validators (columns) of the fraction labelled valid.

    Examples
    --------
    >>> rates = load_validator_rates("none")
    >>> rates.shape
    (14, 14)
    """
    _check_level(repair_level, REPAIR_LEVELS)
    long = _read("agreeableness/validator_rates.csv")
    long = long[long["repair_level"] == repair_level]
    order = load_models()["model"].tolist()
    wide = long.pivot(index="generator", columns="validator", values="p_valid")
    return wide.reindex(index=order, columns=order).rename_axis(
        index="generator", columns="validator"
    )


def load_confusion(repair_level: str = "none") -> pd.DataFrame:
    """Per annotated generator and validator: ``tp, fn, fp, tn`` against human labels (valid = positive)."""
    _check_level(repair_level, REPAIR_LEVELS)
    table = _read("agreeableness/confusion.csv")
    table = table[table["repair_level"] == repair_level].drop(columns="repair_level")
    return table.reset_index(drop=True)


def load_item_votes(repair_level: str = "feedback+lines+labels") -> pd.DataFrame:
    """The 5,972 item-level votes of the 6 annotated generators at one repaired level (wide: one column per validator)."""
    _check_level(repair_level, VOTE_REPAIR_LEVELS)
    table = _read("agreeableness/item_votes.csv.gz", dtype={"line_number": str})
    table = table[table["repair_level"] == repair_level].drop(columns="repair_level")
    return table.reset_index(drop=True)


def load_agreeableness_judgments(
    repair_level: str = "feedback+lines+labels",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The item-level votes as a judgments table (generator, item, validator, label).

    Returns
    -------
    judgments : DataFrame
        Long, one row per vote: ``generator, item, validator, label`` (1 / 0 / ``pd.NA``).
    human_labels : DataFrame
        ``generator, item, human`` (1 / 0).

    Examples
    --------
    >>> judgments, human = load_agreeableness_judgments()
    >>> len(judgments) == 14 * len(human)
    True
    """
    wide = load_item_votes(repair_level)
    validators = [c for c in wide.columns if c not in _ITEM_VOTE_META]
    judgments = wide.melt(
        id_vars=["generator", "item"],
        value_vars=validators,
        var_name="validator",
        value_name="label",
    )
    judgments["label"] = judgments["label"].astype("Int8")
    human = wide[["generator", "item", "human"]].copy()
    human["human"] = human["human"].astype("int8")
    return judgments, human


def load_paper_regression_errors() -> pd.DataFrame:
    """The paper's leave-s-out regression errors: ``repair_level, calibration_size, calibration_generators, max_abs_error``.

    ``calibration_generators`` is a ``;``-separated list (empty for s = 0).
    """
    return _read("agreeableness/paper_regression_errors.csv", keep_default_na=False, na_values=[])


def load_paper_ensemble_errors() -> pd.DataFrame:
    """The paper's ensemble results on the item votes: ``repair_level, rule, threshold, max_abs_error, mean_abs_error, tpr, tnr``."""
    return _read("agreeableness/paper_ensemble_errors.csv")


def load_arena() -> pd.DataFrame:
    """1,754 LMArena judgments: ``id, model_a, model_b, human_winner, judge, judge_pick`` (2 picks empty)."""
    return _read("arena/judge_results.csv")


def load_arena_pairwise() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The arena battles of :func:`load_arena` as pairwise tables (:mod:`regression.pairwise`).

    Returns
    -------
    verdicts : DataFrame
        1,754 rows, ``item, generator_a, generator_b, validator, verdict, position``: each
        judge's pick (``a`` / ``b``; missing for the 2 empty picks), ``model_a``'s answer
        shown first (``position`` ``ab``).
    human : DataFrame
        877 rows, ``item, generator_a, generator_b, human``: the human vote on every battle.

    Examples
    --------
    >>> verdicts, human = load_arena_pairwise()
    >>> len(verdicts), len(human), sorted(verdicts["validator"].unique())
    (1754, 877, ['gpt-4o-mini', 'gpt-5.2'])
    """
    arena = load_arena()
    pick = {"A": "a", "B": "b"}
    verdicts = pd.DataFrame(
        {
            "item": arena["id"],
            "generator_a": arena["model_a"],
            "generator_b": arena["model_b"],
            "validator": arena["judge"],
            "verdict": arena["judge_pick"].map(pick),
            "position": "ab",
        }
    )
    battles = arena.drop_duplicates("id")
    human = pd.DataFrame(
        {
            "item": battles["id"],
            "generator_a": battles["model_a"],
            "generator_b": battles["model_b"],
            "human": battles["human_winner"].map({"model_a": "a", "model_b": "b"}),
        }
    ).reset_index(drop=True)
    return verdicts, human


#: The three judges of :func:`load_chatbot_arena`, as its verdict table names them.
CHATBOT_ARENA_JUDGES = ("claude-3-opus", "gpt-4-0125-preview", "gpt-3.5-turbo")


def load_chatbot_arena() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Chatbot Arena battles with human votes and three LLM judges on every battle.

    The data of prediction-powered ranking (Chatzi et al., NeurIPS 2024): the
    battles of LMSYS Chatbot Arena among the 12 models that paper ranks, each
    with the human vote and the verdicts of claude-3-opus, gpt-4-0125-preview
    and gpt-3.5-turbo, who saw generator_a's answer first. A human "tie (both
    bad)" is read as a tie. Provenance in ``regression/datasets/README.md``.

    Returns
    -------
    verdicts : DataFrame
        44,841 rows, ``item, generator_a, generator_b, validator, verdict, position``
        (``verdict`` in ``a`` / ``b`` / ``tie``; ``position`` ``ab``), for the
        pairwise tables of :mod:`regression.pairwise`.
    human : DataFrame
        14,947 rows, ``item, generator_a, generator_b, human``: the human vote on
        every battle (``item`` is the battle's number in the source files).

    Examples
    --------
    >>> verdicts, human = load_chatbot_arena()
    >>> len(verdicts), len(human), human["generator_a"].nunique()
    (44841, 14947, 12)
    """
    battles = _read("chatbot_arena/battles.csv.gz", dtype={"battle": str})
    pair = battles[["battle", "generator_a", "generator_b"]].rename(columns={"battle": "item"})
    verdicts = pd.concat(
        [
            pair.assign(validator=judge, verdict=battles[judge], position="ab")
            for judge in CHATBOT_ARENA_JUDGES
        ],
        ignore_index=True,
    )
    return verdicts, pair.assign(human=battles["human"])


#: HANNA's six criteria, in the order of its release.
HANNA_CRITERIA = ("Relevance", "Coherence", "Empathy", "Surprise", "Engagement", "Complexity")
#: The 20 LLM-judge configurations of HANNA's TACL 2024 ratings: ``<LLM>:prompt<1-4>``.
HANNA_JUDGES = tuple(
    f"{llm}:prompt{prompt}"
    for llm in ("Beluga-13B", "ChatGPT", "Llama-13B", "Mistral-7B", "OrcaPlatypus")
    for prompt in range(1, 5)
)
#: The scale of HANNA's human ratings (and of the judges' prompts).
HANNA_SCALE = (1, 5)
_HANNA_RATERS = ("rater1", "rater2", "rater3")


def _hanna(criterion: str) -> pd.DataFrame:
    if criterion not in HANNA_CRITERIA:
        raise ValueError(
            f"criterion ({criterion!r}) not recognized; must be one of {HANNA_CRITERIA}."
        )
    table = _read("hanna/ratings.csv.gz")
    table = table[table["criterion"] == criterion].drop(columns="criterion")
    return table.reset_index(drop=True)


def load_hanna(criterion: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """HANNA's stories on one criterion: 20 LLM judges' scores and the crowd's mean rating.

    11 systems (10 story generators and the human-written story, ``Human``) each
    wrote a story for the same 96 WritingPrompts prompts; 3 crowd raters rated
    each story 1-5 on six criteria (Chhun et al., COLING 2022) and 5 LLMs with 4
    prompts each scored it on the same criteria (Chhun, Suchanek & Clavel, TACL
    2024). Provenance and caveats in ``regression/datasets/README.md``.

    Parameters
    ----------
    criterion : str
        One of :data:`HANNA_CRITERIA`.

    Returns
    -------
    scores : DataFrame
        21,120 rows, ``generator, item, validator, score``: each LLM-judge
        configuration's score of each story (a mean of its sampled answers, on
        1-5 as asked; a few lie outside it, as released).
    human : DataFrame
        1,056 rows, ``generator, item, human``: the mean of the 3 raters' ratings
        (a multiple of 1/3 on :data:`HANNA_SCALE`). ``item`` is the prompt
        (``prompt00`` ... ``prompt95``), shared by the 11 systems.

    Examples
    --------
    >>> scores, human = load_hanna("Coherence")
    >>> len(scores), len(human), scores["validator"].nunique()
    (21120, 1056, 20)
    >>> round(float(human.loc[human["generator"] == "Human", "human"].mean()), 2)
    4.43
    """
    table = _hanna(criterion)
    scores = table.melt(
        id_vars=["generator", "item"],
        value_vars=list(HANNA_JUDGES),
        var_name="validator",
        value_name="score",
    )
    human = table[["generator", "item"]].assign(human=table[list(_HANNA_RATERS)].mean(axis=1))
    return scores, human


def load_hanna_raters(criterion: str) -> pd.DataFrame:
    """The three crowd ratings behind :func:`load_hanna`'s ``human``: ``generator, item, rater1,
    rater2, rater3`` (integers 1-5; rater positions, not persistent workers).

    Examples
    --------
    >>> raters = load_hanna_raters("Empathy")
    >>> raters.shape
    (1056, 5)
    """
    return _hanna(criterion)[["generator", "item", *_HANNA_RATERS]]
