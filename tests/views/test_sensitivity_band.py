"""The Monte Carlo band on the results page (issue 30), computed by the report workers
(``assessments.band_tasks``): the page's button POSTs to ``scenario-sensitivity-band``,
which enqueues the band once per key; the worker stores it in the report storage, and the
page then shows each chart's P5, P50 and P95 as the engine's ``sensitivity.analyse`` gives
them for the same inputs, samples and seed. With the test settings' immediate backend the
band is computed in the POST itself; the queue's tests switch to the database backend."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as project_settings
from django.contrib.messages import get_messages
from django.test import Client
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from assessments import band_tasks, services
from assessments.esd import sensitivity
from assessments.models import Scenario
from assessments.numbers import quantity
from assessments.reports import heartbeat
from assessments.sensitivity_view import BAND_ACTION, BAND_LABEL
from tests.conftest import make_assessment, make_submission
from tests.reports.test_irer_queue import run_worker
from tests.views.test_sensitivity_page import reads_as

pytestmark = pytest.mark.django_db

KEY = "photoresist-2010"
SAMPLES = 200  # few, so the test is quick; the product's default is 2,000
SEED = 7


@pytest.fixture
def band_storage(settings: Any, tmp_path: Path) -> Path:
    """A fresh report storage (the test settings' folder is shared by the whole run) and a
    small band."""
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}},
    }
    settings.SENSITIVITY_BAND_SAMPLES = SAMPLES
    settings.SENSITIVITY_BAND_SEED = SEED
    return tmp_path


@pytest.fixture
def scenario(reviewer: Any) -> Scenario:
    case = make_submission(production_volume_kg_yr=5000, use_concentration=0.15)
    scenario = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=KEY)
    return services.scenario_compute(scenario=scenario, by=reviewer)


def _url(scenario: Scenario) -> str:
    return f"/scenarios/{scenario.pk}/sensitivity-band/"


def _inputs(scenario: Scenario) -> dict[str, Any]:
    """The inputs a computed use's result was computed from."""
    inputs: dict[str, Any] | None = scenario.computed_inputs
    assert inputs is not None, "the use is computed"
    return inputs


def _page(client: Client, scenario: Scenario, charts: bool = False) -> str:
    response = client.get(f"/scenarios/{scenario.pk}/{'sensitivity/' if charts else ''}")
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def _messages(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_page_offers_the_band_when_none_is_stored(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    client.force_login(reviewer)
    page = _page(client, scenario)
    assert re.search(rf'<form method="post" action="{_url(scenario)}"[^>]*id="sensitivity-band-form"', page)
    assert BAND_ACTION in page and "sensitivity-band-table" not in page


def test_a_post_computes_the_band_and_the_page_shows_the_engines_percentiles(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    client.force_login(reviewer)
    response = client.post(_url(scenario))
    assert response.status_code == 302 and response["Location"] == f"/scenarios/{scenario.pk}/#sensitivity"
    assert _messages(response) == [band_tasks.BAND_COMPUTED]
    page = _page(client, scenario)
    label = BAND_LABEL.format(samples=SAMPLES, seed=SEED)
    assert f"{label}." in page and 'id="sensitivity-band-form"' not in page
    # The case's concentration (0.15) is held: the page says so, by the input's name.
    assert "the inputs the case sets are held at its values: " in page
    held = page[page.index("held at its values: "):]
    assert "(Fchem)" in held[:held.index("</p>")]
    summary = page[page.index('id="sensitivity-summary"'):]
    summary_rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", summary[:summary.index("</table>")], re.S)
    page = _page(client, scenario, charts=True)
    assert f"{label}." in page and 'id="sensitivity-band-form"' not in page
    analysed = sensitivity.analyse(KEY, _inputs(scenario), samples=SAMPLES, seed=SEED)
    charted = [o for o in analysed["outputs"] if o["drivers"]]
    assert charted and all("band" in o for o in charted), "the photoresist use has two or more ranged inputs"
    for n, output in enumerate(charted, start=1):
        start = page.index(f'id="sensitivity-{n}-band"')
        table = page[start:page.index("</table>", start)]
        units = sensitivity.UNITS[output["quantity"]]
        band = output["band"]
        assert band["samples"] > 0 and band["seed"] == SEED
        cells = re.findall(r'<td class="text-end[^"]*">([^<]*)</td>', table)
        assert (cells[0], cells[4]) == (quantity(output["base"], units), str(band["samples"]))
        # P5, P50 and P95: the engine's, printed apart (three figures or more).
        p5, p50, p95 = (c.removesuffix(f" {units}") for c in cells[1:4])
        assert all(reads_as(text, band[p]) for text, p in ((p5, "p5"), (p50, "p50"), (p95, "p95")))
        assert len({p5, p50, p95}) == len({band["p5"], band["p50"], band["p95"]})
        assert label in table
        # The results page's summary gives the same band, P5 to P95.
        assert f"{cells[1]} to {cells[3]}</td>" in summary_rows[n - 1]


def test_the_stored_band_is_the_engines_under_a_key_of_what_it_depends_on(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    client.force_login(reviewer)
    client.post(_url(scenario))
    key = band_tasks.band_key(scenario_key=KEY, inputs=_inputs(scenario), samples=SAMPLES, seed=SEED)
    [stored] = (band_storage / "band").iterdir()
    assert stored.name == f"{key}.json"
    saved = json.loads(stored.read_text())
    analysed = sensitivity.analyse(KEY, _inputs(scenario), samples=SAMPLES, seed=SEED)
    assert saved["engine_version"] == analysed["engine_version"]
    assert (saved["samples"], saved["seed"]) == (SAMPLES, SEED)
    found = sensitivity.study(KEY, _inputs(scenario), samples=SAMPLES, seed=SEED)
    assert (saved["varied"], saved["held"]) == (found.band_varied, found.band_held) and "Fchem" in saved["held"]
    expected = [{"id": o["id"], "estimate": o["estimate"], "quantity": o["quantity"], "p5": o["band"]["p5"],
                 "p50": o["band"]["p50"], "p95": o["band"]["p95"], "samples": o["band"]["samples"]}
                for o in analysed["outputs"] if "band" in o]
    assert saved["outputs"] == expected
    # Another seed, other inputs: another key.
    assert key != band_tasks.band_key(scenario_key=KEY, inputs=_inputs(scenario), samples=SAMPLES, seed=SEED + 1)
    assert key != band_tasks.band_key(scenario_key=KEY, inputs={**_inputs(scenario), "Nshifts": 2},
                                      samples=SAMPLES, seed=SEED)


def test_a_band_is_written_once(client: Client, reviewer: Any, scenario: Scenario, band_storage: Path) -> None:
    client.force_login(reviewer)
    client.post(_url(scenario))
    [stored] = (band_storage / "band").iterdir()
    stored.write_text(json.dumps({**json.loads(stored.read_text()), "note": "kept"}))
    client.post(_url(scenario))
    assert json.loads(stored.read_text())["note"] == "kept" and len(list((band_storage / "band").iterdir())) == 1


def test_a_band_cut_short_is_not_shown_and_is_written_again(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    client.force_login(reviewer)
    client.post(_url(scenario))
    [stored] = (band_storage / "band").iterdir()
    whole = stored.read_text()
    stored.write_text(whole[: len(whole) // 2])  # a worker killed mid-write, a full disk
    assert 'id="sensitivity-band-form"' in _page(client, scenario) and not stored.exists()
    client.post(_url(scenario))
    assert stored.read_text() == whole


def test_the_sensitivity_pages_button_comes_back_to_it(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    client.force_login(reviewer)
    page = _page(client, scenario, charts=True)
    assert '<input type="hidden" name="back" value="charts">' in page
    response = client.post(_url(scenario), {"back": "charts"})
    assert response.status_code == 302 and response["Location"] == f"/scenarios/{scenario.pk}/sensitivity/"
    # Anything else goes back to the results.
    response = client.post(_url(scenario), {"back": "https://elsewhere.example/"})
    assert response["Location"] == f"/scenarios/{scenario.pk}/#sensitivity"


def test_a_get_is_refused(client: Client, reviewer: Any, scenario: Scenario, band_storage: Path) -> None:
    client.force_login(reviewer)
    assert client.get(_url(scenario)).status_code == 405


def test_an_anonymous_post_goes_to_the_login_page(client: Client, scenario: Scenario, band_storage: Path) -> None:
    response = client.post(_url(scenario))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not band_storage.joinpath("band").exists()


def test_an_uncleared_user_gets_404_on_a_cbi_case(
    client: Client, reviewer: Any, uncleared_reviewer: Any, band_storage: Path
) -> None:
    case = make_submission(cbi_claims=["chemical_name"])
    case.refresh_from_db()
    assert case.is_cbi
    use = services.scenario_add(assessment=make_assessment(case, reviewer), by=reviewer, scenario_key=KEY)
    use = services.scenario_compute(scenario=use, by=reviewer)
    client.force_login(uncleared_reviewer)
    assert client.post(_url(use)).status_code == 404
    assert not band_storage.joinpath("band").exists()


def test_a_use_whose_inputs_changed_is_refused_with_the_reason(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    scenario.inputs = {**scenario.inputs, "Nshifts": 2}
    scenario.save()
    client.force_login(reviewer)
    response = client.post(_url(scenario))
    assert response.status_code == 302 and _messages(response) == [band_tasks.BAND_NOT_CURRENT]
    assert not band_storage.joinpath("band").exists()


# The report queue (the production backend) --------------------------------------------------


@pytest.fixture
def queue(settings: Any, band_storage: Path) -> Path:
    settings.TASKS = project_settings.QUEUE_TASKS  # type: ignore[misc]  # a setting of the project's own
    return band_storage


def _band_tasks() -> Any:
    return DBTaskResult.objects.filter(task_path=band_tasks.sensitivity_band.module_path)


def test_asking_twice_enqueues_one_task_and_a_worker_stores_the_band(
    client: Client, reviewer: Any, scenario: Scenario, queue: Path
) -> None:
    heartbeat.register(worker_id="test-worker")
    client.force_login(reviewer)
    assert _messages(client.post(_url(scenario))) == [band_tasks.BAND_QUEUED]
    assert 'id="sensitivity-band-form"' in _page(client, scenario)  # not computed yet (the page shows the message)
    assert _messages(client.post(_url(scenario))) == [band_tasks.BAND_QUEUED]
    [task] = _band_tasks()
    assert task.status == TaskResultStatus.READY
    _page(client, scenario)
    run_worker()
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL
    assert "sensitivity-band-table" in _page(client, scenario, charts=True)
    # Stored now: asking again enqueues nothing.
    assert _messages(client.post(_url(scenario))) == [band_tasks.BAND_COMPUTED] and _band_tasks().count() == 1


def test_with_no_report_worker_running_the_page_says_so(
    client: Client, reviewer: Any, scenario: Scenario, queue: Path
) -> None:
    client.force_login(reviewer)
    response = client.post(_url(scenario))
    seconds = int(heartbeat.silent_after().total_seconds())
    assert _messages(response) == [band_tasks.BAND_NO_WORKER.format(seconds=seconds)]
    assert _band_tasks().count() == 1


def test_the_pages_call_the_band_by_one_name(
    client: Client, reviewer: Any, scenario: Scenario, band_storage: Path
) -> None:
    """The band was the "illustrative band" in some sentences and the "Monte Carlo band" in
    others (issue 41): the results page and the sensitivity page, before the band is computed
    (its offer), after (its label, each chart's row and table) and with the button's message,
    use one name, visible text and labels alike."""
    client.force_login(reviewer)
    pages = [_page(client, scenario), _page(client, scenario, charts=True)]
    response = client.post(_url(scenario), {"back": "charts"}, follow=True)
    pages.append(html_lib.unescape(response.content.decode()))
    assert band_tasks.BAND_COMPUTED in pages[-1] and 'class="tornado-band"' in pages[-1]
    pages.append(_page(client, scenario))
    for page in pages:
        assert {name for name in ("Monte Carlo band", "illustrative band") if name.lower() in page.lower()} == {
            "Monte Carlo band"}
