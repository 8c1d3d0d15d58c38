"""The IRER preview in a real browser: a page of the application (its navigation, the way
back to the revision, the downloads), the report's summary open and its long parts folded,
short enough to read, and no request the server cannot answer (/favicon.ico)."""

from __future__ import annotations

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.conftest import make_user
from tests.reports.conftest import build_sample_assessment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The sample report's preview at 1366 × 900 measures 4,382 px with its details closed, about
#: twice that with all of them open (9,288 px on the demo's photoresist use with its exposures).
MAX_PREVIEW_HEIGHT = 5_500


@pytest.fixture
def assessment(django_user_model):
    reviewer = make_user(django_user_model, "riley", group="reviewer", cbi=True,
                         first_name="Riley", last_name="Reviewer")
    return build_sample_assessment(reviewer)


@pytest.fixture
def paths():
    """The path of every request the live server receives during the test."""
    seen: list[str] = []

    def record(sender, environ=None, **kwargs):
        if environ is not None:
            seen.append(environ.get("PATH_INFO", ""))

    request_started.connect(record, weak=False)
    yield seen
    request_started.disconnect(record)


def open_preview(page, assessment):
    log_in(page, "riley")
    page.goto(f"{page.base}/assessments/{assessment.pk}/irer/")
    page.wait_for_load_state("networkidle")


def test_the_preview_is_a_page_of_the_application_with_a_way_back(page, assessment):
    open_preview(page, assessment)
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    crumbs = page.get_by_role("navigation", name="breadcrumb")
    expect(crumbs.get_by_role("link", name="P-18-0123")).to_be_visible()
    expect(page.get_by_role("link", name="Download IRER (PDF)")).to_have_attribute(
        "href", f"/assessments/{assessment.pk}/irer.pdf")
    expect(page.get_by_role("link", name="Download IRER (Word)")).to_have_attribute(
        "href", f"/assessments/{assessment.pk}/irer.docx")
    expect(page.get_by_role("heading", name="INITIAL REVIEW ENGINEERING REPORT")).to_be_visible()
    crumbs.get_by_role("link", name="Revision 1").click()
    page.wait_for_url(f"{page.base}/assessments/{assessment.pk}/")


def test_the_preview_asks_for_no_favicon_ico(page, assessment, paths):
    open_preview(page, assessment)
    page.wait_for_timeout(500)  # a browser asks for /favicon.ico after the page's load
    icon = page.locator("head link[rel='icon']")
    expect(icon).to_have_count(1)
    assert icon.get_attribute("href").endswith("/favicon.svg")
    assert f"/assessments/{assessment.pk}/irer/" in paths
    assert "/favicon.ico" not in paths


def test_the_summary_is_open_and_the_detail_folded(page, assessment):
    open_preview(page, assessment)
    expect(page.get_by_text("ENVIRONMENTAL RELEASES ESTIMATE SUMMARY")).to_be_visible()
    expect(page.get_by_text("OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY")).to_be_visible()
    details = page.locator(".irer details")
    assert details.count() > 10
    assert page.evaluate("[...document.querySelectorAll('.irer details')].every(d => !d.open)")
    inputs, trace = page.locator("table.inputs"), page.locator("ol.trace")
    expect(inputs).to_be_hidden()
    expect(trace).to_be_hidden()
    page.get_by_text("Use 1: Photoresist in Semiconductor Manufacturing: calculation trace").click()
    expect(trace).to_be_visible()
    expect(inputs).to_be_hidden()


def test_the_preview_is_short_enough_to_read(page, assessment):
    open_preview(page, assessment)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < MAX_PREVIEW_HEIGHT, height
    page.evaluate("document.querySelectorAll('.irer details').forEach(d => { d.open = true; })")
    assert page.evaluate("document.documentElement.scrollHeight") > 1.5 * height  # what is folded is there
