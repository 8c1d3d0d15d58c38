"""The report cache in the database (``ReportFile``, ``reports.db_storage``): one row per
rendered PDF, shared by every host on this database. Starts empty; the cache fills it at
the next downloads (a folder cache left on disk is not copied: it is safe to drop)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0021_report_workers"),
    ]

    operations = [
        migrations.CreateModel(
            name="ReportFile",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=255, unique=True)),
                ("content", models.BinaryField(editable=False)),
                ("size", models.PositiveBigIntegerField(editable=False, verbose_name="size [bytes]")),
                ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now, editable=False)),
            ],
            options={
                "verbose_name": "report cache file",
                "ordering": ["name"],
            },
        ),
    ]
