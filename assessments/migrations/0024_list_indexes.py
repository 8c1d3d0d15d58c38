"""Every list bounded by its page, not by the cases ever received (issue 33; README
"Performance").

- ``submission_open_newest_first``: the open cases (latest assessment not approved), in
  the list's order. The due-date list, the case list's due filters, "My work" and the
  review queue read the team's open work from it instead of every case.
- ``assessment_returned_newest``: an engineer's revisions returned to them, last changed
  first ("My work"), ten read from the index.
- PostgreSQL only: ``submission_case_number_prefix``, a B-tree on ``UPPER(case_number)``
  with ``text_pattern_ops``, what a search of one or two characters compares
  (``selectors.submission_search``: the case numbers that start with it, Django's
  ``istartswith``), so such a search reads the matching index entries instead of every
  case; a trigram index cannot serve fewer than three characters. SQLite has no operator
  classes: its search scans, as before. Reversing drops the index.
"""

from django.db import migrations, models

TABLE = "assessments_submission"
PREFIX_INDEX = "submission_case_number_prefix"


def create_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    schema_editor.execute(
        f"CREATE INDEX {quote(PREFIX_INDEX)} ON {quote(TABLE)} ((UPPER({quote('case_number')}::text)) text_pattern_ops)",
        params=None,
    )


def drop_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(PREFIX_INDEX)}", params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0023_irer_sensitivity"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="submission",
            index=models.Index(
                condition=models.Q(("latest_status", "approved"), _negated=True), fields=["-created_at", "-id"],
                name="submission_open_newest_first",
            ),
        ),
        migrations.AddIndex(
            model_name="assessment",
            index=models.Index(
                condition=models.Q(("status", "returned")), fields=["engineer", "-updated_at", "-id"],
                name="assessment_returned_newest",
            ),
        ),
        migrations.RunPython(create_prefix_index, drop_prefix_index, elidable=False),
    ]
