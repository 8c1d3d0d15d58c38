"""Worker exposures on the pages: the assessment page's summary across all uses (one table,
a group of rows per use, activity and route, a column per characterisation, workers a site
and over all sites, days a year, TLV/PEL flags) and, on a use's results page, each
estimate's airborne concentration and doses beside its mg/day with the dose basis once.
A result stored before the engine reported doses says "not computed: recompute the use"
and prints no dose."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from assessments import exposure_limits, presentation, services
from assessments.exposure_limits import LimitCheck
from assessments.models import Scenario
from tests.conftest import make_assessment, make_submission

pytestmark = pytest.mark.django_db

BASIS = {"body_weight_kg": 80.0, "working_years": 40.0, "averaging_time_yr": 40.0,
         "averaging_time_cancer_yr": 70.0, "source": "EPA dose averages."}


def estimate(label, mg_day, mg_m3=None, ppm=None, doses=True):
    """An estimate as the engine's contract version 2 writes it; doses by hand with the
    basis above: APDR = mg/day / 80; ADD = mg/day × 250 × 40 / (80 × 40 × 365);
    LADD = the same over 70 years."""
    e = {"label": label, "mg_day": mg_day, "basis": f"{label} basis"}
    if doses:
        e |= {"mg_m3": mg_m3, "ppm": ppm, "apdr_mg_kg_day": mg_day / 80,
              "add_mg_kg_day": mg_day * 250 * 40 / (80 * 40 * 365), "ladd_mg_kg_day": mg_day * 250 * 40 / (80 * 70 * 365)}
    return e


def result(*, sites=3, doses=True, inhalation_mg_m3=(8.0, 0.4)):
    high, central = inhalation_mg_m3
    out = {
        "scenario": "photoresist-2010", "engine_version": "1.0.0", "inputs": {}, "facility": {},
        "facts": {"sites": sites, "sites_known": False, "operating_days": 360, "workers_per_site": 66,
                  "workers_basis": "b", "used_kg_yr": 5000.0},
        "releases": [], "totals_by_medium": {}, "trace": [], "warnings": [], "notes": [],
        "exposures": [
            {"letter": "A", "activity": "Unloading containers", "route": "inhalation", "model": "Mass Balance",
             "equation": "Eq B-7", "workers_per_site": 48, "days_per_year": 250,
             "estimates": [estimate("central tendency", central * 10, central, central / 8, doses),
                           estimate("high end", high * 10, high, high / 8, doses)]},
            {"letter": "A", "activity": "Unloading containers", "route": "dermal", "model": "1-Hand",
             "equation": "Eqn 5-3", "workers_per_site": 48, "days_per_year": 250,
             "estimates": [estimate("low end", 56.175, doses=doses), estimate("high end", 168.525, doses=doses)]},
        ],
    }
    if doses:
        out["dose_basis"] = BASIS
    return out


def add_use(assessment, title, result_, position=0):
    return Scenario.objects.create(
        assessment=assessment, scenario_key="photoresist-2010", title=title, position=position,
        result=result_, computed_inputs={}, computed_at=timezone.now(),
    )


@pytest.fixture
def assessment(reviewer):
    case = make_submission(tlv_pel_value=5.0, tlv_pel_unit="mg/m3", tlv_pel="ACGIH TLV", molecular_weight=200.0)
    assessment = make_assessment(case, reviewer)
    add_use(assessment, "Use one", result(sites=3), 0)
    add_use(assessment, "Use two", result(sites=2, inhalation_mg_m3=(2.0, 0.1)), 1)
    return assessment


def page(client, user, url) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)]


# The summary's rows, built once (presentation.exposure_summary) -------------------------------------


def test_one_group_per_use_activity_and_route_with_a_column_per_characterisation(assessment):
    summary = presentation.exposure_summary(assessment=assessment)
    assert summary["labels"] == ["low end", "central tendency", "high end"]
    keys = [(g["use"], g["letter"], g["route"]) for g in summary["groups"]]
    assert keys == [("Use one", "A", "inhalation"), ("Use one", "A", "dermal"),
                    ("Use two", "A", "inhalation"), ("Use two", "A", "dermal")]
    dermal = summary["groups"][1]
    mg_day = dermal["rows"][0]
    assert mg_day["unit"] == "mg/day" and mg_day["cells"] == [56.175, None, 168.525]
    assert [r["quantity"] for r in dermal["rows"]] == ["Potential dose rate", "APDR", "ADD", "LADD"]


def test_workers_over_all_sites_are_workers_a_site_times_the_sites(assessment):
    groups = presentation.exposure_summary(assessment=assessment)["groups"]
    assert [(g["workers_per_site"], g["sites"], g["workers_all_sites"]) for g in groups[::2]] == [(48, 3, 144), (48, 2, 96)]
    assert all(g["days_per_year"] == 250 for g in groups)


def test_inhalation_rows_carry_the_concentrations_and_the_tlv_pel_flag(assessment):
    inhalation = presentation.exposure_summary(assessment=assessment)["groups"][0]
    rows = {(r["quantity"], r["unit"]): r for r in inhalation["rows"]}
    assert rows[("Airborne concentration (8-h TWA)", "mg/m³")]["cells"] == [None, 0.4, 8.0]
    flags = rows[("TLV/PEL", "")]["cells"]
    assert flags[0] is None
    assert flags[1].text == "not above the TLV/PEL of 5 mg/m³"
    assert flags[2].text == "above the TLV/PEL of 5 mg/m³" and flags[2].above


def test_the_assessment_page_shows_the_summary_table(client, reviewer, assessment):
    html = page(client, reviewer, f"/assessments/{assessment.pk}/")
    section = html[html.index('id="exposure-summary"'):]
    section = section[:section.index("</section>")]
    assert "<caption" in section and '<th scope="rowgroup"' in section and '<th scope="col" class="text-end">Central tendency</th>' in section
    text = cells(section)
    assert "1. Use one" in text and "2. Use two" in text
    assert "144" in text and "96" in text  # 48 workers a site × 3 sites, × 2 sites
    assert "above the TLV/PEL of 5 mg/m³" in text and "not above the TLV/PEL of 5 mg/m³" in text
    # Dermal low end: 56.175 mg/day; APDR 56.175 / 80 = 0.702; ADD 0.481; LADD 0.275 (3 figures).
    assert {"56.2", "0.702", "0.481", "0.275"} <= set(text)
    assert "TLV/PEL of the case: 5 mg/m³" in section


def test_a_use_stored_before_doses_says_recompute_and_prints_no_dose(client, reviewer):
    assessment = make_assessment(make_submission(tlv_pel_value=5.0, tlv_pel_unit="mg/m3"), reviewer)
    add_use(assessment, "Old use", result(doses=False))
    summary = presentation.exposure_summary(assessment=assessment)
    dermal = summary["groups"][1]
    assert [r["kind"] for r in dermal["rows"]] == ["number", "span"]
    assert dermal["rows"][1]["cells"] == ["not computed: recompute the use"]
    html = page(client, reviewer, f"/assessments/{assessment.pk}/")
    section = html[html.index('id="exposure-summary"'):]
    assert "not computed: recompute the use" in section
    assert "0.702" not in section
    assert "not computed: recompute the use to compare it with the TLV/PEL of 5 mg/m³" in section


def test_uses_not_computed_are_named_not_summarised(client, reviewer, assessment):
    Scenario.objects.create(assessment=assessment, scenario_key="photoresist-2010", title="Unfinished", position=5)
    assert presentation.exposure_summary(assessment=assessment)["not_computed"] == ["Unfinished"]
    assert "Not in this summary, not computed yet: “Unfinished”" in page(client, reviewer, f"/assessments/{assessment.pk}/")


def test_a_stale_use_is_marked_not_current_in_the_summary(client, reviewer, assessment):
    use = assessment.scenarios.get(title="Use one")
    use.inputs = {"Qchem_yr": 1.0}
    use.save()
    groups = presentation.exposure_summary(assessment=assessment)["groups"]
    assert [g["not_current"] for g in groups] == [True, True, False, False]


# The results page: doses and concentrations beside each mg/day ------------------------------------


def test_the_results_page_prints_concentrations_doses_and_the_basis_once(client, reviewer, assessment):
    use = assessment.scenarios.get(title="Use one")
    html = page(client, reviewer, f"/scenarios/{use.pk}/")
    section = html[html.index('id="exposures-title"'):]
    section = section[:section.index("</section>")]
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', section)
    assert heads[6:12] == ["mg/day", "mg/m³", "ppm", "APDR", "ADD", "LADD"] and "TLV/PEL" in heads
    assert section.count("body weight 80 kg; 40 working years; averaging time 40 yr (ADD), 70 yr (LADD)") == 1
    text = cells(section)
    # High end inhalation: 80 mg/day, 8 mg/m³, 1 ppm, APDR 1, ADD 80 × 250 / (80 × 365) = 0.685, LADD 0.391.
    row = text[text.index("High end", text.index("Mass Balance Eq B-7")):][:9]
    assert row[:7] == ["High end", "80", "8", "1", "1", "0.685", "0.391"]
    assert row[7] == "above the TLV/PEL of 5 mg/m³"


def test_the_results_page_of_an_old_result_says_recompute(client, reviewer):
    assessment = make_assessment(make_submission(), reviewer)
    use = add_use(assessment, "Old use", result(doses=False))
    html = page(client, reviewer, f"/scenarios/{use.pk}/")
    assert "Doses (APDR, ADD, LADD) and airborne concentrations: not computed: recompute the use." in html
    assert ">APDR<" not in html and ">mg/m³<" not in html


def test_the_page_summary_and_report_take_the_flag_from_the_one_function(client, reviewer, assessment, monkeypatch):
    from assessments.reports.context import irer_context

    monkeypatch.setattr(exposure_limits, "check_estimate", lambda *a, **k: LimitCheck("above", "FLAG FROM THE ONE CHECK"))
    use = assessment.scenarios.get(title="Use one")
    assert "FLAG FROM THE ONE CHECK" in page(client, reviewer, f"/scenarios/{use.pk}/")
    assert "FLAG FROM THE ONE CHECK" in page(client, reviewer, f"/assessments/{assessment.pk}/")
    from tests.reports import reading

    context = irer_context(assessment=assessment)
    doses = reading.tables(context, "doses")[0]
    assert reading.rows(doses)[0][-1] == "FLAG FROM THE ONE CHECK"
    # The IRER prints each dose once, in its use's doses table: no summary table repeats them.
    assert not reading.tables(context, "summary")


# A real compute: a volatile chemical's inhalation estimates from vapour ---------------------------


def test_a_computed_volatile_use_is_flagged_against_a_ppm_limit(client, reviewer):
    """Photoresist 2010 with a volatile chemical (VP 5 torr, MW 100): the engine adds
    inhalation estimates from vapour, with mg/m³ and ppm; a 1 ppm limit flags the high end
    of equipment cleaning and not the central tendency of unloading."""
    case = make_submission(vapour_pressure_torr=5.0, molecular_weight=100.0, tlv_pel_value=1.0, tlv_pel_unit="ppm")
    assessment = make_assessment(case, reviewer)
    use = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2010", title="Volatile")
    services.scenario_compute(scenario=use, by=reviewer)
    use.refresh_from_db()
    inhalation = [x for x in use.result["exposures"] if x["route"] == "inhalation"]
    assert inhalation, "the engine gives inhalation estimates for a volatile chemical"
    rows = presentation.exposure_rows(result=use.result, submission=case)
    for exposure in rows:
        for e in exposure["estimates"]:
            if exposure["route"] == "dermal":
                assert e["limit"] is None
                continue
            # The engine's own ppm is mg/m³ × 24.45 / 100; the flag compares it with 1 ppm.
            assert e["ppm"] == pytest.approx(e["mg_m3"] * 24.45 / 100, rel=1e-9)
            assert e["limit"].above == (e["ppm"] > 1.0)
    states = {e["limit"].state for x in rows if x["route"] == "inhalation" for e in x["estimates"]}
    assert states == {"above", "not above"}
    html = page(client, reviewer, f"/assessments/{assessment.pk}/")
    assert "above the TLV/PEL of 1 ppm" in html and "not above the TLV/PEL of 1 ppm" in html
