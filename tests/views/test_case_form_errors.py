"""The case form (about 2,700 px tall) says at its top what to correct: an error summary
focused when the page loads, each error a link to its field with the field's label, the
form's own errors too; each field's error is tied to its input (aria-invalid,
aria-describedby). A case number already used is said in a reviewer's words, with the
number."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from lxml import html

from assessments import services
from assessments.models import Submission
from tests.conftest import make_submission
from tests.views.test_cases import VALID

pytestmark = pytest.mark.django_db

BAD = {
    **VALID,
    "production_volume_kg_yr": "0",  # clean_production_volume_kg_yr
    "molecular_weight": "1,5",  # a decimal comma
    "submitter": "",  # required
}


def summary_of(response) -> html.HtmlElement:
    page = html.fromstring(response.content.decode())
    found = page.xpath("//*[@id='error-summary']")
    assert len(found) == 1, "no error summary on the page"
    return found[0], page


def test_summary_lists_each_error_as_a_link_to_its_field_with_its_label(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", BAD)
    assert response.status_code == 200
    summary, _ = summary_of(response)
    links = [(a.get("href"), a.text_content().strip()) for a in summary.xpath(".//li/a")]
    # In the page's order: Case (submitter), Volume (production volume), properties (molecular weight).
    assert links == [
        ("#id_submitter", "Submitter: This field is required."),
        ("#id_production_volume_kg_yr", "Production volume (kg/yr): The production volume must be greater than 0 kg/yr."),
        ("#id_molecular_weight",
         "Molecular weight (g/mol): Enter a number: use a decimal point, not a comma (1.5, not 1,5)."),
    ]
    assert summary.xpath("string(.//h2)").strip() == "The case was not saved: 3 things need correcting"
    assert not Submission.objects.exists()


def test_summary_comes_before_the_form_and_is_focused_by_a_static_script(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", BAD)
    summary, page = summary_of(response)
    assert summary.get("tabindex") == "-1" and summary.get("aria-labelledby") == "error-summary-title"
    assert "data-error-summary" in summary.attrib
    form = page.xpath("//form[@method='post' and @novalidate]")[0]
    assert summary.getnext() is form  # read before the fields
    scripts = [s.get("src") for s in page.xpath("//script")]
    assert "/static/js/error-summary.js" in scripts
    assert all(s.get("src") for s in page.xpath("//script"))  # no inline script (CSP script-src 'self')


def test_each_erroneous_field_is_tied_to_its_error_text(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", BAD)
    _, page = summary_of(response)
    for name, message in (
        ("submitter", "This field is required."),
        ("production_volume_kg_yr", "The production volume must be greater than 0 kg/yr."),
        ("molecular_weight", "Enter a number: use a decimal point, not a comma (1.5, not 1,5)."),
    ):
        field = page.xpath(f"//*[@id='id_{name}']")[0]
        assert field.get("aria-invalid") == "true"
        described = field.get("aria-describedby").split()
        error_id = f"id_{name}_error"
        assert error_id in described
        assert page.xpath(f"string(//*[@id='{error_id}'])").strip() == message
    valid = page.xpath("//*[@id='id_case_number']")[0]
    assert valid.get("aria-invalid") is None


def test_no_summary_without_errors(client, reviewer):
    client.force_login(reviewer)
    response = client.get("/cases/new/")
    assert 'id="error-summary"' not in response.content.decode()


def test_the_forms_own_errors_are_in_the_summary_without_a_link(client, reviewer):
    """Saved in another tab meanwhile: an error of the whole form."""
    case = make_submission(case_number="P-26-0501")
    client.force_login(reviewer)
    seen = client.get(f"/cases/{case.pk}/edit/").context["form"]["version_seen"].value()
    case.submitter = "Saved in another tab"
    case.save()
    response = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": "P-26-0501", "version_seen": seen})
    summary, _ = summary_of(response)
    items = summary.xpath(".//li")
    assert [li.text_content().strip() for li in items] == [services.STALE_EDIT.format(what="case")]
    assert items[0].xpath(".//a") == []


def test_the_summary_says_one_thing(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/cases/new/", {**VALID, "production_volume_kg_yr": "0"})
    summary, _ = summary_of(response)
    assert summary.xpath("string(.//h2)").strip() == "The case was not saved: one thing needs correcting"


# The case number already used ------------------------------------------------------------------


def test_a_case_number_in_use_is_said_with_the_number_not_the_models_name(client, reviewer):
    make_submission(case_number="P-26-0500")
    client.force_login(reviewer)
    response = client.post("/cases/new/", VALID)
    assert response.status_code == 200
    expected = "A case with this case number already exists: P-26-0500."
    assert response.context["form"].errors["case_number"] == [expected]
    body = response.content.decode()
    assert "Submission with this" not in body
    summary, _ = summary_of(response)
    assert summary.xpath(".//li/a")[0].get("href") == "#id_case_number"
    assert summary.xpath("string(.//li/a)").strip() == f"Case number: {expected}"
    assert Submission.objects.count() == 1


def test_renumbering_a_case_to_a_number_in_use_is_refused_in_the_same_words(client, reviewer):
    make_submission(case_number="P-26-0500")
    case = make_submission(case_number="P-26-0502")
    client.force_login(reviewer)
    response = client.post(f"/cases/{case.pk}/edit/", {**VALID, "case_number": "P-26-0500"})
    assert response.status_code == 200
    assert response.context["form"].errors["case_number"] == ["A case with this case number already exists: P-26-0500."]
    case.refresh_from_db()
    assert case.case_number == "P-26-0502"


def test_the_service_says_it_in_the_same_words(reviewer):
    make_submission(case_number="P-26-0500")
    data = {"case_number": "P-26-0500", "submitter": "S", "chemical_name": "C", "generic_name": "G",
            "production_volume_kg_yr": 10.0, "use_description": "U"}
    with pytest.raises(ValidationError) as error:
        services.submission_create(by=reviewer, data=data, cbi_claims=[])
    assert error.value.message_dict == {"case_number": ["A case with this case number already exists: P-26-0500."]}
