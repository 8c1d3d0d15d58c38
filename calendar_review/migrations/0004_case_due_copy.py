"""Fill the copy of each case's calendar on the case (``Submission.CALENDAR_FIELDS``,
added by assessments 0025) for the cases already entered: the calendar's due date, open
suspension and engineer, or the default due date. The running code's writer is
``models.refresh_case_due``; this is the same statement over the historical models, with
the default period as the settings give it when the migration runs."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Cast, Coalesce, TruncDate


def fill(apps, schema_editor):
    Submission = apps.get_model("assessments", "Submission")
    ReviewCalendar = apps.get_model("calendar_review", "ReviewCalendar")
    days = int(getattr(settings, "PMN_REVIEW_DAYS", 90))
    calendar = ReviewCalendar.objects.filter(submission=OuterRef("pk"))
    default = Cast(TruncDate("created_at") + timedelta(days=days), output_field=models.DateField())
    Submission.objects.update(
        due_on=Coalesce(Subquery(calendar.values("due_on")[:1]), default, output_field=models.DateField()),
        clock_stopped_on=Subquery(calendar.values("clock_stopped_on")[:1]),
        calendar_recorded=Exists(calendar),
        assigned_engineer=Subquery(calendar.values("assigned_engineer")[:1]),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("calendar_review", "0003_calendar_clock_stopped"),
        ("assessments", "0025_case_due_copy"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
