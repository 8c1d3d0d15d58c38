"""The IRER as approved (``models.SealedReport``), and on PostgreSQL a trigger that keeps
it final, to every client (the ORM's ``QuerySet.update()``/``delete()``, a psql session):

- an UPDATE or DELETE of a sealed report is refused;
- an INSERT is refused unless its assessment is approved (the approval writes its sealed
  copies in its own transaction, just after the status change and the approve decision).

The assessment's row is read ``FOR SHARE``, as migration 0006 reads it. A refusal is
SQLSTATE 23001 (restrict_violation): Django raises ``IntegrityError``. The model-level
guard (``models.sealed``) says the same to ORM callers on every database; SQLite has no
trigger, for the reason 0006 gives (``flush`` empties an SQLite database with DELETE).
"""

import django.db.models.deletion
from django.db import migrations, models

CREATE = r"""
CREATE FUNCTION assessments_sealed_report_is_final() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    parent_status text;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT status INTO parent_status FROM assessments_assessment WHERE id = NEW.assessment_id FOR SHARE;
        IF parent_status IS DISTINCT FROM 'approved' THEN
            RAISE EXCEPTION 'assessment % is not approved: it has no sealed report', NEW.assessment_id
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'sealed report % of assessment % is final: it cannot be changed or deleted',
            OLD.id, OLD.assessment_id
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER assessments_sealed_report_is_final
    BEFORE INSERT OR UPDATE OR DELETE ON assessments_sealedreport
    FOR EACH ROW EXECUTE FUNCTION assessments_sealed_report_is_final();
"""

DROP = """
DROP TRIGGER IF EXISTS assessments_sealed_report_is_final ON assessments_sealedreport;
DROP FUNCTION IF EXISTS assessments_sealed_report_is_final();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0017_look_alike_input_and_plausible_ranges"),
    ]

    operations = [
        migrations.CreateModel(
            name="SealedReport",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("copy", models.CharField(choices=[("full", "full"), ("sanitised", "sanitised")], max_length=10)),
                ("pdf", models.BinaryField(verbose_name="PDF")),
                ("sha256", models.CharField(editable=False, max_length=64, unique=True, verbose_name="SHA-256 of the PDF")),
                ("seal", models.CharField(
                    editable=False, max_length=20, verbose_name="seal",
                    help_text="The seal printed in the copy's footer: the first characters of the SHA-256 of what it prints.",
                )),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("assessment", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="sealed_reports", to="assessments.assessment",
                )),
                ("decision", models.ForeignKey(
                    help_text="The approval this copy was drawn at.", on_delete=django.db.models.deletion.CASCADE,
                    related_name="sealed_reports", to="assessments.reviewdecision",
                )),
            ],
            options={
                "ordering": ["assessment", "copy"],
                "constraints": [
                    models.UniqueConstraint(fields=("assessment", "copy"), name="sealed_report_one_per_copy"),
                    models.CheckConstraint(condition=models.Q(("copy__in", ["full", "sanitised"])),
                                           name="sealed_report_copy_valid"),
                ],
            },
        ),
        migrations.RunPython(create_trigger, drop_trigger, elidable=False),
    ]
