"""The report cache (assessments.reports.cache): a PDF is drawn once and served from the
``reports`` storage while nothing it prints changes; an approved revision's file is
written once and never again; the CBI check comes before the cache; a storage that fails
fails the download with a message saying so, and never leaves or serves a partial file.
Downloads here run the drawing task at once (the test settings' immediate backend); the
queue itself is tests/reports/test_irer_queue.py."""

import datetime
import os
from unittest import mock

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.storage import FileSystemStorage
from django.utils import timezone

from assessments import services, workflow
from assessments.reports.services import irer_download
from assessments.reports.tasks import FAILED, NOT_STORED_MESSAGE
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db


def stored(folder) -> list:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def download(user, assessment, *, sanitised=False) -> bytes | None:
    return irer_download(user=user, assessment=assessment, sanitised=sanitised).pdf


def assert_not_stored(user, assessment):
    """The download has no PDF, and its task failed saying the report could not be stored."""
    result = irer_download(user=user, assessment=assessment, sanitised=False)
    assert result.pdf is None
    assert (result.render.state, result.render.message) == (FAILED, NOT_STORED_MESSAGE)


def approve(assessment, reviewer, supervisor):
    workflow.assessment_submit(assessment=assessment, by=reviewer)
    workflow.assessment_approve(assessment=assessment, by=supervisor)
    assessment.refresh_from_db()
    return assessment


def test_second_download_is_served_from_the_cache_without_rendering(report_cache, renders, reviewer, sample_assessment):
    first = download(reviewer, sample_assessment)
    second = download(reviewer, sample_assessment)
    assert renders.call_count == 1
    assert second == first and "P-18-0123" in pdf_text(second)
    assert [p.read_bytes() for p in stored(report_cache)] == [first]


def test_the_download_view_serves_the_cached_pdf(client, report_cache, renders, reviewer, sample_assessment):
    client.force_login(reviewer)
    responses = [client.get(f"/assessments/{sample_assessment.pk}/irer.pdf") for _ in range(2)]
    assert [r.status_code for r in responses] == [200, 200] and responses[0].content == responses[1].content
    assert responses[1]["Content-Disposition"] == 'attachment; filename="IRER-P-18-0123-r1.pdf"'
    assert renders.call_count == 1


def test_without_a_reports_storage_the_download_says_the_report_cannot_be_stored(
    settings, renders, reviewer, sample_assessment
):
    settings.STORAGES = {alias: conf for alias, conf in settings.STORAGES.items() if alias != "reports"}
    assert_not_stored(reviewer, sample_assessment)
    assert renders.call_count == 0  # nowhere to put it: not drawn at all


def recompute_with_other_input(assessment, reviewer):
    scenario = assessment.scenarios.get()
    scenario.inputs |= {"Fequip_disp": 0.02}
    scenario.reasons |= {"Fequip_disp": "Supplier's residue measurement."}
    scenario.save()
    services.scenario_compute(scenario=scenario, by=reviewer)


def edit_notes(assessment, reviewer):
    services.assessment_update_notes(assessment=assessment, by=reviewer, data={"notes": "Checked with the supplier."})


def claim_cbi(assessment, reviewer):
    submission = assessment.submission
    submission.cbi_claims = ["submitter"]
    submission.save()


@pytest.mark.parametrize("change", [recompute_with_other_input, edit_notes, claim_cbi])
def test_any_change_to_what_is_printed_renders_anew(change, report_cache, renders, reviewer, sample_assessment):
    before = download(reviewer, sample_assessment)
    change(sample_assessment, reviewer)
    assessment = type(sample_assessment).objects.get(pk=sample_assessment.pk)
    after = download(reviewer, assessment)
    assert renders.call_count == 2 and after != before
    assert len(stored(report_cache)) == 2
    assert download(reviewer, assessment) == after and renders.call_count == 2


def test_the_sanitised_copy_is_its_own_entry(report_cache, renders, reviewer, cbi_assessment):
    full = download(reviewer, cbi_assessment)
    sanitised = download(reviewer, cbi_assessment, sanitised=True)
    assert renders.call_count == 2 and len(stored(report_cache)) == 2
    assert "Tetrakis" in pdf_text(full) and "Tetrakis" not in pdf_text(sanitised)
    assert download(reviewer, cbi_assessment, sanitised=True) == sanitised and renders.call_count == 2


def test_approval_renders_anew(report_cache, renders, reviewer, supervisor, sample_assessment):
    draft = download(reviewer, sample_assessment)
    approved = download(reviewer, approve(sample_assessment, reviewer, supervisor))
    assert renders.call_count == 2 and approved != draft
    assert " by sup" in pdf_text(approved) and " by sup" not in pdf_text(draft)  # "Approved m/d/yyyy by sup"


def later(days: int):
    """``timezone.now`` in the report context, ``days`` from now."""
    moment = timezone.now() + datetime.timedelta(days=days)
    return mock.patch("assessments.reports.context.timezone.now", return_value=moment)


