"""Label normalisation and the invented-label policy (agreeableness paper §4, App. B.3)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from repair.labels import LabelPolicy, canonical_label_text, normalise_label, strict_label


@pytest.mark.parametrize(
    ("value", "label", "kind"),
    [
        ("valid", 1.0, "exact"),
        ("invalid", 0.0, "exact"),
        # Case, white space and punctuation.
        ("Valid", 1.0, "synonym"),
        (" INVALID. ", 0.0, "synonym"),
        ("**valid**", 1.0, "synonym"),
        ('"invalid"', 0.0, "synonym"),
        ("Not-Valid", 0.0, "synonym"),
        # Common synonyms, among them the paper's example ("mapping 'incorrect' to 'invalid'", §4).
        ("correct", 1.0, "synonym"),
        ("incorrect", 0.0, "synonym"),
        ("true", 1.0, "synonym"),
        ("false", 0.0, "synonym"),
        ("yes", 1.0, "synonym"),
        ("no", 0.0, "synonym"),
        ("accurate", 1.0, "synonym"),
        ("wrong", 0.0, "synonym"),
        (True, 1.0, "synonym"),
        (False, 0.0, "synonym"),
        (1, 1.0, "synonym"),
        (0, 0.0, "synonym"),
        # Invented labels (App. B.3: "partially valid"): the default policy reads them as invalid.
        ("partially valid", 0.0, "invented"),
        ("Partially Valid", 0.0, "invented"),
        ("needs improvement", 0.0, "invented"),
        (0.5, 0.0, "invented"),
        ({"a": 1}, 0.0, "invented"),
        (["valid"], 1.0, "synonym"),  # a one-word list reads as its word
        # Absent.
        (None, math.nan, "missing"),
        ("", math.nan, "missing"),
        ("  ...  ", math.nan, "missing"),
        (float("nan"), math.nan, "missing"),
    ],
)
def test_default_policy(value, label, kind):
    got_label, got_kind, _ = normalise_label(value, LabelPolicy())
    assert got_kind == kind
    assert (math.isnan(got_label) and math.isnan(label)) or got_label == label


@pytest.mark.parametrize(
    ("policy", "expected"), [("invalid", 0.0), ("valid", 1.0), ("missing", math.nan)]
)
def test_invented_policy_is_configurable(policy, expected):
    label, kind, text = normalise_label("Partially valid.", LabelPolicy(invented=policy))
    assert kind == "invented" and text == "partially valid"
    assert (math.isnan(label) and math.isnan(expected)) or label == expected


def test_custom_synonyms_are_canonicalised():
    policy = LabelPolicy(valid=frozenset({"Valid", "Looks Good!"}), invalid=frozenset({"invalid"}))
    # exact: labels set by the policy
    assert normalise_label("looks good", policy)[:2] == (1.0, "synonym")
    # exact: labels set by the policy
    assert normalise_label("correct", policy)[:2] == (0.0, "invented")


def test_strict_label_is_exact():
    assert (
        strict_label("valid") == 1.0  # exact: labels are 0 or 1 by construction
        and strict_label("invalid") == 0.0  # exact: labels are 0 or 1 by construction
    )
    assert all(math.isnan(strict_label(v)) for v in ("Valid", " valid", True, 1, None, "correct"))


def test_policy_rejects_bad_settings():
    with pytest.raises(ValueError, match=r"invented \('partial'\) not recognized"):
        LabelPolicy(invented="partial")
    with pytest.raises(ValueError, match=r"label synonym\(s\) \['ok'\] are in both"):
        LabelPolicy(valid=frozenset({"ok"}), invalid=frozenset({"OK."}))
    with pytest.raises(ValueError, match=r"valid must be a set of strings; got 'valid'"):
        LabelPolicy(valid="valid")  # type: ignore[arg-type]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=3)
    ),
    max_leaves=10,
)


@given(json_values, st.sampled_from(["invalid", "valid", "missing"]))
def test_normalise_label_never_raises(value, invented):
    label, kind, text = normalise_label(value, LabelPolicy(invented=invented))
    assert kind in ("exact", "synonym", "invented", "missing")
    assert math.isnan(label) or label in (0.0, 1.0)
    assert text == canonical_label_text(text) or kind == "exact"
