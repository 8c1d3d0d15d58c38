"""Writes: every change to cases, assessments and scenarios goes through here.

Each service checks the permission (``assessments.permissions``), validates, and runs
in one transaction, so a refused or invalid call writes nothing. Error messages are
module constants so tests can assert the exact text.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.http import Http404, HttpRequest
from django.utils import timezone

from . import engine_marks, engine_refresh, events, permissions
from .case_links import CASE_REASON as CASE_REASON
from .case_links import case_field_label, case_input, follow
from .case_numbers import hidden_case
from .esd import registry
from .esd.parameters import ALL, EngineValidationError
from .esd.results import ENGINE_VERSION
from .esd.site_data import SITE_SPECIFIC
from .esd.site_data import STEP as SITE_STEP
from .input_rules import applicable_step_params, clean_site_entries, clean_step_values, step_token
from .limits import TEXT_LIMITS, check_text
from .models import (
    CASE_NUMBER_TAKEN,
    SCENARIO_UNDO_MINUTES,
    SCENARIO_UNDO_WINDOW,
    Assessment,
    Scenario,
    Submission,
    case_snapshot,
    refresh_latest_assessment,
)
from .models.cases import CASE_NUMBER_REFUSED

CREATE_NOT_ALLOWED = "You may not create cases."
EDIT_CASE_NOT_ALLOWED = (
    "This case cannot be edited: its latest revision is submitted or approved, or you lack the permission. "
    "To amend it, start a new revision from the approved one."
)
AMENDMENT_REASON_REQUIRED = (
    "Give the reason for this amendment: a revision of this case is approved, and its report keeps the case as "
    "it was approved."
)
AMENDMENT_REASON_LABEL = "The amendment reason"
START_NOT_ALLOWED = "An assessment of this case exists already; start a new revision from the approved one."
EDIT_ASSESSMENT_NOT_ALLOWED = "Only the assessment's engineer can change it, and only while it is a draft or returned."
UNKNOWN_CBI_FIELD = "These fields cannot be claimed CBI: {fields}."
STALE_EDIT = "Someone else saved this {what} after you opened it. Reload to see their changes, then make yours again."


# Cases ---------------------------------------------------------------------------------


def history_note(instance: models.Model, *, by: User | None = None, reason: str = "") -> None:
    """Who makes the next save of ``instance`` and why (none given: left as it is), as
    django-simple-history writes them in the history row: it reads them off the instance
    (``workflow`` saves through this too)."""
    if by is not None:
        instance._history_user = by  # type: ignore[attr-defined]  # django-simple-history reads it at save
    if reason:
        instance._change_reason = reason  # type: ignore[attr-defined]  # django-simple-history reads it at save


def _check_cbi_claims(claims: list[str]) -> list[str]:
    unknown = sorted(set(claims) - set(Submission.CBI_CLAIMABLE))
    if unknown:
        raise ValidationError({"cbi_claims": UNKNOWN_CBI_FIELD.format(fields=", ".join(unknown))})
    return [name for name in Submission.CBI_CLAIMABLE if name in claims]


class _HiddenNumber(Exception):
    """The number given is that of ``case``, a case the user may not see: refused outside the
    save's transaction (:func:`_refuse_number`), so the record of the attempt is kept."""

    def __init__(self, case: Submission, typed: str):
        super().__init__(typed)
        self.case, self.typed = case, typed


def _refuse_number(
    hidden: _HiddenNumber, *, by: User | AnonymousUser, what: str, request: HttpRequest | None = None
) -> ValidationError:
    """Record the refused attempt for review (the hidden case's custody log, a warning in
    the log) and return the refusal, which names no case."""
    events.number_refused(user=by, typed=hidden.typed, case=hidden.case, what=what, request=request)
    return ValidationError({"case_number": CASE_NUMBER_REFUSED})


