"""Case data per revision (issue 16): an approved revision keeps the case's data it was
approved with (``Assessment.case_snapshot``), so the case can be amended for the next
revision while the approved revision's IRER prints the case as approved; and the case's
history takes an amendment's reason as text (``history_change_reason``, no longer 100
characters at most).

Every revision approved before this migration gets its snapshot from the case's data as
it is now (the best record there is: until now a case with an approved revision could not
be changed, so that is the data it was approved with). The fields are those the case form
edits (``models.CASE_SNAPSHOT_FIELDS``, the same rule read from this migration's state).
On PostgreSQL migration 0006's trigger that refuses any change to an approved assessment
is disabled for this one statement set and enabled again, inside the migration's
transaction, as migration 0011 does.
"""

from django.db import migrations, models


APPROVED_TRIGGER = "assessments_approved_assessment_is_final"


def snapshot_approved(apps, schema_editor):
    Submission = apps.get_model("assessments", "Submission")
    Assessment = apps.get_model("assessments", "Assessment")
    names = [
        f.name for f in Submission._meta.concrete_fields if f.editable and not f.primary_key and not f.is_relation
    ]
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(f"ALTER TABLE assessments_assessment DISABLE TRIGGER {APPROVED_TRIGGER}")
    cases = {}
    approved = Assessment.objects.filter(status="approved", case_snapshot__isnull=True)
    for pk, submission_id in approved.values_list("pk", "submission_id").iterator():
        if submission_id not in cases:
            case = Submission.objects.get(pk=submission_id)
            snapshot = {name: getattr(case, name) for name in names}
            snapshot["cbi_claims"] = list(snapshot.get("cbi_claims") or [])
            cases[submission_id] = snapshot
        Assessment.objects.filter(pk=pk).update(case_snapshot=cases[submission_id])
    if postgres:
        schema_editor.execute(f"ALTER TABLE assessments_assessment ENABLE TRIGGER {APPROVED_TRIGGER}")
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ('assessments', '0011_irer_header_fields'),
    ]

    operations = [
        migrations.AddField(
            model_name='assessment',
            name='case_snapshot',
            field=models.JSONField(blank=True, editable=False, help_text="The case's data (header items and CBI claims) when this revision was approved; its IRER prints these, whatever the case says now.", null=True, verbose_name='case data as approved'),
        ),
        migrations.AddField(
            model_name='historicalassessment',
            name='case_snapshot',
            field=models.JSONField(blank=True, editable=False, help_text="The case's data (header items and CBI claims) when this revision was approved; its IRER prints these, whatever the case says now.", null=True, verbose_name='case data as approved'),
        ),
        migrations.AlterField(
            model_name='historicalsubmission',
            name='history_change_reason',
            field=models.TextField(null=True),
        ),
        migrations.RunPython(snapshot_approved, migrations.RunPython.noop),
    ]
