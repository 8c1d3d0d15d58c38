"""Load the demo users and cases (the quick start's data) into a development database, and
take them through the review as the demo users would, so that a newcomer's first look
shows the product: results, a report, a history and a comparison of two revisions.

What it makes, in one transaction (a failure anywhere loads nothing, exit status 1):

1. The demo users (``fixtures/demo_users.json``).
2. Each demo case as received (``fixtures/demo_cases.json``): the case, its first revision
   and its uses with their inputs and reasons, as the fixture holds them, but for two things:

   - its dates are placed relative to the day of the load (:func:`placed`): every date of
     the fixture (a case's, a revision's, a use's, their historical records') moves by the
     same whole number of days, the one that brings the fixture's newest date to within the
     day before the load. The order of the dates, the days between them and their times of
     day are the fixture's, and a case's review clock (received the day it was entered)
     runs from the load day, not from a date that grows older each month;
   - each use starts from what the case gives, as a use added in the application does
     (``services.initial_inputs``: the inputs linked to the case, ``case_links``), with the
     fixture's inputs and reasons, the reviewer's, on top (:func:`with_case_inputs`). The
     fixture holds no value the case gives (the case's production volume, say), so those
     inputs stay linked to the case.
3. Through the application's services, each step as the demo user who takes it (the
   services check that user's permissions, and the history names the user, as it does
   for a signed-in request): every use computed by the engine
   (``services.scenario_compute``, what "Save and compute" runs); then the review that
   ``fixtures/demo_review.json`` describes, of the sample case P-18-0123: revision 1
   submitted by the reviewer and approved by the supervisor with a comment
   (``workflow``), a revision 2 started from it (``workflow.assessment_revise``) in which
   one input is changed with its reason (``services.scenario_save_step``, as the wizard
   saves a step), the report's words for the release it moves are updated, and the use is
   computed again. The other case stays a draft, computed. These steps are taken at the
   time of the load, after every date of the fixture as placed.

No fixture holds a result: each is the engine's. No email is sent (the demo users'
addresses are examples); the review's notices in the application are kept.

The demo users' passwords are printed in README.md and ``admin`` is a superuser, so the
demo data must never reach a real installation, nor harm the data of one:

- With ``DEBUG`` and ``DEVELOPMENT`` off (a server) the command refuses (exit status 2)
  and loads nothing.
- It loads only into a database that holds nothing but the demo data as this command
  makes it. Anything else and it refuses (exit status 2), naming what it found, and
  writes nothing. The demo data as load_demo makes it is recognised so:

  - every user is a demo user (by user name) as the fixture has it, a user's last login
    aside (a demo user who logged in is still one);
  - every case is a demo case (its number is one of the fixture's), and every historical
    record of the case, of its revisions, their uses and their review decisions (deleted
    ones included) is one that load_demo wrote: load_demo marks each record it writes with
    :data:`HISTORY_REASON` (after the service's own reason, if any), and whatever a person
    does writes records without that mark;
  - each of those rows is as its latest historical record holds it (no write that
    skipped the history);
  - no contact report and no review calendar is recorded.

  So a case entered beside the demo cases, a user added or changed, or any change a
  person makes to a demo case (a case field, an input, a use added, deleted or computed
  again, a submission, approval or return, a new revision) and it refuses. Notices, read
  or not, do not count.
- It only adds the demo data that is missing: a demo user whose user name is free, a demo
  case whose number is free (the whole case, made as above, under new primary keys). It
  never changes or deletes a row and never writes a user by primary key
  (``fixtures/demo_users.json`` has no primary keys; the cases name their users by user
  name).
- Without ``--force`` it loads only when the database has no user yet (the first run of
  ``scripts/run.sh``); when users exist it says so and writes nothing (exit status 0), so
  restarting ``run.sh`` keeps every change. ``--force`` adds the missing demo data to a
  database that holds the demo data only (after a demo case or user was deleted).
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.core import serializers
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models, transaction
from django.test.utils import override_settings
from django.utils import timezone
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

from assessments import services, workflow
from assessments.esd import registry
from assessments.models import Assessment, ReviewDecision, Scenario, Submission, refresh_latest_assessment
from calendar_review.models import ReviewCalendar
from contacts.models import ContactReport

DEMO_USERS = "demo_users.json"
DEMO_CASES = "demo_cases.json"
DEMO_REVIEW = "demo_review.json"
EXIT_REFUSED = 2

NOT_DEBUG = (
    "load_demo refused: DEBUG and DEVELOPMENT are off. The demo users' passwords are printed in README.md and "
    "one of them is a superuser, so the demo data loads only into a development database, with DEVELOPMENT=1 "
    "(as scripts/run.sh sets it) or DEBUG=1. "
    "Nothing was loaded."
)
NOT_DEMO_ONLY = (
    "load_demo refused: this database holds data other than the demo data as load_demo makes it ({found}). "
    "load_demo never changes or deletes anything; use it on an empty development database. Nothing was loaded."
)
USERS_EXIST = (
    "Users exist already: demo data not loaded (--force adds the missing demo users and cases to a database "
    "that holds only demo data)."
)
DEMO_FAILED = "load_demo could not make the demo data: {step} failed ({problem}). Nothing was loaded."
LOADED = "Demo data loaded: {what}."
NOTHING_MISSING = "The demo data is all here already: nothing loaded."
HISTORY_REASON = "Demo data, loaded by the demo command."
#: The mark written before the History said it in words (issue 26): still recognised.
EARLIER_REASONS = ("Demo data loaded by load_demo.",)
SHOWN = 5  # findings named in NOT_DEMO_ONLY; the rest are counted
# The demo review's emails would go to the demo users' example addresses: none is sent.
NO_EMAIL = "django.core.mail.backends.dummy.EmailBackend"

CASE_MODELS = (Submission, Assessment, Scenario, ReviewDecision)  # a case's rows, each with its history
OTHER_CASE_DATA = (ContactReport, ReviewCalendar)  # load_demo records none
IGNORED_USER_FIELDS = {"last_login"}  # a demo user who logged in is still a demo user


def development_machine() -> bool:
    """Whether this installation is a developer's (``DEVELOPMENT`` or ``DEBUG`` on): the
    only setting load_demo reads to decide whether it may load at all."""
    return bool(settings.DEBUG or getattr(settings, "DEVELOPMENT", False))


def _fixture(name: str) -> Any:
    for directory in settings.FIXTURE_DIRS:
        path = Path(directory) / name
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
    raise CommandError(f"The demo fixture {name} is missing from {', '.join(map(str, settings.FIXTURE_DIRS))}.")


def demo_case_records(cases: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The fixture's records by case number: each case's row, its assessments and their
    scenarios, in that order (the order they are written in)."""
    by_case = {}
    for case in (record for record in cases if record["model"] == "assessments.submission"):
        assessments = [
            r for r in cases if r["model"] == "assessments.assessment" and r["fields"]["submission"] == case["pk"]
        ]
        keys = {assessment["pk"] for assessment in assessments}
        scenarios = [r for r in cases if r["model"] == "assessments.scenario" and r["fields"]["assessment"] in keys]
        by_case[case["fields"]["case_number"]] = [case, *assessments, *scenarios]
    return by_case


