"""The case list at 100,000 cases (README "Performance").

- Each case keeps a copy of its latest assessment's status, revision and engineer
  (``Submission.LATEST_FIELDS``, written by ``models.refresh_latest_assessment``), filled
  here for the cases that exist, so that the status filter and the review queue's count
  read one indexed column instead of a subquery over the assessments per case.
- ``submission_status_newest_first``: a status-filtered page is read from an index in the
  list's order, from any case's place; ``submission_awaiting_review`` (partial: the cases
  whose latest assessment is submitted) holds all the review queue's count reads.
- PostgreSQL only: the ``pg_trgm`` extension and a trigram index on ``UPPER(field::text)``
  of each searched field (``Submission.SEARCHED_FIELDS``), the expression Django's
  ``icontains`` compiles to on PostgreSQL, so that a text search reads the matching cases
  from the indexes instead of scanning every case. SQLite has no such index; its search
  scans, as before. Reversing drops the indexes and leaves the extension (other objects
  may use it).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

NO_ASSESSMENT = "none"
# Submission.SEARCHED_FIELDS as of this migration.
SEARCHED_FIELDS = ("case_number", "chemical_name", "generic_name", "submitter", "case_name")
TABLE = "assessments_submission"


def trigram_index_name(field: str) -> str:
    return f"submission_{field}_trgm"


def fill_latest(apps, schema_editor):
    """``models.refresh_latest_assessment`` for every case, on the historical models."""
    Submission = apps.get_model("assessments", "Submission")
    Assessment = apps.get_model("assessments", "Assessment")
    latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
    Submission.objects.update(
        latest_status=Coalesce(Subquery(latest.values("status")[:1]), Value(NO_ASSESSMENT)),
        latest_revision=Subquery(latest.values("revision")[:1]),
        latest_engineer=Subquery(latest.values("engineer")[:1]),
    )


def create_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm", params=None)
    quote = schema_editor.quote_name
    for field in SEARCHED_FIELDS:
        schema_editor.execute(
            f"CREATE INDEX {quote(trigram_index_name(field))} ON {quote(TABLE)} "
            f"USING gin ((UPPER({quote(field)}::text)) gin_trgm_ops)",
            params=None,
        )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for field in SEARCHED_FIELDS:
        name = schema_editor.quote_name(trigram_index_name(field))
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}", params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0006_approved_work_triggers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="latest_engineer",
            field=models.ForeignKey(
                blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL,
                related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="engineer of the latest assessment",
            ),
        ),
        migrations.AddField(
            model_name="submission",
            name="latest_revision",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, verbose_name="latest revision"),
        ),
        migrations.AddField(
            model_name="submission",
            name="latest_status",
            field=models.CharField(
                choices=[("none", "No assessment yet"), ("draft", "Draft"), ("submitted", "Submitted"),
                         ("returned", "Returned"), ("approved", "Approved")],
                default="none", editable=False, max_length=10, verbose_name="status of the latest assessment",
            ),
        ),
        migrations.RunPython(fill_latest, migrations.RunPython.noop, elidable=False),
        migrations.AddIndex(
            model_name="submission",
            index=models.Index(fields=["latest_status", "-created_at", "-id"], name="submission_status_newest_first"),
        ),
        migrations.AddIndex(
            model_name="submission",
            index=models.Index(
                condition=models.Q(("latest_status", "submitted")), fields=["latest_engineer", "is_cbi"],
                name="submission_awaiting_review",
            ),
        ),
        migrations.AddConstraint(
            model_name="submission",
            constraint=models.CheckConstraint(
                condition=models.Q(("latest_status__in", ["none", "draft", "submitted", "returned", "approved"])),
                name="submission_latest_status_valid",
            ),
        ),
        migrations.RunPython(create_trigram_indexes, drop_trigram_indexes, elidable=False),
    ]
