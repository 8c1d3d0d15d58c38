"""The authentication audit trail: one row per login, logout, failed login, refused
(locked-out) login and expired session. Rows are written only by
:func:`audit.services.auth_event_record` and are never edited; the admin shows them
read-only. The attempted password is never stored.

The CBI custody log (:class:`CbiAccess`): one row each time a person sees the full data of
a CBI case, and each refused attempt to use the number of a case the user may not see."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import models
from django.utils import timezone

from assessments import events

USER_AGENT_MAX_LENGTH = 500


class AuthEvent(models.Model):
    class Kind(models.TextChoices):
        LOGIN = "login", "logged in"
        LOGOUT = "logout", "logged out"
        LOGIN_FAILED = "login_failed", "login failed"
        LOCKED_OUT = "locked_out", "login refused: locked out"
        SESSION_EXPIRED = "session_expired", "session expired"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    username = models.CharField(
        max_length=150, blank=True, help_text="As typed at the login, or the user's username."
    )
    # SET_NULL: deleting a user keeps their trail (the username stays on each row).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ip = models.GenericIPAddressField("IP address", null=True, blank=True)
    user_agent = models.CharField(max_length=USER_AGENT_MAX_LENGTH, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "authentication event"
        indexes = [models.Index(fields=["username", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_kind_display()}: {self.username or '?'}"


# The CBI custody log ---------------------------------------------------------------------------

CUSTODY_IS_APPEND_ONLY = "The CBI custody log is append-only: its rows are never changed or deleted."


class CustodyLogIsAppendOnly(PermissionDenied):
    """A change to, or a deletion of, a custody row. A ``PermissionDenied``, so one that
    reaches a view is a 403, never a 500."""


class CbiAccessQuerySet(models.QuerySet["CbiAccess"]):
    """The custody log's rows: read, added, never updated or deleted in bulk."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise CustodyLogIsAppendOnly(CUSTODY_IS_APPEND_ONLY)

    def delete(self) -> NoReturn:
        raise CustodyLogIsAppendOnly(CUSTODY_IS_APPEND_ONLY)

    def bulk_update(self, objs: Iterable[CbiAccess], fields: Iterable[str], batch_size: int | None = None) -> NoReturn:
        raise CustodyLogIsAppendOnly(CUSTODY_IS_APPEND_ONLY)


class CbiAccess(models.Model):
    """One row each time a person is shown, or handed, the full (unsanitised) data of a CBI
    case: who, when, what (the case, the revision if any, which page or copy) and from where
    (the client's address and user agent, or the operating-system user of a command). Also
    each refused attempt to give a case the number of a case the user may not see
    (:attr:`Kind.REFUSED_NUMBER`), and each change of a person's CBI clearance by the
    identity provider's groups (:attr:`Kind.CLEARANCE`: no case; the detail says which). Written only by ``audit.services``; append-only: the
    model refuses ``save()`` of a stored row and ``delete()``, its queryset ``update()`` and
    ``delete()``, and on PostgreSQL a trigger refuses UPDATE and DELETE to every client
    (migration 0002).

    The links to the user, the case and the revision are kept without a database
    constraint and with ``DO_NOTHING``: deleting a user or a case leaves its custody rows
    as they were (their user name and case number are copied on the row)."""

    class Kind(models.TextChoices):
        ACCESS = "access", "full CBI data seen"
        REFUSED_NUMBER = "refused_number", "refused case number"
        CLEARANCE = "clearance", "CBI clearance changed"

    #: Which page or copy (for a refused number: where it was typed), as the event names it.
    What = events.What

    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.ACCESS)
    what = models.CharField(max_length=24, choices=What.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False,
        related_name="+",
    )
    username = models.CharField(max_length=150, blank=True, help_text="The user's username at the time.")
    os_user = models.CharField(
        "operating-system user", max_length=150, blank=True, help_text="Who ran the command (a command's row)."
    )
    submission = models.ForeignKey(
        "assessments.Submission", verbose_name="case", null=True, blank=True, on_delete=models.DO_NOTHING,
        db_constraint=False, related_name="+",
    )
    case_number = models.CharField(
        max_length=40, help_text="The case's number at the time; for a refused number, the number typed."
    )
    assessment = models.ForeignKey(
        "assessments.Assessment", verbose_name="revision", null=True, blank=True, on_delete=models.DO_NOTHING,
        db_constraint=False, related_name="+",
    )
    revision = models.PositiveIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=200, blank=True, help_text="e.g. the revision compared with.")
    ip = models.GenericIPAddressField("IP address", null=True, blank=True)
    user_agent = models.CharField(max_length=USER_AGENT_MAX_LENGTH, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    objects = CbiAccessQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "CBI custody log entry"
        verbose_name_plural = "CBI custody log"
        indexes = [
            models.Index(fields=["submission", "-at"], name="cbi_access_case_newest"),
            models.Index(fields=["user", "-at"], name="cbi_access_user_newest"),
        ]

    def __str__(self) -> str:
        who = self.username or self.os_user or "?"
        return f"{self.at:%Y-%m-%d %H:%M:%S} {who}: {self.get_what_display()} {self.case_number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding or kwargs.get("force_update") or kwargs.get("update_fields") is not None:
            raise CustodyLogIsAppendOnly(CUSTODY_IS_APPEND_ONLY)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise CustodyLogIsAppendOnly(CUSTODY_IS_APPEND_ONLY)
