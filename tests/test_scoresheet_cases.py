"""The shared table of score-sheet cases (checker/data/scoresheet_cases.json):
what checker.scoresheet reads from each text (the turns as written, with the
line and column where each starts) or where it stops (line, column, the text
at fault; null: no turn at all).  The same reader serves every door (the API,
the command line, the audit, the pages: tests/web/test_scoresheet_everywhere.py).
Each case was checked by hand: columns count from 1, a tab is one column."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from checker.notation import NotationError
from checker.scoresheet import ScoreSheetError, read_score_sheet

CASES = json.loads(resources.files("checker.data").joinpath("scoresheet_cases.json").read_text(encoding="utf-8"))


def test_the_table_has_valid_sheets_errors_and_empty_ones():
    assert sum("turns" in c for c in CASES) >= 12 and sum(c.get("error") is not None for c in CASES) >= 8
    assert sum("error" in c and c["error"] is None for c in CASES) >= 2


def _case_id(case: dict) -> str:
    """A test id of letters, digits and the notation's marks only: mutmut (make mutate) names each
    test on pytest's command line, and an id with quotes, backslashes or end spaces is not found."""
    return re.sub(r"[^A-Za-z0-9+#*.-]+", "_", case["text"]).strip("_")[:40] or "blank"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_python_reader_reads_each_case(case):
    if "turns" in case:
        assert [[t.text, t.line, t.column] for t in read_score_sheet(case["text"])] == case["turns"]
    elif case["error"] is None:
        with pytest.raises(NotationError, match="no turn"):
            read_score_sheet(case["text"])
    else:
        with pytest.raises(ScoreSheetError) as info:
            read_score_sheet(case["text"])
        assert (info.value.line, info.value.column, info.value.text) == tuple(case["error"].values())