def _full_clean(submission: Submission, *, by: User) -> None:
    """``full_clean``, with the number's uniqueness checked as ``by`` may be told it: a
    number held by a case ``by`` may not see passes every check as a free number would
    (any other error is said as for a free number), then is refused (``_HiddenNumber``)."""
    errors: dict[str, list[ValidationError]] = {}
    try:
        submission.full_clean(validate_unique=False)
    except ValidationError as exc:
        errors = exc.update_error_dict(errors)
    hidden = hidden_case(user=by, case_number=submission.case_number, exclude_pk=submission.pk)
    if hidden is None:
        try:
            submission.validate_unique()
        except ValidationError as exc:
            errors = exc.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)
    if hidden is not None:
        raise _HiddenNumber(hidden, submission.case_number)


def _save_numbered(submission: Submission, *, by: User) -> None:
    """Save; two people saving the same number at once: the second is told as if the number
    had been taken before (the number, or for a case ``by`` may not see, ``_HiddenNumber``)."""
    try:
        with transaction.atomic():
            submission.save()
    except IntegrityError:
        taken = Submission.objects.filter(case_number=submission.case_number).exclude(pk=submission.pk).first()
        if taken is None:
            raise
        if not permissions.may_see(by, taken):
            raise _HiddenNumber(taken, submission.case_number) from None
        raise ValidationError({"case_number": CASE_NUMBER_TAKEN.format(case_number=submission.case_number)}) from None


def submission_create(
    *, by: User, data: Mapping[str, Any], cbi_claims: list[str], request: HttpRequest | None = None
) -> Submission:
    """A new case. The number of a case ``by`` may not see is refused with
    :data:`CASE_NUMBER_REFUSED`, which names no case, and the attempt is recorded for review
    (``audit``'s custody log of that case; ``request``: the client's address for it)."""
    if not permissions.can_create_submission(by):
        raise PermissionDenied(CREATE_NOT_ALLOWED)
    try:
        return _submission_create(by=by, data=data, cbi_claims=cbi_claims)
    except _HiddenNumber as hidden:
        raise _refuse_number(hidden, by=by, what=events.What.NEW_CASE, request=request) from None


@transaction.atomic
def _submission_create(*, by: User, data: Mapping[str, Any], cbi_claims: list[str]) -> Submission:
    submission = Submission(**data, cbi_claims=_check_cbi_claims(cbi_claims), created_by=by)
    _full_clean(submission, by=by)
    _save_numbered(submission, by=by)
    return submission


def submission_update(
    *, submission: Submission, by: User, data: Mapping[str, Any], cbi_claims: list[str],
    seen_version: int | None = None, reason: str = "", request: HttpRequest | None = None,
) -> Submission:
    """Change a case. ``seen_version`` is the ``version`` the editor loaded; if the row
    was saved since, the save is refused rather than silently overwriting.

    Once a revision of the case is approved, a change is an amendment (a new production
    volume, a withdrawn claim): ``reason`` is then required and is recorded as the history's
    change reason. The approved revision keeps the case as it was approved
    (``Assessment.case_snapshot``); the amendment reaches the draft or returned revision:
    in the same transaction, the inputs of its uses linked to the case
    (``case_links.is_linked``) take the new values, recorded in their history
    (:data:`CASE_FOLLOWED_REASON`), and those uses are not current until computed again.
    Whoever may amend the case (``permissions.can_edit_submission``) moves them, not only
    the revision's engineer: the amendment is the case's, the inputs only carry it.

    A new number held by a case ``by`` may not see is refused as ``submission_create``
    refuses it."""
    try:
        return _submission_update(submission=submission, by=by, data=data, cbi_claims=cbi_claims,
                                  seen_version=seen_version, reason=reason)
    except _HiddenNumber as hidden:
        raise _refuse_number(hidden, by=by, what=events.What.CASE_RENAME, request=request) from None


