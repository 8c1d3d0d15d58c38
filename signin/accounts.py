"""People from the identity provider: the account a sign-in is for, and the roles and CBI
clearance the provider's groups give, applied at each sign-in and each renewal.

A person is found by the provider's issuer and subject (``Identity``), never by e-mail. The
first sign-in of a subject creates the account (with no usable password: it signs in through
the provider only). When the provider sends no groups (OIDC_GROUPS_CLAIM empty, as with
Login.gov) the roles are the administrator's, set in the admin; the account must then have
been linked beforehand (``manage.py signin link``), and an unknown subject is refused.

A change of CBI clearance is written to the custody log (``audit.services``); a person whose
groups give no role at all is refused, and their account loses every role, so their API
tokens stop working at once (``api.tokens``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from assessments.roles import (
    ADMINISTRATOR_GROUP,
    CBI_PERMISSION,
    REVIEWER_GROUP,
    SUPERVISOR_GROUP,
    administrator_group,
)
from audit.services import clearance_change_record

from .config import GroupRoles, Oidc
from .models import PIV_ISSUER, Identity
from .oidc import SignInRefused

logger = logging.getLogger("signin")

NO_ROLE = (
    "Your account at {name} is in none of the groups that give a role in this application. Nothing was changed: "
    "ask your supervisor to add you to the reviewers' or supervisors' group."
)
NOT_LINKED = (
    "Your account at {name} is not linked to an account here (your subject is {subject}). Nothing was changed: "
    "ask an administrator to link it (manage.py signin link)."
)
INACTIVE = "Your account here is disabled. Nothing was changed: ask an administrator."
CLEARED = "CBI clearance granted by {issuer} (groups: {groups})"
UNCLEARED = "CBI clearance removed by {issuer} (in none of {groups})"

USERNAME_MAX = User._meta.get_field("username").max_length or 150


@dataclass(frozen=True)
class Roles:
    reviewer: bool
    supervisor: bool
    administrator: bool
    cbi: bool

    @property
    def any(self) -> bool:
        return self.reviewer or self.supervisor or self.administrator


def groups_of(claims: dict[str, Any], groups: GroupRoles) -> tuple[str, ...]:
    """The provider's groups in ``claims`` (a list, or one name)."""
    value = claims.get(groups.claim, [])
    if isinstance(value, str):
        value = [value]
    return tuple(str(group) for group in value) if isinstance(value, list) else ()


def roles_from(claims: dict[str, Any], groups: GroupRoles) -> Roles:
    held = set(groups_of(claims, groups))
    return Roles(
        reviewer=bool(held & set(groups.reviewer)),
        supervisor=bool(held & set(groups.supervisor)),
        administrator=bool(held & set(groups.administrator)),
        cbi=bool(held & set(groups.cbi)),
    )


def roles_held(user: User) -> Roles:
    names = set(user.groups.values_list("name", flat=True))
    return Roles(
        reviewer=REVIEWER_GROUP in names,
        supervisor=SUPERVISOR_GROUP in names,
        administrator=ADMINISTRATOR_GROUP in names,
        cbi=user.user_permissions.filter(content_type__app_label="assessments", codename="view_cbi").exists(),
    )


def _username(claims: dict[str, Any]) -> str:
    """A free username from the claims (preferred username, else the e-mail's local part,
    else the subject), made unique with a number."""
    raw = str(claims.get("preferred_username") or str(claims.get("email", "")).split("@")[0] or claims["sub"])
    base = re.sub(r"[^\w.@+-]", "-", raw)[: USERNAME_MAX - 4] or "person"
    name, number = base, 1
    while User.objects.filter(username=name).exists():
        number += 1
        name = f"{base}-{number}"
    return name


def _names(claims: dict[str, Any]) -> dict[str, str]:
    first, last = str(claims.get("given_name", "")), str(claims.get("family_name", ""))
    if not (first or last) and claims.get("name"):
        first, _, last = str(claims["name"]).partition(" ")
    return {"first_name": first[:150], "last_name": last[:150], "email": str(claims.get("email", ""))[:254]}


