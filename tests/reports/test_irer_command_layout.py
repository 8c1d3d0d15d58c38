"""``manage.py irer``'s layout options: ``--appendix`` / ``--no-appendix`` and ``--combine`` /
``--no-combine``, the revision's stored choices when not given; refused with ``irer verify``;
and an approved revision's sealed copy served only when no option asks for another layout
than the one approved (otherwise the copy drawn now, said on stderr)."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.management import call_command

from assessments.management.commands import irer
from assessments.management.commands.irer import NOT_THE_SEALED_COPY, VERIFY_OPTION
from assessments.models import Assessment, SealedReport
from tests.reports.conftest import pdf_pages, pdf_text
from tests.reports.test_irer_docx import package_text
from tests.reports.test_irer_verify import approve

pytestmark = pytest.mark.django_db

def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def layout_asked(tmp_path, *options: str) -> dict:
    """The layout ``irer`` asks the report for (``appendix``, ``combine``) given ``options``."""
    with mock.patch.object(irer, "irer_context", wraps=irer.irer_context) as spy:
        call_command("irer", "P-18-0123", "--docx", *options, "-o", str(tmp_path / "IRER.docx"))
    return {name: spy.call_args.kwargs[name] for name in ("appendix", "combine")}


def test_the_options_reach_the_report(sample_assessment, tmp_path):
    assert layout_asked(tmp_path) == {"appendix": None, "combine": None}  # the stored choices
    assert layout_asked(tmp_path, "--appendix", "--no-combine") == {"appendix": True, "combine": False}
    assert layout_asked(tmp_path, "--no-appendix", "--combine") == {"appendix": False, "combine": True}


def test_combine_stacks_the_releases_and_the_stored_choice_is_the_default(sample_assessment, tmp_path):
    def text(*options):
        out = tmp_path / "IRER.docx"
        call_command("irer", "P-18-0123", "--docx", *options, "-o", str(out))
        # the package's own creation time aside
        return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "", flat(package_text(out.read_bytes())))

    apart, combined = text("--no-combine"), text("--combine")
    assert apart != combined
    assert text() == apart  # not combined, as stored
    Assessment.objects.filter(pk=sample_assessment.pk).update(irer_combine_releases=True)
    assert text() == combined
    assert text("--no-combine") == apart


def test_no_appendix_leaves_a_drafts_appendix_out(sample_assessment, tmp_path):
    with_it, without = tmp_path / "with.pdf", tmp_path / "without.pdf"
    call_command("irer", "P-18-0123", "-o", str(with_it))  # a draft: printed, as the status decides
    call_command("irer", "P-18-0123", "--no-appendix", "-o", str(without))
    assert "calculation trace" in flat(pdf_text(with_it.read_bytes()))
    assert pdf_pages(without.read_bytes()) < pdf_pages(with_it.read_bytes())


@pytest.mark.parametrize("option", ["--appendix", "--no-appendix", "--combine", "--no-combine"])
def test_verify_takes_no_layout_option(tmp_path, capsys, option):
    with pytest.raises(SystemExit) as exit_info:
        call_command("irer", "verify", str(tmp_path / "IRER.pdf"), option)
    assert exit_info.value.code == 2 and VERIFY_OPTION.format(option=option) in capsys.readouterr().err


def test_an_approved_revision_gets_its_sealed_copy_unless_another_layout_is_asked_for(
        sample_assessment, reviewer, supervisor, tmp_path, capsys):
    approved = approve(sample_assessment, reviewer, supervisor)
    sealed = bytes(SealedReport.objects.get(assessment=approved, copy="full").pdf)
    out = tmp_path / "IRER.pdf"
    # The approved copy's stored layout: no appendix (as the status decides), not combined.
    for options in ((), ("--no-appendix",), ("--no-combine",), ("--no-appendix", "--no-combine")):
        call_command("irer", "P-18-0123", *options, "-o", str(out))
        assert out.read_bytes() == sealed, options
        captured = capsys.readouterr()
        assert "sealed at approval" in captured.out and "not the sealed copy" not in captured.err
    call_command("irer", "P-18-0123", "--appendix", "--no-combine", "-o", str(out))
    drawn = out.read_bytes()
    captured = capsys.readouterr()
    assert drawn != sealed and pdf_pages(drawn) > pdf_pages(sealed)  # the appendix's pages
    assert NOT_THE_SEALED_COPY.format(revision=1, options="--appendix") in captured.err
    assert "sealed at approval" not in captured.out