@transaction.atomic
def _submission_update(
    *, submission: Submission, by: User, data: Mapping[str, Any], cbi_claims: list[str], seen_version: int | None,
    reason: str,
) -> Submission:
    submission = Submission.objects.select_for_update().get(pk=submission.pk)
    if not permissions.can_edit_submission(by, submission):
        raise PermissionDenied(EDIT_CASE_NOT_ALLOWED)
    if seen_version is not None and submission.version != seen_version:
        raise ValidationError({ALL: STALE_EDIT.format(what="case")})
    reason = check_text((reason or "").strip(), field="amendment_reason", label=AMENDMENT_REASON_LABEL)
    if not reason and permissions.has_approved_revision(submission):
        raise ValidationError({"amendment_reason": AMENDMENT_REASON_REQUIRED})
    before = case_snapshot(submission)
    for name, value in data.items():
        setattr(submission, name, value)
    submission.cbi_claims = _check_cbi_claims(cbi_claims)
    _full_clean(submission, by=by)
    history_note(submission, by=by, reason=reason)
    _save_numbered(submission, by=by)
    uses_follow_case(submission, before=before, by=by)
    return submission


def case_number_refused(
    *, by: User | AnonymousUser, typed: str, case: Submission, what: str, request: HttpRequest | None = None
) -> ValidationError:
    """The refusal of the number ``typed``, held by ``case``, a case ``by`` may not see,
    for a caller with a form of its own (the admin's case form), recorded as the case
    services record it."""
    return _refuse_number(_HiddenNumber(case, typed), by=by, what=what, request=request)


# Assessments ---------------------------------------------------------------------------


@transaction.atomic
def assessment_start(*, submission: Submission, by: User) -> Assessment:
    submission = Submission.objects.select_for_update().get(pk=submission.pk)
    if not permissions.can_start_assessment(by, submission):
        raise PermissionDenied(START_NOT_ALLOWED)
    assessment = Assessment.objects.create(submission=submission, engineer=by, revision=1)
    refresh_latest_assessment(submission_ids=[submission.pk])
    return assessment


@transaction.atomic
def assessment_update_notes(
    *, assessment: Assessment, by: User, data: Mapping[str, Any], seen_version: int | None = None
) -> Assessment:
    """Change the reviewer's choices for the IRER (``Assessment.IRER_CHOICE_FIELDS``; a name
    not given is left as it is), checked as the model checks them (``Assessment.clean``)
    and each free text against its limit. ``seen_version`` as in ``submission_update``."""
    assessment = _lock_editable(assessment, by)
    if seen_version is not None and assessment.version != seen_version:
        raise ValidationError({ALL: STALE_EDIT.format(what="assessment")})
    for name in Assessment.IRER_CHOICE_FIELDS:
        if name in data:
            if name in TEXT_LIMITS:
                field = Assessment._meta.get_field(name)
                assert isinstance(field, models.Field), f"{name}: a column of the assessment, not a relation"
                label = str(field.verbose_name).capitalize()
                check_text(data[name], field=name, label=label)
            setattr(assessment, name, data[name])
    assessment.full_clean()
    assessment.save()
    return assessment


def _lock_editable(assessment: Assessment, by: User) -> Assessment:
    assessment = Assessment.objects.select_for_update().select_related("submission").get(pk=assessment.pk)
    if not permissions.can_edit_assessment(by, assessment):
        raise PermissionDenied(EDIT_ASSESSMENT_NOT_ALLOWED)
    return assessment


#: The history's reasons of :func:`assessment_set_chemsteer_v32`.
CHEMSTEER_V32_REASONS = {True: "ChemSTEER v3.2 column shown beside the engine's figures (never printed in the IRER).",
                         False: "ChemSTEER v3.2 column no longer shown."}


