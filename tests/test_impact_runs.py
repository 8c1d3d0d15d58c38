"""A change measured over the stored assessments on the report workers (``assessments.impact_runs``),
and the supervisors' engine-change page that starts it, follows it and shows what it moved.

The test settings' task backend runs a task at once, so a run started in a test is done when the
transaction's on-commit callbacks have run (``django_capture_on_commit_callbacks(execute=True)``).
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from assessments import impact, impact_runs
from assessments.impact_engines import OLDER, Against
from assessments.models import Assessment, ImpactPart, ImpactRun, ImpactUse, Scenario, Submission
from assessments.roles import SUPERVISOR_GROUP
from benchmarks._sample import sample_assessment

from .conftest import make_user
from .test_esd_impact import CHANGE


def started(capture, *, by, kind=ImpactRun.Kind.OVERRIDE, overrides=(CHANGE,)) -> ImpactRun:
    with capture(execute=True):
        run = impact_runs.start_run(by=by, kind=kind, overrides=overrides)
    run.refresh_from_db()
    return run


def rows_of(run: ImpactRun) -> list[tuple[str, int, int, list]]:
    return sorted((row.submission.case_number, row.assessment.revision, row.position, row.moves)
                  for row in run.uses.select_related("submission", "assessment"))


def cli_rows(found: impact.Impact) -> list[tuple[str, int, int, list]]:
    rows = []
    for case in found.cases:
        for use in sorted({m.use for m in case.moves}):
            rows.append((case.case, case.revision, use, [m.as_dict() for m in case.moves if m.use == use]))
    return sorted(rows)


def make_older(assessment: Assessment, *, version: str = "1.1.0", kg_yr: float = 31.0) -> Scenario:
    """The assessment's first use as an earlier engine stored it (another figure, another version)."""
    use = assessment.scenarios.first()
    stored = dict(use.result)
    stored["engine_version"] = version
    stored["releases"][0]["estimates"][0]["kg_year_all_sites"] = kg_yr
    Scenario.objects.filter(pk=use.pk).update(result=stored)
    return use


def mark_approved(assessment: Assessment, supervisor) -> None:
    """The revision's row as approved (the workflow's approval also seals a PDF: not needed here)."""
    Assessment.objects.filter(pk=assessment.pk).update(status="approved", approved_by=supervisor,
                                                        approved_at=timezone.now())
    assessment.refresh_from_db()


@pytest.fixture
def cases(reviewer):
    return [sample_assessment(reviewer, case_number=f"P-26-{n:04d}") for n in range(1, 6)]


@pytest.mark.django_db
def test_a_run_on_the_workers_records_what_esd_impact_prints(cases, supervisor, settings,
                                                             django_capture_on_commit_callbacks):
    settings.IMPACT_RUN_PARTS = 3
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    assert run.finished_at is not None and run.failed == ""
    parts = list(run.parts.all())
    assert len(parts) == 3 and all(p.finished_at and p.done == p.uses for p in parts)
    assert sum(p.uses for p in parts) == 5
    assert rows_of(run) == cli_rows(impact.impact(overrides=impact.parse_overrides([CHANGE])))
    row = run.uses.first()
    assert (row.action, row.status, row.crossed) == ("recompute", "draft", True)
    assert row.largest == pytest.approx((0.01 / 0.99) / (0.006 / 0.994) - 1, rel=1e-9)
    found = impact_runs.progress(run)
    assert (found.done, found.uses, found.parts_done, found.parts, found.percent) == (5, 5, 3, 3, 100)


@pytest.mark.django_db
def test_a_part_replayed_again_writes_the_same_rows_once(cases, supervisor, django_capture_on_commit_callbacks):
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    before = rows_of(run)
    for part in run.parts.all():
        impact_runs.replay_part(part)  # a worker lost mid-part: its task is put back and drawn again
    assert rows_of(run) == before and run.uses.count() == 5


