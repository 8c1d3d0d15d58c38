"""Load the demo users and cases (the quick start's data) into a development database.

The demo users' passwords are printed in README.md and ``admin`` is a superuser, so the
demo data must never reach a real installation, nor harm the data of one:

- With ``DEBUG`` off the command refuses (exit status 2) and loads nothing.
- It loads only into a database that holds nothing but demo rows as this command loads
  them: every user, case, assessment, scenario and review decision present must be one
  of the fixtures' rows, unchanged (a user's last login aside). Anything else (another
  user, a demo user whose password changed, a case entered, a demo scenario computed,
  any review decision) and it refuses (exit status 2), naming what it found, and writes
  nothing.
- It only adds the demo rows that are missing; it never changes or deletes a row, and
  never writes a user by primary key: users are matched by user name (the fixtures name
  them so, ``fixtures/demo_users.json`` has no primary keys and the cases point to
  their users by name).
- Without ``--force`` it loads only when the database has no user yet (the first run of
  ``scripts/run.sh``); when users exist it says so and writes nothing (exit status 0), so
  restarting ``run.sh`` keeps every change. ``--force`` adds the missing demo rows to a
  database that holds demo rows only (after a demo case or user was deleted).

Each case row it adds starts its history with one record (:data:`HISTORY_REASON`).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core import serializers
from django.core.management.base import BaseCommand, CommandError
from django.core.management.color import no_style
from django.db import connection, transaction

from assessments.models import Assessment, ReviewDecision, Scenario, Submission, refresh_latest_assessment

DEMO_USERS = "demo_users.json"
DEMO_CASES = "demo_cases.json"
EXIT_REFUSED = 2

NOT_DEBUG = (
    "load_demo refused: DEBUG is off. The demo users' passwords are printed in README.md and one of them is "
    "a superuser, so the demo data loads only into a development database, with DEBUG on (DEBUG=1). "
    "Nothing was loaded."
)
NOT_DEMO_ONLY = (
    "load_demo refused: this database holds data other than the demo data as load_demo loads it ({found}). "
    "load_demo never changes or deletes anything; use it on an empty development database. Nothing was loaded."
)
USERS_EXIST = (
    "Users exist already: demo data not loaded (--force adds the missing demo rows to a database that holds "
    "only demo data)."
)
LOADED = "Demo data loaded: {what}."
NOTHING_MISSING = "The demo data is all here already: nothing loaded."
HISTORY_REASON = "Demo data loaded by load_demo."
SHOWN = 5  # rows named in NOT_DEMO_ONLY; the rest are counted

CASE_MODELS = {
    "assessments.submission": Submission,
    "assessments.assessment": Assessment,
    "assessments.scenario": Scenario,
    "assessments.reviewdecision": ReviewDecision,
}
IGNORED_USER_FIELDS = {"last_login"}  # a demo user who logged in is still a demo user
# A case's copy of its latest assessment: derived from the demo assessments, not in the fixture.
DERIVED_FIELDS = {Submission: Submission.LATEST_FIELDS}


def _fixture(name: str) -> list[dict]:
    for directory in settings.FIXTURE_DIRS:
        path = Path(directory) / name
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
    raise CommandError(f"The demo fixture {name} is missing from {', '.join(map(str, settings.FIXTURE_DIRS))}.")


# Which rows are demo rows, unchanged -----------------------------------------------------------


def _user_is_demo(user, record: dict) -> bool:
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
            field = User._meta.get_field(name)
            if field.value_from_object(user) != field.to_python(value):
                return False
    return True


def _row_is_demo(instance, record: dict) -> bool:
    """Every field of ``instance`` as the fixture's ``record`` loads it (a field the record
    leaves out: the model's default)."""
    fields = record["fields"]
    for field in type(instance)._meta.concrete_fields:
        if field.primary_key or field.name in DERIVED_FIELDS.get(type(instance), ()):
            continue
        stored = field.value_from_object(instance)
        if field.name not in fields:
            expected = field.get_default()
        elif field.is_relation and field.related_model is get_user_model():
            value = fields[field.name]
            user = getattr(instance, field.name)
            if (user.get_username() if user else None) != (value[0] if value else None):
                return False
            continue
        else:
            expected = field.to_python(fields[field.name])
        if stored != expected:
            return False
    return True


