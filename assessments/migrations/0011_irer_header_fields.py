"""The IRER header as ChemSTEER prints it (issue 15): structured SAT fields, the production
volume's qualifier, the assessment date, and the occupational exposure rating as a choice.

Schema: new fields are added first, filled from the old ones (:func:`forward`), then the
old ones (``import_only``, ``sat_migration``, ``pbt_rating``) are dropped and the choice
lists become database constraints. Nothing typed is lost:

- ``import_only`` true is "Import Only", false "Manufacture" (the old flag could not say
  "Manufacturing and Import"; an engineer changes it where that is so);
- ``sat_migration`` that reads as one of ChemSTEER's wordings becomes that choice; any
  other text becomes "Other (please specify)" with the text kept;
- ``pbt_rating`` that reads as ChemSTEER prints it (``P2B1T``) becomes its P, B and T;
  any other text is kept in the new PBT note;
- an occupational exposure rating that is not one of ChemSTEER's is moved to the end of
  the assessment's notes with a line saying so (``models.RATING_MOVED_TO_NOTES``);
- every assessment's date is the day it was created (the server's time zone).

The case history (django-simple-history) is filled the same way for the dropped case
fields, so earlier versions of a case still show them; the assessment history keeps the
ratings as they were typed then.

Approved assessments are rewritten too, in these two columns only (their rating as above
and their new date): the constraint on the rating holds for every row, and an approved
revision must still export, import and print. On PostgreSQL migration 0006's trigger that
refuses any change to an approved assessment is disabled for this one statement set and
enabled again, inside the migration's transaction.

The parsing functions live in ``assessments.models`` with their doctests; the import of
a case export made before this migration (``transfer``) reads an old file with the same
functions.
"""


import django.utils.timezone
from django.utils import timezone
from django.conf import settings
from django.db import migrations, models


APPROVED_TRIGGER = "assessments_approved_assessment_is_final"


def forward(apps, schema_editor):
    from assessments.models import (
        parse_groundwater_migration, parse_pbt_rating, split_occupational_exposure_rating,
    )

    postgres = schema_editor.connection.vendor == "postgresql"
    for name in ("Submission", "HistoricalSubmission"):
        model = apps.get_model("assessments", name)
        for row in model.objects.only("pk", "import_only", "sat_migration", "pbt_rating").iterator():
            migration, other = parse_groundwater_migration(row.sat_migration)
            p, b, t, note = parse_pbt_rating(row.pbt_rating)
            model.objects.filter(pk=row.pk).update(
                volume_qualifier="import_only" if row.import_only else "manufacture",
                groundwater_migration=migration, groundwater_migration_other=other[:200],
                pbt_persistence=p, pbt_bioaccumulation=b, pbt_toxicity=t, pbt_note=note[:200],
            )
    if postgres:
        schema_editor.execute(f"ALTER TABLE assessments_assessment DISABLE TRIGGER {APPROVED_TRIGGER}")
    for name in ("Assessment", "HistoricalAssessment"):
        model = apps.get_model("assessments", name)
        for row in model.objects.only("pk", "created_at", "occupational_exposure_rating", "notes").iterator():
            changes = {"assessment_date": timezone.localdate(row.created_at)}
            if name == "Assessment":
                rating, notes = split_occupational_exposure_rating(row.occupational_exposure_rating, row.notes)
                changes |= {"occupational_exposure_rating": rating, "notes": notes}
            model.objects.filter(pk=row.pk).update(**changes)
    if postgres:
        schema_editor.execute(f"ALTER TABLE assessments_assessment ENABLE TRIGGER {APPROVED_TRIGGER}")
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def backward(apps, schema_editor):
    """The old fields from the new ones; ratings moved to the notes stay there."""
    from assessments.models import GroundwaterMigration, pbt_rating_text

    labels = dict(GroundwaterMigration.choices)
    for name in ("Submission", "HistoricalSubmission"):
        model = apps.get_model("assessments", name)
        for row in model.objects.iterator():
            if row.groundwater_migration == GroundwaterMigration.OTHER:
                migration = row.groundwater_migration_other
            else:
                migration = labels.get(row.groundwater_migration, "")
            pbt = pbt_rating_text(row.pbt_persistence, row.pbt_bioaccumulation, row.pbt_toxicity) or row.pbt_note
            model.objects.filter(pk=row.pk).update(
                import_only=row.volume_qualifier == "import_only", sat_migration=migration, pbt_rating=pbt[:20],
            )


