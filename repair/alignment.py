"""Aligning validator entries with generator items: exact text first, then rapidfuzz, one to one.

A validator echoes each feedback item it judged; the echo must be tied back to
the generator's item to use its label. The agreeableness paper (§4, App. B.3)
did this by fuzzy string matching with an 85 % threshold (FuzzyWuzzy). Here:

1. **Exact stage.** An entry whose text equals an item's text (surrounding
   white space ignored) in the same task is a candidate.
2. **Fuzzy stage** (entries and items still free). The score of an entry
   against an item of the same task is
   ``max(token_set_ratio, partial_ratio)`` on rapidfuzz's default processing
   (lower case, punctuation removed): token-set ratio forgives reordered,
   added or dropped words; partial ratio scores the best-matching stretch,
   so the "lazy" validator that shortened or clipped the feedback still
   matches. When the shorter text has fewer than :data:`MIN_PARTIAL_LENGTH`
   characters both are too forgiving (any item containing "use elif" would
   score 100) and the plain ratio is used. Pairs scoring at least the
   threshold are candidates. Scores come from one ``rapidfuzz.process.cdist``
   call per scorer per task, never from a Python loop over pairs.
3. **Assignment.** Within one validator response each entry matches at most
   one item and each item at most one entry, maximising the summed benefit
   (:func:`assign`: each entry's best candidate when no two entries want the
   same item, else ``scipy.optimize.linear_sum_assignment``). The benefit is
   the text score plus :data:`LINE_BONUS` points per level of line agreement
   (same range 3, same start line 2, no line 1, other line 0), so the line
   number decides between items whose texts score within a few points of
   each other (duplicated feedback texts on different lines, sibling items
   such as "use str(name)" / "use str(age)"), never against a clearly better
   text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, process, utils
from scipy.optimize import linear_sum_assignment

from .lines import line_agreement

__all__ = [
    "LINE_BONUS",
    "MIN_PARTIAL_LENGTH",
    "STAGE_EXACT",
    "STAGE_FUZZY",
    "STAGE_NONE",
    "Alignment",
    "EntryTexts",
    "FeedbackTexts",
    "align_entries",
    "assign",
    "process_text",
    "text_scores",
]

#: Points added to the text score per level of line agreement (0 to 3 levels).
LINE_BONUS = 1.0
#: Below this many characters (after processing) only the plain ratio is used.
MIN_PARTIAL_LENGTH = 20
#: How an entry was matched.
STAGE_NONE, STAGE_EXACT, STAGE_FUZZY = 0, 1, 2


def process_text(texts: Iterable[str]) -> list[str]:
    """rapidfuzz's default processing (lower case, non-alphanumerics to spaces, trimmed).

    Examples
    --------
    >>> process_text(["Use 'elif' instead!"])
    ['use  elif  instead']
    """
    return [utils.default_process(t) for t in texts]


def text_scores(queries: Sequence[str], choices: Sequence[str], *, threshold: float) -> np.ndarray:
    """Scores (0-100) of processed ``queries`` against processed ``choices``; 0 below ``threshold``.

    Parameters
    ----------
    queries, choices : sequence of str
        Texts already passed through :func:`process_text`.
    threshold : float
        The least score kept (the paper's 85, App. B.3).

    Returns
    -------
    ndarray of float32, shape (len(queries), len(choices))

    Examples
    --------
    >>> items = process_text(["The syntax for converting to string is incorrect. Use str(age).",
    ...                       "Remove the unnecessary print statement on line 5."])
    >>> entries = process_text(["The syntax for converting to string is incorrect",  # clipped
    ...                         "remove unnecessary print statement"])             # words dropped
    >>> text_scores(entries, items, threshold=85).round().tolist()
    [[100.0, 0.0], [0.0, 100.0]]
    """
    if not len(queries) or not len(choices):
        return np.zeros((len(queries), len(choices)), dtype=np.float32)
    scores = np.maximum(
        process.cdist(
            queries, choices, scorer=fuzz.token_set_ratio, score_cutoff=threshold, dtype=np.float32
        ),
        process.cdist(
            queries, choices, scorer=fuzz.partial_ratio, score_cutoff=threshold, dtype=np.float32
        ),
    )
    shortest = np.minimum.outer(
        np.fromiter((len(q) for q in queries), np.int64, len(queries)),
        np.fromiter((len(c) for c in choices), np.int64, len(choices)),
    )
    short = shortest < MIN_PARTIAL_LENGTH
    if short.any():
        plain = process.cdist(
            queries, choices, scorer=fuzz.ratio, score_cutoff=threshold, dtype=np.float32
        )
        scores = np.where(short, plain, scores)
    return scores


def assign(group: np.ndarray, row: np.ndarray, col: np.ndarray, benefit: np.ndarray) -> np.ndarray:
    """Choose a one-to-one set of candidate pairs within each group, maximising total benefit.

    Parameters
    ----------
    group, row, col : ndarray of int
        For each candidate pair: its group (a validator response), its row (an
        entry; every row lies in one group) and its column (an item).
    benefit : ndarray of float
        Positive benefit of each candidate.

    Returns
    -------
    ndarray of bool
        Which candidates are chosen: in each group no row and no column twice.

    Notes
    -----
    If every row's best candidate is a different column, taking them is
    optimal; only the groups where two rows want the same column are solved
    with ``scipy.optimize.linear_sum_assignment`` (Hungarian method on the
    group's rows x columns benefit matrix). Ties go to the lower column.

    Examples
    --------
    >>> import numpy as np
    >>> g = np.array([0, 0, 0]); r = np.array([0, 0, 1]); c = np.array([5, 6, 5])
    >>> assign(g, r, c, np.array([90.0, 88.0, 95.0])).tolist()  # row 0 yields item 5 to row 1
    [False, True, True]
    """
    n = len(row)
    chosen = np.zeros(n, dtype=bool)
    if n == 0:
        return chosen
    order = np.lexsort((col, -benefit, row))
    first = np.ones(n, dtype=bool)
    first[1:] = row[order][1:] != row[order][:-1]
    best = order[first]
    chosen[best] = True
    taken = pd.MultiIndex.from_arrays([group[best], col[best]])
    clashing = np.unique(group[best][taken.duplicated(keep=False)])
    if clashing.size == 0:
        return chosen
    in_clash = np.isin(group, clashing)
    chosen[in_clash] = False
    index = np.flatnonzero(in_clash)
    index = index[np.argsort(group[index], kind="stable")]
    bounds = np.flatnonzero(np.diff(group[index])) + 1
    for part in np.split(index, bounds):
        rows, row_pos = np.unique(row[part], return_inverse=True)
        cols, col_pos = np.unique(col[part], return_inverse=True)
        matrix = np.zeros((len(rows), len(cols)))
        which = np.full((len(rows), len(cols)), -1, dtype=np.int64)
        matrix[row_pos, col_pos] = benefit[part]
        which[row_pos, col_pos] = part
        r, c = linear_sum_assignment(matrix, maximize=True)
        keep = which[r, c]
        chosen[keep[keep >= 0]] = True
    return chosen


@dataclass(frozen=True)
class Alignment:
    """The result of :func:`align_entries`, one value per entry.

    Attributes
    ----------
    item : ndarray of int
        The matched item's position, ``-1`` when unmatched.
    stage : ndarray of int
        :data:`STAGE_EXACT`, :data:`STAGE_FUZZY` or :data:`STAGE_NONE`.
    score : ndarray of float
        The text score of the match (100 for exact), NaN when unmatched.
    had_candidate : ndarray of bool
        Some item passed the threshold (so an unmatched entry lost the assignment).
    """

    item: np.ndarray
    stage: np.ndarray
    score: np.ndarray
    had_candidate: np.ndarray


@dataclass(frozen=True)
class FeedbackTexts:
    """Feedback texts to align, one per generator item or validator entry.

    Attributes
    ----------
    block : ndarray of int
        The text's block (one per generator and task); an entry may only match
        an item of its own block. ``-1`` marks an entry that may not be matched.
    text : ndarray of object
        The feedback text; ``None`` for an entry without one.
    start, end : ndarray of int
        The line range read from the line field (:func:`repair.lines.parse_line`),
        ``-1`` for none.
    line_key : ndarray of object
        The line exactly as written (:func:`repair.lines.strict_line_key`),
        ``None`` for none.

    Raises
    ------
    ValueError
        When the arrays differ in length (naming the first that does).
    """

    block: np.ndarray
    text: np.ndarray
    start: np.ndarray
    end: np.ndarray
    line_key: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.block)
        for field in fields(self):
            length = len(getattr(self, field.name))
            if length != n:
                raise ValueError(
                    f"{type(self).__name__}.{field.name} has {length} values; block has {n}."
                )


@dataclass(frozen=True)
class EntryTexts(FeedbackTexts):
    """The validator entries' side of the alignment: :class:`FeedbackTexts` and each entry's group.

    Attributes
    ----------
    group : ndarray of int
        The validator response the entry comes from: matches are one to one
        within a group.
    """

    group: np.ndarray


def _stripped(texts: np.ndarray) -> np.ndarray:
    return np.array([t.strip() for t in texts], dtype=object)


def align_entries(
    entries: EntryTexts,
    items: FeedbackTexts,
    *,
    threshold: float,
    fuzzy: bool,
    repair_lines: bool,
    progress: bool = False,
) -> Alignment:
    """Match entries to items of the same block (generator and task), one to one per group.

    Parameters
    ----------
    entries : EntryTexts
        The validator entries: block (``-1``: may not be matched), text
        (``None``: none), lines and the response each comes from.
    items : FeedbackTexts
        The generator items: block, text (str) and lines.
    threshold : float
        Least fuzzy score of a candidate (0-100).
    fuzzy : bool
        Run the fuzzy stage (the ``FEEDBACK`` repair).
    repair_lines : bool
        Read lines as ranges and use them only to break near-ties (the ``LINES``
        repair); otherwise a candidate's line must be written exactly as the item's.
    progress : bool
        Show a progress bar over tasks in the fuzzy stage.

    Returns
    -------
    Alignment

    Notes
    -----
    Agreeableness paper §4 ("fuzzy string matching ... to align feedback
    items"; ranges "match the starting line number if an exact range match is
    not found") and App. B.3 (the 85 % threshold).

    Examples
    --------
    >>> import numpy as np
    >>> def texts(strings, lines, **group):
    ...     cls = EntryTexts if group else FeedbackTexts
    ...     return cls(np.zeros(len(strings), dtype=np.int64), np.array(strings, dtype=object),
    ...                np.array(lines), np.array(lines), np.array(lines, dtype=object), **group)
    >>> items = texts(["Use a for loop over the list.", "Rename x to total."], [3, 5])
    >>> entries = texts(["rename x to total", "Use a for loop over the list."], [5, 3],
    ...                 group=np.zeros(2, dtype=np.int64))
    >>> result = align_entries(entries, items, threshold=85, fuzzy=True, repair_lines=True)
    >>> result.item.tolist(), result.stage.tolist()
    ([1, 0], [2, 1])
    """
    entry_block, entry_group, entry_text = entries.block, entries.group, entries.text
    item_block, item_text = items.block, items.text
    n_entries, n_items = len(entry_block), len(item_block)
    item_of = np.full(n_entries, -1, dtype=np.int64)
    stage = np.zeros(n_entries, dtype=np.int8)
    score = np.full(n_entries, np.nan)
    had_candidate = np.zeros(n_entries, dtype=bool)
    has_text = np.fromiter((isinstance(t, str) for t in entry_text), bool, n_entries)
    usable = np.flatnonzero((entry_block >= 0) & has_text)
    if usable.size == 0 or n_items == 0:
        return Alignment(item_of, stage, score, had_candidate)
    e_start, e_end, e_key = entries.start, entries.end, entries.line_key
    i_start, i_end, i_key = items.start, items.end, items.line_key

    def constrain(e: np.ndarray, i: np.ndarray) -> np.ndarray:
        if repair_lines:
            return np.ones(len(e), dtype=bool)
        return np.fromiter(
            (a is not None and a == b for a, b in zip(e_key[e], i_key[i], strict=True)),
            bool,
            len(e),
        )

    def bonus(e: np.ndarray, i: np.ndarray) -> np.ndarray:
        return LINE_BONUS * line_agreement(e_start[e], e_end[e], i_start[i], i_end[i])

    # Stage 1: exact text within the block.
    entry_frame = pd.DataFrame(
        {"b": entry_block[usable], "t": _stripped(entry_text[usable]), "e": usable}
    )
    item_frame = pd.DataFrame({"b": item_block, "t": _stripped(item_text), "i": np.arange(n_items)})
    pairs = entry_frame.merge(item_frame, on=["b", "t"], how="inner")
    e = pairs["e"].to_numpy(np.int64)
    i = pairs["i"].to_numpy(np.int64)
    keep = constrain(e, i)
    e, i = e[keep], i[keep]
    had_candidate[e] = True
    chosen = assign(entry_group[e], e, i, 1.0 + bonus(e, i))
    item_of[e[chosen]] = i[chosen]
    stage[e[chosen]] = STAGE_EXACT
    score[e[chosen]] = 100.0
    if not fuzzy:
        return Alignment(item_of, stage, score, had_candidate)

    # Stage 2: fuzzy scores, one cdist per block, over the entries still free.
    taken = pd.MultiIndex.from_arrays([entry_group[e[chosen]], i[chosen]])
    free = usable[item_of[usable] < 0]
    if free.size == 0:
        return Alignment(item_of, stage, score, had_candidate)
    free = free[np.argsort(entry_block[free], kind="stable")]
    free_blocks, free_starts = np.unique(entry_block[free], return_index=True)
    item_order = np.argsort(item_block, kind="stable")
    sorted_blocks = item_block[item_order]
    lo = np.searchsorted(sorted_blocks, free_blocks, side="left")
    hi = np.searchsorted(sorted_blocks, free_blocks, side="right")
    ends = np.append(free_starts[1:], free.size)
    processed_entries = process_text(entry_text[free])
    processed_items = process_text(item_text)
    found_e, found_i, found_s = [], [], []
    blocks = range(len(free_blocks))
    if progress:
        from tqdm.auto import tqdm

        blocks = tqdm(blocks, desc="fuzzy alignment", unit="task", leave=False)
    for k in blocks:
        if lo[k] == hi[k]:
            continue
        members = item_order[lo[k] : hi[k]]
        queries = processed_entries[free_starts[k] : ends[k]]
        matrix = text_scores(queries, [processed_items[m] for m in members], threshold=threshold)
        q, c = np.nonzero(matrix)
        found_e.append(free[free_starts[k] + q])
        found_i.append(members[c])
        found_s.append(matrix[q, c])
    if not found_e:
        return Alignment(item_of, stage, score, had_candidate)
    e = np.concatenate(found_e)
    i = np.concatenate(found_i)
    s = np.concatenate(found_s).astype(float)
    keep = constrain(e, i) & ~pd.MultiIndex.from_arrays([entry_group[e], i]).isin(taken)
    e, i, s = e[keep], i[keep], s[keep]
    had_candidate[e] = True
    chosen = assign(entry_group[e], e, i, s + bonus(e, i))
    item_of[e[chosen]] = i[chosen]
    stage[e[chosen]] = STAGE_FUZZY
    score[e[chosen]] = s[chosen]
    return Alignment(item_of, stage, score, had_candidate)