@transaction.atomic
def assessment_set_chemsteer_v32(*, assessment: Assessment, by: User, on: bool) -> Assessment:
    """Show (``on``) or hide, on every use's results page, the figures computed with ChemSTEER
    v3.2's own defaults beside the engine's (``Assessment.chemsteer_v32``; never printed in
    the IRER), with the history's reason (:data:`CHEMSTEER_V32_REASONS`). Refused as every
    edit of the assessment is (its engineer, while a draft or returned: approved work is
    locked); a case the user may not see is a 404, as its pages are. Nothing is written
    when the switch is already so."""
    assessment = Assessment.objects.select_for_update().select_related("submission").get(pk=assessment.pk)
    if not permissions.may_see(by, assessment.submission):
        raise Http404("No such assessment.")
    assessment = _lock_editable(assessment, by)
    if assessment.chemsteer_v32 != on:
        assessment.chemsteer_v32 = on
        history_note(assessment, by=by, reason=CHEMSTEER_V32_REASONS[on])
        assessment.save()
    return assessment


# Scenarios -----------------------------------------------------------------------------


def initial_inputs(*, submission: Submission, scenario_key: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Inputs a new scenario takes from the case: each input that declares the case field
    it carries (``Param.from_case``) and whose value there the declaration accepts, as an
    override of the document's default with the case as its reason (``case_links.case_input``:
    the inputs so taken stay linked to the case, ``case_links.is_linked``)."""
    inputs: dict[str, Any] = {}
    reasons: dict[str, str] = {}
    for param in registry.get(scenario_key).params.params:
        if not param.from_case:
            continue
        value, reason = case_input(param, getattr(submission, param.from_case))
        if value is None:
            continue
        inputs[param.symbol] = value
        if reason:
            reasons[param.symbol] = reason
    return inputs, reasons


#: The history's reason on a use whose linked inputs followed the case (``case_links.follow``);
#: ``{fields}``: the case fields. At most 100 characters, as the history keeps them.
CASE_FOLLOWED_REASON = "Follows the amended case: {fields}."
REVISION_FOLLOWED_REASON = "Takes the case as it is now: {fields}."


def scenario_follow_case(scenario: Scenario, *, before: Mapping[str, Any], after: Mapping[str, Any], by: User,
                         reason: str) -> bool:
    """Give the use's linked inputs what the case gives them now (``case_links.follow``:
    the case went from ``before`` to ``after``), saved with ``reason`` in its history; the
    use is then not current until computed again. Runs in the caller's transaction, which
    has checked the permission and locked the rows. True when an input moved."""
    inputs, reasons, fields = follow(scenario.scenario_key, scenario.inputs, scenario.reasons,
                                     before=before, after=after)
    if not fields:
        return False
    scenario.inputs, scenario.reasons = inputs, reasons
    text = reason.format(fields=", ".join(case_field_label(field) for field in fields))
    history_note(scenario, by=by, reason=text if len(text) <= 100 else text[:99] + "…")
    scenario.save()
    return True


def uses_follow_case(submission: Submission, *, before: Mapping[str, Any], by: User) -> None:
    """After an amendment of ``submission`` (it was ``before``): the linked inputs of every
    use, deleted ones too (an undo brings them back following), of the case's editable
    revisions (draft or returned) follow it. Submitted and approved work is never changed:
    the case cannot be amended while a revision is submitted, and an approved one keeps the
    case as approved. Runs in the amendment's transaction (``submission_update``, the
    admin's case form), after its permission check."""
    after = case_snapshot(submission)
    if all(before.get(name) == after.get(name) for name in after):
        return
    assessments = (Assessment.objects.select_for_update()
                   .filter(submission=submission, status__in=permissions.EDITABLE_STATUSES).order_by("pk"))
    for assessment in assessments:
        for scenario in Scenario.all_objects.select_for_update().filter(assessment=assessment).order_by("pk"):
            scenario_follow_case(scenario, before=before, after=after, by=by, reason=CASE_FOLLOWED_REASON)


