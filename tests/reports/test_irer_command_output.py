"""Where ``manage.py irer`` writes the report without ``-o``: the document's bytes, and nothing
else, to standard output when it is not a terminal (the "Wrote ..." line on stderr); the
download's file name in the current directory when it is one. And the refusal naming what
does not exist, in words that read."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from assessments.management.commands.irer import WROTE
from assessments.models import SealedReport
from tests.conftest import make_submission
from tests.reports.test_irer_docx import package_text
from tests.reports.test_irer_verify import approve

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def approved(sample_assessment, reviewer, supervisor):
    return approve(sample_assessment, reviewer, supervisor)


def test_without_output_the_sealed_pdf_goes_to_a_pipe_and_the_line_to_stderr(approved, capsysbinary):
    row = SealedReport.objects.get(assessment=approved, copy="full")
    call_command("irer", "P-18-0123", "--revision", "1")
    captured = capsysbinary.readouterr()
    assert captured.out == bytes(row.pdf)  # the file's bytes, and nothing else
    # after the download page's warnings, which go to stderr as ever
    assert captured.err.decode().splitlines()[-1] == (
        f"Wrote the report to standard output ({len(row.pdf):,} bytes): P-18-0123 revision 1, "
        f"sealed at approval, SHA-256 {row.sha256}."
    )


def test_without_output_the_word_document_goes_to_a_pipe(sample_assessment, capsysbinary):
    call_command("irer", "P-18-0123", "--docx")
    captured = capsysbinary.readouterr()
    assert captured.out.startswith(b"PK")  # a Word (OOXML) package, read whole below
    assert "INITIAL REVIEW ENGINEERING REPORT" in package_text(captured.out)
    assert captured.err.decode().splitlines()[-1] == (
        f"Wrote the report to standard output ({len(captured.out):,} bytes): P-18-0123 revision 1.")


def test_on_a_terminal_the_sealed_pdf_is_written_here_under_the_downloads_name(
        approved, client, reviewer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    row = SealedReport.objects.get(assessment=approved, copy="full")
    terminal = Terminal()
    call_command("irer", "P-18-0123", "--revision", "1", stdout=terminal)
    assert [path.name for path in tmp_path.iterdir()] == ["IRER-P-18-0123-r1.pdf"]
    assert (tmp_path / "IRER-P-18-0123-r1.pdf").read_bytes() == bytes(row.pdf)
    assert terminal.getvalue() == WROTE.format(
        target="IRER-P-18-0123-r1.pdf", size=len(row.pdf), case_number="P-18-0123", revision=1, sanitised="",
        how=f", sealed at approval, SHA-256 {row.sha256}") + "\n"
    client.force_login(reviewer)
    download = client.get(f"/assessments/{approved.pk}/irer.pdf")
    assert download["Content-Disposition"] == 'attachment; filename="IRER-P-18-0123-r1.pdf"'


@pytest.mark.parametrize("options, name, download", [
    (["--sanitised"], "IRER-P-26-0042-r1-sanitised.pdf", None),
    (["--docx"], "IRER-P-26-0042-r1.docx", "irer.docx"),
    (["--sanitised", "--docx"], "IRER-P-26-0042-r1-sanitised.docx", "irer.docx?copy=sanitised"),
])
def test_on_a_terminal_each_copy_is_written_under_its_downloads_name(
        cbi_assessment, client, reviewer, tmp_path, monkeypatch, options, name, download):
    monkeypatch.chdir(tmp_path)
    call_command("irer", "P-26-0042", *options, stdout=Terminal())
    assert [path.name for path in tmp_path.iterdir()] == [name]
    if download is not None:  # the Word download is drawn at once (the PDF's name: test_irer_views)
        client.force_login(reviewer)
        response = client.get(f"/assessments/{cbi_assessment.pk}/{download}")
        assert response["Content-Disposition"] == f'attachment; filename="{name}"'


@pytest.mark.parametrize("case_number, options, message", [
    ("P-99-0001", [], "There is no case P-99-0001."),
    ("P-99-0001", ["--revision", "2"], "There is no case P-99-0001."),
    ("P-26-0777", [], "There is no assessment of case P-26-0777."),
    ("P-18-0123", ["--revision", "7"], "There is no revision 7 of case P-18-0123."),
])
def test_the_refusal_names_what_does_not_exist(sample_assessment, tmp_path, capsys, case_number, options, message):
    make_submission(case_number="P-26-0777")  # a case with no assessment yet
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", case_number, *options, "-o", str(tmp_path / "r.pdf"))
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == message + "\n"
    assert not (tmp_path / "r.pdf").exists()
