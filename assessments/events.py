"""What happened to a case, announced to the apps built on this one.

The review apps (``notices``, ``contacts``, ``calendar_review``) and ``audit`` import
``assessments``; ``assessments`` imports none of them. It announces each event here, once,
as a ``django.dispatch.Signal``, and each app subscribes in its ``AppConfig.ready()`` (its
``receivers`` module). Every event is sent with ``send``, never ``send_robust``: a
receiver's exception reaches the sender, and one sent inside a transaction undoes it, so a
notice, a custody row or a contact report is written with what it records or not at all.
``tests/test_events.py`` checks that every event has its receiver once the apps are ready.

| Event | Sent by | Received by |
|---|---|---|
| :data:`submitted`, :data:`approved`, :data:`returned` | ``assessments.workflow`` | ``notices.receivers`` |
| :data:`assigned` | ``calendar_review.services.engineer_assign`` | ``notices.receivers`` |
| :data:`case_exporting`, :data:`case_importing` | ``assessments.transfer`` | ``contacts.receivers`` |
| :data:`case_data_shown`, :data:`case_number_refused` | the views, the admin, the commands, the case services | ``audit.receivers`` |
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.dispatch import Signal
from django.http import HttpRequest

from .models import Assessment, Submission

# The review workflow ---------------------------------------------------------------------------

#: An engineer submitted a revision for approval. Keyword arguments: ``assessment`` (the
#: revision, submitted), ``by`` (the engineer), ``note``. Sent by
#: ``workflow.assessment_submit`` inside its transaction.
submitted = Signal()

#: A supervisor approved a revision. Keyword arguments: ``assessment``, ``by``, ``comment``.
#: Sent by ``workflow.assessment_approve`` inside its transaction, after the report is sealed.
approved = Signal()

#: A supervisor returned a revision. Keyword arguments: ``assessment``, ``by``, ``comment``
#: and ``use_comments`` (scenario id -> the comment on that use; empty when none). Sent by
#: ``workflow.assessment_return`` inside its transaction: a receiver that refuses a comment
#: (``ValidationError``) undoes the return.
returned = Signal()

#: A case was assigned to an engineer. Keyword arguments: ``submission``, ``engineer``,
#: ``assessment`` (the case's latest revision, or None), ``by``. Sent by the review
#: calendar's ``engineer_assign`` inside its transaction.
assigned = Signal()

# Moving a case between installations (``assessments.transfer``) --------------------------------

#: A case is being exported. Keyword argument: ``submission``. Each receiver answers
#: ``(key, value)``: its part of the export file, at the top level under ``key``
#: (:func:`exported_parts`).
case_exporting = Signal()

#: A case is being imported. Keyword argument: ``document`` (the whole file, as read). Each
#: receiver answers an :class:`ImportedPart`: its part of the file, read, which the import
#: writes with the case in its transaction (:func:`imported_parts`).
case_importing = Signal()


class ImportedPart(Protocol):
    """An app's part of a case import, called by ``assessments.transfer.writing.write`` in
    this order, each call free to refuse with ``TransferError``."""

    def user_names(self) -> set[str]:
        """The user names the part names (each must exist here, or be mapped)."""
        ...

    def write(self, submission: Submission, users: dict[str, Any], *,
              latest: tuple[datetime, str] | None = None) -> None:
        """Check and save the part's rows of ``submission`` (saved, not yet linked to a revision)."""
        ...

    def link(self, assessment: Assessment) -> None:
        """Link the rows to ``assessment``, once it is saved and before it is approved."""
        ...

    def finish(self, assessments: list[Assessment]) -> list[models.Model]:
        """Check the rows against every revision written; the rows saved, for their history."""
        ...


def exported_parts(*, submission: Submission) -> list[tuple[str, Any]]:
    """The apps' parts of the export of ``submission`` (:data:`case_exporting`), each
    ``(key, value)``."""
    # ``Signal.send`` returns each receiver's answer, whatever its type: this event's receivers answer a pair.
    return [cast(tuple[str, Any], answer) for _receiver, answer in
            case_exporting.send(sender=Submission, submission=submission)]