def test_the_approved_revisions_file_is_written_once_and_never_changes(
    report_cache, renders, reviewer, supervisor, sample_assessment
):
    """Drawn once, at approval, and sealed (reports.seal, tests/reports/test_sealed_irer.py):
    served from the sealed copy, so it never reaches the cache."""
    from assessments.models import SealedReport

    assessment = approve(sample_assessment, reviewer, supervisor)
    first = download(reviewer, assessment)
    assert first == bytes(SealedReport.objects.get(assessment=assessment).pdf)
    for days in (0, 1, 400):  # the print date moves on; the approved report does not
        with later(days):
            assert download(reviewer, assessment) == first
    assert renders.call_count == 1
    assert stored(report_cache) == []


def test_a_draft_prints_its_assessment_date_not_the_day_it_is_drawn(report_cache, renders, reviewer, sample_assessment):
    """As ChemSTEER's IRER ("Contractor Draft 2/15/2018"): the status line carries the
    assessment's date, so the same draft is the same file on another day, and a new
    assessment date draws a new one that prints it."""
    today = download(reviewer, sample_assessment)
    with later(1):
        tomorrow = download(reviewer, sample_assessment)
    assert renders.call_count == 1 and tomorrow == today
    sample_assessment.assessment_date = datetime.date(2018, 2, 15)
    sample_assessment.save()
    redated = download(reviewer, sample_assessment)
    assert renders.call_count == 2 and "Staff Draft 2/15/2018" in pdf_text(redated)


def test_uncleared_user_never_gets_the_cached_full_copy(client, report_cache, reviewer, uncleared_reviewer, cbi_assessment):
    download(reviewer, cbi_assessment)  # the full copy is in the cache
    assert len(stored(report_cache)) == 1
    with mock.patch.object(FileSystemStorage, "open") as read:
        with pytest.raises(PermissionDenied):
            download(uncleared_reviewer, cbi_assessment)
        client.force_login(uncleared_reviewer)
        assert client.get(f"/assessments/{cbi_assessment.pk}/irer.pdf").status_code == 404
    read.assert_not_called()


def test_a_failing_write_fails_the_download_with_a_message(report_cache, renders, reviewer, sample_assessment):
    with mock.patch.object(FileSystemStorage, "_save", side_effect=OSError(28, "No space left on device")):
        assert_not_stored(reviewer, sample_assessment)
    assert renders.call_count == 1 and stored(report_cache) == []
    assert "P-18-0123" in pdf_text(download(reviewer, sample_assessment))  # the next download, disk freed


def test_a_half_written_file_is_removed(report_cache, reviewer, sample_assessment):
    real_save = FileSystemStorage._save

    def write_half_then_fail(self, name, content):
        real_save(self, name, type(content)(content.read()[:1000]))
        raise OSError(28, "No space left on device")

    with mock.patch.object(FileSystemStorage, "_save", write_half_then_fail):
        assert_not_stored(reviewer, sample_assessment)
    assert stored(report_cache) == []


def test_a_failing_read_fails_the_download_with_a_message(report_cache, renders, reviewer, sample_assessment):
    first = download(reviewer, sample_assessment)
    with mock.patch.object(FileSystemStorage, "open", side_effect=PermissionError(13, "Permission denied")):
        assert_not_stored(reviewer, sample_assessment)
    assert download(reviewer, sample_assessment) == first  # readable again: served as stored
    assert [p.read_bytes() for p in stored(report_cache)] == [first]


def test_an_unwritable_folder_fails_the_download_with_a_message(settings, renders, reviewer, sample_assessment, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": blocker}},
    }
    assert_not_stored(reviewer, sample_assessment)
    assert blocker.read_text() == "a file where the cache folder should be"


def test_a_truncated_entry_is_drawn_again(report_cache, renders, reviewer, sample_assessment):
    first = download(reviewer, sample_assessment)
    [path] = stored(report_cache)
    path.write_bytes(first[: len(first) // 2])
    again = download(reviewer, sample_assessment)
    # Drawn again and stored whole. (Not compared byte for byte: without HarfBuzz's subsetter
    # WeasyPrint stamps the embedded font with the second it was drawn.)
    assert renders.call_count == 2 and path.read_bytes() == again
    assert again.startswith(b"%PDF-") and b"%%EOF" in again[-1024:]
    assert pdf_text(again) == pdf_text(first)


def test_production_settings_share_the_cache_through_the_database_or_keep_it_in_a_private_folder():
    from reviewer import settings as production
    from reviewer.report_storage import DATABASE_BACKEND, reports_storage_setting

    if not os.environ.get("REPORT_STORAGE"):
        assert production.STORAGES["reports"] == {"BACKEND": DATABASE_BACKEND}
    folder = reports_storage_setting({"REPORT_STORAGE": "filesystem"}, cache_dir=production.REPORT_CACHE_DIR)
    options = folder["OPTIONS"]
    assert options["location"] == production.REPORT_CACHE_DIR
    assert os.environ.get("REPORT_CACHE_DIR") or production.REPORT_CACHE_DIR == production.BASE_DIR / "report_cache"
    assert (options["file_permissions_mode"], options["directory_permissions_mode"]) == (0o600, 0o700)