@pytest.mark.django_db
def test_an_engine_run_measures_only_results_an_earlier_engine_stored(cases, supervisor,
                                                                     django_capture_on_commit_callbacks):
    older = make_older(cases[2])
    run = started(django_capture_on_commit_callbacks, by=supervisor, kind=ImpactRun.Kind.ENGINE, overrides=())
    assert run.change == {"overrides": [], "stored_by": OLDER}
    (row,) = run.uses.all()
    assert (row.scenario_id, row.stored_by, row.moves[0]["old"]) == (older.pk, "1.1.0", 31.0)
    assert rows_of(run) == cli_rows(impact.impact(overrides=[], against=Against(stored_by=OLDER)))


@pytest.mark.django_db
def test_an_engine_run_with_nothing_older_is_refused_and_writes_nothing(cases, supervisor):
    with pytest.raises(ValidationError, match="Every stored result was computed by the installed engine"):
        impact_runs.start_run(by=supervisor, kind=ImpactRun.Kind.ENGINE)
    assert not ImpactRun.objects.exists()


@pytest.mark.django_db
def test_only_a_supervisor_measures_or_reads(cases, reviewer):
    for call in (lambda: impact_runs.start_run(by=reviewer, kind="override", overrides=[CHANGE]),
                 lambda: impact_runs.latest_run(user=reviewer), lambda: impact_runs.recent_runs(user=reviewer)):
        with pytest.raises(PermissionDenied):
            call()
    assert not ImpactRun.objects.exists()


@pytest.mark.django_db
def test_bad_overrides_are_named_and_nothing_is_written(supervisor):
    with pytest.raises(ValidationError) as refused:
        impact_runs.start_run(by=supervisor, kind="override", overrides=["photoresist-2018.nope=1"])
    assert refused.value.message_dict == {"overrides": [
        "'photoresist-2018.nope=1': 'nope' is not an input of photoresist-2018"]}
    with pytest.raises(ValidationError) as empty:
        impact_runs.start_run(by=supervisor, kind="override", overrides=[])
    assert "at least one changed default" in str(empty.value)
    with pytest.raises(ValidationError) as kind:
        impact_runs.start_run(by=supervisor, kind="sideways")
    assert list(kind.value.message_dict) == ["kind"]
    assert not ImpactRun.objects.exists()


@pytest.mark.django_db
def test_one_run_at_a_time(cases, supervisor):
    impact_runs.start_run(by=supervisor, kind="override", overrides=[CHANGE])  # its tasks wait for the commit
    with pytest.raises(ValidationError, match="A measure is under way"):
        impact_runs.start_run(by=supervisor, kind="override", overrides=[CHANGE])
    assert ImpactRun.objects.count() == 1


