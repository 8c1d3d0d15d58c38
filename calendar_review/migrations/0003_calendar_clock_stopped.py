"""``calendar_clock_stopped``: the calendars whose clock is stopped (a suspension open), a
few among every case's calendar, so the case list's "Clock stopped" filter reads them from
an index instead of every calendar (issue 33; README "Performance")."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("calendar_review", "0002_suspension_end_plausible_range"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="reviewcalendar",
            index=models.Index(
                condition=models.Q(("clock_stopped_on__isnull", False)), fields=["submission"],
                name="calendar_clock_stopped",
            ),
        ),
    ]
