"""The reviewer's IRER layout choices on the assessment.

- ``irer_combine_releases``: whether the IRER prints the releases to one medium stacked in
  one block, as ChemSTEER's IrerComb does (until now a render option only); not combined
  to start, as every report printed before this migration.
- ``irer_appendix`` names its three choices (the status decides, printed, left out), so
  the notes page and the admin offer them in words; the column is unchanged.
"""

from django.db import migrations, models

APPENDIX_CHOICES = [
    (None, "As the status decides (drafts yes, approved copies no)"),
    (True, "Print the appendix"),
    (False, "Leave the appendix out"),
]


def _combine_field():
    return models.BooleanField(
        default=False, verbose_name="same-medium releases combined in the IRER",
        help_text="Prints the releases to one medium stacked in one block, as ChemSTEER's IrerComb does, "
        "instead of one block each.",
    )


def _appendix_field():
    return models.BooleanField(
        blank=True, null=True, choices=APPENDIX_CHOICES, verbose_name="calculation appendix in the IRER",
        help_text="Printed after the report: the releases as computed, the inputs used and the calculation trace.",
    )


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0019_chemsteer_parity"),
    ]

    operations = [
        migrations.AddField(model_name="assessment", name="irer_combine_releases", field=_combine_field()),
        migrations.AddField(model_name="historicalassessment", name="irer_combine_releases", field=_combine_field()),
        migrations.AlterField(model_name="assessment", name="irer_appendix", field=_appendix_field()),
        migrations.AlterField(model_name="historicalassessment", name="irer_appendix", field=_appendix_field()),
    ]
