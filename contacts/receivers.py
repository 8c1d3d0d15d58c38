"""The contact reports' part of a case's export and import (``assessments.events``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.dispatch import receiver

from assessments import events
from assessments.models import Submission

from . import transfer


@receiver(events.case_exporting, dispatch_uid="contacts.case_exporting")
def on_case_exporting(sender: type, *, submission: Submission, **kwargs: Any) -> tuple[str, list[dict[str, Any]]]:
    return transfer.export_part(submission=submission)


@receiver(events.case_importing, dispatch_uid="contacts.case_importing")
def on_case_importing(sender: type, *, document: Mapping[str, Any], **kwargs: Any) -> transfer.ContactImport:
    return transfer.import_part(document=document)