# The fixture as loaded today ---------------------------------------------------------------------


def _dates(records: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], str, date]]:
    """Every date of the fixture's ``records``: ``(fields, name, value)``, a date and time
    as an aware ``datetime`` (a naive one read in the site's time zone, as ``loaddata`` does)."""
    for record in records:
        model = apps.get_model(record["model"])
        for name, value in record["fields"].items():
            field = model._meta.get_field(name)
            if value is None or not isinstance(field, models.DateField):  # a DateTimeField is one too
                continue
            value = field.to_python(value)
            if isinstance(value, datetime) and timezone.is_naive(value):
                value = timezone.make_aware(value)
            yield record["fields"], name, value


def load_offset(records: list[dict[str, Any]], *, now: datetime) -> timedelta:
    """The whole days that bring the fixture's newest date to the day of the load: the
    newest moment lands within the day before ``now``, a newest day on the day of ``now``
    (in the site's time zone); no date lands after ``now``. Whole days keep every time of
    day and every day beside its moments. No date: none.

    >>> from datetime import timezone as tz
    >>> records = [{"model": "assessments.scenario", "fields": {"created_at": "2026-11-02T15:36:00Z"}}]
    >>> load_offset(records, now=datetime(2026, 12, 2, 16, 0, tzinfo=tz.utc)).days
    30
    >>> load_offset(records, now=datetime(2026, 12, 2, 15, 0, tzinfo=tz.utc)).days
    29
    """
    today = timezone.localdate(now)
    days = [
        (now - value) // timedelta(days=1) if isinstance(value, datetime) else (today - value).days
        for _, _, value in _dates(records)
    ]
    return timedelta(days=min(days, default=0))