@transaction.atomic
def scenario_add(*, assessment: Assessment, by: User, scenario_key: str, title: str = "") -> Scenario:
    assessment = _lock_editable(assessment, by)
    scenario = registry.get(scenario_key)  # EngineValidationError for an unknown key
    title = _check_title(title)
    inputs, reasons = initial_inputs(submission=assessment.submission, scenario_key=scenario_key)
    return Scenario.objects.create(
        assessment=assessment,
        scenario_key=scenario_key,
        title=title or scenario.title,
        position=_next_position(assessment),
        inputs=inputs,
        reasons=reasons,
    )


def _next_position(assessment: Assessment) -> int:
    """The place of a new use: after every use, the deleted ones too, so a use restored
    (``scenario_restore``) comes back to a place of its own."""
    last = Scenario.all_objects.filter(assessment=assessment).order_by("-position")
    return (last.values_list("position", flat=True).first() or 0) + 1


@transaction.atomic
def scenario_save_step(
    *,
    scenario: Scenario,
    by: User,
    step: str,
    values: Mapping[str, Any],
    reasons: Mapping[str, str],
    seen_token: str | None = None,
) -> Scenario:
    """Store one wizard step's inputs (only overrides, with their reasons) in the
    scenario's saved inputs, replacing what that step held before. An input that does not
    apply (``applicable_step_params``) is neither checked nor changed: what was saved for
    it stays, unused, until a choice makes it apply again. With ``seen_token``
    (``step_token`` when the form was shown), refuse if the step changed since."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.objects.select_for_update().get(pk=scenario.pk)
    if seen_token is not None and seen_token != step_token(scenario, step):
        raise ValidationError({ALL: STALE_EDIT.format(what="step")})
    params = applicable_step_params(scenario_key=scenario.scenario_key, step=step, inputs=scenario.inputs,
                                    values=values)
    step_inputs, step_reasons = clean_step_values(params, values, reasons)
    symbols = {p.symbol for p in params}
    scenario.inputs = {k: v for k, v in scenario.inputs.items() if k not in symbols} | step_inputs
    scenario.reasons = {k: v for k, v in scenario.reasons.items() if k not in symbols} | step_reasons
    scenario.current_step = step
    scenario.save()
    return scenario


@transaction.atomic
def scenario_save_site_data(
    *, scenario: Scenario, by: User, entries: Sequence[Mapping[str, Any]], seen_token: str | None = None
) -> Scenario:
    """Store the wizard's "Submitter's site data" step: the scenario's ``site_specific``
    entries (``clean_site_entries``), replacing those saved before; an empty list removes
    them, leaving the inputs exactly as without the step. Nothing is written when an entry
    is invalid. ``seen_token`` as in ``scenario_save_step``."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.objects.select_for_update().get(pk=scenario.pk)
    if seen_token is not None and seen_token != step_token(scenario, SITE_STEP):
        raise ValidationError({ALL: STALE_EDIT.format(what="step")})
    stored = clean_site_entries(list(entries))
    inputs = {k: v for k, v in scenario.inputs.items() if k != SITE_SPECIFIC}
    if stored:
        inputs[SITE_SPECIFIC] = stored
    scenario.inputs = inputs
    scenario.current_step = SITE_STEP
    scenario.save()
    return scenario


