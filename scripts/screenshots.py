"""Screenshots of the main pages for a visual check, against a running demo server.

    bash scripts/run.sh &            # the demo on http://127.0.0.1:8000
    .venv/bin/python scripts/screenshots.py [BASE_URL] [OUT_DIR]

Logs in as the demo reviewer, opens the sample case's draft revision 2, walks its use's
wizard with an invalid value on one step, computes it, and saves PNGs (default:
artifacts/screens/).
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
OUT = Path(sys.argv[2] if len(sys.argv) > 2 else "artifacts/screens")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.goto(BASE + "/accounts/login/")
        page.get_by_label("Username").fill("reviewer")
        page.get_by_label("Password").fill("reviewer-demo-2026")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(BASE + "/")
        page.screenshot(path=OUT / "01-cases.png", full_page=True)
        page.get_by_role("link", name="P-18-0123").first.click()  # in My work and in the case list
        page.screenshot(path=OUT / "02-case.png", full_page=True)
        page.get_by_role("link", name="Revision 2").click()  # the draft (revision 1 is approved)
        page.screenshot(path=OUT / "03-assessment.png", full_page=True)
        page.get_by_role("link", name="Edit inputs").first.click()
        page.get_by_role("button", name="Save and next").click()  # step 1 as it is
        page.locator("input[name$='-TIMEapply_days']").fill("400")
        page.get_by_role("button", name="Save and next").click()
        page.screenshot(path=OUT / "04-wizard-error.png", full_page=True)
        page.locator("input[name$='-TIMEapply_days']").fill("360")
        page.get_by_role("button", name="Save and compute").click()
        page.screenshot(path=OUT / "05-results.png", full_page=True)
        browser.close()
    print(f"Screenshots in {OUT}/")


if __name__ == "__main__":
    main()