def placed(records: list[dict[str, Any]], *, now: datetime) -> list[dict[str, Any]]:
    """The fixture's ``records`` as loaded at ``now``: a copy with every date moved by
    :func:`load_offset` (the order of the dates and the days between them kept)."""
    records = copy.deepcopy(records)
    offset = load_offset(records, now=now)
    for fields, name, value in list(_dates(records)):
        fields[name] = (value + offset).isoformat()
    return records


def with_case_inputs(use: Scenario, case: Submission) -> Scenario:
    """``use`` (as the fixture holds it) starting from what ``case`` gives, as a use added in
    the application does (``services.initial_inputs``: the inputs linked to the case, with
    the case as their reason), the fixture's inputs and reasons on top: a value the fixture
    gives replaces the case's, and the case's reason with it."""
    inputs, reasons = services.initial_inputs(submission=case, scenario_key=use.scenario_key)
    use.reasons = {symbol: text for symbol, text in reasons.items() if symbol not in use.inputs} | use.reasons
    use.inputs = inputs | use.inputs
    return use


# The history load_demo writes ------------------------------------------------------------------


def marked(reason: str | None, limit: int | None = None) -> str:
    """A historical record's change reason as load_demo writes it: the service's reason,
    if any (shortened with an ellipsis to fit ``limit`` characters), then
    :data:`HISTORY_REASON`.

    >>> marked("Submitted by reviewer.")
    'Submitted by reviewer. Demo data, loaded by the demo command.'
    >>> marked("Copied from approved revision 1.", limit=50)
    'Copied fro… Demo data, loaded by the demo command.'
    """
    if not reason:
        return HISTORY_REASON
    room = None if limit is None else limit - len(HISTORY_REASON) - 1
    if room is not None and len(reason) > room:
        reason = reason[: room - 1] + "…"
    return f"{reason} {HISTORY_REASON}"


def is_marked(reason: str | None) -> bool:
    if not reason:
        return False
    return any(reason == mark or reason.endswith(f" {mark}") for mark in (HISTORY_REASON, *EARLIER_REASONS))


@contextmanager
def _marking_history() -> Iterator[None]:
    """Every historical record of a case row written inside, in this thread, marked as
    load_demo's (:func:`marked`)."""
    owner = threading.get_ident()

    def mark(sender: type[models.Model], history_instance: Any, **kwargs: Any) -> None:
        if threading.get_ident() == owner:
            limit = _field(sender, "history_change_reason").max_length
            history_instance.history_change_reason = marked(history_instance.history_change_reason, limit)

    senders = [model.history.model for model in CASE_MODELS]
    for sender in senders:
        pre_create_historical_record.connect(mark, sender=sender, weak=False, dispatch_uid=f"load_demo_{sender.__name__}")
    try:
        yield
    finally:
        for sender in senders:
            pre_create_historical_record.disconnect(sender=sender, dispatch_uid=f"load_demo_{sender.__name__}")


class _SignedIn:
    """What django-simple-history reads of a request to name the author of a record (its
    middleware exposes each request so): the signed-in user."""

    def __init__(self, user: User) -> None:
        self.user = user