@transaction.atomic
def scenario_compute(*, scenario: Scenario, by: User) -> Scenario:
    """Run the engine on the scenario's saved inputs and store the result snapshot.
    Errors that span several inputs come back as ``ValidationError`` keyed by symbol."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.objects.select_for_update().get(pk=scenario.pk)
    try:
        result = registry.compute(scenario.scenario_key, scenario.inputs)
    except EngineValidationError as exc:
        raise ValidationError(exc.errors) from None
    scenario.result = result.as_dict()
    scenario.computed_inputs = dict(scenario.inputs)
    scenario.computed_at = timezone.now()
    scenario.save()
    return scenario


@transaction.atomic
def scenario_recompute(*, scenario: Scenario, by: User, seen: str) -> Scenario:
    """Store the installed engine's result for a use computed by an older engine
    (``engine_marks.older_engine``), over the inputs its stored result was computed from,
    once its engineer has seen the difference (``engine_refresh.recompute_preview``):
    ``seen`` is the fingerprint the preview was made from (``engine_marks.use_fingerprint``),
    refused when the use changed since. The figures are computed here, never read from the
    form. Only the assessment's engineer, while it is a draft or returned
    (``engine_refresh.recompute_refusal``: an approved revision is never recomputed, a
    submitted one is withdrawn or returned first); a case the user may not see is a 404, as
    its pages are. The history's reason names both engines."""
    assessment = Assessment.objects.select_for_update().select_related("submission").get(pk=scenario.assessment_id)
    if not permissions.may_see(by, assessment.submission):
        raise Http404("No such scenario.")
    refusal = engine_refresh.recompute_refusal(by, assessment)
    if refusal:
        raise PermissionDenied(refusal)
    try:
        scenario = Scenario.objects.select_for_update().get(pk=scenario.pk, assessment=assessment)
    except Scenario.DoesNotExist:
        raise Http404("No such scenario.") from None
    older = engine_marks.older_engine(scenario, assessment=assessment)
    if older is None:
        raise ValidationError(engine_refresh.RECOMPUTE_NOT_OLDER.format(title=scenario.title, installed=ENGINE_VERSION))
    if seen != engine_marks.use_fingerprint(scenario):
        raise ValidationError(engine_refresh.RECOMPUTE_CHANGED.format(title=scenario.title))
    try:
        scenario.result = engine_refresh.fresh_result(scenario)
    except EngineValidationError as exc:
        raise ValidationError(engine_refresh.RECOMPUTE_REFUSED.format(
            title=scenario.title, errors=engine_refresh.refused_text(exc.errors))) from None
    scenario.computed_at = timezone.now()
    history_note(scenario, by=by, reason=engine_refresh.recompute_reason(older))
    scenario.save()
    return scenario


@transaction.atomic
def scenario_duplicate(*, scenario: Scenario, by: User) -> Scenario:
    assessment = _lock_editable(scenario.assessment, by)
    duplicate = scenario_copy(scenario, assessment=assessment, title=_copy_title(scenario.title),
                              position=_next_position(assessment))
    duplicate.save()
    return duplicate


#: What a copy of a use carries over unchanged, in a duplicate within its assessment and in
#: a new revision alike: the scenario, the inputs with their reasons, the last step saved,
#: the result with the inputs and time it was computed from (so it stays current), and the
#: engineer's report texts.
SCENARIO_COPIED_FIELDS = ("scenario_key", "inputs", "reasons", "current_step", "result", "computed_inputs",
                          "computed_at", "release_texts")
#: What the caller of :func:`scenario_copy` gives the copy.
SCENARIO_COPY_GIVEN_FIELDS = ("assessment", "title", "position")
#: What a copy does not take: its own row and times, and it is in effect (not deleted).
SCENARIO_NOT_COPIED_FIELDS = ("id", "created_at", "updated_at", "deleted_at")


def scenario_copy(scenario: Scenario, *, assessment: Assessment, title: str, position: int) -> Scenario:
    """A new use, not yet saved, in ``assessment`` at ``position`` under ``title``, with
    everything of ``scenario`` in :data:`SCENARIO_COPIED_FIELDS` (a copy that shares no
    dict with it). The caller saves it, with the history reason it needs."""
    return Scenario(assessment=assessment, title=title, position=position,
                    **{name: copy.deepcopy(getattr(scenario, name)) for name in SCENARIO_COPIED_FIELDS})


def _check_title(title: str) -> str:
    """A use's title, stripped; ``ValidationError`` with a NUL or over the model's length."""
    return check_text(title.strip(), field="title", label="The title of the use", limit=_title_limit())