@pytest.mark.django_db
def test_a_part_that_fails_stops_the_run_with_its_reason(cases, supervisor, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(impact_runs, "assessment_impact", broken)
    started(django_capture_on_commit_callbacks, by=supervisor)  # the task fails; the backend records it
    run = ImpactRun.objects.get()
    assert run.failed == "Part 1 stopped: RuntimeError: disk full" and run.finished_at is None
    assert not ImpactRun.objects.filter(finished_at__isnull=True, failed="").exists()  # a new run may start


def test_cut_keeps_an_assessment_whole_and_the_parts_even():
    assert impact_runs.cut([1, 2, 2, 2, 3, 4, 5, 6], 4) == [(1, 2, 4), (3, 4, 2), (5, 6, 2)]
    ids = sorted(n // 3 for n in range(3000))
    parts = impact_runs.cut(ids, 8)
    assert sum(p[2] for p in parts) == 3000 and len(parts) == 8
    assert all(a[1] < b[0] for a, b in itertools.pairwise(parts))


# --- the page ------------------------------------------------------------------------------


def page(client, user, **params) -> str:
    client.force_login(user)
    response = client.get(reverse("engine-changes"), params)
    assert response.status_code == 200
    return response.content.decode()


def without_tokens(html: str) -> str:
    """The page less its CSRF tokens (new for every response)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.django_db
def test_the_page_starts_a_run_and_shows_its_moves(client, cases, supervisor, django_capture_on_commit_callbacks):
    client.force_login(supervisor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("engine-change-start"), {"kind": "override", "overrides": CHANGE + "\n"})
    run = ImpactRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("engine-changes") + f"?run={run.pk}"
    text = visible_text(page(client, supervisor, run=run.pk))
    assert "Cases moved 5" in text and "Uses crossing a review threshold 5" in text
    assert "Release 1, high end → what-if, kg/yr, all sites: 30.2 → 50.5 (+67.3 %) rank changed" in text
    progress = client.get(reverse("engine-change-progress", args=[run.pk])).json()
    assert progress == {"finished": True, "failed": "", "percent": 100,
                        "text": "5 of 5 uses replayed (5 of 5 parts done)."}


@pytest.mark.django_db
def test_the_page_refuses_a_reviewer(client, reviewer):
    client.force_login(reviewer)
    assert client.get(reverse("engine-changes")).status_code == 403
    assert client.post(reverse("engine-change-start"), {"kind": "engine"}).status_code == 403
    assert not ImpactRun.objects.exists()


@pytest.mark.django_db
def test_the_filters_narrow_the_moves_and_a_bad_one_is_named(client, cases, supervisor,
                                                             django_capture_on_commit_callbacks):
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    mark_approved(cases[0], supervisor)
    ImpactUse.objects.filter(assessment=cases[0]).update(status="approved", action="note only")
    assert "Cases moved 4" in visible_text(page(client, supervisor, run=run.pk))
    assert "Cases moved 1" in visible_text(page(client, supervisor, run=run.pk, status="approved"))
    assert "Cases moved 5" in visible_text(page(client, supervisor, run=run.pk, status="all"))
    assert "Cases moved 0" in visible_text(page(client, supervisor, run=run.pk, scenario="cvd-2015"))
    bad = page(client, supervisor, run=run.pk, status="sideways", engineer="x")
    assert "Status must be one of: open, approved, all." in bad and "Engineer must be one of" in bad


@pytest.mark.django_db
def test_an_uncleared_supervisor_sees_the_same_page_with_or_without_cbi_cases(
        client, cases, supervisor, django_user_model, django_capture_on_commit_callbacks):
    """Two workloads that differ only in CBI cases look the same to an uncleared supervisor: the
    CBI cases' rows are in no count and no row of the page."""
    uncleared = make_user(django_user_model, "sup-uncleared", group=SUPERVISOR_GROUP)
    for assessment in cases[3:]:
        Submission.objects.filter(pk=assessment.submission_id).update(is_cbi=True, cbi_claims=["specific_name"])
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    for status in ("open", "all"):
        with_cbi = page(client, uncleared, run=run.pk, status=status)
        assert "Cases moved 3" in visible_text(with_cbi) and "P-26-0004" not in with_cbi
        assert "Cases moved 5" in visible_text(page(client, supervisor, run=run.pk, status=status))
    # The other workload: the same without the CBI cases' rows.
    saved = list(ImpactUse.objects.filter(submission__is_cbi=True).values_list("pk", flat=True))
    with_cbi = without_tokens(page(client, uncleared, run=run.pk, status="all"))
    ImpactUse.objects.filter(pk__in=saved).delete()
    assert without_tokens(page(client, uncleared, run=run.pk, status="all")) == with_cbi
    # Its progress counts parts, not uses (the uses replayed include the CBI cases').
    progress = client.get(reverse("engine-change-progress", args=[run.pk])).json()
    assert progress["text"] == "5 of 5 parts done." and progress["percent"] == 100


@pytest.mark.django_db
def test_an_approved_revision_is_noted_never_changed(client, cases, supervisor, django_capture_on_commit_callbacks):
    approved = cases[1]
    use = make_older(approved)  # as the earlier engine stored it, before the approval made it final
    mark_approved(approved, supervisor)
    before = json.dumps(Scenario.objects.get(pk=use.pk).result, sort_keys=True)
    history_before = Scenario.history.filter(id=use.pk).count()
    run = started(django_capture_on_commit_callbacks, by=supervisor, kind=ImpactRun.Kind.ENGINE, overrides=())
    (note,) = impact_runs.approved_notes(assessment=approved)
    assert (note.run.pk, note.revision) == (run.pk, 1)
    (sentence,) = note.sentences
    assert sentence == ("Release 1, high end, kg/yr, all sites (use 1): engine 1.2.0 would print 30.2 "
                        "instead of 31")
    assert note.text.startswith("Engine 1.2.0 would print 1 figure of this approved revision differently")
    assert json.dumps(Scenario.objects.get(pk=use.pk).result, sort_keys=True) == before
    assert Scenario.history.filter(id=use.pk).count() == history_before
    assert impact_runs.approved_notes(assessment=cases[0]) == []  # a draft has no note
    # On the case page and in the revision's history.
    client.force_login(supervisor)
    case_page = visible_text(client.get(reverse("submission-detail", args=[approved.submission_id])).content.decode())
    assert "Notes from later engines" in case_page and sentence in case_page
    history = visible_text(client.get(reverse("assessment-history", args=[approved.pk])).content.decode())
    assert "Noted Assessment revision 1" in history
    assert "Release 1, high end, kg/yr, all sites (use 1)" in history and "30.2 with engine 1.2.0" in history
    # A later measure of the same release replaces the note; a draft's case page has none.
    again = started(django_capture_on_commit_callbacks, by=supervisor, kind=ImpactRun.Kind.ENGINE, overrides=())
    assert [n.run.pk for n in impact_runs.approved_notes(assessment=approved)] == [again.pk]
    other = visible_text(client.get(reverse("submission-detail", args=[cases[0].submission_id])).content.decode())
    assert "Notes from later engines" not in other


@pytest.mark.django_db
def test_a_part_the_workers_gave_up_on_stops_the_run(cases, supervisor, client):
    """A part lost with its worker as often as the workers retry it is a failed task that never
    said so: the page stops the run with the reason, and a new measure may start."""
    run = impact_runs.start_run(by=supervisor, kind="override", overrides=[CHANGE])  # not committed: no task ran
    failed = DBTaskResult.objects.create(
        status=TaskResultStatus.FAILED, args_kwargs={"args": [], "kwargs": {}}, task_path=impact_runs.impact_part.module_path,
        backend_name="default", run_after=timezone.now(), exception_class_path="", traceback="")
    run.parts.update(task_id=str(failed.pk))
    assert impact_runs.check_lost(run).failed == impact_runs.PARTS_LOST
    assert "A part was lost with its report worker" in page(client, supervisor, run=run.pk)
    impact_runs.start_run(by=supervisor, kind="override", overrides=[CHANGE])  # no longer under way


@pytest.mark.django_db
def test_each_part_keeps_its_task(cases, supervisor, django_capture_on_commit_callbacks):
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    assert all(part.task_id for part in run.parts.all())


@pytest.mark.django_db
def test_an_empty_answer_says_whether_the_filters_narrowed_it(client, cases, supervisor,
                                                              django_capture_on_commit_callbacks):
    run = started(django_capture_on_commit_callbacks, by=supervisor)
    narrowed = visible_text(page(client, supervisor, run=run.pk, scenario="cvd-2015", status="all"))
    assert "Nothing you may see moves under these filters." in narrowed
    ImpactUse.objects.filter(run=run).delete()
    everything = visible_text(page(client, supervisor, run=run.pk, status="all"))
    assert "Nothing you may see moves." in everything and "under these filters" not in everything