_T = TypeVar("_T")


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """A model's own field named ``name`` (the fixtures and the history name no relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is a relation, not a field")
    return field


def _as(user: User, doing: str, service: Callable[..., _T], **kwargs: Any) -> _T:
    """``service(by=user, **kwargs)``, its historical records naming ``user`` as those of
    that user's request would. A refusal or an invalid input stops the load
    (:data:`DEMO_FAILED`, naming what it was ``doing``; the transaction writes nothing)."""
    context = HistoricalRecords.context
    before = getattr(context, "request", None)
    context.request = _SignedIn(user)
    try:
        return service(by=user, **kwargs)
    except (ValidationError, PermissionDenied) as exc:
        raise CommandError(DEMO_FAILED.format(step=doing, problem=_problem(exc))) from exc
    finally:
        if before is None:
            del context.request
        else:
            context.request = before


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        return "; ".join(f"{name}: {' '.join(texts)}" for name, texts in exc.message_dict.items())
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc)


# What is not the demo data as load_demo makes it --------------------------------------------------


def _user_is_demo(user: User, record: dict[str, Any]) -> bool:
    User = type(user)
    for name, value in record["fields"].items():
        if name == "groups":
            if set(user.groups.values_list("name", flat=True)) != {group[0] for group in value}:
                return False
        elif name == "user_permissions":
            found = set(user.user_permissions.values_list("codename", "content_type__app_label", "content_type__model"))
            if found != {tuple(permission) for permission in value}:
                return False
        elif name not in IGNORED_USER_FIELDS:
            field = _field(User, name)
            if field.value_from_object(user) != field.to_python(value):
                return False
    return True


def _as_recorded(row: models.Model, record: Any) -> bool:
    """``row`` holds what its historical ``record`` holds, field by field."""
    return all(getattr(row, field.attname) == getattr(record, field.attname) for field in type(record).tracked_fields)


def _name(item: Any, *, case_number: str, revisions: dict[int, int]) -> str:
    """A case row (or a historical record of one) as a finding names it."""
    if isinstance(item, (Submission, Submission.history.model)):
        return f"case {case_number}"
    if isinstance(item, (Assessment, Assessment.history.model)):
        return f"assessment {case_number} r{item.revision}"
    revision = f"{case_number} r{revisions.get(item.assessment_id, '?')}"
    if isinstance(item, (Scenario, Scenario.history.model)):
        return f"use “{item.title}” of {revision}"
    return f"review decision ({item.action}) of {revision}"


def _not_load_demos(case: Submission) -> list[str]:
    """The rows of a demo case (deleted ones included) with a historical record load_demo
    did not write, or not as their latest record holds them."""
    records: dict[type[models.Model], list[Any]] = {
        Submission: list(Submission.history.filter(id=case.pk)),
        Assessment: list(Assessment.history.filter(submission_id=case.pk)),
    }
    rows: dict[type[models.Model], list[Any]] = {  # every row stored, a use deleted but still restorable too
        Submission: [case],
        Assessment: list(Assessment._base_manager.filter(submission=case)),
        Scenario: list(Scenario._base_manager.filter(assessment__submission=case)),
        ReviewDecision: list(ReviewDecision._base_manager.filter(assessment__submission=case)),
    }
    revisions = {r.id: r.revision for r in records[Assessment]} | {a.pk: a.revision for a in rows[Assessment]}
    records[Scenario] = list(Scenario.history.filter(assessment_id__in=list(revisions)))
    records[ReviewDecision] = list(ReviewDecision.history.filter(assessment_id__in=list(revisions)))
    found = []
    for model in CASE_MODELS:
        latest, wrong = {}, []
        for record in sorted(records[model], key=lambda r: r.history_id):
            latest[record.id] = record
            if not is_marked(record.history_change_reason) and record.id not in wrong:
                wrong.append(record.id)
        existing = {row.pk: row for row in rows[model]}
        for pk, row in existing.items():
            if pk not in wrong and (pk not in latest or not _as_recorded(row, latest[pk])):
                wrong.append(pk)
        for pk in sorted(wrong):
            item = existing.get(pk) or latest[pk]
            deleted = pk not in existing or getattr(item, "deleted_at", None) is not None
            found.append(_name(item, case_number=case.case_number, revisions=revisions) + (" (deleted)" if deleted else ""))
    return found


def not_demo_data(users: list[dict[str, Any]], cases: list[dict[str, Any]]) -> list[str]:
    """What the database holds that is not the demo data as load_demo makes it (see the
    module's documentation), described: users, cases, rows of demo cases, and other
    records of cases."""
    found = []
    by_name = {record["fields"]["username"]: record for record in users}
    for user in get_user_model().objects.order_by("pk"):
        record = by_name.get(user.get_username())
        if record is None or not _user_is_demo(user, record):
            found.append(f"user {user.get_username()}")
    numbers = set(demo_case_records(cases))
    for case in Submission.objects.order_by("pk"):
        found += _not_load_demos(case) if case.case_number in numbers else [f"case {case.case_number}"]
    for model in OTHER_CASE_DATA:
        for row in model.objects.select_related("submission").order_by("pk"):
            found.append(f"{model._meta.verbose_name} of case {row.submission.case_number}")
    return found


# Making what is missing ------------------------------------------------------------------------


def _add_missing_users(users: list[dict[str, Any]]) -> list[User]:
    """Create the demo users whose user names are not taken; an existing user is never touched."""
    User = get_user_model()
    created = []
    for record in users:
        fields = dict(record["fields"])
        groups, permissions = fields.pop("groups", []), fields.pop("user_permissions", [])
        if User.objects.filter(**{User.USERNAME_FIELD: fields[User.USERNAME_FIELD]}).exists():
            continue
        user = User(**{name: _field(User, name).to_python(value) for name, value in fields.items()})
        user.save()  # the fixture's password is already a hash
        user.groups.set(Group.objects.filter(name__in=[group[0] for group in groups]))
        user.user_permissions.set([Permission.objects.get_by_natural_key(*permission) for permission in permissions])
        created.append(user)
    return created


def _receive(records: list[dict[str, Any]]) -> Submission:
    """The case as received: its rows as the fixture holds them (their dates too, as
    :func:`placed` gives them), each use starting from what the case gives
    (:func:`with_case_inputs`), under new primary keys, each with its first historical
    record (dated as the row, by the user who made it, :data:`HISTORY_REASON`)."""
    keys: dict[tuple[type, int], int] = {}
    by_model: dict[type[models.Model], list[Any]] = {}
    for deserialized in serializers.deserialize("json", json.dumps(records)):
        row = deserialized.object
        fixture_pk = row.pk
        if isinstance(row, Assessment):
            row.submission_id = keys[(Submission, row.submission_id)]
        elif isinstance(row, Scenario):
            row.assessment_id = keys[(Assessment, row.assessment_id)]
            with_case_inputs(row, by_model[Submission][0])
        row.pk = None
        deserialized.save()  # a raw save: the fixture's dates as they are
        keys[(type(row), fixture_pk)] = row.pk
        by_model.setdefault(type(row), []).append(row)
    case = by_model[Submission][0]
    assert isinstance(case, Submission), "a demo case's records begin with its case"
    refresh_latest_assessment(submission_ids=[case.pk])
    now = timezone.now()
    for model, rows in by_model.items():
        for row in rows:
            row._history_date = min(row.created_at, now)
            row._history_user = (
                row.created_by if isinstance(row, Submission)
                else row.engineer if isinstance(row, Assessment)
                else row.assessment.engineer
            )
        model.history.bulk_history_create(  # type: ignore[attr-defined]  # django-simple-history adds .history at run time
            rows, default_change_reason=HISTORY_REASON)
    return case


def _compute(scenario: Scenario) -> Scenario:
    engineer = scenario.assessment.engineer
    doing = f"computing “{scenario.title}” of {scenario.assessment.submission.case_number} r{scenario.assessment.revision}"
    return _as(engineer, doing, services.scenario_compute, scenario=scenario)


def _change_inputs(scenario: Scenario, *, by: User, inputs: dict[str, Any], reasons: dict[str, Any], doing: str) -> Scenario:
    """Change ``inputs`` as the wizard does: each step that holds one saved with every input
    of the step as its form shows it (the saved value, else the default), the changed
    values and their reasons."""
    params = registry.get(scenario.scenario_key).params
    for key in dict.fromkeys(params[symbol].step for symbol in inputs):
        declared = params.for_step(key)
        symbols = {param.symbol for param in declared}
        values = {param.symbol: scenario.inputs.get(param.symbol, param.default) for param in declared}
        values |= {symbol: value for symbol, value in inputs.items() if symbol in symbols}
        step_reasons = {symbol: text for symbol, text in (scenario.reasons | reasons).items() if symbol in symbols}
        scenario = _as(by, doing, services.scenario_save_step, scenario=scenario, step=key, values=values,
                       reasons=step_reasons)
    return scenario


def _review(case: Submission, review: dict[str, Any]) -> None:
    """``fixtures/demo_review.json``: revision 1 submitted and approved, revision 2 started
    from it with one change, computed again."""
    User = get_user_model()
    user = User.objects.get_by_natural_key
    number = case.case_number
    first = case.assessments.get(revision=1)
    first = _as(user(review["submit"]["by"]), f"submitting {number} r1", workflow.assessment_submit,
                assessment=first, note=review["submit"]["note"])
    first = _as(user(review["approve"]["by"]), f"approving {number} r1", workflow.assessment_approve,
                assessment=first, comment=review["approve"]["comment"])
    engineer = user(review["revise"]["by"])
    second = _as(engineer, f"starting revision 2 of {number}", workflow.assessment_revise, assessment=first)
    change = review["revision_2"]
    scenario = second.scenarios.get(position=change["use"])
    doing = f"changing “{scenario.title}” of {number} r{second.revision}"
    scenario = _change_inputs(scenario, by=engineer, inputs=change["inputs"], reasons=change["reasons"], doing=doing)
    if change.get("release_texts"):
        texts = {release: dict(entry) for release, entry in scenario.release_texts.items()}
        for release, entry in change["release_texts"].items():
            texts.setdefault(release, {}).update(entry)
        scenario = _as(engineer, doing, services.scenario_update_release_texts, scenario=scenario, texts=texts)
    _compute(scenario)


def _add_missing_cases(cases: list[dict[str, Any]], review: dict[str, Any]) -> list[Submission]:
    """Make each demo case whose number is free: every one received, then every use
    computed, then the review case reviewed."""
    with _marking_history():
        made = [
            _receive(records) for number, records in demo_case_records(cases).items()
            if not Submission.objects.filter(case_number=number).exists()
        ]
        for scenario in Scenario.objects.filter(assessment__submission__in=made).order_by("pk"):
            _compute(scenario)
        for case in made:
            if case.case_number == review["case_number"]:
                _review(case, review)
    return made


def _summary(case: Submission) -> str:
    revisions = ", ".join(
        f"revision {a.revision} {workflow.STATUS_WORDS[a.status]}" for a in case.assessments.order_by("revision")
    )
    return f"{case.case_number} ({revisions})"


class Command(BaseCommand):
    help = (
        "Loads the demo users and cases (fixtures/demo_users.json, fixtures/demo_cases.json, their dates placed "
        "relative to the day of the load) into a development database, computes every use and takes the sample "
        "case through a review (fixtures/demo_review.json): "
        "only with DEVELOPMENT or DEBUG on, and only into a database that holds nothing but the demo data as "
        "load_demo makes it (refused otherwise, exit status 2). Without --force, only when the database has no "
        "user yet. It only adds missing demo users and cases: it never changes or deletes a row, and matches "
        "users by user name."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true",
            help="also when users exist: add the missing demo users and cases to a database that holds only "
            "demo data",
        )

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        if not development_machine():
            raise CommandError(NOT_DEBUG, returncode=EXIT_REFUSED)
        if get_user_model().objects.exists() and not force:
            self.stdout.write(USERS_EXIST)
            return
        users, review = _fixture(DEMO_USERS), _fixture(DEMO_REVIEW)
        cases = placed(_fixture(DEMO_CASES), now=timezone.now())
        with override_settings(EMAIL_BACKEND=NO_EMAIL), transaction.atomic():
            found = not_demo_data(users, cases)
            if found:
                shown = "; ".join(found[:SHOWN]) + (f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else "")
                raise CommandError(NOT_DEMO_ONLY.format(found=shown), returncode=EXIT_REFUSED)
            added_users = _add_missing_users(users)
            added_cases = _add_missing_cases(cases, review)
        if not added_users and not added_cases:
            self.stdout.write(NOTHING_MISSING)
            return
        what = f"{len(added_users)} user(s), {len(added_cases)} case(s)"
        if added_cases:
            what += ", every use computed: " + ", ".join(_summary(case) for case in added_cases)
        self.stdout.write(self.style.SUCCESS(LOADED.format(what=what)))
