"""Form fields that read only plain characters: a date, a whole number or a choice's key
typed with full-width digits (``２０２６-03-02``, ``１２``), which Django's own fields read
as the plain ones, is refused, by the one rule for the characters of every typed number
(``esd.number_text.is_plain``, which says why look-alikes are refused rather than folded).
The case form's numbers are read by ``esd.number_text.parse_number``, which applies the
same rule; the calendar's forms and the assignment use these fields."""

from __future__ import annotations

import datetime
from typing import Any, TypeVar

from django import forms
from django.db import models
from django.db.models import QuerySet

from ..esd.number_text import is_plain
from ..models.case_fields import EARLIEST_DATE, YEARS_AHEAD

#: Said of a date typed with look-alike or invisible characters; ``{subject}`` names the
#: field and ``{allowed}`` its range.
DATE_NOT_PLAIN = "{subject} must be a date {allowed}, typed with the digits 0-9 and hyphens, e.g. 2026-03-02."
#: ... of a whole number.
WHOLE_NUMBER_NOT_PLAIN = "{subject} must be a whole number from {lowest} to {highest}, typed with the digits 0-9."
#: ... of a choice's key (a list's option posted with a look-alike digit).
CHOICE_NOT_PLAIN = "Choose {subject} from the list."
#: The dates of the review, in words (``case_fields.DateRange``), where a field has no narrower rule.
ANY_REVIEW_DATE = f"from {EARLIEST_DATE.isoformat()} to {YEARS_AHEAD} years ahead"

_M = TypeVar("_M", bound=models.Model)


def _refuse_look_alikes(value: object, message: str) -> None:
    if isinstance(value, str) and not is_plain(value.strip()):
        raise forms.ValidationError(message, code="not_plain")


class PlainDateField(forms.DateField):
    """A date typed with the digits 0-9. ``subject``: the field as the error names it ("The
    received date"); ``allowed``: its range in words ("from 1977-01-01 to today")."""

    def __init__(self, *, subject: str, allowed: str = ANY_REVIEW_DATE, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.not_plain = DATE_NOT_PLAIN.format(subject=subject, allowed=allowed)

    def to_python(self, value: str | datetime.datetime | datetime.date | None) -> datetime.date | None:
        _refuse_look_alikes(value, self.not_plain)
        return super().to_python(value)


class PlainIntegerField(forms.IntegerField):
    """A whole number typed with the digits 0-9, from ``min_value`` to ``max_value``."""

    def __init__(self, *, subject: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.not_plain = WHOLE_NUMBER_NOT_PLAIN.format(subject=subject, lowest=self.min_value,
                                                       highest=self.max_value)

    def to_python(self, value: Any | None) -> int | None:
        _refuse_look_alikes(value, self.not_plain)
        return super().to_python(value)


class PlainModelChoiceField(forms.ModelChoiceField[_M]):
    """A choice of a row by its key, which only a list's plain option gives (a posted
    ``１`` would otherwise pick row 1)."""

    def __init__(self, queryset: models.Manager[_M] | QuerySet[_M] | None, *, subject: str, **kwargs: Any) -> None:
        super().__init__(queryset, **kwargs)
        self.not_plain = CHOICE_NOT_PLAIN.format(subject=subject)

    def to_python(self, value: Any | None) -> _M | None:
        _refuse_look_alikes(value, self.not_plain)
        return super().to_python(value)
