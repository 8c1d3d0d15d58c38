"""The case list's page navigation in a real browser: found by its accessible name, its
links named for where they lead, the current end marked, the search kept from page to page."""

import pytest
from playwright.sync_api import expect

from assessments.views import CASES_PER_PAGE
from tests.browser.conftest import log_in
from tests.conftest import make_submission, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_pages_through_a_search_and_back(page, django_user_model):
    make_user(django_user_model, "riley", group="reviewer", cbi=True)
    total = 2 * CASES_PER_PAGE + 10
    for i in range(total):
        make_submission(case_number=f"P-26-{i:04d}", generic_name="Amine" if i % 4 == 0 else "Onium salt")
    matching = total - len(range(0, total, 4))  # 45: a full page and 20
    log_in(page, "riley")
    pages = page.get_by_role("navigation", name="Case pages")
    rows = page.locator("table.table-cases tbody tr")

    expect(rows).to_have_count(CASES_PER_PAGE)
    expect(pages.get_by_text("Newest")).to_have_attribute("aria-current", "page")
    expect(pages.get_by_role("link", name="Newer")).to_have_count(0)
    pages.get_by_role("link", name="Oldest").click()
    expect(rows).to_have_count(CASES_PER_PAGE)
    expect(rows.last).to_contain_text("P-26-0000")
    expect(pages.get_by_text("Oldest")).to_have_attribute("aria-current", "page")
    expect(pages.get_by_role("link", name="Older")).to_have_count(0)

    page.get_by_label("Search").fill("onium")
    page.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(CASES_PER_PAGE)  # the search starts at the newest page
    pages.get_by_role("link", name="Older").click()
    expect(rows).to_have_count(matching - CASES_PER_PAGE)
    expect(rows.filter(has_text="Amine")).to_have_count(0)
    expect(page.get_by_label("Search")).to_have_value("onium")
    pages.get_by_role("link", name="Newer").click()
    expect(rows).to_have_count(CASES_PER_PAGE)
    expect(rows.first).to_contain_text(f"P-26-{total - 1:04d}")
    expect(pages.get_by_text("Newest")).to_have_attribute("aria-current", "page")