def _title_limit() -> int:
    """The longest title of a use: its column's length."""
    limit = Scenario._meta.get_field("title").max_length
    assert limit is not None, "Scenario.title is a CharField with a max_length"
    return limit


def _copy_title(title: str) -> str:
    """``TITLE (copy)``, the title shortened with an ellipsis where that would be too long."""
    suffix, limit = " (copy)", _title_limit()
    if len(title) + len(suffix) > limit:
        title = title[: limit - len(suffix) - 1].rstrip() + "…"
    return title + suffix


SCENARIO_DELETED_REASON = f"Use deleted (it can be restored for {SCENARIO_UNDO_MINUTES} minutes)."
SCENARIO_RESTORED_REASON = "Use restored: its delete was undone."
RESTORE_TOO_LATE = (
    f"“{{title}}” was deleted more than {SCENARIO_UNDO_MINUTES} minutes ago and can no longer be restored. "
    "Add the use again."
)


@transaction.atomic
def scenario_delete(*, scenario: Scenario, by: User) -> Scenario:
    """Delete a use from its assessment: it leaves every list, report, export and count at
    once, and keeps everything it held (inputs, reasons, result, report texts, comments),
    so :func:`scenario_restore` can bring it back within :data:`SCENARIO_UNDO_WINDOW`.
    Only the assessment's engineer, while it is a draft or returned."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.objects.select_for_update().get(pk=scenario.pk)
    scenario.deleted_at = timezone.now()
    history_note(scenario, by=by, reason=SCENARIO_DELETED_REASON)
    scenario.save()
    return scenario


@transaction.atomic
def scenario_restore(*, scenario: Scenario, by: User) -> Scenario:
    """Undo :func:`scenario_delete`: the use comes back as it was, in its place. Refused
    (``PermissionDenied``) to anyone but the assessment's engineer, once the assessment is
    submitted or approved, and after :data:`SCENARIO_UNDO_WINDOW`. A use in effect (an undo
    sent twice) is left as it is."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.all_objects.select_for_update().get(pk=scenario.pk)
    if scenario.deleted_at is None:
        return scenario
    if timezone.now() - scenario.deleted_at > SCENARIO_UNDO_WINDOW:
        raise PermissionDenied(RESTORE_TOO_LATE.format(title=scenario.title))
    scenario.deleted_at = None
    history_note(scenario, by=by, reason=SCENARIO_RESTORED_REASON)
    scenario.save()
    return scenario


@transaction.atomic
def scenario_rename(*, scenario: Scenario, by: User, title: str) -> Scenario:
    _lock_editable(scenario.assessment, by)
    title = _check_title(title)
    if not title:
        raise ValidationError({"title": "Give the use a title."})
    scenario.title = title
    scenario.save()
    return scenario


RELEASE_TEXTS_REASON = "The report's words for the releases changed."


@transaction.atomic
def scenario_update_release_texts(*, scenario: Scenario, by: User, texts: Mapping[str, Mapping[str, str]]) -> Scenario:
    """Store the engineer's "to:" and "basis:" words for the use's releases (blank entries
    are dropped, so the report prints its default again); refused on locked work, and
    checked by ``models.release_texts_errors`` as every other way in."""
    _lock_editable(scenario.assessment, by)
    scenario = Scenario.objects.select_for_update().get(pk=scenario.pk)
    cleaned: dict[str, dict[str, Any]] = {}
    for number, entry in texts.items():
        kept = {name: text.strip() for name, text in entry.items() if isinstance(text, str) and text.strip()}
        kept |= {name: text for name, text in entry.items() if not isinstance(text, str)}  # refused below
        if kept:
            cleaned[str(number)] = kept
    scenario.release_texts = cleaned
    scenario.full_clean()
    history_note(scenario, reason=RELEASE_TEXTS_REASON)
    scenario.save()
    return scenario