def _describe(instance) -> str:
    if isinstance(instance, Submission):
        return f"case {instance.case_number}"
    if isinstance(instance, Assessment):
        return f"assessment {instance.submission.case_number} r{instance.revision}"
    if isinstance(instance, Scenario):
        return f"use “{instance.title}” of {instance.assessment}"
    if isinstance(instance, ReviewDecision):
        return f"review decision ({instance.action}) of {instance.assessment}"
    return f"user {instance.get_username()}"


def not_demo_rows(users: list[dict], cases: list[dict]) -> list[str]:
    """Every user, case, assessment, scenario and review decision of the database that is
    not a demo row as loaded, described."""
    found = []
    by_name = {record["fields"]["username"]: record for record in users}
    for user in get_user_model().objects.order_by("pk"):
        record = by_name.get(user.get_username())
        if record is None or not _user_is_demo(user, record):
            found.append(_describe(user))
    for label, model in CASE_MODELS.items():
        records = {record["pk"]: record for record in cases if record["model"] == label}
        for instance in model.objects.order_by("pk"):
            record = records.get(instance.pk)
            if record is None or not _row_is_demo(instance, record):
                found.append(_describe(instance))
    return found


# Loading what is missing -----------------------------------------------------------------------


def _add_missing_users(users: list[dict]) -> list:
    """Create the demo users whose user names are not taken; an existing user is never touched."""
    User = get_user_model()
    created = []
    for record in users:
        fields = dict(record["fields"])
        groups, permissions = fields.pop("groups", []), fields.pop("user_permissions", [])
        if User.objects.filter(**{User.USERNAME_FIELD: fields[User.USERNAME_FIELD]}).exists():
            continue
        user = User(**{name: User._meta.get_field(name).to_python(value) for name, value in fields.items()})
        user.save()  # the fixture's password is already a hash
        user.groups.set(Group.objects.filter(name__in=[group[0] for group in groups]))
        user.user_permissions.set([Permission.objects.get_by_natural_key(*permission) for permission in permissions])
        created.append(user)
    return created


def _add_missing_cases(cases: list[dict]) -> list:
    """Create the demo case rows whose primary keys are free (in a database of demo rows
    only, a free key is a demo row deleted). The cases name their users by user name."""
    created = []
    for deserialized in serializers.deserialize("json", json.dumps(cases)):
        instance = deserialized.object
        if not type(instance).objects.filter(pk=instance.pk).exists():
            deserialized.save()  # a raw save: the fixture's timestamps as they are
            created.append(instance)
    if created:
        with connection.cursor() as cursor:  # PostgreSQL: the next key after the ones given
            for statement in connection.ops.sequence_reset_sql(no_style(), list(CASE_MODELS.values())):
                cursor.execute(statement)
        refresh_latest_assessment(
            submission_ids={i.pk for i in created if isinstance(i, Submission)}
            | {i.submission_id for i in created if isinstance(i, Assessment)}
        )
    by_model: dict[type, list] = {}
    for instance in created:
        by_model.setdefault(type(instance), []).append(instance)
    for model, rows in by_model.items():
        model.history.bulk_history_create(rows, default_change_reason=HISTORY_REASON)
    return created


class Command(BaseCommand):
    help = (
        "Loads the demo users and cases (fixtures/demo_users.json, fixtures/demo_cases.json) into a development "
        "database: only with DEBUG on, and only into a database that holds nothing but the demo rows as loaded "
        "(refused otherwise, exit status 2). Without --force, only when the database has no user yet. It only "
        "adds missing demo rows: it never changes or deletes a row, and matches users by user name."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true",
            help="also when users exist: add the missing demo rows to a database that holds only demo rows",
        )

    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG:
            raise CommandError(NOT_DEBUG, returncode=EXIT_REFUSED)
        if get_user_model().objects.exists() and not force:
            self.stdout.write(USERS_EXIST)
            return
        users, cases = _fixture(DEMO_USERS), _fixture(DEMO_CASES)
        with transaction.atomic():
            found = not_demo_rows(users, cases)
            if found:
                shown = "; ".join(found[:SHOWN]) + (f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else "")
                raise CommandError(NOT_DEMO_ONLY.format(found=shown), returncode=EXIT_REFUSED)
            added_users = _add_missing_users(users)
            added_rows = _add_missing_cases(cases)
        if not added_users and not added_rows:
            self.stdout.write(NOTHING_MISSING)
            return
        what = f"{len(added_users)} user(s), {len(added_rows)} case row(s) (cases, assessments, uses)"
        self.stdout.write(self.style.SUCCESS(LOADED.format(what=what)))
