"""Report downloads and preview in the browser, and the irer command."""

import pytest
from django.core.management import call_command

from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def test_download_is_a_pdf_named_after_case_and_revision(client, reviewer, sample_assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{sample_assessment.pk}/irer.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-18-0123-r1.pdf"'
    assert "P-18-0123" in pdf_text(response.content)


def test_sanitised_download_has_its_own_name(client, reviewer, cbi_assessment):
    client.force_login(reviewer)
    response = client.get(f"/assessments/{cbi_assessment.pk}/irer.pdf?copy=sanitised")
    assert response["Content-Disposition"] == 'attachment; filename="IRER-P-26-0042-r1-sanitised.pdf"'
    assert "Tetrakis" not in pdf_text(response.content)


def test_preview_is_the_same_report_as_html(client, reviewer, sample_assessment):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{sample_assessment.pk}/irer/").content.decode()
    assert "INITIAL REVIEW ENGINEERING REPORT" in html and "/static/css/irer.css" in html
    assert "1.6E-1 kg/site-day over 360 days/yr from 3 sites" in html


def test_uncleared_user_gets_404_for_any_copy_of_a_cbi_report(client, uncleared_reviewer, cbi_assessment):
    client.force_login(uncleared_reviewer)
    for url in ("irer.pdf", "irer.pdf?copy=sanitised", "irer/"):
        assert client.get(f"/assessments/{cbi_assessment.pk}/{url}").status_code == 404


def test_assessment_page_offers_the_downloads(client, reviewer, cbi_assessment):
    client.force_login(reviewer)
    html = client.get(f"/assessments/{cbi_assessment.pk}/").content.decode()
    assert f"/assessments/{cbi_assessment.pk}/irer.pdf?copy=sanitised" in html
    assert f"/assessments/{cbi_assessment.pk}/irer.pdf\"" in html


def test_irer_command_writes_the_pdf(sample_assessment, tmp_path):
    out = tmp_path / "r.pdf"
    call_command("irer", "P-18-0123", "-o", str(out))
    assert out.read_bytes().startswith(b"%PDF") and "P-18-0123" in pdf_text(out.read_bytes())


def test_irer_command_unknown_revision_exits_2(sample_assessment, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", "P-18-0123", "--revision", "7", "-o", str(tmp_path / "r.pdf"))
    assert exit_info.value.code == 2
    assert "There is no revision 7 of case P-18-0123." in capsys.readouterr().err