def imported_parts(*, document: Mapping[str, Any]) -> Sequence[ImportedPart]:
    """The apps' parts of the import of ``document`` (:data:`case_importing`)."""
    # ``Signal.send`` returns each receiver's answer, whatever its type: this event's receivers answer a part.
    return [cast(ImportedPart, answer) for _receiver, answer in
            case_importing.send(sender=Submission, document=document)]


# The CBI custody log -------------------------------------------------------------------------


class What(models.TextChoices):
    """Which page or copy showed a case's full data; for a refused case number, where it was typed."""

    CASE_PAGE = "case_page", "case page"
    CASE_FORM = "case_form", "case edit form"
    ADMIN_CASE = "admin_case", "case in the admin"
    ASSESSMENT_PAGE = "assessment_page", "assessment page"
    USE_RESULTS = "use_results", "use results"
    USE_WIZARD = "use_wizard", "use wizard"
    HISTORY = "history", "history"
    COMPARE = "compare", "compare"
    REPORT_PREVIEW = "report_preview", "report preview"
    IRER_PDF = "irer_pdf", "IRER PDF (full)"
    IRER_DOCX = "irer_docx", "IRER Word (full)"
    IRER_CONTACTS_PDF = "irer_contacts_pdf", "IRER with contacts PDF"
    CONTACT_REPORT = "contact_report", "contact report"
    CONTACT_REPORT_PDF = "contact_report_pdf", "contact report PDF"
    CONTACT_REPORTS_PDF = "contact_reports_pdf", "contact reports PDF"
    EXPORT = "export", "export"
    PORTFOLIO_CSV = "portfolio_csv", "portfolio CSV"
    # A person's CBI clearance changed (signin: the identity provider's groups).
    SIGN_IN = "sign_in", "sign-in"
    # Refused case numbers: where the number was typed.
    NEW_CASE = "new_case", "new case"
    CASE_RENAME = "case_rename", "case renumbered"


#: A person was shown, or handed, the full data of a case. Keyword arguments: ``what``
#: (:class:`What`), ``request``, ``user``, ``submission``, ``assessment``, ``sanitised``,
#: ``detail``, ``os_user`` (as :func:`shown` takes them). Sent by every page, download and
#: command that shows a case's full data; its receiver decides whether the custody log
#: records it (``audit.services.cbi_access_record``).
case_data_shown = Signal()

#: A user typed the number of a case they may not see. Keyword arguments: ``user``,
#: ``typed``, ``case``, ``what`` (:attr:`What.NEW_CASE` or :attr:`What.CASE_RENAME`),
#: ``request``. Sent by the case services; its receiver records it
#: (``audit.services.case_number_refusal_record``).
case_number_refused = Signal()


def shown(
    *, what: str, request: HttpRequest | None = None, user: User | AnonymousUser | None = None,
    submission: Submission | None = None, assessment: Assessment | None = None, sanitised: bool = False,
    detail: str = "", os_user: str = "",
) -> None:
    """Announce :data:`case_data_shown`: ``user`` (else the request's; for a command,
    ``os_user``) was shown the full data of ``submission``, or of ``assessment``'s case as
    that revision prints it; ``sanitised``: the copy handed over was the sanitised one."""
    case_data_shown.send(sender=Submission, what=what, request=request, user=user, submission=submission,
                         assessment=assessment, sanitised=sanitised, detail=detail, os_user=os_user)


def number_refused(*, user: User | AnonymousUser, typed: str, case: Submission, what: str,
                   request: HttpRequest | None = None) -> None:
    """Announce :data:`case_number_refused`: ``user`` typed ``typed``, the number of ``case``,
    which they may not see (``what``: a new case or a renumbering)."""
    case_number_refused.send(sender=Submission, user=user, typed=typed, case=case, what=what, request=request)


def os_user() -> str:
    """Who ran a management command: the operating system's user name (and, under sudo,
    who ran sudo), for the custody row of a command that hands over a CBI case's data."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login name and no password-file entry for the process's uid
        name = f"uid {os.getuid()}"
    sudo = os.environ.get("SUDO_USER")
    return f"{name} (sudo by {sudo})" if sudo and sudo != name else name
