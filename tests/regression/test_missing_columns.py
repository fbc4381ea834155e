"""The one message a table lacking columns gets, from the API and the file counters alike."""

import pandas as pd
import pytest

from regression.checks import missing_columns_message, require_columns
from regression.errors import MissingColumnError


@pytest.mark.parametrize(
    "header, says",
    [("generator;item;validator;label", "semicolons"), ("generator\titem", "tabs"),
     ("generator,item,validator", "commas"), ("generator|item", "bars")],
)  # fmt: skip
def test_a_header_read_as_one_column_names_the_separator_it_holds(header, says):
    message = missing_columns_message("judgments", ["generator", "item"], [header])
    assert f"one column whose name holds {says}" in message


@pytest.mark.parametrize("found", [["generator"], ["generator", "item;validator"], ["score"]])
def test_other_headers_get_no_separator_hint(found):
    message = missing_columns_message("judgments", ["generator", "item"], found)
    assert "holds" not in message and message.endswith(f"got {found}.")


def test_require_columns_raises_the_message_with_the_first_missing_column():
    frame = pd.DataFrame({"generator;item;validator;label": ["a;1;v;1"]})
    with pytest.raises(MissingColumnError, match="holds semicolons") as caught:
        require_columns(frame, ["generator", "item", "validator", "label"], "judgments")
    assert caught.value.column == "generator"
