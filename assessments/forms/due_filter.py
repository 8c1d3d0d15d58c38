"""The case list's due-date filter (``case_list``; the rule is ``due_dates.filter_by_due``)."""

from __future__ import annotations

from typing import Any

from django import forms

from ..due_dates import DUE_CHOICES, DUE_WITHIN, WITHIN_MAX_DAYS, due_soon_days
from .plain import PlainIntegerField

WITHIN_HELP = "For “Due within N days”; {days} when empty."


class DueFilterForm(forms.Form):
    """The case list's due-date filter."""

    due = forms.ChoiceField(
        label="Due date", required=False, choices=DUE_CHOICES,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    within = PlainIntegerField(
        subject="N (days)", label="N (days)", required=False, min_value=0, max_value=WITHIN_MAX_DAYS,
        widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The days "due soon" counts when N is left empty: the setting in force, not a copy of it.
        self.fields["within"].help_text = WITHIN_HELP.format(days=due_soon_days())

    def filters(self) -> dict[str, Any]:
        """Keyword arguments of ``due_dates.filter_by_due`` (none when the form is invalid)."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {"due": data["due"], "within": data["within"] if data["due"] == DUE_WITHIN else None}
