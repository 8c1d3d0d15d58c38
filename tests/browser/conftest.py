"""Browser tests: Playwright for Python driving Debian's Chromium against the live
server. Without Chromium they skip locally; under CI (``CI=true``) they fail instead,
so a CI run can never pass by skipping them. The rule is checked twice: by a session
fixture every test here uses (so even a test that opens no browser fails under CI
without Chromium), and by the ``browser`` fixture itself."""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]
PASSWORD = "pw-for-tests-only"



def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_chromium() -> None:
    """Skip without Chromium, except under CI, where its absence is a failure."""
    if shutil.which(CHROMIUM):
        return
    if in_ci():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: CI must run the browser tests", pytrace=False)
    pytest.skip(f"Chromium not found at {CHROMIUM}")


@pytest.fixture(scope="session", autouse=True)
def chromium_required_in_ci():
    require_chromium()


@pytest.fixture(scope="module")
def browser():
    """Chromium, for one test module. Playwright's sync API runs an event loop in this
    thread while it is open, so Django would refuse the test's own (synchronous, safe)
    ORM calls: DJANGO_ALLOW_ASYNC_UNSAFE is set meanwhile, and the loop and the setting
    end with the module rather than leaking into the rest of the session."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, live_server):
    """Opens a page in a new browser context (its own cookies: a second user logged in
    beside the first); every context is closed after the test."""
    contexts = []

    def open_page(*, bypass_csp: bool = False):
        """``bypass_csp``: for tests that inject a script of their own (axe-core)."""
        context = browser.new_context(
            viewport={"width": 1366, "height": 900}, accept_downloads=True, bypass_csp=bypass_csp
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.base = live_server.url
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto(page.base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/")
