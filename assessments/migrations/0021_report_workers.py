"""The report workers' heartbeats (``ReportWorker``, ``reports.heartbeat``): one row per
``manage.py report_worker`` process, by its worker id, beaten every few seconds while it
runs. Starts empty: each worker writes its row when it starts."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0020_irer_combine_releases"),
    ]

    operations = [
        migrations.CreateModel(
            name="ReportWorker",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("worker_id", models.CharField(
                    help_text="db_worker's --worker-id, as in the tasks' worker ids; unique across the hosts.",
                    max_length=64, unique=True)),
                ("host", models.CharField(max_length=255)),
                ("pid", models.PositiveIntegerField(verbose_name="process id")),
                ("started_at", models.DateTimeField(
                    help_text="When this process started (a restart under the same id resets it).")),
                ("beat_at", models.DateTimeField(db_index=True, verbose_name="last heartbeat")),
                ("current_task_id", models.UUIDField(
                    blank=True, null=True, verbose_name="current task",
                    help_text="The task it was drawing at its last heartbeat (DBTaskResult id); empty when idle.")),
                ("stopped_at", models.DateTimeField(
                    blank=True, null=True,
                    help_text="When it stopped on a signal; empty while it runs, and after a kill (SIGKILL, a crash), "
                              "which leaves no time to record.")),
            ],
            options={
                "verbose_name": "report worker",
                "ordering": ["-beat_at"],
            },
        ),
    ]
