"""ChemSTEER parity on the assessment.

- ``irer_appendix``: whether the IRER prints its calculation appendix (empty: for drafts,
  not for approved copies).
- ``irer_status`` / ``irer_status_other``: the status the IRER prints at its head, from
  ChemSTEER v3.2's list (``models.case_fields.IrerStatus``); "CEB Staff Draft" to start.
- The occupational exposure rating is derived from the results (``exposure_rating``); the
  stored rating becomes the reviewer's override, with ``occupational_exposure_rating_reason``.
  A rating typed before this migration is kept as an override, its reason saying so.
"""

from django.db import migrations, models

STATUSES = [
    "Contractor Draft", "CEB Staff Draft", "Focus Ready Draft", "Standard Review Draft",
    "Post-Focus Draft Revision 1", "Post-Focus Draft Revision 2", "Post-Focus Draft Revision 3",
    "Post-Focus Draft Revision 4", "Post-Focus Draft Revision 5", "Other",
]
RATINGS = [
    "1A", "1-2A", "2A", "2-3A", "1B", "1-2B", "2B", "2-3B",
    "1C", "1-2C", "2C", "2-3C", "1D", "1-2D", "2D", "2-3D", "NR", "0-1",
]
#: The reason given to a rating chosen before the rating was derived from the results.
KEPT_REASON = "Chosen by hand before the rating was derived from the results; kept as the reviewer's rating."


def _appendix_field():
    return models.BooleanField(
        blank=True, null=True, verbose_name="calculation appendix in the IRER",
        help_text="Empty: printed for drafts, left out of approved copies.",
    )


def _status_field():
    return models.CharField(
        choices=[(s, s) for s in STATUSES], default="CEB Staff Draft", max_length=40,
        verbose_name="status printed in the IRER",
        help_text="ChemSTEER's list; printed at the head of the IRER with the assessment date.",
    )


def _status_other_field():
    return models.CharField(
        blank=True, max_length=100, verbose_name="other IRER status",
        help_text='The status in your words, when the status is "Other".',
    )


def _reason_field():
    return models.TextField(
        blank=True, verbose_name="reason for the rating chosen",
        help_text="Why the rating chosen differs from the one derived from the results.",
    )


def _rating_field():
    return models.CharField(
        blank=True, choices=[("", "Not given"), *((r, r) for r in RATINGS)], max_length=40,
        verbose_name="occupational exposure rating (override)",
        help_text="Empty: the rating derived from the results, as ChemSTEER v3.2 derives it, is printed. "
        "A rating chosen here overrides it in the IRER, with its reason.",
    )


def keep_typed_ratings(apps, schema_editor):
    """A rating typed by hand stays the one printed: an override, with the reason saying why."""
    Assessment = apps.get_model("assessments", "Assessment")
    for assessment in Assessment.objects.exclude(occupational_exposure_rating="").filter(
        occupational_exposure_rating_reason=""
    ):
        assessment.occupational_exposure_rating_reason = KEPT_REASON
        assessment.save(update_fields=["occupational_exposure_rating_reason"])


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0018_sealed_irer"),
    ]

    operations = [
        migrations.AddField(model_name="assessment", name="irer_appendix", field=_appendix_field()),
        migrations.AddField(model_name="historicalassessment", name="irer_appendix", field=_appendix_field()),
        migrations.AddField(model_name="assessment", name="irer_status", field=_status_field()),
        migrations.AddField(model_name="historicalassessment", name="irer_status", field=_status_field()),
        migrations.AddField(model_name="assessment", name="irer_status_other", field=_status_other_field()),
        migrations.AddField(model_name="historicalassessment", name="irer_status_other", field=_status_other_field()),
        migrations.AddField(model_name="assessment", name="occupational_exposure_rating_reason", field=_reason_field()),
        migrations.AddField(
            model_name="historicalassessment", name="occupational_exposure_rating_reason", field=_reason_field()
        ),
        migrations.AlterField(model_name="assessment", name="occupational_exposure_rating", field=_rating_field()),
        migrations.AlterField(
            model_name="historicalassessment", name="occupational_exposure_rating", field=_rating_field()
        ),
        migrations.AddConstraint(
            model_name="assessment",
            constraint=models.CheckConstraint(
                condition=models.Q(irer_status__in=STATUSES), name="assessment_irer_status_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="assessment",
            constraint=models.CheckConstraint(
                condition=(models.Q(irer_status="Other") & ~models.Q(irer_status_other=""))
                | (~models.Q(irer_status="Other") & models.Q(irer_status_other="")),
                name="assessment_irer_status_other_text",
            ),
        ),
        migrations.RunPython(keep_typed_ratings, migrations.RunPython.noop),
    ]
