"""Case numbers and dates never wrap in the lists (a case number broken at its hyphen reads
as two numbers): on a narrow window each such cell is one line."""

from __future__ import annotations

import pytest

from tests._review_support import submitted, toy_engine
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("toy_engine")]



def cell_lines(page, selector: str) -> list[tuple[str, float]]:
    """(text, height in lines) of each cell's first link or its text."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map(cell => {
             const range = document.createRange(); range.selectNodeContents(cell);
             const rects = [...range.getClientRects()].filter(r => r.width > 0);
             const tops = new Set(rects.map(r => Math.round(r.top)));
             return [cell.innerText.trim(), tops.size];
           })""",
        selector,
    )


def test_case_numbers_and_dates_stay_on_one_line(new_page, reviewer, supervisor):
    for n in range(3):
        submitted(reviewer, case_number=f"P-26-{n:04d}")
    page = new_page()
    page.set_viewport_size({"width": 700, "height": 900})
    log_in(page, "rev")
    for text, lines in cell_lines(page, "table.table-cases tbody td:first-child") + cell_lines(
        page, "table.table-cases tbody td:nth-child(7)"
    ):
        assert lines == 1, f"{text!r} wraps onto {lines} lines on the case list"
    page.context.clear_cookies()
    log_in(page, "sup")
    page.goto(page.base + "/review/")
    cells = cell_lines(page, "table tbody td:first-child")
    assert cells, "the review queue lists the submitted cases"
    for text, lines in cells:
        assert lines == 1, f"{text!r} wraps onto {lines} lines in the review queue"
