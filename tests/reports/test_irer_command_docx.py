"""``manage.py irer --docx`` (and ``--sanitised --docx``): the Word document of the same
report (reports.docx), written where -o says, the full copy of a CBI case recorded in its
custody log, and the command's error naming the option."""

import pytest
from django.core.management import call_command

from assessments.management.commands.irer import DOCX_NOT_PDF
from audit.models import CbiAccess
from tests.reports.test_irer_docx import open_docx, package_text

pytestmark = pytest.mark.django_db


def test_docx_writes_the_word_document_of_the_report(sample_assessment, tmp_path, capsys):
    out = tmp_path / "IRER.docx"
    call_command("irer", "P-18-0123", "--docx", "-o", str(out))
    data = out.read_bytes()
    assert data.startswith(b"PK")  # a Word (OOXML) package
    text = package_text(data)
    assert "INITIAL REVIEW ENGINEERING REPORT" in text and "P-18-0123" in text
    assert open_docx(data).paragraphs  # python-docx opens it
    assert f"Wrote {out}" in capsys.readouterr().out


def test_sanitised_docx_withholds_every_claimed_value(cbi_assessment, tmp_path):
    full, sanitised = tmp_path / "full.docx", tmp_path / "sanitised.docx"
    call_command("irer", "P-26-0042", "--docx", "-o", str(full))
    call_command("irer", "P-26-0042", "--sanitised", "--docx", "-o", str(sanitised))
    assert "Tetrakis(ethylmethylamino)hafnium" in package_text(full.read_bytes())
    text = package_text(sanitised.read_bytes())
    for claimed in ("Tetrakis(ethylmethylamino)hafnium", "352535-01-4", "Deposition Materials Supplier"):
        assert claimed not in text
    assert "[CBI]" in text


def test_the_full_docx_of_a_cbi_case_is_recorded_in_its_custody_log(cbi_assessment, tmp_path):
    call_command("irer", "P-26-0042", "--docx", "-o", str(tmp_path / "full.docx"))
    call_command("irer", "P-26-0042", "--sanitised", "--docx", "-o", str(tmp_path / "sanitised.docx"))
    assert list(CbiAccess.objects.values_list("what", flat=True)) == ["irer_docx"]


def test_a_pdf_file_name_with_docx_is_refused_naming_the_option(sample_assessment, tmp_path, capsys):
    # Without -o the report goes to standard output or the download's name: tests/reports/test_irer_command_output.py
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", "P-18-0123", "--docx", "-o", "IRER.pdf")
    assert exit_info.value.code == 2 and DOCX_NOT_PDF.format(output="IRER.pdf") in capsys.readouterr().err
