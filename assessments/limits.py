"""How much free text a field takes, and the check every way in applies (forms, services,
the review actions, the import): no NUL character (PostgreSQL cannot store one) and no
more than the field's limit, with a message naming the field and the limit. Nothing is
cut short silently.

The limits keep every page and the report quick to render whatever is typed: a report
prints each of these fields once, so their sum bounds its free text.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

#: Characters, per free-text field. One-line fields (a use's title, a case number) take
#: their model field's ``max_length`` instead (``check_text(..., limit=...)``).
TEXT_LIMITS = {
    "notes": 20_000,
    "pollution_prevention": 10_000,
    "volume_excess_reason": 4_000,
    "occupational_exposure_rating_reason": 4_000,
    "use_description": 5_000,
    "other_uses": 5_000,
    "consumer_use": 5_000,
    "sat_health": 5_000,
    "sat_eco": 5_000,
    "comment": 4_000,
    "amendment_reason": 2_000,  # a change to a case with an approved revision (its history's change reason)
}

NUL_NOT_ALLOWED = "{label} must not contain NUL characters."
TOO_LONG = "{label} is {length:,} characters long; at most {limit:,} are allowed."


def text_error(value: str, *, label: str, limit: int) -> str:
    """The message for ``value`` as ``label``, or ``""`` when it is acceptable.

    >>> text_error("ok", label="Title", limit=200)
    ''
    >>> text_error("a\\x00b", label="Title", limit=200)
    'Title must not contain NUL characters.'
    >>> text_error("x" * 201, label="Title", limit=200)
    'Title is 201 characters long; at most 200 are allowed.'
    """
    if "\x00" in value:
        return NUL_NOT_ALLOWED.format(label=label)
    if len(value) > limit:
        return TOO_LONG.format(label=label, length=len(value), limit=limit)
    return ""


def check_text(value: str, *, field: str, label: str, limit: int | None = None) -> str:
    """``value`` if acceptable for ``field``; else ``ValidationError`` keyed by ``field``."""
    message = text_error(value or "", label=label, limit=limit or TEXT_LIMITS[field])
    if message:
        raise ValidationError({field: message})
    return value
