"""Checking a PDF's seal: the page (login required, CSRF, a size limit, errors naming the
field, a case told only to a user who may see it) and ``manage.py irer verify FILE``."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils.html import escape

from assessments import views_seal, workflow
from assessments.models import SealedReport
from assessments.reports.seal import CLAIMS_CHANGED, NOT_SEALED, NOT_SEALED_FOR_USER
from assessments.views_seal import PDF_NOT_PDF, PDF_REQUIRED, PDF_TOO_LARGE

pytestmark = pytest.mark.django_db

URL = "/reports/verify/"


def approve(assessment, reviewer, supervisor):
    workflow.assessment_submit(assessment=assessment, by=reviewer, volume_reason="The uses are alternatives.")
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    assessment.refresh_from_db()
    return assessment


def sealed(assessment, copy="full") -> bytes:
    return bytes(SealedReport.objects.get(assessment=assessment, copy=copy).pdf)


def upload(client, data: bytes, name="IRER.pdf"):
    return client.post(URL, {"pdf": SimpleUploadedFile(name, data, content_type="application/pdf")})


@pytest.fixture
def approved(sample_assessment, reviewer, supervisor):
    return approve(sample_assessment, reviewer, supervisor)


@pytest.fixture
def approved_cbi(cbi_assessment, reviewer, supervisor):
    return approve(cbi_assessment, reviewer, supervisor)


def test_anonymous_user_is_sent_to_the_login_page(client):
    for response in (client.get(URL), client.post(URL, {})):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_page_has_a_labelled_file_field(client, uncleared_reviewer):
    client.force_login(uncleared_reviewer)
    page = client.get(URL).content.decode()
    assert '<label class="form-label" for="id_pdf">PDF file</label>' in page
    assert 'type="file" name="pdf" id="id_pdf"' in page and 'enctype="multipart/form-data"' in page


def test_a_post_without_the_csrf_token_is_refused(reviewer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    assert upload(client, b"%PDF-1.7\n").status_code == 403


def test_the_sealed_pdf_is_told_with_its_case_and_revision(client, approved, uncleared_reviewer):
    client.force_login(uncleared_reviewer)  # the sample case has no CBI claims: anyone may see it
    response = upload(client, sealed(approved))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Sealed and unchanged" in page and "case P-18-0123 revision 1" in page


def test_one_flipped_byte_is_told_it_matches_no_sealed_report_and_what_it_claims(client, approved, reviewer):
    pdf = sealed(approved)
    changed = pdf.replace(b"%%EOF", b"%%EOF\n% changed\n")
    client.force_login(reviewer)
    page = upload(client, changed).content.decode()
    assert escape(NOT_SEALED_FOR_USER) in page
    assert escape(CLAIMS_CHANGED.format(case_number="P-18-0123", revision=1)) in page


def test_an_uncleared_user_is_not_told_a_cbi_case(client, approved_cbi, uncleared_reviewer):
    client.force_login(uncleared_reviewer)
    for copy in ("full", "sanitised"):
        page = upload(client, sealed(approved_cbi, copy)).content.decode()
        assert escape(NOT_SEALED_FOR_USER) in page and "Sealed and unchanged" not in page
        assert "P-26-0042" not in page and "It says it is" not in page


def test_a_cleared_user_is_told_the_cbi_case(client, approved_cbi, reviewer):
    client.force_login(reviewer)
    page = upload(client, sealed(approved_cbi, "sanitised")).content.decode()
    assert "Sealed and unchanged" in page and "sealed sanitised copy of the IRER of case P-26-0042 revision 1" in page


def test_no_file_is_an_error_naming_the_field(client, reviewer):
    client.force_login(reviewer)
    response = client.post(URL, {})
    page = response.content.decode()
    assert response.status_code == 400 and 'id="error-summary"' in page
    assert f'<a href="#id_pdf">PDF file: {PDF_REQUIRED}</a>' in page


def test_a_file_that_is_not_a_pdf_is_an_error_naming_the_field(client, reviewer):
    client.force_login(reviewer)
    response = upload(client, b"hello", name="notes.txt")
    assert response.status_code == 400 and f"PDF file: {PDF_NOT_PDF}" in response.content.decode()


def test_a_file_over_the_limit_is_refused_unread(client, reviewer, monkeypatch):
    monkeypatch.setattr(views_seal, "CHECK_MAX_BYTES", 1000)
    client.force_login(reviewer)
    response = upload(client, b"%PDF-1.7\n" + b"0" * 5000)
    assert response.status_code == 400 and f"PDF file: {PDF_TOO_LARGE}" in response.content.decode()


def test_the_command_verifies_the_sealed_pdf_and_fails_a_changed_one(approved, tmp_path, capsys):
    good, bad = tmp_path / "good.pdf", tmp_path / "bad.pdf"
    pdf = sealed(approved)
    good.write_bytes(pdf)
    bad.write_bytes(pdf[:1000] + bytes([pdf[1000] ^ 1]) + pdf[1001:])
    call_command("irer", "verify", str(good))
    assert "case P-18-0123 revision 1" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", "verify", str(bad))
    assert exit_info.value.code == 1 and NOT_SEALED in capsys.readouterr().out


def test_the_command_names_a_missing_file_and_a_wrong_option(tmp_path, capsys):
    for args, text in ((["verify"], "FILE is required"),
                       (["verify", str(tmp_path / "none.pdf")], "FILE: there is no file"),
                       (["verify", str(tmp_path / "x.pdf"), "--sanitised"], "--sanitised: irer verify FILE takes no")):
        with pytest.raises(SystemExit) as exit_info:
            call_command("irer", *args)
        assert exit_info.value.code == 2 and text in capsys.readouterr().err
