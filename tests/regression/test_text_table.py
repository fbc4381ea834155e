"""The one place a table's numbers become text: no sign a rounded zero lacks."""

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from regression.text_table import table_cells, text_table


def test_a_tiny_negative_value_prints_as_zero():
    frame = pd.DataFrame(
        {"judges_worth": [-1e-12, -0.00006, 0.0, -0.0]}, index=["a", "b", "c", "d"]
    )
    _, rows, _ = table_cells(frame)
    assert [row[1] for row in rows] == ["0.0000", "-0.0001", "0.0000", "0.0000"]
    assert "-0.0000" not in text_table(frame)


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(0, 6))
def test_printed_numbers_read_back_to_the_value(value, digits):
    _, rows, _ = table_cells(pd.DataFrame({"x": [value]}, index=["a"]), digits)
    text = rows[0][1]
    assert not (text.startswith("-") and float(text) == 0)  # exact: a rounded zero
    assert abs(float(text) - value) <= 0.5 * 10**-digits + 1e-9 * abs(value)
