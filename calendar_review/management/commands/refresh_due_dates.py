"""``manage.py refresh_due_dates``: copy every case's review calendar onto the case again
(``calendar_review.models.refresh_case_due``, the copy's one writer), so the lists read
the due dates the calendars and the settings give now.

The copy is written whenever a case or a calendar is saved, so this is needed only when
what it derives from changed without a save: after a change of ``PMN_REVIEW_DAYS`` (a
case without a recorded calendar keeps the default due date of the period in force when
it was entered until this is run), or after cases were loaded in bulk without it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from assessments.models import Submission

from ...models import refresh_case_due, review_days

HELP = (
    "Copy every case's review calendar onto the case again (its due date, stopped clock and engineer; the "
    "default due date for a case without a calendar, from PMN_REVIEW_DAYS now). Run it after changing "
    "PMN_REVIEW_DAYS."
)
DONE = "Due dates copied for {count} case(s); the default review period is {days} days."


class Command(BaseCommand):
    help = HELP

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            refresh_case_due()
            count = Submission.objects.count()
        self.stdout.write(DONE.format(count=count, days=review_days()))