class Migration(migrations.Migration):

    dependencies = [
        ('assessments', '0010_irer_note_release_texts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='assessment',
            name='assessment_date',
            field=models.DateField(default=django.utils.timezone.localdate, help_text='Printed beside the status at the head of the IRER. A new revision starts with the day it is made.', verbose_name='assessment date'),
        ),
        migrations.AddField(
            model_name='historicalassessment',
            name='assessment_date',
            field=models.DateField(default=django.utils.timezone.localdate, help_text='Printed beside the status at the head of the IRER. A new revision starts with the day it is made.', verbose_name='assessment date'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='groundwater_migration',
            field=models.CharField(blank=True, choices=[('', 'Not given'), ('negligible', 'Negligible'), ('negligible_to_slow', 'Negligible to slow'), ('slow', 'Slow'), ('slow_to_moderate', 'Slow to moderate'), ('moderate', 'Moderate'), ('moderate_to_rapid', 'Moderate to Rapid'), ('rapid', 'Rapid'), ('other', 'Other (please specify)')], max_length=20, verbose_name='migration to groundwater'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='groundwater_migration_other',
            field=models.CharField(blank=True, help_text='Only with "Other (please specify)": the migration to groundwater in words.', max_length=200, verbose_name='other migration to groundwater'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='pbt_bioaccumulation',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], max_length=3, verbose_name='PBT rating: B (bioaccumulation)'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='pbt_note',
            field=models.CharField(blank=True, help_text='Printed after the PBT rating. Holds a rating typed before P, B and T were choices.', max_length=200, verbose_name='PBT note'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='pbt_persistence',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], help_text='Printed with B and T as ChemSTEER prints them, e.g. P2B1T.', max_length=3, verbose_name='PBT rating: P (persistence)'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='pbt_toxicity',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], max_length=3, verbose_name='PBT rating: T (toxicity)'),
        ),
        migrations.AddField(
            model_name='historicalsubmission',
            name='volume_qualifier',
            field=models.CharField(choices=[('manufacture', 'Manufacture'), ('import_only', 'Import Only'), ('manufacture_and_import', 'Manufacturing and Import')], default='manufacture', help_text='Printed after the production volume: Manufacture, Import Only, or Manufacturing and Import.', max_length=24, verbose_name='production volume is for'),
        ),
        migrations.AddField(
            model_name='submission',
            name='groundwater_migration',
            field=models.CharField(blank=True, choices=[('', 'Not given'), ('negligible', 'Negligible'), ('negligible_to_slow', 'Negligible to slow'), ('slow', 'Slow'), ('slow_to_moderate', 'Slow to moderate'), ('moderate', 'Moderate'), ('moderate_to_rapid', 'Moderate to Rapid'), ('rapid', 'Rapid'), ('other', 'Other (please specify)')], max_length=20, verbose_name='migration to groundwater'),
        ),
        migrations.AddField(
            model_name='submission',
            name='groundwater_migration_other',
            field=models.CharField(blank=True, help_text='Only with "Other (please specify)": the migration to groundwater in words.', max_length=200, verbose_name='other migration to groundwater'),
        ),
        migrations.AddField(
            model_name='submission',
            name='pbt_bioaccumulation',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], max_length=3, verbose_name='PBT rating: B (bioaccumulation)'),
        ),
        migrations.AddField(
            model_name='submission',
            name='pbt_note',
            field=models.CharField(blank=True, help_text='Printed after the PBT rating. Holds a rating typed before P, B and T were choices.', max_length=200, verbose_name='PBT note'),
        ),
        migrations.AddField(
            model_name='submission',
            name='pbt_persistence',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], help_text='Printed with B and T as ChemSTEER prints them, e.g. P2B1T.', max_length=3, verbose_name='PBT rating: P (persistence)'),
        ),
        migrations.AddField(
            model_name='submission',
            name='pbt_toxicity',
            field=models.CharField(blank=True, choices=[('', 'Not rated'), ('1', '1'), ('1-2', '1-2'), ('2', '2'), ('2-3', '2-3'), ('3', '3')], max_length=3, verbose_name='PBT rating: T (toxicity)'),
        ),
        migrations.AddField(
            model_name='submission',
            name='volume_qualifier',
            field=models.CharField(choices=[('manufacture', 'Manufacture'), ('import_only', 'Import Only'), ('manufacture_and_import', 'Manufacturing and Import')], default='manufacture', help_text='Printed after the production volume: Manufacture, Import Only, or Manufacturing and Import.', max_length=24, verbose_name='production volume is for'),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(
            model_name='historicalsubmission',
            name='import_only',
        ),
        migrations.RemoveField(
            model_name='historicalsubmission',
            name='pbt_rating',
        ),
        migrations.RemoveField(
            model_name='historicalsubmission',
            name='sat_migration',
        ),
        migrations.RemoveField(
            model_name='submission',
            name='import_only',
        ),
        migrations.RemoveField(
            model_name='submission',
            name='pbt_rating',
        ),
        migrations.RemoveField(
            model_name='submission',
            name='sat_migration',
        ),
        migrations.AlterField(
            model_name='assessment',
            name='occupational_exposure_rating',
            field=models.CharField(blank=True, choices=[('', 'Not given'), ('1A', '1A'), ('1-2A', '1-2A'), ('2A', '2A'), ('2-3A', '2-3A'), ('1B', '1B'), ('1-2B', '1-2B'), ('2B', '2B'), ('2-3B', '2-3B'), ('1C', '1C'), ('1-2C', '1-2C'), ('2C', '2C'), ('2-3C', '2-3C'), ('1D', '1D'), ('1-2D', '1-2D'), ('2D', '2D'), ('2-3D', '2-3D'), ('NR', 'NR'), ('0-1', '0-1')], help_text="ChemSTEER's ratings; NR: not rated. The engineer's choice, printed in the IRER.", max_length=40),
        ),
        migrations.AlterField(
            model_name='historicalassessment',
            name='occupational_exposure_rating',
            field=models.CharField(blank=True, choices=[('', 'Not given'), ('1A', '1A'), ('1-2A', '1-2A'), ('2A', '2A'), ('2-3A', '2-3A'), ('1B', '1B'), ('1-2B', '1-2B'), ('2B', '2B'), ('2-3B', '2-3B'), ('1C', '1C'), ('1-2C', '1-2C'), ('2C', '2C'), ('2-3C', '2-3C'), ('1D', '1D'), ('1-2D', '1-2D'), ('2D', '2D'), ('2-3D', '2-3D'), ('NR', 'NR'), ('0-1', '0-1')], help_text="ChemSTEER's ratings; NR: not rated. The engineer's choice, printed in the IRER.", max_length=40),
        ),
        migrations.AddConstraint(
            model_name='assessment',
            constraint=models.CheckConstraint(condition=models.Q(('occupational_exposure_rating__in', ['', '1A', '1-2A', '2A', '2-3A', '1B', '1-2B', '2B', '2-3B', '1C', '1-2C', '2C', '2-3C', '1D', '1-2D', '2D', '2-3D', 'NR', '0-1'])), name='assessment_occupational_exposure_rating_valid'),
        ),
        migrations.AddConstraint(
            model_name='submission',
            constraint=models.CheckConstraint(condition=models.Q(('volume_qualifier__in', ['manufacture', 'import_only', 'manufacture_and_import'])), name='submission_volume_qualifier_valid'),
        ),
        migrations.AddConstraint(
            model_name='submission',
            constraint=models.CheckConstraint(condition=models.Q(('groundwater_migration__in', ['', 'negligible', 'negligible_to_slow', 'slow', 'slow_to_moderate', 'moderate', 'moderate_to_rapid', 'rapid', 'other'])), name='submission_groundwater_migration_valid'),
        ),
        migrations.AddConstraint(
            model_name='submission',
            constraint=models.CheckConstraint(condition=models.Q(('pbt_persistence__in', ['', '1', '1-2', '2', '2-3', '3']), ('pbt_bioaccumulation__in', ['', '1', '1-2', '2', '2-3', '3']), ('pbt_toxicity__in', ['', '1', '1-2', '2', '2-3', '3'])), name='submission_pbt_scores_valid'),
        ),
    ]