def _cbi_permission() -> Permission:
    app_label, codename = CBI_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def roles_apply(user: User, roles: Roles, *, config: Oidc, groups: tuple[str, ...],
                request: HttpRequest | None) -> list[str]:
    """Give ``user`` exactly ``roles``; the changes, in words. A change of CBI clearance is
    written to the custody log."""
    held = roles_held(user)
    changes = []
    for name, wanted, had in ((REVIEWER_GROUP, roles.reviewer, held.reviewer),
                              (SUPERVISOR_GROUP, roles.supervisor, held.supervisor)):
        if wanted != had:
            group = Group.objects.get(name=name)
            (user.groups.add if wanted else user.groups.remove)(group)
            changes.append(f"{name} {'granted' if wanted else 'removed'}")
    if roles.administrator:
        user.groups.add(administrator_group())  # its permissions brought up to date
    elif held.administrator:
        user.groups.remove(Group.objects.get(name=ADMINISTRATOR_GROUP))
    if roles.administrator != held.administrator or user.is_staff != roles.administrator:
        user.is_staff = roles.administrator  # the admin site; never a superuser (CBI is the CBI groups')
        user.save(update_fields=["is_staff"])
        if roles.administrator != held.administrator:
            changes.append(f"administrator {'granted' if roles.administrator else 'removed'}")
    if roles.cbi != held.cbi:
        (user.user_permissions.add if roles.cbi else user.user_permissions.remove)(_cbi_permission())
        words = CLEARED if roles.cbi else UNCLEARED
        shown = ", ".join(groups if roles.cbi else config.groups.cbi) or "none"
        clearance_change_record(user=user, granted=roles.cbi, request=request,
                                detail=words.format(issuer=config.issuer, groups=shown))
        changes.append(f"CBI clearance {'granted' if roles.cbi else 'removed'}")
    if changes:
        # Django caches a user's permissions on the object: drop them, so this request sees the new ones.
        for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
            user.__dict__.pop(cache, None)
        logger.info("Roles of %s from %s: %s", user.get_username(), config.issuer, "; ".join(changes))
    return changes


def person_for(config: Oidc, claims: dict[str, Any], *, request: HttpRequest | None) -> User:
    """The account this verified sign-in is for, created on a first sign-in, with the roles
    its groups give; ``SignInRefused`` (and nothing created or changed) when the person may
    not sign in."""
    subject = str(claims["sub"])
    identity = Identity.objects.select_related("user").filter(issuer=config.issuer, subject=subject).first()
    from_groups = bool(config.groups.claim)
    roles = roles_from(claims, config.groups) if from_groups else None
    if identity is None and not from_groups:
        raise SignInRefused(NOT_LINKED.format(name=config.name, subject=subject))
    if identity is not None and not identity.user.is_active:
        raise SignInRefused(INACTIVE)
    if roles is not None and not roles.any:
        if identity is not None:  # roles taken away: the account keeps none (its API tokens stop)
            with transaction.atomic():
                roles_apply(identity.user, roles, config=config, groups=(), request=request)
        raise SignInRefused(NO_ROLE.format(name=config.name))
    with transaction.atomic():
        if identity is None:
            user = User(username=_username(claims), **_names(claims))
            user.set_unusable_password()
            user.save()
            identity = Identity.objects.create(user=user, issuer=config.issuer, subject=subject)
        user = identity.user
        identity.last_sign_in = timezone.now()
        identity.save(update_fields=["last_sign_in"])
        if roles is not None:
            roles_apply(user, roles, config=config, groups=groups_of(claims, config.groups), request=request)
    return user


def renewed_roles(config: Oidc, user: User, claims: dict[str, Any], *, request: HttpRequest | None) -> Roles | None:
    """Apply the roles a renewal's claims give (None: the provider sends no groups)."""
    if not config.groups.claim:
        return None
    roles = roles_from(claims, config.groups)
    with transaction.atomic():
        roles_apply(user, roles, config=config, groups=groups_of(claims, config.groups), request=request)
    return roles


IDENTITY_MAX = Identity._meta.get_field("subject").max_length or 255
LINK_BLANK = "The {field} is required."
LINK_TOO_LONG = "The {field} is at most {maximum} characters ({length} given)."
LINK_BAD_CHARACTER = "The {field} holds a control character."
LINK_TAKEN = "{subject!r} at {issuer} is already linked to the account {username!r}."


def _checked(field: str, value: str) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError({field: LINK_BLANK.format(field=field)})
    if len(value) > IDENTITY_MAX:
        raise ValidationError({field: LINK_TOO_LONG.format(field=field, maximum=IDENTITY_MAX, length=len(value))})
    if any(ord(character) < 32 for character in value):
        raise ValidationError({field: LINK_BAD_CHARACTER.format(field=field)})
    return value


def identity_link(*, user: User, issuer: str, subject: str) -> Identity:
    """Link ``user`` to a subject at an issuer (a provider that sends no groups, whose people
    an administrator links beforehand; or ``PIV_ISSUER`` and a certificate's subject)."""
    issuer = _checked("issuer", issuer)
    if issuer != PIV_ISSUER:
        issuer = issuer.rstrip("/")
    subject = _checked("subject", subject)
    taken = Identity.objects.select_related("user").filter(issuer=issuer, subject=subject).first()
    if taken is not None:
        raise ValidationError({"subject": LINK_TAKEN.format(subject=subject, issuer=issuer,
                                                            username=taken.user.get_username())})
    return Identity.objects.create(user=user, issuer=issuer, subject=subject)
